//! The hostile corpus (`submissions/hostile/`): every program attacks the
//! grader in its own way. All are graded in one `grader grade` call, which
//! must finish in time, give each its verdict, leave no process behind,
//! leak no test data, reach no network and change no file.

use crate::support::{self, grader, json, output, root};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::ErrorKind;
use std::net::TcpListener;
use std::os::linux::net::SocketAddrExt;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The time limit per case for the corpus, of CPU time.
const LIMIT_MS: u64 = 1500;
/// Its wall-clock backstop, which stops the programs that wait: three
/// times the limit, at least the limit and 5 s.
const BACKSTOP_MS: u64 = 6500;
/// Grace on top of a limit for killing, reaping and restarting.
const GRACE_MS: u64 = 3000;
/// Sessions graded at once: twice the cores of the machines the tests run
/// on. Most of the corpus waits (on the backstop, on a pipe, on a lock)
/// rather than computes, and every session's CPU is capped by its own
/// cgroup, so the waits overlap without starving one another.
const JOBS: usize = 4;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    program: Vec<Program>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Program {
    path: String,
    verdict: String,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    answer: Option<String>,
    #[serde(default)]
    layer: Option<String>,
}

/// Processes run by a sandbox uid that no running grader owns, or
/// mentioning `marker` on their command line: anything the corpus left
/// behind.
/// The folder of its own a corpus program of one file is graded from:
/// named for the whole file name (`memory_hog.py` and `memory_hog.js`
/// are two students).
fn own_folder(program: &str) -> String {
    program.replace('.', "-")
}

fn leftovers(marker: &str) -> Vec<String> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        let status = std::fs::read_to_string(entry.path().join("status")).unwrap_or_default();
        let uid: u32 = status
            .lines()
            .find_map(|l| l.strip_prefix("Uid:"))
            .and_then(|l| l.split_whitespace().next())
            .and_then(|u| u.parse().ok())
            .unwrap_or(0);
        let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
        let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
        if ((61_000..65_000).contains(&uid) && !owned_by_a_running_grader(pid))
            || cmdline.contains(marker)
        {
            found.push(format!("pid {pid} uid {uid}: {cmdline}"));
        }
    }
    found
}

/// Whether a grader that is still running (not a sandbox's own init, the
/// grader binary as its shim) is among `pid`'s ancestors: then the process
/// belongs to a grading still under way, another test's or another
/// checkout's on the same machine, whose sessions use uids of the same range. The
/// corpus's grader has exited when this is asked, and what its sandboxes
/// left behind was handed to init or a subreaper, not to a grader.
fn owned_by_a_running_grader(pid: u32) -> bool {
    let mut pid = pid;
    // A bound on the walk, in case the tree changes under it.
    for _ in 0..64 {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let Some(parent) = status
            .lines()
            .find_map(|l| l.strip_prefix("PPid:"))
            .and_then(|p| p.trim().parse::<u32>().ok())
            .filter(|&p| p > 1)
        else {
            return false;
        };
        let cmdline = std::fs::read(format!("/proc/{parent}/cmdline")).unwrap_or_default();
        let mut args = cmdline.split(|&b| b == 0);
        let program = Path::new(OsStr::from_bytes(args.next().unwrap_or_default()));
        let shim = args.next() == Some(sandbox::SHIM_ARG.as_bytes());
        if program.file_name() == Some(OsStr::new("grader")) && !shim {
            return true;
        }
        pid = parent;
    }
    false
}

