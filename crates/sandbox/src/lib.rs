//! Runs programs contained and accounted for: a policy in, neutral facts
//! out. It holds the calls into the OS that containment needs
//! (namespaces, mounts, rlimits, identity changes, seccomp, cgroups);
//! the grader's other calls into the OS are the `sys` crate's.
//!
//! Below every stage that starts a program: the
//! environment a run shares (drivers written once, a scratch folder, the
//! tools found once, the sandbox layers probed once), the limits, a
//! contained command, running one to its end, and the [`Program`] that
//! preparing a submission produces and a session runs.

mod contain;
mod error;
mod leftovers;
mod os;
mod phase;
mod probe;
mod reach;
mod uid;

pub use error::Error;

use crate::contain::{FIRST_UID, Policy};
use serde::{Deserialize, Serialize};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus};
use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The first argument with which the grader runs itself as the sandbox
/// shim around a program (`grader __sandbox ...`).
pub use crate::contain::SHIM_ARG;
pub use crate::contain::{LayersInForce, SandboxExit};
/// A session's cgroup, whose accounts (CPU time, memory held and at
/// peak, a kill for memory) grading reads.
pub use os::cgroup::Group;
pub use phase::{Phase, PhaseTicket};
pub use probe::Live;
pub use reach::{Grants, MOST_GRANTED_ENTRIES, TooManyEntries};
pub use uid::UidLease;

/// The exit code of a contained command whose sandbox could not start it
/// (as env(1) and friends use it): the grader's fault, not the program's.
pub const SHIM_FAILED: i32 = 125;
use uid::uid_lock_dir;

/// Runs the sandbox shim when `args` (the process's own) ask for it: the
/// grader re-executes itself around each session. Returns its exit code.
pub fn shim_if_asked(args: &[OsString]) -> Option<i32> {
    (args.get(1).is_some_and(|a| a == contain::SHIM_ARG)).then(|| contain::shim_main(&args[2..]))
}

/// What preparing a submission cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BuildCost {
    /// Whether the artifact came from the cache (nothing was compiled).
    pub cached: bool,
    pub time_ms: u64,
}

/// A prepared submission: the command line that serves it over the
/// protocol, and what of the file system it needs besides the system's.
#[derive(Debug, Clone)]
pub struct Program {
    /// The submission as the user named it (for messages).
    pub name: String,
    pub program: PathBuf,
    pub args: Vec<OsString>,
    /// Read and execute beneath these.
    pub read: Vec<PathBuf>,
    /// List these folders, but read nothing beneath.
    pub list: Vec<PathBuf>,
    /// Inside the folders of `read`, what must not be seen
    /// ([`Grants::hide`]).
    pub hide: Vec<PathBuf>,
    /// The learner's own program, not an interpreter of ours: when it
    /// cannot even be started, that is the learner's to fix.
    pub own_program: bool,
    /// The program is a driver of ours that says `{"loading": ...}` before
    /// any of the learner's code runs: a death before that is the
    /// interpreter's or the machine's, never the learner's.
    pub announces: bool,
    /// For compiled languages, what building it cost.
    pub build: Option<BuildCost>,
}

/// How sessions are contained.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Namespaces, Landlock and a dropped uid; `false` keeps only rlimits.
    pub sandbox: bool,
    pub limits: SessionLimits,
    /// What a submission must never read: the tests, the challenges, and
    /// the other submissions of the run. A submission's folder that holds
    /// any of them is reduced to the submission's file.
    pub protected: Vec<PathBuf>,
    /// Entry files that share their folder with other students' (a class
    /// folder of files): each is granted alone, never its folder.
    pub alone: Vec<PathBuf>,
    /// Where compiled and transpiled submissions are cached.
    pub cache_dir: PathBuf,
}

/// Per-session resource limits (the wall-clock limit is per case and
/// lives with the test groups).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionLimits {
    pub memory_bytes: u64,
    /// Bytes a case may print on stdout and stderr together.
    pub output_bytes: u64,
    pub processes: u64,
    pub open_files: u64,
    pub file_size_bytes: u64,
    pub scratch_bytes: u64,
}

/// A tool found once (an interpreter): its place on every contained
/// program's PATH, by `rank`.
#[derive(Debug)]
struct Tool {
    name: &'static str,
    rank: u8,
    found: Result<PathBuf, String>,
}

