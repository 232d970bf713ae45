//! Building submissions: how a Rust build that dies is reported, and what
//! becomes of what a build leaves in the cache (the grader's own files,
//! checked by their hash before every use, granted to their session alone).

use crate::support::{grader, json, output, root, tempdir, text, verdicts};
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

/// The artifacts (not their hash records or remembered errors) beneath the
/// cache folder `cache`.
fn artifacts(cache: &Path) -> Vec<PathBuf> {
    // The interpreters remembered are the grader's notes, not builds.
    let interpreters = cache.join("interpreters");
    let mut found: Vec<PathBuf> = files(cache)
        .into_iter()
        .filter(|f| {
            let name = f.to_string_lossy();
            !name.ends_with(".sha256")
                && !name.ends_with(".error.json")
                && !f.starts_with(&interpreters)
        })
        .collect();
    found.sort();
    found
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// A compiled Rust program and a transpiled TypeScript module are the
/// grader's own files (its uid, a fixed mode, their SHA-256 beside them),
/// whichever uid built them; one changed between two runs is built again,
/// never run, and the verdict is the submission's own.
#[test]
fn cached_artifacts_are_the_graders_own_and_a_changed_one_is_built_again() {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let dir = tempdir();
    let class = class(
        dir.path(),
        &[
            ("rust", "router.rs", example("submissions/rust/correct.rs")),
            (
                "ts",
                "router.ts",
                example("submissions/typescript/correct.ts"),
            ),
        ],
    );
    let cache = dir.path().join("cache");
    let mine = std::fs::metadata(&class).unwrap().uid();
    let run = |what: &str| {
        let out = grade(&cache, &class);
        assert_eq!(out.status.code(), Some(0), "{what}: {}", text(&out.stderr));
        let report: Value = json(&out);
        let cached: Vec<bool> = report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["build"]["cached"].as_bool().unwrap())
            .collect();
        cached
    };
    assert_eq!(run("first"), [false, false]);
    let stored = artifacts(&cache);
    assert_eq!(stored.len(), 2, "{stored:?}");
    for file in files(&cache) {
        let meta = std::fs::symlink_metadata(&file).unwrap();
        assert_eq!(meta.uid(), mine, "{} is not the grader's", file.display());
    }
    for (artifact, mode) in stored.iter().zip([0o755, 0o644]) {
        let meta = std::fs::metadata(artifact).unwrap();
        assert_eq!(
            meta.permissions().mode() & 0o7777,
            mode,
            "{}",
            artifact.display()
        );
        let record = std::fs::read_to_string(format!("{}.sha256", artifact.display())).unwrap();
        assert_eq!(record.trim(), sha256(&std::fs::read(artifact).unwrap()));
    }
    assert_eq!(run("again"), [true, true]);
    // Each replaced by something that would answer nothing right.
    std::fs::write(&stored[0], "#!/bin/sh\necho tampered\n").unwrap();
    std::fs::write(&stored[1], "throw new Error('tampered');\n").unwrap();
    assert_eq!(run("tampered"), [false, false], "built again, not run");
    assert_eq!(run("rebuilt"), [true, true]);
}

