//! How the Python driver starts, at the least cost an interpreter start
//! allows. It runs with `-S` and does site's work itself, leaving the code
//! lines of `.pth` files for the first import that needs them: the folders
//! a learner's module imports from must be exactly those of a normal
//! start, and what the code lines install (an editable install's import
//! hook) must still be found. And it imports no module of the standard
//! library that costs anything (json, re, threading, traceback): a
//! learner's file of such a name is theirs, and their tracebacks still
//! show each line as written.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// A virtual environment made by `python3 -m venv` in `dir`, with or
/// without the base installation's site-packages, and its site-packages.
fn venv(dir: &Path, name: &str, system_site: bool) -> (PathBuf, PathBuf) {
    let venv = dir.join(name);
    let mut make = Command::new("python3");
    make.args(["-m", "venv", "--without-pip"]);
    if system_site {
        make.arg("--system-site-packages");
    }
    let made = make.arg(&venv).output().unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    let python = venv.join("bin/python3");
    let site = Command::new(&python)
        .args(["-c", "import site; print(site.getsitepackages()[0])"])
        .output()
        .unwrap();
    let site = PathBuf::from(text(&site.stdout).trim());
    assert!(site.starts_with(&venv), "{}", site.display());
    (python, site)
}

/// Puts in `site` a `.pth` file of every kind of line: a comment, a
/// folder relative to `site` and one absolute, one missing, and a code
/// line that leaves a mark on `sys`, as certifi's and coverage's do.
fn plant_pth_files(site: &Path, extra: &Path) {
    std::fs::create_dir_all(site.join("relative_dir")).unwrap();
    std::fs::create_dir_all(extra).unwrap();
    std::fs::write(
        site.join("zz_every_kind.pth"),
        format!(
            "# a comment\nrelative_dir\n{}\nmissing_dir\n\nimport sys; sys.pth_code_ran = True\n",
            extra.display()
        ),
    )
    .unwrap();
}

/// `sys.path` after a normal start, and after a `-S` start and the
/// driver's `SiteOnDemand.start()`, with whether the code line ran in each.
fn paths_both_ways(python: &Path) -> (Value, Value) {
    let driver = root().join("drivers/python_driver.py");
    let normal = Command::new(python)
        .args(["-B", "-s", "-X", "utf8", "-c"])
        .arg("import json, sys; print(json.dumps([sys.path, hasattr(sys, 'pth_code_ran')]))")
        .output()
        .unwrap();
    assert!(normal.status.success(), "{}", text(&normal.stderr));
    let on_demand = Command::new(python)
        .args(["-B", "-s", "-S", "-X", "utf8", "-c"])
        .arg(format!(
            "import importlib.util, json, sys\n\
             spec = importlib.util.spec_from_file_location('driver', {driver:?})\n\
             driver = importlib.util.module_from_spec(spec)\n\
             spec.loader.exec_module(driver)\n\
             driver.SiteOnDemand.start()\n\
             print(json.dumps([sys.path, hasattr(sys, 'pth_code_ran')]))"
        ))
        .output()
        .unwrap();
    assert!(on_demand.status.success(), "{}", text(&on_demand.stderr));
    let read = |out: &std::process::Output| -> Value {
        serde_json::from_str(text(&out.stdout).trim()).unwrap()
    };
    (read(&normal), read(&on_demand))
}

#[test]
fn the_driver_adds_the_folders_a_normal_start_adds_in_its_order() {
    let dir = tempdir();
    let (isolated, isolated_site) = venv(dir.path(), "isolated", false);
    let (shared, shared_site) = venv(dir.path(), "shared", true);
    plant_pth_files(&isolated_site, &dir.path().join("extra-isolated"));
    plant_pth_files(&shared_site, &dir.path().join("extra-shared"));
    for python in [PathBuf::from("python3"), isolated, shared] {
        let (normal, on_demand) = paths_both_ways(&python);
        // The first is the script's folder, added after site runs in a
        // normal start (`-c`'s "" here) and made absolute by a late site.
        let folders = &normal[0].as_array().unwrap()[1..];
        assert_eq!(
            folders,
            &on_demand[0].as_array().unwrap()[1..],
            "{}",
            python.display()
        );
        assert!(
            folders
                .iter()
                .any(|f| f.as_str().unwrap().ends_with("site-packages")),
            "a normal start of {} adds a site-packages: {normal}",
            python.display()
        );
        if python.is_absolute() {
            for planted in ["relative_dir", "extra-"] {
                assert!(
                    folders
                        .iter()
                        .any(|f| f.as_str().unwrap().contains(planted)),
                    "{planted} of the .pth file: {normal}"
                );
            }
            assert_eq!(normal[1], true, "a normal start runs the code line");
            assert_eq!(
                on_demand[1], false,
                "the driver waits until an import needs it"
            );
        }
    }
}

