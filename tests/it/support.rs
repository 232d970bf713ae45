//! What the integration tests share: the repository, the grader binary and
//! running it, the spec's facts, copies of suites, schema checks, and a
//! gate that gives one test the machine's sandboxes to itself.
//!
//! Every module of this binary runs in one process, its tests in parallel
//! threads: nothing here changes the process's environment or working
//! directory, and every grader run goes through [`output`] (or holds
//! [`shared`]) so that [`exclusive`] can keep them out.

pub use report::contract::Document;
#[path = "../../crates/report/tests/support/common.rs"]
mod common;
pub use common::{check_document, literal, settings};
use serde_json::Value;
use std::cell::Cell;
use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::{PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};

/// The repository's root (where the grader's Cargo.toml is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A command for the built `grader` binary, to run from the repository's
/// root (test paths such as `submissions/...` are relative to it).
pub fn grader() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_grader"));
    command.current_dir(root());
    command
}

/// Runs `command` to its end with empty stdin, its stdout and stderr
/// captured.
pub fn output(command: &mut Command) -> Output {
    let _gate = shared();
    command.output().expect("the command runs")
}

/// Runs `command` to its end, and also answers the peak resident memory of
/// its own process (not its children's) in KiB: the kernel's high-water
/// mark, read every few milliseconds while it runs (the last reading comes
/// at most that long before it exits).
pub fn output_with_peak(command: &mut Command) -> (Output, u64) {
    let _gate = shared();
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let status = format!("/proc/{}/status", child.id());
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let watcher = {
        let done = done.clone();
        std::thread::spawn(move || {
            let mut peak = 0;
            while !done.load(std::sync::atomic::Ordering::Relaxed) {
                let hwm = std::fs::read_to_string(&status)
                    .unwrap_or_default()
                    .lines()
                    .find_map(|l| l.strip_prefix("VmHWM:"))
                    .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
                    .unwrap_or(0);
                peak = peak.max(hwm);
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            peak
        })
    };
    let out = child.wait_with_output().expect("the command ends");
    done.store(true, std::sync::atomic::Ordering::Relaxed);
    (out, watcher.join().unwrap())
}

/// Runs `command` to its end with `input` on its stdin.
pub fn output_with_stdin(command: &mut Command, input: &str) -> Output {
    let _gate = shared();
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the command starts");
    let mut stdin = child.stdin.take().unwrap();
    // A program that stops reading early closes the pipe: not a failure of
    // the test, which judges what the program said.
    match stdin.write_all(input.as_bytes()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
        other => other.unwrap(),
    }
    drop(stdin);
    child.wait_with_output().expect("the command ends")
}

/// `grader` with `args`, run from the root to its end.
pub fn run<S: AsRef<OsStr>>(args: &[S]) -> Output {
    output(grader().args(args))
}

/// `grader` with `args` and `input` on its stdin.
pub fn run_with_stdin<S: AsRef<OsStr>>(args: &[S], input: &str) -> Output {
    output_with_stdin(grader().args(args), input)
}

/// Bytes a program wrote, as text (invalid UTF-8 replaced).
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The JSON a program wrote on stdout; panics with its stderr when that
/// does not parse.
///
/// A report (an object with `grader` and `submissions`) must also follow
/// the published schema, strictly ([`check_report`]).
pub fn json<T: serde::de::DeserializeOwned>(out: &Output) -> T {
    let value: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON: {e}\nstdout: {}\nstderr: {}",
            text(&out.stdout),
            text(&out.stderr)
        )
    });
    if value.get("grader").is_some() && value.get("submissions").is_some() {
        check_report(&value);
    }
    serde_json::from_value(value).unwrap()
}

/// Panics unless `report` follows the report's JSON Schema, strictly
/// ([`check_document`]).
pub fn check_report(report: &Value) {
    check_document(Document::Report, report);
}

/// The JSON a program wrote on stdout, which must follow `document`'s
/// schema strictly ([`check_document`]).
pub fn document<T: serde::de::DeserializeOwned>(document: Document, out: &Output) -> T {
    let value: Value = json(out);
    check_document(document, &value);
    serde_json::from_value(value).unwrap()
}

