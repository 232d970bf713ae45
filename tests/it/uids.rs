//! Sessions of two grader runs at once never share a uid: each session
//! leases its own, machine-wide, for as long as it runs.

use crate::support::{effective_uid, grader, json, root, shared, tempdir};
use std::collections::BTreeSet;
use std::process::Stdio;

/// Prints its uid while it builds a Router, and stays a second, so that
/// every session of both runs is alive at once; wrong otherwise, so that
/// what it printed is kept in the report.
const UID_REPORTER: &str = r#"
import os
import time


class Router:
    def __init__(self, nodes):
        print("uid", os.getuid(), flush=True)
        time.sleep(1.0)

    def route(self, key):
        return "nowhere"

    def add(self, node):
        pass

    def remove(self, node):
        pass
"#;

#[test]
fn concurrent_runs_lease_distinct_uids() {
    // Only root's sessions run as uids of their own.
    if effective_uid() != 0 {
        panic!("this test needs root, as CI runs it: sandbox uids are root's to give");
    }
    let _gate = shared();
    let dir = tempdir();
    let tests = dir.path().join("edge");
    std::fs::create_dir_all(&tests).unwrap();
    let sample = root().join("challenges/rendezvous-router/tests/sample");
    for name in ["sample-1-keys-spread-over-three-nodes"] {
        for ext in ["json", "expected.json"] {
            std::fs::copy(
                sample.join(format!("{name}.{ext}")),
                tests.join(format!("{name}.{ext}")),
            )
            .unwrap();
        }
    }
    let runs: Vec<std::process::Child> = ["one", "two"]
        .iter()
        .map(|run| {
            let class = dir.path().join(run);
            for student in ["a", "b"] {
                let folder = class.join(student);
                std::fs::create_dir_all(&folder).unwrap();
                std::fs::write(folder.join("router.py"), UID_REPORTER).unwrap();
            }
            grader()
                .args(["grade", "--format", "json", "--jobs", "2", "--tests"])
                .arg(&tests)
                .arg(&class)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let mut uids = Vec::new();
    for run in runs {
        let out = run.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: serde_json::Value = json(&out);
        for s in report["submissions"].as_array().unwrap() {
            let printed = s["tests"][0]["captured"]["stdout"].as_str().unwrap();
            let uid: u32 = printed
                .trim()
                .strip_prefix("uid ")
                .and_then(|u| u.parse().ok())
                .unwrap_or_else(|| panic!("no uid in {printed:?}"));
            uids.push(uid);
        }
    }
    let distinct: BTreeSet<u32> = uids.iter().copied().collect();
    assert_eq!(distinct.len(), 4, "sessions shared uids: {uids:?}");
    assert!(uids.iter().all(|&u| u != 0), "{uids:?}");
}
