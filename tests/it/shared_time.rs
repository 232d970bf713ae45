//! Once a case runs past its group's limit, the cases after it in that
//! group share one more limit (each at least a tenth of it): code that
//! never ends gets its verdict in about two limits a group, not one a case;
//! the cases a submission answers quickly still pass; and the report says
//! which tests did not get the full limit.

use crate::support::{correct_class_with, grader, json_ok, output, tempdir};
use serde_json::Value;

/// The limit of the test's group.
const LIMIT_MS: u64 = 1000;

/// Grades `correct_class.py` whose route never returns for keys that
/// start with `slow`, on one case per key of `keys`, named a, b, c...
fn graded(keys: &[&str]) -> Value {
    let dir = tempdir();
    let tail = "_route = Router.route\n\n\
                def _looping(self, key):\n    while key.startswith('slow'):\n        pass\n    \
                return _route(self, key)\n\nRouter.route = _looping\n";
    let submission = correct_class_with(dir.path(), "loops_on_slow.py", tail);
    let tests = dir.path().join("edge");
    std::fs::create_dir(&tests).unwrap();
    for (key, name) in keys.iter().zip('a'..) {
        std::fs::write(
            tests.join(format!("{name}.json")),
            format!(r#"[[["n-a","n-b","n-c"]],[["route","{key}"]]]"#),
        )
        .unwrap();
    }
    json_ok(&output(
        grader()
            .args(["grade", "--format", "json", "--exit-zero", "--time-limit"])
            .arg(LIMIT_MS.to_string())
            .arg("--tests")
            .arg(&tests)
            .arg(&submission),
    ))
}

#[test]
fn after_a_time_limit_the_rest_of_the_group_shares_one_more_limit() {
    let report = graded(&["slow-1", "k-1", "slow-2", "k-2", "slow-3", "k-3"]);
    let tests = report["submissions"][0]["tests"].as_array().unwrap();
    let shared = |i: usize| tests[i]["shared_limit_ms"].as_u64();
    // The first loop gets the full limit, and says nothing of sharing.
    assert_eq!(tests[0]["verdict"], "time-limit", "{}", tests[0]);
    assert_eq!(shared(0), None, "{}", tests[0]);
    // A quick case after it runs under what is left, and passes.
    assert_eq!(tests[1]["verdict"], "accepted", "{}", tests[1]);
    let left = shared(1).unwrap();
    assert!(left > LIMIT_MS / 10 && left <= LIMIT_MS, "{}", tests[1]);
    // The second loop spends the rest, and its message says whose time it
    // ran out of.
    assert_eq!(tests[2]["verdict"], "time-limit", "{}", tests[2]);
    assert!(shared(2).unwrap() <= left, "{}", tests[2]);
    let message = tests[2]["message"].as_str().unwrap();
    assert!(message.contains("this group shares"), "{message}");
    // Past that, every case gets a tenth of the limit: a quick one still
    // passes, a loop costs that tenth.
    for t in &tests[3..6] {
        assert_eq!(t["shared_limit_ms"], LIMIT_MS / 10, "{t}");
    }
    assert_eq!(tests[3]["verdict"], "accepted", "{}", tests[3]);
    assert_eq!(tests[4]["verdict"], "time-limit", "{}", tests[4]);
    assert_eq!(tests[5]["verdict"], "accepted", "{}", tests[5]);
}

#[test]
fn a_submission_that_never_hits_the_limit_gets_every_case_in_full() {
    let report = graded(&["k-1", "k-2", "k-3"]);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    for t in s["tests"].as_array().unwrap() {
        assert!(t.get("shared_limit_ms").is_none(), "{t}");
    }
}