#[test]
fn the_hostile_corpus_is_contained() {
    // No other test's grader runs meanwhile: the corpus's fork bomb would
    // starve their programs of CPU and time them out.
    let _alone = support::exclusive();
    let corpus = root().join("submissions/hostile");
    let manifest: Manifest =
        toml::from_str(&std::fs::read_to_string(corpus.join("expected.toml")).unwrap()).unwrap();

    // Graded from a copy: even a sandbox that failed could not damage the
    // repository, and the copy carries the hints the programs read.
    let dir = tempfile::Builder::new()
        .prefix("hostile-corpus-")
        .tempdir()
        .unwrap();
    // Each student has a folder of their own, as a class of students
    // graded together would (a class of files grants each its own file
    // alone): a program of one file is put in a folder named for it
    // ([`own_folder`]), with
    // the helpers it imports (`_*`) beside it; a program of several files
    // has its folder already, and gets the helpers too.
    let mut originals: BTreeMap<PathBuf, Vec<u8>> = BTreeMap::new();
    let mut place = |from: &Path, to: PathBuf| {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        let bytes = std::fs::read(from).unwrap();
        std::fs::write(&to, &bytes).unwrap();
        // An executable program stays one.
        std::fs::set_permissions(&to, std::fs::metadata(from).unwrap().permissions()).unwrap();
        originals.insert(to, bytes);
    };
    let helpers: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.file_name().unwrap().to_string_lossy().starts_with('_'))
        .collect();
    let mut folders: Vec<PathBuf> = Vec::new();
    for program in &manifest.program {
        let (folder, name) = match program.path.split_once('/') {
            Some((folder, _)) => (dir.path().join(folder), None),
            None => (
                dir.path().join(own_folder(&program.path)),
                Some(&program.path),
            ),
        };
        match name {
            Some(name) => place(&corpus.join(name), folder.join(name)),
            None => {
                let source = corpus.join(folder.file_name().unwrap());
                for entry in walkdir::WalkDir::new(&source)
                    .min_depth(1)
                    .into_iter()
                    .flatten()
                {
                    let rel = entry.path().strip_prefix(&source).unwrap();
                    if entry.file_type().is_file() {
                        place(entry.path(), folder.join(rel));
                    } else if entry.file_type().is_symlink() {
                        // A link of the program's own, as it made it.
                        let target = std::fs::read_link(entry.path()).unwrap();
                        std::fs::create_dir_all(folder.join(rel).parent().unwrap()).unwrap();
                        std::os::unix::fs::symlink(target, folder.join(rel)).unwrap();
                    }
                }
            }
        }
        for helper in &helpers {
            place(helper, folder.join(helper.file_name().unwrap()));
        }
        if !folders.contains(&folder) {
            folders.push(folder);
        }
    }
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    // UNIX sockets of the host, as a daemon's would be: one by path in a
    // folder anyone may enter, one by abstract name.
    let sockets = tempfile::tempdir().unwrap();
    let unix_path = sockets.path().join("host.sock");
    let by_path = UnixListener::bind(&unix_path).unwrap();
    std::fs::set_permissions(&unix_path, std::fs::Permissions::from_mode(0o777)).unwrap();
    let abstract_name = format!("rendezvous-grader-hostile-{}", std::process::id());
    let by_name = UnixListener::bind_addr(
        &std::os::unix::net::SocketAddr::from_abstract_name(&abstract_name).unwrap(),
    )
    .unwrap();
    for l in [&by_path, &by_name] {
        l.set_nonblocking(true).unwrap();
    }
    let tests = root().join("challenges/rendezvous-router/tests/sample");
    let hints = serde_json::json!({
        "tests_dir": tests,
        "port": listener.local_addr().unwrap().port(),
        "unix_path": unix_path,
        "unix_abstract": abstract_name,
    });
    // A link beside each program to the tests: granting the folder's
    // entries one by one must not grant what a link points at.
    for folder in &folders {
        std::os::unix::fs::symlink(&tests, folder.join("linked-tests")).unwrap();
        let hints_path = folder.join("hints.json");
        std::fs::write(&hints_path, hints.to_string()).unwrap();
        originals.insert(hints_path, hints.to_string().into_bytes());
    }

    // A file beside the students' folders that links out of them lead
    // to (`../outside-canary.json`): never read, never named.
    std::fs::write(
        dir.path().join("outside-canary.json"),
        "{\n  CANARY-OUTSIDE-FILE\n}\n",
    )
    .unwrap();

    // The grader holds descriptor 9 on a canary file, as a CI runner's
    // leaked descriptor would be: nothing of it may reach a program.
    let canary_dir = tempfile::tempdir().unwrap();
    let canary = canary_dir.path().join("inherited-canary.txt");
    std::fs::write(&canary, "CANARY-INHERITED-DESCRIPTOR").unwrap();
    let in_ci = std::env::var_os("CI").is_some();
    let mut command = std::process::Command::new("sh");
    command
        .current_dir(root())
        .args(["-c", "exec 9<\"$0\"; exec \"$@\""])
        .arg(&canary)
        .arg(env!("CARGO_BIN_EXE_grader"))
        .args([
            "grade",
            "--format",
            "json",
            "--time-limit",
            &LIMIT_MS.to_string(),
            "--jobs",
            &JOBS.to_string(),
            "--tests",
        ])
        .arg(&tests);
    if in_ci {
        // CI machines have every layer: none may be missing there.
        command.arg("--require-sandbox");
    }
    for p in &manifest.program {
        let folder = match p.path.split_once('/') {
            Some((folder, rest)) => dir.path().join(folder).join(rest),
            None => dir.path().join(own_folder(&p.path)).join(&p.path),
        };
        command.arg(folder);
    }
    let started = Instant::now();
    // The grader execs in place of the shell: the peak is its own.
    let (out, peak_kib) = support::output_with_peak(&mut command);
    let elapsed = started.elapsed();
    assert!(peak_kib > 0, "the grader's memory was read");
    assert!(
        peak_kib < 600 * 1024,
        "the grader itself peaked at {peak_kib} KiB grading the corpus"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "stderr: {stderr}");
    for stream in [&out.stdout, &out.stderr] {
        let text = String::from_utf8_lossy(stream);
        for canary in [
            "CANARY-INHERITED-DESCRIPTOR",
            "CANARY-KEPT-STATE",
            "CANARY-OUTSIDE-FILE",
            "outside-canary",
            "/etc/shadow",
        ] {
            assert!(!text.contains(canary), "{canary} reached a report");
        }
    }
    let report: Value = json(&out);

    let cases = std::fs::read_dir(&tests)
        .unwrap()
        .filter(|e| {
            let n = e.as_ref().unwrap().file_name().into_string().unwrap();
            n.ends_with(".json") && !n.ends_with(".expected.json")
        })
        .count() as u64;
    let limits = Duration::from_millis(LIMIT_MS * cases * manifest.program.len() as u64);
    assert!(
        elapsed < limits + Duration::from_secs(30),
        "the corpus took {elapsed:?}, more than its limits ({limits:?}) plus 30 s"
    );

    let sandbox = &report["sandbox"];
    let missing: Vec<String> = sandbox["missing"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_owned())
        .collect();
    let layer_held = |layer: &str| match layer {
        "landlock" | "seccomp" | "accounting" => !sandbox[layer].is_null(),
        other => sandbox[other].as_bool().unwrap_or(false),
    };
    if in_ci {
        // CI runs as root on machines with cgroups: the kernel keeps the
        // accounts there, never the fallback.
        assert!(
            layer_held("accounting"),
            "no cgroup accounts in CI: {sandbox}"
        );
    }
    let mut failures = Vec::new();
    for (program, submission) in manifest
        .program
        .iter()
        .zip(report["submissions"].as_array().unwrap())
    {
        if let Some(layer) = &program.layer
            && !layer_held(layer)
        {
            // Only off CI (where --require-sandbox would have failed above).
            println!(
                "SKIPPED {}: the {layer} layer is missing here ({missing:?})",
                program.path
            );
            continue;
        }
        let name = &program.path;
        let tests = submission["tests"].as_array().unwrap();
        if submission["verdict"] != program.verdict.as_str() {
            failures.push(format!(
                "{name}: verdict {}, expected {}",
                submission["verdict"], program.verdict
            ));
            continue;
        }
        for t in tests {
            let ms = t["time_ms"].as_u64().unwrap();
            // A stopped or sleeping program waits for the backstop, on a
            // machine the corpus's fork bomb loads.
            if ms > BACKSTOP_MS + 2 * GRACE_MS {
                failures.push(format!("{name}: a test took {ms} ms"));
            }
        }
        if let Some(message) = &program.message {
            let got = tests[0]["message"].as_str().unwrap();
            if !got.contains(message.as_str()) {
                failures.push(format!("{name}: message {got:?} lacks {message:?}"));
            }
        }
        if let Some(answer) = &program.answer {
            let got = tests[0]["divergence"]["actual"]
                .as_str()
                .unwrap_or_default();
            if !got.contains(answer.as_str()) {
                failures.push(format!("{name}: answer {got:?} lacks {answer:?}"));
            }
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));

    // Nothing left running: the kernel tears a PID namespace down as its
    // init exits, which may take a moment after the grader itself exits.
    let marker = dir.path().to_str().unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut left = leftovers(marker);
    while !left.is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(100));
        left = leftovers(marker);
    }
    assert!(
        left.is_empty(),
        "processes left behind:\n{}",
        left.join("\n")
    );

    if layer_held("network_namespace") || layer_held("landlock") {
        match listener.accept() {
            Err(e) if e.kind() == ErrorKind::WouldBlock => {}
            other => panic!("a sandboxed program reached the test's port: {other:?}"),
        }
    }
    if layer_held("seccomp") || layer_held("mount_namespace") {
        for l in [&by_path, &by_name] {
            match l.accept() {
                Err(e) if e.kind() == ErrorKind::WouldBlock => {}
                other => panic!("a sandboxed program reached a host UNIX socket: {other:?}"),
            }
        }
    }
    assert_eq!(
        kept_state(),
        Vec::<String>::new(),
        "state outlived its session"
    );
    if layer_held("landlock") {
        for (path, bytes) in &originals {
            assert_eq!(
                &std::fs::read(path).unwrap(),
                bytes,
                "{} was changed",
                path.display()
            );
        }
        assert!(
            !dir.path().join("planted.py").exists(),
            "a file was planted beside the submission"
        );
    }
}

