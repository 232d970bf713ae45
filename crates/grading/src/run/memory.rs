//! The memory a session holds and the CPU time it used: RLIMIT_DATA
//! bounds each process's private data only, so shared memory
//! (`MAP_SHARED` mappings, tmpfs files, `memfd`s) and memory spread over
//! several processes escape it, and a wall clock measures the machine's
//! load as much as the program. Where the session has a cgroup, the
//! kernel's accounts of it are read (every process that was ever in it,
//! however reaped; every page charged to it, mapped or not); else the
//! whole process tree is sampled from `/proc`, found once per sample for
//! both, which cannot see children the kernel reaped itself nor memory no
//! process maps.

use sandbox::Group;
use std::time::{Duration, Instant};
use sys::Deadline;

/// How often the tree is sampled: often enough to stop a program filling
/// memory at a few GiB a second soon after the limit, rarely enough to
/// cost nothing per operation (a sample reads a file per process).
pub(super) const EVERY: Duration = Duration::from_millis(75);

/// What one sample found: the tree's CPU time, and the memory it holds
/// when that is over the limit.
#[derive(Debug, Clone, Copy)]
pub(super) struct Reading {
    pub(super) cpu: Duration,
    pub(super) over: Option<u64>,
}

/// Samples the memory and CPU time of the process tree under one pid, or
/// of its cgroup.
#[derive(Debug)]
pub(super) struct Sampler {
    root: u32,
    limit: u64,
    next: Instant,
    group: Option<Group>,
}

impl Sampler {
    /// A sampler of the tree under `root` (the session's child: the
    /// sandbox's shim, its init, the program and all its descendants),
    /// over `limit` bytes.
    /// `group`, when there is one, holds the whole tree: its accounts are
    /// read instead of the tree's.
    pub(super) fn new(root: u32, limit: u64, group: Option<Group>) -> Sampler {
        Sampler {
            root,
            limit,
            next: Instant::now(),
            group,
        }
    }

    /// The session's cgroup, when it has one.
    pub(super) fn group(&self) -> Option<&Group> {
        self.group.as_ref()
    }

    /// When due, samples the tree. `None` when no sample was due, or when
    /// `deadline` passed first: reading a process's memory map waits while
    /// the process forks, and a fork bomb must still get its time-limit on
    /// time.
    pub(super) fn due(&mut self, now: Instant, deadline: Instant) -> Option<Reading> {
        if now < self.next {
            return None;
        }
        let reading = self.sample(&Deadline::at(deadline));
        // A sample slowed down (a machine starved by a fork bomb) comes
        // less often: sampling never takes more than a tenth of the time.
        let end = Instant::now();
        self.next = end + EVERY.max((end - now) * 9);
        reading
    }

    /// The tree's CPU time now, or `None` when `deadline` passed first.
    pub(super) fn cpu(&self, deadline: &Deadline) -> Option<Duration> {
        if let Some(cpu) = self.group.as_ref().and_then(Group::cpu) {
            return Some(cpu);
        }
        tree(self.root, deadline).map(|t| t.cpu)
    }

    /// The tree's CPU time now, and how long its processes have waited
    /// for a CPU ([`sys::waited_for_cpu`]), when the kernel says.
    pub(super) fn cpu_and_wait(&self, deadline: &Deadline) -> Option<(Duration, Option<Duration>)> {
        let tree = tree(self.root, deadline)?;
        let cpu = self.group.as_ref().and_then(Group::cpu).unwrap_or(tree.cpu);
        Some((cpu, sys::waited_for_cpu(&tree.pids)))
    }

    /// Like [`Sampler::cpu_and_wait`], from the same walk of the tree, and
    /// whether a process of it lowered its own priority
    /// ([`sys::lowered_priority`]).
    pub(super) fn cpu_wait_and_priority(
        &self,
        deadline: &Deadline,
    ) -> Option<(Duration, Option<Duration>, bool)> {
        let tree = tree(self.root, deadline)?;
        let waited = sys::waited_for_cpu(&tree.pids);
        let cpu = self.group.as_ref().and_then(Group::cpu).unwrap_or(tree.cpu);
        Some((cpu, waited, sys::lowered_priority(&tree.pids)))
    }

