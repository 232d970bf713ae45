//! A student's repository with the course's hidden tests checked out
//! inside it (the layout of course-repository workflows), beside thousands
//! of files of the student's own: the folder is granted whole and what it
//! must not show (the tests, its dotfiles) is covered, so a correct
//! student is accepted, a spy reads its own files and none of the hidden
//! ones, and a folder with more to hide than any repository needs is that
//! student's compile error with the figure, never a grader fault.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;
use std::path::{Path, PathBuf};

const HIDDEN: &str = "CANARY-HIDDEN-TEST-NOTE-41c7";
const GIT: &str = "CANARY-GIT-OBJECT-9e02";
const ENV: &str = "CANARY-DOTENV-77ab";
const OWN: &str = "OWN-FILE-READ-5b13";
const SPY_RAN: &str = "REPO-SPY-RAN-0d4e";
/// A Python Router that answers every route wrong, so that what a spy
/// printed is in the report.
const ANSWERS_WRONG: &str = "
class Router:
    def __init__(self, nodes):
        pass
    def route(self, key):
        return \"nobody\"
    def add(self, node):
        pass
    def remove(self, node):
        pass
";

/// A student's repository at `dir/repo` holding `router` (the student's
/// entry, as `router.py`), `files` small files of the student's own, a
/// `.git` and a `.env` with canaries, and the hidden tests checked out in
/// `hidden-tests/` (the shipped edge group, with a note holding a canary).
fn repository(dir: &Path, router: &str, files: usize) -> PathBuf {
    let repo = dir.join("repo");
    let hidden = repo.join("hidden-tests/edge");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::write(repo.join("router.py"), router).unwrap();
    for i in 0..files {
        std::fs::write(repo.join(format!("data-{i}.txt")), format!("{OWN}\n")).unwrap();
    }
    std::fs::create_dir_all(repo.join(".git/objects")).unwrap();
    std::fs::write(repo.join(".git/objects/blob"), GIT).unwrap();
    std::fs::write(repo.join(".env"), format!("TOKEN={ENV}\n")).unwrap();
    let edge = root().join("challenges/rendezvous-router/tests/edge");
    for entry in std::fs::read_dir(edge).unwrap().flatten() {
        std::fs::copy(entry.path(), hidden.join(entry.file_name())).unwrap();
    }
    std::fs::write(hidden.join("notes.txt"), HIDDEN).unwrap();
    repo
}

/// Grades `repo/router.py` against its own `hidden-tests`, in JSON.
fn grade(repo: &Path) -> (Option<i32>, String, Value) {
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--tests"])
        .arg(repo.join("hidden-tests"))
        .arg(repo.join("router.py"));
    let out = output(&mut command);
    let all = text(&out.stdout) + &text(&out.stderr);
    (out.status.code(), all, json(&out))
}

