//! Property hints: consistent-hashing properties a submission's own answers
//! break, found without the reference (docs/diagnosis.md).

use crate::challenge::Case;
use crate::judge::same;
use reference::{Effect, Explanation, Kind, ModelSpec, Op, Returns};
use serde_json::Value;

/// A property of consistent hashing the submission breaks, shown by two
/// routes of the same key.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyHint {
    /// `remove-moves-only-its-keys`, `add-only-steals-keys`,
    /// `remove-keeps-the-ranking`, `add-keeps-the-ranking`,
    /// `removed-nodes-are-gone`, `ties-keep-their-order` or
    /// `order-independent`.
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
    // The pinned scores of the one lookup a hint is about: a replay that
    // explains every operation would score every node for every key.
    let tied = |at: usize, a: &Value, b: &Value| match (a.as_str(), b.as_str()) {
        (Some(a), Some(b)) => tie_between(&model.explain_at(&case.args, ops, at)?, a, b),
        _ => None,
    };
    // Where nodes join or leave, and how many other queries and additions
    // that reweigh a node come before each operation: what lies between
    // two lookups is then found without walking the operations between.
    let changing: Vec<usize> = (0..ops.len())
        .filter(|&k| matches!(ops[k].signature.effect, Effect::Adds | Effect::Removes))
        .collect();
    let prefix = |counts: &dyn Fn(&Op) -> bool| {
        std::iter::once(0)
            .chain(ops.iter().scan(0usize, |n, o| {
                *n += usize::from(counts(o));
                Some(*n)
            }))
            .collect::<Vec<usize>>()
    };
    let adding = prefix(&|o| o.signature.effect == Effect::Adds);
    let removing = prefix(&|o| o.signature.effect == Effect::Removes);
    let reweighing = prefix(&|o| o.signature.effect == Effect::Adds && o.operands.len() > 1);
    let querying =
        prefix(&|o| o.signature.effect == Effect::Query && !o.signature.returns.is_query());
    // The last lookup and the last ranking of each key.
    let mut last: std::collections::HashMap<(bool, &str), usize> = std::collections::HashMap::new();
    for (j, op) in ops.iter().enumerate() {
        let ranking = ranks(op);
        if !(asks_owner(op) || ranking) || j >= actual.len() {
            continue;
        }
        let key = op.name_at(0);
        if let Some(&i) = last.get(&(ranking, key)) {
            let (before, after) = (&actual[i], &actual[j]);
            let from = changing.partition_point(|&k| k <= i);
            let to = changing.partition_point(|&k| k < j);
            // Each node once, however often it was added or removed.
            let names = |effect: Effect| -> Vec<Value> {
                let mut seen = std::collections::HashSet::new();
                changing[from..to]
                    .iter()
                    .map(|&k| &ops[k])
                    .filter(|o| o.signature.effect == effect && seen.insert(o.name_at(0)))
                    .map(|o| Value::from(o.name_at(0)))
                    .collect()
            };
            let between = |counts: &[usize]| counts[j] - counts[i + 1];
            // An addition with more than the node (a weight) may change a
            // node already there.
            let reweighs = between(&reweighing) > 0;
            let others = between(&querying) > 0;
            let (adds, removes) = (between(&adding), between(&removing));
            let only_removals = adds == 0 && removes > 0 && !others;
            let only_additions = removes == 0 && adds > 0 && !reweighs && !others;
            // Every hint is about nodes that only left or only joined.
            if !only_removals && !only_additions {
                last.insert((ranking, key), j);
                continue;
            }
            let (added, removed) = (names(Effect::Adds), names(Effect::Removes));
            // Only for a hint: every pair of lookups is looked at.
            let changes = || changes(case, i + 1..j);
            // An answer that names a node that left is wrong whatever the
            // answer before it.
            let ghost = only_removals
                .then(|| match after {
                    Value::Array(names) => names.iter().find(|n| removed.contains(n)),
                    name => removed.contains(name).then_some(name),
                })
                .flatten();
            let hint = if let Some(ghost) = ghost {
                let changes = changes();
                Some(if ranking {
                    (
                        "removed-nodes-are-gone",
                        format!(
                            "top({key:?}, ...) still holds {ghost} after {changes}: it was {before} and became {after}, and a node that left is in no ranking"
                        ),
                    )
                } else {
                    (
                        "removed-nodes-are-gone",
                        format!(
                            "key {key:?} still goes to {ghost} after {changes}: a node that left gets no keys"
                        ),
                    )
                })
            } else if ranking {
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
mod tests;
