//! Prepare and run: how a submission is started, and the per-submission
//! [`Runner`] that feeds it cases, restarting it after a crash or timeout.

mod session;

pub use session::{Captured, Failure, Session, describe_exit, preview};

use crate::challenge::{Case, Challenge};
use crate::error::Error;
use crate::os;
use crate::sandbox::{self, FIRST_UID, Layers, Policy};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// The protocol version the drivers and executables speak.
pub const PROTOCOL: u64 = 1;
/// Bytes of each output stream kept per case.
pub const CAPTURE_CAP: usize = 16 * 1024;
/// How long a submission may take to load before its first case.
pub const STARTUP_LIMIT: Duration = Duration::from_secs(10);

const PYTHON_DRIVER: &str = include_str!("../../drivers/python_driver.py");
const NODE_DRIVER: &str = include_str!("../../drivers/node_driver.js");

/// The language a submission is written in, from its file name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Language {
    Python,
    #[serde(rename = "javascript")]
    JavaScript,
    #[serde(rename = "typescript")]
    TypeScript,
    Rust,
    /// Any program speaking the protocol itself.
    Executable,
    /// No submission file was found (a batch folder without an entry).
    Unknown,
}

/// A submission to grade.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The path as the user gave it (for reports).
    pub path: PathBuf,
    /// The absolute path (for running).
    pub absolute: PathBuf,
    pub language: Language,
}

impl Submission {
    /// Recognises the submission at `path` by its extension: `.py`,
    /// `.js`/`.cjs`/`.mjs`, or an executable file without one.
    pub fn detect(path: &Path) -> Result<Submission, Error> {
        let meta = std::fs::metadata(path)
            .map_err(|e| Error::Usage(format!("cannot read submission {}: {e}", path.display())))?;
        if !meta.is_file() {
            return Err(Error::Usage(format!(
                "submission {} is not a file; give the path of the module to grade",
                path.display()
            )));
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let language = match extension {
            "py" => Language::Python,
            "js" | "cjs" | "mjs" => Language::JavaScript,
            "ts" | "mts" => Language::TypeScript,
            "rs" => Language::Rust,
            _ => {
                use std::os::unix::fs::PermissionsExt;
                if meta.permissions().mode() & 0o111 != 0 {
                    Language::Executable
                } else {
                    return Err(Error::Usage(format!(
                        "cannot tell the language of {}: expected .py, .js, .cjs, .mjs, .ts, .mts, .rs, \
                         or an executable file that speaks the protocol (chmod +x it)",
                        path.display()
                    )));
                }
            }
        };
        let absolute = std::path::absolute(path)
            .map_err(Error::io(format!("cannot resolve {}", path.display())))?;
        Ok(Submission {
            path: path.to_owned(),
            absolute,
            language,
        })
    }
}

/// How sessions are contained.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Namespaces, Landlock and a dropped uid; `false` keeps only rlimits.
    pub sandbox: bool,
    /// Refuse to grade if any sandbox layer is missing.
    pub require_sandbox: bool,
    pub limits: SessionLimits,
    /// What a submission must never read: the tests, the challenges, and
    /// the other submissions of the run. A submission's folder that holds
    /// any of them is reduced to the submission's file.
    pub protected: Vec<PathBuf>,
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

/// What every run shares: the drivers written out once, a scratch folder,
/// the interpreters found once, and the sandbox layers probed once.
#[derive(Debug)]
pub struct Environment {
    drivers: tempfile::TempDir,
    scratch: tempfile::TempDir,
    python: OnceLock<Result<PathBuf, String>>,
    node: OnceLock<Result<PathBuf, String>>,
    options: RunOptions,
    layers: Layers,
    sessions: AtomicU32,
}

/// Folders every runtime may read.
const SYSTEM_READ: [&str; 9] = [
    "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/proc", "/opt",
];

impl Environment {
    /// Writes the embedded drivers to a fresh temporary folder and probes
    /// the sandbox.
    pub fn new(options: RunOptions) -> Result<Environment, Error> {
        let drivers = tempfile::Builder::new()
            .prefix("grader-drivers-")
            .tempdir()
            .map_err(Error::io(
                "cannot create a temporary folder for the drivers",
            ))?;
        for (name, text) in [
            ("python_driver.py", PYTHON_DRIVER),
            ("node_driver.js", NODE_DRIVER),
        ] {
            std::fs::write(drivers.path().join(name), text)
                .map_err(Error::io(format!("cannot write the {name} driver")))?;
        }
        let scratch = tempfile::Builder::new()
            .prefix("grader-scratch-")
            .tempdir()
            .map_err(Error::io("cannot create a scratch folder"))?;
        // The sandbox's uid reads the drivers and reaches its scratch folder.
        use std::os::unix::fs::PermissionsExt;
        for (dir, mode) in [(drivers.path(), 0o755), (scratch.path(), 0o711)] {
            std::fs::set_permissions(dir, std::fs::Permissions::from_mode(mode))
                .map_err(Error::io(format!("cannot open up {}", dir.display())))?;
        }
        let mut env = Environment {
            drivers,
            scratch,
            python: OnceLock::new(),
            node: OnceLock::new(),
            layers: Layers::none(false),
            options,
            sessions: AtomicU32::new(0),
        };
        env.layers = env.probe()?;
        if env.options.require_sandbox && (!env.layers.enabled || !env.layers.missing.is_empty()) {
            return Err(Error::Usage(format!(
                "--require-sandbox: the sandbox is not complete on this machine ({})",
                env.layers.describe()
            )));
        }
        Ok(env)
    }

