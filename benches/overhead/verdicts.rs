//! The verdict rows of the speed table: each a ratio of two programs run
//! interleaved in one process (so that the machine's load touches both),
//! each keeping its fastest time, with the goal it is held to beside it.
//!
//! - the three samples: the grader against a plain Python replay of them
//!   (interpreter by path, and `python3` found on PATH), and against a
//!   pytest file parametrized over them;
//! - eleven mixed cases (ties, letters beyond ASCII, churn with a thousand
//!   routes) against the plain replay;
//! - a wrong answer explained (diagnosis, shrinking, hints) against a
//!   correct answer graded on the same suite;
//! - a class of small submissions: the cost per submission over the plain
//!   replay's, and two jobs against one;
//! - a correct Python submission on each challenge's shipped suite against
//!   its plain replay, wall-clock and CPU time of every process (counted
//!   by a cgroup, as the grader counts a session's);
//! - a class of forty correct and wrong submissions with two jobs against
//!   a pool of two plain replays;
//! - how long an endless loop waits for its verdict;
//! - a correct submission in a student's repository holding the hidden
//!   tests, its dotfiles and four thousand files of its own, against the
//!   same submission and tests in plain folders.

use super::{PLAIN_REPLAY, fastest, real_python, succeeds};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn goal(met: bool) -> &'static str {
    if met {
        "meets its goal"
    } else {
        "MISSES its goal"
    }
}

/// The case files of `dir` (not their expected files), sorted.
fn cases_in(dir: &Path) -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.to_string_lossy();
            name.ends_with(".json") && !name.ends_with(".expected.json")
        })
        .collect();
    cases.sort();
    cases
}

/// A `--tests` folder in `dir` holding `cases` (of the shipped
/// rendezvous-router suite, as `group/name`) with their expected files.
fn suite_of(dir: &Path, cases: &[&str]) -> (PathBuf, Vec<PathBuf>) {
    let tests = dir.join("tests");
    let shipped = root().join("challenges/rendezvous-router/tests");
    let mut copied = Vec::new();
    for case in cases {
        let (group, name) = case.split_once('/').unwrap();
        std::fs::create_dir_all(tests.join(group)).unwrap();
        for file in [format!("{name}.json"), format!("{name}.expected.json")] {
            std::fs::copy(
                shipped.join(group).join(&file),
                tests.join(group).join(&file),
            )
            .unwrap();
        }
        copied.push(tests.join(group).join(format!("{name}.json")));
    }
    (tests, copied)
}

/// `grader grade` of `submission` on `tests`, with a warm cache in
/// `cache`; `python` by path in GRADER_PYTHON, or none (found on PATH).
fn grade(tests: &Path, submission: &Path, cache: &Path, python: Option<&str>) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grader"));
    command
        .current_dir(root())
        .args(["grade", "--format", "json", "--exit-zero", "--cache-dir"])
        .arg(cache)
        .arg("--tests")
        .arg(tests)
        .arg(submission)
        .stdout(Stdio::null());
    match python {
        Some(path) => command.env("GRADER_PYTHON", path),
        None => command.env_remove("GRADER_PYTHON"),
    };
    command
}

/// How the plain replay's interpreter starts: as anyone would start it
/// (site's work done, `.pth` files run), or with `-S` (no site work at
/// all, which a learner's third-party imports would not survive). The
/// driver does site's work but runs `.pth` code only when an import needs
/// it, so the second shows the grader's overhead with no start saved.
#[derive(Clone, Copy)]
enum Start {
    Normal,
    NoSite,
}

/// The plain replay of `cases` by `submission` in one Python process.
fn plain(
    python: &str,
    replay: &Path,
    submission: &Path,
    cases: &[PathBuf],
    start: Start,
) -> Command {
    let mut command = Command::new(python);
    command.args(["-B", "-s", "-X", "utf8"]);
    if let Start::NoSite = start {
        command.arg("-S");
    }
    command.arg(replay).arg(submission);
    for case in cases {
        command.arg(case).arg(case.with_extension("expected.json"));
    }
    command
}

