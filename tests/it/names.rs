//! One name per student in every format, with the submission's path
//! beside it where the format has room, and never two students alike.

use crate::support::{grader, output, root, tempdir, text};
use serde_json::Value;
use std::path::{Path, PathBuf};

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// A path as reports show it: the newline of a name written `\n`.
fn shown(path: &str) -> String {
    path.replace('\n', "\\n")
}

/// The class: a folder and a file of one stem, a space, letters beyond
/// ASCII, two names alike once shown (a newline; a backslash and `n`),
/// and a second class with an `ada` of its own. Each student's name, as
/// every format must call them, and the file graded.
fn classes(dir: &Path) -> (Vec<PathBuf>, Vec<(&'static str, PathBuf)>) {
    let class = dir.join("class");
    let other = dir.join("nested/other");
    let put = |folder: &Path, file: &str, source: &str| -> PathBuf {
        std::fs::create_dir_all(folder).unwrap();
        let path = folder.join(file);
        std::fs::copy(root().join(source), &path).unwrap();
        path
    };
    let correct = "submissions/python/correct_class.py";
    let wrong = "submissions/python/lowest_score.py";
    let students = vec![
        ("a\\nb", put(&class.join("a\nb"), "router.py", wrong)),
        ("a\\nb (2)", put(&class.join("a\\nb"), "router.py", correct)),
        ("class/ada", put(&class.join("ada"), "router.py", correct)),
        (
            "ada.py",
            put(&class, "ada.py", "submissions/python/correct_solve.py"),
        ),
        (
            "with space",
            put(&class.join("with space"), "router.py", wrong),
        ),
        ("ünï", put(&class.join("ünï"), "router.py", wrong)),
        ("other/ada", put(&other.join("ada"), "router.py", wrong)),
    ];
    (vec![class, other], students)
}

#[test]
fn every_format_calls_each_student_by_one_name_with_their_path_beside_it() {
    let dir = tempdir();
    let (paths, students) = classes(dir.path());
    let results = dir.path().join("results");
    let cache = tempdir();
    let grade = |format: &str, extra: &[&std::ffi::OsStr]| {
        let mut command = grader();
        command
            .args([
                "grade",
                "--exit-zero",
                "--tests",
                SAMPLE,
                "--format",
                format,
            ])
            .arg("--cache-dir")
            .arg(cache.path())
            .arg("--results")
            .arg(&results)
            .args(extra)
            .args(&paths)
            .env_remove("GITHUB_STEP_SUMMARY");
        let out = output(&mut command);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{format}: {}",
            text(&out.stderr)
        );
        out
    };
    let csv = dir.path().join("gradebook.csv");
    let first = grade(
        "json",
        &[std::ffi::OsStr::new("--gradebook"), csv.as_os_str()],
    );
    let report: Value = serde_json::from_slice(&first.stdout).unwrap();
    let submissions = report["submissions"].as_array().unwrap();
    let names: Vec<(&str, &str)> = submissions
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["path"].as_str().unwrap()))
        .collect();
    let wanted: Vec<(&str, String)> = students
        .iter()
        .map(|(n, p)| (*n, p.display().to_string()))
        .collect();
    assert_eq!(
        names,
        wanted
            .iter()
            .map(|(n, p)| (*n, p.as_str()))
            .collect::<Vec<_>>()
    );
    // Progress (stderr, no terminal): the name, then the path.
    let progress = text(&first.stderr);
    for (name, path) in &wanted {
        let line = format!(" {name} ({}): ", shown(path));
        assert!(progress.contains(&line), "no {line:?} in\n{progress}");
    }
    // The gradebooks: the name, then the path.
    let csv = std::fs::read_to_string(&csv).unwrap();
    for (name, path) in &wanted {
        let row = format!("\n{name},{},", shown(path));
        assert!(csv.contains(&row), "no {row:?} in\n{csv}");
    }
    // The results folder: a file per name, holding that name.
    for (name, _) in &wanted {
        let file = results.join(format!("{}.result.json", name.replace('/', "%2F")));
        let saved: Value = serde_json::from_slice(&std::fs::read(&file).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        assert_eq!(saved["report"]["name"], *name);
    }

    // The rest resume from the results: the same names, every format.
    let resume = std::ffi::OsStr::new("--resume");
    let human = text(&grade("human", &[resume]).stdout);
    for (name, path) in &wanted {
        let heading = format!("\n{name} · {} (", shown(path));
        assert!(human.contains(&heading), "no {heading:?} in\n{human}");
    }
    let junit = text(&grade("junit", &[resume]).stdout);
    for (name, path) in &wanted {
        for needle in [
            format!("<testsuite name=\"{name}\" "),
            format!("<property name=\"path\" value=\"{}\"/>", shown(path)),
            format!("classname=\"{name}.sample\""),
        ] {
            assert!(junit.contains(&needle), "no {needle:?} in junit");
        }
    }
    let ctrf: Value = serde_json::from_slice(&grade("ctrf", &[resume]).stdout).unwrap();
    for (name, path) in &wanted {
        let tests: Vec<&Value> = ctrf["results"]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["suite"][0] == *name)
            .collect();
        assert_eq!(tests.len(), 3, "{name}");
        for t in tests {
            assert_eq!(t["filePath"], *path.as_str());
            assert!(
                t["name"]
                    .as_str()
                    .unwrap()
                    .starts_with(&format!("{name} :: "))
            );
        }
        assert!(
            ctrf["results"]["extra"]["submissions"]
                .as_array()
                .unwrap()
                .iter()
                .any(|s| s["name"] == *name && s["path"] == *path.as_str()),
            "{name}"
        );
    }
    let summary = dir.path().join("summary.md");
    let mut command = grader();
    command
        .args([
            "grade",
            "--exit-zero",
            "--tests",
            SAMPLE,
            "--format",
            "github",
            "--resume",
        ])
        .arg("--cache-dir")
        .arg(cache.path())
        .arg("--results")
        .arg(&results)
        .args(&paths)
        .env("GITHUB_STEP_SUMMARY", &summary);
    let github = text(&output(&mut command).stdout);
    let summary = std::fs::read_to_string(&summary).unwrap();
    for (name, path) in &wanted {
        // A table cell escapes the backslash.
        let cell = |s: &str| s.replace('\\', "\\\\");
        let row = format!("| {} | {} |", cell(name), cell(&shown(path)));
        assert!(summary.contains(&row), "no {row:?} in\n{summary}");
        let heading = format!("\n{name} · {} (", shown(path));
        assert!(github.contains(&heading), "no {heading:?} in github");
    }
    // Each failing student's annotation: their path, and their name in the title.
    for (name, path) in [&wanted[0], &wanted[4], &wanted[5], &wanted[6]] {
        let path = shown(path).replace(':', "%3A").replace(',', "%2C");
        let annotation = format!("::error file={path},title={name}%3A sample/");
        assert!(
            github.lines().any(|l| l.starts_with(&annotation)),
            "no {annotation:?} in\n{github}"
        );
    }
    // The JSON gradebook, from a merge of the report.
    let whole = dir.path().join("whole.json");
    std::fs::write(&whole, serde_json::to_vec(&report).unwrap()).unwrap();
    let book = dir.path().join("gradebook.json");
    let merged = output(
        grader()
            .args(["merge", "--exit-zero", "--gradebook"])
            .arg(&book)
            .arg(&whole),
    );
    assert_eq!(merged.status.code(), Some(0), "{}", text(&merged.stderr));
    let book: Value = serde_json::from_slice(&std::fs::read(&book).unwrap()).unwrap();
    let rows: Vec<(&str, &str)> = book
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["student"].as_str().unwrap(), r["path"].as_str().unwrap()))
        .collect();
    let mut sorted: Vec<(&str, &str)> = wanted.iter().map(|(n, p)| (*n, p.as_str())).collect();
    sorted.sort();
    assert_eq!(rows, sorted);
}

