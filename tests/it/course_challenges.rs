//! The three sibling challenges (hrw-top, vnode-ring, weighted-hrw) as
//! shipped: the course's published facts, what each group promises, and
//! `grader validate` / `grader audit` passing on every challenge.

use crate::support::{grader, json, output_with_stdin, root, run, tempdir, vectors};
use grading::{Case, Challenge, Suite};
use reference::explanation::{DecidedBy, Explanation};
use reference::h32;
use serde_json::Value;
use std::collections::BTreeMap;
use vocabulary::ExpectedFrom;

fn suite(id: &str) -> (Challenge, Suite) {
    let challenge = Challenge::load(&root().join("challenges"), id).expect("the challenge loads");
    let suite = challenge
        .load_suite(&challenge.tests_dir(), true)
        .expect("the suite loads");
    (challenge, suite)
}

fn group<'a>(suite: &'a Suite, name: &str) -> &'a [Case] {
    &suite
        .groups
        .iter()
        .find(|g| g.name == name)
        .unwrap_or_else(|| panic!("no group {name}"))
        .cases
}

fn op_names(case: &Case) -> impl Iterator<Item = &str> {
    case.ops.iter().map(|o| o.name())
}

const ALL: [&str; 4] = ["hrw-top", "rendezvous-router", "vnode-ring", "weighted-hrw"];

#[test]
fn every_expected_file_of_every_challenge_agrees_with_the_reference() {
    for id in ALL {
        let (challenge, suite) = suite(id);
        let mut checked = 0;
        for case in suite.cases() {
            assert_eq!(case.expected_from, ExpectedFrom::File, "{id}/{}", case.name);
            let output = challenge.model.run(&case.args, &case.ops);
            let first = (0..output.len()).find(|&i| output[i] != case.expected[i]);
            assert!(
                first.is_none(),
                "{id}/{}/{}: the reference disagrees at operation {first:?}",
                case.group,
                case.name
            );
            checked += 1;
        }
        assert!(checked >= 10, "{id}: only {checked} cases");
    }
}

