//! Shrunk reproducers: a handful of operations, and their snippets, run in
//! their language, fail against the wrong example and pass against a
//! correct one.

use crate::support::{copy_tree, grader, json, output, root, tempdir};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// A challenge's suite without its large group: shrinking starts from the
/// smallest failing case anyway, and this keeps the test quick.
fn tests_dir(challenge: &str) -> tempfile::TempDir {
    let dir = tempdir();
    copy_tree(
        &root().join("challenges").join(challenge).join("tests"),
        dir.path(),
        |rel| !rel.starts_with("large"),
    );
    dir
}

fn reproducer(challenge: &str, submission: &str) -> Value {
    let tests = tests_dir(challenge);
    let out = output(
        grader()
            .args([
                "grade",
                "--challenge",
                challenge,
                "--format",
                "json",
                "--tests",
            ])
            .arg(tests.path())
            .arg(submission),
    );
    let report: Value = json(&out);
    report["submissions"][0]["reproducer"].clone()
}

/// Runs `snippet` saved as `check` beside a copy of `module` named like the
/// wrong example; returns whether it passed.
fn passes(program: &str, check: &str, snippet: &str, module: &str, as_name: &str) -> bool {
    let dir = tempdir();
    // The module's siblings come along: some examples import one.
    let folder = root().join(module).parent().unwrap().to_owned();
    for f in std::fs::read_dir(folder).unwrap().flatten() {
        if f.file_type().unwrap().is_file() {
            std::fs::copy(f.path(), dir.path().join(f.file_name())).unwrap();
        }
    }
    std::fs::copy(root().join(module), dir.path().join(as_name)).unwrap();
    std::fs::write(dir.path().join(check), snippet).unwrap();
    Command::new(program)
        .arg(check)
        .current_dir(dir.path())
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn reproducers_are_small_and_their_snippets_fail_the_bug_and_pass_the_fix() {
    const RR: &str = "rendezvous-router";
    let cases = [
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/lowest_score.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/first_maximum.py",
            "submissions/python/correct_solve.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/duplicate_membership.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/code_points.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/key_node_swapped.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/no_separator.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/wrong_separator.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "python3",
            "check.py",
            "submissions/python/modulo_hashing.py",
            "submissions/python/correct_class.py",
        ),
        (
            RR,
            "node",
            "check.mjs",
            "submissions/javascript/byte_sum.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            RR,
            "node",
            "check.mjs",
            "submissions/javascript/float_multiply.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            RR,
            "node",
            "check.mjs",
            "submissions/javascript/utf16_units.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            RR,
            "node",
            "check.mjs",
            "submissions/javascript/signed_compare.js",
            "submissions/javascript/correct.cjs",
        ),
        // The other challenges: a ring's k and weighted pairs survive the
        // shrinking, and the snippets build those routers.
        (
            "hrw-top",
            "python3",
            "check.py",
            "submissions/hrw-top/python/ascending.py",
            "submissions/hrw-top/python/correct.py",
        ),
        (
            "hrw-top",
            "node",
            "check.mjs",
            "submissions/hrw-top/javascript/ties_reversed.js",
            "submissions/hrw-top/javascript/correct.js",
        ),
        (
            "vnode-ring",
            "python3",
            "check.py",
            "submissions/vnode-ring/python/bisect_right.py",
            "submissions/vnode-ring/python/correct.py",
        ),
        (
            "vnode-ring",
            "node",
            "check.mjs",
            "submissions/vnode-ring/javascript/map_by_position.js",
            "submissions/vnode-ring/javascript/correct.js",
        ),
        (
            "weighted-hrw",
            "python3",
            "check.py",
            "submissions/weighted-hrw/python/add_keeps_weight.py",
            "submissions/weighted-hrw/python/correct.py",
        ),
        (
            "weighted-hrw",
            "node",
            "check.mjs",
            "submissions/weighted-hrw/javascript/over_weight.js",
            "submissions/weighted-hrw/javascript/correct.js",
        ),
    ];
    let failures = std::sync::Mutex::new(Vec::new());
    let queue = std::sync::Mutex::new(cases.to_vec());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(case) = { queue.lock().unwrap().pop() } {
                    if let Err(why) = std::panic::catch_unwind(|| check_case(case)) {
                        let why = why.downcast_ref::<String>().cloned().unwrap_or_default();
                        failures.lock().unwrap().push(why);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_case((challenge, program, check, wrong, right): (&str, &str, &str, &str, &str)) {
    {
        let r = reproducer(challenge, wrong);
        let ops = r["case"][1]
            .as_array()
            .unwrap_or_else(|| panic!("{wrong}: no reproducer: {r}"));
        assert!(
            ops.len() <= 5,
            "{wrong}: {} operations is not a handful: {}",
            ops.len(),
            r["case"]
        );
        let snippet = r["snippet"].as_str().unwrap();
        let name = Path::new(wrong).file_name().unwrap().to_str().unwrap();
        // The solve API needs a Router: the correct solve module is not a
        // drop-in, so the fix is a class.
        let right = if right.ends_with("correct_solve.py") {
            "submissions/python/correct_class.py"
        } else {
            right
        };
        assert!(
            !passes(program, check, snippet, wrong, name),
            "{wrong}: the snippet passes against the bug:\n{snippet}"
        );
        assert!(
            passes(program, check, snippet, right, name),
            "{wrong}: the snippet fails against a fix:\n{snippet}"
        );
    }
}

/// Appends `snippet` to a copy of `module` and runs it as a Rust test;
/// returns whether it passed. A snippet that does not compile fails the
/// test outright.
fn passes_rust(snippet: &str, module: &str) -> bool {
    let dir = tempdir();
    let source = dir.path().join("router.rs");
    let mut text = std::fs::read_to_string(root().join(module)).unwrap();
    text.push_str(snippet);
    std::fs::write(&source, text).unwrap();
    let binary = dir.path().join("check");
    let built = Command::new("rustc")
        .args(["--edition", "2021", "--test", "-o"])
        .arg(&binary)
        .arg(&source)
        .output()
        .unwrap();
    assert!(
        built.status.success(),
        "the snippet does not compile with {module}:\n{snippet}\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    assert!(
        built.stderr.is_empty(),
        "the snippet compiles with warnings:\n{}",
        String::from_utf8_lossy(&built.stderr)
    );
    Command::new(&binary).output().unwrap().status.success()
}

#[test]
fn a_rust_snippet_compiles_and_fails_the_bug_and_passes_the_fix() {
    let wrong = "submissions/vnode-ring/rust/strictly_after.rs";
    let r = reproducer("vnode-ring", wrong);
    // The ring's k survived the shrinking.
    assert_eq!(r["case"][0][1], 4, "{r}");
    let snippet = r["snippet"].as_str().unwrap();
    assert!(
        !passes_rust(snippet, wrong),
        "passes against the bug:\n{snippet}"
    );
    assert!(
        passes_rust(snippet, "submissions/vnode-ring/rust/correct.rs"),
        "fails against the fix:\n{snippet}"
    );
}

#[test]
fn shrinking_shortens_keys_where_the_failure_survives() {
    // Any key shows the lowest score winning: it shrinks to one letter.
    let r = reproducer("rendezvous-router", "submissions/python/lowest_score.py");
    let ops = r["case"][1].as_array().unwrap();
    let key = ops.last().unwrap()[1].as_str().unwrap();
    assert!(key.len() <= 2, "{}", r["case"]);
    // Code points fail on non-ASCII text only: no short ASCII key will do,
    // and the key stays non-ASCII.
    let r = reproducer("rendezvous-router", "submissions/python/code_points.py");
    let case = r["case"].to_string();
    assert!(!case.is_ascii(), "{case}");
}

/// A router that answers every route wrong (the lowest score wins) and
/// takes a second over the first route of every case it is given.
const SLOW_WRONG: &str = r#"import time


def h32(text):
    h = 2166136261
    for b in text.encode("utf-8"):
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    return h ^ (h >> 16)


class Router:
    def __init__(self, nodes):
        self.nodes = list(nodes)
        self.slow = True

    def add(self, node):
        self.nodes.append(node)

    def remove(self, node):
        self.nodes.remove(node)

    def route(self, key):
        if self.slow:
            self.slow = False
            time.sleep(1.0)
        return min(self.nodes, key=lambda n: (h32(n + ":" + key), n), default=None)
"#;

#[test]
fn shrinking_a_slow_failure_stops_at_its_budget_and_says_so() {
    let dir = tempdir();
    let tests = dir.path().join("edge");
    std::fs::create_dir_all(&tests).unwrap();
    // Sixty nodes: dropping them one at a time alone would take a minute
    // of slow failing attempts.
    let nodes: Vec<String> = (0..60).map(|i| format!("n{i}")).collect();
    let ops: Vec<Value> = (0..40)
        .map(|i| serde_json::json!(["route", format!("key-{i}")]))
        .collect();
    std::fs::write(
        tests.join("slow.json"),
        serde_json::json!([[nodes], ops]).to_string(),
    )
    .unwrap();
    let submission = dir.path().join("router.py");
    std::fs::write(&submission, SLOW_WRONG).unwrap();
    let started = std::time::Instant::now();
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--time-limit", "5000"])
            .args(["--extras-budget", "4000", "--tests"])
            .arg(&tests)
            .arg(&submission),
    );
    let elapsed = started.elapsed();
    let report: Value = json(&out);
    let submission = &report["submissions"][0];
    // Extras never change the verdict.
    assert_eq!(submission["verdict"], "wrong-answer", "{submission}");
    // The case itself (a second), the 4 s budget, and generous room for
    // starting the grader and the interpreter on a busy machine; without
    // the budget, shrinking alone takes more than a minute.
    assert!(
        elapsed < std::time::Duration::from_secs(30),
        "grading took {elapsed:?}"
    );
    let reproducer = &submission["reproducer"];
    let cut_short = reproducer["cut_short"].as_str().unwrap_or_default();
    assert!(
        cut_short.contains("stopped after its 4.0 s budget"),
        "{reproducer}"
    );
    // The smallest found so far is still a failing case of the submission,
    // no larger than the one it started from.
    let shrunk_ops = reproducer["case"][1].as_array().unwrap().len();
    assert!((1..=40).contains(&shrunk_ops), "{reproducer}");
}
