//! The standard report formats, each validated against its schema or rules
//! with nasty text in it, and the learner audience checked for leaks of
//! hidden case data in every format.

use crate::support::{edge_suite, grader, json, output, root, run, tempdir, xmllint};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A --tests folder whose cases carry control characters, `]]>`, quotes,
/// non-ASCII and a very long key, and whose expected outputs are wrong on
/// purpose so that every failure path prints them.
fn nasty_tests(dir: &Path) -> PathBuf {
    // The group `edge`, in a folder of its own.
    let tests = edge_suite(&dir.join("nasty"));
    let long = "k".repeat(5000);
    let keys = [
        "\u{1}\u{8}\u{1b}[31m",
        "]]>&<x a=\"b\">",
        "'quote\"s'",
        "日本語 🙂 \u{FFFE}\u{FFFF}",
        &long,
    ];
    for (i, key) in keys.iter().enumerate() {
        let case = serde_json::json!([
            [["n1", "n\u{7}2", "]]>"]],
            [["route", key], ["remove", "absent"], ["route", "plain"]]
        ]);
        // No expected file: the reference's answers are expected, and
        // the nastiness comes back in the learner's wrong answers.
        std::fs::write(tests.join(format!("case{i}.json")), case.to_string()).unwrap();
    }
    tests
}

const SUBMISSIONS: [&str; 5] = [
    "submissions/python/chatty_correct.py",
    "submissions/python/remove_absent_raises.py",
    "submissions/javascript/exits_on_remove.js",
    "submissions/typescript/syntax_error.ts",
    // Answers each key with itself and a NUL, and prints it.
    "tests/fixtures/submissions/nasty_answers.py",
];

fn render(format: &str, tests: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "grade",
        "--format",
        format,
        "--tests",
        tests.to_str().unwrap(),
    ];
    args.extend(extra);
    args.extend(SUBMISSIONS);
    run(&args)
}

#[test]
fn junit_validates_against_the_jenkins_schema() {
    let dir = tempdir();
    let tests = nasty_tests(dir.path());
    let out = render("junit", &tests, &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let xml = dir.path().join("report.xml");
    std::fs::write(&xml, &out.stdout).unwrap();
    let check = xmllint(&xml);
    assert!(
        check.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&check.stderr),
        String::from_utf8_lossy(&out.stdout)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.matches("<testsuite ").count(), SUBMISSIONS.len());
    assert_eq!(text.matches("<testcase ").count(), SUBMISSIONS.len() * 5);
    assert!(!text.contains('\u{FFFE}') && !text.contains('\u{1}'));
    assert!(text.contains("time=\""), "every case has a time");
    // Messages are one line; the detail is in the body.
    for line in text
        .lines()
        .filter(|l| l.contains("<failure ") || l.contains("<error "))
    {
        let message = line
            .split("message=\"")
            .nth(1)
            .unwrap()
            .split('"')
            .next()
            .unwrap();
        assert!(!message.contains('\n'));
    }
}

#[test]
fn junit_of_every_challenge_validates() {
    // The explanations differ per challenge (rankings, rings, weighted
    // scores); their text goes into failure bodies.
    for (challenge, wrong) in [
        ("hrw-top", "submissions/hrw-top/python/ascending.py"),
        (
            "vnode-ring",
            "submissions/vnode-ring/python/bisect_right.py",
        ),
        (
            "weighted-hrw",
            "submissions/weighted-hrw/python/times_weight.py",
        ),
    ] {
        // Their large cases cut short: the bodies' form is the same.
        let out = run(&[
            "--challenges",
            crate::support::trimmed_challenges().to_str().unwrap(),
            "grade",
            "--challenge",
            challenge,
            "--format",
            "junit",
            wrong,
        ]);
        assert_eq!(out.status.code(), Some(1), "{challenge}");
        let dir = tempdir();
        let xml = dir.path().join("report.xml");
        std::fs::write(&xml, &out.stdout).unwrap();
        let check = xmllint(&xml);
        assert!(
            check.status.success(),
            "{challenge}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains("why: "),
            "{challenge}: no explanation in the bodies"
        );
    }
}