/// The CPU time of every process this one starts, counted by the kernel:
/// a cgroup v1 `cpuacct` group that this process moves into, so that all
/// it starts (and all they start, reaped or not) is charged to it. The
/// grader's own session groups are made below it and charge it too.
struct CpuAccount {
    dir: PathBuf,
    /// The group this process came from, to go back to.
    home: PathBuf,
}

impl CpuAccount {
    /// The account, or why there is none (not root, no v1 `cpuacct`
    /// hierarchy: the unified hierarchy keeps processes out of a group
    /// whose children have controllers, which the grader's need).
    fn new() -> Result<CpuAccount, String> {
        let mounts = std::fs::read_to_string("/proc/self/mountinfo").map_err(|e| e.to_string())?;
        let point = mounts
            .lines()
            .find_map(|line| {
                let (left, right) = line.split_once(" - ")?;
                let mut kind = right.split(' ');
                let is_cpuacct = kind.next() == Some("cgroup")
                    && kind.nth(1)?.split(',').any(|o| o == "cpuacct");
                let fields: Vec<&str> = left.split(' ').collect();
                // A mount of the hierarchy's root, which holds every group.
                (is_cpuacct && fields.get(3) == Some(&"/")).then(|| PathBuf::from(fields[4]))
            })
            .ok_or("no cgroup v1 cpuacct hierarchy is mounted")?;
        let own = std::fs::read_to_string("/proc/self/cgroup").map_err(|e| e.to_string())?;
        let path = own
            .lines()
            .find_map(|line| {
                let mut parts = line.splitn(3, ':');
                let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
                controllers
                    .split(',')
                    .any(|c| c == "cpuacct")
                    .then_some(path)
            })
            .ok_or("this process is in no cpuacct group")?;
        let home = point.join(path.trim_start_matches('/'));
        let dir = home.join(format!("overhead-bench-{}", std::process::id()));
        std::fs::create_dir(&dir)
            .and_then(|()| std::fs::write(dir.join("cgroup.procs"), std::process::id().to_string()))
            .map_err(|e| format!("cannot make and join {}: {e} (run as root)", dir.display()))?;
        Ok(CpuAccount { dir, home })
    }

    /// CPU time charged so far.
    fn used(&self) -> Duration {
        let ns = std::fs::read_to_string(self.dir.join("cpuacct.usage")).unwrap();
        Duration::from_nanos(ns.trim().parse().unwrap())
    }
}

