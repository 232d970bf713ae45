//! The first opinion on a submission: every case run once, then the
//! extras its answers call for (the h32 check, the reproducer, a broken
//! property or the order check), then, for a learner, the hidden cases.

use super::{Grading, check_hash, redact, unless_busy};
use crate::challenge::{Case, Group};
use crate::diagnose;
use crate::error::Error;
use crate::explain;
use crate::extra::Budget;
use crate::lang::Submission;
use crate::report::TestReport;
use crate::run::Runner;
use std::time::Duration;

/// Each case's test and what the submission did (in the suite's order),
/// the h32 check, a broken property and a shrunk reproducer.
pub(super) type FirstOpinion<'c> = (
    Vec<Option<(TestReport, diagnose::Observed<'c>)>>,
    Option<explain::HashCheck>,
    Option<diagnose::PropertyHint>,
    Option<crate::shrink::Reproducer>,
);

impl Grading<'_> {
    /// Runs every case on `runner` but the ones kept for `later`, the
    /// extras, then the `later` ones in a session of their own, redacted.
    pub(super) fn first_opinion<'c>(
        &self,
        runner: &mut Runner<'_>,
        submission: &Submission,
        cases: &[(&Group, &'c Case)],
        later: &dyn Fn(&Group) -> bool,
    ) -> Result<FirstOpinion<'c>, Error> {
        let hidden_last = cases.iter().any(|(g, _)| later(g));
        let mut ran = cases
            .iter()
            .map(|(group, case)| {
                (!later(group))
                    .then(|| self.run_one(runner, group, case))
                    .transpose()
            })
            .collect::<Result<Vec<_>, Error>>()?;
        let (mut tests, observed): (Vec<TestReport>, Vec<diagnose::Observed<'_>>) =
            ran.iter().flatten().cloned().unzip();
        // Every extra run shares one budget, from the time of the failing
        // case they start from (else the slowest case, for the h32 check).
        let base = self
            .extras_case(&observed, &tests, |_| true)
            .map(|(_, t)| t)
            .or_else(|| tests.iter().map(|t| t.time_ms).max())
            .unwrap_or(0);
        let budget = Budget::start(self.extras, Duration::from_millis(base));
        // The h32 check first: one quick run, and the explanations show it.
        let h32 = unless_busy(check_hash(runner, &mut tests, &budget, base))?;
        let (property, reproducer) =
            unless_busy(self.extras(runner, submission, &observed, &tests, &budget))?;
        let mut shown = tests.into_iter();
        for slot in ran.iter_mut().filter(|s| s.is_some()) {
            if let (Some((t, _)), Some(annotated)) = (slot.as_mut(), shown.next()) {
                *t = annotated;
            }
        }
        if hidden_last {
            runner.restart();
            for (slot, (group, case)) in ran.iter_mut().zip(cases) {
                if later(group) {
                    let (mut test, observed) = self.run_one(runner, group, case)?;
                    redact(&mut test);
                    *slot = Some((test, observed));
                }
            }
        }
        Ok((ran, h32, property, reproducer))
    }
}