#[test]
fn ctrf_validates_against_its_schema() {
    let dir = tempdir();
    let tests = nasty_tests(dir.path());
    let out = render("ctrf", &tests, &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let document: Value = json(&out);
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/fixtures/schemas/ctrf.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(&document)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let summary = &document["results"]["summary"];
    assert_eq!(summary["tests"], SUBMISSIONS.len() * 5);
    let scores = &document["results"]["extra"]["submissions"];
    assert_eq!(scores.as_array().unwrap().len(), SUBMISSIONS.len());
    assert!(scores[0].get("score").is_some() && scores[0].get("max_score").is_some());
}

#[test]
fn gradescope_has_every_field() {
    let dir = tempdir();
    let tests = nasty_tests(dir.path());
    let out = run(&[
        "grade",
        "--format",
        "gradescope",
        "--tests",
        tests.to_str().unwrap(),
        SUBMISSIONS[1],
    ]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Value = json(&out);
    for field in [
        "score",
        "max_score",
        "output",
        "visibility",
        "stdout_visibility",
        "tests",
    ] {
        assert!(results.get(field).is_some(), "no {field}");
    }
    // Students read `output`: the containment in force is for instructors,
    // in `extra_data`, as the JSON report's `sandbox` describes it.
    let output = results["output"].as_str().unwrap();
    assert!(!output.contains("sandbox"), "{output}");
    let sandbox = results["extra_data"]["sandbox"].as_str().unwrap();
    let graded = run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        tests.to_str().unwrap(),
        SUBMISSIONS[1],
    ]);
    let report: Value = json(&graded);
    let layers = &report["sandbox"];
    assert!(!sandbox.is_empty());
    if layers["pid_namespace"] == true {
        assert!(sandbox.contains("pid"), "{sandbox}");
    }
    for t in results["tests"].as_array().unwrap() {
        for field in [
            "name",
            "score",
            "max_score",
            "status",
            "output",
            "visibility",
        ] {
            assert!(t.get(field).is_some(), "a test lacks {field}");
        }
        assert!(["passed", "failed"].contains(&t["status"].as_str().unwrap()));
        assert!(["visible", "after_published"].contains(&t["visibility"].as_str().unwrap()));
    }
    // One submission per results.json: more is a usage error, not a crash.
    let two = run(&[
        "grade",
        "--format",
        "gradescope",
        "--tests",
        tests.to_str().unwrap(),
        SUBMISSIONS[0],
        SUBMISSIONS[1],
    ]);
    assert_eq!(two.status.code(), Some(2));
}

#[test]
fn github_annotations_are_escaped_and_within_limits() {
    let dir = tempdir();
    let tests = nasty_tests(dir.path());
    let summary = dir.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    let mut args = vec![
        "grade",
        "--format",
        "github",
        "--tests",
        tests.to_str().unwrap(),
    ];
    args.extend(SUBMISSIONS);
    let out = output(grader().args(&args).env("GITHUB_STEP_SUMMARY", &summary));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8(out.stdout).unwrap();
    let errors: Vec<&str> = text.lines().filter(|l| l.starts_with("::error ")).collect();
    // One per failing student, each its own file: all five fail, for the
    // two Python files, named from one folder, are a class of files and
    // are granted their own file alone, never the sibling module they
    // import.
    assert_eq!(errors.len(), 5, "{errors:#?}");
    let files: std::collections::BTreeSet<&str> = errors
        .iter()
        .map(|l| l.split_once(',').map_or(*l, |(head, _)| head))
        .collect();
    assert_eq!(files.len(), errors.len(), "one annotation per student");
    assert!(
        text.lines()
            .any(|l| l.starts_with("::notice title=More failing tests::")),
        "the tests not annotated are counted"
    );
    for line in &errors {
        // A workflow command is one line: its data cannot hold a raw CR.
        assert!(!line.contains('\r'));
        let (properties, _) = line["::error ".len()..].split_once("::").unwrap();
        assert!(properties.starts_with("file="), "{properties}");
    }
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(
        md.starts_with("earlier step\n"),
        "the summary is appended to"
    );
    assert!(md.contains("| student | path | verdict | score | tests passed |"));
    for submission in SUBMISSIONS {
        assert_eq!(
            md.matches(&format!("| {submission} |")).count(),
            1,
            "{submission}"
        );
    }
}