/// The JSON report a run wrote, after checking that it exited 0 (panics
/// with its stderr otherwise).
pub fn json_ok<T: serde::de::DeserializeOwned>(out: &Output) -> T {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    json(out)
}

/// Writes `dir/name`: `submissions/python/correct_class.py` with `tail`
/// appended (Python that patches its Router), and answers its path.
pub fn correct_class_with(dir: &Path, name: &str, tail: &str) -> PathBuf {
    let correct =
        std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, format!("{correct}\n\n{tail}")).unwrap();
    path
}

/// The spec's facts: h32 check values and each challenge page's samples.
pub fn vectors() -> Value {
    serde_json::from_str(include_str!("../../reference/tests/fixtures/vectors.json")).unwrap()
}

/// A fresh temporary folder, removed when dropped.
pub fn tempdir() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Copies the tree at `from` into `to` (created), keeping the files and
/// folders whose path relative to `from` passes `keep`; a folder left out
/// leaves out everything beneath it.
pub fn copy_tree(from: &Path, to: &Path, keep: impl Fn(&Path) -> bool) {
    std::fs::create_dir_all(to).unwrap();
    let mut walk = walkdir::WalkDir::new(from).min_depth(1).into_iter();
    while let Some(entry) = walk.next() {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        if !keep(rel) {
            if entry.file_type().is_dir() {
                walk.skip_current_dir();
            }
            continue;
        }
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(to.join(rel)).unwrap();
        } else {
            std::fs::copy(entry.path(), to.join(rel)).unwrap();
        }
    }
}

/// How many operations each case of a `large` group keeps in
/// [`trimmed_challenges`].
const TRIMMED_OPERATIONS: usize = 1000;

/// The shipped challenges, copied once per test run, with every case of a
/// `large` group cut to its first [`TRIMMED_OPERATIONS`] operations and
/// its expected answers to theirs (an answer depends only on the
/// operations before it, so the cut keeps them right). Every group, case
/// name, weight and limit is the shipped one; only those cases are
/// shorter, so a group's description that counts their operations no
/// longer holds (vnode-ring's large case loses its one `load`). For the
/// tests about a report, a screen or a platform: a correct Python
/// submission spends most of its time on the shipped thousand-node case,
/// a tenth of it on this one. A test about the suite itself, or about
/// time, grades on the shipped challenges.
pub fn trimmed_challenges() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        // A static is never dropped: each run leaves its copy (about
        // 2 MB) in the build's own temporary folder, which `cargo clean`
        // empties, rather than in /tmp.
        let dir = tempfile::Builder::new()
            .prefix("trimmed-challenges-")
            .tempdir_in(env!("CARGO_TARGET_TMPDIR"))
            .expect("a folder in the build's temporary folder");
        let shipped = root().join("challenges");
        let is_large = |rel: &Path| rel.parent().is_some_and(|p| p.ends_with("tests/large"));
        // Every file but the large groups' cases and expected answers,
        // which are written below, cut.
        copy_tree(&shipped, dir.path(), |rel| !is_large(rel));
        let mut cut = 0;
        for file in walkdir::WalkDir::new(&shipped) {
            let file = file.unwrap();
            let rel = file.path().strip_prefix(&shipped).unwrap();
            if !file.file_type().is_file() || !is_large(rel) {
                continue;
            }
            let mut case: Value = serde_json::from_slice(&std::fs::read(file.path()).unwrap())
                .unwrap_or_else(|e| panic!("{}: {e}", file.path().display()));
            // A case is `[args, operations]`, its expected file the list of
            // answers, one per operation.
            let expected = rel.to_string_lossy().ends_with(".expected.json");
            let list = if expected { &mut case } else { &mut case[1] };
            let list = list.as_array_mut().unwrap();
            assert!(list.len() > TRIMMED_OPERATIONS, "{}", rel.display());
            list.truncate(TRIMMED_OPERATIONS);
            std::fs::write(dir.path().join(rel), serde_json::to_vec(&case).unwrap()).unwrap();
            cut += 1;
        }
        assert!(cut > 0, "no large case was cut");
        dir
    })
    .path()
}

