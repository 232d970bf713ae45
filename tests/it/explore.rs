//! Exploring with generated cases (`--explore`): the learner-style
//! submissions of `tests/fixtures/explore/`, each passing its challenge's
//! shipped suite and still wrong, get a counterexample within the default
//! budget, one that really differs when the reference and the submission
//! run it as a case; no verdict or score changes. (That every accepted
//! example, explored, gets none is checked with its verdict, in
//! `examples.rs`.)

use crate::support::{grader, json, output, root, tempdir};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::Path;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    submission: Vec<Entry>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    path: String,
    challenge: String,
    bug: String,
    differs_on: String,
}

fn fixtures() -> std::path::PathBuf {
    root().join("tests/fixtures/explore")
}

fn manifest() -> Manifest {
    let text = std::fs::read_to_string(fixtures().join("expected.toml")).unwrap();
    toml::from_str(&text).unwrap()
}

/// The verdict of `file` on one case, `input`, whose expected answers the
/// reference gives.
fn verdict_on(challenge: &str, input: &Value, file: &Path) -> String {
    let dir = tempdir();
    let group = dir.path().join("tests/edge");
    std::fs::create_dir_all(&group).unwrap();
    std::fs::write(group.join("found.json"), input.to_string()).unwrap();
    let out = output(
        grader()
            .args([
                "grade",
                "--format",
                "json",
                "--challenge",
                challenge,
                "--tests",
            ])
            .arg(dir.path().join("tests"))
            .arg(file),
    );
    let report: Value = json(&out);
    report["submissions"][0]["verdict"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn every_suite_passing_wrong_submission_gets_a_counterexample_that_differs() {
    let manifest = manifest();
    // Every file is in the manifest, every entry a file.
    let mut listed: Vec<&str> = manifest
        .submission
        .iter()
        .map(|e| e.path.as_str())
        .collect();
    listed.sort_unstable();
    let mut found = Vec::new();
    for challenge in std::fs::read_dir(fixtures()).unwrap().flatten() {
        if challenge.path().is_dir() {
            for file in std::fs::read_dir(challenge.path()).unwrap().flatten() {
                found.push(format!(
                    "{}/{}",
                    challenge.file_name().to_string_lossy(),
                    file.file_name().to_string_lossy()
                ));
            }
        }
    }
    found.sort_unstable();
    assert_eq!(listed, found);
    let mut by_challenge: BTreeMap<&str, Vec<&Entry>> = BTreeMap::new();
    for entry in &manifest.submission {
        by_challenge
            .entry(&entry.challenge)
            .or_default()
            .push(entry);
    }
    for (challenge, entries) in by_challenge {
        // At least two languages per challenge.
        let languages: std::collections::BTreeSet<&str> = entries
            .iter()
            .filter_map(|e| e.path.rsplit('.').next())
            .collect();
        assert!(languages.len() >= 2, "{challenge}: {languages:?}");
        // The whole challenge's files in one run, each explored for the
        // default time.
        let out = output(
            grader()
                .args([
                    "grade",
                    "--format",
                    "json",
                    "--explore",
                    "--challenge",
                    challenge,
                ])
                .args(entries.iter().map(|e| fixtures().join(&e.path))),
        );
        let report: Value = json(&out);
        for (entry, s) in entries
            .iter()
            .zip(report["submissions"].as_array().unwrap())
        {
            let what = format!("{} ({})", entry.path, entry.bug);
            // It passes the suite, and exploring changes nothing of that.
            assert_eq!(s["verdict"], "accepted", "{what}");
            assert_eq!(s["score"], s["max_score"], "{what}");
            let explore = &s["explore"];
            assert_eq!(explore["seed"], 1, "{what}");
            assert_eq!(explore["budget_ms"], 10_000, "{what}");
            let counterexample = &explore["counterexample"];
            assert!(counterexample.is_object(), "{what}: {explore}");
            assert!(explore["cases"].as_u64().unwrap() >= 1, "{what}");
            // The reference's answers and the submission's differ...
            assert_ne!(
                counterexample["expected"], counterexample["actual"],
                "{what}"
            );
            // ...and so does the case, graded as one.
            let file = fixtures().join(&entry.path);
            assert_eq!(
                verdict_on(challenge, &counterexample["case"], &file),
                "wrong-answer",
                "{what}: {counterexample}"
            );
            // The manifest's own case is wrong too: the file is what it
            // says.
            let own: Value = serde_json::from_str(&entry.differs_on).unwrap();
            assert_eq!(verdict_on(challenge, &own, &file), "wrong-answer", "{what}");
        }
    }
}

#[test]
fn exploring_runs_only_once_every_shown_test_passes() {
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--explore=2s"])
            .arg(root().join("submissions/python/lowest_score.py")),
    );
    let report: Value = json(&out);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "wrong-answer");
    assert!(s.get("explore").is_none(), "{s}");
}

/// The keys `case`'s questions ask.
fn asked_keys(case: &Value) -> Vec<String> {
    case[1]
        .as_array()
        .unwrap()
        .iter()
        .filter(|op| op[0] == "route" || op[0] == "top" || op[0] == "lookup")
        .map(|op| op[1].as_str().unwrap().to_owned())
        .collect()
}

