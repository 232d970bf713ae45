//! A case as grading found it: the record each stage adds to (the run and
//! its judgement, the explanation, the h32 check's values in it, the
//! second opinion's replay), from which the report is built once, at the
//! end.

use crate::challenge::{Case, Group};
use crate::diagnose::Observed;
use crate::explain::WhyExpected;
use crate::judge::Judgement;
use crate::run::CapturedOutput;
use std::time::Duration;

/// One case of a submission, run and judged.
#[derive(Debug, Clone)]
pub struct Tested<'c> {
    pub group: &'c Group,
    pub case: &'c Case,
    pub judgement: Judgement,
    /// Wall-clock time of the case.
    pub time: Duration,
    /// CPU time the session's processes used during the case.
    pub cpu: Duration,
    /// What the learner's code printed during the case, capped.
    pub captured: CapturedOutput,
    /// The module never loaded, so none of the case ran.
    pub load_failed: bool,
    /// The pinned scores behind the expected answer, with the learner's
    /// own h32 values once the h32 check has run.
    pub explanation: Option<WhyExpected>,
    /// What the submission did, for the diagnosis.
    pub observed: Observed<'c>,
    /// The limit the case ran under when it was its share of the time its
    /// group shares after an earlier case ran past the limit; `None`: its
    /// group's full limit.
    pub shared_limit: Option<TimeShare>,
    /// The second opinion's replay of a case that passed here, when it
    /// failed under another hash seed: the test is judged by it.
    pub in_another_run: Option<Box<Tested<'c>>>,
}

impl Tested<'_> {
    /// The run that decides the test: the second opinion's failing replay
    /// when there is one, else this run.
    pub fn deciding(&self) -> &Self {
        self.in_another_run.as_deref().unwrap_or(self)
    }

    /// Whether the test passed, the second opinion considered.
    pub fn passed(&self) -> bool {
        self.deciding().observed.passed
    }

    /// Wall-clock time of the case in milliseconds.
    pub fn time_ms(&self) -> u64 {
        self.time.as_millis() as u64
    }
}

/// A case under a group's shared time gets at least its limit divided by
/// this of CPU time...
const SHARE_FLOOR: u32 = 10;
/// ... and this many times that of wall-clock time: more than its CPU
/// time, so that a busy case is stopped by its CPU time, not by the wall.
const SHARE_WALL: u32 = 2;

/// A case's share of the time its group shares: its CPU time limit and
/// its wall-clock deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeShare {
    pub cpu: Duration,
    pub wall: Duration,
}

impl TimeShare {
    /// The least share a case of a group whose limit is `limit` gets.
    pub fn least(limit: Duration) -> TimeShare {
        let cpu = limit / SHARE_FLOOR;
        TimeShare {
            cpu,
            wall: cpu * SHARE_WALL,
        }
    }
}
