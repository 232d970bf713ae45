//! Answers that change between runs: found every time, the same way, and
//! never made up by a run that only hit a limit.

use crate::support::{correct_class_with, grader, json, output, root, tempdir};
use serde_json::Value;

/// Grades `submission` on the cases in `tests` as JSON.
fn grade(submission: &std::path::Path, tests: &std::path::Path) -> Value {
    let cache = tempdir();
    let out = output(grader().args([
        "grade".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--tests".as_ref(),
        tests.as_os_str(),
        "--cache-dir".as_ref(),
        cache.path().as_os_str(),
        submission.as_os_str(),
    ]));
    json(&out)
}

#[test]
fn ties_broken_by_pythons_salted_hash_fail_the_same_way_in_twenty_runs_of_twenty() {
    let ties = root().join("challenges/rendezvous-router/tests/ties");
    let submission = root().join("submissions/python/salted_ties.py");
    let mut seen: Option<Value> = None;
    for run in 0..20 {
        let report = grade(&submission, &ties);
        let s = &report["submissions"][0];
        assert_eq!(s["verdict"], "wrong-answer", "run {run}: {s}");
        let finding = &s["nondeterministic"];
        assert!(
            finding["explanation"]
                .as_str()
                .is_some_and(|e| e.contains("hash() of a str is salted")),
            "run {run}: {finding}"
        );
        assert!(s["mistake"].is_null(), "run {run}: {}", s["mistake"]);
        let verdicts: Vec<Value> = s["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| serde_json::json!([t["name"], t["verdict"], t["message"]]))
            .collect();
        let this = serde_json::json!({ "finding": finding, "tests": verdicts });
        match &seen {
            None => seen = Some(this),
            Some(first) => assert_eq!(first, &this, "run {run} differs from the first"),
        }
    }
}

/// Grades `correct_class.py` with `tail` appended, which misbehaves in every
/// process but the first run's (whose hash seed is 0), on one tie case,
/// and checks that the misbehaviour, which is no answer, made no finding.
fn only_other_runs_fail(name: &str, tail: &str) {
    let dir = tempdir();
    let submission = correct_class_with(dir.path(), name, &format!("import os as _os\n{tail}"));
    let tests = dir.path().join("edge");
    std::fs::create_dir(&tests).unwrap();
    for case in ["tied-pair-alone.json", "tied-pair-alone.expected.json"] {
        std::fs::copy(
            root()
                .join("challenges/rendezvous-router/tests/ties")
                .join(case),
            tests.join(case),
        )
        .unwrap();
    }
    let report = grade(&submission, &tests);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s.get("nondeterministic").is_none(), "{s}");
}

#[test]
fn a_run_that_only_hits_a_limit_makes_no_finding() {
    // It spins as it loads: the other runs never answer.
    only_other_runs_fail(
        "slow_elsewhere.py",
        "if _os.environ.get('PYTHONHASHSEED') != '0':\n    while True:\n        pass\n",
    );
}

#[test]
fn a_run_that_only_runs_out_of_memory_makes_no_finding() {
    // A route that allocates more than any limit: Python raises
    // MemoryError, which is a memory limit, not an answer.
    only_other_runs_fail(
        "greedy_elsewhere.py",
        "_route = Router.route\n\ndef _greedy(self, key):\n    if _os.environ.get('PYTHONHASHSEED') != '0':\n        bytearray(1 << 44)\n    return _route(self, key)\n\nRouter.route = _greedy\n",
    );
}

/// Grades `correct_class.py` with `tail` appended on the one case `case`
/// (its expected answers the reference's).
fn graded_with(name: &str, tail: &str, case: &str) -> Value {
    let dir = tempdir();
    let submission = correct_class_with(dir.path(), name, &format!("import os as _os\n{tail}"));
    let tests = dir.path().join("edge");
    std::fs::create_dir(&tests).unwrap();
    std::fs::write(tests.join("case.json"), case).unwrap();
    grade(&submission, &tests)
}

/// node-522789 and node-739192 hash alike after their names: they tie on
/// every key. n-c beats them on user:1, and they beat n-c on listen-1.
const TIED_THEN_NOT: &str =
    r#"[[["node-522789","node-739192","n-c"]],[["route","user:1"],["route","listen-1"]]]"#;

/// The second opinion replays a passed case's tied queries alone; a
/// submission whose queries change its own state answers otherwise there
/// (here it gets a tie wrong until it has routed once). Only a full replay
/// decides, and in full it answers as it did: no finding, still accepted.
#[test]
fn a_cut_replay_that_differs_is_no_finding_until_a_full_replay_agrees() {
    let tail = "_route = Router.route\n_warm = [False]\n\n\
        def _warming(self, key):\n    answer = _route(self, key)\n    if not _warm[0]:\n        \
        _warm[0] = True\n        swap = {'node-522789': 'node-739192', 'node-739192': 'node-522789'}\n        \
        return swap.get(answer, answer)\n    return answer\n\nRouter.route = _warming\n";
    // Cold, it gets a tie wrong: the case as written warms it up first.
    let cold = graded_with(
        "cold_tie.py",
        tail,
        r#"[[["node-522789","node-739192"]],[["route","listen-1"]]]"#,
    );
    assert_eq!(cold["submissions"][0]["verdict"], "wrong-answer", "{cold}");
    let report = graded_with("warms_up.py", tail, TIED_THEN_NOT);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s.get("nondeterministic").is_none(), "{s}");
}

/// The same misbehaviour under other seeds on a query a tie decides is
/// found; on one no tie decides, which another seed cannot change for a
/// submission whose orders follow the seed, the case is not replayed.
#[test]
fn only_what_a_tie_decides_is_replayed_of_a_passed_case() {
    let tail = |key: &str| {
        format!(
            "_route = Router.route\n\n\
             def _elsewhere(self, key):\n    \
             if key == '{key}' and _os.environ.get('PYTHONHASHSEED') != '0':\n        \
             return 'n-c'\n    return _route(self, key)\n\nRouter.route = _elsewhere\n"
        )
    };
    let tied = graded_with("tied_elsewhere.py", &tail("listen-1"), TIED_THEN_NOT);
    let s = &tied["submissions"][0];
    assert_eq!(s["verdict"], "wrong-answer", "{s}");
    assert_eq!(s["nondeterministic"]["tests"][0], "edge/case", "{s}");
    let untied = graded_with("untied_elsewhere.py", &tail("user:1"), TIED_THEN_NOT);
    let s = &untied["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s.get("nondeterministic").is_none(), "{s}");
}
