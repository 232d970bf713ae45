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
    assert_eq!(got[3].1, "compile-error", "{sourceless}");
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

/// `entries` (name, bytes) as a zip archive at `path`, after `prefix`
/// (a zip appended to another file is still one Python imports from).
fn zip_at(path: &Path, prefix: &[u8], entries: &[(&str, &Path)]) {
    let script = "import io, sys, zipfile\n\
        out = io.BytesIO()\n\
        with zipfile.ZipFile(out, 'w') as z:\n\
        \x20   for name, file in zip(sys.argv[3::2], sys.argv[4::2]):\n\
        \x20       z.write(file, name)\n\
        open(sys.argv[1], 'wb').write(bytes.fromhex(sys.argv[2]) + out.getvalue())\n";
    let hex: String = prefix.iter().map(|b| format!("{b:02x}")).collect();
    let mut command = std::process::Command::new("python3");
    command.arg("-c").arg(script).arg(path).arg(hex);
    for (name, file) in entries {
        command.arg(name).arg(file);
    }
    assert!(command.status().unwrap().success());
}

/// Bytecode reached any other way than from the folder (an archive on
/// sys.path under any name, a zip appended to another file, zipimport or
/// SourcelessFileLoader called directly, a meta-path finder of the
/// learner's, marshal of a data file, a code object built from bytes,
/// or an import inside a method) never runs: each is the learner's
/// compile error naming the file and saying what to do. An archive that
/// holds the module's source beside its bytecode runs the source, as the
/// same files unpacked do; the interpreter's own modules imported after
/// loading still work.
#[test]
fn python_never_runs_bytecode_from_archives_or_loaders() {
    let dir = tempdir();
    let class = dir.path().join("class");
    let correct = example("submissions/python/correct_class.py");
    let wrong = example("submissions/python/first_node.py");
    let pyc = dir.path().join("correct.pyc");
    compile_unchecked(&correct, &pyc);
    let source = dir.path().join("wrong.py");
    std::fs::write(&source, &wrong).unwrap();
    let on_path = |archive: &str| {
        format!(
            "import os, sys\nsys.path.insert(0, os.path.join(os.path.dirname(__file__), {archive:?}))\nfrom solution import Router\n"
        )
    };
    let here = "import os, sys\nhere = os.path.dirname(__file__)\n";
    let students: Vec<(&str, &str, String)> = vec![
        ("both", "lib.zip", on_path("lib.zip")),
        ("zip", "lib.zip", on_path("lib.zip")),
        ("egg", "lib.egg", on_path("lib.egg")),
        ("whl", "lib-1.0-py3-none-any.whl", on_path("lib-1.0-py3-none-any.whl")),
        ("renamed", "notes.txt", on_path("notes.txt")),
        ("appended", "picture.png", on_path("picture.png")),
        (
            "zipimporter",
            "lib.zip",
            format!("{here}import zipimport\nRouter = zipimport.zipimporter(os.path.join(here, 'lib.zip')).load_module('solution').Router\n"),
        ),
        (
            "sourceless",
            "blob.bin",
            format!("{here}from importlib.machinery import SourcelessFileLoader\nimport importlib.util\nloader = SourcelessFileLoader('solution', os.path.join(here, 'blob.bin'))\nmodule = importlib.util.module_from_spec(importlib.util.spec_from_loader('solution', loader))\nloader.exec_module(module)\nRouter = module.Router\n"),
        ),
        (
            "marshal",
            "blob.bin",
            format!("{here}import marshal\nnames = {{}}\nexec(marshal.loads(open(os.path.join(here, 'blob.bin'), 'rb').read()[16:]), names)\nRouter = names['Router']\n"),
        ),
        (
            "meta-path",
            "blob.bin",
            format!("{here}import importlib.util, marshal\nclass Finder:\n    def find_spec(self, name, path, target=None):\n        return importlib.util.spec_from_loader(name, self) if name == 'solution' else None\n    def create_module(self, spec):\n        return None\n    def exec_module(self, module):\n        exec(marshal.loads(open(os.path.join(here, 'blob.bin'), 'rb').read()[16:]), module.__dict__)\nsys.meta_path.insert(0, Finder())\nfrom solution import Router\n"),
        ),
        (
            "in-a-method",
            "lib.zip",
            format!("{here}class Router:\n    def __init__(self, nodes):\n        sys.path.insert(0, os.path.join(here, 'lib.zip'))\n        from solution import Router\n        self.inner = Router(nodes)\n\n    def __getattr__(self, name):\n        return getattr(self.inner, name)\n"),
        ),
        (
            "code-object",
            "",
            "code = compile('class Router:\\n    pass\\n', 'x', 'exec').replace(co_name='other')\nnames = {}\nexec(code, names)\nRouter = names['Router']\n".to_owned(),
        ),
        (
            "stdlib",
            "",
            correct.replacen("class Router", "import fractions, statistics\n\n\nclass Router", 1),
        ),
    ];
    for (student, data, router) in &students {
        let folder = class.join(student);
        write(&folder, &[("router.py", router)]);
        let entries: &[(&str, &Path)] = match *student {
            "both" => &[("solution.py", &source), ("solution.pyc", &pyc)],
            _ => &[("solution.pyc", &pyc)],
        };
        match *data {
            "" => {}
            "blob.bin" => {
                std::fs::copy(&pyc, folder.join(data)).unwrap();
            }
            "picture.png" => zip_at(
                &folder.join(data),
                b"\x89PNG\r\n\x1a\nnot an image",
                entries,
            ),
            _ => zip_at(&folder.join(data), b"", entries),
        }
    }
    let (report, _) = grade(&dir.path().join("cache"), &class);
    for submission in report["submissions"].as_array().unwrap() {
        let name = submission["name"].as_str().unwrap();
        let verdict = submission["verdict"].as_str().unwrap();
        let message = submission["tests"][0]["message"]
            .as_str()
            .unwrap_or_default();
        let (_, data, _) = students.iter().find(|s| s.0 == name).unwrap();
        match name {
            "both" => assert_eq!(verdict, "wrong-answer", "{submission}"),
            "stdlib" => assert_eq!(verdict, "accepted", "{submission}"),
            _ => {
                assert_eq!(verdict, "compile-error", "{name}: {message}");
                assert!(
                    message.contains("is compiled code, which the grader does not run"),
                    "{name}: {message}"
                );
                assert!(
                    message.contains("submit the .py files themselves"),
                    "{name}: {message}"
                );
                // The file it came from, or where the learner's code read it.
                let named = match name {
                    "marshal" | "meta-path" | "code-object" => "(router.py, line ",
                    _ => data,
                };
                assert!(message.contains(named), "{name} names {named}: {message}");
            }
        }
    }
    assert_eq!(
        report["submissions"].as_array().unwrap().len(),
        students.len()
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

/// TypeScript as `tsc` accepts it: a file written in CommonJS's forms
/// (`import x = require()`, `export =`, `require`, `module.exports`,
/// `exports.X`) runs as tsc's default CommonJS output runs it, each form
/// on its own; ES module forms keep working, beside `require` and `import x
/// = require()` too (which tsc compiles alike); a file mixing an ES `export`
/// with `module.exports`, which means nothing in an ES module, is a compile
/// error saying which to use; and a class Router declared but not exported
/// is told to export it.
#[test]
fn typescript_runs_in_the_module_form_it_is_written_in() {
    let dir = tempdir();
    let class = dir.path().join("class");
    // The correct router, with nothing exported.
    let bare = example("submissions/typescript/correct.ts")
        .replace("export function h32", "function h32")
        .replace("export class Router", "class Router");
    assert!(!bare.contains("export "), "the example exports only these");
    let students = [
        (
            "import-equals",
            "import util = require(\"util\");\nvoid util.inspect;\nexport = Router;\n",
        ),
        ("export-equals", "export = Router;\n"),
        (
            "require",
            "const { inspect } = require(\"util\");\nvoid inspect;\nmodule.exports = { Router, h32 };\n",
        ),
        ("module-exports", "module.exports = Router;\n"),
        (
            "exports-dot",
            "exports.Router = Router;\nexports.h32 = h32;\n",
        ),
        (
            "es-module",
            "import { inspect } from \"util\";\nvoid inspect;\nexport { Router, h32 };\n",
        ),
        (
            "es-with-import-equals",
            "import util = require(\"util\");\nvoid util.inspect;\nexport { Router, h32 };\n",
        ),
        (
            "es-with-require",
            "import { inspect } from \"util\";\nconst { format } = require(\"util\");\nvoid inspect;\nvoid format;\nexport { Router, h32 };\n",
        ),
        ("mixed", "export { h32 };\nmodule.exports = { Router };\n"),
        ("not-exported", ""),
    ];
    for (student, tail) in students {
        write(
            &class.join(student),
            &[("router.ts", &format!("{bare}\n{tail}"))],
        );
    }
    let (report, _) = grade(&dir.path().join("cache"), &class);
    let got = verdicts(&report);
    let mut want: Vec<(&str, &str)> = students
        .iter()
        .map(|(student, _)| (*student, "accepted"))
        .collect();
    for (student, verdict) in want.iter_mut() {
        *verdict = match *student {
            "mixed" => "compile-error",
            "not-exported" => "runtime-error",
            _ => "accepted",
        };
    }
    want.sort();
    assert_eq!(got, pairs(&want), "{report}");
    let message = |name: &str| {
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap()["tests"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned()
    };
    let mixed = message("mixed");
    assert!(
        mixed.contains("an ES `export` in a file that also uses CommonJS's `module` or `exports`")
            && mixed.contains("export the ES way throughout"),
        "{mixed}"
    );
    let unexported = message("not-exported");
    assert!(
        unexported.contains(
            "router.ts declares class Router without exporting it: write `export class Router`"
        ),
        "{unexported}"
    );
}

/// ctypes as a router uses it (`c_uint32(x).value` for 32-bit wraparound)
/// works; the rest of it, which calls native code and writes memory where
/// no audit event sees it (a code object rebuilt through the C API, a
/// function called by address), is the learner's compile error naming the
/// line, whatever name it is loaded by.
#[test]
fn python_has_ctypes_integers_and_nothing_else_of_it() {
    let dir = tempdir();
    let class = dir.path().join("class");
    let integers = example("submissions/python/ctypes_integers.py");
    // Each with one line more after `import bisect` (line 6).
    let with =
        |line: &str| integers.replacen("import bisect\n", &format!("import bisect\n{line}\n"), 1);
    let students = [
        ("integers", integers.clone()),
        ("pythonapi", with("import ctypes as c\nc.pythonapi")),
        ("memmove", with("from ctypes import memmove")),
        (
            "underscore",
            with("__import__(\"importlib\").import_module(\"_ctypes\")"),
        ),
    ];
    for (student, source) in &students {
        write(&class.join(student), &[("router.py", source)]);
    }
    let (report, _) = grade(&dir.path().join("cache"), &class);
    let got = verdicts(&report);
    let want = pairs(&[
        ("integers", "accepted"),
        ("memmove", "compile-error"),
        ("pythonapi", "compile-error"),
        ("underscore", "compile-error"),
    ]);
    assert_eq!(got, want, "{report}");
    for student in ["pythonapi", "memmove", "underscore"] {
        let message = report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == student)
            .unwrap()["tests"][0]["message"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            message.contains("which the grader does not run")
                && message.contains(&format!(
                    "router.py, line {}",
                    if student == "pythonapi" { 8 } else { 7 }
                )),
            "{student}: {message}"
        );
    }
}
