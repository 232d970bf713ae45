//! What a batch reads and writes, checked before and while it grades:
//! outputs that cannot be written are refused before any work, class
//! folders yield exactly their students, a student's own folder is one
//! submission (Gradescope's layout), and a results folder is reused only
//! for the same run and the same files, by one run at a time.

use crate::support::{copy_tree, grader, json, output, root, run, tempdir, text, verdicts};
use serde_json::Value;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";
const CORRECT: &str = "submissions/python/correct_class.py";

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_anything_is_graded() {
    let dir = tempdir();
    let d = dir.path();
    let a_file = d.join("a-file");
    std::fs::write(&a_file, "not a folder").unwrap();
    let a_folder = d.join("a-folder");
    std::fs::create_dir(&a_folder).unwrap();
    let missing = d.join("missing").join("report.json");
    let under_file = a_file.join("gradebook.csv");
    // (what is named, the arguments, $GITHUB_STEP_SUMMARY)
    let cases: Vec<(&Path, Vec<&str>, Option<&Path>)> = vec![
        (&missing, vec!["--output", missing.to_str().unwrap()], None),
        (
            &a_folder,
            vec!["--output", a_folder.to_str().unwrap()],
            None,
        ),
        (
            &under_file,
            vec!["--gradebook", under_file.to_str().unwrap()],
            None,
        ),
        (&a_folder, vec!["--format", "github"], Some(&a_folder)),
        (&a_file, vec!["--results", a_file.to_str().unwrap()], None),
    ];
    for (named, args, summary) in cases {
        let mut command = grader();
        command.args(["grade", "--tests", SAMPLE]).args(&args);
        match summary {
            Some(path) => command.env("GITHUB_STEP_SUMMARY", path),
            None => command.env_remove("GITHUB_STEP_SUMMARY"),
        };
        let out = output(command.arg(CORRECT));
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains(named.to_str().unwrap()),
            "{args:?} names what cannot be written: {stderr}"
        );
        // Nothing was graded: no report, no progress line.
        assert!(
            text(&out.stdout).is_empty(),
            "{args:?}: {}",
            text(&out.stdout)
        );
        assert!(!stderr.contains("accepted"), "{args:?}: {stderr}");
    }
    // No empty file, folder or probe was left behind.
    assert_eq!(names(d), ["a-file", "a-folder"]);
    assert!(names(&a_folder).is_empty());
    assert_eq!(std::fs::read_to_string(&a_file).unwrap(), "not a folder");
}

#[test]
fn a_folder_without_submissions_is_refused() {
    let dir = tempdir();
    let empty = dir.path().join("class");
    std::fs::create_dir(&empty).unwrap();
    let out = run(&["grade", "--tests", SAMPLE, empty.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!("no submissions found in {}", empty.display())),
        "{stderr}"
    );
    // Only papers, no students: refused as well, saying what is there.
    std::fs::write(empty.join("README.md"), "# the class\n").unwrap();
    let out = run(&["grade", "--tests", SAMPLE, empty.to_str().unwrap()]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("README.md"), "{stderr}");
}

#[test]
fn files_of_a_class_folder_that_are_no_submissions_are_skipped_and_said_once() {
    let dir = tempdir();
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("ada")).unwrap();
    std::fs::copy(root().join(CORRECT), class.join("ada/router.py")).unwrap();
    std::fs::copy(
        root().join("submissions/python/correct_solve.py"),
        class.join("zed.py"),
    )
    .unwrap();
    std::fs::write(class.join("README.md"), "# grading notes\n").unwrap();
    std::fs::write(class.join("roster.csv"), "name\nada\nzed\n").unwrap();
    let out = run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        SAMPLE,
        class.to_str().unwrap(),
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let report: Value = json(&out);
    assert_eq!(
        verdicts(&report),
        [
            ("ada".to_owned(), "accepted".to_owned()),
            ("zed.py".to_owned(), "accepted".to_owned())
        ]
    );
    for skipped in ["README.md", "roster.csv"] {
        assert_eq!(stderr.matches(skipped).count(), 1, "{skipped}: {stderr}");
    }
}

/// A folder of one student: their entry file, a module it imports, notes.
fn student(folder: &Path, base: &str) {
    std::fs::create_dir_all(folder).unwrap();
    std::fs::write(folder.join("router.py"), "from base import *\n").unwrap();
    std::fs::copy(root().join(base), folder.join("base.py")).unwrap();
    std::fs::write(folder.join("NOTES.md"), "my notes\n").unwrap();
}

