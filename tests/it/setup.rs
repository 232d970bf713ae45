//! Problems of the grader's own setup (paths, folders, interpreters) and
//! of one student's file: found and named as what they are, never shown
//! as a learner's verdict on a correct submission, and never stopping the
//! class.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// Each student's verdict in a JSON report, with its first test's message.
fn verdicts(report: &Value) -> Vec<(String, String, String)> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap().to_owned(),
                s["verdict"].as_str().unwrap().to_owned(),
                s["tests"][0]["message"].as_str().unwrap_or("").to_owned(),
            )
        })
        .collect()
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// A class of correct submissions, one per language, each in `class`.
fn correct_class(class: &Path, rust: bool) {
    let mut students = vec![
        ("py", "router.py", "submissions/python/correct_class.py"),
        ("cjs", "router.cjs", "submissions/javascript/correct.cjs"),
        ("mjs", "router.mjs", "submissions/javascript/correct.mjs"),
        ("ts", "router.ts", "submissions/typescript/correct.ts"),
    ];
    if rust {
        students.push(("rs", "router.rs", "submissions/rust/correct.rs"));
    }
    for (student, file, example) in students {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(root().join(example), class.join(student).join(file)).unwrap();
    }
}

fn all_accepted(out: &std::process::Output, expected: usize) {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = json(out);
    let found = verdicts(&report);
    assert_eq!(found.len(), expected, "{found:?}");
    for (name, verdict, message) in found {
        assert_eq!(verdict, "accepted", "{name}: {message}");
    }
}

#[test]
fn a_relative_cache_and_paths_work_from_any_folder() {
    let dir = tempdir();
    correct_class(&dir.path().join("class"), true);
    let sample = dir.path().join("hidden/sample");
    crate::support::copy_tree(&root().join(SAMPLE), &sample, |_| true);
    let mut command = grader();
    command.current_dir(dir.path()).args([
        "grade",
        "--challenges",
        root().join("challenges").to_str().unwrap(),
        "--format",
        "json",
        "--cache-dir",
        "cache",
        "--tests",
        "hidden",
        "--results",
        "results",
        "class",
    ]);
    let out = output(&mut command);
    all_accepted(&out, 5);
    assert!(dir.path().join("cache").is_dir());
    // Once more, from the cache a relative path named.
    let out = output(&mut command);
    all_accepted(&out, 5);
}

#[test]
fn submissions_in_folders_only_their_owner_may_enter_are_graded() {
    // As mktemp -d makes them: the folder 0700, its files 0600, inside
    // /tmp and under a 0700 folder outside it. Root reads them; a
    // sandbox's uid could not, until it is given a copy.
    let in_tmp = tempdir();
    let outside = tempfile::tempdir_in(root().join("target")).unwrap();
    for (base, rust) in [(in_tmp.path(), true), (outside.path(), false)] {
        let class = base.join("class");
        correct_class(&class, rust);
        for student in std::fs::read_dir(&class).unwrap().flatten() {
            for file in std::fs::read_dir(student.path()).unwrap().flatten() {
                chmod(&file.path(), 0o600);
            }
            chmod(&student.path(), 0o700);
        }
        chmod(base, 0o700);
        let mut command = grader();
        command
            .args([
                "grade",
                "--format",
                "json",
                "--tests",
                SAMPLE,
                "--cache-dir",
            ])
            .arg(base.join("cache"))
            .arg(&class);
        all_accepted(&output(&mut command), if rust { 5 } else { 4 });
    }
    // One file named on the command line, directly in a private folder.
    let file = in_tmp.path().join("router.py");
    std::fs::copy(root().join("submissions/python/correct_class.py"), &file).unwrap();
    chmod(&file, 0o600);
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--tests", SAMPLE])
        .arg(&file);
    all_accepted(&output(&mut command), 1);
}

