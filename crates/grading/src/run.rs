//! Run: the per-submission [`Runner`] that feeds a prepared program its
//! cases in a session, restarting it after a crash or timeout. Preparing
//! the program (transpiling, compiling) happened before, in `lang`.

mod bound;
mod clock;
mod lines;
mod memory;
mod no_reply;
mod output;
mod session;

pub use bound::{ERROR_ROOM, ReplyBound};
pub use clock::{Clock, Clocks, backstop};
pub use session::{CapturedOutput, NoReply, Session};

use crate::challenge::Case;
use crate::error::Error;
use crate::protocol::{
    self, At, ErrorKind, Hello, LearnerException, Message, PROTOCOL, Violation, preview_value,
};
use crate::unbuilt::Unbuilt;
use sandbox::{BuildCost, Ended, Environment, Program};

use serde_json::{Map, Value};
use std::time::{Duration, Instant};

/// Bytes of each output stream kept per case.
pub const CAPTURE_CAP: usize = 16 * 1024;
/// How long a submission may take to load before its first case.
pub const STARTUP_LIMIT: Duration = Duration::from_secs(10);

/// How one case ran, before judging.
#[derive(Debug, Clone, PartialEq)]
pub enum CaseOutcome {
    /// The case ran to the end.
    Output(Vec<Value>),
    /// The learner's code raised; `output` holds the results before it.
    Raised {
        output: Vec<Value>,
        error: LearnerException,
    },
    /// The case used more than its `limit` of CPU time, or waited past
    /// the wall-clock backstop of that limit: `clock` says which.
    TimedOut {
        limit: Duration,
        clock: Clock,
        op_index: Option<At>,
    },
    /// The process ended without answering; `op_index` is the operation it
    /// last said it was running, if it said; `starting` when it ended
    /// before its hello.
    Crashed {
        status: Ended,
        op_index: Option<At>,
        starting: bool,
    },
    /// The process ran out of memory: killed or aborted with a peak near
    /// the limit.
    MemoryLimit {
        limit_bytes: u64,
        peak_bytes: u64,
        op_index: Option<At>,
    },
    /// The session's processes together held more memory than the limit,
    /// shared memory counted (sampled while it ran).
    SharedMemoryLimit {
        limit_bytes: u64,
        held_bytes: u64,
        op_index: Option<At>,
    },
    /// The session used up its CPU time (SIGXCPU at the soft limit).
    CpuLimit { seconds: u64, op_index: Option<At> },
    /// The process wrote a file past the file size limit (SIGXFSZ).
    FileSizeLimit {
        limit_bytes: u64,
        op_index: Option<At>,
    },
    /// The process printed more than the output limit during one case.
    OutputLimit { limit_bytes: u64 },
    /// The process broke the protocol.
    Protocol(Violation),
    /// The module could not be loaded (syntax error, import error, no API).
    LoadFailed(LearnerException),
    /// The submission does not compile (TypeScript syntax, rustc errors).
    CompileFailed(LearnerException),
    /// No hello within [`STARTUP_LIMIT`]: a module still loading, or a
    /// program (`executable`) that never greets.
    LoadTimedOut { executable: bool },
}

impl CaseOutcome {
    /// The outcome with every place the program named (its `op_index`)
    /// past the case's `ops` operations taken as not known: a program may
    /// say anything, and "operation 1000000000000000000" of a case of ten
    /// is nothing a report may repeat.
    fn within(mut self, ops: usize) -> CaseOutcome {
        if let Some(at) = self.at_mut() {
            *at = at.filter(|at| at.op().is_none_or(|i| i < ops));
        }
        self
    }

    /// Where the program said it was, in the outcomes that tell it.
    fn at_mut(&mut self) -> Option<&mut Option<At>> {
        match self {
            CaseOutcome::Raised { error, .. } => Some(&mut error.op_index),
            CaseOutcome::TimedOut { op_index, .. }
            | CaseOutcome::Crashed { op_index, .. }
            | CaseOutcome::MemoryLimit { op_index, .. }
            | CaseOutcome::SharedMemoryLimit { op_index, .. }
            | CaseOutcome::CpuLimit { op_index, .. }
            | CaseOutcome::FileSizeLimit { op_index, .. } => Some(op_index),
            CaseOutcome::Protocol(Violation::UnaskedProgress { at, .. }) => Some(at),
            _ => None,
        }
    }
}