#[test]
fn validate_and_audit_pass_on_every_challenge() {
    for id in ALL {
        let out = run(&["validate", "--challenge", id]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{id}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let out = run(&["audit", "--challenge", id, "--format", "json"]);
        assert_eq!(out.status.code(), Some(0), "{id}");
        let rows: Vec<Value> = crate::support::document(crate::support::Document::Audit, &out);
        let (challenge, _) = suite(id);
        let forms: usize = challenge
            .model
            .catalogue
            .mistakes
            .iter()
            .map(|m| m.forms.len())
            .sum();
        assert!(forms >= 4, "{id}: {forms} mistakes");
        assert_eq!(
            rows.len(),
            forms,
            "{id}: every mistake in every form is audited"
        );
        for r in &rows {
            assert!(
                !r["caught_by"].as_array().unwrap().is_empty(),
                "{id}: {r} is caught by nothing"
            );
        }
    }
}

#[test]
fn hrw_top_samples_hold_the_courses_table() {
    let (_, suite) = suite("hrw-top");
    let v = vectors();
    let table = &v["hrw-top"]["course-table"];
    let case = group(&suite, "sample")
        .iter()
        .find(|c| c.name == "course-table")
        .unwrap();
    assert_eq!(case.input, table["input"]);
    assert_eq!(Value::from(case.expected.clone()), table["output"]);
    // The published scores, recomputed from the pinned hash.
    for (key, row) in v["hrw-top"]["course-scores"].as_object().unwrap() {
        for (node, score) in row.as_object().unwrap() {
            assert_eq!(
                u64::from(h32(&format!("{key}|{node}"))),
                score.as_u64().unwrap()
            );
        }
    }
}

#[test]
fn hrw_top_groups_cover_n_past_the_count_zero_and_ties() {
    let (challenge, suite) = suite("hrw-top");
    let edge = group(&suite, "edge");
    let tops = || {
        edge.iter().flat_map(|c| {
            let nodes = c.input[0][0].as_array().unwrap().len();
            c.ops
                .iter()
                .filter(|o| o.name() == "top")
                .map(move |o| (o.count_at(1), nodes))
        })
    };
    assert!(
        tops().any(|(n, count)| n as usize > count),
        "no n above the count"
    );
    assert!(tops().any(|(n, _)| n == 0), "no n = 0");
    for case in group(&suite, "ties") {
        let tie = (0..case.ops.len()).any(|i| {
            matches!(
                challenge.model.explain_at(&case.args, &case.ops, i),
                Some(Explanation::Scores(t)) | Some(Explanation::Top { table: t, .. })
                    if t.rule == DecidedBy::TieSmallerName
            )
        });
        assert!(tie, "{}: no decision is a tie", case.name);
    }
}

#[test]
fn hrw_top_spreads_key0_to_key7999_within_two_percent() {
    let (_, suite) = suite("hrw-top");
    let case = group(&suite, "large")
        .iter()
        .find(|c| c.name == "four-nodes-eight-thousand-keys")
        .unwrap();
    assert_eq!(case.input[0][0], serde_json::json!(["A", "B", "C", "D"]));
    for (i, op) in case.ops.iter().enumerate() {
        assert_eq!(
            (op.name(), op.name_at(0)),
            ("route", format!("key{i}").as_str())
        );
    }
    assert_eq!(case.ops.len(), 8000);
    // Counted from the expected file, which an independent implementation
    // wrote (tools/make_course_cases.py).
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    for owner in &case.expected {
        *counts.entry(owner.as_str().unwrap()).or_default() += 1;
    }
    assert_eq!(counts.len(), 4);
    for (node, count) in counts {
        assert!(
            (f64::from(count) - 2000.0).abs() <= 40.0,
            "{node} has {count} keys"
        );
    }
}

#[test]
fn vnode_ring_groups_cover_points_wraps_collisions_and_loads() {
    let (challenge, suite) = suite("vnode-ring");
    let v = vectors();
    let sample = group(&suite, "sample")
        .iter()
        .find(|c| c.name == "at-or-after")
        .unwrap();
    assert_eq!(sample.input, v["vnode-ring"]["at-or-after"]["input"]);
    assert_eq!(
        Value::from(sample.expected.clone()),
        v["vnode-ring"]["at-or-after"]["output"]
    );

    let ring = group(&suite, "ring");
    let views = |case: &Case| -> Vec<reference::explanation::RingView> {
        (0..case.ops.len())
            .filter_map(
                |i| match challenge.model.explain_at(&case.args, &case.ops, i) {
                    Some(Explanation::Ring(view)) => Some(view),
                    _ => None,
                },
            )
            .collect()
    };
    let all: Vec<_> = ring.iter().flat_map(views).collect();
    assert!(
        all.iter().any(|v| v.after[0].position == v.position),
        "no key exactly on a point"
    );
    assert!(all.iter().any(|v| v.wrapped), "no lookup wraps");
    assert!(
        all.iter()
            .any(|v| v.after.len() > 1 && v.after[0].position == v.after[1].position),
        "no lookup lands on two points at one position"
    );
    let removal = group(&suite, "removal");
    assert!(removal.iter().any(|c| {
        let names: Vec<&str> = op_names(c).collect();
        names
            .windows(2)
            .any(|w| w[0] == "remove" && w[1] == "points")
    }));
    let loads = group(&suite, "load");
    assert!(
        loads
            .iter()
            .flat_map(|c| c.ops.iter())
            .any(|o| o.name() == "load" && o.count_at(0) >= 1000),
        "no load over thousands of keys"
    );
    // Four points per node in the sample: 12 entries, 8 after a removal.
    let points = group(&suite, "sample")
        .iter()
        .find(|c| c.name == "points-and-load")
        .unwrap();
    let counted: Vec<&Value> = points
        .ops
        .iter()
        .zip(&points.expected)
        .filter(|(o, _)| o.name() == "points")
        .map(|(_, e)| e)
        .collect();
    assert_eq!(counted, [&Value::from(12), &Value::from(8)]);
}

#[test]
fn weighted_hrw_groups_cover_reweighing_removals_and_shares() {
    let (_, suite) = suite("weighted-hrw");
    let reweighs = |case: &Case| {
        let initial: Vec<&str> = case.input[0][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p[0].as_str().unwrap())
            .collect();
        case.ops
            .iter()
            .any(|o| o.name() == "add" && initial.contains(&o.name_at(0)))
    };
    assert!(group(&suite, "weights").iter().any(reweighs));
    assert!(
        suite
            .cases()
            .any(|c| op_names(c).any(|n| n == "remove") && op_names(c).any(|n| n == "route"))
    );
    // Shares: counted from the expected file, each node's share against
    // its weight's share.
    let shares = &group(&suite, "shares")[0];
    let weights: BTreeMap<&str, f64> = shares.input[0][0]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p[0].as_str().unwrap(), p[1].as_f64().unwrap()))
        .collect();
    let total_weight: f64 = weights.values().sum();
    let mut counts: BTreeMap<&str, f64> = BTreeMap::new();
    for owner in &shares.expected {
        *counts.entry(owner.as_str().unwrap()).or_default() += 1.0;
    }
    let keys = shares.expected.len() as f64;
    assert!(keys >= 4000.0);
    for (node, w) in &weights {
        let share = counts[node] / keys;
        let want = w / total_weight;
        assert!(
            (share - want).abs() < 0.25 * want,
            "{node}: share {share:.3}, weight share {want:.3}"
        );
    }
}

