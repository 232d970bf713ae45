//! Grading a class: a folder of students graded in parallel, the gradebook,
//! sharding plus merge against one unsharded run, and an interrupted batch
//! resumed without regrading what was done.

use crate::support::{
    self, copy_tree, grader, json, json_ok, output, root, run, slow_class, tempdir,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

const SAMPLE: &str = "challenges/rendezvous-router/tests/sample";

/// A class: students in folders (several languages, right and wrong, one
/// without an entry file) and one as a bare file; with each one's verdict.
fn class(dir: &Path) -> (PathBuf, Vec<(&'static str, &'static str)>) {
    let class = dir.join("class");
    let students: [(&str, &str, Option<&str>, &str); 9] = [
        (
            "ada",
            "router.py",
            Some("submissions/python/correct_class.py"),
            "accepted",
        ),
        (
            "ben",
            "router.js",
            Some("submissions/javascript/correct.cjs"),
            "accepted",
        ),
        (
            "cy",
            "router.py",
            Some("submissions/python/lowest_score.py"),
            "wrong-answer",
        ),
        (
            "dee",
            "router.mjs",
            Some("submissions/javascript/correct.mjs"),
            "accepted",
        ),
        (
            "eve",
            "router.ts",
            Some("submissions/typescript/signed_compare.ts"),
            "wrong-answer",
        ),
        (
            "fay",
            "router.ts",
            Some("submissions/typescript/correct.ts"),
            "accepted",
        ),
        ("gus", "notes.txt", None, "compile-error"),
        // Panics on removing an absent node, which only "edge" does.
        (
            "hal",
            "router.rs",
            Some("submissions/rust/panics_on_remove.rs"),
            "runtime-error",
        ),
        (
            "ivy",
            "router.js",
            Some("submissions/javascript/float_multiply.js"),
            "wrong-answer",
        ),
    ];
    let mut verdicts = Vec::new();
    for (name, file, source, verdict) in students {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let text = match source {
            // Every source here stands alone (imports no sibling).
            Some(source) => std::fs::read_to_string(root().join(source)).unwrap(),
            None => "no code here".into(),
        };
        std::fs::write(folder.join(file), text).unwrap();
        verdicts.push((name, verdict));
    }
    std::fs::copy(
        root().join("submissions/python/correct_solve.py"),
        class.join("zed.py"),
    )
    .unwrap();
    verdicts.push(("zed.py", "accepted"));
    (class, verdicts)
}

/// A report's submissions without what varies from run to run (times).
fn essentials(report: &Value) -> Vec<Value> {
    report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let tests: Vec<Value> = s["tests"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| {
                    serde_json::json!([
                        t["group"],
                        t["name"],
                        t["verdict"],
                        t["score"],
                        t["message"],
                        t["divergence"]
                    ])
                })
                .collect();
            serde_json::json!([
                s["name"],
                s["path"],
                s["verdict"],
                s["score"],
                s["max_score"],
                s["passed"],
                s["total"],
                tests
            ])
        })
        .collect()
}

