//! Property hints: consistent-hashing properties a submission's own answers
//! break, found without the reference (docs/diagnosis.md).

use crate::challenge::Case;
use crate::judge::same;
use reference::{Arg, Effect, Explanation, Kind, ModelSpec, Op, Returns};
use serde_json::Value;

/// A property of consistent hashing the submission breaks, shown by two
/// routes of the same key.
#[derive(Debug, Clone, PartialEq)]
pub struct PropertyFinding {
    pub property: Property,
    pub case: String,
    /// The two routes of the same key, by operation index.
    pub first_op: usize,
    pub second_op: usize,
    /// What the two answers show, for the report to say.
    pub evidence: PropertyEvidence,
}

/// The properties a hint may find broken.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Property {
    RemoveMovesOnlyItsKeys,
    AddOnlyStealsKeys,
    RemoveKeepsTheRanking,
    AddKeepsTheRanking,
    RemovedNodesAreGone,
    TiesKeepTheirOrder,
    OrderIndependent,
}

impl Property {
    /// Its name in reports and docs/diagnosis.md.
    pub fn id(self) -> &'static str {
        match self {
            Property::RemoveMovesOnlyItsKeys => "remove-moves-only-its-keys",
            Property::AddOnlyStealsKeys => "add-only-steals-keys",
            Property::RemoveKeepsTheRanking => "remove-keeps-the-ranking",
            Property::AddKeepsTheRanking => "add-keeps-the-ranking",
            Property::RemovedNodesAreGone => "removed-nodes-are-gone",
            Property::TiesKeepTheirOrder => "ties-keep-their-order",
            Property::OrderIndependent => "order-independent",
        }
    }
}

/// What two answers of one case show: the key asked about (`key`), the
/// answers `before` and `after`, and what joined or left between them.
#[derive(Debug, Clone, PartialEq)]
pub enum PropertyEvidence {
    /// A node that left, `ghost`, is still answered; `ranking` when the
    /// answers are rankings.
    StillThere {
        key: String,
        ghost: Value,
        before: Value,
        after: Value,
        changes: NodeChanges,
        ranking: bool,
    },
    /// A ranking changed more than the nodes that left or joined explain:
    /// `swapped` are the first two nodes whose places differ; `tie` when
    /// they tie for the key.
    Reranked {
        key: String,
        before: Value,
        after: Value,
        changes: NodeChanges,
        swapped: (Value, Value),
        tie: Option<Tie>,
    },
    /// A key moved from a node that stayed, or to one that was there
    /// before; `tie` when the two tie for the key.
    Moved {
        key: String,
        before: Value,
        after: Value,
        changes: NodeChanges,
        tie: Option<Tie>,
    },
    /// Operation `op` was answered `given` with the initial nodes in the
    /// given order and `reversed` with them reversed.
    OrderDependent {
        op: Value,
        given: Value,
        reversed: Value,
    },
}

/// The additions or removals between two answers: the nodes, once each;
/// whether they left (else joined); the first few operations with their
/// indices, and how many more there were.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeChanges {
    pub nodes: Vec<Value>,
    pub left: bool,
    pub shown: Vec<(usize, Value)>,
    pub more: usize,
}

/// How two nodes tie for a key, in the pinned values.
#[derive(Debug, Clone, PartialEq)]
pub enum Tie {
    /// One weighted score.
    Weighted { score: f64 },
    /// One h32 of the two hashed texts.
    Hash { a: String, b: String, h32: u32 },
    /// Ring points of the two at the one position the key lands on.
    Ring { a: String, b: String, position: u32 },
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
pub fn property_hint(model: &ModelSpec, case: &Case, actual: &[Value]) -> Option<PropertyFinding> {
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
    // An addition of a node already there, without a weight, changes
    // nothing: no node joins.
    let joins = joins(case);
    let changing: Vec<usize> = (0..ops.len())
        .filter(|&k| joins[k] || ops[k].signature.effect == Effect::Removes)
        .collect();
    let prefix = |counts: &dyn Fn(usize, &Op) -> bool| {
        std::iter::once(0)
            .chain(ops.iter().enumerate().scan(0usize, |n, (k, o)| {
                *n += usize::from(counts(k, o));
                Some(*n)
            }))
            .collect::<Vec<usize>>()
    };
    let adding = prefix(&|k, _| joins[k]);
    let removing = prefix(&|_, o| o.signature.effect == Effect::Removes);
    let reweighing = prefix(&|_, o| o.signature.effect == Effect::Adds && o.operands.len() > 1);
    let querying =
        prefix(&|_, o| o.signature.effect == Effect::Query && !o.signature.returns.is_query());
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
                    .filter(|&&k| {
                        let o = &ops[k];
                        o.signature.effect == effect && seen.insert(o.name_at(0))
                    })
                    .map(|&k| Value::from(ops[k].name_at(0)))
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
                Some((
                    Property::RemovedNodesAreGone,
                    PropertyEvidence::StillThere {
                        key: key.to_owned(),
                        ghost: ghost.clone(),
                        before: before.clone(),
                        after: after.clone(),
                        changes: changes(),
                        ranking,
                    },
                ))
            } else if ranking {
                ranking_hint(
                    before,
                    after,
                    &added,
                    &removed,
                    only_removals,
                    only_additions,
                )
                .map(
                    |RankingBreak {
                         property,
                         swapped: (x, y),
                     }| {
                        let tie = tied(j, x, y);
                        let property = match tie {
                            Some(_) => Property::TiesKeepTheirOrder,
                            None => property,
                        };
                        let evidence = PropertyEvidence::Reranked {
                            key: key.to_owned(),
                            before: before.clone(),
                            after: after.clone(),
                            changes: changes(),
                            swapped: (x.clone(), y.clone()),
                            tie,
                        };
                        (property, evidence)
                    },
                )
            } else if before == after {
                None
            } else if (only_removals && !removed.contains(before))
                || (only_additions && !added.contains(after))
            {
                let tie = tied(j, before, after);
                let property = match tie {
                    Some(_) => Property::TiesKeepTheirOrder,
                    None if only_removals => Property::RemoveMovesOnlyItsKeys,
                    None => Property::AddOnlyStealsKeys,
                };
                let evidence = PropertyEvidence::Moved {
                    key: key.to_owned(),
                    before: before.clone(),
                    after: after.clone(),
                    changes: changes(),
                    tie,
                };
                Some((property, evidence))
            } else {
                None
            };
            if let Some((property, evidence)) = hint {
                return Some(PropertyFinding {
                    property,
                    case: case.id().to_string(),
                    first_op: i,
                    second_op: j,
                    evidence,
                });
            }
        }
        last.insert((ranking, key), j);
    }
    None
}

