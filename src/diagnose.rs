//! Diagnose: name the learner's mistake. A failing submission's cases are
//! replayed on every known mistake of the challenge; a mistake that
//! reproduces the submission on every failing case it can be compared on
//! is named, preferring one that also passes where the submission passed.
//! When none does, the closest is shown only with its agreement rate.

use crate::challenge::{Case, Challenge};
use crate::judge::same;
use crate::run::Outcome;
use reference::mistakes::{self, Mistake, VariantRun};
use reference::{Effect, Kind, Op, Returns};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the submission did on one case, as far as a mistake can reproduce
/// it.
#[derive(Debug, Clone)]
pub enum Behaviour {
    /// Answered every operation.
    Output(Vec<Value>),
    /// Raised at `at`, having answered `output` before.
    Raised { output: Vec<Value>, at: usize },
}

impl Behaviour {
    /// The behaviour in `outcome`, if a mistake could reproduce it (time and
    /// memory limits, crashes and load failures cannot be compared).
    pub fn of(outcome: &Outcome) -> Option<Behaviour> {
        match outcome {
            Outcome::Output(output) => Some(Behaviour::Output(output.clone())),
            Outcome::Raised { output, error } => {
                let at = usize::try_from(error.op_index?).ok()?;
                Some(Behaviour::Raised {
                    output: output.clone(),
                    at,
                })
            }
            _ => None,
        }
    }

    fn reproduced_by(&self, run: &VariantRun) -> bool {
        let all_same = |a: &[Value], b: &[Value]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        };
        match self {
            Behaviour::Output(output) => run.raised_at.is_none() && all_same(output, &run.output),
            Behaviour::Raised { output, at } => {
                run.raised_at == Some(*at) && all_same(output, &run.output)
            }
        }
    }
}

/// A named mistake in a report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MistakeReport {
    pub id: String,
    pub title: String,
    pub explanation: String,
    pub hint: String,
    /// The variation that matched (a separator, say), when there are several.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// `true` when it reproduces every failing case; `false` for the
    /// closest mistake when none does.
    pub exact: bool,
    /// Failing cases it reproduces, of those compared.
    pub reproduced: usize,
    pub compared: usize,
}

/// One case with what the submission did and whether it passed.
#[derive(Debug, Clone)]
pub struct Observed<'a> {
    pub case: &'a Case,
    pub behaviour: Option<Behaviour>,
    pub passed: bool,
}

/// The mistake that explains `observed`, or the closest one, or none.
pub fn diagnose(challenge: &Challenge, observed: &[Observed<'_>]) -> Option<MistakeReport> {
    let failing: Vec<(&Case, &Behaviour)> = observed
        .iter()
        .filter(|o| !o.passed)
        .filter_map(|o| Some((o.case, o.behaviour.as_ref()?)))
        .collect();
    if failing.is_empty() {
        return None;
    }
    let passing: Vec<&Case> = observed
        .iter()
        .filter(|o| o.passed)
        .map(|o| o.case)
        .collect();
    // (mistake, form, failing reproduced, passing also passed)
    let mut scored: Vec<(&Mistake, usize, usize, usize)> = Vec::new();
    for mistake in challenge.model.mistakes {
        for form in 0..mistake.forms.len() {
            let reproduced = failing
                .iter()
                .filter(|(case, behaviour)| {
                    behaviour.reproduced_by(&mistakes::run(mistake, form, &case.args, &case.ops))
                })
                .count();
            let passes = if reproduced == failing.len() {
                passing
                    .iter()
                    .filter(|case| {
                        let run = mistakes::run(mistake, form, &case.args, &case.ops);
                        Behaviour::Output(case.expected.clone()).reproduced_by(&run)
                    })
                    .count()
            } else {
                0
            };
            scored.push((mistake, form, reproduced, passes));
        }
    }
    let exact = scored
        .iter()
        .filter(|(_, _, reproduced, _)| *reproduced == failing.len())
        // Most passing cases kept; the catalogue's order breaks ties.
        .max_by_key(|(m, f, _, passes)| (*passes, std::cmp::Reverse(position(challenge, m, *f))));
    let (mistake, form, reproduced, _) = match exact {
        Some(hit) => *hit,
        None => *scored
            .iter()
            .filter(|(_, _, reproduced, _)| *reproduced > 0)
            .max_by_key(|(m, f, reproduced, _)| {
                (*reproduced, std::cmp::Reverse(position(challenge, m, *f)))
            })?,
    };
    Some(MistakeReport {
        id: mistake.id.to_owned(),
        title: mistake.title.to_owned(),
        explanation: mistake.explanation.to_owned(),
        hint: mistake.hint.to_owned(),
        form: (mistake.forms.len() > 1).then(|| format!("{:?}", mistake.forms[form])),
        exact: reproduced == failing.len(),
        reproduced,
        compared: failing.len(),
    })
}

fn position(challenge: &Challenge, m: &Mistake, form: usize) -> usize {
    let index = challenge
        .model
        .mistakes
        .iter()
        .position(|x| std::ptr::eq(x, m))
        .unwrap_or(0);
    index * 100 + form
}

/// One mistake's audit: the tests that catch it.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRow {
    pub id: String,
    pub form: Option<String>,
    pub title: String,
    /// `group/name` of every test the mistake fails.
    pub caught_by: Vec<String>,
}