/// What `keeps_state/router` (and its JavaScript sibling) would leave on the
/// host if their session's IPC objects and temporary files outlived it.
fn kept_state() -> Vec<String> {
    let mut kept = Vec::new();
    // /proc/sysvipc/shm: a header, then one segment per line, key first
    // (in decimal).
    let segments = std::fs::read_to_string("/proc/sysvipc/shm").unwrap_or_default();
    if segments
        .lines()
        .skip(1)
        .any(|l| l.split_whitespace().next() == Some(&0x5247_0001_u32.to_string()))
    {
        kept.push("a System V segment".to_owned());
    }
    for file in [
        "/tmp/rendezvous-grader-hostile-canary",
        "/dev/shm/rendezvous-grader-hostile-canary",
        "/dev/shm/rendezvous-grader-hostile-canary-js",
        "/dev/mqueue/rendezvous-grader-hostile",
    ] {
        if Path::new(file).exists() {
            kept.push(file.to_owned());
        }
    }
    kept
}

#[test]
fn without_the_sandbox_the_report_says_so() {
    let out = output(grader().args([
        "grade",
        "--no-sandbox",
        "--format",
        "json",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/python/correct_class.py",
    ]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = json(&out);
    assert_eq!(report["sandbox"]["enabled"], false);
    assert_eq!(report["sandbox"]["pid_namespace"], false);
    assert!(report["sandbox"]["landlock"].is_null());
}

#[test]
fn the_sandbox_is_on_by_default_and_in_every_report() {
    let out = output(grader().args([
        "grade",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/javascript/correct.cjs",
    ]));
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let line = stdout
        .lines()
        .find(|l| l.starts_with("sandbox: "))
        .expect("a sandbox line");
    assert!(!line.contains("off"), "{line}");
}

/// Who keeps the accounts is in every report: the kernel, in a cgroup per
/// session, where the grader may make one (as root here, and always in
/// CI); sampling `/proc` where it may not, or where
/// `GRADER_ACCOUNTING=proc` declines cgroups. Both grade.
#[test]
fn the_report_says_who_keeps_the_accounts() {
    let sandbox_line = |out: &std::process::Output| {
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find(|l| l.starts_with("sandbox: "))
            .expect("a sandbox line")
            .to_owned()
    };
    let args = [
        "grade",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/python/correct_class.py",
    ];
    let fallback = sandbox_line(&output(
        grader().env("GRADER_ACCOUNTING", "proc").args(args),
    ));
    assert!(
        fallback.ends_with("accounts sampled from /proc"),
        "{fallback}"
    );
    let json_fallback: Value = json(&output(
        grader()
            .env("GRADER_ACCOUNTING", "proc")
            .args(args)
            .args(["--format", "json"]),
    ));
    assert!(json_fallback["sandbox"]["accounting"].is_null());

    let kernel = sandbox_line(&output(grader().args(args)));
    if std::env::var_os("CI").is_some() || support::effective_uid() == 0 {
        assert!(kernel.contains("accounts by cgroup v"), "{kernel}");
    } else {
        println!("SKIPPED the kernel's accounts: not root here ({kernel})");
    }
    // A value it does not know is refused, naming the variable and the
    // values it takes.
    let out = output(grader().env("GRADER_ACCOUNTING", "both").args(args));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("GRADER_ACCOUNTING=both") && stderr.contains("`proc`"),
        "{stderr}"
    );
}

/// A TypeScript file nested past what any parser's stack holds costs that
/// submission a compile error; the class around it is graded, and the
/// grader exits as for any failing class.
#[test]
fn a_typescript_file_nested_past_the_parsers_stack_is_its_compile_error() {
    let dir = tempfile::tempdir().unwrap();
    let depth = 3_000_000;
    let deep = format!(
        "export class Router {{ constructor(n: string[]) {{}} route(k: string) {{ return {}1{}; }} }}\n",
        "(".repeat(depth),
        ")".repeat(depth)
    );
    let class = dir.path().join("class");
    for (student, text) in [
        ("deep", deep),
        (
            "fine",
            std::fs::read_to_string(root().join("submissions/typescript/correct.ts")).unwrap(),
        ),
    ] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::write(class.join(student).join("router.ts"), text).unwrap();
    }
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--cache-dir"])
        .arg(dir.path().join("cache"))
        .args(["--tests"])
        .arg(root().join("challenges/rendezvous-router/tests/sample"))
        .arg(&class);
    let out = output(&mut command);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = json(&out);
    let verdicts: Vec<(&str, &str)> = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(verdicts, [("deep", "compile-error"), ("fine", "accepted")]);
    let message = report["submissions"][0]["tests"][0]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains("router.ts could not be transpiled"),
        "{message}"
    );
}