    /// The sandbox layers in force.
    pub fn layers(&self) -> &Layers {
        &self.layers
    }

    fn probe(&self) -> Result<Layers, Error> {
        let dir = self.scratch.path().join("probe");
        std::fs::create_dir_all(&dir)
            .map_err(Error::io("cannot create the sandbox probe's folder"))?;
        let policy = self.policy(Vec::new(), dir, FIRST_UID, self.session_limits(1));
        sandbox::probe(&policy).map_err(|source| Error::Io {
            context: "cannot start the sandbox shim (the grader binary itself)".into(),
            source,
        })
    }

    /// The sandbox limits of a session with `cpu_seconds` of CPU.
    fn session_limits(&self, cpu_seconds: u64) -> sandbox::Limits {
        let l = self.options.limits;
        sandbox::Limits {
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
        limits: sandbox::Limits,
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
            write: Vec::new(),
            scratch,
            limits,
            uid: (os::effective_ids().0 == 0 && self.options.sandbox).then_some(uid),
            isolate: self.options.sandbox,
            protocol: false,
        }
    }

    /// The command that serves `submission` over the protocol, inside the
    /// sandbox, with `cpu_seconds` of CPU for the whole session. `artifact`
    /// is what preparing it produced (a transpiled module, a binary).
    pub fn command(
        &self,
        submission: &Submission,
        artifact: Option<&Path>,
        cpu_seconds: u64,
    ) -> Result<(Command, PathBuf), Error> {
        let (own, list) = self.readable_parts(&submission.absolute);
        let mut read = vec![self.drivers.path().to_owned()];
        read.extend(own);
        read.extend(artifact.and_then(Path::parent).map(Path::to_owned));
        let node_driver = || self.drivers.path().join("node_driver.js").into_os_string();
        let (program, args): (PathBuf, Vec<OsString>) = match submission.language {
            Language::Python => {
                let python =
                    self.interpreter(&self.python, "GRADER_PYTHON", "python3", Language::Python)?;
                let mut args: Vec<OsString> =
                    ["-B", "-s", "-X", "utf8"].iter().map(Into::into).collect();
                args.push(self.drivers.path().join("python_driver.py").into());
                args.push(submission.absolute.clone().into());
                (python, args)
            }
            Language::JavaScript => {
                let node =
                    self.interpreter(&self.node, "GRADER_NODE", "node", Language::JavaScript)?;
                (
                    node,
                    vec![
                        "--no-warnings".into(),
                        node_driver(),
                        submission.absolute.clone().into(),
                    ],
                )
            }
            Language::TypeScript => {
                let node =
                    self.interpreter(&self.node, "GRADER_NODE", "node", Language::JavaScript)?;
                let module = artifact.unwrap_or(&submission.absolute);
                (
                    node,
                    vec![
                        "--no-warnings".into(),
                        "--enable-source-maps".into(),
                        node_driver(),
                        module.into(),
                        submission.absolute.clone().into(),
                    ],
                )
            }
            Language::Rust => (
                artifact.unwrap_or(&submission.absolute).to_owned(),
                Vec::new(),
            ),
            Language::Executable | Language::Unknown => (submission.absolute.clone(), Vec::new()),
        };
        let limits = self.session_limits(cpu_seconds);
        let access = Access {
            read,
            list,
            write: Vec::new(),
        };
        let (mut command, _) = self.contained(&program, &args, access, limits, true)?;
        command.env("GRADER_PROTOCOL", PROTOCOL.to_string());
        Ok((command, program))
    }

