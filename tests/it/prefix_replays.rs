//! A test stopped by a limit at operation k shows the first wrong answer
//! of its operations before k, run again alone (docs/diagnosis.md): for
//! the first three such tests of a grading only, whatever the submission
//! does; a replay that answers otherwise than a first run could adds
//! nothing or is told as a replay; and a hidden test's replay shows a
//! learner nothing more than before.

use crate::support::{copy_tree, correct_class_with, grader, json_ok, output, root, tempdir, text};
use serde_json::Value;
use std::path::Path;

/// The limit of the tests' group.
const LIMIT_MS: u64 = 1000;

/// Grades `correct_class.py` with `tail` on the cases `cases` (name,
/// operations after the nodes n-a, n-b, n-c), in the group `edge`: the JSON
/// report and its text rendering.
fn graded(tail: &str, cases: &[(&str, &str)]) -> (Value, String) {
    let dir = tempdir();
    let submission = correct_class_with(dir.path(), "patched.py", tail);
    let tests = dir.path().join("edge");
    std::fs::create_dir(&tests).unwrap();
    for (name, ops) in cases {
        std::fs::write(
            tests.join(format!("{name}.json")),
            format!(r#"[[["n-a","n-b","n-c"]],[{ops}]]"#),
        )
        .unwrap();
    }
    let report: Value = json_ok(&output(
        grader()
            .args(["grade", "--format", "json", "--exit-zero", "--time-limit"])
            .arg(LIMIT_MS.to_string())
            .arg("--tests")
            .arg(&tests)
            .arg(&submission),
    ));
    let json = dir.path().join("report.json");
    std::fs::write(&json, report.to_string()).unwrap();
    let human = text(&output(grader().args(["merge", "--format", "human"]).arg(&json)).stdout);
    (report, human)
}

/// The routes of keys `k-…` answer a node that is never present, and
/// routes of `slow` never return.
const WRONG_THEN_LOOPS: &str = "_route = Router.route\n\n\
    def _patched(self, key):\n    if key.startswith('k-'):\n        return 'n-z'\n    \
    while key == 'slow':\n        pass\n    return _route(self, key)\n\nRouter.route = _patched\n";

/// A hostile submission whose every test answers wrong, then loops: only
/// the first three tests, in the suite's order, are replayed, and show
/// their wrong answer in the JSON and the text report; the others show
/// the limit alone. (Counted by the report: a replay is a fresh process,
/// which keeps nothing the sandbox would let it count with.)
#[test]
fn only_the_first_three_tests_stopped_by_a_limit_are_replayed() {
    let names = ["a", "b", "c", "d", "e", "f", "g", "h"];
    let cases: Vec<(&str, String)> = names
        .iter()
        .map(|n| (*n, format!(r#"["route","k-{n}"],["route","slow"]"#)))
        .collect();
    let cases: Vec<(&str, &str)> = cases.iter().map(|(n, o)| (*n, o.as_str())).collect();
    let (report, human) = graded(WRONG_THEN_LOOPS, &cases);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "time-limit", "{s}");
    let tests = s["tests"].as_array().unwrap();
    assert_eq!(tests.len(), names.len());
    for (i, t) in tests.iter().enumerate() {
        assert_eq!(t["verdict"], "time-limit", "{t}");
        let message = t["message"].as_str().unwrap();
        assert!(message.contains("while running operation 1"), "{t}");
        let d = &t["divergence"];
        if i < grading::PREFIX_REPLAYS {
            assert_eq!(d["op_index"], 0, "{t}");
            assert_eq!(d["actual"], "n-z", "{t}");
            assert_eq!(d["replayed_ops"], 1, "{t}");
            assert!(
                message.contains(&format!(
                    "; before that, operation 0 [\"route\",\"k-{}\"]: expected ",
                    names[i]
                )) && message.contains(
                    "got \"n-z\" (seen when the operation before it was run again on its own"
                ),
                "{message}"
            );
            assert_eq!(t["explanation"]["kind"], "scores", "{t}");
        } else {
            assert!(d.is_null(), "{t}");
            assert!(!message.contains("before that"), "{message}");
        }
    }
    // The text report explains the three with their wrong answer, then the
    // first without, and folds the others, the same failure, into it.
    for (i, name) in names.iter().enumerate().take(4) {
        let heading = format!("--- edge/{name} (time-limit) ---");
        let section = human
            .split_once(&heading)
            .map(|(_, rest)| rest.split("\n--- ").next().unwrap())
            .unwrap_or_else(|| panic!("no {heading}: {human}"));
        assert_eq!(
            section.contains("first wrong answer at operation 0"),
            i < grading::PREFIX_REPLAYS,
            "{section}"
        );
    }
    assert!(
        human.contains("the same failure in 4 more tests: edge/e, edge/f, edge/g, edge/h"),
        "{human}"
    );
}

/// A submission that answers before its loop as no first run could: in a
/// fresh process (a replay) it raises, or loops, or answers wrong where
/// the session that served an earlier case answered right. The first two
/// add nothing; the third is told as what it is, a wrong answer seen in a
/// replay; the verdict is the limit's each time, never a fault.
#[test]
fn a_replay_that_does_otherwise_adds_nothing_or_is_told_as_a_replay() {
    let fresh = |what: &str| {
        format!(
            "_route = Router.route\n_served = []\n\n\
             def _patched(self, key):\n    if key == 'warm':\n        _served.append(key)\n    \
             if key == 'k-1' and not _served:\n        {what}\n    \
             while key == 'slow':\n        pass\n    return _route(self, key)\n\n\
             Router.route = _patched\n"
        )
    };
    // `a` passes and warms the session that then runs `b`.
    let cases = [
        ("a", r#"["route","warm"]"#),
        ("b", r#"["route","k-1"],["route","slow"]"#),
    ];
    for what in [
        "raise RuntimeError('a fresh process')",
        "while True:\n            pass",
    ] {
        let (report, _) = graded(&fresh(what), &cases);
        let s = &report["submissions"][0];
        assert_eq!(s["verdict"], "time-limit", "{what}: {s}");
        let b = &s["tests"][1];
        assert_eq!(b["verdict"], "time-limit", "{what}: {b}");
        assert!(b["divergence"].is_null(), "{what}: {b}");
        assert!(b["error"].is_null(), "{what}: {b}");
    }
    let (report, _) = graded(&fresh("return 'n-z'"), &cases);
    let b = &report["submissions"][0]["tests"][1];
    assert_eq!(b["verdict"], "time-limit", "{b}");
    assert_eq!(b["divergence"]["replayed_ops"], 1, "{b}");
    assert!(
        b["message"]
            .as_str()
            .unwrap()
            .contains("got \"n-z\" (seen when the operation before it was run again on its own"),
        "{b}"
    );
}

/// Grades `program` on a copy of the `hidden-mistake` fixture for
/// `audience`: the JSON report.
fn graded_hidden(dir: &Path, program: &str, audience: &str) -> Value {
    let challenges = dir.join("challenges");
    copy_tree(
        &root().join("tests/fixtures/hidden-mistakes"),
        &challenges,
        |_| true,
    );
    let submission = correct_class_with(dir, &format!("{audience}.py"), program);
    json_ok(&output(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--challenge", "hidden-mistake", "--exit-zero"])
            .args(["--audience", audience, "--format", "json"])
            .arg(&submission),
    ))
}

/// A hidden test that answers wrong, then loops: its instructor sees the
/// wrong answer, replayed; its learner sees exactly what a twin that
/// answers right before the same loop gets, its verdict and no more.
#[test]
fn a_hidden_test_replayed_shows_a_learner_nothing_more() {
    let patch = |first: &str| {
        format!(
            "_route = Router.route\n\n\
             def _patched(self, key):\n    if key == 'CANARY-1':\n        return {first}\n    \
             while key == 'CANARY-2':\n        pass\n    return _route(self, key)\n\n\
             Router.route = _patched\n"
        )
    };
    let wrong = patch("'n-z'");
    let right = patch("_route(self, key)");
    let dir = tempdir();
    let instructor = graded_hidden(dir.path(), &wrong, "instructor");
    let h1 = |r: &Value| {
        r["submissions"][0]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == "h1")
            .unwrap()
            .clone()
    };
    let seen = h1(&instructor);
    assert_eq!(seen["verdict"], "time-limit", "{seen}");
    assert_eq!(seen["divergence"]["op_index"], 0, "{seen}");
    assert_eq!(seen["divergence"]["replayed_ops"], 1, "{seen}");

    let learner = graded_hidden(dir.path(), &wrong, "learner");
    let twin = graded_hidden(dir.path(), &right, "learner");
    let (shown, twin_shown) = (h1(&learner), h1(&twin));
    assert_eq!(shown["verdict"], "time-limit", "{shown}");
    assert!(shown["divergence"].is_null(), "{shown}");
    assert_eq!(shown, twin_shown);
    assert!(!learner.to_string().contains("CANARY"), "{learner}");
}
