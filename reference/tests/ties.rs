//! Whether a tie decides an answer: only among the rows the answer is
//! made of, and said directly by the models that can (without the score
//! table of every node) as their explanation says it, on every operation
//! of every shipped case of every challenge.

mod common;

use common::{parse_case, shipped_cases};
use reference::{hrw_top, rendezvous};
use serde_json::{Value, json};

#[test]
fn every_shortcut_agrees_with_the_explanation_on_every_shipped_case() {
    for spec in reference::challenges() {
        let (mut questions, mut tied) = (0, 0);
        for (path, case) in shipped_cases(spec.id) {
            let (args, ops) = parse_case(spec, &case);
            let mut model = (spec.build)(&args);
            let mut any = false;
            for (i, op) in ops.iter().enumerate() {
                if let Some(explanation) = model.explain(op) {
                    questions += 1;
                    let expected = explanation.tie_decides();
                    assert_eq!(model.tie_decides(op), expected, "{} op {i}", path.display());
                    tied += usize::from(expected);
                    any |= expected;
                }
                model.apply(op);
            }
            assert_eq!(spec.tie_decides(&args, &ops), any, "{}", path.display());
        }
        // Every suite has a group of ties, and many questions beside it.
        assert!(
            tied > 0 && questions > 100,
            "{}: {tied} of {questions}",
            spec.id
        );
    }
}

/// Whether a tie decides an answer of `ops` on `nodes`.
fn tied(spec: &reference::ModelSpec, nodes: Value, ops: Value) -> bool {
    let (args, ops) = parse_case(spec, &json!([[nodes], ops]));
    spec.tie_decides(&args, &ops)
}

#[test]
fn a_tie_decides_only_among_the_rows_an_answer_is_made_of() {
    // As in rendezvous-router's ties/tied-pair-among-others, two nodes
    // that score alike for every key: for key-0 they rank third and
    // fourth, below the winner; for key-2 first.
    let nodes = json!(["node-739192", "node-x", "node-522789", "node-y", "node-z"]);
    let route = |key: &str| tied(&rendezvous::SPEC, nodes.clone(), json!([["route", key]]));
    assert!(!route("key-0"), "a tie below the winner decides nothing");
    assert!(route("key-2"), "a tie at the top decides the route");
    // hrw-top's h32(key + "|" + node): for page1, n532382 and n329599
    // score alike, fourth and fifth after m, d and cc.
    let nodes = json!(["n532382", "n329599", "m", "cc", "d"]);
    let top = |n: u64| tied(&hrw_top::SPEC, nodes.clone(), json!([["top", "page1", n]]));
    assert!(!top(2), "the tie is below the top 2 and the row after it");
    assert!(
        !top(3),
        "fourth and fifth: the top 3 is the same either way"
    );
    assert!(top(4), "which of the two is fourth");
    assert!(top(5), "their order in the top 5");
}
