//! Shrunk reproducers: a handful of operations, and their snippets, run in
//! their language, fail against the wrong example and pass against a
//! correct one.

use serde_json::Value;
use std::path::Path;
use std::process::Command;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The suite without its large group: shrinking starts from the smallest
/// failing case anyway, and this keeps the test quick.
fn tests_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        for group in ["sample", "edge", "ties", "churn"] {
            let to = dir.path().join(group);
            std::fs::create_dir_all(&to).unwrap();
            for f in std::fs::read_dir(
                root()
                    .join("challenges/rendezvous-router/tests")
                    .join(group),
            )
            .unwrap()
            .flatten()
            {
                std::fs::copy(f.path(), to.join(f.file_name())).unwrap();
            }
        }
        dir
    })
    .path()
}

fn reproducer(submission: &str) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_grader"))
        .current_dir(root())
        .args(["grade", "--format", "json", "--tests"])
        .arg(tests_dir())
        .arg(submission)
        .output()
        .unwrap();
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    report["submissions"][0]["reproducer"].clone()
}

/// Runs `snippet` saved as `check` beside a copy of `module` named like the
/// wrong example; returns whether it passed.
fn passes(program: &str, check: &str, snippet: &str, module: &str, as_name: &str) -> bool {
    let dir = tempfile::tempdir().unwrap();
    // The module's siblings come along: some examples import one.
    let folder = root().join(module).parent().unwrap().to_owned();
    for f in std::fs::read_dir(folder).unwrap().flatten() {
        std::fs::copy(f.path(), dir.path().join(f.file_name())).unwrap();
    }
    std::fs::copy(root().join(module), dir.path().join(as_name)).unwrap();
    std::fs::write(dir.path().join(check), snippet).unwrap();
    Command::new(program)
        .arg(check)
        .current_dir(dir.path())
        .output()
        .unwrap()
        .status
        .success()
}

#[test]
fn reproducers_are_small_and_their_snippets_fail_the_bug_and_pass_the_fix() {
    let cases = [
        (
            "python3",
            "check.py",
            "submissions/python/lowest_score.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/first_maximum.py",
            "submissions/python/correct_solve.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/duplicate_membership.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/code_points.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/key_node_swapped.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/no_separator.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/wrong_separator.py",
            "submissions/python/correct_class.py",
        ),
        (
            "python3",
            "check.py",
            "submissions/python/modulo_hashing.py",
            "submissions/python/correct_class.py",
        ),
        (
            "node",
            "check.mjs",
            "submissions/javascript/byte_sum.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            "node",
            "check.mjs",
            "submissions/javascript/float_multiply.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            "node",
            "check.mjs",
            "submissions/javascript/utf16_units.js",
            "submissions/javascript/correct.cjs",
        ),
        (
            "node",
            "check.mjs",
            "submissions/javascript/signed_compare.js",
            "submissions/javascript/correct.cjs",
        ),
    ];
    let failures = std::sync::Mutex::new(Vec::new());
    let queue = std::sync::Mutex::new(cases.to_vec());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(case) = { queue.lock().unwrap().pop() } {
                    if let Err(why) = std::panic::catch_unwind(|| check_case(case)) {
                        let why = why.downcast_ref::<String>().cloned().unwrap_or_default();
                        failures.lock().unwrap().push(why);
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn check_case((program, check, wrong, right): (&str, &str, &str, &str)) {
    {
        let r = reproducer(wrong);
        let ops = r["case"][1]
            .as_array()
            .unwrap_or_else(|| panic!("{wrong}: no reproducer: {r}"));
        assert!(
            ops.len() <= 5,
            "{wrong}: {} operations is not a handful: {}",
            ops.len(),
            r["case"]
        );
        let snippet = r["snippet"].as_str().unwrap();
        let name = Path::new(wrong).file_name().unwrap().to_str().unwrap();
        // The solve API needs a Router: the correct solve module is not a
        // drop-in, so the fix is a class.
        let right = if right.ends_with("correct_solve.py") {
            "submissions/python/correct_class.py"
        } else {
            right
        };
        assert!(
            !passes(program, check, snippet, wrong, name),
            "{wrong}: the snippet passes against the bug:\n{snippet}"
        );
        assert!(
            passes(program, check, snippet, right, name),
            "{wrong}: the snippet fails against a fix:\n{snippet}"
        );
    }
}
