//! The grader's own bounds: a reply is read only as far as its case allows,
//! with the grader's memory measured while it grades.

use crate::support::{self, json, root, tempdir};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// Operations of the generated case, and the length of its one node's name.
const OPS: usize = 40_000;
const NAME: usize = 100;

/// An executable speaking the protocol itself: it greets, then answers the
/// case the way `mode` says (`escaped`: the right answers with every
/// character written `\u00XX`, the longest legitimate form; `flood`: an
/// endless line of zeros; `dense`: for each operation a list of zeros no
/// longer than the escaped answer).
const PROGRAM: &str = r#"#!/usr/bin/env python3
import json, os, sys
MODE = "@MODE@"
requests = os.fdopen(3, "r")
replies = os.fdopen(4, "w")
replies.write(json.dumps({"hello": {"protocol": 1, "api": "solve", "runtime": MODE}}) + "\n")
replies.flush()
for line in requests:
    request = json.loads(line)
    args, ops = request["case"]
    node = args[0][0]
    head = '{"id": %d, "output": [' % request["id"]
    if MODE == "escaped":
        answer = '"' + "".join("\\u%04x" % ord(c) for c in node) + '"'
        replies.write(head + ", ".join([answer] * len(ops)) + "]}\n")
    elif MODE == "dense":
        answer = "[" + ",".join(["0"] * (3 * len(node))) + "]"
        replies.write(head + ", ".join([answer] * len(ops)) + "]}\n")
    else:
        replies.write(head)
        chunk = "0," * (1 << 20)
        for _ in range(300):
            replies.write(chunk)
        replies.write("0]}\n")
    replies.flush()
"#;

/// Grades `program` on `tests`, polling the grader's peak resident memory
/// (VmHWM) while it runs: the report and the peak in bytes.
fn grade_measured(program: &Path, tests: &Path) -> (Value, u64) {
    let _gate = support::shared();
    let mut child = Command::new(env!("CARGO_BIN_EXE_grader"))
        .current_dir(root())
        .args([
            "grade",
            "--format",
            "json",
            "--time-limit",
            "20000",
            "--tests",
        ])
        .arg(tests)
        .arg(program)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let status_path = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    let reader = {
        let mut stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            let mut out = Vec::new();
            std::io::Read::read_to_end(&mut stdout, &mut out).unwrap();
            out
        })
    };
    while child.try_wait().unwrap().is_none() {
        let status = std::fs::read_to_string(&status_path).unwrap_or_default();
        if let Some(kib) = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|l| l.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        {
            peak = peak.max(kib * 1024);
        }
        std::thread::sleep(Duration::from_millis(5));
    }
    let output = std::process::Output {
        status: child.wait().unwrap(),
        stdout: reader.join().unwrap(),
        stderr: Vec::new(),
    };
    (json(&output), peak)
}

/// A case of one node with a long name, asked about `OPS` keys.
fn big_case(dir: &Path) -> String {
    let node = format!("node-{}", "x".repeat(NAME - 5));
    let ops: Vec<Value> = (0..OPS)
        .map(|i| serde_json::json!(["route", format!("k{i}")]))
        .collect();
    let tests = dir.join("edge");
    std::fs::create_dir_all(&tests).unwrap();
    let case = serde_json::json!([[[node.clone()]], ops]);
    std::fs::write(tests.join("big.json"), case.to_string()).unwrap();
    node
}

fn program(dir: &Path, mode: &str) -> std::path::PathBuf {
    let path = dir.join(format!("reply-{mode}"));
    std::fs::write(&path, PROGRAM.replace("@MODE@", mode)).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
    path
}

const PEAK_LIMIT: u64 = 200 << 20;

#[test]
fn a_reply_is_read_only_as_far_as_its_case_allows_and_memory_stays_small() {
    let dir = tempdir();
    let node = big_case(dir.path());
    let tests = dir.path().join("edge");
    // What the escaped answers take: the longest legitimate reply's body.
    let legitimate = OPS * (2 + 6 * node.len() + 2);

    let (report, peak) = grade_measured(&program(dir.path(), "escaped"), &tests);
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "accepted", "{test}");
    assert!(
        peak < PEAK_LIMIT,
        "escaped answers: the grader peaked at {peak} bytes"
    );

    let (report, peak) = grade_measured(&program(dir.path(), "flood"), &tests);
    // Measured first: the bound's whole point.
    assert!(
        peak < PEAK_LIMIT,
        "a flooded line: the grader peaked at {peak} bytes"
    );
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "protocol-error", "{test}");
    let message = test["message"].as_str().unwrap();
    let bound: usize = message
        .split("grew past ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no bound named in {message:?}"));
    assert!(
        (legitimate..legitimate * 2).contains(&bound),
        "the bound {bound} is not between the longest legitimate reply ({legitimate}) and twice that"
    );
    assert!(message.contains("40000 operations"), "{message}");

    let (report, peak) = grade_measured(&program(dir.path(), "dense"), &tests);
    assert!(
        peak < PEAK_LIMIT,
        "a dense line: the grader peaked at {peak} bytes"
    );
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "protocol-error", "{test}");
    assert!(
        test["message"].as_str().unwrap().contains("JSON values"),
        "{test}"
    );
}