    /// `program args` in a fresh sandbox with its own scratch folder and
    /// uid and the file access `access` (plus the scratch folder);
    /// `protocol` when it speaks the protocol over descriptors 3 to 7.
    /// Returns the command and the scratch folder.
    pub fn contained(
        &self,
        program: &Path,
        args: &[OsString],
        access: Access,
        limits: sandbox::Limits,
        protocol: bool,
    ) -> Result<(Command, PathBuf), Error> {
        let Access {
            mut read,
            list,
            write,
        } = access;
        let session = self.sessions.fetch_add(1, Ordering::Relaxed);
        let scratch = self.scratch.path().join(format!("session-{session}"));
        std::fs::create_dir_all(&scratch)
            .map_err(Error::io("cannot create a session's scratch folder"))?;
        // The interpreters found, first on the program's PATH: an
        // executable's `#!/usr/bin/env python3` gets the real one.
        let mut path_dirs = Vec::new();
        for cell in [&self.python, &self.node] {
            if let Some(Ok(exe)) = cell.get()
                && let Some(bin) = exe.parent()
            {
                read.extend(bin.parent().map(Path::to_owned));
                path_dirs.push(bin.to_owned());
            }
        }
        path_dirs.extend(["/usr/local/bin", "/usr/bin", "/bin"].map(PathBuf::from));
        let uid = FIRST_UID + session % 4000;
        let mut policy = self.policy(read, scratch.clone(), uid, limits);
        policy.list = list;
        policy.write = write;
        policy.protocol = protocol;
        let mut command = sandbox::wrap(&policy, program, args).map_err(Error::io(
            "cannot find the grader binary to start the sandbox",
        ))?;
        // A clean environment: no CI secrets, no interpreter options that
        // would change how the learner's code runs.
        command
            .env_clear()
            .env("PATH", std::env::join_paths(path_dirs).unwrap_or_default())
            .env("LANG", "C.UTF-8")
            .env("HOME", &scratch)
            .env("TMPDIR", &scratch)
            .current_dir(&scratch);
        Ok((command, scratch))
    }

    /// Where compiled and transpiled submissions are kept.
    pub fn cache_dir(&self) -> &Path {
        &self.options.cache_dir
    }

    /// Whether sessions are sandboxed.
    pub fn sandboxed(&self) -> bool {
        self.options.sandbox
    }

    /// What of a submission its session may read, as [`Self::command`]
    /// grants it (for compilers, which read the same).
    pub fn submission_paths(&self, file: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        self.readable_parts(file)
    }

    /// What of a submission its session may read: its folder (for modules
    /// it imports), less whatever is protected there (tests, challenges,
    /// the other submissions of this run).
    /// Returns the paths to read, and the folders only to list (so that
    /// imports can look for a module beside it).
    fn readable_parts(&self, file: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let Some(dir) = file.parent() else {
            return (vec![file.to_owned()], Vec::new());
        };
        let protected: Vec<PathBuf> = self
            .options
            .protected
            .iter()
            .filter_map(|p| std::path::absolute(p).ok())
            .filter(|p| p != file)
            .collect();
        if protected.iter().any(|p| dir.starts_with(p)) {
            return (vec![file.to_owned()], Vec::new());
        }
        if !protected.iter().any(|p| p.starts_with(dir)) {
            return (vec![dir.to_owned()], Vec::new());
        }
        let Ok(entries) = std::fs::read_dir(dir) else {
            return (vec![file.to_owned()], Vec::new());
        };
        let read = entries
            .flatten()
            .map(|e| e.path())
            .filter(|entry| !protected.iter().any(|p| p.starts_with(entry)))
            .collect();
        (read, vec![dir.to_owned()])
    }

