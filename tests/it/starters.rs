//! The starters a learner begins from: `grader init` copies them, never over
//! a file; each loads (compiles), has the pinned h32, and fails the samples
//! as delivered (a starter that passes teaches nothing).

use crate::support::{json, root, run, tempdir};
use serde_json::Value;

#[test]
fn every_starter_loads_hashes_right_and_fails_the_samples() {
    for challenge in ["rendezvous-router", "hrw-top", "vnode-ring", "weighted-hrw"] {
        starters_of(challenge);
    }
}

fn starters_of(challenge: &str) {
    let dir = tempdir();
    let cache = dir.path().join("cache");
    for (lang, file) in [
        ("python", "router.py"),
        ("javascript", "router.js"),
        ("typescript", "router.ts"),
        ("rust", "router.rs"),
    ] {
        let work = dir.path().join(lang);
        let work_s = work.to_str().unwrap();
        let out = run(&["init", "--challenge", challenge, "--lang", lang, work_s]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{lang}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let written = std::fs::read(work.join(file)).unwrap();
        let starter = std::fs::read(
            root()
                .join("challenges")
                .join(challenge)
                .join("starters")
                .join(file),
        )
        .unwrap();
        assert_eq!(written, starter, "{lang}: init wrote something else");
        let said = String::from_utf8_lossy(&out.stdout);
        assert!(said.contains("grader grade"), "{lang}: no next step said");
        // The command the starter and init give grades this challenge.
        let flag = format!("--challenge {challenge}");
        if challenge != "rendezvous-router" {
            assert!(said.contains(&flag), "{challenge}/{lang}: {said}");
            assert!(
                String::from_utf8_lossy(&starter).contains(&flag),
                "{challenge}/{lang}: the starter's own instructions"
            );
        }

        // A second init refuses and leaves the learner's file alone.
        std::fs::write(work.join(file), "my work").unwrap();
        let again = run(&["init", "--challenge", challenge, "--lang", lang, work_s]);
        assert_eq!(again.status.code(), Some(2), "{lang}");
        assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
        assert_eq!(std::fs::read_to_string(work.join(file)).unwrap(), "my work");
        std::fs::write(work.join(file), &starter).unwrap();

        let out = run(&[
            "grade",
            "--challenge",
            challenge,
            "--format",
            "json",
            "--tests",
            &format!("challenges/{challenge}/tests/sample"),
            "--cache-dir",
            cache.to_str().unwrap(),
            work.join(file).to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "{challenge}/{lang}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = json(&out);
        let submission = &report["submissions"][0];
        // Loaded and ran: a wrong answer, not a compile or load failure.
        assert_eq!(
            submission["verdict"], "wrong-answer",
            "{challenge}/{lang}: {submission}"
        );
        assert_eq!(submission["passed"], 0, "{lang}");
        let h32 = &submission["h32"];
        assert!(h32["checked"].as_u64().unwrap() >= 4, "{lang}: {h32}");
        assert!(h32["first_mismatch"].is_null(), "{lang}: {h32}");
    }
}

#[test]
fn init_names_a_missing_starter() {
    let dir = tempdir();
    let out = run(&[
        "init",
        "--lang",
        "python",
        "--challenge",
        "nope",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no challenge `nope`"));
}