#[test]
fn validate_flags_a_decision_that_hangs_on_a_hair() {
    // Weights chosen so that A's and B's scores for "k" are 1e-12 apart.
    let (ha, hb) = (h32("A:k"), h32("B:k"));
    let score = |h: u32| -((f64::from(h) + 0.5) / 4_294_967_296.0).ln();
    let wb = (1.0 / score(ha)) * score(hb) * (1.0 + 1e-12);
    let dir = tempdir();
    let sample = dir.path().join("sample");
    std::fs::create_dir_all(&sample).unwrap();
    let case =
        format!("[[[[\"A\",1],[\"B\",{wb:?}]]],\n [[\"route\",\"x\"],\n  [\"route\",\"k\"]]]\n");
    std::fs::write(sample.join("hair.json"), case).unwrap();
    let out = run(&[
        "validate",
        "--challenge",
        "weighted-hrw",
        "--tests",
        dir.path().to_str().unwrap(),
    ]);
    // An error: in the list of problems validate ends with.
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_ne!(out.status.code(), Some(0), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("fragile"))
        .unwrap_or_else(|| panic!("no fragile finding:\n{stderr}"));
    // Named by file, line and column of the operation.
    assert!(line.contains("hair.json:3:3"), "{line}");
    assert!(line.contains("[\"route\",\"k\"]"), "{line}");
    assert!(!stderr.contains("[\"route\",\"x\"] is fragile"), "{stderr}");
}

#[test]
fn every_statements_example_is_what_the_reference_answers() {
    use grading::parse_pasted;
    use grading::{Operations, parse_input};
    for id in ALL {
        let (challenge, _) = suite(id);
        let text =
            std::fs::read_to_string(root().join("challenges").join(id).join("README.md")).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let mut checked = 0;
        for (i, line) in lines.iter().enumerate() {
            if !line.starts_with("Input:") {
                continue;
            }
            let output = lines
                .get(i + 1)
                .filter(|l| l.starts_with("Output:"))
                .unwrap_or_else(|| panic!("{id}: an Input without its Output"));
            let pasted = parse_pasted(&format!("{line}\n{output}")).unwrap();
            let ops = Operations {
                model: challenge.model,
                allowed: &challenge.operations,
            };
            let (args, parsed) =
                parse_input(&ops, &pasted.input).unwrap_or_else(|e| panic!("{id}: {line}: {e:?}"));
            let answered = Value::from(challenge.model.run(&args, &parsed));
            let shown = pasted.output.unwrap();
            // The statement may show the first answers only.
            let shown = shown.as_array().unwrap();
            assert_eq!(
                &answered.as_array().unwrap()[..shown.len()],
                shown.as_slice(),
                "{id}: {line}"
            );
            checked += 1;
        }
        assert!(checked >= 1, "{id}: the statement shows no example");
    }
}

/// The JSON report of `submission` graded on `challenge`'s own suite.
fn report(challenge: &str, submission: &str) -> Value {
    let out = run(&[
        "grade",
        "--challenge",
        challenge,
        "--format",
        "json",
        submission,
    ]);
    json(&out)
}

fn test_named<'a>(report: &'a Value, name: &str) -> &'a Value {
    report["submissions"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == name)
        .unwrap_or_else(|| panic!("no test {name}"))
}

