//! Telling a program that waits from one the machine starves, when the
//! wall clock stops a request.

use super::Session;
use crate::run::clock::{Clock, FINAL_READING};
use std::time::{Duration, Instant};

/// When a request began, with the tree's CPU time and wait for a CPU then
/// (`None` when unknown).
#[derive(Debug)]
pub(super) struct Since {
    pub(super) at: Instant,
    pub(super) cpu: Option<Duration>,
    pub(super) waited: Option<Duration>,
}

impl Session {
    /// Why the machine, not the program, ran out the wall clock `clock`
    /// stopped: its processes were running or ready to run (waiting for a
    /// CPU the machine's load kept busy) for most of the time since the
    /// request began. A program that sleeps or blocks on a read is
    /// neither, and keeps its time-limit.
    pub(super) fn starved(&self, clock: Clock) -> Option<String> {
        if clock != Clock::Wall {
            return None;
        }
        let (cpu, waited) = self.memory.cpu_and_wait(Instant::now() + FINAL_READING)?;
        let ran = cpu.saturating_sub(self.since.cpu?);
        let waited = waited?.saturating_sub(self.since.waited?);
        let wall = self.since.at.elapsed();
        ((ran + waited) * 2 >= wall).then(|| {
            format!(
                "the machine was too busy to judge this submission: in {:.1} s of wall-clock time its processes ran for {:.1} s and waited {:.1} s for a CPU, so the wall-clock backstop ran out before the CPU time limit could; grade it again when the machine is less loaded (--resume grades what is left)",
                wall.as_secs_f64(),
                ran.as_secs_f64(),
                waited.as_secs_f64()
            )
        })
    }
}