#[test]
fn a_counterexample_texts_lose_every_character_they_can() {
    let explored = |challenge: &str, path: &str| -> Value {
        let out = output(
            grader()
                .args(["grade", "--format", "json", "--explore", "--challenge"])
                .arg(challenge)
                .arg(fixtures().join(path)),
        );
        let report: Value = json(&out);
        report["submissions"][0]["explore"]["counterexample"]["case"].clone()
    };
    // A key the learner's strip() changes needs one space at an end, and
    // no more: one character.
    let case = explored("rendezvous-router", "rendezvous-router/strip_key.py");
    let keys = asked_keys(&case);
    assert!(!keys.is_empty(), "{case}");
    for key in keys {
        assert_eq!(key.chars().count(), 1, "{case}");
        assert_ne!(key.trim(), key, "{case}");
    }
    // A key whose hash stops at 32 bytes needs more than 32 bytes, and
    // loses characters until one more would take it to 32 or fewer (a
    // character takes up to 4 bytes).
    let case = explored("rendezvous-router", "rendezvous-router/key_buffer.js");
    let keys = asked_keys(&case);
    assert!(!keys.is_empty(), "{case}");
    for key in keys {
        assert!((33..=36).contains(&key.len()), "{case}");
    }
}

/// `audit --submissions` with `dir` as `--write-cases` and `suite` as the
/// tests: its exit code and JSON.
fn audit_submissions(suite: &Path, dir: &Path, files: &[std::path::PathBuf]) -> (i32, Value) {
    let out = output(
        grader()
            .args(["audit", "--format", "json", "--tests"])
            .arg(suite)
            .arg("--write-cases")
            .arg(dir)
            .arg("--submissions")
            .args(files),
    );
    (
        out.status.code().unwrap(),
        crate::support::document(crate::support::Document::Exploration, &out),
    )
}

#[test]
fn audit_proposes_the_case_a_wrong_submission_fails_and_the_suite_then_catches_it() {
    let scratch = tempdir();
    let suite = scratch.path().join("tests");
    // The shipped suite, its large case cut short: what the audit finds
    // is a gap in what the cases ask, not in their size.
    crate::support::copy_tree(
        &crate::support::trimmed_challenges().join("rendezvous-router/tests"),
        &suite,
        |_| true,
    );
    let cases = scratch.path().join("proposed");
    let wrong = fixtures().join("rendezvous-router/strip_key.py");
    let correct = root().join("submissions/python/correct_class.py");
    let (code, audit) = audit_submissions(&suite, &cases, &[wrong.clone(), correct.clone()]);
    // A case is proposed: the suite lets a wrong submission through.
    assert_eq!(code, 1, "{audit}");
    let proposed = audit["proposed"].as_array().unwrap();
    assert_eq!(proposed.len(), 1, "{audit}");
    assert_eq!(proposed[0]["students"], serde_json::json!(["strip_key.py"]));
    let by_name = |name: &str| {
        audit["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()
            .clone()
    };
    assert!(by_name("correct_class.py")["explore"]["counterexample"].is_null());
    // The file written is the case, as `grader add` takes it.
    let name = proposed[0]["name"].as_str().unwrap();
    let file = cases.join(format!("{name}.json"));
    assert_eq!(proposed[0]["file"], file.display().to_string());
    let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, proposed[0]["case"]);
    // An audit into a folder that holds a case of that name replaces
    // nothing, and says so.
    let theirs = scratch.path().join("theirs");
    std::fs::create_dir(&theirs).unwrap();
    let file_there = theirs.join(format!("{name}.json"));
    std::fs::write(&file_there, b"[the author's own]").unwrap();
    let again = output(
        grader()
            .args(["audit", "--tests"])
            .arg(&suite)
            .arg("--write-cases")
            .arg(&theirs)
            .args(["--explore=2s", "--submissions"])
            .arg(&wrong),
    );
    let message = crate::support::text(&again.stderr);
    assert_eq!(again.status.code(), Some(2), "{message}");
    assert!(message.contains("exists already"), "{message}");
    assert_eq!(std::fs::read(&file_there).unwrap(), b"[the author's own]");
    assert_eq!(std::fs::read_dir(&theirs).unwrap().count(), 1);
    let add = output(
        grader()
            .args(["add", "--tests"])
            .arg(&suite)
            .args(["--group", "edge", name])
            .arg(&file),
    );
    assert!(add.status.success(), "{add:?}");
    // Added, it fails the wrong submission and passes the correct one.
    let graded = output(
        grader()
            .args(["grade", "--format", "json", "--tests"])
            .arg(&suite)
            .args([&wrong, &correct]),
    );
    let report: Value = json(&graded);
    let verdicts = crate::support::verdicts(&report);
    assert_eq!(
        verdicts,
        vec![
            ("strip_key.py".to_owned(), "wrong-answer".to_owned()),
            ("correct_class.py".to_owned(), "accepted".to_owned()),
        ],
        "{report}"
    );
}

#[test]
fn audit_proposes_nothing_for_correct_submissions() {
    let scratch = tempdir();
    let cases = scratch.path().join("proposed");
    let out = output(
        grader()
            .args(["audit", "--format", "json", "--challenge", "hrw-top"])
            .arg("--write-cases")
            .arg(&cases)
            .args(["--explore=3s", "--submissions"])
            .arg(root().join("submissions/hrw-top/python/correct.py"))
            .arg(root().join("submissions/hrw-top/javascript/correct.js")),
    );
    let audit: Value = crate::support::document(crate::support::Document::Exploration, &out);
    assert_eq!(out.status.code(), Some(0), "{audit}");
    assert_eq!(audit["proposed"], serde_json::json!([]));
    for s in audit["submissions"].as_array().unwrap() {
        assert_eq!(s["verdict"], "accepted", "{s}");
        assert!(s["explore"]["cases"].as_u64().unwrap() >= 1, "{s}");
        assert!(s["explore"]["counterexample"].is_null(), "{s}");
    }
    // Nothing to write, nothing written.
    assert_eq!(std::fs::read_dir(&cases).unwrap().count(), 0);
}
