//! Time limits measure the submission, not the machine: a case is judged on
//! the CPU time its session used, so a correct submission graded beside
//! CPU-hungry neighbours is still accepted, while a program that loops or
//! sleeps still gets its time-limit, by one clock or the other, soon.

use crate::support::{self, grader, json, output, root};
use serde_json::Value;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Busy processes the test starts beside the grader, on a machine of two
/// cores: with four sessions graded at once, each gets a quarter of a core
/// or less.
const NEIGHBOURS: usize = 4;
/// Copies of the correct submission graded at once, with `--jobs` as many.
const COPIES: usize = 4;
/// Gradings that must all accept every copy.
const RUNS: usize = 10;
/// The CPU time the correct submission spends per case, alone, as a share
/// of the time limit: the least margin `audit --limits` proposes (its
/// multiple of the slowest correct case, before rounding up to whole
/// seconds). A machine's load does slow a program's own CPU time a little
/// (a busy neighbour on the same core, caches shared): one run in forty saw
/// 308 ms alone take more than 513 ms here.
const SHARE: f64 = 1.0 / grading::LIMIT_MULTIPLE as f64;

/// Processes spinning on the CPU, killed by pid when dropped.
struct Neighbours(Vec<Child>);

impl Neighbours {
    fn start(n: usize) -> Neighbours {
        Neighbours::spawn(n, &[])
    }

    /// `n` neighbours each in a session of its own: where the kernel
    /// groups a session's processes for scheduling (autogroup), they then
    /// weigh as `n` groups against a grader session's cgroup, not as one.
    fn start_apart(n: usize) -> Neighbours {
        Neighbours::spawn(n, &["setsid"])
    }

    fn spawn(n: usize, wrapper: &[&str]) -> Neighbours {
        Neighbours(
            (0..n)
                .map(|_| {
                    let command = [wrapper, &["python3", "-c", "while True: pass"]].concat();
                    Command::new(command[0])
                        .args(&command[1..])
                        .stdin(Stdio::null())
                        .spawn()
                        .expect("python3 runs")
                })
                .collect(),
        )
    }
}

