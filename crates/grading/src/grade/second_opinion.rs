//! The second opinion on a graded submission: its cases replayed in fresh
//! processes with other hash seeds, for answers that change between runs
//! (docs/diagnosis.md). It runs once per phase of the grading, on that
//! phase's cases only, so that a replay session never holds a hidden case
//! and a visible one; its replays share the budget of extra runs.

use super::{Grading, Slot};
use crate::challenge::{Case, Group};
use crate::diagnose;
use crate::error::Error;
use crate::extra::Budget;
use crate::lang::{self, Submission};
use crate::run::Runner;
use crate::tested::Tested;
use std::time::Duration;

/// What the second opinion found so far, over the phases of a grading.
#[derive(Debug, Default)]
pub(super) struct SecondOpinion {
    /// The cases (by their index in the suite) whose answers changed.
    changed: Vec<usize>,
    /// The first change in a test the reader may see.
    example: Option<diagnose::ChangedAnswer>,
    /// The budget of extra runs, when it refused a replay.
    cut_short: Option<Duration>,
}

impl SecondOpinion {
    /// Notes that the answers of case `i` changed, with `change` as the
    /// example if the reader may see it and none is kept yet.
    fn changed(&mut self, i: usize, change: Option<diagnose::ChangedAnswer>) {
        if !self.changed.contains(&i) {
            self.changed.push(i);
        }
        if self.example.is_none() {
            self.example = change;
        }
    }

    /// The finding, when answers of a case whose group passes `shown`
    /// changed, named in suite order.
    pub(super) fn finding(
        &self,
        cases: &[(&Group, &Case)],
        language: lang::Language,
        shown: impl Fn(&Group) -> bool,
    ) -> Option<diagnose::RerunDifferences> {
        let mut changed: Vec<usize> = self
            .changed
            .iter()
            .copied()
            .filter(|&i| shown(cases[i].0))
            .collect();
        changed.sort_unstable();
        let tests: Vec<String> = changed
            .iter()
            .map(|&i| cases[i].1.id().to_string())
            .collect();
        (!tests.is_empty()).then(|| diagnose::RerunDifferences {
            tests,
            example: self.example.clone(),
            language,
        })
    }

    /// The budget of extra runs, when it stopped the second opinion
    /// before it replayed every case it meant to.
    pub(super) fn cut_short(&self) -> Option<Duration> {
        self.cut_short
    }
}

/// What the second opinion replays of one case under a seed: the
/// operations `kept` (ascending indices), under the first seed only or
/// under every seed it uses.
#[derive(Debug, Clone, PartialEq)]
struct Replay {
    case: usize,
    kept: Vec<usize>,
    every_seed: bool,
}

/// The chance of missing an answer that a seed changes, which the second
/// opinion allows itself: 2^-10 (see [`seeds_for`]).
const MISS_BITS: usize = 10;

/// How many seeds the second opinion uses for answers decided by
/// `distinct` ties of different nodes: enough that an order-dependent
/// submission is missed with probability at most 2^-[`MISS_BITS`], at most
/// all of [`crate::run::SECOND_OPINION_SEEDS`]. A fresh seed reorders a
/// two-way tie with probability one half (more for a wider one), and ties
/// of different nodes are reordered apart, so `s` seeds miss with
/// probability at most 2^-(s × distinct). One seed at least, for the
/// failing cases.
fn seeds_for(distinct: usize) -> usize {
    let most = crate::run::SECOND_OPINION_SEEDS.len();
    match distinct {
        0 => 1,
        d => MISS_BITS.div_ceil(d).clamp(1, most),
    }
}

/// What another hash seed can change in a language's runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Orders {
    /// Orders follow the seed (Python's salted `hash()`, Rust's
    /// `RandomState`), and only where the submission's order decides.
    Seeded,
    /// Nothing: insertion orders, strings hashed alike in every process
    /// (JavaScript, TypeScript).
    Fixed,
    /// Not known: a program of the learner's own.
    Unknown,
}

impl Orders {
    fn of(language: lang::Language) -> Orders {
        match language {
            lang::Language::JavaScript | lang::Language::TypeScript => Orders::Fixed,
            lang::Language::Executable => Orders::Unknown,
            _ => Orders::Seeded,
        }
    }
}

/// What to replay of case `case`, and how often, from its first run:
/// whether it `passed`, where it went `wrong` first (or raised), the
/// `ties` that decide its answers and which of its operations are
/// `queries`, in a language whose `orders` are these.
fn replay_of(
    case: usize,
    passed: bool,
    wrong: Option<usize>,
    ties: &[super::Tie],
    queries: &[bool],
    orders: Orders,
) -> Option<Replay> {
    let all = || (0..queries.len()).collect::<Vec<_>>();
    let last_tie = ties.iter().rposition(Option::is_some);
    match (passed, orders) {
        // A program the grader knows nothing of: every case whole under
        // the first seed, the tied ones under all.
        (_, Orders::Unknown) => Some(Replay {
            case,
            kept: all(),
            every_seed: passed && last_tie.is_some(),
        }),
        // Once, up to the first wrong answer: what the finding needs.
        (false, _) => Some(Replay {
            case,
            kept: match wrong {
                Some(at) => (0..=at.min(queries.len().saturating_sub(1))).collect(),
                None => all(),
            },
            every_seed: false,
        }),
        (true, Orders::Fixed) => None,
        // The operations that change state, and the queries a tie
        // decides, up to the last of those.
        (true, Orders::Seeded) => {
            let last = last_tie?;
            Some(Replay {
                case,
                kept: (0..=last)
                    .filter(|&i| !queries[i] || ties[i].is_some())
                    .collect(),
                every_seed: true,
            })
        }
    }
}

