//! A Router written for another challenge is told which one it looks like
//! (and the `--challenge` to grade it with), superset or not, in every
//! language, before anything else is said of it: no mistake or hint of the
//! challenge it was wrongly graded as. Every correct solution of each
//! challenge is graded as each other one, on that one's sample tests.

use crate::support::{grader, output, tempdir};
use serde_json::Value;

/// The challenges, each with its correct solutions (under `submissions/`).
const CORRECT: [(&str, [&str; 4]); 4] = [
    (
        "rendezvous-router",
        [
            "python/correct_class.py",
            "javascript/correct.cjs",
            "typescript/correct.ts",
            "rust/correct.rs",
        ],
    ),
    (
        "hrw-top",
        [
            "hrw-top/python/correct.py",
            "hrw-top/javascript/correct.js",
            "hrw-top/typescript/correct.ts",
            "hrw-top/rust/correct.rs",
        ],
    ),
    (
        "vnode-ring",
        [
            "vnode-ring/python/correct.py",
            "vnode-ring/javascript/correct.js",
            "vnode-ring/typescript/correct.ts",
            "vnode-ring/rust/correct.rs",
        ],
    ),
    (
        "weighted-hrw",
        [
            "weighted-hrw/python/correct.py",
            "weighted-hrw/javascript/correct.js",
            "weighted-hrw/typescript/correct.ts",
            "weighted-hrw/rust/correct.rs",
        ],
    ),
];

/// Grades `path` as `challenge` on its sample tests: the JSON report's
/// submission, and the human report rendered from it.
fn graded_as(challenge: &str, path: &str) -> (Value, String) {
    let dir = tempdir();
    let report = dir.path().join("report.json");
    let out = output(
        grader()
            .args(["grade", "--challenge", challenge, "--tests"])
            .arg(format!("challenges/{challenge}/tests/sample"))
            .args(["--format", "json", "--output"])
            .arg(&report)
            .arg(path),
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{path} as {challenge}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let human = output(grader().args(["merge", "--format", "human"]).arg(&report));
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (
        json["submissions"][0].clone(),
        String::from_utf8_lossy(&human.stdout).into_owned(),
    )
}

/// Grades the correct solution of each challenge in the language of
/// column `lang` as each other challenge.
fn each_told_which_it_looks_like(lang: usize) {
    for (own, solutions) in CORRECT {
        let path = format!("submissions/{}", solutions[lang]);
        for (other, _) in CORRECT.iter().filter(|(id, _)| *id != own) {
            let (s, human) = graded_as(other, &path);
            let what = format!("{path} as {other}: {s}");
            assert_ne!(s["verdict"], "accepted", "{what}");
            let hint = &s["api_hint"];
            assert_eq!(hint["other_challenge"], own, "{what}");
            let message = hint["message"].as_str().unwrap();
            assert!(message.contains(&format!("--challenge {own}")), "{what}");
            // Nothing of the challenge it was graded as coaches it.
            assert!(s["mistake"].is_null(), "{what}");
            assert_ne!(s["unexplained"], true, "{what}");
            for hint in ["hash_hint", "property"] {
                assert!(s[hint].is_null(), "{what}");
            }
            // The note comes first, before any failure (a compile error's
            // rustc output included).
            let note = human.find("note: your Router looks like one for");
            let fail = human.find("FAIL");
            assert!(note.is_some() && note < fail, "{what}\n{human}");
        }
    }
}

#[test]
fn a_python_router_of_another_challenge_is_told_which() {
    each_told_which_it_looks_like(0);
}

#[test]
fn a_javascript_router_of_another_challenge_is_told_which() {
    each_told_which_it_looks_like(1);
}

#[test]
fn a_typescript_router_of_another_challenge_is_told_which() {
    each_told_which_it_looks_like(2);
}

#[test]
fn a_rust_router_of_another_challenge_is_told_which() {
    each_told_which_it_looks_like(3);
}

/// Mixed evidence never costs a right submission its verdict: a correct
/// rendezvous router with a `top` of its own (hrw-top's shape) passes, with
/// no note.
#[test]
fn a_router_with_more_than_its_challenge_asks_is_graded_as_it_is() {
    let dir = tempdir();
    let right = dir.path().join("router.py");
    let source =
        std::fs::read_to_string(crate::support::root().join("submissions/python/correct_class.py"))
            .unwrap();
    let extra = "\n    def top(self, key, n):\n        return [self.route(key)][:n]\n";
    let with_top = source.replacen("class Router:", &format!("class Router:{extra}"), 1);
    assert_ne!(with_top, source);
    std::fs::write(&right, &with_top).unwrap();
    let path = right.to_str().unwrap();
    let (s, human) = graded_as("rendezvous-router", path);
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s["api_hint"].is_null(), "{s}");
    assert!(!human.contains("note:"), "{human}");
}
