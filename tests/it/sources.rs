//! What runs is what was submitted: a build is cached on every file its
//! crate may read, not its entry alone; Python runs its modules from their
//! source, never from bytecode beside them; an imported file changed
//! between two runs is what the second one runs; and the driver's
//! traceback of a deep recursion on a huge line stays the learner's
//! runtime error.

use crate::support::{grader, json, output, root, tempdir, text, verdicts};
use serde_json::Value;
use std::path::Path;

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// The JSON report of `grader grade --jobs 1 --cache-dir CACHE` of `path`
/// (graded in name order: a classmate's build is cached before the next
/// student's is looked up), and whether each submission's build was cached.
fn grade(cache: &Path, path: &Path) -> (Value, Vec<Option<bool>>) {
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--jobs", "1", "--cache-dir"])
        .arg(cache)
        .args(["--tests", SAMPLE])
        .arg(path);
    let out = output(&mut command);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
    let report: Value = json(&out);
    let cached = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["build"]["cached"].as_bool())
        .collect();
    (report, cached)
}

/// Writes each `(path, text)` beneath `dir`.
fn write(dir: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let path = dir.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
}

fn example(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

/// A `router.rs` identical to a classmate's, with other module files, is
/// built from its own files: never served the classmate's program. A
/// module changed between two runs is built again; nothing else is.
#[test]
fn a_rust_build_is_keyed_on_every_file_its_crate_reads() {
    let dir = tempdir();
    let class = dir.path().join("class");
    let correct = example("submissions/rust/correct.rs");
    // Its first node in name order for every key: wrong on every sample.
    let wrong = "pub struct Router { nodes: Vec<String> }\nimpl Router {\n    pub fn new(nodes: Vec<String>) -> Router { let mut nodes = nodes; nodes.sort(); nodes.dedup(); Router { nodes } }\n    pub fn route(&self, _key: &str) -> Option<String> { self.nodes.first().cloned() }\n    pub fn add(&mut self, node: &str) { if !self.nodes.iter().any(|n| n == node) { self.nodes.push(node.to_owned()); self.nodes.sort(); } }\n    pub fn remove(&mut self, node: &str) { self.nodes.retain(|n| n != node); }\n}\n";
    let entry = "mod solution;\npub use solution::*;\n";
    write(
        &class,
        &[
            ("a-classmate/router.rs", entry),
            ("a-classmate/solution.rs", &correct),
            ("b-module/router.rs", entry),
            ("b-module/solution.rs", wrong),
            // `solution/mod.rs` and a module nested in it.
            ("c-nested/router.rs", entry),
            (
                "c-nested/solution/mod.rs",
                "mod inner;\npub use inner::*;\n",
            ),
            ("c-nested/solution/inner.rs", wrong),
        ],
    );
    let cache = dir.path().join("cache");
    let (report, cached) = grade(&cache, &class);
    assert_eq!(
        verdicts(&report),
        pairs(&[
            ("a-classmate", "accepted"),
            ("b-module", "wrong-answer"),
            ("c-nested", "wrong-answer"),
        ])
    );
    assert_eq!(cached, [Some(false); 3]);
    // The one imported file fixed (not as the classmate's, which would
    // share its build): that build alone is made again.
    let fixed = format!("// Fixed.\n{correct}");
    write(&class, &[("b-module/solution.rs", &fixed)]);
    let (report, cached) = grade(&cache, &class);
    assert_eq!(
        verdicts(&report),
        pairs(&[
            ("a-classmate", "accepted"),
            ("b-module", "accepted"),
            ("c-nested", "wrong-answer"),
        ])
    );
    assert_eq!(cached, [Some(true), Some(false), Some(true)]);
}

/// Python's cache tag (`cpython-311`), which names its bytecode files.
fn cache_tag() -> String {
    let out = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.implementation.cache_tag)"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// The suffix of Python's own extension modules
/// (`.cpython-311-x86_64-linux-gnu.so`).
fn extension_suffix() -> String {
    let out = std::process::Command::new("python3")
        .args([
            "-c",
            "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))",
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_owned()
}

/// Compiles the Python source `text` into `pyc` as bytecode Python loads
/// without ever comparing it with a source (unchecked hash).
fn compile_unchecked(text: &str, pyc: &Path) {
    let dir = tempdir();
    let source = dir.path().join("source.py");
    std::fs::write(&source, text).unwrap();
    std::fs::create_dir_all(pyc.parent().unwrap()).unwrap();
    let status = std::process::Command::new("python3")
        .arg("-c")
        .arg(
            "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], \
             doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)",
        )
        .arg(&source)
        .arg(pyc)
        .status()
        .unwrap();
    assert!(status.success());
}

/// Bytecode compiled from a correct module, beside a wrong source (in
/// `__pycache__`, for the entry, an imported module or a package's
/// module), or without a source at all, is never what runs: the source
/// is, a sourceless `.pyc` is refused by name, and an extension module
/// does not shadow the source of the same name.
#[test]
fn python_runs_its_sources_never_bytecode_beside_them() {
    let dir = tempdir();
    let class = dir.path().join("class");
    let correct = example("submissions/python/correct_class.py");
    let wrong = example("submissions/python/first_node.py");
    let tag = cache_tag();
    let imports = "from solution import Router\n";
    write(
        &class,
        &[
            ("a-entry/router.py", &wrong),
            ("b-module/router.py", imports),
            ("b-module/solution.py", &wrong),
            ("c-package/router.py", imports),
            (
                "c-package/solution/__init__.py",
                "from .impl import Router\n",
            ),
            ("c-package/solution/impl.py", &wrong),
            ("d-sourceless/router.py", imports),
            ("e-extension/router.py", imports),
            ("e-extension/solution.py", &wrong),
        ],
    );
    // An extension module (here not even one) is taken before the source
    // of the same name by Python's own finder: the source runs instead.
    let extension = format!("e-extension/solution{}", extension_suffix());
    write(&class, &[(&extension, "not a shared object")]);
    for pyc in [
        format!("a-entry/__pycache__/router.{tag}.pyc"),
        format!("b-module/__pycache__/solution.{tag}.pyc"),
        format!("c-package/solution/__pycache__/impl.{tag}.pyc"),
        "d-sourceless/solution.pyc".to_owned(),
    ] {
        compile_unchecked(&correct, &class.join(pyc));
    }
    let (report, _) = grade(&dir.path().join("cache"), &class);
    let got = verdicts(&report);
    assert_eq!(
        got[..3],
        pairs(&[
            ("a-entry", "wrong-answer"),
            ("b-module", "wrong-answer"),
            ("c-package", "wrong-answer"),
        ])[..]
    );
    let sourceless = &report["submissions"][3];
    assert_eq!(got[3].0, "d-sourceless");
    assert_ne!(got[3].1, "accepted", "{sourceless}");
    let message = sourceless["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("solution.pyc is compiled code") && message.contains("solution.py"),
        "{message}"
    );
    // Nothing was written beside the sources either.
    let written = walkdir::WalkDir::new(&class)
        .into_iter()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".pyc"))
        .count();
    assert_eq!(written, 4);
    assert_eq!(
        got[4],
        ("e-extension".to_owned(), "wrong-answer".to_owned()),
        "{}",
        report["submissions"][4]
    );
}

/// A module imported by the entry and changed between two runs with one
/// cache is what the second run runs (Python and JavaScript keep no build;
/// this holds them to it).
#[test]
fn an_imported_module_changed_between_runs_is_run_changed() {
    let dir = tempdir();
    let class = dir.path().join("class");
    let correct_py = example("submissions/python/correct_class.py");
    let wrong_py = example("submissions/python/first_node.py");
    let correct_js = example("submissions/javascript/correct.cjs");
    let wrong_js = "class Router { constructor(n) { this.n = [...n].sort(); } route() { return this.n[0] ?? null; } add(x) { this.n.push(x); this.n.sort(); } remove(x) { this.n = this.n.filter((y) => y !== x); } }\nmodule.exports = { Router };\n";
    write(
        &class,
        &[
            (
                "js/router.cjs",
                "module.exports = require('./solution.cjs');\n",
            ),
            ("js/solution.cjs", &correct_js),
            ("py/router.py", "from solution import Router\n"),
            ("py/solution.py", &correct_py),
        ],
    );
    let cache = dir.path().join("cache");
    let (report, _) = grade(&cache, &class);
    assert_eq!(
        verdicts(&report),
        pairs(&[("js", "accepted"), ("py", "accepted")])
    );
    write(
        &class,
        &[("js/solution.cjs", wrong_js), ("py/solution.py", &wrong_py)],
    );
    let (report, _) = grade(&cache, &class);
    assert_eq!(
        verdicts(&report),
        pairs(&[("js", "wrong-answer"), ("py", "wrong-answer")])
    );
}

/// An exception at the bottom of a recursion 50,000 deep, on a line of a
/// megabyte, is the learner's runtime error with a trimmed traceback: the
/// driver's building of it never spends the CPU limit.
#[test]
fn a_deep_recursion_on_a_huge_line_is_a_runtime_error_with_a_trimmed_traceback() {
    let dir = tempdir();
    let pad = "x".repeat(1 << 20);
    let source = format!(
        "import sys\nsys.setrecursionlimit(100000)\n\n\ndef down(n): return down(n - 1) if n else {{}}[\"bottom\"]  # {pad}\n\n\nclass Router:\n    def __init__(self, nodes):\n        pass\n\n    def route(self, key):\n        return down(50000)\n"
    );
    let file = dir.path().join("router.py");
    std::fs::write(&file, source).unwrap();
    let mut command = grader();
    command
        .args([
            "grade",
            "--format",
            "json",
            "--time-limit",
            "4000",
            "--tests",
        ])
        .arg(SAMPLE)
        .arg(&file);
    let out = output(&mut command);
    let report: Value = json(&out);
    let submission = &report["submissions"][0];
    assert_eq!(submission["verdict"], "runtime-error", "{submission}");
    let test = &submission["tests"][0];
    let traceback = test["error"]["traceback"].as_str().unwrap_or_default();
    let message = test["message"].as_str().unwrap_or_default();
    assert!(message.contains("KeyError"), "{message}");
    assert!(traceback.len() <= 16_384, "{} bytes", traceback.len());
    assert!(traceback.contains("outer frames left out"), "{traceback}");
    assert!(
        traceback.contains("router.py\", line 5, in down"),
        "{traceback}"
    );
}

/// Without the sandbox's walls a crate may read a file anywhere
/// (`include_str!` of an absolute path): a build that read a file outside
/// its folder is never cached, so a change there is what the next run
/// runs.
#[test]
fn a_rust_build_that_read_a_file_outside_its_folder_is_not_cached() {
    let dir = tempdir();
    let outside = dir.path().join("outside.txt");
    let student = dir.path().join("student");
    let source = format!(
        "const NODE: &str = include_str!({outside:?});\npub struct Router;\nimpl Router {{\n    pub fn new(_nodes: Vec<String>) -> Router {{ Router }}\n    pub fn route(&self, _key: &str) -> Option<String> {{ Some(NODE.trim().to_owned()) }}\n    pub fn add(&mut self, _node: &str) {{}}\n    pub fn remove(&mut self, _node: &str) {{}}\n}}\n"
    );
    write(&student, &[("router.rs", &source)]);
    let cache = dir.path().join("cache");
    let run = |node: &str| {
        std::fs::write(&outside, node).unwrap();
        let mut command = grader();
        command
            .args(["grade", "--no-sandbox", "--format", "json", "--cache-dir"])
            .arg(&cache)
            .args(["--tests", SAMPLE])
            .arg(student.join("router.rs"));
        let report: Value = json(&output(&mut command));
        let submission = &report["submissions"][0];
        (
            submission["tests"][0]["divergence"]["actual"].clone(),
            submission["build"]["cached"].clone(),
        )
    };
    assert_eq!(run("first"), (Value::from("first"), Value::from(false)));
    assert_eq!(run("second"), (Value::from("second"), Value::from(false)));
}
