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

/// `root`'s tree, or `None` when `deadline` passes during the walk.
///
/// Sessions ask for it at every case and every sample, so it is found
/// from the tree itself where the kernel lists each thread's children
/// (`/proc/PID/task/TID/children`, a kernel option most kernels have):
/// a few files for a session's few processes, where reading every
/// process's `/proc/PID/stat` cost a fifth of a class's CPU time. Else
/// from each process's parent, read from every `/proc/PID/stat`.
pub fn process_tree(root: u32, deadline: Option<std::time::Instant>) -> Option<ProcessTree> {
    static CHILDREN_LISTED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    let listed = *CHILDREN_LISTED
        .get_or_init(|| std::path::Path::new("/proc/thread-self/children").exists());
    match listed {
        true => walked(root, deadline),
        false => scanned(root, deadline),
    }
}

fn passed(deadline: Option<std::time::Instant>) -> bool {
    deadline.is_some_and(|d| std::time::Instant::now() >= d)
}

/// From the root down, through each thread's list of children.
fn walked(root: u32, deadline: Option<std::time::Instant>) -> Option<ProcessTree> {
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
fn scanned(root: u32, deadline: Option<std::time::Instant>) -> Option<ProcessTree> {
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
    let mut total = 0u64;
    let mut known = false;
    for pid in pids {
        // Every thread's: /proc/PID/schedstat is the main thread's alone.
        let Ok(threads) = std::fs::read_dir(format!("/proc/{pid}/task")) else {
            continue;
        };
        for thread in threads.flatten() {
            let Ok(line) = std::fs::read_to_string(thread.path().join("schedstat")) else {
                continue;
            };
            if let Some(ns) = line
                .split_whitespace()
                .nth(1)
                .and_then(|f| f.parse::<u64>().ok())
            {
                total = total.saturating_add(ns);
                known = true;
            }
        }
    }
    known.then(|| std::time::Duration::from_nanos(total))
}

/// The CPU time the whole machine has spent busy since it booted (every
/// CPU's user, nice, system, interrupt and steal time, from the first line
/// of `/proc/stat`), and its number of CPUs. The grader's own measure of
/// the machine: what a session used is taken from it to tell the work of
/// everything else, which the session cannot produce.
pub fn machine_busy() -> Option<(std::time::Duration, u32)> {
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
    let per_second = crate::os::clock_ticks_per_second().max(1);
    Some((
        std::time::Duration::from_millis(busy * 1000 / per_second),
        u32::try_from(cpus).ok()?.max(1),
    ))
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
    let per_second = crate::os::clock_ticks_per_second().max(1);
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
    use super::{scanned, walked};
    use std::process::{Command, Stdio};

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
            crate::os::kill(*pid as i32, libc::SIGKILL);
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
