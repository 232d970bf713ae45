//! Property hints: consistent-hashing properties a submission's own answers
//! break, found without the reference (docs/diagnosis.md).

use crate::challenge::Case;
use crate::judge::same;
use reference::{Effect, Kind, Op, Returns};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A property of consistent hashing the submission breaks, shown by two
/// routes of the same key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PropertyHint {
    /// `remove-moves-only-its-keys` or `add-only-steals-keys`.
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
pub fn property_hint(case: &Case, actual: &[Value]) -> Option<PropertyHint> {
    let ops = &case.ops;
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
            let hint = if ranking {
                ranking_hint(
                    before,
                    after,
                    &added,
                    &removed,
                    only_removals,
                    only_additions,
                )
                .map(|(property, what)| {
                    (
                        property,
                        format!("top({key:?}, ...) was {before} and became {after} {what}"),
                    )
                })
            } else if before == after {
                None
            } else if only_removals && !removed.contains(before) {
                Some((
                    "remove-moves-only-its-keys",
                    format!(
                        "key {key:?} moved from {before} to {after} when only {} left; a removal may only move the keys of the removed node",
                        list(&removed)
                    ),
                ))
            } else if only_additions && !added.contains(after) {
                Some((
                    "add-only-steals-keys",
                    format!(
                        "key {key:?} moved from {before} to {after} when only {} joined; an addition may only move keys to the new node",
                        list(&added)
                    ),
                ))
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
/// without them, the two lists must agree as far as both go.
fn ranking_hint(
    before: &Value,
    after: &Value,
    added: &[Value],
    removed: &[Value],
    only_removals: bool,
    only_additions: bool,
) -> Option<(&'static str, String)> {
    let (Some(before), Some(after)) = (before.as_array(), after.as_array()) else {
        return None;
    };
    let agree = |a: &[&Value], b: &[&Value]| a.iter().zip(b).all(|(x, y)| x == y);
    if only_removals {
        let kept: Vec<&Value> = before.iter().filter(|n| !removed.contains(n)).collect();
        let after: Vec<&Value> = after.iter().collect();
        (!agree(&kept, &after)).then(|| {
            (
                "remove-keeps-the-ranking",
                format!(
                    "when only {} left; a removal takes the removed nodes out of a ranking and the others keep their order",
                    list(removed)
                ),
            )
        })
    } else if only_additions {
        let before: Vec<&Value> = before.iter().collect();
        let old: Vec<&Value> = after.iter().filter(|n| !added.contains(n)).collect();
        (!agree(&before, &old)).then(|| {
            (
                "add-keeps-the-ranking",
                format!(
                    "when only {} joined; an addition puts the new nodes into a ranking and the others keep their order",
                    list(added)
                ),
            )
        })
    } else {
        None
    }
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
