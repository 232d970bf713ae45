//! Snapshots of what needs the `grader` binary, whole (exit status,
//! stdout and stderr): the authoring commands' text and the refusal of
//! every damaged input of `tests/fixtures/broken` and
//! `tests/fixtures/bad-challenges`, in `tests/it/snapshots/`, with the
//! checkout's path and the grader's version redacted; and the check that
//! `grader schema` prints the published schemas.
//!
//! The renderers' snapshots, of those fixtures in every format, are the
//! report crate's: `crates/report/tests/renderers.rs`.
//!
//! After a deliberate change: `INSTA_UPDATE=always cargo test --test it
//! snapshots` (or `cargo insta test --review`), then read every changed
//! snapshot.

use crate::support::{copy_tree, json, literal, root, run, tempdir, text};
use serde_json::Value;
use std::process::Output;

/// Settings for every snapshot here ([`crate::support::settings`]).
fn settings(description: &str) -> insta::Settings {
    crate::support::settings(description, &root(), env!("CARGO_PKG_VERSION"))
}

/// The published schemas are what `grader schema` prints (each report
/// fixture's check against the schema is the report crate's, in
/// `crates/report/tests/renderers.rs`).
#[test]
fn grader_schema_prints_the_published_schemas() {
    for document in crate::support::Document::ALL {
        let name = document.name();
        let out = run(&["schema", name]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let published =
            std::fs::read_to_string(root().join(format!("docs/schemas/{name}.schema.json")))
                .unwrap();
        assert_eq!(text(&out.stdout), published, "{name}");
    }
    // The report's is the default.
    assert_eq!(run(&["schema"]).stdout, run(&["schema", "report"]).stdout);
}

/// The snapshots of the authoring commands below.
const COMMAND_SNAPSHOTS: [&str; 6] = [
    "list",
    "validate__many-problems",
    "audit__human",
    "audit__json",
    "validate__hrw-top",
    "bless__check",
];

/// The damaged `--tests` folders of tests/fixtures/broken, one kind of
/// damage each, by name.
fn broken_fixtures() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join("tests/fixtures/broken"))
        .unwrap()
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .collect();
    names.sort();
    names
}

#[test]
fn no_snapshot_is_left_over() {
    // A renamed or removed test leaves its snapshots behind, which insta
    // would keep silently.
    let mut expected: Vec<String> = COMMAND_SNAPSHOTS.iter().map(|s| s.to_string()).collect();
    expected.extend(broken_fixtures().iter().map(|n| format!("broken__{n}")));
    let dir = root().join("tests/it/snapshots");
    // (Pending `.snap.new` files of a failed comparison are insta's own.)
    let mut stray: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().into_string().unwrap();
            let stem = file.strip_suffix(".snap")?;
            (!expected.iter().any(|e| e == stem)).then(|| file.clone())
        })
        .collect();
    stray.sort();
    assert!(
        stray.is_empty(),
        "no test writes {stray:?} in {}",
        dir.display()
    );
}

/// A command's exit status, stdout and stderr, as one text to snapshot.
fn transcript(out: &Output) -> String {
    format!(
        "{}\n--- stdout\n{}--- stderr\n{}",
        out.status,
        text(&out.stdout),
        text(&out.stderr)
    )
}

/// Each damaged `--tests` folder is refused before anything runs: exit
/// 2, no report, and the whole error (every problem, each at its file and
/// position, and what to do) as its snapshot `broken__NAME`.
#[test]
fn broken_test_files_are_rejected_before_anything_runs() {
    let names = broken_fixtures();
    assert!(names.len() >= 9, "only {names:?} found");
    for name in names {
        let rel = format!("tests/fixtures/broken/{name}");
        let out = run(&[
            "grade",
            "--tests",
            &rel,
            "submissions/python/correct_class.py",
        ]);
        assert_eq!(out.status.code(), Some(2), "{rel}: {}", text(&out.stderr));
        assert!(
            out.stdout.is_empty(),
            "{rel}: a report was written: {}",
            text(&out.stdout)
        );
        settings(&format!("grader grade --tests {rel}"))
            .bind(|| insta::assert_snapshot!(format!("broken__{name}"), transcript(&out)));
    }
}

/// Every problem of a damaged challenge.toml at once, each where it is.
#[test]
fn every_problem_of_challenge_toml_is_reported_at_once() {
    let out = run(&[
        "--challenges",
        "tests/fixtures/bad-challenges",
        "validate",
        "--challenge",
        "many-problems",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    settings("grader validate --challenge many-problems (tests/fixtures/bad-challenges)")
        .bind(|| insta::assert_snapshot!("validate__many-problems", transcript(&out)));
}

#[test]
fn list_output() {
    let out = run(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    settings("grader list").bind(|| insta::assert_snapshot!("list", transcript(&out)));
}

#[test]
fn audit_output() {
    let human = run(&["audit", "--challenge", "rendezvous-router"]);
    assert_eq!(human.status.code(), Some(0), "{}", transcript(&human));
    settings("grader audit --challenge rendezvous-router")
        .bind(|| insta::assert_snapshot!("audit__human", transcript(&human)));
    let machine = run(&[
        "audit",
        "--challenge",
        "rendezvous-router",
        "--format",
        "json",
    ]);
    assert_eq!(machine.status.code(), Some(0), "{}", transcript(&machine));
    let _: Value = json(&machine);
    settings("grader audit --challenge rendezvous-router --format json")
        .bind(|| insta::assert_snapshot!("audit__json", transcript(&machine)));
}

#[test]
fn validate_output() {
    let out = run(&["validate", "--challenge", "hrw-top"]);
    assert_eq!(out.status.code(), Some(0), "{}", transcript(&out));
    settings("grader validate --challenge hrw-top")
        .bind(|| insta::assert_snapshot!("validate__hrw-top", transcript(&out)));
}

#[test]
fn bless_check_output() {
    // A copy of the challenge with one expected file wrong (and short).
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    let copy = challenges.join("rendezvous-router");
    copy_tree(&root().join("challenges/rendezvous-router"), &copy, |_| {
        true
    });
    std::fs::write(
        copy.join("tests/edge/single-node.expected.json"),
        "[\"only\",\"nobody\"]\n",
    )
    .unwrap();
    let out = run(&[
        "--challenges",
        challenges.to_str().unwrap(),
        "bless",
        "--check",
        "--challenge",
        "rendezvous-router",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", transcript(&out));
    let mut settings = settings(
        "grader bless --check on a copy of rendezvous-router with edge/single-node.expected.json altered",
    );
    settings.add_filter(&literal(&dir.path().display().to_string()), "[tmp]");
    settings.bind(|| insta::assert_snapshot!("bless__check", transcript(&out)));
}
