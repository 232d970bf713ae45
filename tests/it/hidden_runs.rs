//! Hidden cases stay hidden in every run of a learner's grading: the
//! second opinion's replays, classmates graded side by side, and across
//! runs on one machine (two shards at once, a late student added with
//! `--resume`). Extra runs
//! are bounded by one budget. Each test grades hostile programs of
//! `submissions/hostile/` on `tests/fixtures/hidden-challenges/hidden-first`,
//! whose hidden group is declared before its open one and whose hidden keys
//! hold canaries that must appear in no format.

use crate::support::{grader, output, root, tempdir};
use clap::ValueEnum;
use report::Format;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What the hidden cases hold, whole and as sent through locks.
const CANARIES: [&str; 3] = ["CANARY", "Qx7Zk9", "Wp4Rj2"];

/// Copies the hostile programs `names` (with the helpers they import) into
/// a student folder each, under `class`: the submissions, in name order.
fn students(class: &Path, names: &[(&str, &str)]) -> Vec<PathBuf> {
    let hostile = root().join("submissions/hostile");
    names
        .iter()
        .map(|(student, program)| {
            let dir = class.join(student);
            std::fs::create_dir_all(&dir).unwrap();
            for helper in ["_router.py", "_lock_channel.py", "_page_cache_channel.py"] {
                std::fs::copy(hostile.join(helper), dir.join(helper)).unwrap();
            }
            std::fs::copy(hostile.join(program), dir.join("router.py")).unwrap();
            dir
        })
        .collect()
}

/// Grades `paths` for a learner with `extra` arguments: the JSON report,
/// the time it took, and every text the run and the renderings of its
/// report in every format wrote (the formats of one submission only when
/// there is one).
fn graded(dir: &Path, paths: &[PathBuf], extra: &[&str]) -> (Value, Duration, String) {
    let report = dir.join("report.json");
    let mut command = grader();
    command
        .args(["--challenges", "tests/fixtures/hidden-challenges", "grade"])
        .args(["--challenge", "hidden-first", "--audience", "learner"])
        .args(["--format", "json", "--output"])
        .arg(&report)
        .arg("--results")
        .arg(dir.join("results"))
        .args(extra)
        .args(paths);
    let started = Instant::now();
    let out = output(&mut command);
    let elapsed = started.elapsed();
    let mut all = String::from_utf8_lossy(&out.stdout).into_owned();
    all.push_str(&String::from_utf8_lossy(&out.stderr));
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files = vec![dir.join("results")];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
        } else {
            all.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
        }
    }
    let text = std::fs::read_to_string(&report).unwrap();
    all.push_str(&text);
    for format in Format::value_variants() {
        let one = serde_json::from_str::<Value>(&text)
            .is_ok_and(|r| r["submissions"].as_array().is_some_and(|s| s.len() == 1));
        if matches!(
            format,
            Format::Gradescope | Format::Prairielearn | Format::Codio
        ) && !one
        {
            continue;
        }
        let name = format.to_possible_value().unwrap().get_name().to_owned();
        let out = output(grader().args(["merge", "--format", &name]).arg(&report));
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        all.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    (serde_json::from_str(&text).unwrap(), elapsed, all)
}

/// Fails naming the first canary found in `all`, with what precedes it.
fn no_canary(all: &str) {
    for canary in CANARIES {
        if let Some(at) = all.find(canary) {
            let start = all[..at]
                .char_indices()
                .rev()
                .nth(300)
                .map_or(0, |(i, _)| i);
            panic!("{canary} reached a report: ...{}", &all[start..at + 40]);
        }
    }
}

#[test]
fn a_replay_under_another_seed_never_runs_a_hidden_case_where_it_is_shown() {
    let dir = tempdir();
    let paths = students(
        &dir.path().join("class"),
        &[("printer", "prints_hidden_elsewhere.py")],
    );
    let (report, _, all) = graded(dir.path(), &paths, &[]);
    no_canary(&all);
    let s = &report["submissions"][0];
    // Correct in every session that runs no hidden case before a visible
    // one: nothing changed between runs.
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s.get("nondeterministic").is_none(), "{s}");
}

