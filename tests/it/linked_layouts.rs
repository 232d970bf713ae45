//! A class as courses really assemble one: students' folders that are
//! links to checkouts elsewhere, a parent folder that is a link, paths
//! given with `..`. The sandbox grants each path where it resolves, and
//! beneath its covers only those paths exist, so every submission must be
//! handed to its session by its resolved folder: a correct student in any
//! of these layouts, in every language, is accepted exactly as the same
//! files in a plain folder.

use crate::support::{grader, json, output, root, tempdir, text};
use serde_json::Value;
use std::os::unix::fs::symlink;
use std::path::Path;

/// A correct example of each language, and the name it is submitted as.
const CORRECT: [(&str, &str); 5] = [
    ("submissions/python/correct_class.py", "router.py"),
    ("submissions/javascript/correct.cjs", "router.cjs"),
    ("submissions/typescript/correct.ts", "router.ts"),
    ("submissions/rust/correct.rs", "router.rs"),
    ("submissions/executable/router", "router"),
];

/// Copies each correct example into `folder/<language>/`, keeping an
/// executable's mode.
fn checkouts(folder: &Path) -> Vec<String> {
    let mut students = Vec::new();
    for (example, name) in CORRECT {
        let student = Path::new(example)
            .parent()
            .and_then(Path::file_name)
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let dir = folder.join(&student);
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(root().join(example), dir.join(name)).unwrap();
        students.push(student);
    }
    students
}

/// Grades `paths` (from `cwd`) on the edge group (30 points), in JSON, and
/// returns each submission's name with its verdict and score.
fn grade(cwd: &Path, cache: &Path, paths: &[&str]) -> Vec<(String, String, Value)> {
    let mut command = grader();
    command
        .current_dir(cwd)
        .args(["grade", "--format", "json", "--cache-dir"])
        .arg(cache)
        .arg("--tests")
        .arg(root().join("challenges/rendezvous-router/tests/edge"))
        .args(paths);
    let out = output(&mut command);
    let report: Value = json(&out);
    let submissions = match report["submissions"].as_array() {
        Some(all) => all.clone(),
        None => vec![report.clone()],
    };
    let rows: Vec<_> = submissions
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_owned(),
                s["verdict"].as_str().unwrap_or_default().to_owned(),
                s["score"].clone(),
            )
        })
        .collect();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{rows:?}\n{}\n{}",
        text(&out.stderr),
        text(&out.stdout)
    );
    rows
}

fn assert_all_accepted(rows: &[(String, String, Value)], expected: usize) {
    assert_eq!(rows.len(), expected, "{rows:?}");
    for (name, verdict, score) in rows {
        assert_eq!(verdict, "accepted", "{name}: {rows:?}");
        assert_eq!(score.as_f64(), Some(30.0), "{name}: {rows:?}");
    }
}

#[test]
fn a_class_of_links_to_checkouts_is_graded_as_its_targets() {
    let dir = tempdir();
    let elsewhere = dir.path().join("elsewhere");
    let students = checkouts(&elsewhere);
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    for student in &students {
        // Absolute links, as a script assembling a class makes them...
        symlink(elsewhere.join(student), class.join(student)).unwrap();
    }
    // ...and a relative one.
    let relative = dir.path().join("relative-class");
    std::fs::create_dir_all(&relative).unwrap();
    symlink("../elsewhere/python", relative.join("python")).unwrap();
    let cache = dir.path().join("cache");
    let rows = grade(dir.path(), &cache, &["class"]);
    assert_all_accepted(&rows, students.len());
    let rows = grade(dir.path(), &cache, &["relative-class"]);
    assert_all_accepted(&rows, 1);
}

#[test]
fn a_linked_parent_folder_and_paths_with_dots_are_graded_as_their_targets() {
    let dir = tempdir();
    let real = dir.path().join("real");
    checkouts(&real);
    symlink(&real, dir.path().join("linkparent")).unwrap();
    std::fs::create_dir_all(dir.path().join("other")).unwrap();
    let cache = dir.path().join("cache");
    for (example, name) in CORRECT {
        let language = Path::new(example).parent().unwrap().file_name().unwrap();
        let language = language.to_str().unwrap();
        for path in [
            format!("linkparent/{language}/{name}"),
            format!("other/../real/{language}/{name}"),
            format!("linkparent/../real/{language}/./{name}"),
        ] {
            let rows = grade(dir.path(), &cache, &[&path]);
            assert_all_accepted(&rows, 1);
        }
    }
}