/// Validates a JUnit file against the Jenkins XSD.
pub fn xmllint(xml: &Path) -> Output {
    Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(root().join("tests/fixtures/schemas/junit-10.xsd"))
        .arg(xml)
        .output()
        .expect("xmllint is installed (Debian: libxml2-utils); .ci/run installs it")
}

static GATE: RwLock<()> = RwLock::new(());

thread_local! {
    /// Whether this thread holds the gate alone.
    static ALONE: Cell<bool> = const { Cell::new(false) };
}

/// Held while a grader of an ordinary test runs ([`output`] takes it): many
/// at once, but none while a test holds [`exclusive`].
pub struct Shared {
    _guard: Option<RwLockReadGuard<'static, ()>>,
}

/// See [`shared`]; for code that starts a grader without [`output`] (a
/// child killed half-way), held until the child is gone.
pub fn shared() -> Shared {
    if ALONE.with(Cell::get) {
        return Shared { _guard: None };
    }
    Shared {
        _guard: Some(GATE.read().unwrap_or_else(PoisonError::into_inner)),
    }
}

/// Held by a test that needs the sandboxes to itself: graders of other
/// tests wait until it is dropped. The hostile corpus needs it: its fork
/// bomb starves every other process of CPU.
pub struct Exclusive {
    _guard: RwLockWriteGuard<'static, ()>,
}

/// See [`Exclusive`]. The holding thread's own [`output`] calls still run.
pub fn exclusive() -> Exclusive {
    let guard = GATE.write().unwrap_or_else(PoisonError::into_inner);
    ALONE.with(|a| a.set(true));
    Exclusive { _guard: guard }
}

impl Drop for Exclusive {
    fn drop(&mut self) {
        ALONE.with(|a| a.set(false));
    }
}

/// `(name, verdict)` of every submission in a JSON `report`.
pub fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// The effective uid of this test process, from /proc.
pub fn effective_uid() -> u32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|ids| ids.split_whitespace().nth(1))
        .and_then(|euid| euid.parse().ok())
        .unwrap()
}

/// A class of six correct students, `s0` to `s5`, that each take about a
/// second, in `dir/class`.
pub fn slow_class(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    let slow = "import time\nfrom correct_base import Router as _R\n\nclass Router(_R):\n    def route(self, key):\n        time.sleep(0.05)\n        return super().route(key)\n";
    for i in 0..6 {
        let folder = class.join(format!("s{i}"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join("router.py"), slow).unwrap();
        std::fs::copy(
            root().join("submissions/python/correct_class.py"),
            folder.join("correct_base.py"),
        )
        .unwrap();
    }
    class
}

/// The folder `edge` in `dir`, made: a `--tests` folder whose cases form
/// the group `edge`, which every shipped challenge declares (scored per
/// test, under the challenge's own time limit), as every suite's groups
/// must be declared.
pub fn edge_suite(dir: &Path) -> PathBuf {
    let edge = dir.join("edge");
    std::fs::create_dir_all(&edge).unwrap();
    edge
}

/// A `grader` in `dir` that writes the arguments it is run with to
/// `dir/args`, then runs the grader under test with them: what a script
/// that starts the grader passes it. Answers the program and the file.
pub fn grader_telling_its_args(dir: &Path) -> (PathBuf, PathBuf) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::create_dir_all(dir).unwrap();
    let (spy, said) = (dir.join("grader"), dir.join("args"));
    std::fs::write(
        &spy,
        format!(
            "#!/bin/sh\necho \"$@\" >'{}'\nexec '{}' \"$@\"\n",
            said.display(),
            env!("CARGO_BIN_EXE_grader")
        ),
    )
    .unwrap();
    std::fs::set_permissions(&spy, std::fs::Permissions::from_mode(0o755)).unwrap();
    (spy, said)
}