/// A correct executable larger than a copy's budget for a folder (64 MiB:
/// a statically linked program with its data, here a script padded with a
/// comment), in a folder only its owner may enter: its copy holds the
/// entry whatever the rest costs.
#[test]
fn a_large_executable_in_a_closed_folder_is_copied_whole() {
    let dir = tempdir();
    let student = dir.path().join("big");
    std::fs::create_dir_all(&student).unwrap();
    let mut program = std::fs::read(root().join("submissions/executable/router")).unwrap();
    program.extend_from_slice(b"\n# ");
    program.resize(program.len() + (70 << 20), b'x');
    program.push(b'\n');
    let file = student.join("router");
    std::fs::write(&file, program).unwrap();
    chmod(&file, 0o700);
    chmod(&student, 0o700);
    chmod(dir.path(), 0o700);
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--tests", SAMPLE])
        .arg(&file);
    all_accepted(&output(&mut command), 1);
}

#[test]
fn a_temporary_folder_the_sandbox_cannot_enter_still_grades() {
    let dir = tempdir();
    let tmp = dir.path().join("private/tmp");
    std::fs::create_dir_all(&tmp).unwrap();
    chmod(&dir.path().join("private"), 0o700);
    let class = dir.path().join("class");
    correct_class(&class, false);
    std::fs::create_dir_all(class.join("exe")).unwrap();
    std::fs::copy(
        root().join("submissions/executable/router"),
        class.join("exe/router"),
    )
    .unwrap();
    let mut command = grader();
    command
        .env("TMPDIR", &tmp)
        .args([
            "grade",
            "--format",
            "json",
            "--tests",
            SAMPLE,
            "--cache-dir",
        ])
        .arg(dir.path().join("cache"))
        .arg(&class);
    all_accepted(&output(&mut command), 5);
}

/// A stand-in interpreter that answers the grader's question (its binary,
/// then its version) with `version`.
fn old_interpreter(dir: &Path, name: &str, version: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!("#!/bin/sh\necho /usr/bin/{name}\necho {version}\n"),
    )
    .unwrap();
    chmod(&path, 0o755);
    path
}

#[test]
fn an_interpreter_too_old_or_missing_is_the_graders_fault_naming_its_variable() {
    let dir = tempdir();
    let cases = [
        (
            "GRADER_PYTHON",
            old_interpreter(dir.path(), "python2", "2.7"),
            "python/correct_class.py",
            "Python 2.7",
        ),
        (
            "GRADER_PYTHON",
            old_interpreter(dir.path(), "python36", "3.6"),
            "python/correct_class.py",
            "Python 3.6",
        ),
        (
            "GRADER_NODE",
            old_interpreter(dir.path(), "node12", "v12.22.12"),
            "typescript/correct.ts",
            "Node.js 12.22",
        ),
        (
            "GRADER_NODE",
            dir.path().join("no-such-node"),
            "javascript/correct.cjs",
            "No such file",
        ),
    ];
    for (variable, interpreter, example, why) in cases {
        let mut command = grader();
        command
            .env(variable, &interpreter)
            .args([
                "grade",
                "--format",
                "json",
                "--exit-zero",
                "--tests",
                SAMPLE,
            ])
            .arg(root().join("submissions").join(example));
        let out = output(&mut command);
        let stderr = text(&out.stderr);
        let shown = format!("{variable}={}", interpreter.display());
        assert_eq!(out.status.code(), Some(3), "{shown}: {stderr}");
        let report: Value = json(&out);
        let found = verdicts(&report);
        assert_eq!(found.len(), 1, "{shown}: {found:?}");
        let (_, verdict, message) = &found[0];
        assert_eq!(
            verdict, "grader-fault",
            "{shown}: never the learner's verdict: {message}"
        );
        assert!(
            message.contains(&format!("{variable} names ({})", interpreter.display())),
            "{message}"
        );
        assert!(
            message.contains(&format!("set {variable} to a")),
            "{message}"
        );
        assert!(message.contains(why), "{message}");
    }
}