impl Drop for CpuAccount {
    fn drop(&mut self) {
        let _ = std::fs::write(
            self.home.join("cgroup.procs"),
            std::process::id().to_string(),
        );
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// How long a program took: wall-clock time, and the CPU time of all its
/// processes.
#[derive(Clone, Copy)]
struct Took {
    wall: Duration,
    cpu: Duration,
}

/// The fastest wall-clock time and the least CPU time (when `account`
/// counts it) of each of `commands` over `rounds` rounds, run in turn
/// within each round.
fn interleaved_cpu(
    rounds: usize,
    commands: &mut [Command],
    account: Option<&CpuAccount>,
) -> Vec<Took> {
    let mut took = vec![
        Took {
            wall: Duration::MAX,
            cpu: Duration::MAX
        };
        commands.len()
    ];
    for _ in 0..rounds {
        for (took, command) in took.iter_mut().zip(commands.iter_mut()) {
            let before = account.map(CpuAccount::used);
            took.wall = took.wall.min(fastest(1, || succeeds(command)));
            if let (Some(account), Some(before)) = (account, before) {
                took.cpu = took.cpu.min(account.used() - before);
            }
        }
    }
    took
}

/// The fastest time of each of `commands` over `rounds` rounds, run in
/// turn within each round.
fn interleaved(rounds: usize, commands: &mut [Command]) -> Vec<Duration> {
    interleaved_cpu(rounds, commands, None)
        .into_iter()
        .map(|t| t.wall)
        .collect()
}

/// A pytest file parametrized over the cases given on the command line.
const PYTEST_FILE: &str = r#"
import importlib.util, json, os
import pytest

SUBMISSION = os.environ["BENCH_SUBMISSION"]
CASES = os.environ["BENCH_CASES"].split(os.pathsep)
spec = importlib.util.spec_from_file_location("submission", SUBMISSION)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)

@pytest.mark.parametrize("case", CASES)
def test_case(case):
    with open(case) as f:
        args, ops = json.load(f)
    with open(case[: -len(".json")] + ".expected.json") as f:
        expected = json.load(f)
    router = module.Router(*args)
    assert [getattr(router, op[0])(*op[1:]) for op in ops] == expected
"#;

/// A Python with pytest: a virtual environment under cargo's target
/// folder, made once (pytest from the package index), or why there is
/// none.
fn pytest_python() -> Result<PathBuf, String> {
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/bench-pytest");
    let python = venv.join("bin/python");
    let has = |python: &Path| {
        Command::new(python)
            .args(["-c", "import pytest"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    if has(&python) {
        return Ok(python);
    }
    let made = Command::new(real_python())
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .is_ok_and(|s| s.success());
    let installed = made
        && Command::new(venv.join("bin/pip"))
            .args(["install", "--quiet", "pytest"])
            .status()
            .is_ok_and(|s| s.success());
    if installed && has(&python) {
        Ok(python)
    } else {
        Err(format!(
            "cannot make {} with pytest in it (python3 -m venv, then pip install pytest)",
            venv.display()
        ))
    }
}

/// The samples: the grader's fixed cost of a verdict.
pub fn samples() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let python = real_python();
    let tests = root().join("challenges/rendezvous-router/tests/sample");
    let cases = cases_in(&tests);
    let submission = root().join("submissions/python/correct_class.py");
    let cache = dir.path().join("cache");
    let mut commands = vec![
        plain(&python, &replay, &submission, &cases, Start::Normal),
        grade(&tests, &submission, &cache, Some(&python)),
        grade(&tests, &submission, &cache, None),
        plain(&python, &replay, &submission, &cases, Start::NoSite),
    ];
    let pytest = pytest_python();
    if let Ok(pytest) = &pytest {
        let file = dir.path().join("test_cases.py");
        std::fs::write(&file, PYTEST_FILE).unwrap();
        let mut command = Command::new(pytest);
        command
            .args(["-B", "-m", "pytest", "-q", "-p", "no:cacheprovider"])
            .arg(&file)
            .env("BENCH_SUBMISSION", &submission)
            .env("BENCH_CASES", std::env::join_paths(&cases).unwrap())
            .stdout(Stdio::null());
        commands.push(command);
    }
    // Warm the cache and the interpreter cache first.
    for command in &mut commands[1..3] {
        succeeds(command);
    }
    let times = interleaved(15, &mut commands);
    println!("\na verdict on the 3 samples (fastest of 15, cache warm):");
    println!(
        "  plain Python replay, interpreter by path   {:>7.1} ms  (with -S: {:.1} ms, so the grader's own cost is {:+.1} ms)",
        ms(times[0]),
        ms(times[3]),
        ms(times[1]) - ms(times[3])
    );
    for (k, how, allowed) in [
        (1, "GRADER_PYTHON by path", 10.0),
        (2, "python3 found on PATH", 15.0),
    ] {
        let extra = ms(times[k]) - ms(times[0]);
        println!(
            "  grader, {how:<34} {:>7.1} ms  ({extra:+.1} ms, {:.2}x; goal +{allowed} ms: {})",
            ms(times[k]),
            ms(times[k]) / ms(times[0]),
            goal(extra <= allowed)
        );
    }
    match pytest {
        Ok(_) => {
            let ratio = ms(times[1]) / ms(times[4]);
            println!(
                "  pytest parametrized over them            {:>7.1} ms  (grader / pytest = {ratio:.2}x; goal 0.3x: {})",
                ms(times[4]),
                goal(ratio <= 0.3)
            );
        }
        Err(why) => println!("  pytest: not measured: {why}"),
    }
}

/// Eleven mixed cases against the plain replay.
pub fn mixed() {
    let dir = tempfile::tempdir().unwrap();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let python = real_python();
    let (tests, cases) = suite_of(
        dir.path(),
        &[
            "ties/re-added-after-removal",
            "ties/smaller-added-later",
            "ties/tie-survives-a-removal",
            "ties/tied-pair-alone",
            "ties/tied-pair-among-others",
            "ties/tied-pair-larger-first",
            "edge/non-ascii-keys",
            "edge/non-ascii-nodes",
            "churn/grow-and-shrink",
            "churn/heavy",
            "churn/small-pool",
        ],
    );
    let submission = root().join("submissions/python/correct_class.py");
    let cache = dir.path().join("cache");
    let mut commands = vec![
        plain(&python, &replay, &submission, &cases, Start::Normal),
        grade(&tests, &submission, &cache, Some(&python)),
        plain(&python, &replay, &submission, &cases, Start::NoSite),
    ];
    succeeds(&mut commands[1]);
    let times = interleaved(11, &mut commands);
    let ratio = ms(times[1]) / ms(times[0]);
    println!(
        "\n11 mixed cases (ties, letters beyond ASCII, churn with 1,000 routes), fastest of 11:"
    );
    println!(
        "  plain Python replay {:>7.1} ms; grader {:>7.1} ms ({ratio:.2}x; goal 1.3x: {})",
        ms(times[0]),
        ms(times[1]),
        goal(ratio <= 1.3)
    );
    println!(
        "  the plain replay with -S {:>7.1} ms: the grader {:.2}x that",
        ms(times[2]),
        ms(times[1]) / ms(times[2])
    );
}

/// A wrong answer explained against the same submission replayed plainly
/// (less than grading it alone could cost, so the ratio is an upper
/// bound), and against a correct one graded.
pub fn wrong_answer() {
    let dir = tempfile::tempdir().unwrap();
    let python = real_python();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let tests = root().join("challenges/rendezvous-router/tests");
    let cases: Vec<PathBuf> = std::fs::read_dir(&tests)
        .unwrap()
        .flat_map(|group| cases_in(&group.unwrap().path()))
        .collect();
    let cache = dir.path().join("cache");
    let wrong = root().join("submissions/python/lowest_score.py");
    let correct = root().join("submissions/python/correct_class.py");
    let mut replayed = plain(&python, &replay, &wrong, &cases, Start::Normal);
    replayed.env("BENCH_WRONG", "1");
    let mut commands = vec![
        grade(&tests, &correct, &cache, Some(&python)),
        grade(&tests, &wrong, &cache, Some(&python)),
        replayed,
    ];
    succeeds(&mut commands[0]);
    let times = interleaved(3, &mut commands);
    let (correct, explained, replayed) = (ms(times[0]), ms(times[1]), ms(times[2]));
    let allowed = replayed * 1.25 + 300.0;
    println!("\nthe shipped suite ({} cases), fastest of 3:", cases.len());
    println!(
        "  a wrong answer (lowest_score.py) graded and explained (diagnosis, shrinking, hints) {explained:>8.1} ms"
    );
    println!(
        "  against its plain replay {replayed:>8.1} ms, which grading it alone exceeds: {:.2}x (goal 1.25x + 300 ms = {allowed:.0} ms: {})",
        explained / replayed,
        goal(explained <= allowed)
    );
    println!(
        "  against a correct answer graded {correct:>8.1} ms: {:.2}x (whose own replay is faster)",
        explained / correct
    );
}

/// A class of small submissions: the cost per submission, and two jobs
/// against one.
pub fn batch() {
    const STUDENTS: usize = 100;
    let dir = tempfile::tempdir().unwrap();
    let python = real_python();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let source = root().join("submissions/python/correct_class.py");
    let class = dir.path().join("class");
    for i in 0..STUDENTS {
        let folder = class.join(format!("student-{i:03}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(&source, folder.join("router.py")).unwrap();
    }
    let shipped = root().join("challenges/rendezvous-router/tests");
    let names: Vec<String> = ["sample", "edge"]
        .iter()
        .flat_map(|group| {
            cases_in(&shipped.join(group))
                .into_iter()
                .map(move |p| format!("{group}/{}", p.file_stem().unwrap().to_string_lossy()))
        })
        .collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (tests, cases) = suite_of(dir.path(), &names);
    let cache = dir.path().join("cache");
    let class_of = |jobs: u32| {
        let mut command = grade(&tests, &class, &cache, Some(&python));
        command.args(["--jobs", &jobs.to_string()]);
        command
    };
    let start = |flags: &[&str]| {
        let mut start = Command::new(&python);
        start
            .args(["-B", "-s", "-X", "utf8"])
            .args(flags)
            .args(["-c", "pass"]);
        start
    };
    let mut commands = vec![
        start(&[]),
        plain(&python, &replay, &source, &cases, Start::Normal),
        class_of(1),
        class_of(2),
        start(&["-S"]),
    ];
    succeeds(&mut commands[3]);
    let times = interleaved(2, &mut commands);
    let per = |d: Duration| ms(d) / STUDENTS as f64;
    let (start, replay) = (ms(times[0]), ms(times[1]));
    // What the grader adds to a submission beyond the replay's own work
    // (the replay less its interpreter's start).
    let overhead = per(times[2]) - (replay - start);
    println!(
        "\na class of {STUDENTS} Python submissions on the sample and edge groups ({} cases), fastest of 2:",
        cases.len()
    );
    println!(
        "  interpreter start {start:.1} ms (with -S, as the driver starts it: {:.1} ms); plain replay of one submission {replay:.1} ms",
        ms(times[4])
    );
    println!(
        "  --jobs 1: {:.1} s, {:.1} ms a submission: {overhead:.1} ms over the replay's work (goal: interpreter start + 5 ms = {:.1} ms: {})",
        times[2].as_secs_f64(),
        per(times[2]),
        start + 5.0,
        goal(overhead <= start + 5.0)
    );
    let speedup = times[2].as_secs_f64() / times[3].as_secs_f64();
    println!(
        "  --jobs 2: {:.1} s, {:.1} ms a submission: {speedup:.2}x as fast as one job (goal 1.8x: {})",
        times[3].as_secs_f64(),
        per(times[3]),
        goal(speedup >= 1.8)
    );
}

/// A correct Python submission of each challenge graded on its whole
/// shipped suite, against the same cases replayed plainly in one Python
/// process: wall-clock time, and the CPU time of every process.
pub fn suites() {
    let dir = tempfile::tempdir().unwrap();
    let python = real_python();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let cache = dir.path().join("cache");
    let account = CpuAccount::new();
    println!(
        "\na correct Python submission on each challenge's shipped suite, against its plain replay (fastest of 3; CPU of every process):"
    );
    for (challenge, submission) in [
        ("rendezvous-router", "submissions/python/correct_class.py"),
        ("hrw-top", "submissions/hrw-top/python/correct.py"),
        ("vnode-ring", "submissions/vnode-ring/python/correct.py"),
        ("weighted-hrw", "submissions/weighted-hrw/python/correct.py"),
    ] {
        let tests = root().join("challenges").join(challenge).join("tests");
        let cases: Vec<PathBuf> = {
            let mut groups: Vec<PathBuf> = std::fs::read_dir(&tests)
                .unwrap()
                .map(|g| g.unwrap().path())
                .collect();
            groups.sort();
            groups.iter().flat_map(|g| cases_in(g)).collect()
        };
        let submission = root().join(submission);
        let mut graded = grade(&tests, &submission, &cache, Some(&python));
        graded.args(["--challenge", challenge]);
        let mut commands = vec![
            plain(&python, &replay, &submission, &cases, Start::Normal),
            graded,
        ];
        succeeds(&mut commands[1]);
        let took = interleaved_cpu(3, &mut commands, account.as_ref().ok());
        let (bare, graded) = (took[0], took[1]);
        let wall = graded.wall.as_secs_f64() / bare.wall.as_secs_f64();
        let cpu = match &account {
            Ok(_) => {
                let cpu = graded.cpu.as_secs_f64() / bare.cpu.as_secs_f64();
                format!(
                    "CPU {:.0} ms against {:.0} ms, {cpu:.2}x (goal 1.3x: {})",
                    ms(graded.cpu),
                    ms(bare.cpu),
                    goal(cpu <= 1.3)
                )
            }
            Err(why) => format!("CPU not measured: {why}"),
        };
        println!(
            "  {challenge:<18} {:>3} cases: plain {:>6.0} ms, grader {:>6.0} ms: wall {wall:.2}x (goal 1.25x: {}); {cpu}",
            cases.len(),
            ms(bare.wall),
            ms(graded.wall),
            goal(wall <= 1.25),
        );
    }
}

/// Runs every one of `commands` to its end (whatever its exit), `jobs` at
/// a time, and returns the wall-clock time of the whole.
fn pool(jobs: usize, commands: Vec<Command>) -> Duration {
    let queue = std::sync::Mutex::new(commands);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| {
                loop {
                    let next = queue.lock().unwrap().pop();
                    let Some(mut command) = next else { return };
                    command.stdout(Stdio::null()).stderr(Stdio::null());
                    command.status().unwrap();
                }
            });
        }
    });
    start.elapsed()
}

/// A class of forty Python submissions, correct and wrong (the shipped
/// learner-style examples that run every case to its end), graded with
/// `--jobs 2` on the whole shipped suite, against a pool of two plain
/// replays of the same class.
pub fn class() {
    const STUDENTS: usize = 40;
    const EXAMPLES: [&str; 20] = [
        "correct_class.py",
        "added_twice.py",
        "code_points.py",
        "crc32_hash.py",
        "double_colon.py",
        "duplicate_membership.py",
        "first_node.py",
        "fnv1.py",
        "idioms.py",
        "lowest_no_separator.py",
        "lowest_score.py",
        "methods_in_init.py",
        "modulo_hashing.py",
        "no_finalizer.py",
        "no_separator.py",
        "partial_finalizer.py",
        "salted_ties.py",
        "signed_bytes.py",
        "ties_larger_name.py",
        "wrong_separator.py",
    ];
    let dir = tempfile::tempdir().unwrap();
    let python = real_python();
    let replay = dir.path().join("replay.py");
    std::fs::write(&replay, PLAIN_REPLAY).unwrap();
    let class = dir.path().join("class");
    let mut files = Vec::new();
    for i in 0..STUDENTS {
        let folder = class.join(format!("student-{i:02}"));
        std::fs::create_dir_all(&folder).unwrap();
        let file = folder.join("router.py");
        std::fs::copy(
            root()
                .join("submissions/python")
                .join(EXAMPLES[i % EXAMPLES.len()]),
            &file,
        )
        .unwrap();
        files.push(file);
    }
    let tests = root().join("challenges/rendezvous-router/tests");
    let cases: Vec<PathBuf> = ["sample", "edge", "ties", "churn", "large"]
        .iter()
        .flat_map(|group| cases_in(&tests.join(group)))
        .collect();
    let cache = dir.path().join("cache");
    let mut graded = grade(&tests, &class, &cache, Some(&python));
    graded.args(["--jobs", "2"]);
    let bare = || {
        files
            .iter()
            .map(|file| {
                let mut command = plain(&python, &replay, file, &cases, Start::Normal);
                command.env("BENCH_WRONG", "1");
                command
            })
            .collect::<Vec<_>>()
    };
    let (mut plain_best, mut graded_best) = (Duration::MAX, Duration::MAX);
    for _ in 0..2 {
        plain_best = plain_best.min(pool(2, bare()));
        graded_best = graded_best.min(fastest(1, || succeeds(&mut graded)));
    }
    let ratio = graded_best.as_secs_f64() / plain_best.as_secs_f64();
    println!(
        "\na class of {STUDENTS} Python submissions, correct and wrong, on the shipped suite ({} cases), fastest of 2:",
        cases.len()
    );
    println!(
        "  a pool of 2 plain replays {:.1} s; grader --jobs 2 {:.1} s: {ratio:.2}x (goal 1.3x: {})",
        plain_best.as_secs_f64(),
        graded_best.as_secs_f64(),
        goal(ratio <= 1.3)
    );
}

/// A submission that never answers a route, on the shipped suite: how
/// long the learner waits for the verdict, against the limits of every
/// case it would take run to its end.
pub fn endless() {
    let dir = tempfile::tempdir().unwrap();
    let submission = dir.path().join("router.py");
    std::fs::write(
        &submission,
        "class Router:\n    def __init__(self, nodes):\n        self.nodes = list(nodes)\n    def add(self, node):\n        pass\n    def remove(self, node):\n        pass\n    def route(self, key):\n        while True:\n            pass\n",
    )
    .unwrap();
    let tests = root().join("challenges/rendezvous-router/tests");
    let mut command = grade(
        &tests,
        &submission,
        &dir.path().join("cache"),
        Some(&real_python()),
    );
    let took = fastest(1, || succeeds(&mut command));
    let limits: f64 = {
        let text =
            std::fs::read_to_string(root().join("challenges/rendezvous-router/challenge.toml"))
                .unwrap();
        let toml: toml::Table = toml::from_str(&text).unwrap();
        let default = toml["limits"]["time_ms"].as_integer().unwrap();
        toml["groups"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let name = g["name"].as_str().unwrap();
                let each = g
                    .get("time_ms")
                    .and_then(toml::Value::as_integer)
                    .unwrap_or(default);
                (each * cases_in(&tests.join(name)).len() as i64) as f64 / 1e3
            })
            .sum()
    };
    println!(
        "\nan endless loop in route on the shipped suite: the verdict in {:.1} s (goal 30 s: {}); every case run to its limit would take {limits:.0} s",
        took.as_secs_f64(),
        goal(took.as_secs_f64() <= 30.0)
    );
}