#[test]
fn a_replay_that_sleeps_under_another_seed_is_bounded_by_the_extras_budget() {
    // Timed: no other test's grader runs meanwhile, whose hidden sessions
    // this run's visible ones would wait for (and the reverse).
    let _alone = crate::support::exclusive();
    let dir = tempdir();
    let paths = students(
        &dir.path().join("class"),
        &[("sleeper", "sleeps_elsewhere.py")],
    );
    // Six visible cases each sleep a minute under another seed: unbounded,
    // the replays would wait six backstops of 7 s (42 s); bounded, one
    // replay's backstop and the 5 s budget.
    let (report, elapsed, all) = graded(dir.path(), &paths, &[]);
    no_canary(&all);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(
        elapsed < Duration::from_secs(30),
        "grading took {elapsed:?}: the replays were not bounded"
    );
    let cut = s["second_opinion_cut_short"].as_str().unwrap_or_default();
    assert!(cut.contains("budget"), "{s}");
    // The human report says so too.
    assert!(all.contains("cut short"), "{all}");
}

#[test]
fn a_classmate_graded_beside_a_hidden_session_hears_nothing_of_it() {
    let dir = tempdir();
    let paths = students(
        &dir.path().join("class"),
        &[
            ("a-sends", "passes_hidden_by_lock.py"),
            ("b-hears", "hears_by_lock.py"),
        ],
    );
    let (report, _, all) = graded(dir.path(), &paths, &["--jobs", "2"]);
    no_canary(&all);
    for s in report["submissions"].as_array().unwrap() {
        assert_eq!(s["verdict"], "accepted", "{s}");
    }
    assert!(!all.contains("heard"), "{all}");
}

/// A hidden test's times are not in a learner's report: a submission that
/// sleeps in proportion to a hidden key's last character would spell it in
/// them. An instructor, who sees hidden cases whole, sees the times.
#[test]
fn a_hidden_tests_time_is_not_shown_to_a_learner() {
    let dir = tempdir();
    let paths = students(dir.path(), &[("ada", "times_hidden_keys.py")]);
    let (report, _, all) = graded(dir.path(), &paths, &[]);
    no_canary(&all);
    let tests = report["submissions"][0]["tests"]
        .as_array()
        .unwrap()
        .clone();
    let hidden: Vec<&Value> = tests.iter().filter(|t| t["group"] == "secret").collect();
    assert!(!hidden.is_empty(), "{report}");
    for t in &hidden {
        assert_eq!(t["verdict"], "accepted", "{t}");
        assert_eq!(
            (&t["time_ms"], &t["cpu_ms"]),
            (&Value::from(0), &Value::from(0)),
            "{t}"
        );
    }
    // The visible cases the submission sleeps 30 ms in keep their times.
    assert!(
        tests
            .iter()
            .any(|t| t["group"] == "open" && t["time_ms"].as_u64() >= Some(30)),
        "{report}"
    );

    let out = output(
        grader()
            .args(["--challenges", "tests/fixtures/hidden-challenges", "grade"])
            .args(["--challenge", "hidden-first", "--audience", "instructor"])
            .args(["--format", "json"])
            .arg(&paths[0]),
    );
    let report: Value = crate::support::json(&out);
    let slept = report["submissions"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["group"] == "secret")
        .map(|t| t["time_ms"].as_u64().unwrap())
        .max()
        .unwrap();
    // Each hidden key ends in a letter or digit: a quarter of a second at
    // least, for an instructor.
    assert!(slept >= 240, "{report}");

    // Nor does `grade --events` (what `watch` reads) tell a learner when
    // each hidden test ended: an event for each visible test only.
    let again = tempdir();
    let paths = students(again.path(), &[("ada", "times_hidden_keys.py")]);
    let (_, _, all) = graded(again.path(), &paths, &["--events"]);
    let events: Vec<Value> = all
        .lines()
        .filter_map(|l| l.strip_prefix("event: "))
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let visible = tests.iter().filter(|t| t["group"] != "secret").count();
    assert_eq!(events.len(), visible, "{all}");
    assert_eq!(
        events.last().unwrap()["of"].as_u64(),
        Some(tests.len() as u64)
    );
}

