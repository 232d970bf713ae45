//! The time extra runs get: every run after a submission's verdict is known
//! (the shrinker's attempts, the order check, the h32 check) has a limit
//! of its own, derived from the failing case's measured time, and all of
//! one submission's extra runs (the second opinion's replays too) share
//! one budget. Extras never change a verdict; when the budget runs out,
//! they stop and say so. The budget counts only while the submission's
//! extras run: it is paused while the class's other sessions run.

use std::cell::Cell;
use std::time::{Duration, Instant};

/// An extra run gets this many times its case's measured time...
const ATTEMPT_FACTOR: u32 = 10;
/// ... and all of a submission's extra runs this many times the failing
/// case's time, plus [`BUDGET_BASE`] for the many quick attempts a fast
/// case's shrinking makes and for starting sessions again.
const BUDGET_FACTOR: u32 = 20;
const BUDGET_BASE: Duration = Duration::from_secs(5);

/// The settings of extra runs (`[limits]` `extra_run_ms` and
/// `extras_budget_ms`, `--extra-run-limit` and `--extras-budget`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtraLimits {
    /// The least time one extra run gets, however fast its case ran.
    pub run_floor: Duration,
    /// The most all extra runs of one submission may take together.
    pub budget_cap: Duration,
}

impl Default for ExtraLimits {
    fn default() -> Self {
        ExtraLimits {
            run_floor: Duration::from_millis(250),
            budget_cap: Duration::from_secs(20),
        }
    }
}

/// One submission's budget for extra runs, shared by all of them.
#[derive(Debug)]
pub struct Budget {
    limits: ExtraLimits,
    total: Cell<Duration>,
    until: Cell<Instant>,
    /// What was left when it was paused, while it is.
    paused: Cell<Option<Duration>>,
    ran_out: Cell<bool>,
}

impl Budget {
    /// A budget of `min(20 × case_time + 5 s, cap)`, from now; `case_time`
    /// is the measured time of the failing case the extras are about.
    pub fn start(limits: ExtraLimits, case_time: Duration) -> Budget {
        let total = (case_time.saturating_mul(BUDGET_FACTOR) + BUDGET_BASE).min(limits.budget_cap);
        Budget::of(limits, total)
    }

    /// A budget of exactly `total` (capped by nothing), from now: what a
    /// learner gives exploring (`--explore 30s`).
    pub fn of(limits: ExtraLimits, total: Duration) -> Budget {
        Budget {
            limits,
            total: Cell::new(total),
            until: Cell::new(Instant::now() + total),
            paused: Cell::new(None),
            ran_out: Cell::new(false),
        }
    }

    /// Adds `more` to the budget, and opens it again if it ran out: the
    /// second opinion's share, one replay of the cases it replays at the
    /// time they took, after the extras that ran before it.
    pub fn grant(&self, more: Duration) {
        self.ran_out.set(false);
        self.total.set(self.total.get() + more);
        match self.paused.get() {
            Some(left) => self.paused.set(Some(left + more)),
            None => self.until.set(self.until.get() + more),
        }
    }

    /// Stops the clock: the time until [`Budget::resume`] is not the
    /// submission's (the rest of the class is graded meanwhile).
    pub fn pause(&self) {
        if self.paused.get().is_none() {
            let left = self.until.get().saturating_duration_since(Instant::now());
            self.paused.set(Some(left));
        }
    }

    /// Starts the clock again with what was left at [`Budget::pause`].
    pub fn resume(&self) {
        if let Some(left) = self.paused.take() {
            self.until.set(Instant::now() + left);
        }
    }