#[test]
fn a_class_is_graded_in_parallel_and_sharded_grading_merges_to_the_same_report() {
    let dir = tempdir();
    let (class, verdicts) = class(dir.path());
    let class_s = class.to_str().unwrap();
    // "sample" weighs nothing; "edge" carries points, so scores differ.
    let tests = dir.path().join("tests");
    copy_tree(
        &root().join("challenges/rendezvous-router/tests"),
        &tests,
        |rel| rel.starts_with("sample") || rel.starts_with("edge"),
    );
    let tests_s = tests.to_str().unwrap();
    let gradebook = dir.path().join("gradebook.csv");
    let whole = run(&[
        "grade",
        "--format",
        "json",
        "--jobs",
        "2",
        "--tests",
        tests_s,
        "--gradebook",
        gradebook.to_str().unwrap(),
        class_s,
    ]);
    assert_eq!(
        whole.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&whole.stderr)
    );
    let whole: Value = json(&whole);
    let submissions = whole["submissions"].as_array().unwrap();
    let names: Vec<&str> = submissions
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let expected_names: Vec<&str> = verdicts.iter().map(|(n, _)| *n).collect();
    assert_eq!(names, expected_names, "every student once, in name order");
    for (s, (name, verdict)) in submissions.iter().zip(&verdicts) {
        assert_eq!(s["verdict"], *verdict, "{name}");
    }
    let gus = &submissions[6];
    assert!(
        gus["tests"][0]["message"]
            .as_str()
            .unwrap()
            .contains("no entry file"),
        "{gus}"
    );

    let csv = std::fs::read_to_string(&gradebook).unwrap();
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some(
            "student,path,score,max_score,verdict,passed,total,points_earned,points_total,points_denominator,mistake,nondeterministic"
        )
    );
    let rows: Vec<&str> = lines.collect();
    assert_eq!(rows.len(), verdicts.len());
    for (row, s) in rows.iter().zip(submissions) {
        let cells: Vec<&str> = row.split(',').collect();
        assert_eq!(cells[0], s["name"].as_str().unwrap());
        assert_eq!(
            cells[2].parse::<f64>().unwrap(),
            s["score"].as_f64().unwrap()
        );
        assert_eq!(cells[4], s["verdict"].as_str().unwrap());
        let points = &s["points"];
        assert_eq!(
            cells[7..10],
            [
                points["earned"].to_string(),
                points["total"].to_string(),
                points["denominator"].to_string()
            ]
        );
        // The mistake named exactly, and no answer that changed.
        let named = match &s["mistake"] {
            Value::Object(m) if m["exact"] == true => m["id"].as_str().unwrap(),
            _ => "",
        };
        assert_eq!(cells[10..], [named, "false"], "{row}");
    }

    // Three shards, each its own run, merged.
    let mut shard_files = Vec::new();
    let mut seen = 0;
    for k in 1..=3 {
        let file = dir.path().join(format!("shard-{k}.json"));
        let out = run(&[
            "grade",
            "--format",
            "json",
            "--shard",
            &format!("{k}/3"),
            "--tests",
            tests_s,
            "--output",
            file.to_str().unwrap(),
            "--exit-zero",
            class_s,
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "--exit-zero: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let shard: Value = serde_json::from_slice(&std::fs::read(&file).unwrap()).unwrap();
        seen += shard["submissions"].as_array().unwrap().len();
        shard_files.push(file);
    }
    assert_eq!(
        seen,
        verdicts.len(),
        "the shards cover the class, each student once"
    );
    let mut args = vec!["merge", "--format", "json"];
    args.extend(shard_files.iter().map(|f| f.to_str().unwrap()));
    let merged = run(&args);
    assert_eq!(merged.status.code(), Some(1));
    let merged: Value = json(&merged);
    assert_eq!(essentials(&merged), essentials(&whole));

    // Merging a shard twice is refused: it would count students twice.
    let nonempty = shard_files
        .iter()
        .find(|f| {
            let r: Value = serde_json::from_slice(&std::fs::read(f).unwrap()).unwrap();
            !r["submissions"].as_array().unwrap().is_empty()
        })
        .unwrap();
    let twice = run(&[
        "merge",
        nonempty.to_str().unwrap(),
        nonempty.to_str().unwrap(),
    ]);
    assert_eq!(twice.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&twice.stderr).contains("is given 2 times"));
}

