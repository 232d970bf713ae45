//! Values a learner's code can return or raise that JSON cannot carry
//! (`tests/fixtures/submissions/values/`): each is that learner's
//! runtime-error naming the value and its type, whatever the language, and
//! never a driver's crash or a protocol-error.

use crate::support::{grader, json, output, root};
use serde::Deserialize;
use serde_json::Value;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    program: Vec<Program>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Program {
    path: String,
    message: String,
}

#[test]
fn every_value_a_learner_can_return_is_their_runtime_error() {
    let dir = root().join("tests/fixtures/submissions/values");
    let manifest: Manifest =
        toml::from_str(&std::fs::read_to_string(dir.join("expected.toml")).unwrap()).unwrap();
    let listed: Vec<&str> = manifest.program.iter().map(|p| p.path.as_str()).collect();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            name == "expected.toml" || listed.contains(&name.as_str()),
            "{name} has no entry in expected.toml"
        );
    }
    let mut command = grader();
    command.args([
        "grade",
        "--format",
        "json",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
    ]);
    for p in &manifest.program {
        command.arg(dir.join(&p.path));
    }
    let out = output(&mut command);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("driver failed"), "{stderr}");
    let report: Value = json(&out);
    let mut failures = Vec::new();
    for (p, s) in manifest
        .program
        .iter()
        .zip(report["submissions"].as_array().unwrap())
    {
        for t in s["tests"].as_array().unwrap() {
            if t["verdict"] != "runtime-error" {
                failures.push(format!("{}: {} in {}", p.path, t["verdict"], t["name"]));
            }
        }
        let message = s["tests"][0]["message"].as_str().unwrap_or_default();
        if !message.contains(&p.message) {
            failures.push(format!("{}: {message:?} lacks {:?}", p.path, p.message));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
