//! `grader watch` in a real terminal: tmux runs it in a detached session
//! of a fixed size on a private server (`tmux -L`, never a user's, killed
//! at the end whatever happens), and the test reads the screen as a
//! learner would, edits the file as editors do (written in place, and
//! written beside it and renamed over it), presses keys, and checks by pid
//! that nothing `watch` started outlives it and that the terminal is back
//! in its line mode. Also `grader grade` on a terminal, which folds the
//! failures past the third.

use crate::support::{root, run, shared, slow_class, tempdir, text, trimmed_challenges};
use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The most any screen may take to appear on a loaded machine: a grading
/// of the whole suite, with its diagnosis.
const PATIENCE: Duration = Duration::from_secs(180);

/// What the shell does once `grader watch` ends: says how, then shows the
/// terminal's modes (to check watch gave them back), then a line that
/// marks the end of them.
const AFTER_WATCH: &str = "echo \"watch exited $?\"; stty -a; echo \"modes shown\"";

/// Whether the screen shows all of [`AFTER_WATCH`]: not before the whole
/// of `stty -a` is on it, whose first line comes before the modes.
fn watch_ended(screen: &str) -> bool {
    screen.contains("watch exited") && screen.contains("modes shown")
}

/// A tmux server of the test's own, killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn new(name: &str) -> Tmux {
        Tmux {
            socket: format!("grader-{name}-{}", std::process::id()),
        }
    }

    fn command(&self) -> Command {
        let mut command = Command::new("tmux");
        // No user configuration, and a terminal type tmux knows.
        command
            .args(["-L", &self.socket, "-f", "/dev/null"])
            .env("TERM", "xterm-256color");
        command
    }

    fn tmux(&self, args: &[&str]) -> String {
        let out = self
            .command()
            .args(args)
            .output()
            .expect("tmux runs (Debian: tmux; .ci/run installs it)");
        assert!(out.status.success(), "tmux {args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    }

    /// Starts `shell` (a sh command line) in a detached 120x60 session
    /// whose pane stays after it ends, to be read.
    fn start(&self, shell: &str) {
        self.start_sized(shell, 120, 60);
    }

    /// [`Tmux::start`] in a terminal of `columns` by `rows`.
    fn start_sized(&self, shell: &str, columns: u16, rows: u16) {
        self.tmux(&[
            "new-session",
            "-d",
            "-s",
            "t",
            "-x",
            &columns.to_string(),
            "-y",
            &rows.to_string(),
            "sh",
            "-c",
            shell,
            // In the same command, before the pane can end: set apart, a
            // pane that ended first would take its session with it.
            ";",
            "set-option",
            "-t",
            "t",
            "remain-on-exit",
            "on",
        ]);
    }

    fn screen(&self) -> String {
        self.tmux(&["capture-pane", "-p", "-J", "-t", "t"])
    }

    /// The screen's rows as they are, lines the terminal wrapped not
    /// joined.
    fn rows(&self) -> Vec<String> {
        self.tmux(&["capture-pane", "-p", "-t", "t"])
            .lines()
            .map(str::to_owned)
            .collect()
    }

    fn pane(&self, format: &str) -> String {
        self.tmux(&["display-message", "-p", "-t", "t", format])
            .trim()
            .to_owned()
    }

    /// Polls the screen until `done` holds, calling `meanwhile` at every
    /// look; panics with the screen after [`PATIENCE`].
    fn wait_for(
        &self,
        what: &str,
        done: impl Fn(&str) -> bool,
        meanwhile: &mut dyn FnMut(),
    ) -> String {
        let start = Instant::now();
        loop {
            meanwhile();
            let screen = self.screen();
            if done(&screen) {
                return screen;
            }
            assert!(
                start.elapsed() < PATIENCE,
                "no {what} on the screen after {PATIENCE:?}:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self
            .command()
            .args(["kill-server"])
            .stderr(std::process::Stdio::null())
            .status();
    }
}

/// A process as /proc knows it: its pid and start time (which tell a
/// reused pid apart), and its name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Process {
    pid: u32,
    started: u64,
    name: String,
}

fn process(pid: u32) -> Option<(Process, u32)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The name is in parentheses and may hold spaces; the fields after it
    // are: state, ppid, ... starttime is the 20th after the name.
    let (name, rest) = stat.split_once(" (")?.1.rsplit_once(") ")?;
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ppid = fields.get(1)?.parse().ok()?;
    let started = fields.get(19)?.parse().ok()?;
    Some((
        Process {
            pid,
            started,
            name: name.to_owned(),
        },
        ppid,
    ))
}

/// Every process below `root` now.
fn descendants(root: u32) -> Vec<Process> {
    let all: Vec<(Process, u32)> = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter_map(process)
        .collect();
    let mut found: Vec<Process> = Vec::new();
    let mut parents = vec![root];
    while let Some(parent) = parents.pop() {
        for (p, ppid) in &all {
            if *ppid == parent {
                parents.push(p.pid);
                found.push(p.clone());
            }
        }
    }
    found
}

/// Whether `p` still runs (its pid with its start time; a zombie counts,
/// as nobody reaped it).
fn alive(p: &Process) -> bool {
    process(p.pid).is_some_and(|(now, _)| now.started == p.started)
}

fn write_atomically(file: &Path, contents: &[u8]) {
    // As editors save: a temporary file beside it, renamed over it.
    let temporary = file.with_file_name(".router.py.saving");
    std::fs::write(&temporary, contents).unwrap();
    std::fs::rename(&temporary, file).unwrap();
}

/// A Router whose route never returns: its grading runs long enough to
/// be stopped half-way, with the learner's process running. It sleeps
/// rather than spins, so that the tests beside it keep their CPUs.
const LOOPS: &str = "import time\n\n\nclass Router:\n    def __init__(self, nodes):\n        self.nodes = list(nodes)\n\n    def route(self, key):\n        while True:\n            time.sleep(60)\n\n    def add(self, node):\n        self.nodes.append(node)\n\n    def remove(self, node):\n        self.nodes.remove(node)\n";

#[test]
fn watch_regrades_every_save_and_leaves_nothing_behind() {
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    let failing = std::fs::read(root().join("submissions/python/lowest_score.py")).unwrap();
    let correct = std::fs::read(root().join("submissions/python/correct_class.py")).unwrap();
    std::fs::write(&file, &failing).unwrap();
    let tmux = Tmux::new("watch");
    let quote = |p: &Path| format!("'{}'", p.display());
    tmux.start(&format!(
        "cd {} && {} --challenges {} watch --cache-dir {} router.py; {AFTER_WATCH}",
        quote(dir.path()),
        quote(Path::new(env!("CARGO_BIN_EXE_grader"))),
        quote(trimmed_challenges()),
        quote(&dir.path().join("cache")),
    ));
    let shell: u32 = tmux.pane("#{pane_pid}").parse().unwrap();
    // Everything that ran below the pane's shell, sampled at every look.
    let seen: std::cell::RefCell<BTreeSet<Process>> = Default::default();
    let mut record = || seen.borrow_mut().extend(descendants(shell));

    // Graded on start: the failure, its mistake, the progress.
    let failing_screen =
        |s: &str| s.contains("wrong-answer in ") && s.contains(" tests pass · score ");
    let screen = tmux.wait_for("failing verdict", failing_screen, &mut record);
    assert!(
        screen.contains("likely mistake: the lowest score wins"),
        "{screen}"
    );
    assert!(screen.contains("q quits"), "{screen}");
    // One failure explained, not all of them.
    assert_eq!(screen.matches("\n--- ").count(), 1, "{screen}");

    // Saved in place: accepted.
    std::fs::write(&file, &correct).unwrap();
    let accepted =
        |s: &str| s.contains("accepted: every test passes") && s.contains("score 100/100");
    tmux.wait_for("accepted after an in-place write", accepted, &mut record);

    // Saved by renaming over it: failing again, then accepted again.
    write_atomically(&file, &failing);
    tmux.wait_for(
        "failing verdict after a rename",
        failing_screen,
        &mut record,
    );
    write_atomically(&file, &correct);
    tmux.wait_for("accepted after a rename", accepted, &mut record);

    // A save during a grading stops it: the looping Router's process is
    // seen running, then the next save is graded and shown, and the
    // looping process is gone.
    std::fs::write(&file, LOOPS).unwrap();
    let mut looping: Vec<Process> = Vec::new();
    tmux.wait_for(
        "a grading with the learner's code running",
        |s| s.contains("grading the version saved at"),
        &mut || {
            record();
            looping = descendants(shell)
                .into_iter()
                .filter(|p| p.name.starts_with("python"))
                .collect();
        },
    );
    let start = Instant::now();
    while looping.is_empty() {
        assert!(start.elapsed() < PATIENCE, "the looping Router never ran");
        std::thread::sleep(Duration::from_millis(50));
        looping = descendants(shell)
            .into_iter()
            .filter(|p| p.name.starts_with("python"))
            .collect();
    }
    seen.borrow_mut().extend(looping.iter().cloned());
    write_atomically(&file, &correct);
    tmux.wait_for(
        "accepted after a save that stopped a grading",
        accepted,
        &mut record,
    );
    let left: Vec<&Process> = looping.iter().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "the stopped grading left {left:?} running");

    // q during a grading, with the learner's code running: watch ends.
    std::fs::write(&file, LOOPS).unwrap();
    let start = Instant::now();
    loop {
        record();
        let python = descendants(shell)
            .iter()
            .any(|p| p.name.starts_with("python"));
        if python && tmux.screen().contains("grading the version saved at") {
            break;
        }
        assert!(start.elapsed() < PATIENCE, "the looping Router never ran");
        std::thread::sleep(Duration::from_millis(50));
    }
    record();
    tmux.tmux(&["send-keys", "-t", "t", "q"]);
    let screen = tmux.wait_for("the end of watch", watch_ended, &mut || {});
    // The version on screen was not graded: not a pass.
    assert!(screen.contains("stopped watching router.py"), "{screen}");
    assert!(screen.contains("watch exited 1"), "{screen}");
    // The terminal is back in line mode, echoing.
    let stty: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo", "isig"] {
        assert!(stty.contains(&mode), "{mode} is off after watch:\n{screen}");
    }
    // Nothing watch started, nor watch itself, nor the shell, runs on.
    let start = Instant::now();
    while tmux.pane("#{pane_dead}") != "1" {
        assert!(start.elapsed() < PATIENCE, "the pane's shell never ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    let seen = seen.into_inner();
    let watch: Vec<&Process> = seen.iter().filter(|p| p.name == "grader").collect();
    assert!(
        watch.len() >= 2,
        "watch and its gradings were not seen: {seen:?}"
    );
    assert!(
        seen.iter().any(|p| p.name.starts_with("python")),
        "{seen:?}"
    );
    let left: Vec<&Process> = seen.iter().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "still running after watch ended: {left:?}");
}

