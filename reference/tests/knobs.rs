//! The knobs of the ring's points, its load, the rankings' cut and the
//! weighted score's precision, each held to a plain implementation of the
//! mistake written here, apart from the variants.

mod common;

use common::parse_case;
use reference::mistakes::{Catalogue, Made};
use reference::{ModelSpec, h32, hrw_top, vnode_ring, weighted_hrw};
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// `id` in the form labelled `form` (or its only form).
fn made(catalogue: &'static Catalogue, id: &str, form: Option<&str>) -> Made {
    catalogue
        .each()
        .find(|m| m.mistake.id == id && m.form_label() == form)
        .unwrap_or_else(|| panic!("{id} {form:?}"))
}

/// The answers of a solution that makes `made` on `input`.
fn answers(spec: &ModelSpec, made: Made, input: &Value) -> Vec<Value> {
    let (args, ops) = parse_case(spec, input);
    let run = spec.catalogue.run(&[made], &args, &ops);
    assert_eq!(run.raised_at, None);
    run.output
}

/// A plain ring: every point of `nodes` at h32(text(node, i)), sorted by
/// (position, name); the node of the first point at or after h32(key).
fn plain_lookup(
    nodes: &[&str],
    k: usize,
    text: impl Fn(&str, usize) -> String,
    key: &str,
) -> String {
    let mut ring: Vec<(u32, &str)> = nodes
        .iter()
        .flat_map(|n| (0..k).map(|i| (h32(&text(n, i)), *n)).collect::<Vec<_>>())
        .collect();
    ring.sort();
    let h = h32(key);
    let owner = ring.iter().find(|(p, _)| *p >= h).unwrap_or(&ring[0]);
    owner.1.to_owned()
}

/// The text of a node's point i.
type PointText = fn(&str, usize) -> String;

const KEYS: [&str; 8] = ["a", "user:1", "k7", "é", "A#2", "B#0", "0A", "key42"];

#[test]
fn each_point_text_puts_the_points_where_that_text_hashes() {
    let nodes = ["A", "B", "C"];
    let texts: [(&str, PointText); 8] = [
        ("node + \":\" + i", |n, i| format!("{n}:{i}")),
        ("node + \"-\" + i", |n, i| format!("{n}-{i}")),
        ("node + i", |n, i| format!("{n}{i}")),
        ("node + \"_\" + i", |n, i| format!("{n}_{i}")),
        ("node + \"&&\" + i", |n, i| format!("{n}&&{i}")),
        ("i + node", |n, i| format!("{i}{n}")),
        ("i + \"-\" + node", |n, i| format!("{i}-{n}")),
        ("node + \"#\" + (i + 1)", |n, i| format!("{n}#{}", i + 1)),
    ];
    let input = json!([[nodes, 4], KEYS.map(|k| json!(["lookup", k]))]);
    for (form, text) in texts {
        let mistake = made(vnode_ring::SPEC.catalogue, "wrong-point-text", Some(form));
        let want: Vec<Value> = KEYS
            .iter()
            .map(|k| json!(plain_lookup(&nodes, 4, text, k)))
            .collect();
        let got = answers(&vnode_ring::SPEC, mistake, &input);
        assert_eq!(got, want, "{form}");
        // And each is a mistake: some key goes elsewhere than on the
        // right ring.
        let right: Vec<Value> = KEYS
            .iter()
            .map(|k| json!(plain_lookup(&nodes, 4, |n, i| format!("{n}#{i}"), k)))
            .collect();
        assert_ne!(got, right, "{form}");
    }
}

#[test]
fn points_placed_again_count_twice_where_the_form_says() {
    let input = json!([
        [["A", "B", "A"], 3],
        [
            ["points"],
            ["add", "B"],
            ["points"],
            ["remove", "B"],
            ["points"]
        ]
    ]);
    // (form, points after the constructor, after adding B again, after
    // removing B): a removal takes every copy off.
    for (form, want) in [
        ("listed or added twice", [9, 12, 6]),
        ("added twice", [6, 9, 3]),
        ("listed twice", [9, 9, 6]),
    ] {
        let mistake = made(
            vnode_ring::SPEC.catalogue,
            "points-placed-again",
            Some(form),
        );
        let got = answers(&vnode_ring::SPEC, mistake, &input);
        let want = [
            json!(want[0]),
            Value::Null,
            json!(want[1]),
            Value::Null,
            json!(want[2]),
        ];
        assert_eq!(got, want, "{form}");
    }
}