    /// Finds the real interpreter binary once: a version manager's shim in
    /// PATH costs a second process start for every session.
    fn interpreter(
        &self,
        cell: &OnceLock<Result<PathBuf, String>>,
        variable: &str,
        default: &str,
        language: Language,
    ) -> Result<PathBuf, Error> {
        let found = cell.get_or_init(|| {
            let program = std::env::var_os(variable).unwrap_or_else(|| default.into());
            let probe = match language {
                Language::Python => "import sys; print(sys.executable)",
                _ => "console.log(process.execPath)",
            };
            let flag = if language == Language::Python {
                "-c"
            } else {
                "-e"
            };
            match Command::new(&program).args([flag, probe]).output() {
                Ok(out) if out.status.success() => {
                    let path = String::from_utf8_lossy(&out.stdout).trim().to_owned();
                    Ok(if path.is_empty() {
                        PathBuf::from(&program)
                    } else {
                        PathBuf::from(path)
                    })
                }
                Ok(out) => Err(format!(
                    "`{} {flag} ...` {}: {}",
                    program.to_string_lossy(),
                    describe_exit(out.status),
                    String::from_utf8_lossy(&out.stderr).trim()
                )),
                Err(e) => Err(format!("`{}`: {e}", program.to_string_lossy())),
            }
        });
        found.clone().map_err(|detail| Error::Runtime {
            program: default.into(),
            hint: format!(
                "install {default} (e.g. apt-get install {}) or set {variable} to its path",
                if language == Language::Python {
                    "python3"
                } else {
                    "nodejs"
                }
            ),
            source: std::io::Error::other(detail),
        })
    }
}

/// What a sandboxed program may do with files, besides its scratch folder.
#[derive(Debug, Clone, Default)]
pub struct Access {
    /// Read and execute beneath these.
    pub read: Vec<PathBuf>,
    /// List these folders, but read nothing beneath.
    pub list: Vec<PathBuf>,
    /// Write beneath these.
    pub write: Vec<PathBuf>,
}

/// How a command run to its end went.
#[derive(Debug, Clone)]
pub struct Finished {
    /// `None` when it was killed at the deadline.
    pub status: Option<std::process::ExitStatus>,
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
                    let room = cap.saturating_sub(kept.len()).min(n);
                    kept.extend_from_slice(&buf[..room]);
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
            os::kill_group(child.id());
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    // The group is gone by now, so the pipes reach end of file.
    os::kill_group(child.id());
    Ok(Finished {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        timed_out,
    })
}

/// What the submission said about itself when it started.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u64,
    /// `class` (a Router) or `solve`.
    #[serde(default)]
    pub api: String,
    /// Whether the module exposes its own h32.
    #[serde(default)]
    pub h32: bool,
    /// The Router's public methods, where the driver can list them.
    #[serde(default)]
    pub methods: Vec<String>,
    #[serde(default)]
    pub runtime: String,
}

/// An exception in the learner's code, as the driver reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerError {
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
    #[serde(default)]
    pub traceback: String,
    /// The line in the learner's file, where known.
    #[serde(default)]
    pub line: Option<u64>,
    /// The operation running (`-1` the constructor, `None` unknown).
    #[serde(default)]
    pub op_index: Option<i64>,
    /// The OS error number, for errors from the OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<i64>,
}

/// How one case ran, before judging.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The case ran to the end.
    Output(Vec<Value>),
    /// The learner's code raised; `output` holds the results before it.
    Raised {
        output: Vec<Value>,
        error: LearnerError,
    },
    /// The wall-clock limit passed.
    TimedOut {
        limit: Duration,
        op_index: Option<i64>,
    },
    /// The process ended without answering; `op_index` is the operation it
    /// last said it was running, if it said; `starting` when it ended
    /// before its hello.
    Crashed {
        status: String,
        op_index: Option<i64>,
        starting: bool,
    },
    /// The process ran out of memory: killed or aborted with a peak near
    /// the limit.
    MemoryLimit {
        limit_bytes: u64,
        peak_bytes: u64,
        op_index: Option<i64>,
    },
    /// The session used up its CPU time (SIGXCPU at the soft limit).
    CpuLimit { seconds: u64, op_index: Option<i64> },
    /// The process wrote a file past the file size limit (SIGXFSZ).
    FileSizeLimit {
        limit_bytes: u64,
        op_index: Option<i64>,
    },
    /// The process printed more than the output limit during one case.
    OutputLimit { limit_bytes: u64 },
    /// The process broke the protocol.
    Protocol(String),
    /// The module could not be loaded (syntax error, import error, no API).
    LoadFailed(LearnerError),
    /// The submission does not compile (TypeScript syntax, rustc errors).
    CompileFailed(LearnerError),
    /// No hello within [`STARTUP_LIMIT`]: a module still loading, or a
    /// program (`executable`) that never greets.
    LoadTimedOut { executable: bool },
}

