//! A report says only what is there: the starter as shipped is told so,
//! "the diffs below" stands only above diffs, and a score table shows a
//! case's weight as the case gave it.

use crate::support::{grader, json, output, root, tempdir, text, trimmed_challenges};
use serde_json::Value;
use std::path::Path;

/// `grader grade` of `path` on `challenge` in `format` (its own cases, or
/// those of `tests`), with a cache of its own: stdout and the exit code.
/// The large cases are [`trimmed_challenges`]': these reports' words do
/// not depend on a case's size.
fn grade(challenge: &str, path: &Path, format: &str, tests: Option<&Path>) -> (String, Value) {
    let cache = tempdir();
    let mut command = grader();
    command
        .args(["grade", "--challenge", challenge, "--format", format])
        .arg("--challenges")
        .arg(trimmed_challenges())
        .args(["--time-limit", "120000", "--cache-dir"])
        .arg(cache.path());
    if let Some(tests) = tests {
        command.arg("--tests").arg(tests);
    }
    let out = output(command.arg(path));
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    match format {
        "json" => (String::new(), json(&out)),
        _ => (text(&out.stdout), Value::Null),
    }
}

#[test]
fn an_untouched_starter_is_told_so_not_that_no_mistake_explains_it() {
    let dir = tempdir();
    let starters = root().join("challenges/rendezvous-router/starters");
    for file in ["router.py", "router.js", "router.ts", "router.rs"] {
        let student = dir.path().join(file.replace('.', "-"));
        std::fs::create_dir_all(&student).unwrap();
        let path = student.join(file);
        // As `grader init` writes it, but for the line ends a checkout on
        // another system gives it.
        let shipped = std::fs::read_to_string(starters.join(file)).unwrap();
        std::fs::write(&path, shipped.replace('\n', "\r\n")).unwrap();
        let (_, report) = grade("rendezvous-router", &path, "json", None);
        let s = &report["submissions"][0];
        assert_eq!(s["untouched_starter"], true, "{file}: {s}");
        assert!(s.get("unexplained").is_none(), "{file}");
        let (human, _) = grade("rendezvous-router", &path, "human", None);
        assert!(human.contains("starter as shipped"), "{file}: {human}");
        assert!(!human.contains("none of the known mistakes"), "{file}");
    }
    // One line of the learner's own, and it is theirs: no longer the
    // starter.
    let path = dir.path().join("router-py/router.py");
    let mut code = std::fs::read_to_string(&path).unwrap();
    code.push_str("\nSEEN = set()\n");
    std::fs::write(&path, code).unwrap();
    let (_, report) = grade("rendezvous-router", &path, "json", None);
    assert!(report["submissions"][0].get("untouched_starter").is_none());
}

#[test]
fn failures_without_a_diff_are_not_said_to_be_diffs() {
    let dir = tempdir();
    let path = dir.path().join("router.py");
    std::fs::write(
        &path,
        "class Router:\n    def __init__(self, nodes):\n        self.nodes = set(nodes)\n\n    \
         def add(self, node):\n        self.nodes.add(node)\n\n    \
         def remove(self, node):\n        self.nodes.discard(node)\n\n    \
         def route(self, key):\n        raise LookupError(key)\n",
    )
    .unwrap();
    let (_, report) = grade("rendezvous-router", &path, "json", None);
    let s = &report["submissions"][0];
    assert_eq!(s["unexplained"], true, "{s}");
    let windows = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| !t["window"].is_null())
        .count();
    assert_eq!(windows, 0, "no test answered wrong: no diff");
    for format in ["human", "html"] {
        let (said, _) = grade("rendezvous-router", &path, format, None);
        if format == "human" {
            // The sample group is worth no points: said so, with its
            // tests, never as "0/0".
            assert!(
                said.contains("by group: sample no points (0 of 3 passed) · edge 0/30"),
                "{said}"
            );
        }
        assert!(!said.contains("the diffs below"), "{format}: {said}");
        assert!(
            said.contains(
                "none of the known mistakes explains these failures: each is shown below"
            ),
            "{format}: {said}"
        );
    }
    // Where there are diffs, they are named.
    let (human, _) = grade(
        "rendezvous-router",
        &root().join("submissions/python/modulo_hashing.py"),
        "human",
        None,
    );
    assert!(
        human.contains("the diffs below are the evidence"),
        "{human}"
    );
}

#[test]
fn a_score_table_shows_a_tiny_weight_as_the_case_gives_it() {
    let dir = tempdir();
    let group = dir.path().join("weights");
    std::fs::create_dir_all(&group).unwrap();
    let routes: Vec<Value> = (1..=200)
        .map(|i| serde_json::json!(["route", format!("user:{i}")]))
        .collect();
    let case = serde_json::json!([[[["a", 0.001], ["b", 3], ["c", 1]]], routes]);
    std::fs::write(group.join("tiny-weight.json"), case.to_string()).unwrap();
    let (human, _) = grade(
        "weighted-hrw",
        &root().join("submissions/weighted-hrw/python/times_weight.py"),
        "human",
        Some(dir.path()),
    );
    let row = human
        .lines()
        .find(|l| l.contains("\"a:user:"))
        .unwrap_or_else(|| panic!("no row of a: {human}"));
    assert!(row.contains(" 0.001 "), "{row}");
    // Two scores that differ never look alike: each row's score is
    // written apart from every other's.
    let scores: Vec<&str> = human
        .lines()
        .filter(|l| l.contains(":user:") && l.contains('"'))
        .filter_map(|l| l.split_whitespace().nth(6))
        .collect();
    assert!(scores.len() >= 3, "{human}");
    assert!(
        scores
            .iter()
            .all(|s| s.parse::<f64>().is_ok_and(|x| x > 0.0)),
        "{scores:?}"
    );
}

#[test]
fn a_typescript_syntax_error_shows_its_line_and_a_caret() {
    let dir = tempdir();
    let path = dir.path().join("router.ts");
    std::fs::write(
        &path,
        "export class Router {\n  constructor(nodes: string[]) {\n    const x: number = ;\n  }\n}\n",
    )
    .unwrap();
    let (_, report) = grade("rendezvous-router", &path, "json", None);
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "compile-error", "{test}");
    let traceback = test["error"]["traceback"].as_str().unwrap();
    let lines: Vec<&str> = traceback.lines().collect();
    assert!(lines[0].starts_with("router.ts:3:23: "), "{traceback}");
    assert_eq!(lines[2], "3 |     const x: number = ;", "{traceback}");
    assert_eq!(lines[3], "  |                       ^", "{traceback}");
    let (human, _) = grade("rendezvous-router", &path, "human", None);
    assert!(human.contains("  3 |     const x: number = ;\n"), "{human}");
}
