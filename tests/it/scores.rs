//! Scores are exact: points counted in a unit shared by the whole run,
//! the float scores derived from them, and people shown them rounded once.

use crate::support::{json, output, root, run, tempdir, text};
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

/// A challenge of one group of eleven tests, a point for the group: one
/// test with a single node (which keeping the lowest score passes) and ten
/// with several (which it fails), so that its scores are elevenths, whose
/// floats a lossy reading changes in the last digit.
fn elevenths(dir: &Path) {
    let challenge = dir.join("elevenths");
    std::fs::create_dir_all(challenge.join("tests/g")).unwrap();
    std::fs::write(
        challenge.join("challenge.toml"),
        "title = \"Elevenths\"\nreference = \"rendezvous-router\"\noperations = [\"route\", \"add\", \"remove\"]\n\n\
         [[groups]]\nname = \"g\"\nweight = 1\n",
    )
    .unwrap();
    std::fs::write(
        challenge.join("tests/g/alone.json"),
        r#"[[["solo"]],[["route","k1"],["route","k2"]]]"#,
    )
    .unwrap();
    for i in 0..10 {
        std::fs::write(
            challenge.join(format!("tests/g/many-{i}.json")),
            format!(r#"[[["n1","n2","n3","n4"]],[["route","a{i}"],["route","b{i}"],["route","c{i}"],["route","d{i}"],["route","e{i}"]]]"#),
        )
        .unwrap();
    }
}

/// `text` with every time (and whether a build was cached) written as 0
/// and false, the rest byte for byte.
fn redact_times(text: &str) -> String {
    let mut out = text.to_owned();
    for key in [
        "\"time_ms\": ",
        "\"cpu_ms\": ",
        "\"started_at_ms\": ",
        "\"finished_at_ms\": ",
    ] {
        let mut rest = out.as_str();
        let mut redacted = String::new();
        while let Some(at) = rest.find(key) {
            redacted.push_str(&rest[..at + key.len()]);
            rest = rest[at + key.len()..].trim_start_matches(|c: char| c.is_ascii_digit());
            redacted.push('0');
        }
        redacted.push_str(rest);
        out = redacted;
    }
    out.replace("\"cached\": true", "\"cached\": false")
}

/// A class with scores in elevenths, graded whole and in three shards
/// merged: the same gradebooks and JSON report, byte for byte, even when
/// the shards' float scores were read back a digit off (as a lossy float
/// parser reads them), since every score is derived from the exact points.
#[test]
fn merged_shards_give_the_whole_runs_scores_to_the_last_digit() {
    let dir = tempdir();
    elevenths(dir.path());
    let class = dir.path().join("class");
    for name in [
        "correct_class",
        "lowest_score",
        "first_node",
        "ties_larger_name",
        "added_twice",
        "remove_absent_raises",
    ] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(
            root().join(format!("submissions/python/{name}.py")),
            class.join(name).join("router.py"),
        )
        .unwrap();
    }
    let challenges = dir.path().to_str().unwrap().to_owned();
    let grade = |extra: &[&str]| {
        let mut args = vec![
            "--challenges",
            &challenges,
            "grade",
            "--challenge",
            "elevenths",
            "--format",
            "json",
            "--exit-zero",
        ];
        args.extend(extra);
        args.push(class.to_str().unwrap());
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let at = |name: &str| dir.path().join(name).to_str().unwrap().to_owned();
    let whole = grade(&["--gradebook", &at("whole.csv")]);
    grade(&["--gradebook", &at("whole.json")]);
    // One eleventh, whose float a lossy reading gets a digit off.
    let report: Value = serde_json::from_str(&whole).unwrap();
    let lowest = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "lowest_score")
        .unwrap();
    assert_eq!(
        lowest["points"],
        json!({"earned": 1, "total": 11, "denominator": 11})
    );
    let exact = "0.09090909090909091";
    let off = "0.09090909090909093";
    assert!(whole.contains(&format!("\"score\": {exact}")), "{whole}");
    let mut shards = Vec::new();
    for k in 1..=3 {
        let shard = grade(&["--shard", &format!("{k}/3")]);
        let file = at(&format!("shard-{k}.json"));
        std::fs::write(&file, shard.replace(exact, off)).unwrap();
        shards.push(file);
    }
    assert!(
        shards
            .iter()
            .any(|f| std::fs::read_to_string(f).unwrap().contains(off)),
        "a shard holds an eleventh"
    );
    for gradebook in ["merged.csv", "merged.json"] {
        let mut args = vec!["merge", "--exit-zero", "--gradebook"];
        let path = at(gradebook);
        args.push(&path);
        args.extend(shards.iter().map(String::as_str));
        let out = run(&args);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    for (merged, graded) in [("merged.csv", "whole.csv"), ("merged.json", "whole.json")] {
        let merged = std::fs::read_to_string(dir.path().join(merged)).unwrap();
        let graded = std::fs::read_to_string(dir.path().join(graded)).unwrap();
        assert!(graded.contains(exact), "{graded}");
        assert_eq!(merged, graded);
    }
    let mut args = vec!["merge", "--exit-zero", "--format", "json"];
    args.extend(shards.iter().map(String::as_str));
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(redact_times(&text(&out.stdout)), redact_times(&whole));
}
