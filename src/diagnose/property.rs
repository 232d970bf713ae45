//! Property hints: consistent-hashing properties a submission's own answers
//! break, found without the reference (docs/diagnosis.md).

use crate::challenge::Case;
use crate::judge::same;
use reference::{Effect, Explanation, Kind, ModelSpec, Op, Returns};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A property of consistent hashing the submission breaks, shown by two
/// routes of the same key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertyHint {
    /// `remove-moves-only-its-keys`, `add-only-steals-keys`,
    /// `remove-keeps-the-ranking`, `add-keeps-the-ranking`,
    /// `ties-keep-their-order` or `order-independent`.
    pub property: String,
    pub case: String,
    /// The two routes of the same key, by operation index.
    pub first_op: usize,
    pub second_op: usize,
    pub message: String,
}

/// Whether `op` asks which node owns a key (`route`, `lookup`): one name
/// in, a name or null out.
fn asks_owner(op: &Op) -> bool {
    op.signature.returns == Returns::MaybeName && op.signature.operands == [Kind::Name]
}

/// Whether `op` ranks nodes for a key (`top`): a name and a count in, a
/// list of names out.
fn ranks(op: &Op) -> bool {
    op.signature.returns == Returns::Names && op.signature.operands == [Kind::Name, Kind::Count]
}

/// Checks, on the submission's own answers (no reference needed), that
/// between two lookups of one key separated only by removals the answer
/// moved only off a removed node, and separated only by additions, only
/// onto an added node; and, for rankings (`top`), that a removal only takes
/// the removed nodes out and an addition only puts new ones in, the others
/// keeping their order. An addition with a weight may re-weigh a present
/// node, which may move keys anywhere: it proves nothing.
///
/// When the two nodes that traded places tie for the key under the pinned
/// scores of `model` (one score, or ring points at one position), what
/// changed is a tie's winner, and the hint says so: the removal or
/// addition only happened to flip it.
pub fn property_hint(model: &ModelSpec, case: &Case, actual: &[Value]) -> Option<PropertyHint> {
    let ops = &case.ops;
    // The pinned scores, from one replay, once a hint needs them.
    let explained = std::cell::OnceCell::new();
    let tied = |at: usize, a: &Value, b: &Value| {
        let explanations = explained.get_or_init(|| model.explanations(&case.args, ops));
        match (a.as_str(), b.as_str(), explanations.get(at)) {
            (Some(a), Some(b), Some(Some(explanation))) => tie_between(explanation, a, b),
            _ => None,
        }
    };
    // The last lookup and the last ranking of each key.
    let mut last: std::collections::HashMap<(bool, &str), usize> = std::collections::HashMap::new();
    for (j, op) in ops.iter().enumerate() {
        let ranking = ranks(op);
        if !(asks_owner(op) || ranking) || j >= actual.len() {
            continue;
        }
        let key = op.name_at(0);
        if let Some(&i) = last.get(&(ranking, key)) {
            let between = &ops[i + 1..j];
            let (before, after) = (&actual[i], &actual[j]);
            // Each node once, however often it was added or removed.
            let names = |effect: Effect| -> Vec<Value> {
                let mut names: Vec<Value> = Vec::new();
                for o in between.iter().filter(|o| o.signature.effect == effect) {
                    let name = Value::from(o.name_at(0));
                    if !names.contains(&name) {
                        names.push(name);
                    }
                }
                names
            };
            let (added, removed) = (names(Effect::Adds), names(Effect::Removes));
            // An addition with more than the node (a weight) may change a
            // node already there.
            let reweighs = between
                .iter()
                .any(|o| o.signature.effect == Effect::Adds && o.operands.len() > 1);
            let others = between
                .iter()
                .any(|o| o.signature.effect == Effect::Query && !o.signature.returns.is_query());
            let only_removals = added.is_empty() && !removed.is_empty() && !others;
            let only_additions = removed.is_empty() && !added.is_empty() && !reweighs && !others;
            // Only for a hint: every pair of lookups is looked at.
            let changes = || changes(case, i + 1..j);
            let hint = if ranking {
                ranking_hint(
                    before,
                    after,
                    &added,
                    &removed,
                    only_removals,
                    only_additions,
                )
                .map(|RankingBreak { property, what, swapped: (x, y) }| {
                    let was = format!("top({key:?}, ...) was {before} and became {after}");
                    let changes = changes();
                    match tied(j, x, y) {
                        Some(tie) => (
                            "ties-keep-their-order",
                            format!(
                                "{was} when only {changes}; {x} and {y} tie for the key ({tie}) and swapped places: tied nodes keep one order, the smaller name first, whatever else joins or leaves"
                            ),
                        ),
                        None => (property, format!("{was} when only {changes}; {what}")),
                    }
                })
            } else if before == after {
                None
            } else if (only_removals && !removed.contains(before))
                || (only_additions && !added.contains(after))
            {
                let moved = format!("key {key:?} moved from {before} to {after}");
                let changes = changes();
                Some(match tied(j, before, after) {
                    Some(tie) => (
                        "ties-keep-their-order",
                        format!(
                            "{moved} when only {changes}; {before} and {after} tie for it ({tie}), so the tie's winner changed: a tie goes to the same node, the smaller name, whatever else joins or leaves"
                        ),
                    ),
                    None if only_removals => (
                        "remove-moves-only-its-keys",
                        format!(
                            "{moved} when only {changes}; {before} stayed, and a removal may only move the keys of the removed node"
                        ),
                    ),
                    None => (
                        "add-only-steals-keys",
                        format!(
                            "{moved}, a node that was there before, when only {changes}; an addition may only move keys to the new node"
                        ),
                    ),
                })
            } else {
                None
            };
            if let Some((property, message)) = hint {
                return Some(PropertyHint {
                    property: property.to_owned(),
                    case: format!("{}/{}", case.group, case.name),
                    first_op: i,
                    second_op: j,
                    message,
                });
            }
        }
        last.insert((ranking, key), j);
    }
    None
}