#[test]
fn watch_shows_a_module_that_does_not_load_and_leaves_on_ctrl_c() {
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    std::fs::copy(root().join("submissions/python/syntax_error.py"), &file).unwrap();
    let tmux = Tmux::new("ctrlc");
    tmux.start(&format!(
        // An interactive shell survives the Ctrl-C its job gets; this
        // one is told to (a trap with a command leaves the job's default).
        "trap : INT; cd '{}' && {} --challenges '{}' watch --cache-dir cache router.py; {AFTER_WATCH}",
        dir.path().display(),
        env!("CARGO_BIN_EXE_grader"),
        trimmed_challenges().display(),
    ));
    let shell: u32 = tmux.pane("#{pane_pid}").parse().unwrap();
    let seen: std::cell::RefCell<BTreeSet<Process>> = Default::default();
    let mut record = || seen.borrow_mut().extend(descendants(shell));
    // The syntax error is the verdict, on every test alike (the first
    // failing test shows it before the verdict).
    let screen = tmux.wait_for(
        "the load error's verdict",
        |s| {
            s.contains("the module failed to load: SyntaxError") && s.contains("tests pass · score")
        },
        &mut record,
    );
    assert!(
        screen.contains("runtime-error in all 22 failing tests, alike"),
        "{screen}"
    );
    assert!(screen.contains("0/22 tests pass · score 0/100"), "{screen}");
    // Gone, then back.
    std::fs::remove_file(&file).unwrap();
    tmux.wait_for(
        "the file missing",
        |s| s.contains("router.py is not there"),
        &mut record,
    );
    std::fs::copy(root().join("submissions/python/correct_class.py"), &file).unwrap();
    tmux.wait_for(
        "accepted once the file is back",
        |s| s.contains("accepted: every test passes"),
        &mut record,
    );
    tmux.tmux(&["send-keys", "-t", "t", "C-c"]);
    let screen = tmux.wait_for("the end of watch", watch_ended, &mut || {});
    // The version on screen passed every test.
    assert!(screen.contains("watch exited 0"), "{screen}");
    let stty: Vec<&str> = screen.split_whitespace().collect();
    for mode in ["icanon", "echo"] {
        assert!(stty.contains(&mode), "{mode} is off after watch:\n{screen}");
    }
    let seen = seen.into_inner();
    assert!(seen.iter().any(|p| p.name == "grader"), "{seen:?}");
    let left: Vec<&Process> = seen.iter().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "still running after watch ended: {left:?}");
}