/// `grader grade` of a learner's report for `paths` with `extra`
/// arguments, started (not waited for), its output to files in `dir`.
fn started(dir: &Path, paths: &[PathBuf], extra: &[&str]) -> std::process::Child {
    std::fs::create_dir_all(dir).unwrap();
    grader()
        .args(["--challenges", "tests/fixtures/hidden-challenges", "grade"])
        .args(["--challenge", "hidden-first", "--audience", "learner"])
        .args(extra)
        .args(paths)
        .stdin(std::process::Stdio::null())
        .stdout(std::fs::File::create(dir.join("stdout")).unwrap())
        .stderr(std::fs::File::create(dir.join("stderr")).unwrap())
        .spawn()
        .unwrap()
}

#[test]
fn two_shards_graded_at_once_pass_nothing_from_a_hidden_session_to_a_visible_one() {
    // Machine-wide phases: no other test's grader beside these two.
    let _alone = crate::support::exclusive();
    let dir = tempdir();
    let class = dir.path().join("class");
    students(
        &class,
        &[
            ("a-sends", "passes_hidden_by_lock.py"),
            ("b-hears", "hears_by_lock.py"),
        ],
    );
    // Each shard grades one of them (by name), both at once: without a
    // machine-wide order, b's visible session listens while a's hidden
    // one sends, as in one run with two jobs.
    let shards: Vec<_> = [1, 2]
        .map(|i| {
            let out = dir.path().join(format!("shard-{i}"));
            let shard = format!("{i}/2");
            let child = started(&out, std::slice::from_ref(&class), &["--shard", &shard]);
            (out, child)
        })
        .into_iter()
        .collect();
    let mut all = String::new();
    for (out, mut child) in shards {
        let status = child.wait().unwrap();
        let stdout = std::fs::read_to_string(out.join("stdout")).unwrap();
        let stderr = std::fs::read_to_string(out.join("stderr")).unwrap();
        assert_eq!(status.code(), Some(0), "{stdout}{stderr}");
        all.push_str(&stdout);
        all.push_str(&stderr);
    }
    assert!(all.contains("b-hears"), "both shards graded: {all}");
    no_canary(&all);
    assert!(!all.contains("heard"), "{all}");
}

#[test]
fn a_late_student_reads_nothing_a_hidden_session_left_in_the_page_cache() {
    let _alone = crate::support::exclusive();
    let dir = tempdir();
    let class = dir.path().join("class");
    students(&class, &[("a-marks", "marks_page_cache.py")]);
    let results = dir.path().join("results");
    let first = dir.path().join("first");
    let mut child = started(
        &first,
        std::slice::from_ref(&class),
        &["--results", path(&results)],
    );
    let status = child.wait().unwrap();
    let said = std::fs::read_to_string(first.join("stdout")).unwrap()
        + &std::fs::read_to_string(first.join("stderr")).unwrap();
    assert_eq!(status.code(), Some(0), "{said}");
    // A student added later, graded into the same results: a's hidden
    // session marked the page cache of files every session may read.
    students(&class, &[("b-reads", "reads_page_cache.py")]);
    let (report, _, all) = graded(dir.path(), &[class], &["--resume"]);
    no_canary(&all);
    assert!(all.contains("b-reads"), "{report}");
    // What a's hidden key ends with: b's probes leave marks of their own
    // (a read that finds a page uncached starts reading it in), so what it
    // hears in a later session may be noise, but never this.
    assert!(!all.contains("7Zk9"), "{all}");
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}