/// What every run shares: the drivers written out once, a scratch folder,
/// the tools found once, and the sandbox layers probed once.
#[derive(Debug)]
pub struct Environment {
    drivers: tempfile::TempDir,
    written: Mutex<Vec<&'static str>>,
    scratch: tempfile::TempDir,
    tools: Mutex<Vec<Tool>>,
    options: RunOptions,
    /// The sandbox layers, once the probe has answered.
    layers: OnceLock<Result<LayersInForce, String>>,
    /// The probe, running beside the first session's start: it only asks
    /// questions, and waiting for it would add its start to every verdict.
    probing: Mutex<Option<std::thread::JoinHandle<Result<LayersInForce, String>>>>,
    sessions: AtomicU32,
    /// How many sessions are alive now.
    live: std::sync::Arc<AtomicUsize>,
    /// The kernel's accounts of each session, where the grader may make
    /// cgroups; else why not, and `/proc` is sampled instead.
    cgroups: Result<os::cgroup::Cgroups, String>,
    /// The run's place in the machine's phases (hidden cases across runs).
    phases: phase::Phases,
    /// The protected paths, resolved once.
    protected_real: OnceLock<Vec<PathBuf>>,
    /// Held while the run lives: its folders are not a dead run's.
    _claims: [std::fs::File; 2],
}

/// The environment variable that, set to `proc`, keeps the accounts by
/// sampling `/proc` even where cgroups could be made (to see what a
/// machine without them grades like).
pub const ACCOUNTING_VAR: &str = "GRADER_ACCOUNTING";

/// The run's cgroups, or why there are none: they need root (or a
/// delegated group), and `GRADER_ACCOUNTING=proc` declines them.
/// A value of the variable but those is refused (exit 2).
fn cgroups() -> Result<Result<os::cgroup::Cgroups, String>, Error> {
    match std::env::var_os(ACCOUNTING_VAR) {
        Some(value) if value == "proc" => return Ok(Err(format!("{ACCOUNTING_VAR}=proc"))),
        Some(value) if value != "cgroup" && !value.is_empty() => {
            return Err(Error::Usage(format!(
                "{ACCOUNTING_VAR}={} is neither `cgroup` (the kernel keeps each session's accounts where it can, the default) nor `proc` (sample /proc instead); set one or unset it",
                value.to_string_lossy()
            )));
        }
        _ => {}
    }
    if os::effective_ids().0 != 0 {
        return Ok(Err("the grader is not root".into()));
    }
    Ok(os::cgroup::Cgroups::new())
}

/// Folders every runtime may read.
const SYSTEM_READ: [&str; 9] = [
    "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/proc", "/opt",
];