/// One case's run: its outcome, what it printed, how long it took on the
/// wall clock and in CPU time (of all the session's processes).
#[derive(Debug, Clone)]
pub struct CaseRun {
    pub outcome: CaseOutcome,
    pub captured: CapturedOutput,
    pub elapsed: Duration,
    pub cpu: Duration,
}

/// Runs one submission's cases in a session, restarting it when a case
/// kills it. A failure to start is remembered: it would only repeat.
pub struct Runner<'a> {
    env: &'a Environment,
    program: Option<Program>,
    cpu_seconds: u64,
    session: Option<Session>,
    load_failure: Option<(CaseOutcome, CapturedOutput)>,
    hello: Option<Hello>,
    /// The CPU time the last request used.
    last_cpu: Duration,
    /// The hash seed its sessions get (see [`Runner::with_seed`]).
    seed: u32,
}

/// The hash seed of a submission's sessions: fixed, so that code whose
/// answers hang on it (Python's `hash()` of a str, a set's order) answers
/// the same each time the same files are graded.
pub const SEED: u32 = 0;
/// The seeds of the runs that look for answers changing between runs
/// (`grade::Grading::second_opinion`): each is a fresh process.
pub const SECOND_OPINION_SEEDS: [u32; 5] = [1, 2, 3, 4, 5];

