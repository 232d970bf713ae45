//! Prepare and run: how a submission is started, and the per-submission
//! [`Runner`] that feeds it cases, restarting it after a crash or timeout.

mod session;
mod sys;

pub use session::{Captured, Failure, Session, describe_exit, preview};

use crate::challenge::Case;
use crate::error::Error;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Language {
    Python,
    #[serde(rename = "javascript")]
    JavaScript,
    /// Any program speaking the protocol itself.
    Executable,
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
            "ts" | "mts" | "rs" => {
                return Err(Error::Usage(format!(
                    "{}: .{extension} submissions are not supported by this version of the grader; \
                     submit Python (.py), JavaScript (.js, .cjs, .mjs) or an executable speaking the protocol",
                    path.display()
                )));
            }
            _ => {
                use std::os::unix::fs::PermissionsExt;
                if meta.permissions().mode() & 0o111 != 0 {
                    Language::Executable
                } else {
                    return Err(Error::Usage(format!(
                        "cannot tell the language of {}: expected .py, .js, .cjs, .mjs, \
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

/// What every run shares: the drivers written out once, a scratch folder,
/// and the interpreters found once.
#[derive(Debug)]
pub struct Environment {
    drivers: tempfile::TempDir,
    scratch: tempfile::TempDir,
    python: OnceLock<Result<PathBuf, String>>,
    node: OnceLock<Result<PathBuf, String>>,
}

impl Environment {
    /// Writes the embedded drivers to a fresh temporary folder.
    pub fn new() -> Result<Environment, Error> {
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
        Ok(Environment {
            drivers,
            scratch,
            python: OnceLock::new(),
            node: OnceLock::new(),
        })
    }

    /// The command that serves `submission` over the protocol.
    pub fn command(&self, submission: &Submission) -> Result<Command, Error> {
        let mut command = match submission.language {
            Language::Python => {
                let python =
                    self.interpreter(&self.python, "GRADER_PYTHON", "python3", Language::Python)?;
                let mut c = Command::new(python);
                c.args(["-B", "-s", "-X", "utf8"])
                    .arg(self.drivers.path().join("python_driver.py"));
                c
            }
            Language::JavaScript => {
                let node =
                    self.interpreter(&self.node, "GRADER_NODE", "node", Language::JavaScript)?;
                let mut c = Command::new(node);
                c.arg("--no-warnings")
                    .arg(self.drivers.path().join("node_driver.js"));
                c
            }
            Language::Executable => Command::new(&submission.absolute),
        };
        if submission.language != Language::Executable {
            command.arg(&submission.absolute);
        }
        // A clean environment: no CI secrets, no interpreter options that
        // would change how the learner's code runs.
        command
            .env_clear()
            .env(
                "PATH",
                std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into()),
            )
            .env("LANG", "C.UTF-8")
            .env("HOME", self.scratch.path())
            .env("TMPDIR", self.scratch.path())
            .env("GRADER_PROTOCOL", PROTOCOL.to_string())
            .current_dir(self.scratch.path());
        Ok(command)
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
    /// last said it was running, if it said.
    /// `starting` when it ended before its hello.
    Crashed {
        status: String,
        op_index: Option<i64>,
        starting: bool,
    },
    /// The process broke the protocol.
    Protocol(String),
    /// The module could not be loaded (syntax error, import error, no API).
    LoadFailed(LearnerError),
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
    submission: &'a Submission,
    session: Option<Session>,
    load_failure: Option<(Outcome, Captured)>,
    hello: Option<Hello>,
}

impl<'a> Runner<'a> {
    /// A runner that starts its session on first use.
    pub fn new(env: &'a Environment, submission: &'a Submission) -> Runner<'a> {
        Runner {
            env,
            submission,
            session: None,
            load_failure: None,
            hello: None,
        }
    }

    /// The submission's hello, once a session has started.
    pub fn hello(&self) -> Option<&Hello> {
        self.hello.as_ref()
    }

    /// Runs `case` with wall-clock `limit`.
    pub fn run_case(&mut self, case: &Case, limit: Duration) -> Result<CaseRun, Error> {
        // Start-up is not the case's time: it is paid once, not per case.
        let _ = self.ready()?;
        let started = Instant::now();
        let mut body = Map::new();
        body.insert("case".into(), case.input.clone());
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
            Err(Failure::Died { status, op_index }) => Ok(Err((
                Outcome::Crashed {
                    status,
                    op_index,
                    starting: false,
                },
                captured,
            ))),
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
        let command = self.env.command(self.submission)?;
        let program = command.get_program().to_string_lossy().into_owned();
        let mut session = Session::spawn(command, CAPTURE_CAP).map_err(|source| Error::Runtime {
            hint: match self.submission.language {
                Language::Executable => "check that the file is a program this machine can run (its #! line, its architecture)".into(),
                _ => "check that the interpreter is installed and runnable".into(),
            },
            program,
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
            Err(Failure::Died { status, op_index }) => Outcome::Crashed {
                status,
                op_index,
                starting: true,
            },
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