impl Environment {
    /// Makes the folders for drivers and scratch, and probes the sandbox.
    pub fn new(options: RunOptions) -> Result<Environment, Error> {
        leftovers::sweep(&std::env::temp_dir());
        let drivers = tempfile::Builder::new()
            .prefix(leftovers::PREFIXES[0])
            .tempdir()
            .map_err(Error::io(
                "cannot create a temporary folder for the drivers",
            ))?;
        let scratch = tempfile::Builder::new()
            .prefix(leftovers::PREFIXES[1])
            .tempdir()
            .map_err(Error::io("cannot create a scratch folder"))?;
        // The sandbox's uid reads the drivers and reaches its scratch folder.
        use std::os::unix::fs::PermissionsExt;
        for (dir, mode) in [(drivers.path(), 0o755), (scratch.path(), 0o711)] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode))
                .map_err(Error::io(format!("cannot open up {}", dir.display())))?;
        }
        let _claims = [
            leftovers::claim(drivers.path())?,
            leftovers::claim(scratch.path())?,
        ];
        let env = Environment {
            _claims,
            drivers,
            written: Mutex::new(Vec::new()),
            scratch,
            tools: Mutex::new(Vec::new()),
            layers: OnceLock::new(),
            probing: Mutex::new(None),
            options,
            sessions: AtomicU32::new(0),
            live: Default::default(),
            cgroups: cgroups()?,
            phases: Default::default(),
            protected_real: OnceLock::new(),
        };
        let probe = env.start_probe()?;
        *env.probing.lock().unwrap_or_else(|e| e.into_inner()) = Some(probe);
        Ok(env)
    }

    /// The limits every session runs under.
    pub fn limits(&self) -> SessionLimits {
        self.options.limits
    }

    /// The sandbox limits of a session with `cpu_seconds` of CPU.
    fn session_limits(&self, cpu_seconds: u64) -> contain::Limits {
        let l = self.options.limits;
        contain::Limits {
            cpu_seconds,
            memory_bytes: l.memory_bytes,
            processes: l.processes,
            open_files: l.open_files,
            file_size_bytes: l.file_size_bytes,
            scratch_bytes: l.scratch_bytes,
        }
    }

    fn policy(
        &self,
        extra_read: Vec<PathBuf>,
        scratch: PathBuf,
        uid: u32,
        limits: contain::Limits,
    ) -> Policy {
        let mut read: Vec<PathBuf> = SYSTEM_READ
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect();
        read.extend(extra_read);
        Policy {
            read,
            list: Vec::new(),
            hide: Vec::new(),
            write: Vec::new(),
            scratch,
            limits,
            uid: (os::effective_ids().0 == 0 && self.options.sandbox).then_some(uid),
            isolate: self.options.sandbox,
            protocol: false,
        }
    }

    /// The path of the driver `name` with source `text`, written into the
    /// drivers' folder on first use.
    pub fn driver(&self, name: &'static str, text: &str) -> Result<PathBuf, Error> {
        let path = self.drivers.path().join(name);
        let mut written = self.written.lock().unwrap_or_else(|e| e.into_inner());
        if !written.contains(&name) {
            std::fs::write(&path, text)
                .map_err(Error::io(format!("cannot write the {name} driver")))?;
            written.push(name);
        }
        Ok(path)
    }

    /// The tool `name`, found once by `find` (the real binary behind a
    /// version manager's shim, which would cost a second process start for
    /// every session). Every tool found goes on contained programs' PATH,
    /// lowest `rank` first.
    pub fn tool(
        &self,
        name: &'static str,
        rank: u8,
        find: impl FnOnce() -> Result<PathBuf, String>,
    ) -> Result<PathBuf, String> {
        let mut tools = self.tools.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(tool) = tools.iter().find(|t| t.name == name) {
            return tool.found.clone();
        }
        let found = find();
        tools.push(Tool {
            name,
            rank,
            found: found.clone(),
        });
        tools.sort_by_key(|t| t.rank);
        found
    }

    /// A uid of its own for a session, when sessions run as one (as root,
    /// sandboxed); `session` spreads the search.
    fn lease(&self, session: u32) -> Result<Option<UidLease>, Error> {
        if os::effective_ids().0 != 0 || !self.options.sandbox {
            return Ok(None);
        }
        UidLease::take(std::process::id().wrapping_mul(7919).wrapping_add(session))
            .map(Some)
            .map_err(Error::io(format!(
                "cannot lease a sandbox uid (locks in {})",
                uid_lock_dir().display()
            )))
    }

    /// The command that serves `program` over the protocol, inside the
    /// sandbox, with `cpu_seconds` of CPU for the whole session, and the
    /// lease on its uid, to hold while it runs. What the protocol tells the
    /// program through its environment is the caller's to add.
    pub fn session_command(&self, program: &Program, cpu_seconds: u64) -> Result<Contained, Error> {
        let mut read = vec![self.drivers.path().to_owned()];
        read.extend(program.read.iter().cloned());
        let access = Access {
            read,
            list: program.list.clone(),
            hide: program.hide.clone(),
            write: Vec::new(),
        };
        let limits = self.session_limits(cpu_seconds);
        self.contained(&program.program, &program.args, access, limits, true)
    }

    /// `program args` in a fresh sandbox with its own scratch folder and
    /// uid and the file access `access` (plus the scratch folder);
    /// `protocol` when it speaks the protocol over descriptors 3 to 7.
    pub fn contained(
        &self,
        program: &Path,
        args: &[OsString],
        access: Access,
        limits: contain::Limits,
        protocol: bool,
    ) -> Result<Contained, Error> {
        let Access {
            mut read,
            list,
            mut hide,
            write,
        } = access;
        // What the caller grants: a protected path there is the caller's
        // to leave out (a student's folder holding the tests).
        let own = read.clone();
        // A session of learner code waits for its phase on the machine
        // before it holds anything else.
        let ticket = protocol.then(|| self.phase_ticket()).transpose()?;
        let session = self.sessions.fetch_add(1, Ordering::Relaxed);
        let scratch = self.scratch.path().join(format!("session-{session}"));
        std::fs::create_dir_all(&scratch)
            .map_err(Error::io("cannot create a session's scratch folder"))?;
        // The tools found, first on the program's PATH: an executable's
        // `#!/usr/bin/env python3` gets the real interpreter.
        let mut path_dirs = Vec::new();
        for tool in self.tools.lock().unwrap_or_else(|e| e.into_inner()).iter() {
            if let Ok(exe) = &tool.found
                && let Some(bin) = exe.parent()
            {
                read.extend(bin.parent().map(Path::to_owned));
                // A virtual environment's python is a link to the base
                // interpreter, whose installation (the standard library)
                // must be readable too: exec follows the link.
                if let Ok(real) = std::fs::canonicalize(exe)
                    && let Some(prefix) = real.parent().and_then(Path::parent)
                    && !read.iter().any(|r| prefix.starts_with(r))
                {
                    read.push(prefix.to_owned());
                }
                path_dirs.push(bin.to_owned());
            }
        }
        path_dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from));
        let lease = self.lease(session)?;
        let uid = lease.as_ref().map_or(FIRST_UID, UidLease::uid);
        let mut policy = self.policy(read, scratch.clone(), uid, limits);
        policy.list = list;
        hide.extend(self.protected_beneath(&policy.read, &own));
        policy.hide = hide;
        policy.write = write;
        policy.protocol = protocol;
        let at = scratch.with_extension("policy.json");
        let mut command = contain::wrap(&policy, &at, program, args).map_err(Error::io(
            "cannot start the sandbox (its policy file, or the grader binary)",
        ))?;
        let group = match &self.cgroups {
            Ok(cgroups) => {
                let mut group = cgroups
                    .group(os::cgroup::Bounds {
                        memory: limits.memory_bytes,
                        // The shim and the sandbox's init besides the
                        // program's own.
                        pids: limits.processes + 4,
                    })
                    .map_err(Error::io(
                        "cannot make the cgroup that keeps a session's accounts",
                    ))?;
                group.enter_on_spawn(&mut command);
                if ticket.as_ref().is_some_and(|t| t.phase() == Phase::Hidden) {
                    // The pages it brings into the cache go with it.
                    group.empty_cache_on_drop();
                }
                Some(group)
            }
            Err(_) => None,
        };
        // A clean environment: no CI secrets, no interpreter options that
        // would change how the learner's code runs.
        command
            .env_clear()
            .env("PATH", std::env::join_paths(path_dirs).unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("HOME", &scratch)
            .env("TMPDIR", &scratch)
            .current_dir(&scratch);
        Ok(Contained {
            command,
            lease,
            group,
            ticket,
        })
    }

    /// The protected paths (the tests, the challenges, the submissions of
    /// the run) that lie beneath what every session is granted besides its
    /// caller's own grants `own`: the system's folders (hidden tests kept
    /// in `/opt`, a class under `/srv` granted with nothing) and the
    /// interpreters'. Each is covered in the session's mount namespace.
    fn protected_beneath(&self, read: &[PathBuf], own: &[PathBuf]) -> Vec<PathBuf> {
        if !self.options.sandbox {
            // Nothing is enforced without the sandbox (`--no-sandbox`).
            return Vec::new();
        }
        let real = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone());
        let protected = self.protected_real.get_or_init(|| {
            let mut all: Vec<PathBuf> = self.options.protected.iter().map(real).collect();
            all.sort();
            all.dedup();
            all
        });
        let roots: Vec<PathBuf> = read.iter().filter(|r| !own.contains(r)).map(real).collect();
        let own: Vec<PathBuf> = own.iter().map(real).collect();
        let mut hidden: Vec<PathBuf> = protected
            .iter()
            .filter(|p| roots.iter().any(|r| p.starts_with(r) && *p != r))
            .filter(|p| !own.iter().any(|g| g.starts_with(p) || p.starts_with(g)))
            .cloned()
            .collect();
        // One beneath another is covered with it.
        let all = hidden.clone();
        hidden.retain(|p| !all.iter().any(|q| q != p && p.starts_with(q)));
        hidden
    }

    /// The run's scratch folder (every session has its own beneath it).
    pub fn scratch_dir(&self) -> &Path {
        self.scratch.path()
    }

    /// Where compiled and transpiled submissions are kept.
    pub fn cache_dir(&self) -> &Path {
        &self.options.cache_dir
    }

    /// Whether sessions are sandboxed.
    pub fn sandboxed(&self) -> bool {
        self.options.sandbox
    }
}