#[test]
fn a_correct_student_beside_thousands_of_files_and_the_hidden_tests_is_accepted() {
    // In every language, as its entry file names it.
    for (example, entry) in [
        ("submissions/python/correct_class.py", "router.py"),
        ("submissions/javascript/correct.cjs", "router.cjs"),
        ("submissions/typescript/correct.ts", "router.ts"),
        ("submissions/rust/correct.rs", "router.rs"),
        ("submissions/executable/router", "router"),
    ] {
        let dir = tempdir();
        let repo = repository(dir.path(), "", 4000);
        std::fs::remove_file(repo.join("router.py")).unwrap();
        std::fs::copy(root().join(example), repo.join(entry)).unwrap();
        let mut command = grader();
        command
            .args(["grade", "--format", "json", "--tests"])
            .arg(repo.join("hidden-tests"))
            .arg(repo.join(entry));
        let out = output(&mut command);
        let all = text(&out.stdout) + &text(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{example}: {all}");
        let student = &json::<Value>(&out)["submissions"][0];
        assert_eq!(student["verdict"], "accepted", "{example}: {all}");
        assert_eq!(student["score"], student["max_score"], "{example}: {all}");
    }
}

/// A router that reads every file beneath its folder it can, prints what
/// it read (of its own files, one), then answers wrong, so that its output
/// is in the report.
fn spy() -> String {
    format!(
        r#"import os, sys
print("{SPY_RAN}", file=sys.stderr)
here = os.path.dirname(os.path.abspath(__file__))
for top, dirs, files in os.walk(here):
    for name in files:
        path = os.path.join(top, name)
        try:
            data = open(path, "rb").read(200)
        except OSError as e:
            print("no", path, type(e).__name__, file=sys.stderr)
            continue
        if not name.startswith("data-") or name == "data-7.txt":
            print("read", path, data, file=sys.stderr)
{ANSWERS_WRONG}"#
    )
}

#[test]
fn a_spy_in_that_repository_reads_its_own_files_and_nothing_hidden() {
    let dir = tempdir();
    let spy = spy();
    let repo = repository(dir.path(), &spy, 3000);
    let (code, all, report) = grade(&repo);
    assert_eq!(code, Some(1), "{all}");
    assert_eq!(report["submissions"][0]["verdict"], "wrong-answer", "{all}");
    assert!(all.contains(SPY_RAN), "the spy's output is reported: {all}");
    assert!(all.contains(OWN), "it reads its own files beside it: {all}");
    for canary in [HIDDEN, GIT, ENV] {
        assert!(!all.contains(canary), "the report shows {canary}: {all}");
    }
    // Not even the names of the hidden cases are in sight.
    assert!(!all.contains("add-present-node.json"), "{all}");
}

#[test]
fn a_folder_with_more_to_hide_than_any_repository_is_the_students_compile_error() {
    let dir = tempdir();
    let correct = std::fs::read_to_string(root().join("submissions/python/correct_class.py"));
    let repo = repository(dir.path(), &correct.unwrap(), 0);
    for i in 0..10_001 {
        std::fs::write(repo.join(format!(".dot-{i}")), "").unwrap();
    }
    let (code, all, report) = grade(&repo);
    let student = &report["submissions"][0];
    assert_eq!(student["verdict"], "compile-error", "{all}");
    assert_eq!(
        code,
        Some(1),
        "a learner's verdict, not a grader fault: {all}"
    );
    let message = student["tests"][0]["message"].as_str().unwrap_or_default();
    for figure in ["10004 entries", "the 10000"] {
        assert!(message.contains(figure), "{figure} in {message}");
    }
}

/// Removes a folder made for a test when dropped, however the test ends.
struct Removed(PathBuf);

impl Drop for Removed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Hidden tests kept in a folder every session may read (a CI image's
/// `/opt`): covered in every session, not only where a student's folder
/// holds them. Needs root to write in `/opt`, as CI runs.
#[test]
fn tests_kept_in_a_system_folder_are_hidden_from_every_session() {
    if crate::support::effective_uid() != 0 {
        eprintln!("not root: /opt cannot be written here; CI runs this as root");
        return;
    }
    let opt = Path::new("/opt").join(format!("rendezvous-grader-test-{}", std::process::id()));
    let _removed = Removed(opt.clone());
    crate::support::copy_tree(
        &root().join("tests/fixtures/hidden-challenges"),
        &opt,
        |_| true,
    );
    let dir = tempdir();
    let student = dir.path().join("ada");
    std::fs::create_dir_all(&student).unwrap();
    // Prints every file beneath the challenges it can read, then answers
    // wrong, so that what it printed is in the report.
    let spy = format!(
        r#"import os, sys
print("{SPY_RAN}", file=sys.stderr)
for top, dirs, files in os.walk({opt:?}):
    for name in files:
        try:
            print("read", name, open(os.path.join(top, name)).read(300), file=sys.stderr)
        except OSError as e:
            print("no", name, type(e).__name__, file=sys.stderr)
{ANSWERS_WRONG}"#,
        opt = opt.to_str().unwrap()
    );
    std::fs::write(student.join("router.py"), spy).unwrap();
    let out = output(
        grader()
            .arg("--challenges")
            .arg(&opt)
            .args([
                "grade",
                "--challenge",
                "hidden-first",
                "--audience",
                "learner",
            ])
            .arg(&student),
    );
    let all = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains(SPY_RAN), "the spy's output is reported: {all}");
    for canary in ["CANARY", "Qx7Zk9", "Wp4Rj2"] {
        assert!(!all.contains(canary), "the report shows {canary}: {all}");
    }
}

/// The course's tests cloned into the student's repository (`git clone
/// course grading`, graded with `--tests grading/tests`): the clone is
/// covered whole, its `.git`, whose objects hold the tests too, with it.
#[test]
fn a_clone_of_the_tests_inside_the_repository_is_hidden_with_its_git() {
    let dir = tempdir();
    let repo = repository(dir.path(), &spy(), 8);
    let clone = repo.join("grading");
    std::fs::create_dir_all(clone.join(".git/objects")).unwrap();
    std::fs::write(
        clone.join(".git/objects/blob"),
        format!("{HIDDEN}-IN-THE-CLONE"),
    )
    .unwrap();
    std::fs::write(clone.join("README.md"), HIDDEN).unwrap();
    std::fs::rename(repo.join("hidden-tests"), clone.join("tests")).unwrap();
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--tests"])
        .arg(clone.join("tests"))
        .arg(repo.join("router.py"));
    let out = output(&mut command);
    let all = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains(SPY_RAN) && all.contains(OWN), "{all}");
    for canary in [HIDDEN, GIT, ENV] {
        assert!(!all.contains(canary), "the report shows {canary}: {all}");
    }
}
