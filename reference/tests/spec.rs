//! The reference against the facts of the spec (`vectors.json`, copied
//! verbatim from the course's spec) and against a deliberately naive
//! implementation written from the spec's words.

use reference::operation::Arg;
use reference::{h32, rendezvous};
use serde_json::Value;

mod common;
use common::parse_case;

fn vectors() -> Value {
    serde_json::from_str(include_str!("fixtures/vectors.json")).expect("vectors.json parses")
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
    assert_eq!(
        table.rule,
        reference::explanation::DecidedBy::TieSmallerName
    );
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
    let ranker = reference::hrw_top::ranker(["red", "green", "blue"]);
    for (key, row) in v["hrw-top"]["course-scores"].as_object().unwrap() {
        let owner = row
            .as_object()
            .unwrap()
            .iter()
            .max_by_key(|(_, s)| s.as_u64())
            .unwrap()
            .0;
        assert_eq!(ranker.route(key), Some(owner.as_str()), "{key}");
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
    let ranker = reference::hrw_top::ranker(["A", "B", "C", "D"]);
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

#[test]
fn a_key_on_a_point_belongs_to_that_point() {
    let v = vectors();
    let case = &v["vnode-ring"]["at-or-after"];
    let (args, ops) = parse_case(&reference::vnode_ring::SPEC, &case["input"]);
    let got = reference::vnode_ring::SPEC.run(&args, &ops);
    assert_eq!(Value::from(got), case["output"]);
    let ring = reference::vnode_ring::Ring::new(["A", "B", "C"], 4);
    assert_eq!(ring.points(), 12, "four points per node");
    assert_eq!(ring.lookup("A#2"), Some("A"));
    let view = ring.view("A#2");
    assert_eq!(view.position, h32("A#2"));
    assert_eq!(view.after[0].hashed, "A#2");
    assert!(!view.wrapped);
    assert!(view.before.iter().all(|p| p.position < view.position));
    // A strict comparison would give the next point's node: B here.
    assert_eq!(view.after[1].node, "B");
}

/// The ring from the spec's words: every point in a list, sorted, scanned.
fn naive_lookup(nodes: &[String], k: usize, key: &str) -> Option<String> {
    let mut entries: Vec<(u32, String)> = nodes
        .iter()
        .flat_map(|n| (0..k).map(move |i| (h32(&format!("{n}#{i}")), n.clone())))
        .collect();
    entries.sort();
    let h = h32(key);
    entries
        .iter()
        .find(|(p, _)| *p >= h)
        .or(entries.first())
        .map(|(_, n)| n.clone())
}

#[test]
fn ring_agrees_with_the_naive_one_under_churn_and_collisions() {
    let (a, b) = reference::vnode_ring::colliding_nodes("c", 3);
    let shared: Vec<u32> = (0..3)
        .map(|i| h32(&format!("{a}#{i}")))
        .filter(|p| (0..3).any(|j| h32(&format!("{b}#{j}")) == *p))
        .collect();
    assert!(!shared.is_empty(), "{a} and {b} share a position");
    let mut pool: Vec<String> = (0..10).map(|i| format!("n{i}")).collect();
    pool.extend([a.clone(), b.clone(), "é".into()]);
    for seed in 0..30 {
        let mut rng = Rng(seed);
        let mut members: Vec<String> = vec![b.clone(), a.clone()];
        let mut ring = reference::vnode_ring::Ring::new([b.as_str(), a.as_str()], 3);
        for step in 0..200 {
            let node = pool[rng.below(pool.len() as u64) as usize].clone();
            match rng.below(5) {
                0 => {
                    ring.add(&node);
                    if !members.contains(&node) {
                        members.push(node);
                    }
                }
                1 => {
                    ring.remove(&node);
                    members.retain(|n| *n != node);
                }
                _ => {
                    let key = format!("k{}", rng.below(1000));
                    assert_eq!(
                        ring.lookup(&key).map(str::to_owned),
                        naive_lookup(&members, 3, &key),
                        "seed {seed} step {step} key {key}"
                    );
                    assert_eq!(ring.points(), members.len() * 3);
                }
            }
        }
    }
    // On the shared position both points stay and the smaller name wins.
    let ring = reference::vnode_ring::Ring::new([b.as_str(), a.as_str()], 3);
    assert_eq!(ring.points(), 6);
    let label = (0..3)
        .map(|i| format!("{b}#{i}"))
        .find(|l| h32(l) == shared[0])
        .unwrap();
    assert_eq!(
        ring.lookup(&label),
        Some(a.as_str()),
        "{label} is also {a}'s"
    );
}

#[test]
fn ring_wraps_past_the_last_point_and_counts_loads() {
    let ring = reference::vnode_ring::Ring::new(["A", "B", "C"], 4);
    // A key past every point goes to the first entry.
    let (key, _) = (0..)
        .map(|i| format!("w{i}"))
        .map(|k| {
            let h = h32(&k);
            (k, h)
        })
        .find(|(_, h)| {
            ["A", "B", "C"]
                .iter()
                .all(|n| (0..4).all(|i| h32(&format!("{n}#{i}")) < *h))
        })
        .unwrap();
    let first = ["A", "B", "C"]
        .iter()
        .flat_map(|n| (0..4).map(move |i| (h32(&format!("{n}#{i}")), *n)))
        .min()
        .unwrap();
    assert_eq!(ring.lookup(&key), Some(first.1));
    assert!(ring.view(&key).wrapped);
    // load over thousands of keys: every key counted once, zeros kept.
    let mut ring = reference::vnode_ring::Ring::new(["A", "B", "C", "D"], 50);
    let load = ring.load(5000);
    assert_eq!(load.iter().map(|(_, c)| c).sum::<u64>(), 5000);
    let names: Vec<&str> = load.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["A", "B", "C", "D"]);
    for (node, count) in &load {
        let naive = (0..5000)
            .filter(|i| {
                naive_lookup(
                    &["A", "B", "C", "D"].map(String::from),
                    50,
                    &format!("key{i}"),
                )
                .as_deref()
                    == Some(node.as_str())
            })
            .count() as u64;
        assert_eq!(*count, naive, "{node}");
    }
    ring.add("E");
    ring.remove("A");
    assert_eq!(ring.points(), 200);
    let empty = reference::vnode_ring::Ring::new(["A", "B"], 0);
    assert_eq!(empty.load(10), [("A".into(), 0), ("B".into(), 0)]);
    assert_eq!(empty.lookup("x"), None);
}

#[test]
fn weighted_shares_are_proportional_over_a_hundred_thousand_keys() {
    let ranker = reference::weighted_hrw::ranker([("A", 1.0), ("B", 2.0), ("C", 1.0), ("D", 1.0)]);
    let mut counts = std::collections::BTreeMap::new();
    for i in 0..100_000 {
        *counts
            .entry(ranker.route(&format!("key{i}")).unwrap().to_owned())
            .or_insert(0u32) += 1;
    }
    let light = f64::from(counts["A"] + counts["C"] + counts["D"]) / 3.0;
    let ratio = f64::from(counts["B"]) / light;
    assert!((ratio - 2.0).abs() < 0.06, "B/light = {ratio}: {counts:?}");
}

#[test]
fn weighted_scores_follow_the_formula_and_add_sets_weights() {
    let mut ranker = reference::weighted_hrw::ranker([("A", 1.0), ("B", 3.0)]);
    let table = ranker.scores("k");
    for row in &table.rows {
        let h = h32(&format!("{}:k", row.node));
        assert_eq!(row.h32, h);
        let w = row.weighted.unwrap();
        let u = (f64::from(h) + 0.5) / 4_294_967_296.0;
        assert_eq!(w.u, u);
        assert_eq!(w.score, w.weight / -u.ln());
    }
    assert!(table.rows[0].score() >= table.rows[1].score());
    // A key A wins at weight 1; a huge weight for B takes it over.
    let key = (0..)
        .map(|i| format!("k{i}"))
        .find(|k| ranker.route(k) == Some("A"))
        .unwrap();
    ranker.add("B", 1e6);
    assert_eq!(ranker.route(&key), Some("B"));
    ranker.add("B", 1e-6);
    assert_eq!(ranker.route(&key), Some("A"));
    ranker.remove("A");
    assert_eq!(ranker.top(&key, 5), ["B"]);
    // Equal h32 and weight tie exactly; the smaller name wins.
    let (a, b) = reference::hash::fnv_collision("w", 0);
    let tied = reference::weighted_hrw::ranker([(b.as_str(), 2.0), (a.as_str(), 2.0)]);
    assert_eq!(tied.route("x"), Some(a.as_str()));
    assert_eq!(tied.top("x", 2), [a.clone(), b.clone()]);
}

#[test]
fn weighted_decisions_on_a_hair_are_flagged_fragile() {
    let spec = &reference::weighted_hrw::SPEC;
    // Two nodes whose weights make their scores for "k" differ by about
    // 1e-12 relative: B's weight scaled to A's score.
    let (ha, hb) = (h32("A:k"), h32("B:k"));
    let sa = reference::weighted_hrw::weighted_score(ha, 1.0);
    let wb = sa.score * -((f64::from(hb) + 0.5) / 4_294_967_296.0).ln() * (1.0 + 1e-12);
    let args = [Arg::WeightedNames(vec![
        ("A".into(), 1.0),
        ("B".into(), wb),
    ])];
    let route = reference::Op {
        signature: spec.signature("route").unwrap(),
        operands: vec![Arg::Name("k".into())],
    };
    let fragile = spec
        .run_checked(&args, std::slice::from_ref(&route))
        .fragile;
    assert_eq!(fragile.len(), 1, "{fragile:?}");
    assert!(fragile[0].1.contains("relative gap"), "{}", fragile[0].1);
    // A clear gap is not fragile, and exact ties are not either.
    let clear = [Arg::WeightedNames(vec![
        ("A".into(), 1.0),
        ("B".into(), 2.0),
    ])];
    assert!(
        spec.run_checked(&clear, std::slice::from_ref(&route))
            .fragile
            .is_empty()
    );
}

/// Two mistakes made together are two different mistakes, in whichever
/// order they are made; two that turn the same knob (two tie rules, two
/// separators) are not a pair, since the second undoes the first.
#[test]
fn mistakes_made_together_commute_and_turn_different_knobs() {
    use reference::{hrw_top, vnode_ring, weighted_hrw};
    let routes = |extra: &str| {
        let keys = ["", "a", "b:c", "é", "user:1", "🙂", "k7"];
        let ops: Vec<String> = keys.iter().map(|k| format!(r#"["route","{k}"]"#)).collect();
        format!("{},{extra},{}", ops.join(","), ops.join(","))
    };
    let cases: [(&reference::ModelSpec, String); 4] = [
        (
            &rendezvous::SPEC,
            format!(
                r#"[[["a","ab","b:","é","a"]],[{}]]"#,
                routes(r#"["remove","ab"],["add","z"],["remove","q"]"#)
            ),
        ),
        (
            &hrw_top::SPEC,
            format!(
                r#"[[["a","ab","b|","é"]],[{},["top","k",2],["top","k",9]]]"#,
                routes(r#"["remove","ab"],["add","z"]"#)
            ),
        ),
        (
            &weighted_hrw::SPEC,
            format!(
                r#"[[[["a",1],["ab",2.5],["é",0.5]]],[{},["top","k",3]]]"#,
                routes(r#"["add","a",4],["remove","ab"]"#)
            ),
        ),
        (
            &vnode_ring::SPEC,
            format!(
                r#"[[["A","B","C"],4],[["lookup","A#2"],["points"],{},["load",40]]]"#,
                routes(r#"["remove","B"],["add","D"]"#).replace("route", "lookup")
            ),
        ),
    ];
    for (spec, input) in &cases {
        let (args, ops) = parse_case(spec, &serde_json::from_str(input).unwrap());
        let catalogue = spec.catalogue;
        let pairs = catalogue.pairs();
        assert!(pairs.len() >= 10, "{}: {} pairs", spec.id, pairs.len());
        for [a, b] in &pairs {
            assert_ne!(a.mistake.id, b.mistake.id);
            assert_eq!(
                catalogue.run(&[*a, *b], &args, &ops),
                catalogue.run(&[*b, *a], &args, &ops),
                "{}: {} with {}",
                spec.id,
                a.mistake.id,
                b.mistake.id
            );
        }
        // Three made together: of the structure only, in any order one
        // solution, and each no fewer mistakes' solution.
        let triples = catalogue.triples();
        assert!(
            (10..=400).contains(&triples.len()),
            "{}: {} triples",
            spec.id,
            triples.len()
        );
        for [a, b, c] in &triples {
            let run = catalogue.run(&[*a, *b, *c], &args, &ops);
            assert_eq!(run, catalogue.run(&[*c, *a, *b], &args, &ops));
            assert_eq!(run, catalogue.run(&[*b, *c, *a], &args, &ops));
            assert!(!catalogue.alike(&[*a, *b, *c], &[*a, *b]));
            for hash in [
                "float-multiply",
                "utf16-units",
                "fnv-1",
                "signed-comparison",
            ] {
                assert!([a, b, c].iter().all(|m| m.mistake.id != hash), "{hash}");
            }
        }
    }
    let ids: Vec<(&str, &str)> = rendezvous::SPEC
        .catalogue
        .pairs()
        .iter()
        .map(|[a, b]| (a.mistake.id, b.mistake.id))
        .collect();
    assert!(ids.contains(&("lowest-score", "no-separator")));
    for same_knob in [
        ("no-separator", "wrong-separator"),
        ("first-maximum", "ties-to-larger-name"),
        ("byte-sum", "fnv-1"),
    ] {
        let flipped = (same_knob.1, same_knob.0);
        assert!(
            !ids.contains(&same_knob) && !ids.contains(&flipped),
            "{same_knob:?}"
        );
    }
}