#[test]
fn watch_refuses_what_grade_would_refuse_at_once() {
    let dir = tempdir();
    for (args, says) in [
        (vec!["watch", "submissions/python"], "is a folder"),
        (vec!["watch", "README.md"], "README.md"),
        (vec!["watch", "no/such/router.py"], "no/such/router.py"),
        (
            vec![
                "watch",
                "--challenge",
                "no-such",
                "submissions/python/correct_class.py",
            ],
            "no-such",
        ),
        (
            vec![
                "watch",
                "--time-limit",
                "5",
                "submissions/python/correct_class.py",
            ],
            "--time-limit 5",
        ),
    ] {
        let cache = dir.path().display().to_string();
        let mut args = args;
        args.extend(["--cache-dir", &cache]);
        let out = run(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(says),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn watch_without_keys_leaves_on_sigterm() {
    // Standard input not a terminal: no key is read, and SIGTERM still
    // ends it cleanly, with nothing left running.
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    std::fs::copy(root().join("submissions/python/lowest_score.py"), &file).unwrap();
    let tmux = Tmux::new("nokeys");
    tmux.start(&format!(
        "{} --challenges '{}' watch --cache-dir '{}' '{}' </dev/null & wait $!; echo \"watch exited $?\"",
        env!("CARGO_BIN_EXE_grader"),
        // The shipped thousand-node case keeps a grading under way when
        // SIGTERM comes.
        root().join("challenges").display(),
        dir.path().join("cache").display(),
        file.display()
    ));
    let shell: u32 = tmux.pane("#{pane_pid}").parse().unwrap();
    let mut seen: BTreeSet<Process> = BTreeSet::new();
    let screen = tmux.wait_for(
        "failing verdict",
        |s| s.contains("wrong-answer in "),
        &mut || seen.extend(descendants(shell)),
    );
    assert!(screen.contains("Ctrl-C quits"), "{screen}");
    assert!(!screen.contains("q quits"), "{screen}");
    // The shell's one child is watch (its gradings are below it).
    let pid = descendants(shell)
        .into_iter()
        .find(|p| process(p.pid).is_some_and(|(_, ppid)| ppid == shell))
        .expect("watch runs below the shell")
        .pid;
    let status = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let screen = tmux.wait_for(
        "the end of watch",
        |s| s.contains("watch exited"),
        &mut || {},
    );
    assert!(screen.contains("watch exited 1"), "{screen}");
    let left: Vec<&Process> = seen.iter().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "still running after watch ended: {left:?}");
}

#[test]
fn grade_on_a_terminal_folds_the_failures_past_the_third() {
    let gate = shared();
    let dir = tempdir();
    let tmux = Tmux::new("grade");
    let example = "submissions/python/lowest_score.py";
    let challenges = trimmed_challenges().display().to_string();
    // The shell stays: a pane that ends may lose the output it had not
    // drawn yet, as it did once grading took less than a second here.
    tmux.start(&format!(
        "cd '{}' && {} --challenges '{challenges}' grade --cache-dir '{}' {example}; echo \"grade exited $?\"; sleep 600",
        root().display(),
        env!("CARGO_BIN_EXE_grader"),
        dir.path().display()
    ));
    let screen = tmux.wait_for(
        "the end of grade",
        |s| s.contains("grade exited"),
        &mut || {},
    );
    let command = format!(
        "{} --challenges {challenges} grade --all --cache-dir",
        env!("CARGO_BIN_EXE_grader")
    );
    assert!(
        screen.contains("3 failures in full above") && screen.contains(&command),
        "{screen}"
    );
    assert!(screen.contains("grade exited 1"), "{screen}");
    // `run` takes the gate itself: held here too, it would wait forever
    // behind a test waiting for the gate alone.
    drop(gate);
    // Through a pipe, every failure stays in full and nothing is folded.
    let cache = dir.path().display().to_string();
    let grade = |all: &[&str]| {
        let mut args = vec!["--challenges", &challenges, "grade"];
        args.extend(all);
        args.extend(["--cache-dir", &cache, example]);
        text(&run(&args).stdout)
    };
    let piped = grade(&[]);
    assert!(!piped.contains("in a line each"), "{piped}");
    let full = grade(&["--all"]);
    assert_eq!(
        piped.matches("\n--- ").count(),
        full.matches("\n--- ").count()
    );
    assert!(piped.matches("\n--- ").count() > 3);
}

/// The file's folder removed and made again is another folder: watch
/// follows the path, and the next save there is graded.
#[test]
fn watch_follows_a_folder_removed_and_made_again() {
    let _gate = shared();
    let dir = tempdir();
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let file = work.join("router.py");
    std::fs::copy(root().join("submissions/python/syntax_error.py"), &file).unwrap();
    let tmux = Tmux::new("refolder");
    tmux.start(&format!(
        // Started in the folder itself, as a learner would.
        "cd '{}' && {} --challenges '{}' watch --cache-dir ../cache router.py; echo \"watch exited $?\"",
        work.display(),
        env!("CARGO_BIN_EXE_grader"),
        trimmed_challenges().display(),
    ));
    let shell: u32 = tmux.pane("#{pane_pid}").parse().unwrap();
    let seen: std::cell::RefCell<BTreeSet<Process>> = Default::default();
    let mut record = || seen.borrow_mut().extend(descendants(shell));
    tmux.wait_for(
        "the load error",
        |s| s.contains("the module failed to load: SyntaxError"),
        &mut record,
    );
    std::fs::remove_dir_all(&work).unwrap();
    tmux.wait_for(
        "the file missing",
        |s| s.contains("router.py is not there"),
        &mut record,
    );
    std::fs::create_dir_all(&work).unwrap();
    std::fs::copy(root().join("submissions/python/correct_class.py"), &file).unwrap();
    tmux.wait_for(
        "accepted in the folder made again",
        |s| s.contains("accepted: every test passes"),
        &mut record,
    );
    // A save after that is heard too: the new folder is watched.
    std::fs::copy(root().join("submissions/python/lowest_score.py"), &file).unwrap();
    tmux.wait_for(
        "the next save's verdict",
        |s| s.contains("wrong-answer"),
        &mut record,
    );
    tmux.tmux(&["send-keys", "-t", "t", "q"]);
    tmux.wait_for(
        "the end of watch",
        |s| s.contains("watch exited"),
        &mut || {},
    );
    let seen = seen.into_inner();
    let left: Vec<&Process> = seen.iter().filter(|p| alive(p)).collect();
    assert!(left.is_empty(), "still running after watch ended: {left:?}");
}

/// A Router that answers wrongly from the first sample on (the smallest
/// name, whatever the scores) and never answers a route among a thousand
/// nodes: the large group, last in the suite, runs to its time limit.
const WRONG_THEN_SLOW: &str = "\
class Router:
    def __init__(self, nodes):
        self.nodes = sorted(set(nodes))

    def add(self, node):
        if node not in self.nodes:
            self.nodes = sorted(self.nodes + [node])

    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)

    def route(self, key):
        while len(self.nodes) >= 1000:
            pass
        return self.nodes[0] if self.nodes else None
";

#[test]
fn watch_shows_the_first_failure_while_the_rest_is_graded() {
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    std::fs::write(&file, WRONG_THEN_SLOW).unwrap();
    let tmux = Tmux::new("early");
    tmux.start(&format!(
        "cd '{}' && {} --challenges '{}' watch --cache-dir cache router.py",
        dir.path().display(),
        env!("CARGO_BIN_EXE_grader"),
        root().join("challenges").display(),
    ));
    // While the large group runs to its limit, the first failure is on
    // the screen in full, with the count of tests run.
    let early = tmux.wait_for(
        "the first failure before the verdict",
        |s| s.contains("the first failing test (the rest are still being graded)"),
        &mut || {},
    );
    assert!(
        early.contains("wrong-answer in sample/sample-1-keys-spread-over-three-nodes"),
        "{early}"
    );
    assert!(early.contains("expected: \"cache-3\""), "{early}");
    assert!(early.contains("tests run"), "{early}");
    assert!(!early.contains("tests pass · score"), "{early}");
    // Then the whole verdict replaces it.
    let done = tmux.wait_for(
        "the verdict",
        |s| s.contains("tests pass · score"),
        &mut || {},
    );
    assert!(!done.contains("still being graded"), "{done}");
    assert!(
        done.contains("time-limit") || done.contains("wrong-answer"),
        "{done}"
    );
}

#[test]
fn grade_on_a_terminal_counts_the_tests_and_its_clock_moves_during_one() {
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    std::fs::write(&file, WRONG_THEN_SLOW).unwrap();
    let tmux = Tmux::new("ticks");
    // The shell stays: a pane that ends may scroll its last lines away.
    tmux.start(&format!(
        "cd '{}' && {} --challenges '{}' grade --cache-dir cache router.py > report.txt; echo \"grade exited $?\"; sleep 600",
        dir.path().display(),
        env!("CARGO_BIN_EXE_grader"),
        root().join("challenges").display(),
    ));
    // The last test (the large group's only one) is running: the line
    // counts the 21 before it.
    let line = |screen: &str| {
        screen
            .lines()
            .find(|l| l.contains("21/22 tests, 0/1 graded"))
            .map(str::to_owned)
    };
    let first = tmux.wait_for(
        "the progress line at the last test",
        |s| line(s).is_some(),
        &mut || {},
    );
    let first = line(&first).unwrap();
    // Its clock moves while that one test runs, with nothing else done.
    let later = tmux.wait_for(
        "the clock to move",
        |s| line(s).is_some_and(|l| l != first) || s.contains("grade exited"),
        &mut || {},
    );
    assert!(
        line(&later).is_some(),
        "the grading ended before the clock moved:\n{later}"
    );
    let end = tmux.wait_for("the end", |s| s.contains("grade exited"), &mut || {});
    assert!(end.contains("grade exited 1"), "{end}");
    // The line is gone once grading ends.
    assert!(!end.contains("tests, "), "{end}");
}

/// Ctrl-C while `grader grade` grades a class on a terminal: the progress
/// line and the echoed `^C` are cleared, and what was saved is said.
#[test]
fn ctrl_c_during_a_class_clears_the_progress_line_and_says_what_was_saved() {
    let _gate = shared();
    let dir = tempdir();
    slow_class(dir.path());
    let tmux = Tmux::new("grade-ctrlc");
    tmux.start(&format!(
        // The shell survives the Ctrl-C its job gets (see above), and
        // stays, so that its screen does too.
        "trap : INT; cd '{}' && {} grade --jobs 1 --tests '{}' --results out/res class >/dev/null; echo \"grade exited $?\"; sleep 600",
        dir.path().display(),
        env!("CARGO_BIN_EXE_grader"),
        root().join("challenges/rendezvous-router/tests/sample").display(),
    ));
    tmux.wait_for(
        "the progress line with a student graded",
        |s| s.contains(" tests, 1/6 graded") || s.contains(" tests, 2/6 graded"),
        &mut || {},
    );
    tmux.tmux(&["send-keys", "-t", "t", "C-c"]);
    let screen = tmux.wait_for(
        "the end of grade",
        |s| s.contains("grade exited"),
        &mut || {},
    );
    assert!(screen.contains("grade exited 130"), "{screen}");
    let saved = std::fs::read_dir(dir.path().join("out/res"))
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".result.json"))
        .count();
    let results = if saved == 1 { "result" } else { "results" };
    let said = format!(
        "interrupted: {saved} {results} saved in out/res; run the same command again with --resume to grade the rest"
    );
    let lines: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines, [said.as_str(), "grade exited 130"], "{screen}");
}