/// A TypeScript session is given its own transpiled module, not the cache
/// folder where a classmate's module (and the source its map embeds) lies.
#[test]
fn a_typescript_session_cannot_read_a_classmates_transpiled_module() {
    let dir = tempfile::tempdir().unwrap();
    let class = dir.path().join("class");
    let fixtures = root().join("tests/fixtures/submissions");
    // Graded in name order with one job: the classmate's module is in the
    // cache before the reader runs.
    let correct =
        std::fs::read_to_string(root().join("submissions/typescript/correct.ts")).unwrap();
    let classmate = format!("// A secret: CANARY-CLASSMATE-SOURCE.\n{correct}");
    let reader = std::fs::read_to_string(fixtures.join("ts_reads_cache.ts")).unwrap();
    for (student, text) in [("a-classmate", classmate), ("b-reader", reader)] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::write(class.join(student).join("router.ts"), text).unwrap();
    }
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--jobs", "1", "--cache-dir"])
        .arg(dir.path().join("cache"))
        .args(["--tests"])
        .arg(root().join("challenges/rendezvous-router/tests/sample"))
        .arg(&class);
    let out = output(&mut command);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("CANARY-CLASSMATE-SOURCE"), "{text}");
    let report: Value = json(&out);
    let reader = &report["submissions"][1];
    assert_eq!(reader["name"], "b-reader");
    // It ran and found nothing: its first answer is its null.
    assert_eq!(
        reader["tests"][0]["divergence"]["actual"],
        Value::Null,
        "{reader}"
    );
    assert_eq!(report["submissions"][0]["verdict"], "accepted");
}

