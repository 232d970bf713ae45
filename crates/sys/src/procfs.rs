//! Process trees read from `/proc`: their pids, CPU time and wait for a
//! CPU.

/// A process and its descendants: their pids and the CPU time they used.
#[derive(Debug)]
pub struct ProcessTree {
    /// The root first.
    pub pids: Vec<u32>,
    /// Their utime + stime + cutime + cstime, in clock ticks.
    pub ticks: u64,
}

/// When a reading of `/proc` gives up: a reading waits while a process
/// forks or holds its memory map, and a fork bomb must still get its
/// time-limit on time.
///
/// Not [`Send`]: an [`Deadline::own_time`] is measured on the thread
/// that made it.
#[derive(Debug, Clone, Copy)]
pub struct Deadline {
    kind: Kind,
    _this_thread: std::marker::PhantomData<*const ()>,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    At(std::time::Instant),
    OwnTime {
        start: std::time::Instant,
        waited: Option<std::time::Duration>,
        budget: std::time::Duration,
        cap: std::time::Instant,
    },
}

impl Deadline {
    /// At `instant` on the wall clock.
    pub fn at(instant: std::time::Instant) -> Deadline {
        Deadline {
            kind: Kind::At(instant),
            _this_thread: std::marker::PhantomData,
        }
    }

    /// After `budget` of this thread's own time: the wall-clock time
    /// less what the thread waited for a CPU while ready to run. On a
    /// machine that starves the grader as much as the session (the very
    /// machine whose readings tell a starved session from one that
    /// sleeps), a short reading then still ends, where a wall-clock
    /// second can pass between two of its steps. Never later than
    /// [`OWN_TIME_CAP`] times `budget` on the wall clock.
    pub fn own_time(budget: std::time::Duration) -> Deadline {
        let start = std::time::Instant::now();
        Deadline {
            kind: Kind::OwnTime {
                start,
                waited: thread_waited(),
                budget,
                cap: start + budget.saturating_mul(OWN_TIME_CAP),
            },
            _this_thread: std::marker::PhantomData,
        }
    }

    /// Whether the reading gives up now.
    pub fn passed(&self) -> bool {
        let now = std::time::Instant::now();
        match self.kind {
            Kind::At(at) => now >= at,
            Kind::OwnTime {
                start,
                waited,
                budget,
                cap,
            } => {
                let elapsed = now - start;
                if elapsed < budget {
                    return false;
                }
                if now >= cap {
                    return true;
                }
                let more = waited
                    .and_then(|before| thread_waited()?.checked_sub(before))
                    .unwrap_or_default();
                elapsed.saturating_sub(more) >= budget
            }
        }
    }
}

/// How many times its budget a [`Deadline::own_time`] may last on the
/// wall clock, however long the thread waits for a CPU.
pub const OWN_TIME_CAP: u32 = 10;

/// How long this thread has waited for a CPU while ready to run.
fn thread_waited() -> Option<std::time::Duration> {
    schedstat_wait(std::path::Path::new("/proc/thread-self/schedstat"))
}

/// `root`'s tree, or `None` when `deadline` passes during the walk.
///
/// Sessions ask for it at every case and every sample, so it is found
/// from the tree itself where the kernel lists each thread's children
/// (`/proc/PID/task/TID/children`, a kernel option most kernels have):
/// a few files for a session's few processes, where reading every
/// process's `/proc/PID/stat` cost a fifth of a class's CPU time. Else
/// from each process's parent, read from every `/proc/PID/stat`.
pub fn process_tree(root: u32, deadline: Option<&Deadline>) -> Option<ProcessTree> {
    static CHILDREN_LISTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let listed = *CHILDREN_LISTED
        .get_or_init(|| std::path::Path::new("/proc/thread-self/children").exists());
    match listed {
        true => walked(root, deadline),
        false => scanned(root, deadline),
    }
}

fn passed(deadline: Option<&Deadline>) -> bool {
    deadline.is_some_and(Deadline::passed)
}

/// From the root down, through each thread's list of children.
fn walked(root: u32, deadline: Option<&Deadline>) -> Option<ProcessTree> {
    let mut pids = vec![root];
    let mut seen = std::collections::HashSet::from([root]);
    let mut ticks = 0;
    let mut i = 0;
    while i < pids.len() {
        if passed(deadline) {
            return None;
        }
        let pid = pids[i];
        i += 1;
        let Some((_, used)) = stat_of(pid) else {
            continue;
        };
        ticks += used;
        let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for thread in threads.flatten() {
            let Ok(list) = std::fs::read_to_string(thread.path().join("children")) else {
                continue;
            };
            for child in list.split_whitespace().filter_map(|c| c.parse().ok()) {
                if seen.insert(child) {
                    pids.push(child);
                }
            }
        }
    }
    Some(ProcessTree { pids, ticks })
}