/// An editable install as setuptools makes one: a `.pth` code line that
/// puts a finder on `sys.meta_path`, the package's source elsewhere. A
/// submission importing it is graded as with a normal start.
#[test]
fn a_package_found_only_by_a_pth_files_code_still_imports() {
    let dir = tempdir();
    // The sandbox's uid must be able to reach the environment.
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    let (python, site) = venv(dir.path(), "venv", false);
    // Inside the environment, which the sandbox lets sessions read; not
    // on any folder of sys.path.
    let source = site.join("editable_source");
    std::fs::create_dir_all(&source).unwrap();
    std::fs::write(
        source.join("fnv_helpers.py"),
        "def fnv(data, h=2166136261):\n    for b in data:\n        h = ((h ^ b) * 16777619) & 0xFFFFFFFF\n    return h\n",
    )
    .unwrap();
    std::fs::write(
        site.join("__editable___fnv_helpers_finder.py"),
        format!(
            "import importlib.util, sys\n\
             class Finder:\n\
             \x20   @staticmethod\n\
             \x20   def find_spec(name, path=None, target=None):\n\
             \x20       if name == 'fnv_helpers':\n\
             \x20           return importlib.util.spec_from_file_location(name, {:?})\n\
             \x20       return None\n\
             def install():\n\
             \x20   sys.meta_path.append(Finder)\n",
            source.join("fnv_helpers.py").display().to_string()
        ),
    )
    .unwrap();
    std::fs::write(
        site.join("__editable__.fnv_helpers-1.0.pth"),
        "import __editable___fnv_helpers_finder; __editable___fnv_helpers_finder.install()\n",
    )
    .unwrap();
    let correct = std::fs::read_to_string(root().join("submissions/python/correct_class.py"))
        .unwrap()
        .replace(
            "def _fnv(data, h=2166136261):",
            "from fnv_helpers import fnv as _fnv\n\n\ndef _unused(data, h=2166136261):",
        );
    let graded = graded(dir.path(), correct.as_bytes(), &[], Some(&python));
    assert_eq!(graded["verdict"], "accepted", "{graded}");
}

/// Grades the module `router.py` in a new folder of `dir` (with `beside`,
/// other files of the folder) on the samples, on `python` if given; the
/// report's submission.
fn graded(dir: &Path, source: &[u8], beside: &[(&str, &str)], python: Option<&Path>) -> Value {
    let folder = dir.join("student");
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("router.py"), source).unwrap();
    for (name, text) in beside {
        std::fs::write(folder.join(name), text).unwrap();
    }
    let mut command = grader();
    if let Some(python) = python {
        command.env("GRADER_PYTHON", python);
    }
    let out = output(
        command
            .args([
                "grade",
                "--format",
                "json",
                "--tests",
                SAMPLE,
                "--cache-dir",
            ])
            .arg(dir.join("cache"))
            .arg(folder.join("router.py")),
    );
    let report: Value = json(&out);
    report["submissions"][0].clone()
}

/// A learner's helper named like a module of the standard library is the
/// module their import finds, as when they run their file themselves: the
/// driver imported json and re before their folder went on sys.path, and
/// their `import json` was given the standard one.
#[test]
fn a_learners_module_named_like_one_of_the_standard_library_is_theirs() {
    let dir = tempdir();
    let correct = std::fs::read_to_string(root().join("submissions/python/correct_class.py"))
        .unwrap()
        .replace(
            "def _fnv(data, h=2166136261):",
            "import json\nimport re\n\n\ndef _fnv(data, h=json.OFFSET + re.ZERO):",
        );
    let graded = graded(
        dir.path(),
        correct.as_bytes(),
        &[
            ("json.py", "OFFSET = 2166136261\n"),
            ("re.py", "ZERO = 0\n"),
        ],
        None,
    );
    assert_eq!(graded["verdict"], "accepted", "{graded}");
}

/// The traceback shows the line that raised as the learner wrote it,
/// counted as Python counts lines: a form feed and a U+2028 in a string
/// before it end no line.
#[test]
fn a_traceback_shows_the_line_as_written_counted_as_python_counts() {
    let dir = tempdir();
    let source = "class Router:\n    def __init__(self, nodes):\n        self.note = \"a\u{2028}b\"\n\u{c}\n    def route(self, key):\n        raise ValueError(\"caf\u{e9}\")  # the \u{e9} line\n";
    let graded = graded(dir.path(), source.as_bytes(), &[], None);
    let error = &graded["tests"][0]["error"];
    assert_eq!(graded["verdict"], "runtime-error", "{graded}");
    assert_eq!(error["message"], "caf\u{e9}", "{error}");
    assert_eq!(error["line"], 6, "{error}");
    let traceback = error["traceback"].as_str().unwrap();
    assert!(
        traceback
            .contains("line 6, in route\n    raise ValueError(\"caf\u{e9}\")  # the \u{e9} line"),
        "{traceback}"
    );
}

