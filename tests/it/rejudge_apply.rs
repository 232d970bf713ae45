//! `grader rejudge --apply` never loses the old results: through a link
//! it replaces the folder the link names, a second rejudge is kept out by
//! a lock no exchange moves, and the folder an apply stopped half-way
//! leaves is recognised for what it holds.

use crate::rejudge::{class_of_files, grade_into, saved_names, small_challenge};
use crate::support::{run, tempdir, text};
use std::collections::BTreeMap;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::Stdio;

/// Every file of a results folder but its lock, by name, with its text.
fn files(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n != ".lock")
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, text(&bytes))
        })
        .collect()
}

/// A saved result's verdict.
fn verdict(dir: &Path, name: &str) -> String {
    let saved: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join(format!("{name}.result.json"))).unwrap())
            .unwrap();
    saved["report"]["verdict"].as_str().unwrap().to_owned()
}

/// A class of two wrong students graded into `folder`, then alice fixed:
/// a rejudge changes her. Answers the challenges and the class.
fn graded_then_fixed(dir: &Path, folder: &Path) -> (PathBuf, PathBuf) {
    let challenges = small_challenge(dir);
    let class = dir.join("class");
    class_of_files(
        &class,
        &[
            ("alice.py", "lowest_score.py"),
            ("bob.py", "no_separator.py"),
        ],
    );
    grade_into(&challenges, folder, &[], &[&class]);
    assert_eq!(verdict(folder, "alice.py"), "wrong-answer");
    std::fs::copy(
        crate::support::root().join("submissions/python/correct_class.py"),
        class.join("alice.py"),
    )
    .unwrap();
    (challenges, class)
}