#[test]
fn an_interrupted_batch_resumes_without_regrading() {
    let dir = tempdir();
    // Each student takes about a second per case, so the batch can be
    // stopped half-way.
    let class = slow_class(dir.path());
    let names: Vec<String> = (0..6).map(|i| format!("s{i}")).collect();
    let results = dir.path().join("results");
    let args = |resume: bool| {
        let mut a = vec![
            "grade".to_owned(),
            "--format".into(),
            "json".into(),
            "--jobs".into(),
            "1".into(),
            "--tests".into(),
            SAMPLE.into(),
            "--results".into(),
            results.to_str().unwrap().into(),
        ];
        if resume {
            a.push("--resume".into());
        }
        a.push(class.to_str().unwrap().into());
        a
    };
    let saved = || -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(&results)
            .map(|d| {
                d.flatten()
                    .filter_map(|e| {
                        e.file_name()
                            .to_str()?
                            .strip_suffix(".result.json")
                            .map(str::to_owned)
                    })
                    .collect()
            })
            .unwrap_or_default();
        v.sort();
        v
    };
    // A grader killed half-way: it runs under the gate like any other.
    let gate = support::shared();
    let mut first = grader()
        .args(args(false))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while saved().len() < 2 {
        assert!(Instant::now() < deadline, "no results appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    first.kill().unwrap();
    first.wait().unwrap();
    drop(gate);
    let before = saved();
    assert!(
        before.len() >= 2 && before.len() < names.len(),
        "interrupted half-way: {before:?}"
    );
    let stamps: Vec<(String, std::time::SystemTime, Vec<u8>)> = before
        .iter()
        .map(|n| {
            let p = results.join(format!("{n}.result.json"));
            (
                n.clone(),
                std::fs::metadata(&p).unwrap().modified().unwrap(),
                std::fs::read(&p).unwrap(),
            )
        })
        .collect();

    let second = output(grader().args(args(true)));
    assert_eq!(
        second.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&second.stderr)
    );
    let report: Value = json(&second);
    let graded: Vec<&str> = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        graded,
        names.iter().map(String::as_str).collect::<Vec<_>>(),
        "every student in the final report"
    );
    assert!(
        report["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["verdict"] == "accepted")
    );

    // Graded once: what was saved before was not touched, and the resumed
    // run graded exactly the others.
    for (name, modified, bytes) in stamps {
        let p = results.join(format!("{name}.result.json"));
        assert_eq!(
            std::fs::metadata(&p).unwrap().modified().unwrap(),
            modified,
            "{name} was rewritten"
        );
        assert_eq!(std::fs::read(&p).unwrap(), bytes);
    }
    let progress = String::from_utf8_lossy(&second.stderr);
    assert!(
        progress.contains(&format!(
            "resuming: {} of {} already graded",
            before.len(),
            names.len()
        )),
        "{progress}"
    );
    let regraded: Vec<&str> = progress
        .lines()
        .filter_map(|l| {
            // `[k/n] name (path): verdict (score)`
            l.split_once("] ")
                .map(|(_, rest)| rest.split(" (").next().unwrap())
        })
        .collect();
    let mut expected: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !before.iter().any(|b| b == n))
        .collect();
    expected.sort();
    let mut regraded_sorted = regraded.clone();
    regraded_sorted.sort();
    assert_eq!(
        regraded_sorted, expected,
        "the resumed run grades only what was missing"
    );
}

#[test]
fn resuming_into_another_runs_results_is_refused() {
    let dir = tempdir();
    let results = dir.path().join("results");
    let r = results.to_str().unwrap();
    let first = run(&[
        "grade",
        "--tests",
        SAMPLE,
        "--results",
        r,
        "submissions/python/correct_class.py",
    ]);
    assert_eq!(first.status.code(), Some(0));
    let other = run(&[
        "grade",
        "--tests",
        "challenges/rendezvous-router/tests/edge",
        "--results",
        r,
        "--resume",
        "submissions/python/correct_class.py",
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&other.stderr).contains("holds results of another grading run")
    );
}

/// A report's JSON text with what differs from run to run set to one value
/// (times, and whether a build came from the cache): everything else must
/// be the same, byte for byte.
fn without_times(report: &Value) -> String {
    let mut report = report.clone();
    fn zero(v: &mut Value) {
        match v {
            Value::Object(map) => {
                for (k, v) in map.iter_mut() {
                    if matches!(
                        k.as_str(),
                        "time_ms" | "cpu_ms" | "started_at_ms" | "finished_at_ms"
                    ) {
                        *v = Value::from(0);
                    } else if k == "cached" {
                        *v = Value::from(false);
                    } else {
                        zero(v);
                    }
                }
            }
            Value::Array(items) => items.iter_mut().for_each(zero),
            _ => {}
        }
    }
    zero(&mut report);
    serde_json::to_string_pretty(&report).unwrap()
}

