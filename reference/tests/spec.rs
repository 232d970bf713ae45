//! The reference against the facts of the spec (`vectors.json`, copied
//! verbatim from the course's spec) and against a deliberately naive
//! implementation written from the spec's words.

use reference::model::Arg;
use reference::{h32, rendezvous};
use serde_json::Value;

fn vectors() -> Value {
    serde_json::from_str(include_str!("fixtures/vectors.json")).expect("vectors.json parses")
}

fn parse_case(spec: &reference::ModelSpec, input: &Value) -> (Vec<Arg>, Vec<reference::Op>) {
    let [args, ops] = input.as_array().unwrap().as_slice() else {
        panic!("a case is [args, ops]")
    };
    let args: Vec<Arg> = spec
        .constructor
        .iter()
        .zip(args.as_array().unwrap())
        .map(|(k, v)| k.parse(v).unwrap())
        .collect();
    let ops = ops
        .as_array()
        .unwrap()
        .iter()
        .map(|op| {
            let op = op.as_array().unwrap();
            let sig = spec.signature(op[0].as_str().unwrap()).unwrap();
            let operands = sig
                .operands
                .iter()
                .zip(&op[1..])
                .map(|(k, v)| k.parse(v).unwrap())
                .collect();
            reference::Op {
                signature: sig,
                operands,
            }
        })
        .collect();
    (args, ops)
}

#[test]
fn h32_check_values() {
    for (text, value) in vectors()["h32"].as_object().unwrap() {
        assert_eq!(
            u64::from(h32(text)),
            value.as_u64().unwrap(),
            "h32({text:?})"
        );
    }
}

#[test]
fn challenge_page_samples_pass_byte_for_byte() {
    let v = vectors();
    let samples = v["rendezvous-router"].as_object().unwrap();
    assert_eq!(samples.len(), 3);
    for (name, sample) in samples {
        let (args, ops) = parse_case(&rendezvous::SPEC, &sample["input"]);
        let got = rendezvous::SPEC.run(&args, &ops);
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&sample["output"]).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn course_scores_for_key_bar_node_text() {
    // hrw-top hashes key + "|" + node; the course published these values.
    let v = vectors();
    for (key, row) in v["hrw-top"]["course-scores"].as_object().unwrap() {
        for (node, score) in row.as_object().unwrap() {
            assert_eq!(
                u64::from(h32(&format!("{key}|{node}"))),
                score.as_u64().unwrap()
            );
        }
    }
}

/// The spec read literally: a list of names, a linear scan building each
/// scored string, and an explicit tie rule.
struct Naive(Vec<String>);

impl Naive {
    fn route(&self, key: &str) -> Option<String> {
        let mut best: Option<(u32, &String)> = None;
        for n in &self.0 {
            let s = h32(&format!("{n}:{key}"));
            best = match best {
                Some((bs, bn)) if bs > s || (bs == s && bn < n) => Some((bs, bn)),
                _ => Some((s, n)),
            };
        }
        best.map(|(_, n)| n.clone())
    }
}

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

#[test]
fn cached_router_agrees_with_the_naive_one_under_churn() {
    let (tie_a, tie_b) = reference::hash::fnv_collision("n", 0);
    let mut pool: Vec<String> = (0..12).map(|i| format!("node-{i}")).collect();
    pool.extend([tie_a, tie_b, "é".into(), "z".into()]);
    for seed in 0..40 {
        let mut rng = Rng(seed);
        let initial: Vec<&str> = (0..rng.below(6))
            .map(|_| pool[rng.below(pool.len() as u64) as usize].as_str())
            .collect();
        let mut fast = rendezvous::Router::new(initial.iter().copied());
        let mut naive = Naive(Vec::new());
        for n in &initial {
            if !naive.0.contains(&n.to_string()) {
                naive.0.push(n.to_string());
            }
        }
        for step in 0..300 {
            let node = pool[rng.below(pool.len() as u64) as usize].clone();
            match rng.below(4) {
                0 => {
                    fast.add(&node);
                    if !naive.0.contains(&node) {
                        naive.0.push(node);
                    }
                }
                1 => {
                    fast.remove(&node);
                    naive.0.retain(|n| *n != node);
                }
                _ => {
                    let key = format!("k{}", rng.below(1000));
                    assert_eq!(
                        fast.route(&key).map(str::to_owned),
                        naive.route(&key),
                        "seed {seed} step {step} key {key}"
                    );
                }
            }
        }
    }
}

#[test]
fn score_table_names_the_tie_rule_when_a_collision_pair_leads() {
    let (a, b) = reference::hash::fnv_collision("n", 0);
    let router = rendezvous::Router::new([a.as_str(), b.as_str()]);
    let table = router.scores("any-key");
    assert_eq!(table.rule, reference::model::WinRule::TieSmallerName);
    assert_eq!(table.winner.as_deref(), Some(a.as_str()));
    assert_eq!(table.rows[0].h32, table.rows[1].h32);
    assert_eq!(table.rows[0].h32, h32(&format!("{a}:any-key")));
}

#[test]
fn hrw_top_keeps_the_courses_table_and_its_removal() {
    let v = vectors();
    let table = &v["hrw-top"]["course-table"];
    let (args, ops) = parse_case(&reference::hrw_top::SPEC, &table["input"]);
    let got = reference::hrw_top::SPEC.run(&args, &ops);
    assert_eq!(
        serde_json::to_string(&got).unwrap(),
        serde_json::to_string(&table["output"]).unwrap()
    );
    // The owners are the highest of the published scores.
    let ranker = reference::hrw_top::Ranker::new(["red", "green", "blue"]);
    for (key, row) in v["hrw-top"]["course-scores"].as_object().unwrap() {
        let owner = row
            .as_object()
            .unwrap()
            .iter()
            .max_by_key(|(_, s)| s.as_u64())
            .unwrap()
            .0;
        assert_eq!(ranker.route(key).as_deref(), Some(owner.as_str()), "{key}");
        let mut by_score: Vec<(&String, u64)> = row
            .as_object()
            .unwrap()
            .iter()
            .map(|(n, s)| (n, s.as_u64().unwrap()))
            .collect();
        by_score.sort_by_key(|(_, s)| std::cmp::Reverse(*s));
        let expected: Vec<String> = by_score.iter().map(|(n, _)| (*n).clone()).collect();
        assert_eq!(
            ranker.top(key, 10),
            expected,
            "{key}: n larger than the node count"
        );
    }
    assert!(ranker.top("page1", 0).is_empty());
}

#[test]
fn hrw_top_spreads_eight_thousand_keys_within_two_percent() {
    let ranker = reference::hrw_top::Ranker::new(["A", "B", "C", "D"]);
    let mut counts = std::collections::BTreeMap::new();
    for i in 0..8000 {
        *counts
            .entry(ranker.route(&format!("key{i}")).unwrap())
            .or_insert(0u32) += 1;
    }
    assert_eq!(counts.len(), 4);
    for (node, count) in counts {
        assert!(
            (f64::from(count) - 2000.0).abs() / 2000.0 <= 0.02,
            "{node}: {count}"
        );
    }
}