impl Drop for Neighbours {
    fn drop(&mut self) {
        for child in &mut self.0 {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The CPU seconds Python spends on `n` iterations of the spin loop the
/// slow submission runs, measured by Python itself, in a function as the
/// submission runs it (a loop at the top level, on globals, is three
/// times slower).
fn spin_seconds(n: u64) -> f64 {
    let out = Command::new("python3")
        .args([
            "-c",
            &format!(
                "import time\n\n\ndef spin():\n    x = 0\n    for i in range({n}):\n        x += i\n\n\nt = time.process_time()\nspin()\nprint(time.process_time() - t)"
            ),
        ])
        .output()
        .expect("python3 runs");
    String::from_utf8_lossy(&out.stdout).trim().parse().unwrap()
}

/// A correct router that spins `n` iterations whenever a Router is made:
/// once per case.
fn slow_router(n: u64) -> String {
    let correct =
        std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    format!(
        "{correct}\n\n_init = Router.__init__\n\n\ndef _slow_init(self, *args):\n    x = 0\n    for i in range({n}):\n        x += i\n    _init(self, *args)\n\n\nRouter.__init__ = _slow_init\n"
    )
}

/// The hostile program `name` in a student folder of its own under `dir`,
/// with the helper it imports.
fn hostile_program(dir: &Path, name: &str) -> std::path::PathBuf {
    let folder = dir.join(Path::new(name).file_stem().unwrap());
    std::fs::create_dir_all(&folder).unwrap();
    for file in ["_router.py", name] {
        std::fs::copy(
            root().join("submissions/hostile").join(file),
            folder.join(file),
        )
        .unwrap();
    }
    folder.join(name)
}

/// A tests folder with one sample case and its expected output.
fn one_case(dir: &Path) -> std::path::PathBuf {
    let tests = dir.join("edge");
    std::fs::create_dir(&tests).unwrap();
    let sample = root().join("challenges/rendezvous-router/tests/sample");
    for name in [
        "sample-1-keys-spread-over-three-nodes.json",
        "sample-1-keys-spread-over-three-nodes.expected.json",
    ] {
        std::fs::copy(sample.join(name), tests.join(name)).unwrap();
    }
    tests
}

/// Grades `paths` against `tests` with `--jobs` as many as there are.
fn grade(tests: &Path, limit_ms: u64, paths: &[std::path::PathBuf]) -> Value {
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--exit-zero", "--time-limit"])
            .arg(limit_ms.to_string())
            .args(["--jobs", &paths.len().to_string(), "--tests"])
            .arg(tests)
            .args(paths),
    );
    support::json_ok(&out)
}

#[test]
fn a_loaded_machine_neither_fails_a_correct_submission_nor_spares_a_loop_or_a_sleep() {
    // The neighbours would starve other tests' programs of CPU.
    let _alone = support::exclusive();
    // Sized by Python's own CPU clock, not by the grader under test.
    let probe = 2_000_000;
    let n = (probe as f64 * 0.3 / spin_seconds(probe).max(0.01)) as u64;
    let alone = spin_seconds(n);
    let limit_ms = ((alone / SHARE) * 1000.0).ceil().max(200.0) as u64;

    let dir = support::tempdir();
    let tests = one_case(dir.path());
    let mut correct = Vec::new();
    for i in 0..COPIES {
        let folder = dir.path().join(format!("student-{i}"));
        std::fs::create_dir(&folder).unwrap();
        std::fs::write(folder.join("router.py"), slow_router(n)).unwrap();
        correct.push(folder.join("router.py"));
    }

    let _neighbours = Neighbours::start(NEIGHBOURS);
    let mut failed = Vec::new();
    for run in 0..RUNS {
        let report = grade(&tests, limit_ms, &correct);
        for s in report["submissions"].as_array().unwrap() {
            let t = &s["tests"][0];
            if s["verdict"] != "accepted" {
                failed.push(format!(
                    "run {run}: {} {} after {} ms: {}",
                    s["path"], s["verdict"], t["time_ms"], t["message"]
                ));
            }
        }
    }
    assert!(
        failed.is_empty(),
        "a correct submission taking {:.0} ms of CPU alone, with a {limit_ms} ms limit:\n{}",
        alone * 1000.0,
        failed.join("\n")
    );

    let started = Instant::now();
    let report = grade(
        &tests,
        limit_ms,
        &[
            hostile_program(dir.path(), "infinite_loop.py"),
            hostile_program(dir.path(), "sleeps.py"),
            correct[0].clone(),
            correct[1].clone(),
        ],
    );
    let elapsed = started.elapsed();
    let submissions = report["submissions"].as_array().unwrap();
    let message = |i: usize| submissions[i]["tests"][0]["message"].as_str().unwrap();
    assert_eq!(submissions[0]["verdict"], "time-limit", "{}", message(0));
    assert!(message(0).contains("CPU time"), "{}", message(0));
    assert_eq!(submissions[1]["verdict"], "time-limit", "{}", message(1));
    assert!(message(1).contains("wall-clock"), "{}", message(1));
    // The sleep waits for the wall-clock backstop (at most the limit and
    // 5 s here); the rest is starting, killing and the machine's load.
    assert!(
        elapsed < Duration::from_millis(limit_ms) + Duration::from_secs(5 + 15),
        "a loop and a sleep took {elapsed:?} with a {limit_ms} ms limit"
    );
}

/// A machine so loaded that a submission cannot get the CPU it needs
/// within the wall-clock backstop: that is the machine's fault. It is
/// graded again alone at the end of the run, and starved again it is a
/// grader-fault to grade again, never the learner's time-limit. A
/// program that sleeps is not starved (it is not ready to run), nor one
/// that lowers its own priority: both keep their time-limit.
#[test]
fn a_submission_the_machine_starves_is_a_grader_fault_not_a_time_limit() {
    let _alone = support::exclusive();
    let probe = 2_000_000;
    // About 300 ms of CPU alone, under a 400 ms limit.
    let n = (probe as f64 * 0.3 / spin_seconds(probe).max(0.01)) as u64;
    let dir = support::tempdir();
    let tests = one_case(dir.path());
    let slow = dir.path().join("slow.py");
    std::fs::write(&slow, slow_router(n)).unwrap();
    // Forty busy neighbours per core at normal priority, each in a
    // session of its own; the grader, and so every session it starts, at
    // the lowest: a few percent of a core. (A session in a cgroup of its
    // own weighs as much as one neighbour's session, whatever its nice
    // value: it takes that many to starve it.) The grader shares this
    // test's session with one more busy process, as on a CI runner beside
    // a build: it gets a sliver of that session's share, and waits seconds
    // for a CPU between its steps, which must not count as the
    // submission's time.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let _neighbours = Neighbours::start_apart(40 * cores);
    let beside = Neighbours::start(1);
    let mut command = Command::new("nice");
    command
        .args(["-n", "19"])
        .arg(env!("CARGO_BIN_EXE_grader"))
        .current_dir(root())
        .args([
            "grade",
            "--format",
            "json",
            "--time-limit",
            "400",
            "--jobs",
            "2",
        ])
        .arg("--tests")
        .arg(&tests)
        .arg(&slow);
    let out = output(&mut command);
    drop(beside);
    let report: Value = json(&out);
    let submissions = report["submissions"].as_array().unwrap();
    let message = |i: usize| submissions[i]["tests"][0]["message"].as_str().unwrap_or("");
    // Starved beside nothing but the neighbours, it was graded again
    // alone before its fault was recorded; the run says so by its exit
    // status.
    assert_eq!(submissions[0]["verdict"], "grader-fault", "{}", message(0));
    assert!(message(0).contains("too busy"), "{}", message(0));
    assert!(message(0).contains("graded again alone"), "{}", message(0));
    // Every second the submission had is told as run or waited for a
    // CPU: the seconds the grader itself waited before handing it the
    // request, or while reading it at the end, are not counted as its.
    match told_times(message(0)) {
        Some((wall, ran, waited)) => assert!(ran + waited >= wall * 0.9, "{}", message(0)),
        // The machine left the grader itself no CPU to read them with.
        None => assert!(
            message(0).contains("could not once measure"),
            "{}",
            message(0)
        ),
    }
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    // At the grader's own priority, beside the same neighbours: a program
    // that sleeps, and one that lowers its own priority, make their own
    // wait, and it is their time-limit.
    let report = grade(
        &tests,
        400,
        &[
            hostile_program(dir.path(), "sleeps.py"),
            hostile_program(dir.path(), "lowers_its_priority.py"),
        ],
    );
    let submissions = report["submissions"].as_array().unwrap();
    let message = |i: usize| submissions[i]["tests"][0]["message"].as_str().unwrap_or("");
    assert_eq!(submissions[0]["verdict"], "time-limit", "{}", message(0));
    assert!(message(0).contains("wall-clock"), "{}", message(0));
    assert_eq!(submissions[1]["verdict"], "time-limit", "{}", message(1));
}

/// The wall-clock, run and waited seconds a "too busy" message tells,
/// when it could measure them.
fn told_times(message: &str) -> Option<(f64, f64, f64)> {
    let number = |after: &str| -> Option<f64> {
        let rest = &message[message.find(after)? + after.len()..];
        rest.split_whitespace().next()?.parse().ok()
    };
    Some((
        number(": in ")?,
        number("processes ran for ")?,
        number(" s and waited ")?,
    ))
}

/// A classmate's hundred spinning processes take one core at most where
/// the kernel keeps the accounts (each session's cgroup has a CPU quota of
/// one core): a correct submission graded beside them with `--jobs 2`
/// keeps the other core and is accepted, no grader fault; the spinner's
/// own verdict is time-limit.
#[test]
fn a_classmates_hundred_spinners_leave_a_correct_submission_its_core() {
    let _alone = support::exclusive();
    let probe = 2_000_000;
    // About half a second of CPU alone per case, under a 1500 ms limit.
    let n = (probe as f64 * 0.5 / spin_seconds(probe).max(0.01)) as u64;
    let dir = support::tempdir();
    let slow = dir.path().join("slow.py");
    std::fs::write(&slow, slow_router(n)).unwrap();
    let spinner = hostile_program(dir.path(), "starves_classmates.py");
    let tests = root().join("challenges/rendezvous-router/tests/sample");
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--time-limit", "1500"])
            .args(["--jobs", "2", "--tests"])
            .arg(&tests)
            .arg(&spinner)
            .arg(&slow),
    );
    let report: Value = json(&out);
    if report["sandbox"]["accounting"].is_null() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no cgroup accounts in CI: {}",
            report["sandbox"]
        );
        println!("SKIPPED: no cgroup here, so no CPU quota keeps a classmate to one core");
        return;
    }
    let submissions = report["submissions"].as_array().unwrap();
    let by_name = |name: &str| {
        submissions
            .iter()
            .find(|s| s["path"].as_str().is_some_and(|p| p.ends_with(name)))
            .unwrap_or_else(|| panic!("{name} graded: {report}"))
    };
    let slow = by_name("slow.py");
    assert_eq!(slow["verdict"], "accepted", "{slow}");
    let spinner = by_name("starves_classmates.py");
    assert_eq!(spinner["verdict"], "time-limit", "{spinner}");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