/// The run's folders in the temporary folder (`TMPDIR`), by name.
fn run_folders(temp: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(temp)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("grader-"))
        .collect();
    names.sort();
    names
}

/// A grader that hangs on a sleeping submission, in its own `TMPDIR`,
/// started once its folders are there. Answers it and its folders.
// The child is handed to the caller, which waits for it.
#[allow(clippy::zombie_processes)]
fn hanging_grader(temp: &Path) -> (std::process::Child, Vec<String>) {
    let before = run_folders(temp);
    let mut child = grader()
        .env("TMPDIR", temp)
        .args(["grade", "--time-limit", "60000", "--tests"])
        .arg(root().join("challenges/rendezvous-router/tests/sample"))
        .arg(root().join("submissions/hostile/sleeps.py"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let new: Vec<String> = run_folders(temp)
            .into_iter()
            .filter(|n| !before.contains(n))
            .collect();
        if new.len() == 2 {
            return (child, new);
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the grader made no folders");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A grader killed outright cannot remove its temporary folders; the next
/// run does, and never those of a run still alive.
#[test]
fn a_killed_graders_folders_are_removed_by_the_next_run_only() {
    let temp = tempfile::tempdir().unwrap();
    let (mut killed, killed_folders) = hanging_grader(temp.path());
    let killed_group = cgroup_run_folder(killed.id());
    killed.kill().unwrap();
    killed.wait().unwrap();
    assert_eq!(run_folders(temp.path()), killed_folders, "left behind");
    if let Some(group) = &killed_group {
        assert!(group.is_dir(), "{} left behind", group.display());
        // Its sessions die with it (they are told to when their parent
        // dies); only then can their groups be removed.
        let deadline = Instant::now() + Duration::from_secs(10);
        // A grader run by another test may remove the group first: the
        // kernel removes no group that still holds a process, so gone
        // means empty.
        let busy = || {
            std::fs::read_dir(group).is_ok_and(|sessions| {
                sessions.flatten().any(|e| {
                    std::fs::read_to_string(e.path().join("cgroup.procs"))
                        .is_ok_and(|procs| !procs.trim().is_empty())
                })
            })
        };
        while busy() {
            assert!(
                Instant::now() < deadline,
                "the killed run's sessions live on"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    let (mut alive, alive_folders) = hanging_grader(temp.path());
    let alive_group = cgroup_run_folder(alive.id());
    assert_eq!(
        run_folders(temp.path()),
        alive_folders,
        "the dead run's are gone"
    );
    if let Some(group) = &killed_group {
        // Removed as the run starts, a moment after it makes its folders.
        let deadline = Instant::now() + Duration::from_secs(10);
        while group.exists() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        assert!(!group.exists(), "{} not removed", group.display());
    }

    // A third run, beside the live one, leaves the live one's alone.
    let out = output(
        grader()
            .env("TMPDIR", temp.path())
            .args(["grade", "--tests"])
            .arg(root().join("challenges/rendezvous-router/tests/sample"))
            .arg(root().join("submissions/python/correct_class.py")),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    alive.kill().unwrap();
    alive.wait().unwrap();
    assert_eq!(
        run_folders(temp.path()),
        alive_folders,
        "the live run's are kept"
    );
    if let Some(group) = &alive_group {
        assert!(group.is_dir(), "{} of a live run removed", group.display());
    }
}

/// The folder a grader run of pid `pid` makes for its sessions' groups in
/// the cpuacct hierarchy, below this process's own group (which the
/// grader inherits), once it is there; `None` where the grader keeps no
/// cgroups (not root), after saying so.
fn cgroup_run_folder(pid: u32) -> Option<PathBuf> {
    if crate::support::effective_uid() != 0 {
        println!("SKIPPED the cgroup folders: not root");
        return None;
    }
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap();
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap();
    let (controller_path, mount) = own
        .lines()
        .find_map(|l| {
            let mut parts = l.splitn(3, ':');
            let (_, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
            controllers
                .split(',')
                .any(|c| c == "cpuacct")
                .then_some(path)
        })
        .and_then(|path| {
            mountinfo.lines().find_map(|l| {
                let (before, after) = l.split_once(" - ")?;
                let mut fields = before.split(' ');
                let root = fields.nth(3)?;
                let point = fields.next()?;
                let options = after.split(' ').nth(2)?;
                (after.starts_with("cgroup ") && options.split(',').any(|o| o == "cpuacct"))
                    .then(|| (path.strip_prefix(root).unwrap_or(path).to_owned(), point))
            })
        })?;
    let folder = Path::new(mount)
        .join(controller_path.trim_start_matches('/'))
        .join(format!("rendezvous-grader-{pid}"));
    let deadline = Instant::now() + Duration::from_secs(10);
    while !folder.is_dir() {
        assert!(
            Instant::now() < deadline,
            "as root, the grader made no {}",
            folder.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    Some(folder)
}