impl<'a> Grading<'a> {
    /// Replays what another hash seed can change of the cases of the
    /// groups `phase` selects (and that ran in `ran`) in fresh sessions
    /// under [`crate::run::SECOND_OPINION_SEEDS`], and compares the answers
    /// with the first run's (docs/diagnosis.md says what is replayed
    /// when):
    ///
    /// - a case that failed, once, up to its first wrong answer;
    /// - a case that passed, for Python and Rust, only if a tie decides one
    ///   of its answers: the operations that change state and the queries
    ///   a tie decides, up to the last of those, under as many seeds as
    ///   [`seeds_for`] its distinct ties ask; a run of them that answers
    ///   otherwise is confirmed by a full replay under that seed, which
    ///   alone decides (a query that changes the learner's state is then
    ///   replayed too);
    /// - for JavaScript and TypeScript (insertion orders, strings hashed
    ///   alike in every process) no case that passed;
    /// - for a program of the learner's own, whose runtime the grader does
    ///   not know, every case in full under the first seed, the tied ones
    ///   under all.
    ///
    /// A case that passed the first time and answers wrongly in another run
    /// fails (its replay is returned, to decide its test); one that hit a
    /// limit or crashed in either run says nothing about its answers and
    /// is left as it was, so a busy machine, or a replay stopped by the
    /// budget, cannot make a finding. Each replay gets `budget`'s limit for
    /// its case; when the budget refuses one, the rest are not run and
    /// `opinion` says so.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn second_opinion(
        &self,
        runner: &Runner<'_>,
        submission: &Submission,
        cases: &[(&'a Group, &'a Case)],
        ran: &[Slot<'a>],
        phase: &dyn Fn(&Group) -> bool,
        budget: &Budget,
        opinion: &mut SecondOpinion,
    ) -> Result<Vec<(usize, Tested<'a>)>, Error> {
        let (Some(_), Some(_)) = (runner.program(), runner.hello()) else {
            return Ok(Vec::new());
        };
        let orders = Orders::of(submission.language);
        let ties = self.ties();
        let replays: Vec<Replay> = (0..cases.len())
            .filter(|&i| phase(cases[i].0))
            .filter_map(|i| {
                let graded = ran[i].as_ref()?;
                let first = &graded.observed;
                first.behaviour.as_ref()?;
                let case = cases[i].1;
                let queries: Vec<bool> = case
                    .ops
                    .iter()
                    .map(|op| op.signature.effect == reference::Effect::Query)
                    .collect();
                let wrong = graded
                    .judgement
                    .divergence
                    .as_ref()
                    .map(|d| d.op_index)
                    .or_else(|| first.behaviour.as_ref().and_then(|b| b.raised_at()));
                replay_of(i, first.passed, wrong, &ties[i], &queries, orders)
            })
            .collect();
        // Ties of the same nodes change together: they count once.
        let mut distinct: Vec<&[String]> = replays
            .iter()
            .filter(|r| r.every_seed)
            .flat_map(|r| ties[r.case].iter().flatten())
            .map(Vec::as_slice)
            .collect();
        distinct.sort_unstable();
        distinct.dedup();
        let seeds = seeds_for(distinct.len());
        let mut failed: Vec<(usize, Tested<'a>)> = Vec::new();
        for (n, &seed) in crate::run::SECOND_OPINION_SEEDS
            .iter()
            .enumerate()
            .take(seeds)
        {
            let wanted: Vec<&Replay> = replays
                .iter()
                .filter(|r| n == 0 || r.every_seed)
                .filter(|r| !opinion.changed.contains(&r.case))
                .collect();
            if wanted.is_empty() {
                continue;
            }
            let Some(mut again) = runner.fresh(seed) else {
                break;
            };
            for replay in wanted {
                let i = replay.case;
                let (group, case) = cases[i];
                let Some(graded) = &ran[i] else {
                    continue;
                };
                let first = &graded.observed;
                let Some(before) = &first.behaviour else {
                    continue;
                };
                let took = Duration::from_millis(graded.time_ms());
                let Some(limit) = budget.attempt(took, group.time_limit) else {
                    // The rest, under this seed and the next, is not run.
                    opinion.cut_short = Some(budget.total());
                    return Ok(failed);
                };
                // The operations kept, alone: a difference there is a
                // lead; for a case that failed, whose replay is a prefix
                // of it (`replay_of`), it is evidence itself (one that
                // passed needs its full replay, which decides its test).
                if replay.kept.len() < case.ops.len() {
                    let input = subcase(case, &replay.kept);
                    let bound = crate::run::ReplyBound::for_case(case);
                    let run = again.run_input(&input, bound, limit)?;
                    let (Some(after), Some(expected)) = (
                        diagnose::Behaviour::of(&run.outcome),
                        before.restricted(&replay.kept),
                    ) else {
                        continue;
                    };
                    let Some(at) = diagnose::first_difference(&expected, &after) else {
                        continue;
                    };
                    if !first.passed {
                        opinion.changed(
                            i,
                            self.shown(group)
                                .then(|| diagnose::ChangedAnswer::new(case, at, &expected, &after)),
                        );
                        continue;
                    }
                }
                // In full: the evidence that decides.
                let Some(limit) = budget.attempt(took, group.time_limit) else {
                    opinion.cut_short = Some(budget.total());
                    return Ok(failed);
                };
                let replayed = self.run_one(&mut again, group, case, limit)?;
                let replay = &replayed.observed;
                let Some(after) = &replay.behaviour else {
                    continue;
                };
                let Some(at) = diagnose::first_difference(before, after) else {
                    continue;
                };
                opinion.changed(
                    i,
                    self.shown(group)
                        .then(|| diagnose::ChangedAnswer::new(case, at, before, after)),
                );
                if first.passed && !replay.passed && !failed.iter().any(|(j, _)| *j == i) {
                    failed.push((i, replayed));
                }
            }
        }
        Ok(failed)
    }
}

/// The case `[args, ops]` of `case` with only the operations `kept`.
pub(super) fn subcase(case: &Case, kept: &[usize]) -> serde_json::Value {
    let ops = &case.input[1];
    serde_json::json!([
        case.input[0],
        kept.iter().map(|&i| ops[i].clone()).collect::<Vec<_>>()
    ])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// s seeds over d distinct ties miss with probability 2^-(s·d): the
    /// fewest seeds with s·d ≥ 10, within one to five.
    #[test]
    fn seeds_grow_until_a_miss_is_improbable_and_stop_at_five() {
        let wanted = [
            (0, 1),
            (1, 5),
            (2, 5),
            (3, 4),
            (4, 3),
            (5, 2),
            (9, 2),
            (10, 1),
        ];
        for (distinct, seeds) in wanted {
            assert_eq!(seeds_for(distinct), seeds, "{distinct} distinct ties");
        }
    }

    fn tie() -> super::super::Tie {
        Some(vec!["a".into(), "b".into()])
    }

    /// add, route (tied), remove, route, route (tied), route.
    fn case() -> (Vec<super::super::Tie>, Vec<bool>) {
        let ties = vec![None, tie(), None, None, tie(), None];
        let queries = vec![false, true, false, true, true, true];
        (ties, queries)
    }

    #[test]
    fn a_passed_case_replays_its_state_changes_and_tied_queries_up_to_the_last() {
        let (ties, queries) = case();
        let replay = replay_of(7, true, None, &ties, &queries, Orders::Seeded).unwrap();
        assert_eq!(
            replay,
            Replay {
                case: 7,
                kept: vec![0, 1, 2, 4],
                every_seed: true
            }
        );
        // Without a tie it is not replayed; nor for JavaScript.
        let untied = vec![None; 6];
        assert_eq!(
            replay_of(7, true, None, &untied, &queries, Orders::Seeded),
            None
        );
        assert_eq!(
            replay_of(7, true, None, &ties, &queries, Orders::Fixed),
            None
        );
    }

    #[test]
    fn a_failed_case_replays_once_up_to_its_first_wrong_answer() {
        let (ties, queries) = case();
        for orders in [Orders::Seeded, Orders::Fixed] {
            let replay = replay_of(2, false, Some(3), &ties, &queries, orders);
            assert_eq!(
                replay,
                Some(Replay {
                    case: 2,
                    kept: vec![0, 1, 2, 3],
                    every_seed: false
                })
            );
        }
        let unknown = replay_of(2, false, None, &ties, &queries, Orders::Seeded).unwrap();
        assert_eq!(unknown.kept, (0..6).collect::<Vec<_>>());
    }

    /// A program of the learner's own: every case whole, as before.
    #[test]
    fn an_executables_cases_are_replayed_whole() {
        let (ties, queries) = case();
        let passed = replay_of(1, true, None, &ties, &queries, Orders::Unknown).unwrap();
        assert_eq!(passed.kept, (0..6).collect::<Vec<_>>());
        assert!(passed.every_seed);
        let untied = replay_of(1, true, None, &vec![None; 6], &queries, Orders::Unknown).unwrap();
        assert!(!untied.every_seed);
        let failed = replay_of(1, false, Some(1), &ties, &queries, Orders::Unknown).unwrap();
        assert_eq!(failed.kept, (0..6).collect::<Vec<_>>());
    }
}