/// Runs every mistake (in every form) on every case of `cases`.
pub fn audit(challenge: &Challenge, cases: &[&Case]) -> Vec<AuditRow> {
    let mut rows = Vec::new();
    for mistake in challenge.model.mistakes {
        for form in 0..mistake.forms.len() {
            let caught_by = cases
                .iter()
                .filter(|case| {
                    let run = mistakes::run(mistake, form, &case.args, &case.ops);
                    !Behaviour::Output(case.expected.clone()).reproduced_by(&run)
                })
                .map(|case| format!("{}/{}", case.group, case.name))
                .collect();
            rows.push(AuditRow {
                id: mistake.id.to_owned(),
                form: (mistake.forms.len() > 1).then(|| format!("{:?}", mistake.forms[form])),
                title: mistake.title.to_owned(),
                caught_by,
            });
        }
    }
    rows
}

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

/// Routes between two nodes whose answer went against the pinned scores,
/// for a submission without `h32` to compare: with two nodes and two
/// different scores, nothing but the hash decides, so such answers say the
/// submission's scores do not follow h32 as pinned.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct HashHint {
    /// Two-node routes answered with the other node.
    pub against: usize,
    /// Two-node routes answered at all.
    pub asked: usize,
    pub message: String,
}

/// The fewest routes against the pinned scores that make a hint: one could
/// be a tie rule or an off-by-one, three in two-node routes are the hash.
const HASH_HINT_EVIDENCE: usize = 3;

/// The hint, when the answers of `observed` went against the pinned scores
/// in at least three two-node routes. The caller gives it
/// only to a submission without `h32` and no exactly named mistake.
pub fn hash_hint(challenge: &Challenge, observed: &[Observed<'_>]) -> Option<HashHint> {
    let (mut asked, mut against) = (0, 0);
    for o in observed {
        let answers = match &o.behaviour {
            Some(Behaviour::Output(output)) | Some(Behaviour::Raised { output, .. }) => output,
            None => continue,
        };
        // One replay gives every operation's scores.
        let explanations = challenge.model.explanations(&o.case.args, &o.case.ops);
        for (answer, explanation) in answers.iter().zip(explanations) {
            let Some(reference::Explanation::Scores(table)) = explanation else {
                continue;
            };
            let [first, second] = table.rows.as_slice() else {
                continue;
            };
            if first.h32 == second.h32 || table.rows.iter().any(|r| r.weighted.is_some()) {
                // A tie goes by the names; a weight changes the scores.
                continue;
            }
            asked += 1;
            if answer.as_str() == Some(second.node.as_str()) {
                against += 1;
            }
        }
    }
    (against >= HASH_HINT_EVIDENCE).then(|| HashHint {
        against,
        asked,
        message: format!(
            "{against} of the {asked} routes between two nodes chose the node with the lower pinned score; with two nodes only the hash decides, so your scores do not follow h32 as pinned: export h32(text) beside your Router (the starters do) and the grader will show the first text where your hash parts from it"
        ),
    })
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
        let hint = property_hint(&c, &[json!("a"), Value::Null, json!("b")]).unwrap();
        assert_eq!(hint.property, "remove-moves-only-its-keys");
        assert_eq!((hint.first_op, hint.second_op), (0, 2));
        // Moving off the removed node is fine.
        assert!(property_hint(&c, &[json!("c"), Value::Null, json!("b")]).is_none());
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
        let hint = property_hint(&c, &answers).unwrap();
        assert_eq!(hint.message.matches("\"c\"").count(), 1, "{}", hint.message);
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
        assert!(property_hint(&c, &fine).is_none());
        let reordered = answers(json!(["c", "a", "d"]), json!(["c", "a", "d", "e"]));
        let hint = property_hint(&c, &reordered).unwrap();
        assert_eq!(hint.property, "remove-keeps-the-ranking");
        assert_eq!((hint.first_op, hint.second_op), (0, 3));
        // e joined: without it the ranking must be the one before.
        let shuffled = answers(json!(["a", "c", "d"]), json!(["e", "d", "a", "c"]));
        let hint = property_hint(&c, &shuffled).unwrap();
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
        assert!(property_hint(&c, &[json!("a"), Value::Null, json!("c")]).is_none());
    }

    #[test]
    fn a_key_moving_to_an_old_node_breaks_addition() {
        let c = case(json!([
            [["a", "b"]],
            [["route", "k"], ["add", "z"], ["route", "k"]]
        ]));
        let hint = property_hint(&c, &[json!("a"), Value::Null, json!("b")]).unwrap();
        assert_eq!(hint.property, "add-only-steals-keys");
        assert!(property_hint(&c, &[json!("a"), Value::Null, json!("z")]).is_none());
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
            property_hint(&mixed, &[json!("a"), Value::Null, Value::Null, json!("b")]).is_none()
        );
    }
}