/// For each operation of `case`, whether it is an addition of a node
/// that was not there (with a weight or without one): a node joins.
fn joins(case: &Case) -> Vec<bool> {
    let mut members: std::collections::HashSet<&str> = case
        .args
        .iter()
        .flat_map(|arg| -> Vec<&str> {
            match arg {
                Arg::Names(names) => names.iter().map(String::as_str).collect(),
                Arg::WeightedNames(pairs) => pairs.iter().map(|(n, _)| n.as_str()).collect(),
                _ => Vec::new(),
            }
        })
        .collect();
    case.ops
        .iter()
        .map(|op| match op.signature.effect {
            Effect::Adds => members.insert(op.name_at(0)),
            Effect::Removes => {
                members.remove(op.name_at(0));
                false
            }
            _ => false,
        })
        .collect()
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
    let (property, old, new) = if only_removals {
        let kept: Vec<&Value> = before.iter().filter(|n| !removed.contains(n)).collect();
        (
            Property::RemoveKeepsTheRanking,
            kept,
            after.iter().collect::<Vec<_>>(),
        )
    } else if only_additions {
        (
            Property::AddKeepsTheRanking,
            before.iter().collect(),
            after.iter().filter(|n| !added.contains(n)).collect(),
        )
    } else {
        return None;
    };
    let swapped = first_difference(&old, &new)?;
    Some(RankingBreak { property, swapped })
}

/// How a ranking changed more than it may.
struct RankingBreak<'v> {
    property: Property,
    /// The first two nodes whose places differ: the one expected there,
    /// then the one found.
    swapped: (&'v Value, &'v Value),
}

/// Whether `a` and `b` tie in `explanation` for the answer it explains: one
/// score at the top of the table, or points at the one position the key
/// lands on. Says how, with the pinned values.
fn tie_between(explanation: &Explanation, a: &str, b: &str) -> Option<Tie> {
    match explanation {
        Explanation::Scores(table) | Explanation::Top { table, .. } => {
            let row = |name: &str| table.rows.iter().find(|r| r.node == name);
            let (x, y) = (row(a)?, row(b)?);
            (x.score() == y.score()).then(|| match x.weighted {
                Some(w) => Tie::Weighted { score: w.score },
                None => Tie::Hash {
                    a: x.hashed.clone(),
                    b: y.hashed.clone(),
                    h32: x.h32,
                },
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
            Some(Tie::Ring {
                a: x.hashed.clone(),
                b: y.hashed.clone(),
                position: landed,
            })
        }
        Explanation::Points(_) => None,
    }
}

/// The additions and removals of `ops[range]` (one or the other, and at
/// least one), with their indices; the first few of many.
fn changes(case: &Case, range: std::ops::Range<usize>) -> NodeChanges {
    const SHOWN: usize = 3;
    let changing: Vec<usize> = range
        .filter(|&at| case.ops[at].signature.effect != Effect::Query)
        .collect();
    let mut nodes = Vec::new();
    for &at in &changing {
        let name = Value::from(case.ops[at].name_at(0));
        if !nodes.contains(&name) {
            nodes.push(name);
        }
    }
    NodeChanges {
        nodes,
        left: case.ops[changing[0]].signature.effect == Effect::Removes,
        shown: changing
            .iter()
            .take(SHOWN)
            .map(|&at| (at, case.op_json(at)))
            .collect(),
        more: changing.len().saturating_sub(SHOWN),
    }
}

/// Compares a case's answers with the answers to the same case with its
/// initial nodes reversed: the first route that differs breaks order
/// independence.
pub fn order_hint(case: &Case, actual: &[Value], reversed: &[Value]) -> Option<PropertyFinding> {
    let ops = &case.ops;
    let j = (0..ops.len().min(actual.len()).min(reversed.len()))
        .find(|&j| (asks_owner(&ops[j]) || ranks(&ops[j])) && !same(&actual[j], &reversed[j]))?;
    Some(PropertyFinding {
        property: Property::OrderIndependent,
        case: case.id().to_string(),
        first_op: j,
        second_op: j,
        evidence: PropertyEvidence::OrderDependent {
            op: case.op_json(j),
            given: actual[j].clone(),
            reversed: reversed[j].clone(),
        },
    })
}