#[test]
fn one_students_bad_file_is_their_compile_error_and_the_class_is_graded() {
    let dir = tempdir();
    let class = dir.path().join("class");
    correct_class(&class, false);
    let student = |name: &str, file: &str, bytes: &[u8]| {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::write(class.join(name).join(file), bytes).unwrap();
        class.join(name).join(file)
    };
    student(
        "not-utf8-ts",
        "router.ts",
        b"export class Router { \xff\xfe }\n",
    );
    student("not-utf8-py", "router.py", b"# \xff\nclass Router: pass\n");
    student("not-utf8-rs", "router.rs", b"pub fn f() {} // \xff\n");
    let big = format!("// {}\n", "x".repeat(8 << 20));
    student("oversize-js", "router.js", big.as_bytes());
    // Mode 000: the grader (root here) reads it, and its sessions get a
    // copy they can read; a grader that cannot read it reports why.
    let locked = student(
        "mode-000",
        "router.py",
        &std::fs::read(root().join("submissions/python/correct_class.py")).unwrap(),
    );
    chmod(&locked, 0o000);
    let mut command = grader();
    command
        .args([
            "grade",
            "--format",
            "json",
            "--tests",
            SAMPLE,
            "--cache-dir",
        ])
        .arg(dir.path().join("cache"))
        .arg(&class);
    let out = output(&mut command);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = json(&out);
    let root_reads_it = crate::support::effective_uid() == 0;
    for (name, verdict, message) in verdicts(&report) {
        let expected = match name.as_str() {
            n if n.starts_with("not-utf8") => {
                assert!(message.contains("is not UTF-8 text"), "{name}: {message}");
                "compile-error"
            }
            "oversize-js" => {
                assert!(message.contains("larger than 8 MiB"), "{name}: {message}");
                "compile-error"
            }
            "mode-000" if !root_reads_it => {
                assert!(
                    message.contains("cannot read submission"),
                    "{name}: {message}"
                );
                "compile-error"
            }
            _ => "accepted",
        };
        assert_eq!(verdict, expected, "{name}: {message}");
    }
}

