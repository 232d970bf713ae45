//! Control groups: the kernel's own accounts of a session.
//!
//! Sampling `/proc` misses what a session can hide from it: children the
//! kernel reaps itself (`SIGCHLD` ignored) take their CPU time with them,
//! and memory no process maps (a `memfd` written to, a tmpfs file) is in
//! no process's memory map. A cgroup counts every process that was ever in
//! it, reaped or not, and every page charged to it, mapped or not; it also
//! limits what the session may take: its memory (a hard wall the kernel
//! keeps), its processes, and its CPU (one core's worth, so that no
//! session takes a classmate's core).
//!
//! Two kinds of hierarchy are served: the unified one (cgroup v2), where
//! one folder has every controller, and the legacy one (v1), where the
//! `cpuacct`, `memory`, `pids` and `cpu` controllers each have a hierarchy
//! of their own. Each run makes a folder of its own below the grader's
//! own group in each hierarchy (`rendezvous-grader-PID`), and a group per
//! session below it; a run killed outright leaves its empty folders
//! behind, and the next run removes those whose run is gone.

use std::fs::File;
use std::io::{self, Write};
use std::os::fd::{AsRawFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A run's own folder in a hierarchy is named this, then its pid.
const RUN_PREFIX: &str = "rendezvous-grader-";

/// The v1 controllers a session's accounts need, and whether each is
/// required: CPU time, memory and processes are; the CPU quota is
/// fairness, and the accounts stand without it.
const V1_CONTROLLERS: [(&str, bool); 4] = [
    ("cpuacct", true),
    ("memory", true),
    ("pids", true),
    ("cpu", false),
];

/// Memory the kernel lets a session charge past its limit before it
/// refuses: its own structures (page tables, the sandbox's), and the page
/// cache it reads through, which the kernel reclaims before it refuses.
/// The verdict is the grader's at the limit itself ([`Group::held`]).
pub const MEMORY_SLACK: u64 = 64 << 20;

/// The cgroup hierarchies a run makes its sessions' groups in.
#[derive(Debug)]
pub struct Cgroups {
    layout: Layout,
    next: AtomicU32,
}

#[derive(Debug)]
enum Layout {
    /// One folder with every controller.
    V2(PathBuf),
    /// The run's folder in each controller's hierarchy, by name.
    V1(Vec<(&'static str, PathBuf)>),
}

/// What a session's group holds it to.
#[derive(Debug, Clone, Copy)]
pub struct Bounds {
    /// Bytes of memory the session may hold; the kernel refuses past this
    /// plus [`MEMORY_SLACK`].
    pub memory: u64,
    /// Processes and threads, all together.
    pub pids: u64,
}

impl Cgroups {
    /// Makes the run's folders where the grader may: cgroup v2 when its
    /// hierarchy has the cpu, memory and pids controllers for the grader's
    /// group, else v1's. `Err` says why neither can be used.
    pub fn new() -> Result<Cgroups, String> {
        let mounts = std::fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let v2 = match v2_dir(&mounts, &own) {
            Some(dir) => match make_v2(&dir) {
                Ok(run) => return Ok(Cgroups::with(Layout::V2(run))),
                Err(why) => Some(why),
            },
            None => None,
        };
        match make_v1(&mounts, &own) {
            Ok(dirs) => Ok(Cgroups::with(Layout::V1(dirs))),
            Err(why) => Err(match v2 {
                Some(v2) => format!("{v2}; {why}"),
                None => why,
            }),
        }
    }

    fn with(layout: Layout) -> Cgroups {
        Cgroups {
            layout,
            next: AtomicU32::new(0),
        }
    }

    /// The accounts in force, in words for the report's sandbox line.
    pub fn describe(&self) -> String {
        match &self.layout {
            Layout::V2(_) => "cgroup v2 (cpu, memory, pids)".into(),
            Layout::V1(dirs) => format!(
                "cgroup v1 ({})",
                dirs.iter().map(|(c, _)| *c).collect::<Vec<_>>().join(", ")
            ),
        }
    }

    /// A new group for one session, held to `bounds` and to one core.
    pub fn group(&self, bounds: Bounds) -> io::Result<Group> {
        let name = format!("s{}", self.next.fetch_add(1, Ordering::Relaxed));
        let mut group = Group {
            dirs: Vec::new(),
            procs: Vec::new(),
            v2: matches!(self.layout, Layout::V2(_)),
            empty_cache: false,
        };
        let dirs: Vec<(&str, PathBuf)> = match &self.layout {
            Layout::V2(run) => vec![("", run.join(&name))],
            Layout::V1(runs) => runs.iter().map(|(c, d)| (*c, d.join(&name))).collect(),
        };
        for (controller, dir) in dirs {
            std::fs::create_dir(&dir)?;
            group.dirs.push((controller, dir));
        }
        group.limit(bounds)?;
        for (_, dir) in &group.dirs {
            group.procs.push(
                std::fs::OpenOptions::new()
                    .write(true)
                    .open(dir.join("cgroup.procs"))?,
            );
        }
        Ok(group)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        let runs: Vec<&Path> = match &self.layout {
            Layout::V2(run) => vec![run],
            Layout::V1(runs) => runs.iter().map(|(_, d)| d.as_path()).collect(),
        };
        for run in runs {
            remove_tree(run);
        }
    }
}

/// One session's group, in each hierarchy.
#[derive(Debug)]
pub struct Group {
    dirs: Vec<(&'static str, PathBuf)>,
    /// Each folder's `cgroup.procs`, open for the child to join by.
    procs: Vec<File>,
    v2: bool,
    /// Whether the pages of the page cache charged to the group (those its
    /// processes brought in) are evicted before it is removed, rather than
    /// handed to its parent.
    empty_cache: bool,
}

impl Group {
    /// Evicts, when the group is dropped, the pages of the page cache its
    /// processes brought in: what a hidden session read leaves no mark a
    /// later session could find.
    pub fn empty_cache_on_drop(&mut self) {
        self.empty_cache = true;
    }

    fn dir(&self, controller: &str) -> Option<&Path> {
        self.dirs
            .iter()
            .find(|(c, _)| self.v2 || *c == controller)
            .map(|(_, d)| d.as_path())
    }

    fn limit(&self, bounds: Bounds) -> io::Result<()> {
        let memory = bounds.memory.saturating_add(MEMORY_SLACK);
        if self.v2 {
            let dir = self.dir("").expect("a v2 group has its folder");
            write(dir, "memory.max", &memory.to_string())?;
            // Swap would hide memory from the limit; where there is none
            // the file may be missing.
            let _ = write(dir, "memory.swap.max", "0");
            write(dir, "pids.max", &bounds.pids.to_string())?;
            write(dir, "cpu.max", "100000 100000")?;
            return Ok(());
        }
        let memory_dir = self.dir("memory").expect("memory is required");
        write(memory_dir, "memory.limit_in_bytes", &memory.to_string())?;
        // Only where the kernel counts swap, and there is no swap here
        // to count when it does not.
        let _ = write(
            memory_dir,
            "memory.memsw.limit_in_bytes",
            &memory.to_string(),
        );
        write(
            self.dir("pids").expect("pids is required"),
            "pids.max",
            &bounds.pids.to_string(),
        )?;
        if let Some(cpu) = self.dir("cpu") {
            let period = read(cpu, "cpu.cfs_period_us").unwrap_or_else(|| "100000".into());
            write(cpu, "cpu.cfs_quota_us", period.trim())?;
        }
        Ok(())
    }

    /// Makes the child `command` starts join the group before it runs
    /// anything: writing "0" to `cgroup.procs` moves the writer.
    pub fn enter_on_spawn(&self, command: &mut Command) {
        let fds: Vec<RawFd> = self.procs.iter().map(AsRawFd::as_raw_fd).collect();
        // SAFETY: the closure runs between fork and exec and calls only
        // write(2), async-signal-safe, on descriptors this group keeps
        // open until the session ends (they are close-on-exec, so the
        // program never holds them).
        unsafe {
            command.pre_exec(move || {
                for &fd in &fds {
                    if libc::write(fd, b"0".as_ptr().cast(), 1) != 1 {
                        return Err(io::Error::last_os_error());
                    }
                }
                Ok(())
            });
        }
    }

    /// The CPU time every process of the group used, those that ended
    /// included, however they were reaped.
    pub fn cpu(&self) -> Option<Duration> {
        if self.v2 {
            let stat = read(self.dir("")?, "cpu.stat")?;
            let usec = field(&stat, "usage_usec")?;
            return Some(Duration::from_micros(usec));
        }
        let ns = read(self.dir("cpuacct")?, "cpuacct.usage")?;
        Some(Duration::from_nanos(ns.trim().parse().ok()?))
    }

    /// The memory the group holds now: anonymous and shared pages
    /// (`MAP_SHARED` mappings, tmpfs files, `memfd`s, System V segments),
    /// whether or not a process maps them; not the page cache, which the
    /// kernel takes back as it needs.
    pub fn held(&self) -> Option<u64> {
        let dir = self.dir("memory")?;
        let stat = read(dir, "memory.stat")?;
        if self.v2 {
            return Some(field(&stat, "anon")? + field(&stat, "shmem")?);
        }
        Some(field(&stat, "total_rss")? + field(&stat, "total_shmem")?)
    }

    /// The most memory the group was charged at once, page cache included.
    pub fn peak(&self) -> Option<u64> {
        let dir = self.dir("memory")?;
        let text = read(
            dir,
            if self.v2 {
                "memory.peak"
            } else {
                "memory.max_usage_in_bytes"
            },
        )?;
        text.trim().parse().ok()
    }

    /// Whether the kernel killed a process of the group for memory.
    pub fn oom_killed(&self) -> bool {
        let Some(dir) = self.dir("memory") else {
            return false;
        };
        let file = if self.v2 {
            "memory.events"
        } else {
            "memory.oom_control"
        };
        read(dir, file)
            .and_then(|text| field(&text, "oom_kill"))
            .is_some_and(|n| n > 0)
    }

    /// The pids in the group now.
    fn pids(&self) -> Vec<libc::pid_t> {
        let Some(dir) = self.dir("pids") else {
            return Vec::new();
        };
        read(dir, "cgroup.procs")
            .map(|text| {
                text.split_whitespace()
                    .filter_map(|p| p.parse().ok())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Kills every process of the group, however it left the session's
    /// process group or tree, and waits (at most `patience`) until the
    /// group is empty.
    pub fn kill_all(&self, patience: Duration) -> bool {
        if self.v2
            && let Some(dir) = self.dir("")
        {
            let _ = write(dir, "cgroup.kill", "1");
        }
        let until = Instant::now() + patience;
        loop {
            let pids = self.pids();
            if pids.is_empty() {
                return true;
            }
            for pid in pids {
                sys::kill(pid, libc::SIGKILL);
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        self.procs.clear();
        // What is left is killed; a group that will not empty (a process
        // stuck in the kernel) is left for the next run to remove.
        self.kill_all(Duration::from_secs(2));
        if self.empty_cache {
            if self.v2 {
                if let Some(dir) = self.dir("")
                    && let Some(current) = read(dir, "memory.current")
                {
                    // Asked for all it holds; what cannot be reclaimed
                    // (the kernel's own) stays, and is not a page cache.
                    let _ = write(dir, "memory.reclaim", current.trim());
                }
            } else if let Some(dir) = self.dir("memory") {
                let _ = write(dir, "memory.force_empty", "0");
            }
        }
        for (_, dir) in &self.dirs {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

fn read(dir: &Path, file: &str) -> Option<String> {
    std::fs::read_to_string(dir.join(file)).ok()
}

fn write(dir: &Path, file: &str, value: &str) -> io::Result<()> {
    let path = dir.join(file);
    let mut f = std::fs::OpenOptions::new().write(true).open(&path)?;
    f.write_all(value.as_bytes())
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

/// The number after `key ` on a line of `text` (`memory.stat`, `cpu.stat`).
fn field(text: &str, key: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (k, v) = line.split_once(' ')?;
        (k == key).then(|| v.trim().parse().ok()).flatten()
    })
}

/// The mounts of `/proc/self/mountinfo`: each one's root within its
/// hierarchy, mount point, file system type and super options.
fn mounts(mountinfo: &str) -> impl Iterator<Item = (&str, &str, &str, &str)> {
    mountinfo.lines().filter_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let mut fields = before.split(' ');
        let root = fields.nth(3)?;
        let point = fields.next()?;
        let mut after = after.split(' ');
        let kind = after.next()?;
        let options = after.nth(1)?;
        Some((root, point, kind, options))
    })
}

/// Where `path` (a group's path in its hierarchy) is, under a mount of
/// that hierarchy whose root is `root`.
fn under(point: &str, root: &str, path: &str) -> Option<PathBuf> {
    let rest = path.strip_prefix(root.trim_end_matches('/'))?;
    Some(Path::new(point).join(rest.trim_start_matches('/')))
}

/// The grader's own group in the unified hierarchy, when that hierarchy
/// is mounted and has the cpu, memory and pids controllers there.
fn v2_dir(mountinfo: &str, own: &str) -> Option<PathBuf> {
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let (root, point, _, _) = mounts(mountinfo).find(|(_, _, kind, _)| *kind == "cgroup2")?;
    let dir = under(point, root, path)?;
    let controllers = read(&dir, "cgroup.controllers")?;
    let has = |c: &str| controllers.split_whitespace().any(|x| x == c);
    (has("cpu") && has("memory") && has("pids")).then_some(dir)
}

/// The run's folder below the grader's own v2 group, with the controllers
/// its sessions' groups need. A group that holds processes (the grader's
/// own, unless it is the root) cannot hand controllers down: the kernel
/// keeps processes in leaves.
fn make_v2(own: &Path) -> Result<PathBuf, String> {
    sweep(own);
    let run = own.join(format!("{RUN_PREFIX}{}", std::process::id()));
    let enable = "+cpu +memory +pids";
    write(own, "cgroup.subtree_control", enable).map_err(|e| {
        format!(
            "cgroup v2: cannot enable the cpu, memory and pids controllers below the grader's own group {} ({e}; run the grader in a group of its own with them delegated, e.g. `systemd-run --scope -p Delegate=yes`)",
            own.display()
        )
    })?;
    std::fs::create_dir(&run)
        .and_then(|()| write(&run, "cgroup.subtree_control", enable))
        .map_err(|e| format!("cgroup v2: cannot make {}: {e}", run.display()))?;
    Ok(run)
}

/// The run's folder in each v1 hierarchy below the grader's own group
/// there; `Err` when a required controller has no hierarchy or the
/// folder cannot be made (not root).
fn make_v1(mountinfo: &str, own: &str) -> Result<Vec<(&'static str, PathBuf)>, String> {
    let mut made: Vec<(&'static str, PathBuf)> = Vec::new();
    let fail = |made: &[(&'static str, PathBuf)], why: String| {
        for (_, dir) in made {
            let _ = std::fs::remove_dir(dir);
        }
        Err(why)
    };
    for (controller, required) in V1_CONTROLLERS {
        let mount = mounts(mountinfo).find(|(_, _, kind, options)| {
            *kind == "cgroup" && options.split(',').any(|o| o == controller)
        });
        let path = own.lines().find_map(|line| {
            let mut parts = line.splitn(3, ':');
            let _id = parts.next()?;
            let controllers = parts.next()?;
            let path = parts.next()?;
            controllers
                .split(',')
                .any(|c| c == controller)
                .then_some(path)
        });
        let dir = match (mount, path) {
            (Some((root, point, _, _)), Some(path)) => under(point, root, path),
            _ => None,
        };
        let Some(dir) = dir else {
            if required {
                return fail(
                    &made,
                    format!("cgroup v1: no {controller} hierarchy is mounted"),
                );
            }
            continue;
        };
        sweep(&dir);
        let run = dir.join(format!("{RUN_PREFIX}{}", std::process::id()));
        match std::fs::create_dir(&run) {
            Ok(()) => made.push((controller, run)),
            Err(e) if required => {
                return fail(
                    &made,
                    format!("cgroup v1: cannot make {}: {e}", run.display()),
                );
            }
            Err(_) => {}
        }
    }
    Ok(made)
}

/// Removes the folders of runs that are gone (killed outright) below
/// `dir`: a run's folder is named for its pid, and a folder whose pid is
/// not a live grader is a dead run's (only empty groups can be removed,
/// so nothing live is touched).
fn sweep(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(RUN_PREFIX))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        // A live run's folder is never touched (a pid reused by another
        // program only leaves a dead run's folders for later).
        if !Path::new(&format!("/proc/{pid}")).exists() {
            remove_tree(&entry.path());
        }
    }
}

/// Removes a run's folder and its sessions' groups (empty ones only: the
/// kernel refuses a group with a process in it).
fn remove_tree(run: &Path) {
    if let Ok(entries) = std::fs::read_dir(run) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                let _ = std::fs::remove_dir(entry.path());
            }
        }
    }
    let _ = std::fs::remove_dir(run);
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTINFO: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 /outer /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
";

    #[test]
    fn mounts_are_read_with_their_root_and_options() {
        let found: Vec<_> = mounts(MOUNTINFO).collect();
        assert_eq!(
            found[2],
            ("/outer", "/sys/fs/cgroup/memory", "cgroup", "rw,memory")
        );
        assert_eq!(found[3].2, "cgroup2");
    }

    #[test]
    fn a_group_path_is_found_below_its_mount_root() {
        assert_eq!(
            under("/sys/fs/cgroup/memory", "/outer", "/outer/job/7"),
            Some(PathBuf::from("/sys/fs/cgroup/memory/job/7"))
        );
        assert_eq!(
            under("/sys/fs/cgroup/cpu", "/", "/"),
            Some(PathBuf::from("/sys/fs/cgroup/cpu"))
        );
        // A group outside what is mounted cannot be reached.
        assert_eq!(under("/m", "/outer", "/elsewhere"), None);
    }

    /// Children the kernel reaps itself take their CPU time out of every
    /// process's account, not out of their group's; a memfd no process
    /// maps is charged to the group; and the group is removed when done.
    #[test]
    fn a_group_counts_reaped_children_and_unmapped_memory() {
        let cgroups = match Cgroups::new() {
            Ok(c) => c,
            Err(why) if crate::os::effective_ids().0 != 0 => {
                println!("SKIPPED: no cgroup can be made here ({why})");
                return;
            }
            Err(why) => panic!("root, yet no cgroup: {why}"),
        };
        let group = cgroups
            .group(Bounds {
                memory: 256 << 20,
                pids: 16,
            })
            .unwrap();
        let mut command = Command::new("python3");
        command.args([
            "-c",
            "import os, signal, time\n\
             signal.signal(signal.SIGCHLD, signal.SIG_IGN)\n\
             r, w = os.pipe()\n\
             for _ in range(2):\n\
             \x20   if os.fork() == 0:\n\
             \x20       t = time.process_time()\n\
             \x20       while time.process_time() - t < 0.4: pass\n\
             \x20       os._exit(0)\n\
             os.close(w)\n\
             os.read(r, 1)\n\
             fd = os.memfd_create('hoard')\n\
             os.write(fd, b'x' * (48 << 20))\n\
             print(os.times().children_user, flush=True)\n\
             time.sleep(30)\n",
        ]);
        command.stdout(std::process::Stdio::piped());
        group.enter_on_spawn(&mut command);
        let mut child = command.spawn().unwrap();
        let mut line = String::new();
        std::io::BufRead::read_line(
            &mut std::io::BufReader::new(child.stdout.take().unwrap()),
            &mut line,
        )
        .unwrap();
        let (cpu, held) = (group.cpu().unwrap(), group.held().unwrap());
        let dirs: Vec<PathBuf> = group.dirs.iter().map(|(_, d)| d.clone()).collect();
        drop(group);
        let _ = child.wait();
        // The parent's own account of its children: next to nothing.
        let theirs: f64 = line.trim().parse().unwrap();
        assert!(theirs < 0.4, "the kernel reaped the children: {theirs}");
        assert!(cpu >= Duration::from_millis(800), "{cpu:?}");
        assert!(held >= 48 << 20, "{held}");
        for dir in dirs {
            assert!(!dir.exists(), "{} left behind", dir.display());
        }
    }

    #[test]
    fn fields_are_read_by_whole_key() {
        let stat = "rss 10\ntotal_rss 4096\ntotal_rss_huge 0\ntotal_shmem 8192\n";
        assert_eq!(field(stat, "total_rss"), Some(4096));
        assert_eq!(field(stat, "total_shmem"), Some(8192));
        assert_eq!(field(stat, "shmem"), None);
    }
}