/// One case's run: its outcome, what it printed, how long it took.
#[derive(Debug, Clone)]
pub struct CaseRun {
    pub outcome: Outcome,
    pub captured: Captured,
    pub elapsed: Duration,
}

/// Runs one submission's cases in a session, restarting it when a case
/// kills it. A failure to start is remembered: it would only repeat.
pub struct Runner<'a> {
    env: &'a Environment,
    challenge: &'a Challenge,
    submission: &'a Submission,
    cpu_seconds: u64,
    prepared: Option<crate::prepare::Prepared>,
    session: Option<Session>,
    load_failure: Option<(Outcome, Captured)>,
    hello: Option<Hello>,
}

impl<'a> Runner<'a> {
    /// A runner that starts its session on first use; each session gets
    /// `cpu_seconds` of CPU time.
    pub fn new(
        env: &'a Environment,
        challenge: &'a Challenge,
        submission: &'a Submission,
        cpu_seconds: u64,
    ) -> Runner<'a> {
        Runner {
            env,
            challenge,
            submission,
            cpu_seconds,
            prepared: None,
            session: None,
            load_failure: None,
            hello: None,
        }
    }

    /// What preparing the submission cost, for compiled languages.
    pub fn build(&self) -> Option<crate::prepare::Build> {
        self.prepared.as_ref().and_then(|p| p.build)
    }

    /// The submission's hello, once a session has started.
    pub fn hello(&self) -> Option<&Hello> {
        self.hello.as_ref()
    }

    /// Runs `case` with wall-clock `limit`.
    pub fn run_case(&mut self, case: &Case, limit: Duration) -> Result<CaseRun, Error> {
        self.run_input(&case.input, limit)
    }

    /// Runs the case `[args, ops]` in `input` (already checked) with
    /// wall-clock `limit`.
    pub fn run_input(&mut self, input: &Value, limit: Duration) -> Result<CaseRun, Error> {
        // Start-up is not the case's time: it is paid once, not per case.
        let _ = self.ready()?;
        let started = Instant::now();
        let mut body = Map::new();
        body.insert("case".into(), input.clone());
        let reply = match self.exchange(body, limit)? {
            Ok(reply) => reply,
            Err((outcome, captured)) => {
                return Ok(CaseRun {
                    outcome,
                    captured,
                    elapsed: started.elapsed(),
                });
            }
        };
        let (message, captured) = reply;
        let outcome = match parse_case_reply(&message) {
            Ok(outcome) => outcome,
            Err(what) => {
                self.stop();
                Outcome::Protocol(what)
            }
        };
        Ok(CaseRun {
            outcome,
            captured,
            elapsed: started.elapsed(),
        })
    }

    /// The submission's own h32 of each text, if it exposes one and answers
    /// within `limit`; entries that are not 32-bit integers stay as given.
    pub fn hash(&mut self, texts: &[String], limit: Duration) -> Result<Option<Vec<Value>>, Error> {
        if !self.hello.as_ref().is_some_and(|h| h.h32) {
            return Ok(None);
        }
        let mut body = Map::new();
        body.insert("h32".into(), Value::from(texts.to_vec()));
        Ok(match self.exchange(body, limit)? {
            Ok((message, _)) => match message.get("h32").and_then(Value::as_array) {
                Some(values) if values.len() == texts.len() => Some(values.clone()),
                _ => None,
            },
            Err(_) => None,
        })
    }

    /// Sends one request, starting a session if needed. The inner `Err` is
    /// the outcome to report when no reply came.
    #[allow(clippy::type_complexity)]
    fn exchange(
        &mut self,
        body: Map<String, Value>,
        limit: Duration,
    ) -> Result<Result<(Value, Captured), (Outcome, Captured)>, Error> {
        if let Err(failure) = self.ready()? {
            return Ok(Err(failure));
        }
        let mut session = self.session.take().expect("ready() leaves a session");
        let result = session.request(body, Instant::now() + limit);
        let captured = session.take_captured();
        match result {
            Ok(message) => {
                self.session = Some(session);
                Ok(Ok((message, captured)))
            }
            Err(Failure::TimedOut { op_index }) => {
                Ok(Err((Outcome::TimedOut { limit, op_index }, captured)))
            }
            Err(Failure::Died {
                status,
                op_index,
                exit,
                sandbox_error: _,
            }) => Ok(Err((self.death(status, op_index, exit, false), captured))),
            Err(Failure::OutputLimit { limit }) => {
                Ok(Err((Outcome::OutputLimit { limit_bytes: limit }, captured)))
            }
            Err(Failure::Protocol(what)) => Ok(Err((Outcome::Protocol(what), captured))),
            Err(Failure::Io(e)) => Err(Error::Io {
                context: format!(
                    "lost contact with the process grading {}",
                    self.submission.path.display()
                ),
                source: e,
            }),
        }
    }

    /// Starts a session unless one is running; a failure to start is
    /// remembered and returned from then on.
    fn ready(&mut self) -> Result<Result<(), (Outcome, Captured)>, Error> {
        if let Some(failure) = &self.load_failure {
            return Ok(Err(failure.clone()));
        }
        if self.prepared.is_none() {
            match crate::prepare::prepare(self.env, self.challenge, self.submission)? {
                Ok(prepared) => self.prepared = Some(prepared),
                Err(error) => {
                    let failure = (Outcome::CompileFailed(error), Captured::default());
                    self.load_failure = Some(failure.clone());
                    return Ok(Err(failure));
                }
            }
        }
        if self.session.is_none() {
            match self.start()? {
                Ok(session) => self.session = Some(session),
                Err(failure) => {
                    self.load_failure = Some(failure.clone());
                    return Ok(Err(failure));
                }
            }
        }
        Ok(Ok(()))
    }

    fn start(&mut self) -> Result<Result<Session, (Outcome, Captured)>, Error> {
        let artifact = self.prepared.as_ref().and_then(|p| p.artifact.as_deref());
        let (command, program) = self
            .env
            .command(self.submission, artifact, self.cpu_seconds)?;
        let limits = self.env.options.limits;
        let mut session = Session::spawn(command, CAPTURE_CAP, limits.output_bytes).map_err(|source| Error::Runtime {
            program: program.display().to_string(),
            hint: "check that the grader binary can be run again (the sandbox shim is the grader itself)".into(),
            source,
        })?;
        // What the module prints while loading stays in the session's
        // buffer and shows with the first case, unless loading fails.
        let first = session.first_message(Instant::now() + STARTUP_LIMIT);
        let outcome = match first {
            Ok(message) => {
                if let Some(hello) = message.get("hello") {
                    match serde_json::from_value::<Hello>(hello.clone()) {
                        Ok(hello) if hello.protocol == PROTOCOL => {
                            self.hello = Some(hello);
                            return Ok(Ok(session));
                        }
                        Ok(hello) => Outcome::Protocol(format!(
                            "the program speaks protocol {}, the grader speaks {PROTOCOL}",
                            hello.protocol
                        )),
                        Err(e) => Outcome::Protocol(format!("malformed hello: {e}")),
                    }
                } else if let Some(error) = message.get("load_error") {
                    match serde_json::from_value::<LearnerError>(error.clone()) {
                        Ok(error) => Outcome::LoadFailed(error),
                        Err(e) => Outcome::Protocol(format!("malformed load_error: {e}")),
                    }
                } else {
                    Outcome::Protocol(format!(
                        "the first message must be a hello, got {}",
                        preview(&message.to_string())
                    ))
                }
            }
            Err(Failure::TimedOut { .. }) => Outcome::LoadTimedOut {
                executable: self.submission.language == Language::Executable,
            },
            Err(Failure::Died {
                status,
                op_index,
                exit,
                sandbox_error,
            }) => match sandbox_error {
                // An executable that cannot be run is its author's problem;
                // an interpreter the sandbox cannot run is the grader's.
                Some(message) if self.submission.language == Language::Executable => {
                    Outcome::LoadFailed(LearnerError {
                        kind: "ExecError".into(),
                        message: format!(
                            "{message} (check its #! line and that it is a program for this machine)"
                        ),
                        traceback: String::new(),
                        line: None,
                        op_index: None,
                        errno: None,
                    })
                }
                Some(message) => {
                    return Err(Error::Io {
                        context: format!(
                            "the sandbox could not start {program}",
                            program = self.submission.path.display()
                        ),
                        source: std::io::Error::other(message),
                    });
                }
                None => self.death(status, op_index, exit, true),
            },
            Err(Failure::OutputLimit { limit }) => Outcome::OutputLimit { limit_bytes: limit },
            Err(Failure::Protocol(what)) => Outcome::Protocol(what),
            Err(Failure::Io(e)) => {
                return Err(Error::Io {
                    context: format!(
                        "lost contact with the process grading {}",
                        self.submission.path.display()
                    ),
                    source: e,
                });
            }
        };
        session.kill();
        Ok(Err((outcome, session.take_captured())))
    }

    /// Names a death by its cause: a signal the limits send, or a peak of
    /// memory near the limit when the program was killed or aborted.
    fn death(
        &self,
        status: String,
        op_index: Option<i64>,
        exit: Option<sandbox::SandboxExit>,
        starting: bool,
    ) -> Outcome {
        let limits = self.env.options.limits;
        if let Some(exit) = exit {
            match exit.signal {
                Some(libc::SIGXCPU) => {
                    return Outcome::CpuLimit {
                        seconds: self.cpu_seconds,
                        op_index,
                    };
                }
                Some(libc::SIGXFSZ) => {
                    return Outcome::FileSizeLimit {
                        limit_bytes: limits.file_size_bytes,
                        op_index,
                    };
                }
                _ => {}
            }
            let abnormal = exit.signal.is_some() || exit.code.is_some_and(|c| c != 0);
            let peak = exit.max_rss_kib * 1024;
            if abnormal && peak >= limits.memory_bytes / 2 {
                return Outcome::MemoryLimit {
                    limit_bytes: limits.memory_bytes,
                    peak_bytes: peak,
                    op_index,
                };
            }
        }
        Outcome::Crashed {
            status: exit
                .map(|e| match (e.code, e.signal) {
                    (Some(code), _) => format!("exited with code {code}"),
                    (None, Some(signal)) => session::describe_signal(signal),
                    _ => status.clone(),
                })
                .unwrap_or(status),
            op_index,
            starting,
        }
    }

    fn stop(&mut self) {
        if let Some(mut session) = self.session.take() {
            session.kill();
        }
    }
}