/// A ranking that changed more than the nodes that left or joined explain:
/// without them, the two lists must agree as far as both go. Gives the
/// property, what it says, and the first two nodes whose places differ.
fn ranking_hint<'v>(
    before: &'v Value,
    after: &'v Value,
    added: &[Value],
    removed: &[Value],
    only_removals: bool,
    only_additions: bool,
) -> Option<RankingBreak<'v>> {
    let (Some(before), Some(after)) = (before.as_array(), after.as_array()) else {
        return None;
    };
    let first_difference = |a: &[&'v Value], b: &[&'v Value]| {
        a.iter().zip(b).find(|(x, y)| x != y).map(|(x, y)| (*x, *y))
    };
    let (property, what, old, new) = if only_removals {
        let kept: Vec<&Value> = before.iter().filter(|n| !removed.contains(n)).collect();
        (
            "remove-keeps-the-ranking",
            "a removal takes the removed nodes out of a ranking and the others keep their order",
            kept,
            after.iter().collect::<Vec<_>>(),
        )
    } else if only_additions {
        (
            "add-keeps-the-ranking",
            "an addition puts the new nodes into a ranking and the others keep their order",
            before.iter().collect(),
            after.iter().filter(|n| !added.contains(n)).collect(),
        )
    } else {
        return None;
    };
    let swapped = first_difference(&old, &new)?;
    Some(RankingBreak {
        property,
        what,
        swapped,
    })
}

/// How a ranking changed more than it may.
struct RankingBreak<'v> {
    property: &'static str,
    /// The rule broken, in words.
    what: &'static str,
    /// The first two nodes whose places differ: the one expected there,
    /// then the one found.
    swapped: (&'v Value, &'v Value),
}

