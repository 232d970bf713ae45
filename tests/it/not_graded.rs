//! A `grader-fault` was never judged: it has no score in any format (not
//! a 0 an LMS would record), and no class total or merge counts it.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;

/// A class where the grader cannot start Python: `a-python` is its
/// grader-fault, `b-node` is judged (accepted, 30 of 30 on `edge`).
fn class(dir: &std::path::Path) -> std::path::PathBuf {
    let class = dir.join("class");
    for (student, file, example) in [
        (
            "a-python",
            "router.py",
            "submissions/python/correct_class.py",
        ),
        ("b-node", "router.cjs", "submissions/javascript/correct.cjs"),
    ] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(root().join(example), class.join(student).join(file)).unwrap();
    }
    class
}

const EDGE: &str = "challenges/rendezvous-router/tests/edge";

#[test]
fn a_grader_fault_has_no_score_in_any_format() {
    let dir = tempdir();
    let class = class(dir.path());
    let grade = |format: &str, gradebook: Option<&std::path::Path>| {
        let mut command = grader();
        command
            .env("GRADER_PYTHON", dir.path().join("no-python"))
            .args(["grade", "--format", format, "--tests", EDGE]);
        if let Some(gradebook) = gradebook {
            command.arg("--gradebook").arg(gradebook);
        }
        let out = output(command.arg(&class));
        assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
        out
    };
    let csv = dir.path().join("gradebook.csv");
    let out = grade("json", Some(&csv));
    let report: Value = json(&out);
    let (python, node) = (&report["submissions"][0], &report["submissions"][1]);
    assert_eq!(python["verdict"], "grader-fault");
    assert_eq!(python["score"], Value::Null, "{python}");
    assert_eq!(python["points"]["earned"], Value::Null);
    assert_eq!(python["max_score"], 30.0);
    for part in python["groups"]
        .as_array()
        .unwrap()
        .iter()
        .chain(python["tests"].as_array().unwrap())
    {
        assert_eq!(part["score"], Value::Null, "{part}");
    }
    assert_eq!(node["score"], 30.0);

    // The gradebook: an empty cell, never 0; `null` in JSON.
    let rows = std::fs::read_to_string(&csv).unwrap();
    let row = rows.lines().find(|l| l.starts_with("a-python,")).unwrap();
    let cells: Vec<&str> = row.split(',').collect();
    assert_eq!(
        (cells[2], cells[3], cells[4], cells[7]),
        ("", "30", "grader-fault", ""),
        "{rows}"
    );
    let report_file = dir.path().join("report.json");
    std::fs::write(&report_file, &out.stdout).unwrap();
    let gradebook_json = dir.path().join("gradebook.json");
    let merged = output(
        grader()
            .args(["merge", "--format", "human", "--gradebook"])
            .arg(&gradebook_json)
            .arg(&report_file),
    );
    let rows: Value = serde_json::from_slice(&std::fs::read(&gradebook_json).unwrap()).unwrap();
    assert_eq!(rows[0]["score"], Value::Null, "{rows}");
    assert_eq!(rows[1]["score"], 30.0, "{rows}");
    // Merged, the class table says it was not graded, not 0.
    let merged = text(&merged.stdout);
    let line = merged
        .lines()
        .find(|l| l.contains("a-python") && l.contains("grader-fault"))
        .unwrap();
    assert!(
        line.contains("not graded") && !line.contains("0 / 30"),
        "{merged}"
    );
    assert!(
        merged.contains("grader-fault: 0 of 9 tests passed, not graded (30 possible)"),
        "{merged}"
    );

    // HTML: the class mean is the judged student's alone.
    let html = text(&grade("html", None).stdout);
    assert!(
        html.contains(r#"data-mean="30" data-max="30" data-scored="1""#),
        "{}",
        &html[..html.len().min(4000)]
    );

    // JUnit: empty score properties.
    let junit = text(&grade("junit", None).stdout);
    assert!(
        junit.contains(r#"<property name="score" value=""/>"#),
        "{junit}"
    );
    assert!(
        junit.contains(r#"<property name="points_earned" value=""/>"#),
        "{junit}"
    );

    // CTRF: null scores, and the grader's faults counted as `other`, not
    // failed.
    let ctrf: Value = json(&grade("ctrf", None));
    let summary = &ctrf["results"]["summary"];
    assert_eq!(
        (summary["failed"].as_u64(), summary["other"].as_u64()),
        (Some(0), Some(9)),
        "{summary}"
    );
    assert_eq!(
        ctrf["results"]["extra"]["submissions"][0]["score"],
        Value::Null
    );
}

/// Gradescope's results.json for a grader-fault: no score at all (neither
/// top level nor per test), and an output that says it was not graded.
#[test]
fn gradescope_gets_no_score_for_a_grader_fault() {
    let dir = tempdir();
    let class = class(dir.path());
    let out = output(
        grader()
            .env("GRADER_PYTHON", dir.path().join("no-python"))
            .args(["grade", "--format", "gradescope", "--tests", EDGE])
            .arg(class.join("a-python")),
    );
    let results: Value = json(&out);
    assert!(results.get("score").is_none(), "{results}");
    assert_eq!(results["max_score"], 30.0);
    assert_eq!(results["extra_data"]["graded"], false);
    let said = results["output"].as_str().unwrap();
    assert!(said.starts_with("not graded (the grader failed"), "{said}");
    for t in results["tests"].as_array().unwrap() {
        assert!(t.get("score").is_none(), "{t}");
    }
}
