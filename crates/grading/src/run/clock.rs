//! The clocks a case runs under: it is judged on the CPU time the
//! session's processes use during it, which the machine's load inflates
//! far less than the wall clock (the time others run is not counted, only
//! the slowing of the program's own by the caches and cores it shares,
//! which the margin of `audit --limits`' proposals absorbs); a wall-clock
//! backstop stops a program that waits (a sleep, a blocking read) and so
//! uses no CPU at all.

use std::time::{Duration, Instant};

/// The wall-clock backstop is this many times the case's limit...
pub const BACKSTOP_FACTOR: u32 = 3;
/// ... and at least the limit plus this: a loaded machine may give a busy
/// program a small share of a core, and a short limit must not turn that
/// into a time-out.
pub const BACKSTOP_EXTRA: Duration = Duration::from_secs(5);

/// How long the reading of a reply's CPU time may take, in the grader's
/// own time ([`sys::Deadline::own_time`]): the time it waits for
/// a CPU on a starved machine does not count.
pub(super) const FINAL_READING: Duration = Duration::from_secs(1);

/// The wall-clock backstop of a case whose CPU time limit is `limit`:
/// `max(3 × limit, limit + 5 s)`.
pub fn backstop(limit: Duration) -> Duration {
    limit
        .saturating_mul(BACKSTOP_FACTOR)
        .max(limit + BACKSTOP_EXTRA)
}

/// The clock that stopped a request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clock {
    /// The CPU time the session's processes used during the request.
    Cpu,
    /// The wall-clock deadline, the backstop for a program that waits.
    Wall,
}

/// A request's time: the CPU time the session's processes may use during
/// it, and a wall-clock deadline for a program that waits without using
/// the CPU.
#[derive(Debug, Clone, Copy)]
pub struct Clocks {
    pub cpu: Duration,
    pub deadline: Instant,
}

/// The CPU time of one request: its limit (`None` when only the deadline
/// counts, as for the hello), the tree's CPU time when it started (`None`
/// when that could not be read: then the deadline alone counts), what it
/// has used since, and whether that passed the limit.
#[derive(Debug, Default)]
pub(super) struct CpuMeter {
    limit: Option<Duration>,
    base: Option<Duration>,
    used: Duration,
    over: bool,
}

impl CpuMeter {
    /// A meter of `limit` from the tree's CPU time `base`.
    pub(super) fn start(limit: Duration, base: Option<Duration>) -> CpuMeter {
        CpuMeter {
            limit: Some(limit),
            base,
            used: Duration::ZERO,
            over: false,
        }
    }

    /// Counts the tree's CPU time `total`, read now.
    pub(super) fn note(&mut self, total: Duration) {
        let Some(base) = self.base else {
            return;
        };
        // A process that ended counts in its parent once reaped: a reading
        // in between may miss it, never the next one.
        self.used = self.used.max(total.saturating_sub(base));
        if self.limit.is_some_and(|limit| self.used > limit) {
            self.over = true;
        }
    }

    /// Whether the request has a CPU limit still.
    pub(super) fn limited(&self) -> bool {
        self.limit.is_some() && self.base.is_some()
    }

    /// Whether the CPU time used passed the limit.
    pub(super) fn over(&self) -> bool {
        self.over
    }

    /// The CPU time used so far, as last read.
    pub(super) fn used(&self) -> Duration {
        self.used
    }

    /// Which clock ran out: the CPU time, else the deadline.
    pub(super) fn clock(&self) -> Clock {
        if self.over { Clock::Cpu } else { Clock::Wall }
    }

    /// Lifts the limit: the request ends anyway, and what follows (a last
    /// question for the running operation) must not be cut short.
    pub(super) fn unlimit(&mut self) {
        self.limit = None;
        self.over = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backstop_is_three_times_the_limit_and_at_least_five_seconds_more() {
        assert_eq!(
            backstop(Duration::from_millis(1500)),
            Duration::from_millis(6500)
        );
        assert_eq!(backstop(Duration::from_secs(2)), Duration::from_secs(7));
        assert_eq!(backstop(Duration::from_secs(10)), Duration::from_secs(30));
    }

    #[test]
    fn a_meter_counts_from_its_start_and_never_goes_back() {
        let mut meter = CpuMeter::start(Duration::from_millis(100), Some(Duration::from_secs(7)));
        meter.note(Duration::from_millis(7060));
        assert_eq!(meter.used(), Duration::from_millis(60));
        assert!(!meter.over());
        // A child reaped between two reads of one sample went unseen.
        meter.note(Duration::from_millis(7010));
        assert_eq!(meter.used(), Duration::from_millis(60));
        meter.note(Duration::from_millis(7110));
        assert!(meter.over());
        assert_eq!(meter.clock(), Clock::Cpu);
        meter.unlimit();
        assert_eq!(meter.clock(), Clock::Wall);
        // Without a starting point, only the deadline counts.
        let mut blind = CpuMeter::start(Duration::from_millis(100), None);
        blind.note(Duration::from_secs(60));
        assert!(!blind.over());
    }
}
