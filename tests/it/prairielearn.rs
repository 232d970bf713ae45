//! `grader prairielearn` run the way PrairieLearn runs an external
//! grader: a job folder laid out as PrairieLearn mounts `/grade` (in a
//! temporary folder, given as `--root`), the entrypoint run, and
//! `results/results.json` checked field by field against PrairieLearn's
//! documented format.

use crate::support::{copy_tree, grader, output, root, tempdir, text};
use serde_json::Value;
use std::path::Path;

/// A job folder for the student `files` (name, source), with the course's
/// challenges in serverFilesCourse/ and the question's data.
fn job(dir: &Path, files: &[(&str, &str)]) {
    copy_tree(
        &root().join("challenges"),
        &dir.join("serverFilesCourse/challenges"),
        |_| true,
    );
    std::fs::create_dir_all(dir.join("student")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("data/data.json"),
        r#"{"params": {"challenge": "rendezvous-router"}, "submitted_answers": {}}"#,
    )
    .unwrap();
    for (name, source) in files {
        std::fs::copy(
            root().join("submissions").join(source),
            dir.join("student").join(name),
        )
        .unwrap();
    }
}

/// Runs the entrypoint on `dir` and reads its results.json, checking
/// what every results.json must hold.
fn grade(dir: &Path) -> (Option<i32>, Value) {
    let out = output(grader().args(["prairielearn", "--root", dir.to_str().unwrap()]));
    let bytes = std::fs::read(dir.join("results/results.json"))
        .unwrap_or_else(|e| panic!("no results.json ({e}): {}", text(&out.stderr)));
    assert!(bytes.len() <= 1_000_000, "within PrairieLearn's 1 MB");
    let results: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(results["gradable"].is_boolean(), "{results}");
    assert!(results["message"].is_string());
    assert!(results["output"].is_string());
    for test in results["tests"].as_array().unwrap() {
        for key in ["name", "description", "message", "output"] {
            assert!(test[key].is_string(), "{key}: {test}");
        }
        let (points, max) = (
            test["points"].as_f64().unwrap(),
            test["max_points"].as_f64().unwrap(),
        );
        assert!((0.0..=max).contains(&points), "{test}");
    }
    (out.status.code(), results)
}

fn points(results: &Value) -> (f64, f64) {
    let tests = results["tests"].as_array().unwrap();
    (
        tests.iter().map(|t| t["points"].as_f64().unwrap()).sum(),
        tests
            .iter()
            .map(|t| t["max_points"].as_f64().unwrap())
            .sum(),
    )
}

#[test]
fn a_full_score_a_partial_score_and_a_compile_error() {
    // A full score.
    let full = tempdir();
    job(full.path(), &[("router.py", "python/correct_class.py")]);
    let (code, results) = grade(full.path());
    assert_eq!(code, Some(0));
    assert_eq!(results["gradable"], true);
    assert_eq!(results["score"], 1.0);
    let (earned, max) = points(&results);
    assert!(
        max > 0.0 && (earned - max).abs() < 1e-9,
        "{earned} of {max}"
    );
    assert!(
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["message"] == "passed")
    );

    // A partial score: the score is the tests' points over their maximum.
    let partial = tempdir();
    job(partial.path(), &[("router.py", "python/lowest_score.py")]);
    let (code, results) = grade(partial.path());
    assert_eq!(code, Some(0), "PrairieLearn reads the file, not the code");
    assert_eq!(results["gradable"], true);
    let score = results["score"].as_f64().unwrap();
    assert!(score > 0.0 && score < 1.0, "{score}");
    let (earned, max) = points(&results);
    assert!(
        (score - earned / max).abs() < 1e-9,
        "{score} against {earned}/{max}"
    );
    let failed = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["points"].as_f64() < t["max_points"].as_f64())
        .unwrap();
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .starts_with("wrong-answer")
    );
    assert!(!failed["output"].as_str().unwrap().is_empty());
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("likely mistake")
    );

    // A compile error: not gradable, so no attempt is charged, and why.
    let broken = tempdir();
    job(
        broken.path(),
        &[("router.ts", "typescript/syntax_error.ts")],
    );
    let (code, results) = grade(broken.path());
    assert_eq!(code, Some(0));
    assert_eq!(results["gradable"], false, "{results}");
    assert!(results.get("score").is_none());
    assert!(!results["format_errors"][0].as_str().unwrap().is_empty());
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("no attempt was charged")
    );
}

#[test]
fn a_grader_that_fails_is_not_gradable_and_never_a_zero() {
    let job_dir = tempdir();
    job(job_dir.path(), &[("router.py", "python/correct_class.py")]);
    // No interpreter: the grader's fault on this submission.
    let out = output(
        grader()
            .args(["prairielearn", "--root", job_dir.path().to_str().unwrap()])
            .env("GRADER_PYTHON", job_dir.path().join("no-python")),
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let results: Value = serde_json::from_slice(
        &std::fs::read(job_dir.path().join("results/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["gradable"], false, "{results}");
    assert!(results.get("score").is_none());
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("not your code's fault")
    );

    // A job without the course's challenges: still a results.json.
    let bare = tempdir();
    std::fs::create_dir_all(bare.path().join("student")).unwrap();
    let out = output(grader().args(["prairielearn", "--root", bare.path().to_str().unwrap()]));
    assert_eq!(out.status.code(), Some(2));
    let results: Value =
        serde_json::from_slice(&std::fs::read(bare.path().join("results/results.json")).unwrap())
            .unwrap();
    assert_eq!(results["gradable"], false);
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("serverFilesCourse/challenges")
    );
}