/// From every process's parent in `/proc/PID/stat`.
fn scanned(root: u32, deadline: Option<&Deadline>) -> Option<ProcessTree> {
    use std::collections::HashMap;
    let mut children: HashMap<u32, Vec<u32>> = HashMap::new();
    let mut ticks: HashMap<u32, u64> = HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if passed(deadline) {
            return None;
        }
        let Some(pid) = entry.file_name().to_str().and_then(|p| p.parse().ok()) else {
            continue;
        };
        if let Some((parent, used)) = stat_of(pid) {
            children.entry(parent).or_default().push(pid);
            ticks.insert(pid, used);
        }
    }
    let mut pids = vec![root];
    let mut i = 0;
    while i < pids.len() {
        if let Some(kids) = children.get(&pids[i]) {
            pids.extend(kids);
        }
        i += 1;
    }
    let ticks = pids.iter().filter_map(|pid| ticks.get(pid)).sum();
    Some(ProcessTree { pids, ticks })
}

/// How long the processes of `pids` have waited for a CPU while ready to
/// run (the second field of `/proc/PID/schedstat`, in nanoseconds), summed;
/// `None` when the kernel does not keep it. A process that waits for the
/// machine (one starved by others' load) gathers it; one that sleeps or
/// blocks on a read does not.
pub fn waited_for_cpu(pids: &[u32]) -> Option<std::time::Duration> {
    let mut total = std::time::Duration::ZERO;
    let mut known = false;
    for pid in pids {
        // Every thread's: /proc/PID/schedstat is the main thread's alone.
        let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for thread in threads.flatten() {
            if let Some(wait) = schedstat_wait(&thread.path().join("schedstat")) {
                total = total.saturating_add(wait);
                known = true;
            }
        }
    }
    known.then_some(total)
}

/// The wait for a CPU in a thread's `schedstat` file (its second field,
/// in nanoseconds).
fn schedstat_wait(path: &std::path::Path) -> Option<std::time::Duration> {
    let line = std::fs::read_to_string(path).ok()?;
    let ns = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(std::time::Duration::from_nanos(ns))
}

/// The machine's CPU time since it booted, from the first line of
/// `/proc/stat`: the grader's own measure of the machine. What a session
/// used is taken from it to tell the work of everything else, which the
/// session cannot produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MachineTime {
    /// Every CPU's user, nice, system, interrupt and steal time.
    pub busy: std::time::Duration,
    /// Of which stolen: time a virtual machine's CPUs were given to
    /// another by the host, when no process of this machine could run.
    pub stolen: std::time::Duration,
    /// The number of CPUs.
    pub cpus: u32,
}