#[test]
fn a_wrong_replica_list_is_explained_with_both_rankings() {
    let report = report("hrw-top", "submissions/hrw-top/python/ascending.py");
    let test = test_named(&report, "course-replicas");
    assert_eq!(
        test["divergence"]["op"],
        serde_json::json!(["top", "page1", 3])
    );
    let e = &test["explanation"];
    assert_eq!(e["kind"], "top");
    assert_eq!(
        (e["key"].as_str(), e["n"].as_u64()),
        (Some("page1"), Some(3))
    );
    // The course's scores: blue, red, green from the highest down; the
    // submission answered the reverse, so the lists part at once.
    assert_eq!(e["first_difference"], 0);
    let lines = e["lines"].as_array().unwrap();
    let expected: Vec<&str> = lines
        .iter()
        .map(|l| l["expected"]["node"].as_str().unwrap())
        .collect();
    let yours: Vec<&str> = lines.iter().map(|l| l["yours"].as_str().unwrap()).collect();
    assert_eq!(expected, ["blue", "red", "green"]);
    assert_eq!(yours, ["green", "red", "blue"]);
    for l in lines {
        for row in [&l["expected"], &l["yours_row"]] {
            let hashed = row["hashed"].as_str().unwrap();
            assert_eq!(hashed, format!("page1|{}", row["node"].as_str().unwrap()));
            assert_eq!(row["h32"].as_u64(), Some(u64::from(h32(hashed))));
        }
    }
}

#[test]
fn a_wrong_lookup_is_explained_with_the_points_around_the_key() {
    let report = report(
        "vnode-ring",
        "submissions/vnode-ring/python/bisect_right.py",
    );
    let test = test_named(&report, "at-or-after");
    let e = &test["explanation"];
    assert_eq!(e["kind"], "ring");
    assert_eq!(e["key"], "A#2");
    assert_eq!(e["position"].as_u64(), Some(u64::from(h32("A#2"))));
    assert_eq!(e["points"], 12);
    assert_eq!(e["wrapped"], false);
    // The key lands on A's own point; the strict search took the next one,
    // whose node is the submission's answer.
    let after = e["after"].as_array().unwrap();
    assert_eq!(after[0]["hashed"], "A#2");
    assert_eq!(after[0]["node"], "A");
    assert_eq!(after[1]["node"], test["divergence"]["actual"]);
    let before = e["before"].as_array().unwrap();
    assert!(!before.is_empty());
    let mut last = 0;
    for p in before.iter().chain(after) {
        let position = p["position"].as_u64().unwrap();
        assert_eq!(position, u64::from(h32(p["hashed"].as_str().unwrap())));
        assert!(position >= last, "ring order");
        last = position;
    }
    // The submission exposes h32, and it agrees.
    assert_eq!(e["position_yours"], e["position"]);
}

#[test]
fn a_wrong_weighted_route_is_explained_with_u_ln_and_scores() {
    let report = report(
        "weighted-hrw",
        "submissions/weighted-hrw/python/times_weight.py",
    );
    let tests = report["submissions"][0]["tests"].as_array().unwrap();
    let e = tests
        .iter()
        .map(|t| &t["explanation"])
        .find(|e| e["kind"] == "scores")
        .expect("a wrong route is explained");
    let rows = e["rows"].as_array().unwrap();
    assert!(rows.len() >= 2);
    let mut last = f64::INFINITY;
    for row in rows {
        let hashed = row["hashed"].as_str().unwrap();
        let h = h32(hashed);
        assert_eq!(row["h32"].as_u64(), Some(u64::from(h)));
        let w = &row["weighted"];
        let u = (f64::from(h) + 0.5) / 4_294_967_296.0;
        assert_eq!(w["u"].as_f64(), Some(u));
        assert_eq!(w["neg_ln_u"].as_f64(), Some(-u.ln()));
        let score = w["weight"].as_f64().unwrap() / -u.ln();
        assert_eq!(w["score"].as_f64(), Some(score));
        assert!(score <= last, "highest score first");
        last = score;
    }
    assert_eq!(e["winner"], rows[0]["node"]);
}

#[test]
fn a_wrong_point_count_is_explained_with_k_and_the_nodes() {
    let report = report(
        "vnode-ring",
        "submissions/vnode-ring/python/remove_while_iterating.py",
    );
    let test = test_named(&report, "points-and-load");
    // The sample removes B from A, B, C with k = 4.
    assert_eq!(test["divergence"]["op"], serde_json::json!(["points"]));
    let e = &test["explanation"];
    assert_eq!(e["kind"], "points");
    assert_eq!(e["k"], 4);
    assert_eq!(e["nodes"], serde_json::json!(["A", "C"]));
    assert_eq!(e["points"], 8);
    assert_eq!(test["divergence"]["expected"], 8);
    assert!(test["divergence"]["actual"].as_u64().unwrap() > 8);
}

