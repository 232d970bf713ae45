//! A Router written for another challenge is told which one it looks like
//! (and the `--challenge` to grade it with), superset or not, in every
//! language, before anything else is said of it. When nothing in the
//! catalogue of the challenge it was graded as explains its answers (as
//! for every correct solution of each challenge graded as each other one,
//! on that one's sample tests) the note stands alone: no mistake or hint
//! would coach it towards the wrong challenge. When something does, it is
//! named as ever, and the note, first, is told as a possibility.

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
            // Nothing of the challenge it was graded as explains it on the
            // sample tests, so nothing of it coaches it.
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

/// Grades `paths` as rendezvous-router on its whole suite, for
/// `audience`: the JSON report.
fn graded_for(audience: &str, paths: &[&std::path::Path], dir: &std::path::Path) -> Value {
    let report = dir.join(format!("{audience}.json"));
    let out = output(
        grader()
            .args(["grade", "--challenge", "rendezvous-router"])
            .args(["--audience", audience, "--format", "json", "--output"])
            .arg(&report)
            .args(paths),
    );
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap()
}

/// A wrong router that carries a method of another challenge's (an unused
/// `top`, hrw-top's) keeps its mistake, for every audience and in the
/// class's count of mistakes: the shape is told first, as a possibility.
#[test]
fn a_shape_of_another_challenge_hides_no_mistake() {
    let dir = tempdir();
    let root = crate::support::root();
    let mut paths = Vec::new();
    for (student, example) in [
        ("plain", "submissions/python/lowest_score.py"),
        ("withtop", "submissions/python/lowest_score_with_top.py"),
    ] {
        let folder = dir.path().join(student);
        std::fs::create_dir(&folder).unwrap();
        std::fs::copy(root.join(example), folder.join("router.py")).unwrap();
        paths.push(folder);
    }
    let paths: Vec<&std::path::Path> = paths.iter().map(|p| p.as_path()).collect();
    for audience in ["instructor", "learner"] {
        let report = graded_for(audience, &paths, dir.path());
        let by_name = |name: &str| {
            report["submissions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|s| s["name"] == name)
                .unwrap()
                .clone()
        };
        let (plain, with_top) = (by_name("plain"), by_name("withtop"));
        let what = format!("{audience}: {with_top}");
        assert_eq!(plain["mistake"]["id"], "lowest-score", "{plain}");
        assert_eq!(with_top["mistake"]["id"], "lowest-score", "{what}");
        assert_eq!(with_top["mistake"], plain["mistake"], "{what}");
        assert_eq!(with_top["points"], plain["points"], "{what}");
        assert_ne!(with_top["unexplained"], true, "{what}");
        // Every failing test the audience sees carries it too.
        for t in with_top["tests"].as_array().unwrap() {
            if t["verdict"] == "wrong-answer" && t["visibility"] == "visible" {
                assert_eq!(t["mistake"]["id"], "lowest-score", "{what}");
            }
        }
        assert!(plain["api_hint"].is_null(), "{plain}");
        let hint = &with_top["api_hint"];
        assert_eq!(hint["other_challenge"], "hrw-top", "{what}");
        let message = hint["message"].as_str().unwrap();
        assert!(
            message.starts_with("your Router also has top(key, n), as hrw-top's does: if it is meant for hrw-top, grade it with --challenge hrw-top"),
            "{what}"
        );
        assert!(!message.contains("looks like one for"), "{what}");
    }
    // The human report: the note first, then the failures and the mistake;
    // the class counts both students under the mistake.
    let human = output(
        grader()
            .args(["merge", "--format", "human"])
            .arg(dir.path().join("instructor.json")),
    );
    let human = String::from_utf8_lossy(&human.stdout).into_owned();
    let from = human.find("withtop ·").unwrap();
    let own = &human[from..];
    let note = own.find("note: your Router also has top(key, n)");
    let fail = own.find("FAIL");
    let mistake = own.find("likely mistake: the lowest score wins");
    assert!(note.is_some() && note < fail && fail < mistake, "{human}");
    let class = human
        .lines()
        .find(|l| l.trim_start().starts_with("lowest-score ("))
        .unwrap_or_default();
    let students = class.rsplit(')').next().unwrap().split_whitespace().next();
    assert_eq!(students, Some("2"), "{human}");
}

/// A correct hrw-top router graded as rendezvous-router on its whole suite
/// hashes what that challenge's catalogue calls two mistakes made together
/// (the key first, a `|` between): they are named, and the note that it
/// may be meant for hrw-top comes first.
#[test]
fn a_router_of_another_challenge_that_a_pair_explains_is_told_both() {
    let dir = tempdir();
    let path = crate::support::root().join("submissions/hrw-top/python/correct.py");
    let report = graded_for("instructor", &[path.as_path()], dir.path());
    let s = &report["submissions"][0];
    assert_eq!(s["mistake"]["id"], "key-node-swapped", "{s}");
    assert_eq!(s["mistake"]["with"]["id"], "wrong-separator", "{s}");
    assert_eq!(s["api_hint"]["other_challenge"], "hrw-top", "{s}");
    let human = output(
        grader()
            .args(["merge", "--format", "human"])
            .arg(dir.path().join("instructor.json")),
    );
    let human = String::from_utf8_lossy(&human.stdout).into_owned();
    let note = human.find(
        "note: your Router also has top(key, n), as hrw-top's does: if it is meant for hrw-top, grade it with --challenge hrw-top",
    );
    let fail = human.find("FAIL");
    let mistake = human.find("likely mistakes, two made together");
    assert!(note.is_some() && note < fail && fail < mistake, "{human}");
}
