//! Building submissions: how a Rust build that dies is reported, and what
//! becomes of what a build leaves in the cache (the grader's own files,
//! checked by their hash before every use, granted to their session alone).

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// `grader grade --format json --jobs 1 --cache-dir CACHE --tests SAMPLE
/// PATH`: graded in name order, so a classmate's artifact is in the cache
/// before the next student runs.
fn grade(cache: &Path, path: &Path) -> Output {
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--jobs", "1", "--cache-dir"])
        .arg(cache)
        .args(["--tests", SAMPLE])
        .arg(path);
    output(&mut command)
}

/// A class folder in `dir` with one student folder per `(name, file, text)`.
fn class(dir: &Path, students: &[(&str, &str, String)]) -> PathBuf {
    let class = dir.join("class");
    for (student, file, text) in students {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::write(class.join(student).join(file), text).unwrap();
    }
    class
}

fn example(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

/// `(name, verdict)` of every submission in `report`.
fn verdicts(report: &Value) -> Vec<(String, String)> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["verdict"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// Every file beneath `dir`.
fn files(dir: &Path) -> Vec<PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect()
}

/// A static array whose constant LLVM cannot hold within the compiler's
/// 4 GiB (rustc's LLVM reports "out of memory" and aborts): that
/// submission's compile error naming the limit, the class graded, and the
/// failure not remembered, so that a later run compiles it again.
#[test]
fn a_rust_build_out_of_memory_is_that_submissions_compile_error() {
    let dir = tempdir();
    let huge = format!(
        "{}\n#[used]\npub static BIG: [u8; 1 << 29] = [1; 1 << 29];\n",
        example("submissions/rust/correct.rs")
    );
    let class = class(
        dir.path(),
        &[
            ("a-huge", "router.rs", huge),
            (
                "b-fine",
                "router.rs",
                example("submissions/rust/correct.rs"),
            ),
        ],
    );
    let cache = dir.path().join("cache");
    for run in ["first", "second"] {
        let out = grade(&cache, &class);
        assert_eq!(out.status.code(), Some(1), "{run}: {}", text(&out.stderr));
        let report: Value = json(&out);
        assert_eq!(
            verdicts(&report),
            [
                ("a-huge".to_owned(), "compile-error".to_owned()),
                ("b-fine".to_owned(), "accepted".to_owned())
            ],
            "{run}"
        );
        let message = report["submissions"][0]["tests"][0]["message"]
            .as_str()
            .unwrap();
        assert!(
            message.contains(
                "router.rs could not be compiled: the compiler ran out of its 4096 MiB memory limit"
            ),
            "{run}: {message}"
        );
        let remembered: Vec<PathBuf> = files(&cache)
            .into_iter()
            .filter(|f| f.to_string_lossy().ends_with(".error.json"))
            .collect();
        assert!(remembered.is_empty(), "{run}: {remembered:?}");
    }
}