    /// The tree's CPU time, and the memory it holds when over the limit;
    /// `None` when `deadline` passed first.
    fn sample(&self, deadline: &Deadline) -> Option<Reading> {
        if let Some(group) = &self.group
            && let (Some(cpu), Some(held)) = (group.cpu(), group.held())
        {
            return Some(Reading {
                cpu,
                over: (held > self.limit).then_some(held),
            });
        }
        let Tree { pids, cpu } = tree(self.root, deadline)?;
        // Resident memory is counted without reading the memory maps, and
        // is never less than the proportional share: under the limit, that
        // settles it.
        let mut resident_total = 0;
        for &pid in &pids {
            if deadline.passed() {
                return None;
            }
            resident_total += resident(pid);
        }
        if resident_total <= self.limit {
            return Some(Reading { cpu, over: None });
        }
        let mut held = 0;
        for &pid in &pids {
            if deadline.passed() {
                return None;
            }
            held += share(pid);
        }
        Some(Reading {
            cpu,
            over: (held > self.limit).then_some(held),
        })
    }

    /// How long until the next sample is due.
    pub(super) fn due_in(&self, now: Instant) -> Duration {
        self.next.saturating_duration_since(now)
    }
}

/// A process tree: its pids, and the CPU time its processes used.
struct Tree {
    pids: Vec<u32>,
    cpu: Duration,
}

/// `root` and every process descending from it ([`sys::process_tree`]),
/// with the CPU time they used: each one's own (all its threads', gone
/// ones included) and its reaped children's, so that a process that ended
/// still counts in its parent's, and the sandbox's init reaps every
/// orphan; `None` when `deadline` passes first.
fn tree(root: u32, deadline: &Deadline) -> Option<Tree> {
    let found = sys::process_tree(root, Some(deadline))?;
    let per_second = sys::clock_ticks_per_second();
    Some(Tree {
        pids: found.pids,
        cpu: Duration::from_millis(found.ticks * 1000 / per_second),
    })
}

fn kib(text: &str, keys: &[&str]) -> Option<u64> {
    let mut total = 0;
    for key in keys {
        let line = text.lines().find_map(|l| l.strip_prefix(key))?;
        total += line
            .trim()
            .trim_end_matches("kB")
            .trim()
            .parse::<u64>()
            .ok()?;
    }
    Some(total * 1024)
}

/// The resident anonymous and shared memory of `pid`, from
/// `/proc/PID/status`: pages shared with other processes (after a fork,
/// or a shared mapping) count in each.
fn resident(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|status| kib(&status, &["RssAnon:", "RssShmem:"]))
        .unwrap_or(0)
}

/// The memory `pid` holds, in bytes: its proportional share (PSS) of
/// anonymous and shared memory, from `/proc/PID/smaps_rollup`. Shares, so
/// that pages shared by several processes of the session count once in
/// the sum; anonymous and shared only, because file pages (the
/// interpreter's own binary and libraries) are the page cache's, not the
/// program's. Where smaps_rollup cannot be read (an old kernel), the
/// resident memory, which may count a shared page more than once.
fn share(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup"))
        .ok()
        .and_then(|rollup| kib(&rollup, &["Pss_Anon:", "Pss_Shmem:"]))
        .unwrap_or_else(|| resident(pid))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A child holding 64 MiB of shared memory is found under this process
    /// and its memory counted.
    #[test]
    fn shared_memory_in_a_child_is_counted() {
        let mut child = std::process::Command::new("python3")
            .args([
                "-c",
                "import mmap, sys, time\nm = mmap.mmap(-1, 64 << 20)\nfor i in range(0, len(m), 4096): m[i] = 1\nprint(flush=True)\ntime.sleep(30)\n",
            ])
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let me = std::process::id();
        let far = &Deadline::at(Instant::now() + Duration::from_secs(60));
        assert!(tree(me, far).unwrap().pids.contains(&child.id()));
        let total: u64 = tree(child.id(), far)
            .unwrap()
            .pids
            .into_iter()
            .map(share)
            .sum();
        let upper: u64 = tree(child.id(), far)
            .unwrap()
            .pids
            .into_iter()
            .map(resident)
            .sum();
        let _ = child.kill();
        let _ = child.wait();
        assert!(total >= 64 << 20, "{total}");
        assert!(total < 256 << 20, "{total}");
        assert!(upper >= total, "{upper} < {total}");
    }
}
