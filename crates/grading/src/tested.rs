//! A case as grading found it: the record each stage adds to (the run and
//! its judgement, the explanation, the h32 check's values in it, the
//! second opinion's replay), from which the report is built once, at the
//! end.

use crate::challenge::{Case, Group};
use crate::diagnose::Observed;
use crate::explain::ExplanationReport;
use crate::judge::Judgement;
use crate::run::Captured;
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
    pub captured: Captured,
    /// The module never loaded, so none of the case ran.
    pub load_failed: bool,
    /// The pinned scores behind the expected answer, with the learner's
    /// own h32 values once the h32 check has run.
    pub explanation: Option<ExplanationReport>,
    /// What the submission did, for the diagnosis.
    pub observed: Observed<'c>,
    /// The limit the case ran under when it was its share of the time its
    /// group shares after an earlier case ran past the limit; `None`: its
    /// group's full limit.
    pub shared_limit: Option<crate::grade::Share>,
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