#[test]
fn a_load_of_owners_only_is_a_count_of_the_lookups() {
    // k = 1 and many nodes: some get no key of ten.
    let nodes: Vec<String> = (0..12).map(|i| format!("n{i}")).collect();
    let names: Vec<&str> = nodes.iter().map(String::as_str).collect();
    let input = json!([[nodes, 1], [["load", 10]]]);
    let mut counts: BTreeMap<String, u64> = BTreeMap::new();
    for i in 0..10 {
        *counts
            .entry(plain_lookup(
                &names,
                1,
                |n, i| format!("{n}#{i}"),
                &format!("key{i}"),
            ))
            .or_default() += 1;
    }
    assert!(counts.len() < nodes.len(), "every node got a key: no test");
    let want: Vec<Value> = counts.iter().map(|(n, c)| json!([n, c])).collect();
    let mistake = made(
        vnode_ring::SPEC.catalogue,
        "load-leaves-out-idle-nodes",
        None,
    );
    assert_eq!(answers(&vnode_ring::SPEC, mistake, &input), [json!(want)]);
}

#[test]
fn a_cut_ranks_the_n_nodes_taken_first() {
    // Added out of name order, so the first added and the smallest names
    // differ.
    let nodes = ["m", "c", "x", "a", "q"];
    let score = |key: &str, n: &str| h32(&format!("{key}|{n}"));
    let ranked = |key: &str, mut among: Vec<&str>| {
        among.sort_by(|a, b| score(key, b).cmp(&score(key, a)).then(a.cmp(b)));
        json!(among)
    };
    let ops: Vec<Value> = KEYS.iter().map(|k| json!(["top", k, 2])).collect();
    let input = json!([[nodes], ops]);
    let mut sorted = nodes.to_vec();
    sorted.sort_unstable();
    for (form, among) in [
        ("the first n added", vec!["m", "c"]),
        ("the n smallest names", sorted[..2].to_vec()),
    ] {
        let mistake = made(
            hrw_top::SPEC.catalogue,
            "top-cuts-before-ranking",
            Some(form),
        );
        let want: Vec<Value> = KEYS.iter().map(|k| ranked(k, among.clone())).collect();
        let got = answers(&hrw_top::SPEC, mistake, &input);
        assert_eq!(got, want, "{form}");
        let right: Vec<Value> = KEYS
            .iter()
            .map(|k| {
                let all = ranked(k, nodes.to_vec());
                json!(all.as_array().unwrap()[..2])
            })
            .collect();
        assert_ne!(got, right, "{form}");
    }
}

#[test]
fn single_precision_is_what_f32_arithmetic_gives() {
    // Plain f32 scores, as a learner's Rust computes them: U alone, or U,
    // the logarithm, the weight and the score.
    fn u(h: u32) -> f32 {
        (h as f32 + 0.5) / 4_294_967_296.0
    }
    let unit_only = |h: u32, w: f64| w / -f64::from(u(h)).ln();
    let single = |h: u32, w: f64| f64::from(w as f32 / -u(h).ln());
    // A hash 8 below the top, and two scores 3e-8 apart (the suite's).
    let cases = [
        (
            vec![("top", 1.0), ("mid", 1.0), ("low", 1.0)],
            "key-4054019",
        ),
        (vec![("a", 1.0), ("b", 0.694_492_722)], "k2"),
        (vec![("a", 1.0), ("b", 2.0), ("c", 3.5)], "user:1"),
    ];
    for (form, score) in [
        (
            "U in single precision",
            &unit_only as &dyn Fn(u32, f64) -> f64,
        ),
        (
            "U, the logarithm and the score in single precision",
            &single,
        ),
    ] {
        let mistake = made(weighted_hrw::SPEC.catalogue, "single-precision", Some(form));
        for (nodes, key) in &cases {
            let mut ranked: Vec<(f64, &str)> = nodes
                .iter()
                .map(|(n, w)| (score(h32(&format!("{n}:{key}")), *w), *n))
                .collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
            let want: Vec<&str> = ranked.iter().map(|(_, n)| *n).collect();
            let pairs: Vec<Value> = nodes.iter().map(|(n, w)| json!([n, w])).collect();
            let input = json!([[pairs], [["top", key, nodes.len()]]]);
            assert_eq!(
                answers(&weighted_hrw::SPEC, mistake, &input),
                [json!(want)],
                "{form} {key}"
            );
        }
    }
    // Near the top, single precision puts "top" last; in double it wins.
    assert_eq!(h32("top:key-4054019"), u32::MAX - 7);
    assert_eq!(u(u32::MAX - 7), 1.0);
}