#[test]
fn apply_through_a_link_replaces_the_folder_it_names_and_the_link_names_the_new_results() {
    let dir = tempdir();
    let real = dir.path().join("real");
    graded_then_fixed(dir.path(), &real);
    let old = files(&real);
    let link = dir.path().join("link");
    std::os::unix::fs::symlink("real", &link).unwrap();
    let out = run(&["rejudge", "--apply", "--results", link.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        link.symlink_metadata().unwrap().file_type().is_symlink(),
        "the link is still a link"
    );
    assert_eq!(std::fs::read_link(&link).unwrap(), Path::new("real"));
    assert_eq!(
        verdict(&real, "alice.py"),
        "accepted",
        "the folder named is replaced"
    );
    assert_eq!(files(&dir.path().join("real.previous")), old);
    assert!(!dir.path().join("link.previous").exists());
    assert!(!dir.path().join(".link.rejudge").exists());
}

/// What `--apply` leaves when stopped just after its exchange: the new
/// results in the folder, the old ones at the staging path, marked.
#[test]
fn the_old_results_an_apply_stopped_after_its_exchange_left_are_kept_as_previous() {
    let dir = tempdir();
    let folder = dir.path().join("results");
    let (challenges, class) = graded_then_fixed(dir.path(), &folder);
    let fresh = dir.path().join("fresh");
    grade_into(&challenges, &fresh, &[], &[&class]);
    let staging = dir.path().join(".results.rejudge");
    std::fs::rename(&folder, &staging).unwrap();
    std::fs::write(staging.join(".replaced"), b"").unwrap();
    std::fs::rename(&fresh, &folder).unwrap();
    let mut old = files(&staging);
    old.remove(".replaced");
    let new = files(&folder);

    // A dry run: the folder holds what grading now gives, so no change.
    let out = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("the results it replaced are kept in"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(files(&dir.path().join("results.previous")), old);
    assert_eq!(files(&folder), new);
    assert!(!staging.exists());
}

/// Stopped before its exchange, the folder still holds the old results
/// (marked), and the staging path the new grading: that one is emptied,
/// the folder is the live one.
#[test]
fn an_apply_stopped_before_its_exchange_leaves_the_folder_as_it_was() {
    let dir = tempdir();
    let folder = dir.path().join("results");
    let (challenges, class) = graded_then_fixed(dir.path(), &folder);
    let staging = dir.path().join(".results.rejudge");
    grade_into(&challenges, &staging, &[], &[&class]);
    let old = files(&folder);
    std::fs::write(folder.join(".replaced"), b"").unwrap();
    let out = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "alice changes: {}",
        text(&out.stderr)
    );
    assert_eq!(files(&folder), old);
    assert!(!staging.exists());
    assert!(!dir.path().join("results.previous").exists());
    // And an apply now keeps the old results, unmarked.
    let out = run(&["rejudge", "--apply", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(files(&dir.path().join("results.previous")), old);
    assert_eq!(verdict(&folder, "alice.py"), "accepted");
    assert!(!folder.join(".replaced").exists());
}

/// A second rejudge is refused for as long as the first runs, by a lock
/// beside the folder: the folder's own lock moves away with the old
/// results when `--apply` exchanges them.
#[test]
fn a_rejudge_is_refused_while_another_holds_the_lock_beside_the_folder() {
    let dir = tempdir();
    let folder = dir.path().join("results");
    graded_then_fixed(dir.path(), &folder);
    let old = files(&folder);
    let lock = dir.path().join(".results.rejudge.lock");
    let mut holder = std::process::Command::new("python3")
        .args([
            "-c",
            "import fcntl, sys\nf = open(sys.argv[1], 'a')\nfcntl.flock(f, fcntl.LOCK_EX)\nprint('locked', flush=True)\nsys.stdin.read()\n",
        ])
        .arg(&lock)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(holder.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "locked");
    let out = run(&["rejudge", "--apply", "--results", folder.to_str().unwrap()]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!("{} is in use", folder.display()))
            && said.contains(&lock.display().to_string()),
        "{said}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing graded: {}",
        text(&out.stdout)
    );
    assert_eq!(files(&folder), old);
    assert!(!dir.path().join(".results.rejudge").exists());
    holder.stdin.take().unwrap().flush().unwrap();
    holder.wait().unwrap();
    let out = run(&["rejudge", "--apply", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(saved_names(&folder).len(), 2);
}

/// One student whose regrading is a fault of the machine (here, no
/// Node.js) keeps their previous result, named; the others' new results
/// are applied; the command ends as the grader's fault (exit 3).
#[test]
fn apply_keeps_a_faulted_student_at_their_previous_result_and_applies_the_others() {
    let dir = tempdir();
    let folder = dir.path().join("results");
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(
        &class,
        &[
            ("alice.py", "lowest_score.py"),
            ("bob.py", "no_separator.py"),
        ],
    );
    // carol is JavaScript: without Node.js, only she cannot be graded.
    std::fs::copy(
        crate::support::root().join("submissions/javascript/correct.cjs"),
        class.join("carol.cjs"),
    )
    .unwrap();
    grade_into(&challenges, &folder, &[], &[&class]);
    assert_eq!(verdict(&folder, "carol.cjs"), "accepted");
    std::fs::copy(
        crate::support::root().join("submissions/python/correct_class.py"),
        class.join("alice.py"),
    )
    .unwrap();
    let carol_before = std::fs::read(folder.join("carol.cjs.result.json")).unwrap();
    let out = crate::support::output(
        crate::support::grader()
            .args(["rejudge", "--apply", "--results", folder.to_str().unwrap()])
            .env("GRADER_NODE", dir.path().join("no-node")),
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains("carol.cjs"),
        "the faulted one is named: {stderr}"
    );
    assert!(stderr.contains("previous result"), "{stderr}");
    assert!(!stderr.contains("nothing was replaced"), "{stderr}");
    // alice's fix is applied; carol keeps her result byte for byte.
    assert_eq!(verdict(&folder, "alice.py"), "accepted");
    assert_eq!(verdict(&folder, "bob.py"), "wrong-answer");
    assert_eq!(
        std::fs::read(folder.join("carol.cjs.result.json")).unwrap(),
        carol_before
    );
    let previous = dir.path().join("results.previous");
    assert_eq!(verdict(&previous, "alice.py"), "wrong-answer");
    // Once the machine is fixed, the rejudge finds only what changed since.
    let again = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}