impl<'a> Runner<'a> {
    /// A runner of the `prepared` program that starts its session on first
    /// use; each session gets `cpu_seconds` of CPU time. A program that did
    /// not compile (`Err`) fails every case with its compile error.
    pub fn new(
        env: &'a Environment,
        prepared: Result<Program, LearnerException>,
        cpu_seconds: u64,
    ) -> Runner<'a> {
        let (program, load_failure) = match prepared {
            Ok(program) => (Some(program), None),
            Err(error) => (
                None,
                Some((CaseOutcome::CompileFailed(error), CapturedOutput::default())),
            ),
        };
        Runner {
            env,
            program,
            cpu_seconds,
            session: None,
            load_failure,
            hello: None,
            last_cpu: Duration::ZERO,
            seed: SEED,
        }
    }

    /// The same runner with sessions seeded with `seed` (`PYTHONHASHSEED`
    /// for Python, which salts `hash()` of a str and so a set's order).
    pub fn with_seed(mut self, seed: u32) -> Runner<'a> {
        self.seed = seed;
        self
    }

    /// A runner of the same program with sessions seeded with `seed`.
    /// (None when it has no program: it did not compile.)
    pub fn fresh(&self, seed: u32) -> Option<Runner<'a>> {
        let program = self.program.clone()?;
        Some(Runner::new(self.env, Ok(program), self.cpu_seconds).with_seed(seed))
    }

    /// The hash seed its sessions get.
    pub fn seed(&self) -> u32 {
        self.seed
    }

    /// The program it runs, unless it did not compile.
    pub fn program(&self) -> Option<&Program> {
        self.program.as_ref()
    }

    /// What preparing the submission cost, for compiled languages.
    pub fn build(&self) -> Option<BuildCost> {
        self.program.as_ref().and_then(|p| p.build)
    }

    /// The program as the user named it.
    fn name(&self) -> &str {
        self.program.as_ref().map_or("", |p| p.name.as_str())
    }

    /// The submission's hello, once a session has started.
    pub fn hello(&self) -> Option<&Hello> {
        self.hello.as_ref()
    }

    /// Runs `case` with `limit` of CPU time and `wall` of wall-clock time
    /// (less than the backstop: a share of the time its group shares).
    pub fn run_case_within(
        &mut self,
        case: &Case,
        limit: Duration,
        wall: Duration,
    ) -> Result<CaseRun, Error> {
        self.run_input_within(&case.input, ReplyBound::for_case(case), limit, wall)
    }

    /// Runs the case `[args, ops]` in `input` (already checked) with
    /// `limit` of CPU time (and its wall-clock backstop), reading a reply no longer than `bound` (the
    /// bound of a case with the same names and operations).
    pub fn run_input(
        &mut self,
        input: &Value,
        bound: ReplyBound,
        limit: Duration,
    ) -> Result<CaseRun, Error> {
        self.run_input_within(input, bound, limit, backstop(limit))
    }

    /// [`Runner::run_input`] with `wall` of wall-clock time in place of the
    /// backstop.
    pub fn run_input_within(
        &mut self,
        input: &Value,
        bound: ReplyBound,
        limit: Duration,
        wall: Duration,
    ) -> Result<CaseRun, Error> {
        // Start-up is not the case's time: it is paid once, not per case.
        let _ = self.ready()?;
        let started = Instant::now();
        self.last_cpu = Duration::ZERO;
        let mut body = Map::new();
        body.insert("case".into(), input.clone());
        let ops = input.get(1).and_then(Value::as_array).map_or(0, Vec::len);
        let reply = match self.exchange(body, limit, wall, bound)? {
            Ok(reply) => reply,
            Err((outcome, captured)) => {
                return Ok(CaseRun {
                    outcome: outcome.within(ops),
                    captured,
                    elapsed: started.elapsed(),
                    cpu: self.last_cpu,
                });
            }
        };
        let (message, captured) = reply;
        let outcome = match protocol::parse_case_reply(message) {
            Ok(protocol::CaseReply {
                output,
                error: None,
            }) => CaseOutcome::Output(output),
            Ok(protocol::CaseReply {
                output,
                error: Some(error),
            }) => CaseOutcome::Raised { output, error },
            Err(what) => {
                self.stop();
                CaseOutcome::Protocol(what)
            }
        };
        Ok(CaseRun {
            outcome: outcome.within(ops),
            captured,
            elapsed: started.elapsed(),
            cpu: self.last_cpu,
        })
    }

    /// The submission's own h32 of each text, if it exposes one and answers
    /// within `limit` of CPU time (and its backstop); entries that are not 32-bit integers stay as given.
    pub fn hash(&mut self, texts: &[String], limit: Duration) -> Result<Option<Vec<Value>>, Error> {
        if !self.hello.as_ref().is_some_and(|h| h.h32) {
            return Ok(None);
        }
        let mut body = Map::new();
        body.insert("h32".into(), Value::from(texts.to_vec()));
        Ok(
            match self.exchange(body, limit, backstop(limit), ReplyBound::for_hash(texts))? {
                Ok((mut message, _)) => match message.get_mut("h32").map(Value::take) {
                    Some(Value::Array(values)) if values.len() == texts.len() => Some(values),
                    _ => None,
                },
                Err(_) => None,
            },
        )
    }

    /// Sends one request, starting a session if needed. The inner `Err` is
    /// the outcome to report when no reply came.
    #[allow(clippy::type_complexity)]
    fn exchange(
        &mut self,
        body: Map<String, Value>,
        limit: Duration,
        wall: Duration,
        bound: ReplyBound,
    ) -> Result<Result<(Value, CapturedOutput), (CaseOutcome, CapturedOutput)>, Error> {
        if let Err(failure) = self.ready()? {
            return Ok(Err(failure));
        }
        let mut session = self.session.take().expect("ready() leaves a session");
        let clocks = Clocks {
            cpu: limit,
            deadline: Instant::now() + wall,
        };
        let result = session.request(body, clocks, bound);
        let captured = session.take_captured();
        self.last_cpu = session.cpu_used();
        match result {
            Ok(message) => {
                self.session = Some(session);
                Ok(Ok((message, captured)))
            }
            Err(failure) => {
                let outcome = self.outcome_of(failure, limit)?;
                Ok(Err((outcome, captured)))
            }
        }
    }

    /// Starts a session unless one is running; a failure to start is
    /// remembered and returned from then on.
    fn ready(&mut self) -> Result<Result<(), (CaseOutcome, CapturedOutput)>, Error> {
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

    /// Spawns the program's session.
    fn spawn(&self) -> Result<Session, Error> {
        let program = self
            .program
            .as_ref()
            .expect("a runner without a program has a load failure");
        let mut contained = self.env.session_command(program, self.cpu_seconds)?;
        contained
            .command
            .env("GRADER_PROTOCOL", crate::protocol::PROTOCOL.to_string())
            // Python salts str hashes per process unless told the seed.
            .env("PYTHONHASHSEED", self.seed.to_string());
        let limits = self.env.limits();
        let live = Some(self.env.live().holding(contained.ticket));
        Session::spawn(
            contained.command,
            CAPTURE_CAP,
            (limits.output_bytes, limits.memory_bytes),
            contained.lease,
            contained.group,
            live,
        )
        .map_err(|source| Error::Runtime {
            program: program.program.display().to_string(),
            hint: "check that the grader binary can be run again (the sandbox shim is the grader itself)".into(),
            source,
        })
    }

    fn start(&mut self) -> Result<Result<Session, (CaseOutcome, CapturedOutput)>, Error> {
        let mut session = self.spawn()?;
        // The probe ran beside the start; a probe that failed is the
        // grader's fault, known before any verdict.
        self.env.layers()?;
        let own_program = self.program.as_ref().is_some_and(|p| p.own_program);
        let announces = self.program.as_ref().is_some_and(|p| p.announces);
        // What the module prints while loading stays in the session's
        // buffer and shows with the first case, unless loading fails.
        let deadline = Instant::now() + STARTUP_LIMIT;
        let mut first = session.first_message(deadline);
        let announced = first.as_ref().is_ok_and(|m| m.get("loading").is_some());
        if announced {
            first = session.first_message(deadline);
        } else if announces && let Err(failure) = first {
            // Our driver ended or stalled before its first line: the
            // interpreter could not start (a sandbox it cannot run in, a
            // broken installation, a machine too busy). The learner's
            // code never ran, so no verdict is theirs.
            let captured = session.take_captured();
            session.kill();
            return Err(self.not_started(failure, &captured));
        }
        let outcome = match first {
            Ok(message) => {
                if let Some(hello) = message.get("hello") {
                    match serde_json::from_value::<Hello>(hello.clone()) {
                        Ok(hello) if hello.protocol == PROTOCOL => {
                            self.hello = Some(hello);
                            return Ok(Ok(session));
                        }
                        Ok(hello) => CaseOutcome::Protocol(Violation::Version {
                            spoken: hello.protocol,
                        }),
                        Err(e) => CaseOutcome::Protocol(Violation::Malformed {
                            message: Message::Hello,
                            error: e.to_string(),
                        }),
                    }
                } else if let Some(error) = message.get("load_error") {
                    match serde_json::from_value::<LearnerException>(error.clone()) {
                        Ok(error) => CaseOutcome::LoadFailed(error),
                        Err(e) => CaseOutcome::Protocol(Violation::Malformed {
                            message: Message::LoadError,
                            error: e.to_string(),
                        }),
                    }
                } else {
                    CaseOutcome::Protocol(Violation::NotHello {
                        got: preview_value(&message),
                    })
                }
            }
            Err(NoReply::TimedOut { .. }) => CaseOutcome::LoadTimedOut {
                executable: own_program,
            },
            Err(NoReply::Died {
                status,
                op_index,
                exit,
                sandbox_error,
            }) => match sandbox_error {
                // An executable that cannot be run is its author's problem;
                // an interpreter the sandbox cannot run is the grader's.
                Some(message) if own_program => CaseOutcome::LoadFailed(LearnerException {
                    unbuilt: Some(Box::new(Unbuilt::NotRunnable)),
                    ..LearnerException::new(ErrorKind::ExecError, message)
                }),
                Some(message) => {
                    return Err(Error::Io {
                        context: format!("the sandbox could not start {}", self.name()),
                        source: std::io::Error::other(message),
                    });
                }
                None => self.death(status, op_index, exit, true),
            },
            Err(failure) => self.outcome_of(failure, STARTUP_LIMIT)?,
        };
        session.kill();
        Ok(Err((outcome, session.take_captured())))
    }

    /// What a session's failure to answer a request within `limit` means:
    /// the learner's outcome, or the grader's fault. (While loading, a
    /// time-out and a death mean more; [`Runner::start`] reads those
    /// first.)
    fn outcome_of(&self, failure: NoReply, limit: Duration) -> Result<CaseOutcome, Error> {
        Ok(match failure {
            NoReply::TimedOut { op_index, clock } => CaseOutcome::TimedOut {
                limit,
                clock,
                op_index,
            },
            NoReply::Died {
                status,
                op_index,
                exit,
                sandbox_error: _,
            } => self.death(status, op_index, exit, false),
            NoReply::OutputLimit { limit } => CaseOutcome::OutputLimit { limit_bytes: limit },
            NoReply::MemoryLimit {
                held,
                limit,
                op_index,
            } => CaseOutcome::SharedMemoryLimit {
                limit_bytes: limit,
                held_bytes: held,
                op_index,
            },
            NoReply::Protocol(what) => CaseOutcome::Protocol(what),
            NoReply::Starved(why) => return Err(Error::Busy(why)),
            NoReply::Io(e) => return Err(self.lost_contact(e)),
        })
    }

    fn lost_contact(&self, source: std::io::Error) -> Error {
        Error::Io {
            context: format!("lost contact with the process grading {}", self.name()),
            source,
        }
    }

    /// The grader's fault of an interpreter that ended, or never spoke,
    /// before our driver's first message.
    fn not_started(&self, failure: NoReply, captured: &CapturedOutput) -> Error {
        let how = match failure {
            NoReply::Died {
                sandbox_error: Some(message),
                ..
            } => format!("could not be started by the sandbox ({message})"),
            NoReply::Died { status, .. } => format!("{status} before the grader's driver began"),
            NoReply::TimedOut { .. } => format!(
                "did not reach the grader's driver within {} s",
                STARTUP_LIMIT.as_secs()
            ),
            NoReply::Starved(why) => return Error::Busy(why),
            NoReply::Io(e) => return self.lost_contact(e),
            other => format!("ended before the grader's driver began ({other:?})"),
        };
        // The end of what it printed says why ("Fatal Python error: ...").
        let stderr = captured.stderr.trim();
        let tail = stderr
            .char_indices()
            .rev()
            .nth(399)
            .map_or(stderr, |(at, _)| &stderr[at..]);
        let said = tail.split_whitespace().collect::<Vec<_>>().join(" ");
        Error::Io {
            context: format!(
                "the interpreter for {} {how}, so none of the submission ran (check the interpreter, e.g. GRADER_PYTHON or GRADER_NODE, and the sandbox on this machine)",
                self.name()
            ),
            source: std::io::Error::other(if said.is_empty() {
                "it printed nothing".to_owned()
            } else {
                format!("it printed: {said}")
            }),
        }
    }

    /// Names a death by its cause: a signal the limits send, or a peak of
    /// memory near the limit when the program was killed or aborted.
    fn death(
        &self,
        status: Ended,
        op_index: Option<At>,
        exit: Option<sandbox::SandboxExit>,
        starting: bool,
    ) -> CaseOutcome {
        let limits = self.env.limits();
        if let Some(exit) = exit {
            match exit.signal {
                Some(libc::SIGXCPU) => {
                    return CaseOutcome::CpuLimit {
                        seconds: self.cpu_seconds,
                        op_index,
                    };
                }
                Some(libc::SIGXFSZ) => {
                    return CaseOutcome::FileSizeLimit {
                        limit_bytes: limits.file_size_bytes,
                        op_index,
                    };
                }
                _ => {}
            }
            let abnormal = exit.signal.is_some() || exit.code.is_some_and(|c| c != 0);
            let peak = exit.max_rss_kib * 1024;
            if abnormal && peak >= limits.memory_bytes / 2 {
                return CaseOutcome::MemoryLimit {
                    limit_bytes: limits.memory_bytes,
                    peak_bytes: peak,
                    op_index,
                };
            }
        }
        CaseOutcome::Crashed {
            status: exit
                .and_then(|e| Ended::from_parts(e.code, e.signal))
                .unwrap_or(status),
            op_index,
            starting,
        }
    }

    /// Ends the session: the next case starts the program afresh, with
    /// nothing of what it did before.
    pub fn restart(&mut self) {
        self.stop();
    }

    fn stop(&mut self) {
        if let Some(mut session) = self.session.take() {
            session.kill();
        }
    }
}