/// See [`MachineTime`].
pub fn machine_busy() -> Option<MachineTime> {
    let stat = std::fs::read_to_string("/proc/stat").ok()?;
    let mut lines = stat.lines();
    let first = lines.next()?.strip_prefix("cpu ")?;
    let fields: Vec<u64> = first
        .split_whitespace()
        .map(|f| f.parse().unwrap_or(0))
        .collect();
    // user nice system idle iowait irq softirq steal (guest time is
    // already in user time).
    let busy: u64 = [0, 1, 2, 5, 6, 7]
        .iter()
        .filter_map(|&i| fields.get(i))
        .sum();
    let cpus = lines
        .filter(|l| {
            l.strip_prefix("cpu")
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count();
    let per_second = crate::clock_ticks_per_second().max(1);
    let time = |ticks: u64| std::time::Duration::from_millis(ticks * 1000 / per_second);
    Some(MachineTime {
        busy: time(busy),
        stolen: time(fields.get(7).copied().unwrap_or(0)),
        cpus: u32::try_from(cpus).ok()?.max(1),
    })
}

/// The CPU time the grader's own process has used (user and system, of
/// every thread), without its children's: the work a session can make
/// the grader do (reading what it prints) is not the machine's load.
pub fn own_cpu() -> Option<std::time::Duration> {
    let fields = stat_fields(std::process::id())?;
    let ticks: u64 = fields
        .get(11..13)?
        .iter()
        .map(|t| t.parse::<u64>().unwrap_or(0))
        .sum();
    let per_second = crate::clock_ticks_per_second().max(1);
    Some(std::time::Duration::from_millis(ticks * 1000 / per_second))
}

/// `/proc/PID/stat`'s parent (the fourth field, after the command's name
/// in parentheses, which may itself hold spaces and parentheses) and CPU
/// times (the 14th to 17th), summed.
fn stat_of(pid: u32) -> Option<(u32, u64)> {
    let fields = stat_fields(pid)?;
    let parent = fields.get(1)?.parse().ok()?;
    let ticks = fields
        .get(11..15)?
        .iter()
        .map(|t| t.parse::<u64>().unwrap_or(0))
        .sum();
    Some((parent, ticks))
}

/// Whether a process of `pids` runs at a lower priority than the grader: a
/// higher nice value or another scheduling policy (SCHED_BATCH, SCHED_IDLE)
/// than the grader's own, which only the program itself can have set. Such
/// a program waits for a CPU by its own choice, not the machine's load.
pub fn lowered_priority(pids: &[u32]) -> bool {
    // The 19th field of /proc/PID/stat is the nice value, the 41st the
    // policy; counted from the state, the third, after the command's name.
    let scheduling = |pid: u32| -> Option<(i64, u64)> {
        let fields = stat_fields(pid)?;
        Some((fields.get(16)?.parse().ok()?, fields.get(38)?.parse().ok()?))
    };
    let Some((nice, policy)) = scheduling(std::process::id()) else {
        return false;
    };
    pids.iter()
        .filter_map(|&pid| scheduling(pid))
        .any(|(n, p)| n > nice || p != policy)
}

/// The fields of `/proc/PID/stat` after the command's name (which is in
/// parentheses and may itself hold spaces and parentheses): the state
/// first, the third field of the file.
fn stat_fields(pid: u32) -> Option<Vec<String>> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    Some(
        stat[stat.rfind(')')? + 1..]
            .split_whitespace()
            .map(str::to_owned)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    // Pins threads to one CPU (sched_setaffinity).
    #![allow(unsafe_code)]

    use super::{Deadline, OWN_TIME_CAP, scanned, walked};
    use std::process::{Command, Stdio};
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    /// Pins the calling thread to CPU `cpu`.
    fn pin(cpu: usize) {
        // SAFETY: a zeroed cpu_set_t is the empty set; CPU_SET writes
        // within it, and sched_setaffinity(0, ..) reads it for this thread.
        unsafe {
            let mut set: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(cpu, &mut set);
            assert_eq!(
                libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set),
                0
            );
        }
    }

    /// A thread sharing one CPU with four spinners gets at most a fifth
    /// of it: its own time runs out at five times its budget on the wall
    /// clock, past twice the budget however noisy the machine, and never
    /// past the cap.
    #[test]
    fn own_time_leaves_out_the_wait_for_a_cpu() {
        let budget = Duration::from_millis(100);
        let stop = AtomicBool::new(false);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    pin(0);
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                });
            }
            let elapsed = scope
                .spawn(|| {
                    pin(0);
                    let start = Instant::now();
                    let deadline = Deadline::own_time(budget);
                    while !deadline.passed() {
                        std::hint::spin_loop();
                    }
                    start.elapsed()
                })
                .join()
                .unwrap();
            stop.store(true, Ordering::Relaxed);
            assert!(elapsed >= budget * 2, "{elapsed:?}");
            assert!(
                elapsed < budget * OWN_TIME_CAP + Duration::from_secs(1),
                "{elapsed:?}"
            );
        });
    }

    /// A thread that sleeps does not wait for a CPU: its own time is the
    /// wall clock's.
    #[test]
    fn own_time_counts_a_sleep() {
        let deadline = Deadline::own_time(Duration::from_millis(50));
        assert!(!deadline.passed());
        std::thread::sleep(Duration::from_millis(60));
        assert!(deadline.passed());
    }

    /// A shell with a child shell that has children of its own: both
    /// ways find the same tree, whose processes are all alive by then.
    #[test]
    fn walking_the_children_lists_finds_the_tree_the_scan_finds() {
        let mut shell = Command::new("sh")
            .args([
                "-c",
                "sh -c 'sleep 30 & sleep 30 & echo ready; wait' & wait",
            ])
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let mut ready = [0u8; 6];
        std::io::Read::read_exact(shell.stdout.as_mut().unwrap(), &mut ready).unwrap();
        let root = shell.id();
        let sorted = |mut pids: Vec<u32>| {
            pids.sort_unstable();
            pids
        };
        let scan = scanned(root, None).unwrap();
        let walk = walked(root, None);
        for pid in &scan.pids {
            crate::kill(*pid as i32, libc::SIGKILL);
        }
        let _ = shell.wait();
        assert!(
            std::path::Path::new("/proc/thread-self/children").exists(),
            "this kernel lists no thread's children, so the walk cannot be checked here (and is not used)"
        );
        let walk = walk.unwrap();
        assert_eq!(scan.pids.len(), 4, "sh, sh, sleep, sleep: {:?}", scan.pids);
        assert_eq!(walk.pids[0], root);
        assert_eq!(sorted(walk.pids), sorted(scan.pids));
    }
}
