//! The second opinion on a graded submission: its cases replayed in fresh
//! processes with other hash seeds, for answers that change between runs
//! (docs/diagnosis.md).

use super::{Grading, redact};
use crate::challenge::{Case, Group};
use crate::diagnose;
use crate::error::Error;
use crate::lang::{self, Submission};
use crate::report::TestReport;
use crate::run::Runner;

/// The second opinion's answers replayed beside the first opinion: for
/// each seed it used, each case's answer in the suite's order, if replayed.
pub(super) type Ahead<'c> = Result<Vec<Vec<Option<(TestReport, diagnose::Observed<'c>)>>>, Error>;

impl<'a> Grading<'a> {
    /// The runner of the first second opinion when a core is idle, for
    /// the languages whose every case it replays: [`Grading::beside`] then
    /// runs it beside the first opinion instead of after it.
    pub(super) fn early_second(
        &self,
        runner: &Runner<'a>,
        submission: &Submission,
    ) -> Option<Runner<'a>> {
        (seeded(submission.language) && self.env.spare_core())
            .then(|| runner.fresh(crate::run::SECOND_SEEDS[0]))
            .flatten()
    }

    /// Runs `main` (the first opinion) and, with an `early` second
    /// opinion, at the same time on a thread of its own, every replay of
    /// [`Grading::second_run`] that does not hang on the first opinion's
    /// answers: every case under the first seed, the cases a tie decides
    /// under the others.
    pub(super) fn beside<'c, R>(
        &self,
        early: Option<Runner<'a>>,
        cases: &[(&Group, &'c Case)],
        main: impl FnOnce() -> Result<R, Error>,
    ) -> Result<(R, Option<Ahead<'c>>), Error>
    where
        'a: 'c,
    {
        let Some(mut second) = early else {
            return Ok((main()?, None));
        };
        let tied = self.tied();
        let seeds = self.seeds();
        std::thread::scope(|scope| {
            let ahead = std::thread::Builder::new()
                .name("second-opinion".into())
                .spawn_scoped(scope, move || {
                    let mut answers = Vec::new();
                    for n in 0..seeds {
                        if n > 0 {
                            match second.fresh(crate::run::SECOND_SEEDS[n]) {
                                Some(next) => second = next,
                                None => break,
                            }
                        }
                        let mut replayed = Vec::new();
                        for (i, (group, case)) in cases.iter().enumerate() {
                            replayed.push(match n == 0 || tied[i] {
                                true => Some(self.run_one(&mut second, group, case)?),
                                false => None,
                            });
                        }
                        answers.push(replayed);
                    }
                    Ok(answers)
                })
                .map_err(Error::io("cannot start a thread for the second opinion"))?;
            let first = main();
            let ahead = ahead.join().unwrap_or_else(|_| {
                Err(Error::Io {
                    context: "the second opinion's thread panicked".into(),
                    source: std::io::Error::other("panic"),
                })
            });
            Ok((first?, Some(ahead)))
        })
    }

    /// How many of [`crate::run::SECOND_SEEDS`] the second opinion uses:
    /// the first for every case, all of them when a tie decides a case.
    /// (Not fewer for a suite of many tied cases: they share their tied
    /// names, and a seed orders those alike in every case.)
    pub(super) fn seeds(&self) -> usize {
        match self.tied().contains(&true) {
            true => crate::run::SECOND_SEEDS.len(),
            false => 1,
        }
    }

    /// Replays cases in fresh sessions with other hash seeds and compares
    /// the answers with the first run's. Under the first of
    /// [`crate::run::SECOND_SEEDS`] every case is replayed, except for
    /// JavaScript and TypeScript (whose Set and Map orders are insertion
    /// orders and whose strings hash alike in every process), where only
    /// the failing ones are; under the others, the cases where a tie
    /// decides an answer, where a seed most often shows. A case that passed
    /// the first time and answers wrongly in another run fails; one that
    /// hit a limit or crashed in either run says nothing about its answers
    /// and is left as it was, so a busy machine cannot make a finding.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn second_run(
        &self,
        runner: &Runner<'_>,
        submission: &Submission,
        cases: &[(&Group, &Case)],
        tests: &mut [TestReport],
        observed: &[diagnose::Observed<'_>],
        redacted: &dyn Fn(&Group) -> bool,
        ahead: Option<Ahead<'_>>,
    ) -> Result<Option<diagnose::Nondeterminism>, Error> {
        // Answers already replayed beside the first opinion; an error of
        // those replays (a machine too busy) counts now.
        let mut ahead = match ahead {
            Some(answers) => answers?,
            None => Vec::new(),
        };
        let (Some(_), Some(_)) = (runner.program(), runner.hello()) else {
            return Ok(None);
        };
        let seeded = seeded(submission.language);
        let mut changed: Vec<usize> = Vec::new();
        let mut failed_again = vec![false; cases.len()];
        let mut example = None;
        for (n, &seed) in crate::run::SECOND_SEEDS
            .iter()
            .enumerate()
            .take(self.seeds())
        {
            let wanted = |i: usize, first: &diagnose::Observed<'_>| {
                first.behaviour.is_some()
                    && if n == 0 {
                        seeded || !first.passed
                    } else {
                        // (Asked only for the languages seeds change.)
                        seeded && self.tied()[i]
                    }
            };
            if !observed.iter().enumerate().any(|(i, o)| wanted(i, o)) {
                continue;
            }
            let Some(mut second) = runner.fresh(seed) else {
                break;
            };
            let mut answered = ahead.get_mut(n);
            for (i, ((group, case), first)) in cases.iter().zip(observed).enumerate() {
                if !wanted(i, first) {
                    continue;
                }
                let (mut test, again) = match answered.as_mut().and_then(|a| a[i].take()) {
                    Some(answer) => answer,
                    None => self.run_one(&mut second, group, case)?,
                };
                let (Some(before), Some(after)) = (&first.behaviour, &again.behaviour) else {
                    continue;
                };
                let Some(at) = diagnose::first_difference(before, after) else {
                    continue;
                };
                if !changed.contains(&i) {
                    changed.push(i);
                }
                if example.is_none() && self.shown(&tests[i]) {
                    example = Some(diagnose::Change::new(case, at, before, after));
                }
                if first.passed && !again.passed && !failed_again[i] {
                    failed_again[i] = true;
                    test.message = format!("in another run, {}", test.message);
                    if redacted(group) {
                        redact(&mut test);
                    }
                    tests[i] = test;
                }
            }
        }
        changed.sort_unstable();
        let changed: Vec<String> = changed
            .iter()
            .map(|&i| format!("{}/{}", cases[i].1.group, cases[i].1.name))
            .collect();
        Ok((!changed.is_empty()).then(|| diagnose::Nondeterminism {
            tests: changed,
            example,
            explanation: diagnose::nondeterminism_causes(submission.language).to_owned(),
        }))
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
