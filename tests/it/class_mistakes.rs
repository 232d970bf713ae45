//! The class's mistake table, through the binary: a class made of shipped
//! examples that name known mistakes (one alone, two made together,
//! answers that change between runs) is graded once, and the human
//! report, the GitHub step summary and the gradebook each show the counts
//! that `submissions/expected.toml` implies for those examples.

use crate::support::{grader, output, root, run, tempdir, text};
use std::collections::BTreeMap;

/// The examples the class is made of: each their own student.
const CLASS: [&str; 9] = [
    "python/lowest_score.py",
    "python/lowest_no_separator.py",
    "python/no_separator.py",
    "python/wrong_separator.py",
    "python/double_colon.py",
    "python/no_finalizer.py",
    "python/partial_finalizer.py",
    "python/salted_ties.py",
    "python/correct_class.py",
];

/// What the manifest says of one example.
#[derive(Default)]
struct Expected {
    mistake: Option<String>,
    with: Option<String>,
    nondeterministic: bool,
}

fn manifest() -> BTreeMap<String, Expected> {
    let manifest: toml::Value =
        toml::from_str(&std::fs::read_to_string(root().join("submissions/expected.toml")).unwrap())
            .unwrap();
    let mut found = BTreeMap::new();
    for example in manifest["example"].as_array().unwrap() {
        let text = |key: &str| {
            example
                .get(key)
                .and_then(|v| v.as_str())
                .filter(|v| *v != "none")
                .map(str::to_owned)
        };
        found.insert(
            example["path"].as_str().unwrap().to_owned(),
            Expected {
                mistake: text("mistake"),
                with: text("with"),
                nondeterministic: example
                    .get("nondeterministic")
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false),
            },
        );
    }
    found
}

#[test]
fn the_mistake_table_counts_what_the_manifest_says_in_every_output() {
    let manifest = manifest();
    let dir = tempdir();
    let class = dir.path().join("class");
    // Per student (their folder's name), what the manifest expects.
    let mut students: BTreeMap<String, &Expected> = BTreeMap::new();
    for path in CLASS {
        let name = std::path::Path::new(path)
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .replace('_', "-");
        std::fs::create_dir_all(class.join(&name)).unwrap();
        std::fs::copy(
            root().join("submissions").join(path),
            class.join(&name).join("router.py"),
        )
        .unwrap();
        students.insert(name, &manifest[path]);
    }
    // The counts the manifest implies: a student once per mistake named.
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut pairs: BTreeMap<(&str, &str), usize> = BTreeMap::new();
    for e in students.values() {
        for id in e.mistake.iter().chain(&e.with) {
            *counts.entry(id.as_str()).or_default() += 1;
        }
        if let (Some(a), Some(b)) = (&e.mistake, &e.with) {
            *pairs.entry((a.as_str(), b.as_str())).or_default() += 1;
        }
    }
    let changing = students.values().filter(|e| e.nondeterministic).count();
    assert!(counts.values().any(|&n| n > 1), "a mistake made twice");
    assert!(!pairs.is_empty() && changing > 0);

    let report = dir.path().join("report.json");
    let gradebook = dir.path().join("gradebook.csv");
    let out = run(&[
        "grade",
        "--jobs",
        "2",
        "--format",
        "json",
        "--output",
        report.to_str().unwrap(),
        "--gradebook",
        gradebook.to_str().unwrap(),
        class.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));

    let human = run(&["merge", report.to_str().unwrap()]);
    let human = text(&human.stdout);
    let table = human
        .split_once("mistakes across the class")
        .unwrap_or_else(|| panic!("no table:\n{human}"))
        .1;
    assert!(
        table.starts_with(&format!(" ({} students judged;", students.len())),
        "{table}"
    );
    let judged = students.len();
    let share = |n: usize| {
        let tenths = (n * 2000 + judged) / (2 * judged);
        if tenths.is_multiple_of(10) {
            format!("{}%", tenths / 10)
        } else {
            format!("{}.{}%", tenths / 10, tenths % 10)
        }
    };
    let row = |lead: &str| -> Vec<String> {
        let line = table
            .lines()
            .find(|l| l.trim_start().starts_with(lead))
            .unwrap_or_else(|| panic!("no row for {lead}:\n{table}"));
        line.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect()
    };
    for (id, n) in &counts {
        let cells = row(&format!("{id} ("));
        assert!(
            cells[1] == n.to_string() || cells[1].starts_with(&format!("{n} (")),
            "{id}: {cells:?}"
        );
        assert_eq!(cells[2], share(*n), "{id}");
    }
    for ((a, b), n) in &pairs {
        let cells = row(&format!("made together: {a} + {b}"));
        assert_eq!(cells[1..], [n.to_string(), share(*n)]);
    }
    let mistake_rows = table.lines().filter(|l| l.contains(" (")).count();
    assert!(mistake_rows >= counts.len());
    assert!(
        table.contains(&format!(
            "{changing} student whose answers change between runs"
        )),
        "{table}"
    );

    // The step summary: the same counts in Markdown.
    let summary = dir.path().join("summary.md");
    let github = output(
        grader()
            .args(["merge", "--format", "github", report.to_str().unwrap()])
            .env("GITHUB_STEP_SUMMARY", &summary),
    );
    assert_eq!(github.status.code(), Some(1), "{}", text(&github.stderr));
    let md = std::fs::read_to_string(&summary).unwrap();
    let md = md.split_once("#### Mistakes across the class").unwrap().1;
    for (id, n) in &counts {
        let line = md
            .lines()
            .find(|l| l.starts_with(&format!("| `{id}` |")))
            .unwrap_or_else(|| panic!("no row for {id}:\n{md}"));
        let cells: Vec<&str> = line.split(" | ").collect();
        assert!(cells[2].starts_with(&n.to_string()), "{line}");
        assert_eq!(cells[3].trim_end_matches(" |"), share(*n), "{line}");
    }
    for ((a, b), n) in &pairs {
        assert!(
            md.contains(&format!(
                "| `{a}` + `{b}` | made together | {n} | {} |",
                share(*n)
            )),
            "{md}"
        );
    }

    // The gradebook: each student's mistake and whether answers changed.
    let csv = std::fs::read_to_string(&gradebook).unwrap();
    let mut lines = csv.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let column = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let (student, mistake, changed) = (
        column("student"),
        column("mistake"),
        column("nondeterministic"),
    );
    let mut seen = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let e = students[cells[student]];
        let named: Vec<&str> = e
            .mistake
            .iter()
            .chain(&e.with)
            .map(|s| s.as_str())
            .collect();
        assert_eq!(cells[mistake], named.join("+"), "{line}");
        assert_eq!(cells[changed], e.nondeterministic.to_string(), "{line}");
        seen += 1;
    }
    assert_eq!(seen, students.len());
}
