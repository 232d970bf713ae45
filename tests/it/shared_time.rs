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
    let tail = "_route = Router.route\n\n\
                def _looping(self, key):\n    while key.startswith('slow'):\n        pass\n    \
                return _route(self, key)\n\nRouter.route = _looping\n";
    graded_with(tail, keys)
}

/// Grades `correct_class.py` with `tail` on one case per key of `keys`.
fn graded_with(tail: &str, keys: &[&str]) -> Value {
    let dir = tempdir();
    let submission = correct_class_with(dir.path(), "patched.py", tail);
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
    assert!(
        message.contains("ran past its share of the time left to group `edge`")
            && message.contains("ms of CPU time, while running operation 0")
            && message.contains(
                "an earlier test of this group ran past the group's 1000 ms time limit, so the tests after it share one more 1000 ms of CPU time and 6000 ms of wall-clock time between them"
            ),
        "{message}"
    );
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

/// A submission that sleeps in its constructor (so in every case) uses no
/// CPU time: the group's shared time covers the wall clock too, so its
/// verdict comes in about two backstops, not one per case; each test
/// after the first says which clock stopped it, after how long, and why it
/// had less than the full limit.
#[test]
fn a_submission_that_sleeps_in_every_case_costs_about_two_backstops() {
    let tail = "import time as _time\n_init = Router.__init__\n\n\
                def _sleepy(self, *args):\n    _time.sleep(3600)\n    _init(self, *args)\n\n\
                Router.__init__ = _sleepy\n";
    let keys = ["k-1", "k-2", "k-3", "k-4", "k-5", "k-6", "k-7", "k-8"];
    let started = std::time::Instant::now();
    let report = graded_with(tail, &keys);
    let took = started.elapsed();
    let tests = report["submissions"][0]["tests"].as_array().unwrap();
    assert!(
        tests.iter().all(|t| t["verdict"] == "time-limit"),
        "{tests:?}"
    );
    // One backstop is 6 s (3 x 1000 ms, at least 1000 ms + 5 s): the first
    // test and the group's shared time take about one each, and the six
    // after them 200 ms each; with one backstop per case it took 48 s.
    assert!(took < std::time::Duration::from_secs(25), "took {took:?}");
    let first = tests[0]["message"].as_str().unwrap();
    assert!(first.contains("waited past the 6000 ms wall-clock backstop of the 1000 ms time limit while running the constructor"), "{first}");
    for t in &tests[2..] {
        assert_eq!(
            (t["shared_limit_ms"].as_u64(), t["shared_wall_ms"].as_u64()),
            (Some(100), Some(200)),
            "{t}"
        );
        let message = t["message"].as_str().unwrap();
        assert!(
            message.starts_with("waited past its share of the time left to group `edge`, 200 ms of wall-clock time, while running the constructor")
                && message.contains("an earlier test of this group ran past the group's 1000 ms time limit"),
            "{message}"
        );
    }
}