#[test]
fn gradescope_names_its_one_student_and_their_path() {
    let dir = tempdir();
    let (_, students) = classes(dir.path());
    let (name, path) = &students[5];
    let out = output(
        grader()
            .args([
                "grade",
                "--exit-zero",
                "--tests",
                SAMPLE,
                "--format",
                "gradescope",
            ])
            .arg(path),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    // Graded alone, a student folder's file is named for itself.
    assert_eq!(*name, "ünï");
    assert_eq!(results["extra_data"]["name"], "router.py");
    assert_eq!(results["extra_data"]["path"], *path.to_str().unwrap());
    let said = results["output"].as_str().unwrap();
    assert!(
        said.starts_with(&format!("router.py ({}): ", path.display())),
        "{said}"
    );
    // Its folder given, the student is named for the folder.
    let folder = path.parent().unwrap();
    let out = output(
        grader()
            .args([
                "grade",
                "--exit-zero",
                "--tests",
                SAMPLE,
                "--format",
                "gradescope",
            ])
            .arg(folder),
    );
    let results: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(results["extra_data"]["name"], "ünï");
}

#[test]
fn the_same_student_given_twice_is_refused() {
    let dir = tempdir();
    let (paths, students) = classes(dir.path());
    let out = output(
        grader()
            .args(["grade", "--tests", SAMPLE])
            .arg(&paths[0])
            .arg(students[2].1.parent().unwrap()),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("is given twice: once inside "),
        "{}",
        text(&out.stderr)
    );
}

/// A student given on the command line beside their class folder is
/// named once, with where each came from, in the words given.
#[test]
fn a_student_given_with_their_class_is_named_as_given() {
    let dir = tempdir();
    let small = dir.path().join("small");
    std::fs::create_dir_all(small.join("student-01")).unwrap();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        small.join("student-01/router.py"),
    )
    .unwrap();
    let grade = |paths: &[&str]| {
        let out = output(
            grader()
                .current_dir(dir.path())
                .args(["grade", "--tests"])
                .arg(root().join(SAMPLE))
                .args(paths),
        );
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
        text(&out.stderr)
    };
    let said = grade(&["small", "small/student-01"]);
    assert!(
        said.contains("`small/student-01` is given twice: once inside `small` and once as itself; give each student once"),
        "{said}"
    );
    let said = grade(&["small/student-01", "small/student-01"]);
    assert!(
        said.contains("`small/student-01` is given twice; give each student once"),
        "{said}"
    );
}
