//! Scores are exact: points counted in a unit shared by the whole run,
//! the float scores derived from them, and people shown them rounded once.

use crate::support::{json, output, root, run, tempdir};
use serde_json::{Value, json};
use std::path::Path;

/// A challenge whose groups do not divide evenly: `thirds` (10 points over
/// three tests) and `pair` (5 points, all or nothing, over two). In each,
/// one test has several nodes, where keeping the lowest score goes wrong,
/// and the others a single node, where it cannot.
fn uneven(dir: &Path, weight: &str) {
    let challenge = dir.join("uneven");
    std::fs::create_dir_all(challenge.join("tests/thirds")).unwrap();
    std::fs::create_dir_all(challenge.join("tests/pair")).unwrap();
    std::fs::write(
        challenge.join("challenge.toml"),
        format!(
            "title = \"Uneven\"\nreference = \"rendezvous-router\"\noperations = [\"route\", \"add\", \"remove\"]\n\n\
             [[groups]]\nname = \"thirds\"\nweight = {weight}\n\n\
             [[groups]]\nname = \"pair\"\nweight = 5\nscoring = \"all-or-nothing\"\n"
        ),
    )
    .unwrap();
    let alone = r#"[[["solo"]],[["route","k1"],["route","k2"]]]"#;
    let many = r#"[[["n1","n2","n3","n4"]],[["route","a"],["route","b"],["route","c"],["route","d"],["route","e"]]]"#;
    for (file, case) in [
        ("thirds/one.json", alone),
        ("thirds/two.json", alone),
        ("thirds/three.json", many),
        ("pair/one.json", alone),
        ("pair/two.json", many),
    ] {
        std::fs::write(challenge.join("tests").join(file), case).unwrap();
    }
}

fn grade(challenges: &Path, format: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "--challenges",
        challenges.to_str().unwrap(),
        "grade",
        "--challenge",
        "uneven",
        "--format",
        format,
    ];
    args.extend(extra);
    args.push("submissions/python/lowest_score.py");
    run(&args)
}

#[test]
fn scores_are_exact_points_and_people_see_them_rounded_once() {
    let dir = tempdir();
    uneven(dir.path(), "10");
    let out = grade(dir.path(), "json", &[]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        crate::support::text(&out.stderr)
    );
    let report: Value = json(&out);
    let s = &report["submissions"][0];
    let verdicts: Vec<String> = s["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| format!("{}/{} {}", t["group"], t["name"], t["verdict"]).replace('"', ""))
        .collect();
    // The single-node tests pass, the others fail.
    assert_eq!(
        verdicts,
        [
            "thirds/one accepted",
            "thirds/three wrong-answer",
            "thirds/two accepted",
            "pair/one accepted",
            "pair/two wrong-answer",
        ],
        "{s:#}"
    );
    // Sixths of a point (the least common multiple of 3 and 2): a test of
    // `thirds` is worth 10/3 points, 20 sixths; `pair` is lost whole.
    assert_eq!(
        s["points"],
        json!({"earned": 40, "total": 90, "denominator": 6})
    );
    let groups: Vec<&Value> = s["groups"].as_array().unwrap().iter().collect();
    assert_eq!(
        groups
            .iter()
            .map(|g| (g["name"].as_str().unwrap(), g["points"].clone()))
            .collect::<Vec<_>>(),
        [
            (
                "thirds",
                json!({"earned": 40, "total": 60, "denominator": 6})
            ),
            ("pair", json!({"earned": 0, "total": 30, "denominator": 6})),
        ]
    );
    for t in s["tests"].as_array().unwrap() {
        let share = if t["group"] == "thirds" { 20 } else { 15 };
        let earned = if t["group"] == "thirds" && t["verdict"] == "accepted" {
            share
        } else {
            // `pair`'s accepted test earns nothing: its group failed.
            0
        };
        assert_eq!(
            t["points"],
            json!({"earned": earned, "total": share, "denominator": 6}),
            "{t:#}"
        );
    }
    // The float score is the exact value's, once: 40/6, not a sum of shares.
    assert_eq!(s["score"].as_f64(), Some(40.0 / 6.0));
    assert_eq!(s["max_score"].as_f64(), Some(15.0));

    // People see 6.67 of 15, and a group's 6.67 of 10.
    let human = crate::support::text(&grade(dir.path(), "human", &[]).stdout);
    assert!(human.contains("score 6.67 of 15"), "{human}");
    assert!(human.contains("thirds 6.67/10"), "{human}");
    let csv = dir.path().join("gradebook.csv");
    grade(dir.path(), "json", &["--gradebook", csv.to_str().unwrap()]);
    let csv = std::fs::read_to_string(&csv).unwrap();
    let row: Vec<&str> = csv.lines().nth(1).unwrap().split(',').collect();
    // The points, then the mistake and nondeterministic columns.
    assert_eq!(
        row[row.len() - 5..row.len() - 2],
        ["40", "90", "6"],
        "{csv}"
    );
}

#[test]
fn a_weight_that_is_not_a_whole_number_is_refused() {
    let dir = tempdir();
    uneven(dir.path(), "2.5");
    let out = output(crate::support::grader().current_dir(root()).args([
        "--challenges",
        dir.path().to_str().unwrap(),
        "validate",
        "--challenge",
        "uneven",
    ]));
    assert_eq!(out.status.code(), Some(2));
    let stderr = crate::support::text(&out.stderr);
    assert!(
        stderr.contains("group `thirds` has weight 2.5; a weight is a whole number of points"),
        "{stderr}"
    );
}