/// A contained command and the lease on its uid: the uid is the command's
/// alone while the lease lives.
#[derive(Debug)]
pub struct Contained {
    pub command: Command,
    pub lease: Option<UidLease>,
    /// The cgroup that keeps its accounts (its CPU time and memory), when
    /// the grader may make one: what is left in it is killed when it
    /// drops.
    pub group: Option<Group>,
    /// For a session of learner code, its hold on its phase: to be
    /// dropped after its cgroup (the `phase` module's documentation).
    pub ticket: Option<PhaseTicket>,
}

/// What a sandboxed program may do with files, besides its scratch folder.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// Read and execute beneath these.
    pub read: Vec<PathBuf>,
    /// List these folders, but read nothing beneath.
    pub list: Vec<PathBuf>,
    /// Inside the folders of `read`, what must not be seen: covered in
    /// the mount namespace ([`Grants::hide`]).
    pub hide: Vec<PathBuf>,
    /// Write beneath these.
    pub write: Vec<PathBuf>,
}

/// Limits for a program the grader runs for itself in the sandbox (a
/// compiler), not a learner's session.
pub use crate::contain::Limits as ToolLimits;

/// How a command run to its end went.
#[derive(Debug, Clone)]
pub struct Finished {
    /// `None` when it was killed at the deadline.
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub timed_out: bool,
}

