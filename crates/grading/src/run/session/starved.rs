//! Telling a program that waits from one the machine starves, when the
//! wall clock stops a request.

use super::Session;
use crate::error::Starved;
use crate::run::clock::FINAL_READING;
use std::time::{Duration, Instant};

/// When a request began, with the tree's CPU time and wait for a CPU then,
/// and the machine's time ([`sys::machine_busy`]) (`None` when
/// unknown).
#[derive(Debug)]
pub(super) struct Since {
    pub(super) at: Instant,
    pub(super) cpu: Option<Duration>,
    pub(super) waited: Option<Duration>,
    pub(super) machine: Option<sys::MachineTime>,
    pub(super) grader: Option<Duration>,
    /// Whether the request's first byte was written since.
    delivered: bool,
}

impl Since {
    /// Now, with the session's CPU time and wait for a CPU `now`.
    pub(super) fn now(cpu: Option<Duration>, waited: Option<Duration>) -> Since {
        Since {
            at: Instant::now(),
            cpu,
            waited,
            machine: sys::machine_busy(),
            grader: sys::own_cpu(),
            delivered: false,
        }
    }

    /// Bytes of the request were written now: on the first write, the wall
    /// clock, the machine's time and the grader's own count from here;
    /// later writes change nothing. The session's CPU time and wait keep
    /// their earlier reading: whatever it ran or waited for in between
    /// (nothing, for a program blocked on reading its requests) still
    /// counts.
    pub(super) fn delivered(&mut self) {
        if self.delivered {
            return;
        }
        self.delivered = true;
        self.at = Instant::now();
        self.machine = sys::machine_busy();
        self.grader = sys::own_cpu();
    }
}

impl Session {
    /// Why the machine, not the program, ran out the wall clock, when it
    /// did. Two things must hold since the request (or the start) began,
    /// and the session can produce only the first:
    ///
    /// - the session wanted the CPU: its processes waited for one at
    ///   least as long as they ran, and ran or waited for most of the
    ///   time (time the host of a virtual machine took its CPUs counts as
    ///   a wait); none of them lowered its own priority, and none passed the
    ///   CPU time limit (read once more now: a sample may not have caught
    ///   it). A program that sleeps or blocks on a read neither runs nor
    ///   waits, and one that loops runs more than it waits on any machine
    ///   but a starved one;
    /// - the machine had no room for it, by the grader's own measure: the
    ///   CPU time everything outside the session and the grader used (the
    ///   machine's busy time less the session's own and the grader's,
    ///   which a session can drive by what it prints) left it less than
    ///   half a core on average. With a cgroup, the session's own time is
    ///   the kernel's account of every process it ever had, so nothing it does (spinning
    ///   children the kernel reaps, threads pinned to one CPU) counts as
    ///   the machine's; sampled from `/proc`, children the kernel reaped
    ///   are missed, and this half is only as good as the sampling.
    ///
    /// A machine that leaves the grader itself no CPU to read the session
    /// with starved it too: nothing is known then, and the time-out is the
    /// machine's.
    pub(super) fn starved(&mut self) -> Option<Starved> {
        if self.cpu.over() {
            return None;
        }
        // The wall clock is read before the session's processes, the
        // machine's time and the grader's own after them: a reading the
        // machine slows (the grader waits for a CPU in it too) then adds to
        // the session's wait and to the others' work, never to the time
        // they are set against. Both halves err on the machine's side.
        let at = Instant::now();
        let deadline = sys::Deadline::own_time(FINAL_READING);
        let Some((cpu, waited, lowered)) = self.memory.cpu_wait_and_priority(&deadline) else {
            // The reading is a few files for each of a session's bounded
            // number of processes, and its budget the grader's own time:
            // only a machine that left the grader itself no CPU for ten
            // times that budget cuts it short. Nothing is known of the
            // session then, and its time-out is nobody's verdict.
            return Some(Starved::new(format!(
                "the machine was too busy to judge this submission: in {:.1} s of wall-clock time the grader could not once measure what its processes ran, so its time ran out waiting for the machine; grade it again when the machine is less loaded (--resume grades what is left)",
                self.since.at.elapsed().as_secs_f64()
            )));
        };
        self.cpu.note(cpu);
        if self.cpu.over() || lowered {
            return None;
        }
        let ran = cpu.saturating_sub(self.since.cpu?);
        let waited = waited?.saturating_sub(self.since.waited?);
        let wall = at.saturating_duration_since(self.since.at);
        let machine = sys::machine_busy()?;
        let before = self.since.machine?;
        // Time the host of a virtual machine took its CPUs is time no
        // process here could run: for the session, a wait for a CPU the
        // kernel's own account of it leaves out.
        let stolen = machine.stolen.saturating_sub(before.stolen) / machine.cpus;
        let waited = waited + stolen;
        let grader = sys::own_cpu()?.saturating_sub(self.since.grader?);
        let others = machine
            .busy
            .saturating_sub(before.busy)
            .saturating_sub(ran)
            .saturating_sub(grader);
        let room = wall.saturating_mul(machine.cpus).saturating_sub(others);
        let wanted = waited >= ran && (ran + waited) * 2 >= wall;
        (wanted && room * 2 < wall).then(|| {
            Starved::new(format!(
                "the machine was too busy to judge this submission: in {:.1} s of wall-clock time its processes ran for {:.1} s and waited {:.1} s for a CPU, so its time ran out waiting for the machine, not in its own work; grade it again when the machine is less loaded (--resume grades what is left)",
                wall.as_secs_f64(),
                ran.as_secs_f64(),
                waited.as_secs_f64()
            ))
        })
    }
}