/// Every format of a learner-audience report, and every file a run writes
/// beside it (saved results, gradebook, GitHub step summary), searched for
/// the hidden group's case data (all of it contains "SECRET"). The formats
/// are taken from the command line's own list, so a new one is searched
/// too.
#[test]
fn a_learner_report_holds_no_hidden_case_data_in_any_format() {
    use clap::ValueEnum;
    use report::Format;
    let submissions = [
        "submissions/python/lowest_score.py",
        "submissions/python/remove_absent_raises.py",
        "submissions/python/chatty_correct.py",
        // Hands back everything it was shown, in every way it can.
        "tests/fixtures/submissions/remembers_cases.py",
        // Right on the open group, wrong on the hidden one only: whatever
        // explains its failure comes from a hidden case.
        "tests/fixtures/submissions/truncates_long_texts.py",
    ];
    // Everything a run printed or wrote, as one text.
    let run = |format: &str, audience: &str, submissions: &[&str]| -> String {
        let dir = tempdir();
        let summary = dir.path().join("summary.md");
        let mut command = grader();
        command
            .args(["--challenges", "tests/fixtures/challenges", "grade"])
            .args(["--challenge", "hidden-router", "--format", format])
            .args(["--audience", audience, "--results"])
            .arg(dir.path().join("results"))
            .arg("--gradebook")
            .arg(dir.path().join("gradebook.csv"))
            .args(submissions)
            .env("GITHUB_STEP_SUMMARY", &summary);
        let out = output(&mut command);
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut all = String::from_utf8_lossy(&out.stdout).into_owned();
        all.push_str(&String::from_utf8_lossy(&out.stderr));
        let mut files = vec![dir.path().to_owned()];
        while let Some(path) = files.pop() {
            if path.is_dir() {
                files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            } else {
                all.push_str(&String::from_utf8_lossy(&std::fs::read(&path).unwrap()));
            }
        }
        all
    };
    for format in Format::value_variants() {
        let name = format.to_possible_value().unwrap().get_name().to_owned();
        // Gradescope's, PrairieLearn's and Codio's results describe one submission
        // at a time.
        let single = matches!(
            format,
            Format::Gradescope | Format::Prairielearn | Format::Codio
        );
        let runs: Vec<Vec<&str>> = if single {
            submissions.iter().map(|s| vec![*s]).collect()
        } else {
            vec![submissions.to_vec()]
        };
        let mut instructor_saw = false;
        for group in runs {
            let learner = run(&name, "learner", &group);
            if let Some(at) = learner.find("SECRET") {
                let start = learner[..at]
                    .char_indices()
                    .rev()
                    .nth(200)
                    .map_or(0, |(i, _)| i);
                panic!(
                    "{name} leaks hidden data for {group:?}: ...{}",
                    &learner[start..]
                );
            }
            instructor_saw |= run(&name, "instructor", &group).contains("SECRET");
            if group.len() > 1 {
                // The hidden tests are still there, by name.
                assert!(learner.contains("s1") && learner.contains("s2"), "{name}");
            }
        }
        // The instructor's report keeps the detail (the check can fail).
        assert!(
            instructor_saw,
            "{name}: the instructor sees the hidden cases"
        );
    }
}

/// Gradescope publishes its results to the student: without `--audience`,
/// its report is the learner's, and the instructor's only when asked for.
#[test]
fn gradescope_results_are_the_learners_unless_the_instructor_asks() {
    let grade = |audience: &[&str]| -> String {
        let out = output(
            grader()
                .args(["--challenges", "tests/fixtures/challenges", "grade"])
                .args(["--challenge", "hidden-router", "--format", "gradescope"])
                .args(audience)
                .arg("tests/fixtures/submissions/remembers_cases.py"),
        );
        assert!(
            matches!(out.status.code(), Some(0 | 1)),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    assert!(
        !grade(&[]).contains("SECRET"),
        "hidden case data by default"
    );
    assert!(grade(&["--audience", "instructor"]).contains("SECRET"));
}