/// The driver's JSON from the C accelerator alone, and from the json
/// package where the accelerator cannot be imported: both write exactly
/// what `json.dumps(value, ensure_ascii=False, separators=(",", ":"),
/// allow_nan=False)` writes, refuse what it refuses, and read back what
/// they wrote.
#[test]
fn the_drivers_json_is_the_json_packages() {
    let driver = root().join("drivers/python_driver.py");
    let check = format!(
        "import importlib.util, json, sys\n\
         if sys.argv[1] == 'package':\n\
         \x20   sys.modules['_json'] = None\n\
         spec = importlib.util.spec_from_file_location('driver', {driver:?})\n\
         driver = importlib.util.module_from_spec(spec)\n\
         spec.loader.exec_module(driver)\n\
         values = [0, -1, 2**70, 1.5, 1e300, -0.0, True, None, '', 'caf\\u00e9 \\u2028 \\U0001F600 \\\\ \"', '\\x00\\x1f',\n\
         \x20         [], {{}}, {{'k': [1, {{'n': None}}]}}, {{'\\u00e9': 'x'}}, (1, 2)]\n\
         for value in values:\n\
         \x20   expected = json.dumps(value, ensure_ascii=False, separators=(',', ':'), allow_nan=False)\n\
         \x20   assert driver.dumps(value) == expected, (value, driver.dumps(value), expected)\n\
         \x20   assert driver.loads(' ' + expected + '\\n') == json.loads(expected), value\n\
         cycle = []\n\
         cycle.append(cycle)\n\
         for bad, error in [(float('nan'), ValueError), (float('inf'), ValueError), ({{1j}}, TypeError),\n\
         \x20                  (object(), TypeError), ({{(1, 2): 3}}, TypeError), (cycle, ValueError)]:\n\
         \x20   try:\n\
         \x20       driver.dumps(bad)\n\
         \x20   except error:\n\
         \x20       pass\n\
         \x20   else:\n\
         \x20       raise AssertionError(repr(bad))\n\
         for text in ['', '[1', '[1] 2', '{{\"a\":}}']:\n\
         \x20   try:\n\
         \x20       driver.loads(text)\n\
         \x20   except ValueError:\n\
         \x20       pass\n\
         \x20   else:\n\
         \x20       raise AssertionError(text)\n\
         print('package' if driver.dumps.__name__ == '<lambda>' else 'accelerator')\n"
    );
    for way in ["accelerator", "package"] {
        let out = Command::new("python3")
            .args(["-B", "-s", "-S", "-X", "utf8", "-c", &check, way])
            .output()
            .unwrap();
        assert!(out.status.success(), "{way}: {}", text(&out.stderr));
        assert_eq!(
            text(&out.stdout).trim(),
            way,
            "the {way} was not the one used"
        );
    }
}

/// Every Python 3.7 or later this machine has: `python3`, the
/// `python3.N` on PATH, and pyenv's versions (whose bytecode and audit
/// events differ from one version to the next).
fn pythons() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut consider = |python: PathBuf| {
        let Ok(out) = Command::new(&python)
            .args([
                "-c",
                "import sys; print(sys.version_info >= (3, 7)); print(sys.executable)",
            ])
            .output()
        else {
            return;
        };
        let said = text(&out.stdout);
        let mut lines = said.lines();
        if lines.next() != Some("True") {
            return;
        }
        let real = std::fs::canonicalize(lines.next().unwrap_or_default()).unwrap_or(python);
        if !found.contains(&real) {
            found.push(real);
        }
    };
    consider(PathBuf::from("python3"));
    for minor in 7..=14 {
        consider(PathBuf::from(format!("python3.{minor}")));
    }
    let pyenv = std::env::var_os("PYENV_ROOT")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".pyenv")));
    if let Some(Ok(versions)) = pyenv.map(|p| std::fs::read_dir(p.join("versions"))) {
        for version in versions.flatten() {
            consider(version.path().join("bin/python3"));
        }
    }
    found
}

/// The driver lets through the interpreter's own bytecode and nothing
/// else, on every Python it may meet: 3.8 audits each code object of an
/// import's bytecode as `code.__new__` (and no `marshal.loads`), which
/// once made every correct submission importing the standard library a
/// `compile-error` there.
#[test]
fn every_python_here_runs_the_standard_library_and_refuses_bytecode() {
    let pythons = pythons();
    assert!(!pythons.is_empty(), "no python3 found");
    let dir = tempdir();
    let correct = dir.path().join("importing");
    std::fs::create_dir(&correct).unwrap();
    // Modules the driver does not import itself: their bytecode is read
    // from the interpreter's cache, as a learner's import reads it.
    let source =
        std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    std::fs::write(
        correct.join("router.py"),
        format!("import bisect, colorsys, fractions, heapq, statistics\n{source}"),
    )
    .unwrap();
    let bytecode = root().join("submissions/hostile/lang_marshal_bytecode.py");
    let mut ran = Vec::new();
    for python in &pythons {
        let out = output(
            grader()
                .env("GRADER_PYTHON", python)
                .args(["grade", "--format", "json", "--tests", SAMPLE])
                .arg(correct.join("router.py"))
                .arg(&bytecode),
        );
        let report: Value = json(&out);
        let verdicts: Vec<&str> = report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s["verdict"].as_str().unwrap())
            .collect();
        assert_eq!(
            verdicts,
            ["accepted", "compile-error"],
            "{}: {}",
            python.display(),
            report["submissions"]
        );
        ran.push(python.display().to_string());
    }
    eprintln!("graded with {}", ran.join(", "));
}