#[test]
fn a_router_of_another_challenge_is_told_which_one() {
    // A ring graded as the default challenge (Python), and a rendezvous
    // router graded as hrw-top (JavaScript).
    for (challenge, submission, missing, other) in [
        (
            "rendezvous-router",
            "submissions/vnode-ring/python/correct.py",
            "route",
            "vnode-ring",
        ),
        (
            "hrw-top",
            "submissions/javascript/correct.cjs",
            "top",
            "rendezvous-router",
        ),
    ] {
        let out = run(&[
            "grade",
            "--challenge",
            challenge,
            "--format",
            "json",
            "--tests",
            &format!("challenges/{challenge}/tests/sample"),
            submission,
        ]);
        assert_eq!(out.status.code(), Some(1), "{submission}");
        let report: Value = json(&out);
        let hint = &report["submissions"][0]["api_hint"];
        assert_eq!(hint["missing"], serde_json::json!([missing]), "{hint}");
        assert_eq!(hint["other_challenge"], other, "{hint}");
        assert!(
            hint["message"]
                .as_str()
                .unwrap()
                .contains(&format!("--challenge {other}")),
            "{hint}"
        );
    }
    // A Router with every operation gets no hint.
    let out = run(&[
        "grade",
        "--challenge",
        "hrw-top",
        "--format",
        "json",
        "--tests",
        "challenges/hrw-top/tests/sample",
        "submissions/hrw-top/javascript/correct.js",
    ]);
    let report: Value = json(&out);
    assert!(report["submissions"][0].get("api_hint").is_none());
}

#[test]
fn add_refuses_a_pasted_case_that_hangs_on_a_hair() {
    let (ha, hb) = (h32("A:k"), h32("B:k"));
    let score = |h: u32| -((f64::from(h) + 0.5) / 4_294_967_296.0).ln();
    let wb = (1.0 / score(ha)) * score(hb) * (1.0 + 1e-12);
    let dir = tempdir();
    let out = output_with_stdin(
        grader()
            .args(["add", "--challenge", "weighted-hrw", "--tests"])
            .arg(dir.path())
            .args(["--group", "edge", "hair"]),
        &format!("[[[[\"A\",1],[\"B\",{wb:?}]]],[[\"route\",\"k\"]]]"),
    );
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("fragile") && stderr.contains("nothing was written"),
        "{stderr}"
    );
    assert!(
        !dir.path().join("edge").exists()
            || std::fs::read_dir(dir.path().join("edge"))
                .unwrap()
                .next()
                .is_none()
    );
}

#[test]
fn a_ring_asking_for_absurd_work_is_refused_at_load() {
    let dir = tempdir();
    let group = dir.path().join("edge");
    std::fs::create_dir_all(&group).unwrap();
    std::fs::write(
        group.join("k.json"),
        "[[[\"A\"],1000000000],[[\"points\"]]]\n",
    )
    .unwrap();
    std::fs::write(
        group.join("load.json"),
        "[[[\"A\"],4],\n [[\"points\"],\n  [\"load\",5000000]]]\n",
    )
    .unwrap();
    let out = run(&[
        "validate",
        "--challenge",
        "vnode-ring",
        "--tests",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Both problems, each at its place, and nothing was run.
    assert!(stderr.contains("k.json:1:9"), "{stderr}");
    assert!(stderr.contains("load.json:3:11"), "{stderr}");
    assert!(stderr.contains("an integer from 0 to 1000000"), "{stderr}");
}

/// Each two mistakes (in their forms) that make different solutions
/// answer some shipped case differently: otherwise a submission that
/// makes one fits both equally, and neither is named.
#[test]
fn every_two_mistakes_of_different_solutions_answer_some_case_apart() {
    let mut alike = Vec::new();
    for id in ALL {
        let (challenge, suite) = suite(id);
        let catalogue = challenge.model.catalogue;
        let cases: Vec<&Case> = suite.cases().collect();
        let runs: Vec<(reference::mistakes::Made, Vec<_>)> = catalogue
            .each()
            .map(|made| {
                let runs = cases
                    .iter()
                    .map(|case| catalogue.run(&[made], &case.args, &case.ops))
                    .collect();
                (made, runs)
            })
            .collect();
        for (i, (a, ra)) in runs.iter().enumerate() {
            for (b, rb) in &runs[i + 1..] {
                if ra == rb && !catalogue.alike(&[*a], &[*b]) {
                    alike.push(format!(
                        "{id}: {} {:?} and {} {:?}",
                        a.mistake.id,
                        a.form_label(),
                        b.mistake.id,
                        b.form_label()
                    ));
                }
            }
        }
    }
    assert!(alike.is_empty(), "{}", alike.join("\n"));
}