/// `q` while a grading runs (here the one `r` asked for, of a file that
/// did not change) exits as the last grading that finished says: 0 for an
/// accepted file.
#[test]
fn quitting_during_a_regrade_exits_as_the_last_finished_grading_says() {
    let _gate = shared();
    let dir = tempdir();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        dir.path().join("router.py"),
    )
    .unwrap();
    let tmux = Tmux::new("regrade-quit");
    tmux.start(&format!(
        "cd '{}' && {} --challenges '{}' watch --cache-dir cache router.py; echo \"watch exited $?\"; sleep 600",
        dir.path().display(),
        env!("CARGO_BIN_EXE_grader"),
        trimmed_challenges().display(),
    ));
    tmux.wait_for(
        "accepted",
        |s| s.contains("accepted: every test passes"),
        &mut || {},
    );
    tmux.tmux(&["send-keys", "-t", "t", "r"]);
    tmux.wait_for(
        "the regrade",
        |s| s.contains("grading the version saved at"),
        &mut || {},
    );
    tmux.tmux(&["send-keys", "-t", "t", "q"]);
    let screen = tmux.wait_for(
        "the end of watch",
        |s| s.contains("watch exited"),
        &mut || {},
    );
    assert!(screen.contains("watch exited 0"), "{screen}");
}