/// A Rust session is granted its own program, not the cache folder: it
/// finds nothing but its own program in the cache or in the folder its
/// program is in (where the cache lies under /tmp, the sandbox's private
/// /tmp holds that folder with the program alone; elsewhere listing it is
/// refused), and cannot read a classmate's compiled program, whose path it
/// is given.
#[test]
fn a_rust_session_cannot_list_the_cache_or_read_a_classmates_program() {
    let dir = tempdir();
    let cache = dir.path().join("cache");
    let first = class(
        dir.path(),
        &[(
            "a-classmate",
            "router.rs",
            example("submissions/rust/correct.rs"),
        )],
    );
    let out = grade(&cache, &first);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = json(&out);
    if report["sandbox"]["landlock"].is_null() {
        println!("SKIPPED: no Landlock here");
        return;
    }
    let classmate = artifacts(&cache).pop().expect("the classmate's program");
    let reader = format!(
        r#"// Looks through the cache for what is not its own, and answers every
// question with what it found: "blocked" when it found nothing.
const CACHE: &str = {cache:?};
const CLASSMATE: &str = {classmate:?};

fn look() -> Option<String> {{
    let mut found = Vec::new();
    let exe = std::env::current_exe().ok();
    let own = exe.as_ref().and_then(|p| p.file_name().map(|n| n.to_owned()));
    let here = exe.as_ref().and_then(|p| p.parent().map(|d| d.to_owned()));
    for folder in [Some(std::path::PathBuf::from(CACHE)), here].into_iter().flatten() {{
        if let Ok(entries) = std::fs::read_dir(&folder) {{
            let others: Vec<String> = entries
                .flatten()
                .map(|e| e.file_name())
                .filter(|n| Some(n) != own.as_ref())
                .map(|n| n.to_string_lossy().into_owned())
                .collect();
            if !others.is_empty() {{
                found.push(format!("listed {{}}: {{}}", folder.display(), others.join(", ")));
            }}
        }}
    }}
    if let Ok(bytes) = std::fs::read(CLASSMATE) {{
        found.push(format!("read the classmate's {{}} bytes", bytes.len()));
    }}
    (!found.is_empty()).then(|| found.join("; "))
}}

pub struct Router {{
    found: Option<String>,
}}

impl Router {{
    pub fn new(_nodes: Vec<String>) -> Router {{
        Router {{ found: look() }}
    }}
    pub fn route(&self, _key: &str) -> Option<String> {{
        Some(self.found.as_ref().map_or("blocked".to_owned(), |f| format!("leaked: {{f}}")))
    }}
    pub fn add(&mut self, _node: &str) {{}}
    pub fn remove(&mut self, _node: &str) {{}}
}}
"#,
        cache = cache.join("rust"),
    );
    let both = class(dir.path(), &[("b-reader", "router.rs", reader)]);
    let out = grade(&cache, &both);
    let report: Value = json(&out);
    let reader = &report["submissions"][1];
    assert_eq!(reader["name"], "b-reader", "{report}");
    assert_eq!(
        reader["tests"][0]["divergence"]["actual"], "blocked",
        "{reader}"
    );
    assert_eq!(report["submissions"][0]["verdict"], "accepted");
}

/// A challenge may pin the edition a Rust submission is built with: the
/// let-chains example, accepted under the default 2024, does not compile
/// under 2021.
#[test]
fn a_challenges_rust_edition_is_the_one_submissions_are_built_with() {
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    let copy = challenges.join("rendezvous-router");
    crate::support::copy_tree(&root().join("challenges/rendezvous-router"), &copy, |_| {
        true
    });
    let config = copy.join("challenge.toml");
    let mut text = std::fs::read_to_string(&config).unwrap();
    text.push_str("\n[rust]\nedition = \"2021\"\n");
    std::fs::write(&config, text).unwrap();
    let out = output(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--format", "json", "--cache-dir"])
            .arg(dir.path().join("cache"))
            .args(["--tests"])
            .arg(copy.join("tests/sample"))
            .arg(root().join("submissions/rust/let_chains.rs")),
    );
    let report: Value = json(&out);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "compile-error", "{s}");
    let message = s["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("only allowed in Rust 2024") && message.contains("let_chains.rs:"),
        "{message}"
    );
}

/// The compile errors remembered beneath the cache folder `cache`.
fn remembered_errors(cache: &Path) -> Vec<PathBuf> {
    files(cache)
        .into_iter()
        .filter(|f| f.to_string_lossy().ends_with(".error.json"))
        .collect()
}

