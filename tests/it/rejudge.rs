//! `grader rejudge` and `grader compare` through the binary: a class is
//! graded into a results folder, one case of a copy of the challenge is
//! changed (its operations edited, its expected file blessed), and the
//! rejudge must list exactly the students a fresh grading of the changed
//! suite judges otherwise; `--apply` must leave the folder as that fresh
//! grading's, and a grading the machine cannot do must replace nothing.

use crate::support::{copy_tree, grader, output, root, run, tempdir, text};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The students, each a folder with their entry file (and the helper
/// module those that borrow their h32 import).
const CLASS: [(&str, &str); 5] = [
    ("ada", "correct_class.py"),
    ("ben", "remove_absent_raises.py"),
    ("cy", "lowest_score.py"),
    ("dee", "first_maximum.py"),
    ("eve", "key_node_swapped.py"),
];

fn make_class(class: &Path) {
    for (name, file) in CLASS {
        let dir = class.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        let python = root().join("submissions/python");
        std::fs::copy(python.join(file), dir.join("router.py")).unwrap();
        std::fs::copy(python.join("lowest_score.py"), dir.join("lowest_score.py")).unwrap();
    }
}

/// Every `*.result.json` of a results folder, by file name, as JSON.
fn results(dir: &Path) -> BTreeMap<String, Value> {
    std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".result.json"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                serde_json::from_slice(&std::fs::read(e.path()).unwrap()).unwrap(),
            )
        })
        .collect()
}

/// A saved result as it is compared: without what legitimately differs
/// between two gradings of the same files (every time, whether a build
/// came from the cache, and the reproducer, whose shrinking has a time
/// budget).
fn comparable(mut saved: Value) -> Value {
    let report = &mut saved["report"];
    report.as_object_mut().unwrap().remove("reproducer");
    if let Some(build) = report["build"].as_object_mut() {
        build.remove("time_ms");
        build.remove("cached");
    }
    for test in report["tests"].as_array_mut().unwrap() {
        let test = test.as_object_mut().unwrap();
        test.remove("time_ms");
        test.remove("cpu_ms");
    }
    saved
}

/// What decides whether a student changed: verdict, exact score, and the
/// tests that fail.
fn judged(saved: &Value) -> (String, f64, f64, BTreeSet<String>) {
    let r = &saved["report"];
    let failing = r["tests"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|t| t["verdict"] != "accepted")
        .map(|t| {
            format!(
                "{}/{}",
                t["group"].as_str().unwrap(),
                t["name"].as_str().unwrap()
            )
        })
        .collect();
    (
        r["verdict"].as_str().unwrap().to_owned(),
        r["score"].as_f64().unwrap(),
        r["max_score"].as_f64().unwrap(),
        failing,
    )
}