/// On an 80x24 terminal the screen of a failing file fits: its title on
/// the first row, the verdict, the first wrong answer and the likely
/// mistake, the rest trimmed with a count, the score and the keys last;
/// no row wider than the terminal and no word broken across rows.
#[test]
fn the_watch_screen_fits_the_terminal_and_wraps_at_words() {
    let _gate = shared();
    let dir = tempdir();
    std::fs::copy(
        root().join("submissions/python/lowest_score.py"),
        dir.path().join("router.py"),
    )
    .unwrap();
    let tmux = Tmux::new("fit");
    tmux.start_sized(
        &format!(
            "cd '{}' && {} --challenges '{}' watch --cache-dir cache router.py; sleep 600",
            dir.path().display(),
            env!("CARGO_BIN_EXE_grader"),
            trimmed_challenges().display(),
        ),
        80,
        24,
    );
    tmux.wait_for(
        "the verdict and the keys",
        |s| s.contains("tests pass · score") && s.contains("q quits"),
        &mut || {},
    );
    let rows = tmux.rows();
    let screen = rows.join("\n");
    assert!(rows.len() <= 24, "{screen}");
    assert!(
        rows[0].starts_with("router.py · rendezvous-router · graded at"),
        "{screen}"
    );
    assert!(rows.iter().all(|r| r.chars().count() <= 80), "{screen}");
    // Read as text, the rows give whole sentences: no word was broken.
    let text = rows.iter().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
    for said in [
        "wrong-answer in sample/sample-1-keys-spread-over-three-nodes, the first of 15 failing tests",
        "first wrong answer at operation 0: [\"route\",\"user:1\"]",
        "likely mistake: the lowest score wins instead of the highest",
        "Your router keeps the node with the smallest h32(node + \":\" + key); the rule is the largest.",
        "7/22 tests pass · score 10/100",
        "watching: every save grades it again · r grades again · q quits",
    ] {
        assert!(
            text.contains(said),
            "{said:?} is not on the screen:\n{screen}"
        );
    }
    // What did not fit is counted, between the hint and the score.
    let more = rows
        .iter()
        .position(|r| r.starts_with("... ") && r.ends_with(" more lines"))
        .unwrap_or_else(|| panic!("no count of the lines left out:\n{screen}"));
    let score = rows
        .iter()
        .position(|r| r.starts_with("7/22 tests pass"))
        .unwrap();
    let hint = rows
        .iter()
        .position(|r| r.starts_with("likely mistake"))
        .unwrap();
    assert!(hint < more && more < score, "{screen}");
}