/// Whether `a` and `b` tie in `explanation` for the answer it explains: one
/// score at the top of the table, or points at the one position the key
/// lands on. Says how, with the pinned values.
fn tie_between(explanation: &Explanation, a: &str, b: &str) -> Option<String> {
    match explanation {
        Explanation::Scores(table) | Explanation::Top { table, .. } => {
            let row = |name: &str| table.rows.iter().find(|r| r.node == name);
            let (x, y) = (row(a)?, row(b)?);
            (x.score() == y.score()).then(|| match x.weighted {
                Some(w) => format!("one weighted score, {}", w.score),
                None => format!("h32({:?}) = h32({:?}) = {}", x.hashed, y.hashed, x.h32),
            })
        }
        Explanation::Ring(view) => {
            let landed = view.after.first()?.position;
            let at = |name: &str| {
                view.after
                    .iter()
                    .find(|p| p.position == landed && p.node == name)
            };
            let (x, y) = (at(a)?, at(b)?);
            Some(format!(
                "points {:?} and {:?} both at position {landed}",
                x.hashed, y.hashed
            ))
        }
        Explanation::Points(_) => None,
    }
}

/// The additions and removals of `ops[range]` (one or the other, and at
/// least one), with their indices, e.g. `"c" left (operation 1
/// ["remove","c"])`; the first few of many.
fn changes(case: &Case, range: std::ops::Range<usize>) -> String {
    const SHOWN: usize = 3;
    let changing: Vec<usize> = range
        .filter(|&at| case.ops[at].signature.effect != Effect::Query)
        .collect();
    let mut names = Vec::new();
    for &at in &changing {
        let name = Value::from(case.ops[at].name_at(0));
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let verb = match case.ops[changing[0]].signature.effect {
        Effect::Removes => "left",
        _ => "joined",
    };
    let mut shown: Vec<String> = changing
        .iter()
        .take(SHOWN)
        .map(|&at| format!("operation {at} {}", case.op_json(at)))
        .collect();
    if changing.len() > SHOWN {
        shown.push(format!("{} more", changing.len() - SHOWN));
    }
    format!("{} {verb} ({})", list(&names), shown.join(", "))
}

/// Compares a case's answers with the answers to the same case with its
/// initial nodes reversed: the first route that differs breaks order
/// independence.
pub fn order_hint(case: &Case, actual: &[Value], reversed: &[Value]) -> Option<PropertyHint> {
    let ops = &case.ops;
    let j = (0..ops.len().min(actual.len()).min(reversed.len()))
        .find(|&j| (asks_owner(&ops[j]) || ranks(&ops[j])) && !same(&actual[j], &reversed[j]))?;
    Some(PropertyHint {
        property: "order-independent".into(),
        case: format!("{}/{}", case.group, case.name),
        first_op: j,
        second_op: j,
        message: format!(
            "{} answers {} with the initial nodes in the given order and {} with them reversed; the answer must not depend on the order nodes were added",
            case.op_json(j),
            actual[j],
            reversed[j]
        ),
    })
}

fn list(names: &[Value]) -> String {
    names
        .iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::Operations;
    use serde_json::json;

    fn case(input: Value) -> Case {
        case_of(&reference::rendezvous::SPEC, input)
    }

    fn case_of(model: &'static reference::ModelSpec, input: Value) -> Case {
        let allowed: Vec<_> = model.operations.iter().collect();
        let ops = Operations {
            model,
            allowed: &allowed,
        };
        Case::in_memory(&ops, "c", "g", input, None).unwrap()
    }

    #[test]
    fn a_key_moving_off_a_node_that_stayed_breaks_removal() {
        let c = case(json!([
            [["a", "b", "c"]],
            [["route", "k"], ["remove", "c"], ["route", "k"]]
        ]));
        let hint = property_hint(
            &reference::rendezvous::SPEC,
            &c,
            &[json!("a"), Value::Null, json!("b")],
        )
        .unwrap();
        assert_eq!(hint.property, "remove-moves-only-its-keys");
        assert_eq!((hint.first_op, hint.second_op), (0, 2));
        // Moving off the removed node is fine.
        assert!(
            property_hint(
                &reference::rendezvous::SPEC,
                &c,
                &[json!("c"), Value::Null, json!("b")]
            )
            .is_none()
        );
    }

    #[test]
    fn a_node_removed_twice_is_named_once() {
        let c = case(json!([
            [["a", "b", "c"]],
            [
                ["route", "k"],
                ["remove", "c"],
                ["remove", "c"],
                ["route", "k"]
            ]
        ]));
        let answers = [json!("a"), Value::Null, Value::Null, json!("b")];
        let hint = property_hint(&reference::rendezvous::SPEC, &c, &answers).unwrap();
        // Once as the node that left, then in each operation.
        let left = hint.message.split(" left (").next().unwrap();
        assert_eq!(left.matches("\"c\"").count(), 1, "{}", hint.message);
        assert!(
            hint.message
                .contains(r#"operation 1 ["remove","c"], operation 2 ["remove","c"]); "a" stayed"#),
            "{}",
            hint.message
        );
    }

    #[test]
    fn answers_that_change_with_the_node_order_break_order_independence() {
        let c = case(json!([[["b", "a"]], [["add", "c"], ["route", "k"]]]));
        let hint = order_hint(&c, &[Value::Null, json!("b")], &[Value::Null, json!("a")]).unwrap();
        assert_eq!(
            (hint.property.as_str(), hint.first_op),
            ("order-independent", 1)
        );
        assert!(order_hint(&c, &[Value::Null, json!("b")], &[Value::Null, json!("b")]).is_none());
    }

    #[test]
    fn a_ranking_that_reorders_the_nodes_that_stayed_breaks_removal_or_addition() {
        let c = case_of(
            &reference::hrw_top::SPEC,
            json!([
                [["a", "b", "c", "d"]],
                [
                    ["top", "k", 3],
                    ["remove", "b"],
                    ["route", "k"],
                    ["top", "k", 3],
                    ["add", "e"],
                    ["top", "k", 4]
                ]
            ]),
        );
        let answers = |second: Value, third: Value| {
            vec![
                json!(["a", "b", "c"]),
                Value::Null,
                json!("a"),
                second,
                Value::Null,
                third,
            ]
        };
        // b left: a, c keep their order, and d moves up.
        let fine = answers(json!(["a", "c", "d"]), json!(["a", "e", "c", "d"]));
        assert!(property_hint(&reference::hrw_top::SPEC, &c, &fine).is_none());
        let reordered = answers(json!(["c", "a", "d"]), json!(["c", "a", "d", "e"]));
        let hint = property_hint(&reference::hrw_top::SPEC, &c, &reordered).unwrap();
        assert_eq!(hint.property, "remove-keeps-the-ranking");
        assert_eq!((hint.first_op, hint.second_op), (0, 3));
        // e joined: without it the ranking must be the one before.
        let shuffled = answers(json!(["a", "c", "d"]), json!(["e", "d", "a", "c"]));
        let hint = property_hint(&reference::hrw_top::SPEC, &c, &shuffled).unwrap();
        assert_eq!(hint.property, "add-keeps-the-ranking");
        assert_eq!((hint.first_op, hint.second_op), (3, 5));
    }

    #[test]
    fn re_weighing_a_node_proves_nothing() {
        let c = case_of(
            &reference::weighted_hrw::SPEC,
            json!([
                [[["a", 1], ["b", 1], ["c", 1]]],
                [["route", "k"], ["add", "a", 0.01], ["route", "k"]]
            ]),
        );
        // a lost weight: the key may go to any other node.
        assert!(
            property_hint(
                &reference::weighted_hrw::SPEC,
                &c,
                &[json!("a"), Value::Null, json!("c")]
            )
            .is_none()
        );
    }

    #[test]
    fn a_key_moving_to_an_old_node_breaks_addition() {
        let c = case(json!([
            [["a", "b"]],
            [["route", "k"], ["add", "z"], ["route", "k"]]
        ]));
        let hint = property_hint(
            &reference::rendezvous::SPEC,
            &c,
            &[json!("a"), Value::Null, json!("b")],
        )
        .unwrap();
        assert_eq!(hint.property, "add-only-steals-keys");
        assert!(
            property_hint(
                &reference::rendezvous::SPEC,
                &c,
                &[json!("a"), Value::Null, json!("z")]
            )
            .is_none()
        );
        // Mixed changes between the routes prove nothing either way.
        let mixed = case(json!([
            [["a", "b"]],
            [
                ["route", "k"],
                ["add", "z"],
                ["remove", "a"],
                ["route", "k"]
            ]
        ]));
        assert!(
            property_hint(
                &reference::rendezvous::SPEC,
                &mixed,
                &[json!("a"), Value::Null, Value::Null, json!("b")]
            )
            .is_none()
        );
    }

    /// node-522789 and node-739192 tie for every key: their FNV-1a states
    /// collide before the ":".
    #[test]
    fn a_tie_flipped_by_a_removal_is_named_as_a_tie() {
        let c = case(json!([
            [["x", "node-739192", "y", "node-522789"]],
            [["route", "k"], ["remove", "x"], ["route", "k"]]
        ]));
        let flipped = [json!("node-522789"), Value::Null, json!("node-739192")];
        let hint = property_hint(&reference::rendezvous::SPEC, &c, &flipped).unwrap();
        assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
        let tie = format!(
            "h32(\"node-522789:k\") = h32(\"node-739192:k\") = {}",
            reference::h32("node-522789:k")
        );
        assert_eq!(
            reference::h32("node-522789:k"),
            reference::h32("node-739192:k")
        );
        for part in [r#""x" left (operation 1 ["remove","x"])"#, tie.as_str()] {
            assert!(hint.message.contains(part), "{part} in {}", hint.message);
        }
        // Moving between two nodes that do not tie is the removal's fault.
        let moved = [json!("y"), Value::Null, json!("node-522789")];
        let hint = property_hint(&reference::rendezvous::SPEC, &c, &moved).unwrap();
        assert_eq!(hint.property, "remove-moves-only-its-keys");
    }

    #[test]
    fn a_tie_flipped_by_an_addition_in_a_ranking_is_named_as_a_tie() {
        // n329599 and n532382 tie for "page1" (hrw-top's ties/tie-1).
        let c = case_of(
            &reference::hrw_top::SPEC,
            json!([
                [["n532382", "m", "n329599"]],
                [["top", "page1", 3], ["add", "z"], ["top", "page1", 4]]
            ]),
        );
        let answers = [
            json!(["m", "n329599", "n532382"]),
            Value::Null,
            json!(["m", "z", "n532382", "n329599"]),
        ];
        let hint = property_hint(&reference::hrw_top::SPEC, &c, &answers).unwrap();
        assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
        assert!(
            hint.message
                .contains(r#""n329599" and "n532382" tie for the key (h32("page1|n329599")"#),
            "{}",
            hint.message
        );
    }

    #[test]
    fn ring_points_at_one_position_that_trade_places_are_a_tie() {
        // p52198#0 and p112592#3 share a position.
        let c = case_of(
            &reference::vnode_ring::SPEC,
            json!([
                [["p112592", "q", "p52198"], 4],
                [
                    ["lookup", "p52198#0"],
                    ["remove", "q"],
                    ["lookup", "p52198#0"]
                ]
            ]),
        );
        let answers = [json!("p112592"), Value::Null, json!("p52198")];
        let hint = property_hint(&reference::vnode_ring::SPEC, &c, &answers).unwrap();
        assert_eq!(hint.property, "ties-keep-their-order", "{}", hint.message);
        let at = reference::h32("p52198#0");
        assert_eq!(at, reference::h32("p112592#3"));
        assert!(
            hint.message.contains(&format!(
                r#"points "p112592#3" and "p52198#0" both at position {at}"#
            )),
            "{}",
            hint.message
        );
    }
}
