//! Snapshots of what needs the `grader` binary: the authoring commands'
//! text, in `tests/it/snapshots/`, with the checkout's path and the
//! grader's version redacted; and the check that every report fixture in
//! `tests/fixtures/reports/` follows the schema `grader schema` publishes.
//!
//! The renderers' snapshots, of those fixtures in every format, are the
//! report crate's: `crates/report/tests/renderers.rs`.
//!
//! After a deliberate change: `INSTA_UPDATE=always cargo test --test it
//! snapshots` (or `cargo insta test --review`), then read every changed
//! snapshot.

use crate::support::{copy_tree, json, root, run, tempdir, text};
use report::{Format, Report, render};
use serde_json::Value;
use std::process::Output;

/// Every fixture by name (its file stem), deserialised, in name order.
fn fixtures() -> Vec<(String, Report)> {
    let dir = root().join("tests/fixtures/reports");
    let mut found: Vec<(String, Report)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            let report = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                .unwrap_or_else(|e| panic!("{}: not a report: {e}", p.display()));
            (name, report)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(found.len() >= 10, "only {} report fixtures", found.len());
    found
}

/// `report` written in `format`, as text with its ANSI styles.
fn rendered(report: &Report, format: Format) -> String {
    let mut out = Vec::new();
    render(report, format, &mut out).unwrap_or_else(|e| panic!("{format:?}: {e}"));
    String::from_utf8(out).unwrap()
}

/// `text` as a regular expression that matches it literally.
fn literal(text: &str) -> String {
    let mut escaped = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Settings for every snapshot here: plain names (the file is
/// `snapshots/NAME.snap`), no expression in the header, and the checkout's
/// path and the grader's version redacted.
fn settings(description: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.add_filter(&literal(&root().display().to_string()), "[root]");
    let version = literal(env!("CARGO_PKG_VERSION"));
    settings.add_filter(
        &format!("rendezvous-grader {version}"),
        "rendezvous-grader [version]",
    );
    settings.add_filter(
        &format!(r#""version": "{version}""#),
        r#""version": "[version]""#,
    );
    settings
}

/// Every report fixture, as stored and as the grader writes it again,
/// follows the published schema strictly; and the published schema is
/// what `grader schema` prints.
#[test]
fn every_report_follows_the_published_schema() {
    for (name, report) in fixtures() {
        let stored: Value = serde_json::from_str(
            &std::fs::read_to_string(root().join(format!("tests/fixtures/reports/{name}.json")))
                .unwrap(),
        )
        .unwrap();
        crate::support::check_report(&stored);
        let written: Value = serde_json::from_str(&rendered(&report, Format::Json)).unwrap();
        crate::support::check_report(&written);
        assert_eq!(written["schema_version"], 1, "{name}");
    }
    // The check is strict: a field the schema does not name, at any
    // depth, a tagged explanation's included, fails it; so does a wrong type.
    let (_, report) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "rendezvous-scores")
        .unwrap();
    let written: Value = serde_json::from_str(&rendered(&report, Format::Json)).unwrap();
    let explained = written["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tests"].as_array().unwrap())
        .position(|t| t["explanation"].is_object())
        .expect("the rendezvous-scores fixture explains a test");
    for damage in [
        "/surprise",
        "/submissions/0/surprise",
        "/submissions/0/points/surprise",
        "explanation/surprise",
        "/submissions/0/verdict=",
    ] {
        let mut damaged = written.clone();
        if let Some(path) = damage.strip_prefix("explanation/") {
            let test = damaged["submissions"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .flat_map(|s| s["tests"].as_array_mut().unwrap())
                .nth(explained)
                .unwrap();
            test["explanation"][path] = 1.into();
        } else if let Some(pointer) = damage.strip_suffix('=') {
            *damaged.pointer_mut(pointer).unwrap() = "almost-accepted".into();
        } else {
            let (parent, key) = damage.rsplit_once('/').unwrap();
            damaged.pointer_mut(parent).unwrap()[key] = 1.into();
        }
        let refused = std::panic::catch_unwind(|| crate::support::check_report(&damaged));
        assert!(refused.is_err(), "{damage} passed the check");
    }
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
const COMMAND_SNAPSHOTS: [&str; 5] = [
    "list",
    "audit__human",
    "audit__json",
    "validate__hrw-top",
    "bless__check",
];

#[test]
fn no_snapshot_is_left_over() {
    // A renamed or removed test leaves its snapshots behind, which insta
    // would keep silently.
    let expected: Vec<String> = COMMAND_SNAPSHOTS.iter().map(|s| s.to_string()).collect();
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