/// The message of the first test of the first submission of a JSON report.
fn first_message(report: &Value) -> String {
    report["submissions"][0]["tests"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// An ordinary compile error (rustc's exit code 1, pointing at a line of
/// the learner's file) is remembered, and the next grading of the same
/// source takes it from the cache: what the cache holds is what it says.
#[test]
fn an_ordinary_compile_error_is_remembered_and_served_next_time() {
    let dir = tempdir();
    let class = class(
        dir.path(),
        &[(
            "student",
            "router.rs",
            example("submissions/rust/compile_error.rs"),
        )],
    );
    let cache = dir.path().join("cache");
    let out = grade(&cache, &class);
    let report: Value = json(&out);
    assert_eq!(report["submissions"][0]["verdict"], "compile-error");
    let message = first_message(&report);
    assert!(
        message.contains("mismatched types at router.rs:14:9"),
        "{message}"
    );
    let remembered = remembered_errors(&cache);
    assert_eq!(remembered.len(), 1, "{remembered:?}");
    // Marked, so that the next grading shows where its answer came from.
    let mut entry: Value = serde_json::from_slice(&std::fs::read(&remembered[0]).unwrap()).unwrap();
    let marked = format!("{} (remembered)", entry["message"].as_str().unwrap());
    entry["message"] = marked.clone().into();
    std::fs::write(&remembered[0], serde_json::to_vec(&entry).unwrap()).unwrap();
    let report: Value = json(&grade(&cache, &class));
    assert_eq!(report["submissions"][0]["verdict"], "compile-error");
    let message = first_message(&report);
    assert!(
        message.ends_with(&marked),
        "not served from the cache: {message}"
    );
}

/// A build that fails for the machine's reason (here a full disk: the
/// run's scratch folder, where rustc writes, on a 1 MiB tmpfs holds the
/// learner's crate but not the linked program, so the linker fails and
/// rustc reports that at no line of any file) is not remembered: the same
/// source graded again once there is room is accepted. Needs a mount
/// namespace of its own (root, or unprivileged user namespaces).
#[test]
fn a_build_the_machine_failed_is_not_remembered() {
    let dir = tempdir();
    let class = class(
        dir.path(),
        &[(
            "student",
            "router.rs",
            example("submissions/rust/correct.rs"),
        )],
    );
    let cache = dir.path().join("cache");
    let tiny = dir.path().join("tiny");
    std::fs::create_dir(&tiny).unwrap();
    // `$0` is the mount point, the rest the command to run under it.
    const MOUNTED: &str = r#"mount -t tmpfs -o size=1m,mode=1777 none "$0" || exit 97; exec "$@""#;
    let probe = std::process::Command::new("unshare")
        .args(["--mount", "--", "sh", "-c", MOUNTED])
        .arg(&tiny)
        .arg("true")
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        println!("SKIPPED: cannot mount a tmpfs in a mount namespace of its own here");
        return;
    }
    let mut full = std::process::Command::new("unshare");
    full.current_dir(root())
        .env("TMPDIR", &tiny)
        .args(["--mount", "--", "sh", "-c", MOUNTED])
        .arg(&tiny)
        .arg(env!("CARGO_BIN_EXE_grader"))
        .args(["grade", "--format", "json", "--jobs", "1", "--cache-dir"])
        .arg(&cache)
        .args(["--tests", SAMPLE])
        .arg(&class);
    let out = output(&mut full);
    let report: Value = json(&out);
    let message = first_message(&report);
    assert!(
        message.contains("linking with") && message.contains("failed"),
        "not the linker's failure on a full disk: {message}\n{}",
        text(&out.stderr)
    );
    // Told in rustc's words, not as a call the Router lacks.
    assert!(
        !message.contains("does not have what the grader calls"),
        "{message}"
    );
    assert_eq!(remembered_errors(&cache), Vec::<PathBuf>::new());
    assert_eq!(artifacts(&cache), Vec::<PathBuf>::new());
    // The tmpfs went with its namespace: nothing was written to the folder
    // beneath it.
    assert_eq!(files(&tiny), Vec::<PathBuf>::new());
    let out = grade(&cache, &class);
    let report: Value = json(&out);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{}", first_message(&report));
    assert_eq!(s["build"]["cached"], false);
}
