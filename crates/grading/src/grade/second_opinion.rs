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
    example: Option<diagnose::Change>,
    /// The budget of extra runs, when it refused a replay.
    cut_short: Option<Duration>,
}

impl SecondOpinion {
    /// The finding, when answers changed, named in suite order.
    pub(super) fn finding(
        &self,
        cases: &[(&Group, &Case)],
        language: lang::Language,
    ) -> Option<diagnose::Nondeterminism> {
        let mut changed = self.changed.clone();
        changed.sort_unstable();
        let tests: Vec<String> = changed
            .iter()
            .map(|&i| format!("{}/{}", cases[i].1.group, cases[i].1.name))
            .collect();
        (!tests.is_empty()).then(|| diagnose::Nondeterminism {
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

impl<'a> Grading<'a> {
    /// How many of [`crate::run::SECOND_OPINION_SEEDS`] the second opinion uses:
    /// the first for every case, all of them when a tie decides a case.
    /// (Not fewer for a suite of many tied cases: they share their tied
    /// names, and a seed orders those alike in every case.)
    pub(super) fn seeds(&self) -> usize {
        match self.tied().contains(&true) {
            true => crate::run::SECOND_OPINION_SEEDS.len(),
            false => 1,
        }
    }

    /// Replays the cases of the groups `phase` selects (and that ran in
    /// `ran`) in fresh sessions with other hash seeds and compares the
    /// answers with the first run's. Under the first of
    /// [`crate::run::SECOND_OPINION_SEEDS`] every case is replayed, except for
    /// JavaScript and TypeScript (whose Set and Map orders are insertion
    /// orders and whose strings hash alike in every process), where only
    /// the failing ones are; under the others, the cases where a tie
    /// decides an answer, where a seed most often shows. A case that passed
    /// the first time and answers wrongly in another run fails (its replay
    /// is returned, to decide its test); one that hit a
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
        let seeded = seeded(submission.language);
        let mut failed: Vec<(usize, Tested<'a>)> = Vec::new();
        let seeds = self.seeds();
        for (n, &seed) in crate::run::SECOND_OPINION_SEEDS
            .iter()
            .enumerate()
            .take(seeds)
        {
            let wanted: Vec<usize> = (0..cases.len())
                .filter(|&i| phase(cases[i].0))
                .filter(|&i| {
                    ran[i].as_ref().map(|t| &t.observed).is_some_and(|first| {
                        first.behaviour.is_some()
                            && if n == 0 {
                                seeded || !first.passed
                            } else {
                                // (Asked only for the languages seeds change.)
                                seeded && self.tied()[i]
                            }
                    })
                })
                .collect();
            if wanted.is_empty() {
                continue;
            }
            let Some(mut again) = runner.fresh(seed) else {
                break;
            };
            for &i in &wanted {
                let (group, case) = cases[i];
                let Some(graded) = &ran[i] else {
                    continue;
                };
                let first = &graded.observed;
                let took = Duration::from_millis(graded.time_ms());
                let Some(limit) = budget.attempt(took, group.time_limit) else {
                    // The rest, under this seed and the next, is not run.
                    opinion.cut_short = Some(budget.total());
                    return Ok(failed);
                };
                let replayed = self.run_one(&mut again, group, case, limit)?;
                let replay = &replayed.observed;
                let (Some(before), Some(after)) = (&first.behaviour, &replay.behaviour) else {
                    continue;
                };
                let Some(at) = diagnose::first_difference(before, after) else {
                    continue;
                };
                if !opinion.changed.contains(&i) {
                    opinion.changed.push(i);
                }
                if opinion.example.is_none() && self.shown(group) {
                    opinion.example = Some(diagnose::Change::new(case, at, before, after));
                }
                if first.passed && !replay.passed && !failed.iter().any(|(j, _)| *j == i) {
                    failed.push((i, replayed));
                }
            }
        }
        Ok(failed)
    }
}

/// Whether another hash seed can change the language's answers: not for
/// JavaScript and TypeScript, whose Set and Map orders are insertion orders
/// and whose strings hash alike in every process.
fn seeded(language: lang::Language) -> bool {
    !matches!(
        language,
        lang::Language::JavaScript | lang::Language::TypeScript
    )
}