/// Runs `command` (no protocol) until it ends or `limit` passes, keeping
/// `cap` bytes of each output stream and draining the rest. The command's
/// process group is killed at the deadline.
pub fn run_to_end(mut command: Command, limit: Duration, cap: usize) -> std::io::Result<Finished> {
    use std::io::Read;
    use std::os::unix::process::CommandExt;
    command
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .process_group(0);
    let mut child = command.spawn()?;
    let reader = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut kept = Vec::new();
            if let Some(mut pipe) = pipe {
                let mut buf = [0u8; 8192];
                while let Ok(n) = pipe.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    keep(&mut kept, cap, &buf[..n]);
                }
            }
            String::from_utf8_lossy(&kept).into_owned()
        })
    };
    let out = reader(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = reader(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let deadline = Instant::now() + limit;
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait()? {
            break Some(status);
        }
        if Instant::now() >= deadline {
            timed_out = true;
            sys::kill_group(child.id());
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // The group is gone by now, so the pipes reach end of file.
    sys::kill_group(child.id());
    Ok(Finished {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// Keeps what of `bytes` fits in `kept` under `cap` bytes and returns how
/// many did not fit: output is capped, but always read to its end.
pub fn keep(kept: &mut Vec<u8>, cap: usize, bytes: &[u8]) -> u64 {
    let room = cap.saturating_sub(kept.len()).min(bytes.len());
    kept.extend_from_slice(&bytes[..room]);
    (bytes.len() - room) as u64
}

/// How a program ended, as a fact; its `Display` is the one wording.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this code.
    Exited(i32),
    /// A signal killed it.
    Signalled(i32),
    /// It closed its response channel and did not exit, so it was stopped.
    Stopped,
    /// Neither code nor signal: the status as the system writes it.
    Other(String),
}

impl Ended {
    /// How `status` ended its program.
    pub fn of(status: ExitStatus) -> Ended {
        use std::os::unix::process::ExitStatusExt;
        Ended::from_parts(status.code(), status.signal())
            .unwrap_or_else(|| Ended::Other(status.to_string()))
    }

    /// An exit code, else a signal; neither says nothing.
    pub fn from_parts(code: Option<i32>, signal: Option<i32>) -> Option<Ended> {
        match (code, signal) {
            (Some(code), _) => Some(Ended::Exited(code)),
            (None, Some(signal)) => Some(Ended::Signalled(signal)),
            _ => None,
        }
    }
}

impl std::fmt::Display for Ended {
    /// "exited with code 1", "was killed by signal 11 (SIGSEGV)".
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Ended::Exited(code) => write!(f, "exited with code {code}"),
            Ended::Signalled(signal) => f.write_str(&describe_signal(*signal)),
            Ended::Stopped => f.write_str("closed its response channel and was stopped"),
            Ended::Other(status) => write!(f, "ended ({status})"),
        }
    }
}

/// "exited with code 1", "was killed by signal 11 (SIGSEGV)".
pub fn describe_exit(status: ExitStatus) -> String {
    Ended::of(status).to_string()
}

/// "was killed by signal 11 (SIGSEGV)".
pub fn describe_signal(signal: i32) -> String {
    format!("was killed by signal {signal} ({})", signal_name(signal))
}

fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => "SIGABRT",
        libc::SIGBUS => "SIGBUS",
        libc::SIGFPE => "SIGFPE",
        libc::SIGILL => "SIGILL",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGTERM => "SIGTERM",
        libc::SIGPIPE => "SIGPIPE",
        libc::SIGXCPU => "SIGXCPU",
        libc::SIGXFSZ => "SIGXFSZ",
        libc::SIGSTOP => "SIGSTOP",
        libc::SIGTRAP => "SIGTRAP",
        _ => "signal",
    }
}

#[cfg(test)]
mod tests;