#[test]
fn shards_merged_are_the_unsharded_report_byte_for_byte_and_incomplete_sets_are_refused() {
    let dir = tempdir();
    let (class, _) = class(dir.path());
    let class = class.to_str().unwrap();
    // The samples (worth nothing) and four `edge` cases (30 points, 7.5
    // each): scores that are neither zero nor whole.
    let suite = dir.path().join("suite");
    copy_tree(&root().join(SAMPLE), &suite.join("sample"), |_| true);
    let edge = root().join("challenges/rendezvous-router/tests/edge");
    copy_tree(&edge, &suite.join("edge"), |p| {
        let name = p.file_name().unwrap().to_string_lossy();
        [
            "single-node",
            "empty-node-set",
            "remove-absent-node",
            "names-that-look-alike",
        ]
        .iter()
        .any(|case| name.starts_with(&format!("{case}.")))
    });
    let suite = suite.to_str().unwrap();
    let grade = |extra: &[&str]| -> Value {
        let mut args = vec!["grade", "--format", "json", "--exit-zero", "--tests", suite];
        args.extend(extra);
        args.push(class);
        json_ok(&run(&args))
    };
    let whole = grade(&[]);
    assert!(whole.get("shard").is_none(), "a whole run records no shard");
    // The exact points are in the report, in one unit for the whole run:
    // a submission's are its groups' summed, and its float score theirs.
    let submissions = whole["submissions"].as_array().unwrap();
    let unit = &submissions[0]["points"]["denominator"];
    assert!(unit.as_u64().is_some_and(|d| d > 0), "{unit}");
    for s in submissions {
        let points = &s["points"];
        assert_eq!(&points["denominator"], unit, "{points}");
        let sum = |field: &str| -> u64 {
            s["groups"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["points"][field].as_u64().unwrap())
                .sum()
        };
        assert_eq!(points["earned"].as_u64(), Some(sum("earned")), "{s}");
        assert_eq!(points["total"].as_u64(), Some(sum("total")), "{s}");
        let d = unit.as_f64().unwrap();
        assert_eq!(
            s["score"].as_f64(),
            Some(points["earned"].as_f64().unwrap() / d)
        );
    }
    // Some student earns part of the points, so the merge below compares
    // more than zeros and full marks.
    assert!(
        submissions.iter().any(|s| {
            s["points"]["earned"] != 0 && s["points"]["earned"] != s["points"]["total"]
        }),
        "{whole:#}"
    );
    let files = |n: u32| -> Vec<PathBuf> {
        (1..=n)
            .map(|k| {
                let file = dir.path().join(format!("shard-{k}-of-{n}.json"));
                let report = grade(&["--shard", &format!("{k}/{n}")]);
                assert_eq!(report["shard"], serde_json::json!({"index": k, "count": n}));
                std::fs::write(&file, report.to_string()).unwrap();
                file
            })
            .collect()
    };
    let merge = |files: &[&PathBuf]| {
        let mut args = vec!["merge".to_owned(), "--format".into(), "json".into()];
        args.extend(files.iter().map(|f| f.to_string_lossy().into_owned()));
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        run(&args)
    };
    let mut of_three = Vec::new();
    for n in 1..=4 {
        let shards = files(n);
        let out = merge(&shards.iter().collect::<Vec<_>>());
        assert_eq!(
            out.status.code(),
            Some(1),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let (merged, whole) = (without_times(&json(&out)), without_times(&whole));
        if let Some((i, (a, b))) = merged
            .lines()
            .zip(whole.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
        {
            let context: Vec<&str> = whole.lines().skip(i.saturating_sub(12)).take(13).collect();
            panic!(
                "{n} shards: line {i}: merged {a:?}, whole {b:?}, after\n{}",
                context.join("\n")
            );
        }
        assert_eq!(merged, whole, "{n} shards");
        if n == 3 {
            of_three = shards;
        }
    }
    // Incomplete, doubled and mixed sets: exit 2, naming what is wrong.
    let (one, two, three) = (&of_three[0], &of_three[1], &of_three[2]);
    let whole_file = dir.path().join("whole.json");
    std::fs::write(&whole_file, whole.to_string()).unwrap();
    let other_run = dir.path().join("other-run.json");
    let other = grade(&["--shard", "3/3", "--time-limit", "4321"]);
    std::fs::write(&other_run, other.to_string()).unwrap();
    for (set, said) in [
        (vec![one, two], "shard 3/3 is missing"),
        (vec![one, two, two, three], "shard 2/3 is given 2 times"),
        (vec![one, two, &other_run], "come from different runs"),
        (vec![&whole_file, one], "is the report of a whole run"),
    ] {
        let out = merge(&set);
        assert_eq!(out.status.code(), Some(2), "{set:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(said), "{set:?}: {stderr}");
    }
}

/// A report read back (`merge`, as `watch`, `rejudge` and resuming read
/// one) tells a `null` answered from no answer at all: the diff shows the
/// `null` as the answer it is, not as a difference, and the report written
/// again is the same, byte for byte.
#[test]
fn a_report_read_back_tells_a_null_answer_from_none() {
    let dir = tempdir();
    let tests = dir.path().join("tests");
    std::fs::create_dir_all(tests.join("edge")).unwrap();
    std::fs::write(
        tests.join("edge/c.json"),
        r#"[[[]],[["route","k"],["route","j"],["add","a"],["route","k"],["remove","a"],["route","k"],["route","j"]]]"#,
    )
    .unwrap();
    let class = dir.path().join("class");
    // Right on an empty router (null), wrong with a node.
    std::fs::create_dir_all(class.join("nulls")).unwrap();
    support::correct_class_with(
        &class.join("nulls"),
        "router.py",
        "_route = Router.route\n\ndef _wrong(self, key):\n    return None if _route(self, key) is None else \"b\"\n\nRouter.route = _wrong\n",
    );
    // Right, but no answer for the last two operations.
    std::fs::create_dir_all(class.join("short")).unwrap();
    let solve =
        std::fs::read_to_string(root().join("submissions/python/correct_solve.py")).unwrap();
    std::fs::write(
        class.join("short/router.py"),
        format!("{solve}\n\n_solve = solve\n\n\ndef solve(args, ops):\n    return _solve(args, ops)[:5]\n"),
    )
    .unwrap();
    let graded = |format: &str| {
        run(&[
            "grade",
            "--format",
            format,
            "--tests",
            tests.to_str().unwrap(),
            class.to_str().unwrap(),
        ])
    };
    let report = graded("json");
    assert_eq!(
        report.status.code(),
        Some(1),
        "{}",
        support::text(&report.stderr)
    );
    let file = dir.path().join("report.json");
    std::fs::write(&file, &report.stdout).unwrap();
    let parsed: Value = json(&report);
    let window = |name: &str| -> Value {
        let s = parsed["submissions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap();
        s["tests"][0]["window"].clone()
    };
    let nulls = window("nulls");
    assert_eq!(nulls["actual"][0], Value::Null, "{nulls}");
    assert_eq!(nulls["actual"][3], "b", "{nulls}");
    assert!(nulls.get("missing").is_none(), "{nulls}");
    let short = window("short");
    assert_eq!(short["actual"][5], Value::Null, "{short}");
    assert_eq!(short["missing"], serde_json::json!([5, 6]), "{short}");

    // Written again from what was read, the same bytes.
    let again = run(&["merge", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(
        again.status.code(),
        Some(1),
        "{}",
        support::text(&again.stderr)
    );
    assert!(
        again.stdout == report.stdout,
        "{}",
        support::text(&again.stdout)
    );

    // The human report read back is the one graded: the nulls as answers,
    // the missing answers as none.
    let human = graded("human");
    let read_back = run(&["merge", file.to_str().unwrap()]);
    let (human, read_back) = (
        support::text(&human.stdout),
        support::text(&read_back.stdout),
    );
    assert!(
        human.contains("    0 [\"route\",\"k\"] -> null\n"),
        "{human}"
    );
    assert!(
        human.contains("+   5 [\"route\",\"k\"] -> (no answer)\n"),
        "{human}"
    );
    assert_eq!(read_back, human);
}

/// Sends SIGINT to `child`, as Ctrl-C does.
fn interrupt(child: &std::process::Child) {
    let status = std::process::Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// Ctrl-C in the middle of a class: exit 130, saying how many results the
/// folder holds (as many as it does) and how to go on, which then works;
/// without a results folder, that nothing was saved.
#[test]
fn an_interrupted_grading_says_what_it_saved_and_exits_130() {
    let dir = tempdir();
    slow_class(dir.path());
    let sample = root().join(SAMPLE);
    let args = |extra: &[&str]| {
        let mut a = vec!["grade", "--jobs", "1", "--tests", sample.to_str().unwrap()];
        a.extend(extra);
        a.push("class");
        a.iter().map(|s| s.to_string()).collect::<Vec<_>>()
    };
    let results = dir.path().join("out/res");
    let saved = || {
        std::fs::read_dir(&results).map_or(0, |d| {
            d.flatten()
                .filter(|e| e.file_name().to_string_lossy().ends_with(".result.json"))
                .count()
        })
    };
    let gate = support::shared();
    let child = grader()
        .current_dir(dir.path())
        .args(args(&["--results", "out/res"]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while saved() < 2 {
        assert!(Instant::now() < deadline, "no results appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    drop(gate);
    let stderr = support::text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    let n = saved();
    assert!((2..6).contains(&n), "{n} saved: {stderr}");
    assert_eq!(
        stderr.lines().last(),
        Some(format!("interrupted: {n} results saved in out/res; run the same command again with --resume to grade the rest").as_str()),
        "{stderr}"
    );
    // Going on as it says grades the rest.
    let resumed =
        output(
            grader()
                .current_dir(dir.path())
                .args(args(&["--results", "out/res", "--resume"])),
        );
    assert_eq!(
        resumed.status.code(),
        Some(0),
        "{}",
        support::text(&resumed.stderr)
    );
    assert!(
        support::text(&resumed.stderr).contains(&format!("resuming: {n} of 6 already graded")),
        "{}",
        support::text(&resumed.stderr)
    );
    assert_eq!(saved(), 6);

    // No results folder: nothing was saved, and it says so.
    let gate = support::shared();
    let mut child = grader()
        .current_dir(dir.path())
        .args(args(&[]))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once the first student is graded (a line on stderr).
    let mut stderr = std::io::BufReader::new(child.stderr.take().unwrap());
    let mut first = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut first).unwrap();
    assert!(first.starts_with("[1/6] "), "{first}");
    interrupt(&child);
    let mut rest = String::new();
    std::io::Read::read_to_string(&mut stderr, &mut rest).unwrap();
    let status = child.wait().unwrap();
    drop(gate);
    assert_eq!(status.code(), Some(130), "{rest}");
    assert!(
        rest.lines().last().is_some_and(|l| l.starts_with(
            "interrupted: nothing was saved (with --results DIR each result is saved as it finishes"
        )),
        "{rest}"
    );
}

/// A class's human report ends with a table of its students and their
/// scores, and with --output the run says where the report and the
/// gradebook went (standard output stays empty).
#[test]
fn a_class_report_lists_every_student_and_says_where_it_went() {
    let dir = tempdir();
    let class = dir.path().join("class");
    for (name, file) in [
        ("ann", "python/correct_class.py"),
        ("bob", "python/lowest_score.py"),
    ] {
        std::fs::create_dir_all(class.join(name)).unwrap();
        std::fs::copy(
            root().join("submissions").join(file),
            class.join(name).join("router.py"),
        )
        .unwrap();
    }
    let report = dir.path().join("report.txt");
    let gradebook = dir.path().join("grades.csv");
    let out = output(
        grader()
            .args(["grade", "--output"])
            .arg(&report)
            .arg("--gradebook")
            .arg(&gradebook)
            .arg(&class),
    );
    let stderr = crate::support::text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(out.stdout.is_empty());
    for said in [
        format!("wrote the human report to {}", report.display()),
        format!("wrote the gradebook to {}", gradebook.display()),
    ] {
        assert!(stderr.contains(&said), "{stderr}");
    }
    let human = std::fs::read_to_string(&report).unwrap();
    let (_, table) = human
        .split_once("1 of 2 submissions accepted")
        .unwrap_or_else(|| panic!("{human}"));
    let row = |name: &str| -> Vec<String> {
        table
            .lines()
            .find(|l| l.trim_start().starts_with(&format!("{name} ")))
            .unwrap_or_else(|| panic!("no row for {name}:\n{table}"))
            .split_whitespace()
            .map(str::to_owned)
            .collect()
    };
    // student, verdict, earned / possible, passed / total.
    let (ann, bob) = (row("ann"), row("bob"));
    assert_eq!(ann[..5], ["ann", "accepted", "100", "/", "100"]);
    assert_eq!(ann[5], ann[7], "a correct submission passes every test");
    assert_eq!(bob[..2], ["bob", "wrong-answer"]);
    let passed: u32 = bob[5].parse().unwrap();
    let total: u32 = bob[7].parse().unwrap();
    assert!(passed < total, "{bob:?}");
}