/// The npm package as npm installs it, in `dir`: the `rendezvous-grader`
/// wrapper (`bin/grader.js`) and this machine's platform package, whose
/// binary is the one under test. Answers the wrapper's path.
fn npm_install(dir: &Path) -> std::path::PathBuf {
    let modules = dir.join("node_modules");
    let wrapper = modules.join("rendezvous-grader/bin/grader.js");
    std::fs::create_dir_all(wrapper.parent().unwrap()).unwrap();
    std::fs::copy(root().join("packaging/npm/grader/bin/grader.js"), &wrapper).unwrap();
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        other => other,
    };
    let platform = modules.join(format!("@rendezvous-grader/linux-{arch}"));
    std::fs::create_dir_all(platform.join("bin")).unwrap();
    std::fs::write(
        platform.join("package.json"),
        format!("{{\"name\": \"@rendezvous-grader/linux-{arch}\", \"version\": \"0.0.0\"}}"),
    )
    .unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_grader"), platform.join("bin/grader")).unwrap();
    wrapper
}

/// Run through the npm wrapper, the commands the grader gives to type are
/// `npx grader ...`, never the platform binary's path: init's, the folded
/// report's `--all` and watch's whole report.
#[test]
fn through_npm_the_commands_to_type_are_npx_grader() {
    let _gate = shared();
    let dir = tempdir();
    let wrapper = npm_install(dir.path());
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    let challenges = trimmed_challenges();
    let out = std::process::Command::new("node")
        .arg(&wrapper)
        .arg("--challenges")
        .arg(challenges)
        .args(["init", "--lang", "python"])
        .current_dir(&work)
        .env_remove("GRADER_INVOKED_AS")
        .output()
        .expect("node runs (Debian: nodejs)");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("check it with: npx grader grade ./router.py"),
        "{}",
        text(&out.stdout)
    );
    std::fs::copy(
        root().join("submissions/python/lowest_score.py"),
        work.join("router.py"),
    )
    .unwrap();
    for (command, done) in [
        ("grade --cache-dir cache router.py", "grade exited"),
        ("watch --cache-dir cache router.py", "tests pass · score"),
    ] {
        // A server of its own for each: the one before is still going
        // away when the next starts, and one socket would be shared.
        let tmux = Tmux::new(&format!("npx-{}", command.split(' ').next().unwrap_or("")));
        tmux.start(&format!(
            "cd '{}' && unset GRADER_INVOKED_AS; node '{}' --challenges '{}' {command}; echo \"grade exited $?\"; sleep 600",
            work.display(),
            wrapper.display(),
            challenges.display(),
        ));
        let screen = tmux.wait_for(command, |s| s.contains(done), &mut || {});
        let said = if command.starts_with("grade") {
            format!(
                "npx grader --challenges {} grade --all --cache-dir cache router.py",
                challenges.display()
            )
        } else {
            // The same challenges and cache as the watch: the options
            // given.
            format!(
                "the whole report, every failure in full: npx grader --challenges {} grade --cache-dir cache router.py",
                challenges.display()
            )
        };
        // The screen wraps its lines at words to fit the terminal.
        let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            flat(&screen).contains(&flat(&said)),
            "{command}: {said:?}:\n{screen}"
        );
        assert!(!screen.contains("bin/grader"), "{command}:\n{screen}");
    }
}