/// Reads a case reply: `{"id", "output": [...]}`, with `"error"` when the
/// learner's code raised.
fn parse_case_reply(message: &Value) -> Result<Outcome, String> {
    let output = message
        .get("output")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| {
            format!(
                "a case reply needs an \"output\" list, got {}",
                preview(&message.to_string())
            )
        })?;
    match message.get("error") {
        None | Some(Value::Null) => Ok(Outcome::Output(output)),
        Some(error) => serde_json::from_value::<LearnerError>(error.clone())
            .map(|error| Outcome::Raised { output, error })
            .map_err(|e| format!("malformed error in a case reply: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_past_its_limit_is_stopped_with_its_children() {
        let mut command = Command::new("sh");
        command.args(["-c", "sleep 30 & sleep 30; echo never"]);
        let started = Instant::now();
        let finished = run_to_end(command, Duration::from_millis(200), 1024).unwrap();
        assert!(finished.timed_out);
        assert!(finished.status.is_none());
        // The background sleep held stdout too: had it survived, joining
        // the reader would have waited for it.
        assert!(started.elapsed() < Duration::from_secs(20));
        assert!(!finished.stdout.contains("never"));
    }

    #[test]
    fn a_flood_is_capped_and_drained_to_the_end() {
        let mut command = Command::new("sh");
        command.args([
            "-c",
            "head -c 5000000 /dev/zero | tr '\\\\0' x; echo; echo done >&2",
        ]);
        let finished = run_to_end(command, Duration::from_secs(30), 1000).unwrap();
        assert!(!finished.timed_out);
        assert!(finished.status.unwrap().success());
        assert_eq!(finished.stdout.len(), 1000);
        assert_eq!(finished.stderr, "done\n");
    }
}
