//! A submission's grading in two phases. The visible phase runs every
//! case a report may show in full, then the operations before the limit
//! of the first few of them that hit one (`prefix`), then the extras their
//! answers call for
//! (the h32 check, the reproducer, a broken property or the order check),
//! then the second opinion's replays of them. The hidden phase
//! runs the hidden cases (for a learner) in sessions of their own, then
//! their replays: no session that runs a hidden case has anything of its
//! output shown, and a class's hidden phase starts only when every visible
//! session of the class has ended (the `grader` program's batch). Across
//! runs, each phase is one of the machine's (the sandbox crate's `phase`):
//! no visible session of any run overlaps a hidden one of another, or
//! follows one before what it could have marked is wiped.

use super::{Grading, GroupClock, Pending, Slot, check_hash, second_opinion};
use crate::challenge::{Case, Group, Visibility};
use crate::error::Error;
use crate::extra::Budget;
use crate::lang::{self, Submission};
use crate::run::Runner;
use crate::tested::Tested;
use sandbox::Phase;
use std::time::Duration;

impl<'a> Grading<'a> {
    /// Every case of the suite with its group, in the suite's order.
    pub(super) fn cases(&self) -> Vec<(&'a Group, &'a Case)> {
        self.suite
            .groups
            .iter()
            .flat_map(|g| g.cases.iter().map(move |c| (g, c)))
            .collect()
    }

    /// Whether a grading has a hidden phase at all: for an instructor,
    /// or a suite without hidden cases, the visible phase runs everything.
    pub fn has_hidden_phase(&self) -> bool {
        self.cases().iter().any(|(g, _)| self.later(g))
    }

    /// Whether `group`'s cases wait for the hidden phase: its details are
    /// redacted for the report's reader, so whatever the code remembers of
    /// them it may print, raise or answer only where nothing is shown.
    pub(super) fn later(&self, group: &Group) -> bool {
        !self.audience.sees(group.visibility)
    }