#[test]
fn rejudging_lists_who_a_fresh_grading_judges_otherwise_and_apply_makes_the_folder_that_grading() {
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    let copy = challenges.join("rendezvous-router");
    // The challenge with a small suite, so that three gradings stay quick.
    copy_tree(&root().join("challenges/rendezvous-router"), &copy, |rel| {
        !rel.starts_with("tests")
    });
    copy_tree(
        &root().join("tests/fixtures/reports/suites/rendezvous-router"),
        &copy.join("tests"),
        |_| true,
    );
    let class = dir.path().join("class");
    make_class(&class);
    let grade = |results: &Path, report: &Path| {
        let out = run(&[
            "--challenges",
            challenges.to_str().unwrap(),
            "grade",
            "--jobs",
            "2",
            "--results",
            results.to_str().unwrap(),
            "--format",
            "json",
            "--output",
            report.to_str().unwrap(),
            class.to_str().unwrap(),
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    };
    let folder = dir.path().join("results");
    let old_report = dir.path().join("old.json");
    grade(&folder, &old_report);
    let old = results(&folder);
    assert_eq!(old.len(), CLASS.len());

    // Nothing changed yet: nothing to show, exit 0.
    let same = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(same.status.code(), Some(0), "{}", text(&same.stderr));
    assert!(text(&same.stdout).contains("no student changes verdict or score"));

    // The author removes an absent node at the start of a ties case, and
    // blesses its expected file.
    let case = copy.join("tests/ties/tied-pair-alone.json");
    let mut value: Value = serde_json::from_str(&std::fs::read_to_string(&case).unwrap()).unwrap();
    value[1]
        .as_array_mut()
        .unwrap()
        .insert(0, serde_json::json!(["remove", "node-absent"]));
    std::fs::write(&case, value.to_string()).unwrap();
    let bless = run(&[
        "--challenges",
        challenges.to_str().unwrap(),
        "bless",
        "--challenge",
        "rendezvous-router",
    ]);
    assert_eq!(bless.status.code(), Some(0), "{}", text(&bless.stderr));

    // The dry run: the changes, exit 1, and the folder untouched.
    let dry = run(&[
        "rejudge",
        "--results",
        folder.to_str().unwrap(),
        "--format",
        "json",
    ]);
    assert_eq!(dry.status.code(), Some(1), "{}", text(&dry.stderr));
    let changes: Value = crate::support::document(crate::support::Document::Changes, &dry);
    assert_eq!(results(&folder), old, "a dry run writes nothing");

    // What a fresh grading of the changed suite judges otherwise.
    let fresh = dir.path().join("fresh");
    let fresh_report = dir.path().join("fresh.json");
    grade(&fresh, &fresh_report);
    let new = results(&fresh);
    let expected: BTreeSet<String> = old
        .iter()
        .filter(|(file, saved)| judged(saved) != judged(&new[*file]))
        .map(|(_, saved)| saved["report"]["name"].as_str().unwrap().to_owned())
        .collect();
    assert!(
        !expected.is_empty() && expected.len() < CLASS.len(),
        "the edit changes some students, not all: {expected:?}"
    );
    let listed = |changes: &Value| -> BTreeSet<String> {
        changes["students"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| {
                assert_eq!(s["kind"], "changed", "{s}");
                s["name"].as_str().unwrap().to_owned()
            })
            .collect()
    };
    assert_eq!(listed(&changes), expected);
    // Each with the tests that flipped.
    for s in changes["students"].as_array().unwrap() {
        let name = s["name"].as_str().unwrap();
        let file = format!("{name}.result.json");
        let (was, is) = (judged(&old[&file]).3, judged(&new[&file]).3);
        let failing: BTreeSet<String> = is.difference(&was).cloned().collect();
        let passing: BTreeSet<String> = was.difference(&is).cloned().collect();
        let set = |key: &str| -> BTreeSet<String> {
            s[key]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().to_owned())
                .collect()
        };
        assert_eq!(set("now_failing"), failing, "{name}");
        assert_eq!(set("now_passing"), passing, "{name}");
    }
    // The human form names them, with the tests that flipped.
    let human = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(human.status.code(), Some(1));
    let human = text(&human.stdout);
    for name in &expected {
        assert!(human.contains(&format!("  {name}  ")), "{human}");
    }
    assert!(
        human.contains("now failing: ties/tied-pair-alone"),
        "{human}"
    );

    // `compare` over the two reports says the same, from the same code.
    let compared = run(&[
        "compare",
        "--format",
        "json",
        old_report.to_str().unwrap(),
        fresh_report.to_str().unwrap(),
    ]);
    assert_eq!(
        compared.status.code(),
        Some(1),
        "{}",
        text(&compared.stderr)
    );
    let compared: Value = crate::support::document(crate::support::Document::Changes, &compared);
    assert_eq!(listed(&compared), expected);

    // A grading the machine cannot do (no interpreter) replaces nothing:
    // every student could not be judged, exit 3.
    let faulty = output(
        grader()
            .args(["rejudge", "--apply", "--results", folder.to_str().unwrap()])
            .env("GRADER_PYTHON", dir.path().join("no-python")),
    );
    assert_eq!(faulty.status.code(), Some(3), "{}", text(&faulty.stderr));
    let said = text(&faulty.stdout);
    assert_eq!(
        said.matches("could not be judged").count(),
        CLASS.len(),
        "{said}"
    );
    assert!(text(&faulty.stderr).contains("nothing was replaced"));
    assert_eq!(results(&folder), old);

    // --apply: the folder becomes the fresh grading's, the old results
    // are kept beside it.
    let applied = run(&["rejudge", "--apply", "--results", folder.to_str().unwrap()]);
    assert_eq!(applied.status.code(), Some(0), "{}", text(&applied.stderr));
    let names = |dir: &Path| -> BTreeSet<String> {
        std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect()
    };
    assert_eq!(names(&folder), names(&fresh));
    for file in ["run.json", "command.json"] {
        assert_eq!(
            std::fs::read(folder.join(file)).unwrap(),
            std::fs::read(fresh.join(file)).unwrap(),
            "{file}"
        );
    }
    let applied = results(&folder);
    assert_eq!(applied.len(), new.len());
    for (file, saved) in &new {
        assert_eq!(
            comparable(applied[file].clone()),
            comparable(saved.clone()),
            "{file}"
        );
    }
    assert_eq!(results(&dir.path().join("results.previous")), old);
    // And rejudging it again changes nothing.
    let again = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}

#[test]
fn rejudge_refuses_a_folder_that_is_no_results_folder() {
    let dir = tempdir();
    let out = run(&["rejudge", "--results", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is no results folder"),
        "{}",
        text(&out.stderr)
    );
    // A folder of an older grader: run.json but no command recorded.
    std::fs::write(dir.path().join("run.json"), "{}").unwrap();
    let out = run(&["rejudge", "--results", dir.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("command.json"),
        "{}",
        text(&out.stderr)
    );
}

/// Students are matched by name: a report naming one twice (edited by
/// hand, or two reports pasted together) would have its second copy left
/// out of every count, so it is refused, naming the file and the name.
#[test]
fn compare_refuses_a_report_that_names_a_student_twice() {
    let dir = tempdir();
    let fixture = root().join("tests/fixtures/reports/batch.json");
    let mut report: Value = serde_json::from_slice(&std::fs::read(&fixture).unwrap()).unwrap();
    let submissions = report["submissions"].as_array_mut().unwrap();
    assert_eq!(submissions[0]["name"], "ada");
    assert_eq!(submissions[3]["verdict"], "wrong-answer");
    submissions[3]["name"] = "ada".into();
    let twice = dir.path().join("twice.json");
    std::fs::write(&twice, report.to_string()).unwrap();
    for (old, new) in [(&fixture, &twice), (&twice, &fixture)] {
        let out = run(&["compare", old.to_str().unwrap(), new.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
        let said = text(&out.stderr);
        assert!(
            said.contains(&format!(
                "{}: submissions[0] and submissions[3] are both named ada",
                twice.display()
            )),
            "{said}"
        );
        assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    }
}

/// The challenges folder of a copy of rendezvous-router with a small
/// suite, so that a test's several gradings stay quick.
pub(crate) fn small_challenge(dir: &Path) -> std::path::PathBuf {
    let challenges = dir.join("challenges");
    let copy = challenges.join("rendezvous-router");
    copy_tree(&root().join("challenges/rendezvous-router"), &copy, |rel| {
        !rel.starts_with("tests")
    });
    copy_tree(
        &root().join("tests/fixtures/reports/suites/rendezvous-router"),
        &copy.join("tests"),
        |_| true,
    );
    challenges
}

/// Four students, for the tests of a class graded in two shards (the
/// shard test checks that each shard holds some of them); given
/// as [`class_of_files`] takes them.
pub(crate) const SHARDED_CLASS: [(&str, &str); 4] = [
    ("alice.py", "correct_class.py"),
    ("bob.py", "lowest_score.py"),
    ("carol.py", "no_separator.py"),
    ("dan.py", "first_maximum.py"),
];

/// A class folder of students each a file: `(name, file of submissions/python)`.
pub(crate) fn class_of_files(class: &Path, students: &[(&str, &str)]) {
    std::fs::create_dir_all(class).unwrap();
    for (name, file) in students {
        std::fs::copy(
            root().join("submissions/python").join(file),
            class.join(name),
        )
        .unwrap();
    }
}

/// `grader grade` with the challenges in `challenges`, into the results
/// folder `results`, with `extra` options, of `paths`; it must grade
/// (exit 0 or 1).
pub(crate) fn grade_into(challenges: &Path, results: &Path, extra: &[&str], paths: &[&Path]) {
    let out = try_grade_into(challenges, results, extra, paths);
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        text(&out.stderr)
    );
}

/// The same, answering how it ended.
pub(crate) fn try_grade_into(
    challenges: &Path,
    results: &Path,
    extra: &[&str],
    paths: &[&Path],
) -> std::process::Output {
    let mut args = vec![
        "--challenges",
        challenges.to_str().unwrap(),
        "grade",
        "--jobs",
        "2",
        "--results",
        results.to_str().unwrap(),
    ];
    args.extend_from_slice(extra);
    args.extend(paths.iter().map(|p| p.to_str().unwrap()));
    run(&args)
}

/// The students a results folder holds a result of, by file name.
pub(crate) fn saved_names(dir: &Path) -> Vec<String> {
    results(dir).into_keys().collect()
}

/// Rejudging matches students by name too: a result file copied under
/// another name is refused, naming both files, and nothing is graded.
#[test]
fn rejudge_refuses_a_folder_holding_two_results_of_one_student() {
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
    let copy = folder.join("alice-copy.result.json");
    std::fs::copy(folder.join("alice.py.result.json"), &copy).unwrap();
    let out = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stdout));
    let said = text(&out.stderr);
    assert!(said.contains(&copy.display().to_string()), "{said}");
    assert!(
        said.contains(&folder.join("alice.py.result.json").display().to_string()),
        "{said}"
    );
    assert!(said.contains("both hold the result of alice.py"), "{said}");
}

/// A rejudge of `folder` changes nobody (exit 0, no one gone), and
/// `--apply` keeps every student it holds.
fn rejudged_keeps_everyone(folder: &Path) {
    let before = saved_names(folder);
    let out = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "nothing changed, yet:\n{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    assert!(!text(&out.stdout).contains("gone"), "{}", text(&out.stdout));
    let out = run(&["rejudge", "--apply", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(saved_names(folder), before, "--apply dropped students");
}

/// A class graded into a folder, then one of its students and a late one
/// from elsewhere added with --resume (the way to finish an interrupted
/// run, or to grade a late student): the folder holds them all, and its
/// record of the command names them all, so a rejudge grades them all.
#[test]
fn rejudge_grades_every_student_the_runs_resumed_into_a_folder_graded() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(
        &class,
        &[
            ("alice.py", "correct_class.py"),
            ("bob.py", "lowest_score.py"),
            ("carol.py", "no_separator.py"),
        ],
    );
    let late = dir.path().join("late");
    class_of_files(&late, &[("dan.py", "first_maximum.py")]);
    let folder = dir.path().join("results");
    grade_into(&challenges, &folder, &[], &[&class]);
    grade_into(
        &challenges,
        &folder,
        &["--resume"],
        &[&class.join("alice.py")],
    );
    grade_into(&challenges, &folder, &["--resume"], &[&late.join("dan.py")]);
    assert_eq!(
        saved_names(&folder),
        [
            "alice.py.result.json",
            "bob.py.result.json",
            "carol.py.result.json",
            "dan.py.result.json"
        ]
    );
    rejudged_keeps_everyone(&folder);
    // A student added to the class since is still graded, as new.
    class_of_files(&class, &[("erin.py", "correct_class.py")]);
    let out = run(&["rejudge", "--results", folder.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("1 student changes"), "{said}");
    assert!(said.contains("erin.py  new: accepted"), "{said}");
}

/// The shards of a class graded one after the other into one folder with
/// --resume: the record names each shard, and a rejudge grades them all.
#[test]
fn rejudge_grades_every_shard_resumed_into_one_folder() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    class_of_files(&class, &SHARDED_CLASS);
    let folder = dir.path().join("results");
    grade_into(&challenges, &folder, &["--shard", "1/2"], &[&class]);
    let first = saved_names(&folder).len();
    assert!(first > 0 && first < 4, "both shards hold students: {first}");
    grade_into(
        &challenges,
        &folder,
        &["--shard", "2/2", "--resume"],
        &[&class],
    );
    // Again, which changes nothing the record says.
    grade_into(
        &challenges,
        &folder,
        &["--shard", "2/2", "--resume"],
        &[&class],
    );
    assert_eq!(saved_names(&folder).len(), 4);
    rejudged_keeps_everyone(&folder);
}
