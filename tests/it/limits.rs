//! The limits in force: a flag never lowers a group's own larger limit;
//! a flag set below challenge.toml's says so on stderr and in the report;
//! the report lists the limits every submission was graded under.

use crate::support::{correct_class_with, grader, json, output, tempdir, text};
use serde_json::Value;

/// A case of the challenge page, in `dir/group`.
fn suite(dir: &std::path::Path, group: &str) -> std::path::PathBuf {
    let tests = dir.join(group);
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("a.json"),
        r#"[[["n-a","n-b","n-c"]],[["route","k-1"]]]"#,
    )
    .unwrap();
    tests
}

/// `correct_class.py` that spends about 1.5 s of CPU on its first route.
fn slow_but_correct(dir: &std::path::Path) -> std::path::PathBuf {
    let tail = "import time as _t\n_route = Router.route\n\n\
                def _spinning(self, key):\n    end = _t.process_time() + 1.5\n    \
                while _t.process_time() < end:\n        pass\n    \
                return _route(self, key)\n\nRouter.route = _spinning\n";
    correct_class_with(dir, "slow_but_correct.py", tail)
}

/// rendezvous-router's `large` group has its own 13 s: `--time-limit 1000`
/// (its `[limits] time_ms`, meant as a default) leaves it at 13 s, so a
/// correct case that takes 1.5 s passes, and the report says 13000.
#[test]
fn a_time_limit_flag_never_lowers_a_groups_own_larger_limit() {
    let dir = tempdir();
    let tests = suite(dir.path(), "large");
    let submission = slow_but_correct(dir.path());
    let out = output(
        grader()
            .args([
                "grade",
                "--format",
                "json",
                "--time-limit",
                "1000",
                "--tests",
            ])
            .arg(&tests)
            .arg(&submission),
    );
    let stderr = text(&out.stderr);
    let report: Value = json(&out);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{}\n{stderr}", s["tests"]);
    assert_eq!(
        report["limits"]["groups"],
        serde_json::json!([{"group": "large", "time_ms": 13000}])
    );
    assert_eq!(report["limits"]["lowered"], serde_json::json!([]));
    assert!(!stderr.contains("lowered"), "{stderr}");
}

/// A flag below challenge.toml's value is obeyed, and said: on stderr
/// before grading, and in the JSON and the human report, with the value it
/// replaced. A group's own limit larger than the flag is raised to it.
#[test]
fn a_limit_flag_below_the_challenges_is_said_loudly() {
    let dir = tempdir();
    let tests = suite(dir.path(), "edge");
    let submission = slow_but_correct(dir.path());
    let grade = |format: &str| {
        output(
            grader()
                .args(["grade", "--format", format, "--exit-zero"])
                .args(["--time-limit", "500", "--memory-limit", "300"])
                .args(["--extra-run-limit", "100", "--tests"])
                .arg(&tests)
                .arg(&submission),
        )
    };
    let out = grade("json");
    let stderr = text(&out.stderr);
    for said in [
        "--time-limit lowered the CPU time per case of group `edge` from challenge.toml's 1000 ms to 500 ms",
        "--memory-limit lowered the memory per session from challenge.toml's 512 MiB to 300 MiB",
        "--extra-run-limit lowered the least time of an extra run from challenge.toml's 250 ms to 100 ms",
    ] {
        assert!(stderr.contains(&format!("warning: {said}")), "{stderr}");
    }
    assert!(!stderr.contains("output per case"), "{stderr}");
    let report: Value = json(&out);
    // The case ran under the lowered limit, as said.
    assert_eq!(report["submissions"][0]["verdict"], "time-limit");
    let limits = &report["limits"];
    assert_eq!(limits["groups"][0]["time_ms"], 500);
    assert_eq!(
        (limits["memory_mb"].as_u64(), limits["output_mb"].as_u64()),
        (Some(300), Some(8))
    );
    let lowered = limits["lowered"].as_array().unwrap();
    assert_eq!(lowered.len(), 3, "{lowered:?}");
    assert_eq!(
        lowered[0],
        serde_json::json!({"flag": "--time-limit", "what": "the CPU time per case of group `edge`",
            "challenge": 1000, "used": 500, "unit": "ms"})
    );
    let human = text(&grade("human").stdout);
    assert!(
        human.contains("limits: CPU time per case 500 ms, memory 300 MiB, output 8 MiB"),
        "{human}"
    );
    assert!(
        human.contains("limit lowered: --memory-limit lowered the memory per session"),
        "{human}"
    );
}