/// A student's repository as course workflows check them out: the hidden
/// tests inside it, a `.git`, and thousands of files beside the router.
/// Its folder is granted whole and what it must not show is covered, so
/// it should cost what the same submission in a plain folder costs.
pub fn repository() {
    const FILES: usize = 4000;
    let dir = tempfile::tempdir().unwrap();
    let python = real_python();
    let shipped = root().join("challenges/rendezvous-router/tests");
    let correct = root().join("submissions/python/correct_class.py");
    let layout = |at: &Path, files: usize| -> (PathBuf, PathBuf) {
        let tests = at.join("hidden-tests");
        for group in ["edge", "ties", "churn"] {
            std::fs::create_dir_all(tests.join(group)).unwrap();
            for entry in std::fs::read_dir(shipped.join(group)).unwrap() {
                let entry = entry.unwrap();
                std::fs::copy(entry.path(), tests.join(group).join(entry.file_name())).unwrap();
            }
        }
        let router = at.join("router.py");
        std::fs::copy(&correct, &router).unwrap();
        for i in 0..files {
            std::fs::write(at.join(format!("notes-{i}.txt")), "x\n").unwrap();
        }
        std::fs::create_dir_all(at.join(".git/objects")).unwrap();
        (tests, router)
    };
    // The plain one: tests and submission in folders of their own.
    let plain_dir = dir.path().join("plain");
    let (plain_tests, _) = layout(&plain_dir.join("course"), 0);
    let plain_student = plain_dir.join("student");
    std::fs::create_dir_all(&plain_student).unwrap();
    let plain_router = plain_student.join("router.py");
    std::fs::copy(&correct, &plain_router).unwrap();
    let (repo_tests, repo_router) = layout(&dir.path().join("repo"), FILES);
    let cache = dir.path().join("cache");
    let mut commands = vec![
        grade(&plain_tests, &plain_router, &cache, Some(&python)),
        grade(&repo_tests, &repo_router, &cache, Some(&python)),
    ];
    succeeds(&mut commands[0]);
    succeeds(&mut commands[1]);
    let times = interleaved(5, &mut commands);
    let (plain, repo) = (ms(times[0]), ms(times[1]));
    println!("\na student's repository holding the hidden tests and {FILES} files, fastest of 5:");
    println!("  in plain folders {plain:>8.1} ms");
    println!(
        "  in the repository {repo:>8.1} ms: {:.2}x (goal 1.15x: {})",
        repo / plain,
        goal(repo <= plain * 1.15)
    );
}