    /// The limit of one extra run of a case that took `case_time`, at most
    /// `ceiling` (its group's limit): `max(10 × case_time, floor)`, or
    /// what is left of the budget when that is less. `None`, and the
    /// budget spent, when less is left than twice the case's time (or the
    /// floor, if less): such an attempt would time out for nothing.
    pub fn attempt(&self, case_time: Duration, ceiling: Duration) -> Option<Duration> {
        let due = case_time
            .saturating_mul(ATTEMPT_FACTOR)
            .max(self.limits.run_floor)
            .min(ceiling);
        let least = due.min(case_time.saturating_mul(2).max(self.limits.run_floor));
        let left = match self.paused.get() {
            Some(left) => left,
            None => self.until.get().saturating_duration_since(Instant::now()),
        };
        if self.ran_out.get() || left < least {
            self.ran_out.set(true);
            return None;
        }
        Some(due.min(left))
    }

    /// Whether the budget ran out: an extra run was refused.
    pub fn ran_out(&self) -> bool {
        self.ran_out.get()
    }

    /// The whole budget, for messages.
    pub fn total(&self) -> Duration {
        self.total.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attempt_gets_ten_times_its_case_within_the_group_limit_and_the_budget() {
        let limits = ExtraLimits {
            run_floor: Duration::from_millis(250),
            budget_cap: Duration::from_secs(20),
        };
        let budget = Budget::start(limits, Duration::from_millis(300));
        assert_eq!(budget.total(), Duration::from_secs(11));
        let group = Duration::from_secs(2);
        assert_eq!(
            budget.attempt(Duration::from_millis(100), group),
            Some(Duration::from_secs(1))
        );
        assert_eq!(
            budget.attempt(Duration::from_millis(1), group),
            Some(Duration::from_millis(250))
        );
        assert_eq!(
            budget.attempt(Duration::from_millis(300), group),
            Some(group)
        );
        assert!(!budget.ran_out());
        // What is left, when less than the due, goes to an attempt while
        // it is at least twice the case's time.
        let short = Budget::start(
            ExtraLimits {
                budget_cap: Duration::from_secs(4),
                ..limits
            },
            Duration::from_secs(1),
        );
        let cut = short.attempt(Duration::from_secs(1), Duration::from_secs(5));
        assert!(
            cut.is_some_and(|l| l <= Duration::from_secs(4) && l > Duration::from_secs(3)),
            "{cut:?}"
        );
        assert!(!short.ran_out());
        assert_eq!(
            short.attempt(Duration::from_secs(3), Duration::from_secs(10)),
            None
        );
        assert!(short.ran_out());
        // A budget smaller than an attempt's due refuses it, and says so.
        let tight = Budget::start(
            ExtraLimits {
                budget_cap: Duration::from_millis(100),
                ..limits
            },
            Duration::from_secs(1),
        );
        assert_eq!(tight.attempt(Duration::from_millis(1), group), None);
        assert!(tight.ran_out());
    }

    #[test]
    fn a_paused_budget_keeps_what_was_left_and_a_grant_adds_to_it() {
        let limits = ExtraLimits {
            run_floor: Duration::from_millis(10),
            budget_cap: Duration::from_millis(300),
        };
        let budget = Budget::start(limits, Duration::ZERO);
        assert_eq!(budget.total(), Duration::from_millis(300));
        budget.pause();
        // The class's other sessions run meanwhile: not this budget's time.
        std::thread::sleep(Duration::from_millis(400));
        budget.resume();
        // An attempt due a second gets what is left.
        let left = budget.attempt(Duration::from_millis(100), Duration::from_secs(5));
        assert!(
            left.is_some_and(|l| l > Duration::from_millis(200) && l <= Duration::from_millis(300)),
            "{left:?}"
        );
        std::thread::sleep(Duration::from_millis(350));
        assert_eq!(budget.attempt(Duration::ZERO, Duration::from_secs(1)), None);
        assert!(budget.ran_out());
        // A grant opens it again, for that much.
        budget.grant(Duration::from_millis(500));
        assert_eq!(budget.total(), Duration::from_millis(800));
        assert!(!budget.ran_out());
        let due = budget.attempt(Duration::from_millis(100), Duration::from_secs(5));
        assert!(
            due.is_some_and(|d| d <= Duration::from_millis(500) && d > Duration::from_millis(300)),
            "{due:?}"
        );
    }
}