/// A version manager's shim costs a chain of shell scripts per start, so
/// the interpreter behind it is asked once and remembered in the cache;
/// changing what chooses it (here a `.python-version` file) asks again.
#[test]
fn an_interpreter_behind_a_shim_is_asked_once_until_what_chooses_it_changes() {
    let dir = tempdir();
    let real = std::process::Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .unwrap();
    let real = text(&real.stdout).trim().to_owned();
    let (bin, work, log) = (
        dir.path().join("bin"),
        dir.path().join("work"),
        dir.path().join("asked"),
    );
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::create_dir_all(&work).unwrap();
    let shim = bin.join("python3");
    std::fs::write(
        &shim,
        format!(
            "#!/bin/sh\necho \"$*\" >> '{}'\nexec '{real}' \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    chmod(&shim, 0o755);
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
    let asked = || {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .count()
    };
    let grade = || {
        let mut command = grader();
        command
            .current_dir(&work)
            .env("PATH", &path)
            .env_remove("GRADER_PYTHON")
            .args(["grade", "--format", "json", "--challenges"])
            .arg(root().join("challenges"))
            .arg("--tests")
            .arg(root().join(SAMPLE))
            .arg("--cache-dir")
            .arg(dir.path().join("cache"))
            .arg(root().join("submissions/python/correct_class.py"));
        let out = output(&mut command);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let report: Value = json(&out);
        assert_eq!(report["submissions"][0]["verdict"], "accepted");
    };
    grade();
    // Asked once; the sessions run the real binary, not the shim.
    assert_eq!(asked(), 1, "{}", std::fs::read_to_string(&log).unwrap());
    grade();
    assert_eq!(asked(), 1, "asked again with nothing changed");
    std::fs::write(work.join(".python-version"), "system\n").unwrap();
    grade();
    assert_eq!(asked(), 2, "not asked again after .python-version changed");
    grade();
    assert_eq!(asked(), 2);
}

/// A virtual environment's `python3` (where `pip install` puts the
/// grader) is a link to the base interpreter: sessions run it, with the
/// base installation's standard library readable in the sandbox.
#[test]
fn the_python_of_a_virtual_environment_on_path_runs_submissions() {
    let dir = tempdir();
    // The sandbox's uid must be able to reach the environment's binary.
    chmod(dir.path(), 0o755);
    let venv = dir.path().join("venv");
    let made = std::process::Command::new("python3")
        .args(["-m", "venv", "--without-pip"])
        .arg(&venv)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    assert!(
        std::fs::symlink_metadata(venv.join("bin/python3"))
            .unwrap()
            .file_type()
            .is_symlink(),
        "a link to the base interpreter, as venv makes it"
    );
    let path = format!(
        "{}:{}",
        venv.join("bin").display(),
        std::env::var("PATH").unwrap()
    );
    let out = output(
        grader()
            .env("PATH", &path)
            .env_remove("GRADER_PYTHON")
            .args([
                "grade",
                "--format",
                "json",
                "--tests",
                SAMPLE,
                "--cache-dir",
            ])
            .arg(dir.path().join("cache"))
            .arg("submissions/python/correct_class.py"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = json(&out);
    let submission = &report["submissions"][0];
    assert_eq!(submission["verdict"], "accepted", "{submission}");
    assert!(
        submission["runtime"]
            .as_str()
            .unwrap()
            .starts_with("python 3."),
        "{submission}"
    );
}

/// A stand-in interpreter that answers the grader's question as a real
/// one of `version` would (its own path), and then, run on the driver,
/// does `then` (a shell command) instead of starting.
fn broken_interpreter(dir: &Path, name: &str, version: &str, then: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(
        &path,
        format!(
            "#!/bin/sh\nif [ \"$1\" = -c ] || [ \"$1\" = -e ]; then echo \"$0\"; echo {version}; exit 0; fi\n{then}\n"
        ),
    )
    .unwrap();
    chmod(&path, 0o755);
    path
}

#[test]
fn an_interpreter_that_dies_before_the_driver_is_the_graders_fault() {
    let dir = tempdir();
    let python = broken_interpreter(
        dir.path(),
        "python3",
        "3.11",
        "echo 'Fatal Python error: init_fs_encoding: failed to get the Python codec CANARY-FATAL' >&2; exit 1",
    );
    let node = broken_interpreter(
        dir.path(),
        "node",
        "20.0.0",
        "echo 'node: cannot open shared object CANARY-FATAL' >&2; kill -SEGV $$",
    );
    for (variable, interpreter, example) in [
        ("GRADER_PYTHON", &python, "python/correct_class.py"),
        ("GRADER_NODE", &node, "javascript/correct.cjs"),
    ] {
        for sandbox in [true, false] {
            let cache = tempdir();
            let mut command = grader();
            command
                .env(variable, interpreter)
                .args([
                    "grade",
                    "--format",
                    "json",
                    "--exit-zero",
                    "--tests",
                    SAMPLE,
                ])
                .arg("--cache-dir")
                .arg(cache.path());
            if !sandbox {
                command.arg("--no-sandbox");
            }
            let out = output(command.arg(root().join("submissions").join(example)));
            let shown = format!("{variable}, sandbox {sandbox}");
            assert_eq!(out.status.code(), Some(3), "{shown}: {}", text(&out.stderr));
            let report: Value = json(&out);
            let found = verdicts(&report);
            assert_eq!(found.len(), 1, "{shown}: {found:?}");
            let (_, verdict, message) = &found[0];
            assert_eq!(verdict, "grader-fault", "{shown}: {message}");
            assert!(
                message.contains("none of the submission ran"),
                "{shown}: {message}"
            );
            assert!(message.contains(variable), "{shown}: {message}");
            if !sandbox {
                // What the interpreter said is the instructor's clue.
                assert!(message.contains("CANARY-FATAL"), "{shown}: {message}");
            }
        }
    }
}

#[test]
fn a_module_that_ends_its_interpreter_while_loading_is_the_learners_runtime_error() {
    let dir = tempdir();
    for (file, source) in [
        ("router.py", "import os\nos._exit(3)\n"),
        ("router.cjs", "process.exit(3);\n"),
        ("router.mjs", "process.kill(process.pid, 'SIGKILL');\n"),
    ] {
        let folder = dir.path().join(file.replace('.', "-"));
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(folder.join(file), source).unwrap();
        let out = output(
            grader()
                .args([
                    "grade",
                    "--format",
                    "json",
                    "--exit-zero",
                    "--tests",
                    SAMPLE,
                ])
                .arg(folder.join(file)),
        );
        assert_eq!(out.status.code(), Some(0), "{file}: {}", text(&out.stderr));
        let report: Value = json(&out);
        let (_, verdict, message) = &verdicts(&report)[0];
        assert_eq!(verdict, "runtime-error", "{file}: {message}");
        assert!(message.contains("while starting"), "{file}: {message}");
    }
}
