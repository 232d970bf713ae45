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
//!   replay's, and two jobs against one.

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

/// The fastest time of each of `commands` over `rounds` rounds, run in
/// turn within each round.
fn interleaved(rounds: usize, commands: &mut [Command]) -> Vec<Duration> {
    let mut times = vec![Duration::MAX; commands.len()];
    for _ in 0..rounds {
        for (time, command) in times.iter_mut().zip(commands.iter_mut()) {
            *time = (*time).min(fastest(1, || succeeds(command)));
        }
    }
    times
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
        "  plain Python replay {:>7.1} ms; grader {:>7.1} ms ({ratio:.2}x; goal 1.05x: {})",
        ms(times[0]),
        ms(times[1]),
        goal(ratio <= 1.05)
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
    println!(
        "  (with one job, each submission's second opinion, its replay under another hash seed, runs on the idle core beside it)"
    );
}
