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

impl Grading<'_> {
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
        cpu_seconds: u64,
        cases: &[(&Group, &Case)],
        tests: &mut [TestReport],
        observed: &[diagnose::Observed<'_>],
        redacted: &dyn Fn(&Group) -> bool,
    ) -> Result<Option<diagnose::Nondeterminism>, Error> {
        let (Some(program), Some(_)) = (runner.program(), runner.hello()) else {
            return Ok(None);
        };
        let seeded = !matches!(
            submission.language,
            lang::Language::JavaScript | lang::Language::TypeScript
        );
        let mut changed: Vec<usize> = Vec::new();
        let mut failed_again = vec![false; cases.len()];
        let mut example = None;
        for (n, &seed) in crate::run::SECOND_SEEDS.iter().enumerate() {
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
            let mut second =
                Runner::new(self.env, Ok(program.clone()), cpu_seconds).with_seed(seed);
            for (i, ((group, case), first)) in cases.iter().zip(observed).enumerate() {
                if !wanted(i, first) {
                    continue;
                }
                let (mut test, again) = self.run_one(&mut second, group, case)?;
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