    /// The visible phase of `submission`'s grading (named `name`): every
    /// case but those kept for later, the extras, then their second
    /// opinion, on one budget of extra runs. Every session it started has
    /// ended when it returns.
    pub fn grade_visible(&self, name: &str, submission: &Submission) -> Result<Pending<'a>, Error> {
        // CPU for a whole session: every case's wall-clock limit, plus
        // start-up. It catches a thread that burns CPU between cases, which
        // no wall-clock limit sees.
        let case_ms: u128 = self
            .suite
            .groups
            .iter()
            .map(|g| g.time_limit.as_millis() * g.cases.len() as u128)
            .sum();
        let cpu_seconds = (case_ms / 1000) as u64 + crate::run::STARTUP_LIMIT.as_secs() + 1;
        // A phase that runs a hidden case (for a reader who sees them all)
        // is a hidden one to every other run on the machine.
        let hidden = self
            .cases()
            .iter()
            .any(|(g, _)| !self.later(g) && g.visibility == Visibility::Hidden);
        self.env.enter_phase(if hidden {
            Phase::Hidden
        } else {
            Phase::Visible
        });
        let prepared = lang::prepare(self.env, self.challenge, submission)?;
        let mut runner = Runner::new(self.env, prepared, cpu_seconds);
        let cases = self.cases();
        let mut clock = GroupClock::default();
        let mut ran = cases
            .iter()
            .map(|(group, case)| {
                (!self.later(group))
                    .then(|| self.run_timed(name, &mut runner, &mut clock, group, case))
                    .transpose()
            })
            .collect::<Result<Vec<Slot<'a>>, Error>>()?;
        // The answers lost with a limit or a crash first: they are the
        // tests' own divergences, which the checks below explain.
        self.replay_prefixes(&runner, &mut ran);
        // Every extra run shares one budget, from the time of the failing
        // case they start from (else the slowest case, for the h32 check).
        let base = {
            let graded: Vec<&Tested<'_>> = ran.iter().flatten().collect();
            self.extras_case(&graded, |_| true)
                .map(|(_, t)| t)
                .or_else(|| graded.iter().map(|t| t.time_ms()).max())
                .unwrap_or(0)
        };
        let budget = Budget::start(self.extras, Duration::from_millis(base));
        // The h32 check first: one quick run, and the explanations show it.
        let h32 = unless_busy(check_hash(
            &mut runner,
            &mut ran,
            &budget,
            base,
            crate::lang::syntax(submission.language),
        ))?;
        let graded: Vec<&Tested<'_>> = ran.iter().flatten().collect();
        let (property, reproducer) =
            unless_busy(self.extras(&mut runner, submission, &graded, &budget))?;
        // Then the second opinion, with its share of the budget: one
        // replay of the cases it replays, at the time they took.
        budget.grant(Duration::from_millis(
            graded.iter().map(|t| t.time_ms()).sum(),
        ));
        let mut opinion = second_opinion::SecondOpinion::default();
        let failed = unless_busy(self.second_opinion(
            &runner,
            submission,
            &cases,
            &ran,
            &|g| !self.later(g),
            &budget,
            &mut opinion,
        ))?;
        for (i, replay) in failed {
            if let Some(t) = ran[i].as_mut() {
                t.in_another_run = Some(Box::new(replay));
            }
        }
        // Exploring, when every test the reader sees passed: cases of its
        // own, none hidden, so it belongs to this phase.
        let explored = match self.explore {
            Some(explore) if ran.iter().flatten().all(Tested::passed) => {
                let limit = self
                    .suite
                    .groups
                    .iter()
                    .map(|g| g.time_limit)
                    .min()
                    .unwrap_or(crate::run::STARTUP_LIMIT);
                unless_busy(
                    crate::explore::explore(
                        self.challenge,
                        &mut runner,
                        submission,
                        explore,
                        limit,
                        self.extras,
                    )
                    .map(Some),
                )?
            }
            _ => None,
        };
        // What the report shows of the submission's own words comes from
        // this phase's sessions only.
        let hello = runner.hello().cloned();
        runner.restart();
        budget.pause();
        self.derived
            .visible_until
            .fetch_max(super::now_ms(), std::sync::atomic::Ordering::Relaxed);
        Ok(Pending {
            name: name.to_owned(),
            submission: submission.clone(),
            runner,
            ran,
            h32,
            property,
            reproducer,
            explored,
            hello,
            budget,
            visible_cut_short: opinion.cut_short(),
            opinion,
        })
    }

    /// The hidden phase of a grading: the cases kept for later in a session
    /// of their own (their report redacted), then their second opinion; every session it
    /// started has ended when it returns.
    pub(super) fn hidden_phase(&self, pending: &mut Pending<'a>) -> Result<(), Error> {
        let cases = self.cases();
        if !cases.iter().any(|(g, _)| self.later(g)) {
            return Ok(());
        }
        self.env.enter_phase(Phase::Hidden);
        let runner = &mut pending.runner;
        runner.restart();
        let mut clock = GroupClock::default();
        for (slot, (group, case)) in pending.ran.iter_mut().zip(&cases) {
            if self.later(group) {
                *slot = Some(self.run_timed(&pending.name, runner, &mut clock, group, case)?);
            }
        }
        let budget = &pending.budget;
        let took: u64 = pending
            .ran
            .iter()
            .zip(&cases)
            .filter(|(_, (g, _))| self.later(g))
            .filter_map(|(s, _)| s.as_ref().map(Tested::time_ms))
            .sum();
        budget.grant(Duration::from_millis(took));
        budget.resume();
        let failed = unless_busy(self.second_opinion(
            runner,
            &pending.submission,
            &cases,
            &pending.ran,
            &|g| self.later(g),
            budget,
            &mut pending.opinion,
        ));
        budget.pause();
        runner.restart();
        for (i, replay) in failed? {
            if let Some(t) = pending.ran[i].as_mut() {
                t.in_another_run = Some(Box::new(replay));
            }
        }
        Ok(())
    }
}

/// An extra run (a check after the verdict, a replay of the second opinion) that the machine was
/// too busy for shows nothing: the verdict stands without it.
fn unless_busy<T: Default>(result: Result<T, Error>) -> Result<T, Error> {
    match result {
        Err(Error::Busy(_)) => Ok(T::default()),
        other => other,
    }
}