/// No package index holds the grader: where it says how to install it
/// (the learners' page, the npm wrapper without its binary), it names the
/// wheel the course builds.
#[test]
fn install_hints_name_the_wheel_not_a_package_on_an_index() {
    let dir = tempdir();
    let wrapper = npm_install(dir.path());
    // The platform package left out, as --omit=optional does.
    std::fs::remove_dir_all(dir.path().join("node_modules/@rendezvous-grader")).unwrap();
    let out = std::process::Command::new("node")
        .arg(&wrapper)
        .arg("--version")
        .output()
        .expect("node runs (Debian: nodejs)");
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let said = text(&out.stderr);
    let learners = std::fs::read_to_string(root().join("docs/learners.md")).unwrap();
    for (what, text) in [("the npm wrapper", &said), ("docs/learners.md", &learners)] {
        for index in [
            "pip install rendezvous-grader",
            "pipx install rendezvous-grader",
        ] {
            assert!(
                !text.contains(index),
                "{what} names a package no index holds:\n{text}"
            );
        }
        assert!(text.contains("rendezvous_grader-"), "{what}:\n{text}");
        assert!(text.contains(".whl"), "{what}:\n{text}");
    }
}

#[test]
fn watch_explores_once_every_test_passes_and_shows_the_case_found() {
    // A router that strips its key passes the suite; exploring, which
    // watch does by default once every test passes, finds a key it
    // strips. The verdict stays accepted.
    let _gate = shared();
    let dir = tempdir();
    let file = dir.path().join("router.py");
    std::fs::copy(
        root().join("tests/fixtures/explore/rendezvous-router/strip_key.py"),
        &file,
    )
    .unwrap();
    let tmux = Tmux::new("explores");
    tmux.start(&format!(
        "{} --challenges '{}' watch --cache-dir '{}' '{}' </dev/null",
        env!("CARGO_BIN_EXE_grader"),
        trimmed_challenges().display(),
        dir.path().join("cache").display(),
        file.display()
    ));
    let screen = tmux.wait_for(
        "a generated case found",
        |s| s.contains("fails this generated case"),
        &mut || {},
    );
    assert!(screen.contains("accepted: every test passes"), "{screen}");
    assert!(
        screen.contains("passes the suite; fails this generated case"),
        "{screen}"
    );
    assert!(screen.contains("router = Router("), "{screen}");
}