#[test]
fn a_students_own_folder_is_one_submission() {
    let dir = tempdir();
    let alice = dir.path().join("alice");
    student(&alice, CORRECT);
    let out = run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        SAMPLE,
        alice.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = json(&out);
    // Named for the folder, as in a class.
    assert_eq!(
        verdicts(&report),
        [("alice".to_owned(), "accepted".to_owned())]
    );
    assert!(
        report["submissions"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("alice/router.py")
    );
}

#[test]
fn gradescopes_layout_is_graded_by_the_run_autograder_script() {
    let dir = tempdir();
    let autograder = dir.path().join("autograder");
    copy_tree(
        &root().join("challenges/rendezvous-router"),
        &autograder.join("source/challenges/rendezvous-router"),
        |_| true,
    );
    student(&autograder.join("submission"), CORRECT);
    let bin = Path::new(env!("CARGO_BIN_EXE_grader"));
    let mut command = std::process::Command::new("sh");
    command
        .arg(root().join("tools/gradescope/run_autograder"))
        .env("AUTOGRADER_ROOT", &autograder)
        .env("PATH", {
            let mut path = bin.parent().unwrap().as_os_str().to_owned();
            path.push(":/usr/local/bin:/usr/bin:/bin");
            path
        })
        .current_dir(dir.path());
    let out = output(&mut command);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let results: Value =
        serde_json::from_slice(&std::fs::read(autograder.join("results/results.json")).unwrap())
            .unwrap();
    let tests = results["tests"].as_array().unwrap();
    assert!(!tests.is_empty());
    assert!(tests.iter().all(|t| t["status"] == "passed"), "{results}");
    assert!(results["score"].as_f64().unwrap() > 0.0, "{results}");
    assert_eq!(results["score"], results["max_score"]);
}

#[test]
fn resuming_regrades_a_changed_submission_and_refuses_changed_limits() {
    let dir = tempdir();
    let class = dir.path().join("class");
    student(&class.join("ada"), CORRECT);
    student(&class.join("ben"), CORRECT);
    let results = dir.path().join("results");
    let grade = |extra: &[&str]| {
        let mut args = vec![
            "grade",
            "--format",
            "json",
            "--tests",
            SAMPLE,
            "--results",
            results.to_str().unwrap(),
        ];
        args.extend(extra);
        args.push(class.to_str().unwrap());
        run(&args)
    };
    let first = grade(&[]);
    assert_eq!(first.status.code(), Some(0), "{}", text(&first.stderr));
    let ada = results.join("ada.result.json");
    let saved = std::fs::read(&ada).unwrap();
    let modified = std::fs::metadata(&ada).unwrap().modified().unwrap();

    // Ben's helper module (not his entry file) changes to a wrong one.
    std::fs::copy(
        root().join("submissions/python/lowest_score.py"),
        class.join("ben/base.py"),
    )
    .unwrap();
    let resumed = grade(&["--resume"]);
    assert_eq!(resumed.status.code(), Some(1), "{}", text(&resumed.stderr));
    let report: Value = json(&resumed);
    assert_eq!(
        verdicts(&report),
        [
            ("ada".to_owned(), "accepted".to_owned()),
            ("ben".to_owned(), "wrong-answer".to_owned())
        ]
    );
    assert_eq!(std::fs::read(&ada).unwrap(), saved, "ada was not regraded");
    assert_eq!(
        std::fs::metadata(&ada).unwrap().modified().unwrap(),
        modified
    );

    // Another time limit would decide other verdicts: not this folder's
    // run, and the flag that made it another is named, nothing else.
    let other = grade(&["--resume", "--time-limit", "4321"]);
    let stderr = text(&other.stderr);
    assert_eq!(other.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("holds results of another grading run (--time-limit (or challenge.toml's time_ms), in ms per group, was {")
            && stderr.contains(":4321"),
        "{stderr}"
    );
    assert!(!stderr.contains("challenge.toml changed"), "{stderr}");
    assert_eq!(
        stderr.matches(" was ").count(),
        1,
        "one difference: {stderr}"
    );
    assert!(text(&other.stdout).is_empty());
}

#[test]
fn a_results_folder_in_use_by_another_run_is_refused() {
    let dir = tempdir();
    let results = dir.path().join("results");
    std::fs::create_dir(&results).unwrap();
    // Another run holds the folder's lock until its stdin closes.
    let mut holder = std::process::Command::new("python3")
        .args([
            "-c",
            "import fcntl, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
        ])
        .arg(results.join(".lock"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(holder.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "locked");
    let grade = || {
        run(&[
            "grade",
            "--tests",
            SAMPLE,
            "--results",
            results.to_str().unwrap(),
            CORRECT,
        ])
    };
    let refused = grade();
    let stderr = text(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "the results folder {} is in use",
            results.display()
        )),
        "{stderr}"
    );
    assert!(
        !results.join("run.json").exists(),
        "the folder was not touched"
    );
    // Released when its holder ends: then the folder is this run's.
    holder.stdin.take().unwrap().flush().unwrap();
    holder.wait().unwrap();
    let graded = grade();
    assert_eq!(graded.status.code(), Some(0), "{}", text(&graded.stderr));
}

/// A name near the file system's 255-byte limit is a legal student name:
/// the result saved for it, and every temporary file beside it, must fit,
/// so that the class is graded and the report written.
#[test]
fn a_student_name_near_the_length_limit_is_graded_with_results() {
    let dir = tempdir();
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    // 84 CJK characters are 252 bytes; with ".py", all 255 of a name.
    let long = format!("{}.py", "學".repeat(84));
    std::fs::copy(
        root().join("submissions/python/lowest_score.py"),
        class.join(&long),
    )
    .unwrap();
    std::fs::copy(root().join(CORRECT), class.join("ok.py")).unwrap();
    let report = dir.path().join("report.json");
    let results = dir.path().join("results");
    let out = run(&[
        "grade",
        "--tests",
        SAMPLE,
        "--results",
        results.to_str().unwrap(),
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
        class.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
    let found = verdicts(&report);
    assert_eq!(found.len(), 2, "{found:?}");
    assert!(
        found
            .iter()
            .any(|(name, verdict)| name.starts_with('學') && verdict == "wrong-answer"),
        "{found:?}"
    );
    // Resuming reads the long name's result back rather than grading it again.
    let again = run(&[
        "grade",
        "--tests",
        SAMPLE,
        "--results",
        results.to_str().unwrap(),
        "--resume",
        "--format",
        "json",
        class.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(1), "{}", text(&again.stderr));
    assert_eq!(verdicts(&json(&again)), found);
}
