//! The operation a program says it was running (`op_index` in a progress
//! reply or an error) is repeated only when the case has it: past the
//! case's end it says nothing (`tests/fixtures/submissions/op_index/`).

use crate::support::{grader, json, output, tempdir};
use serde_json::Value;
use std::path::Path;

/// The one test's message when the fixture `program` runs as `name`
/// (which names the operation it claims) on a case of three routes.
fn message(dir: &Path, program: &str, name: &str) -> String {
    let tests = dir.join("tests/edge");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("three.json"),
        r#"[[["a","b"]],[["route","k0"],["route","k1"],["route","k2"]]]"#,
    )
    .unwrap();
    let file = dir.join(name);
    std::fs::copy(
        crate::support::root()
            .join("tests/fixtures/submissions/op_index")
            .join(program),
        &file,
    )
    .unwrap();
    let out = output(
        grader()
            .args([
                "grade",
                "--format",
                "json",
                "--time-limit",
                "300",
                "--tests",
            ])
            .arg(dir.join("tests"))
            .arg(&file),
    );
    let report: Value = json(&out);
    report["submissions"][0]["tests"][0]["message"]
        .as_str()
        .unwrap()
        .to_owned()
}

#[test]
fn an_operation_past_the_cases_end_is_not_repeated() {
    let dir = tempdir();
    let huge = "1000000000000000000";
    for (program, inside, past) in [
        ("spins_saying_op", "2", "3"),
        ("spins_saying_op", "0", huge),
        ("raises_at_op", "1", "3"),
        ("raises_at_op", "2", huge),
    ] {
        let said = message(dir.path(), program, &format!("{program}_{inside}"));
        let op = format!("k{inside}");
        assert!(
            said.contains(&format!("operation {inside} [\"route\",\"{op}\"]")),
            "{program} at {inside}: {said}"
        );
        let said = message(dir.path(), program, &format!("{program}_{past}"));
        assert!(
            !said.contains(&format!("operation {past}")),
            "{program} at {past}: {said}"
        );
    }
}
