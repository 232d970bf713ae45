//! Grading into a results folder afresh (without `--resume`) starts it
//! over only when that deletes no one's result: a run of part of the
//! class is refused, naming who it would delete, and a run of the same
//! class grades everyone again.

use crate::rejudge::{
    SHARDED_CLASS, class_of_files, grade_into, saved_names, small_challenge, try_grade_into,
};
use crate::support::{tempdir, text};
use std::collections::BTreeMap;
use std::path::Path;

/// Every saved result of `dir`, by file name, with its bytes.
fn results(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    saved_names(dir)
        .into_iter()
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect()
}

#[test]
fn grading_part_of_a_class_afresh_into_its_results_folder_is_refused_and_deletes_nothing() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(
        &class,
        &[
            ("alice.py", "correct_class.py"),
            ("bob.py", "lowest_score.py"),
        ],
    );
    let folder = dir.path().join("results");
    grade_into(&challenges, &folder, &[], &[&class]);
    let before = results(&folder);
    let command = std::fs::read(folder.join("command.json")).unwrap();
    let out = try_grade_into(&challenges, &folder, &[], &[&class.join("alice.py")]);
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains(&format!(
            "{} holds the results of 1 student this run does not grade (bob.py)",
            folder.display()
        )) && said.contains("--resume"),
        "{said}"
    );
    assert!(
        out.stdout.is_empty(),
        "nothing graded: {}",
        text(&out.stdout)
    );
    assert_eq!(results(&folder), before);
    assert_eq!(std::fs::read(folder.join("command.json")).unwrap(), command);
    // With --resume, alice is added beside bob.
    grade_into(
        &challenges,
        &folder,
        &["--resume"],
        &[&class.join("alice.py")],
    );
    assert_eq!(results(&folder), before);
}

/// The same with shards: the second shard graded afresh into the folder
/// of the first would delete the first's students.
#[test]
fn grading_another_shard_afresh_into_a_results_folder_is_refused() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(&class, &SHARDED_CLASS);
    let folder = dir.path().join("results");
    grade_into(&challenges, &folder, &["--shard", "1/2"], &[&class]);
    let before = results(&folder);
    let out = try_grade_into(&challenges, &folder, &["--shard", "2/2"], &[&class]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert_eq!(results(&folder), before);
}

/// Grading the same class afresh into its folder grades every student
/// again, as it always has.
#[test]
fn grading_the_same_class_afresh_into_its_results_folder_grades_everyone_again() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(
        &class,
        &[
            ("alice.py", "correct_class.py"),
            ("bob.py", "lowest_score.py"),
        ],
    );
    let folder = dir.path().join("results");
    grade_into(&challenges, &folder, &[], &[&class]);
    // A result of an earlier grading that no longer holds.
    let saved = folder.join("alice.py.result.json");
    let edited = text(&std::fs::read(&saved).unwrap()).replace("\"accepted\"", "\"wrong-answer\"");
    std::fs::write(&saved, &edited).unwrap();
    let out = try_grade_into(&challenges, &folder, &[], &[&class]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("resuming"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        saved_names(&folder),
        ["alice.py.result.json", "bob.py.result.json"]
    );
    assert_ne!(
        text(&std::fs::read(&saved).unwrap()),
        edited,
        "graded again"
    );
}
