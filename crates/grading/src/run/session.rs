//! One child process serving many cases over the protocol, so interpreter
//! start-up is paid once per submission, not once per case.
//!
//! A single thread drives everything with poll(2): writing the request,
//! reading responses, and draining the learner's stdout and stderr (capped,
//! but always drained so the child never blocks on a full pipe). A deadline
//! bounds every wait; nothing here can hang on a misbehaving child.

use super::bound::{ReplyBound, values_in};
pub use super::clock::{Clock, Clocks};
use super::clock::{CpuMeter, FINAL_READING};
use super::lines::Lines;
use super::memory::Sampler;
pub use super::no_reply::NoReply;
pub use super::output::CapturedOutput;
use super::output::{Stream, drain};
use crate::protocol::{At, Violation, preview, preview_value};
use sandbox::SandboxExit;
use sandbox::UidLease;
use serde_json::Value;
use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::process::{Child, ChildStderr, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};
use sys::Interest;

/// How many progress messages a request may bring unasked (see
/// `wait_reply`).
const UNASKED_PROGRESS: usize = 16;
/// How long a child gets to answer a progress query once its time is up.
const PROGRESS_GRACE: Duration = Duration::from_millis(250);
/// How long a child whose response channel closed gets to exit by itself.
const EXIT_GRACE: Duration = Duration::from_millis(200);

/// A running child speaking the protocol.
#[derive(Debug)]
pub struct Session {
    child: Child,
    requests: File,
    responses: File,
    control: File,
    stdout: Stream<ChildStdout>,
    stderr: Stream<ChildStderr>,
    dropped: u64,
    cap: usize,
    /// Bytes printed during the current request, and the most allowed.
    printed: u64,
    output_limit: u64,
    /// Closing it tells the sandbox's init to end everything it runs.
    shutdown: Option<File>,
    /// The sandbox's status channel and what it said.
    status: Option<File>,
    status_inbox: Vec<u8>,
    exit: Option<SandboxExit>,
    sandbox_error: Option<String>,
    inbox: Lines,
    responses_open: bool,
    last_progress: Option<At>,
    next_id: u64,
    memory: Sampler,
    memory_limit: u64,
    /// The CPU time of the current request.
    cpu: CpuMeter,
    /// When the current request (or the start) began, and the tree's CPU
    /// time and wait for a CPU then.
    since: starved::Since,
    _lease: Option<UidLease>,
    _live: Option<sandbox::Live>,
}

impl Session {
    /// Spawns `command` with the protocol descriptors attached, keeping at
    /// most `cap` bytes of each output stream per request.
    /// The child is killed once it prints more than `output_limit` bytes
    /// during one request, and once its processes together hold more than
    /// `memory_limit` bytes.
    /// `lease` is held as long as the session: its uid is the session's;
    /// `group`, the cgroup `command` joins when it starts, keeps its
    /// accounts; `live` counts it among the live sessions.
    pub fn spawn(
        mut command: Command,
        cap: usize,
        (output_limit, memory_limit): (u64, u64),
        lease: Option<UidLease>,
        group: Option<sandbox::Group>,
        live: Option<sandbox::Live>,
    ) -> io::Result<Session> {
        let (req_read, req_write) = io::pipe()?;
        let (resp_read, resp_write) = io::pipe()?;
        let (ctl_read, ctl_write) = io::pipe()?;
        // The child's end of the progress channel does not block: a Node
        // worker blocked in read(2) would stop the process from exiting.
        sys::set_nonblocking(ctl_read.as_fd())?;
        let (status_read, status_write) = io::pipe()?;
        let (shutdown_read, shutdown_write) = io::pipe()?;
        command
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = sys::spawn_with_fds(
            &mut command,
            [
                OwnedFd::from(req_read),
                OwnedFd::from(resp_write),
                OwnedFd::from(ctl_read),
                OwnedFd::from(status_write),
                OwnedFd::from(shutdown_read),
            ],
        )?;
        let pid = child.id();
        let requests = File::from(OwnedFd::from(req_write));
        let responses = File::from(OwnedFd::from(resp_read));
        let control = File::from(OwnedFd::from(ctl_write));
        let status = File::from(OwnedFd::from(status_read));
        let stdout = child.stdout.take().expect("stdout is piped");
        let stderr = child.stderr.take().expect("stderr is piped");
        for fd in [
            requests.as_fd(),
            responses.as_fd(),
            control.as_fd(),
            status.as_fd(),
            stdout.as_fd(),
            stderr.as_fd(),
        ] {
            sys::set_nonblocking(fd)?;
        }
        Ok(Session {
            child,
            requests,
            responses,
            control,
            stdout: Stream {
                pipe: Some(stdout),
                kept: Vec::new(),
            },
            stderr: Stream {
                pipe: Some(stderr),
                kept: Vec::new(),
            },
            dropped: 0,
            cap,
            printed: 0,
            output_limit,
            shutdown: Some(File::from(OwnedFd::from(shutdown_write))),
            status: Some(status),
            status_inbox: Vec::new(),
            exit: None,
            sandbox_error: None,
            inbox: Lines::default(),
            responses_open: true,
            last_progress: None,
            next_id: 1,
            memory: Sampler::new(pid, memory_limit, group),
            memory_limit,
            cpu: CpuMeter::default(),
            // A new tree has used and waited for nothing yet.
            since: starved::Since::now(Some(Duration::ZERO), Some(Duration::ZERO)),
            _lease: lease,
            _live: live,
        })
    }

    /// Waits for the first message the child sends unasked (the hello).
    pub fn first_message(&mut self, deadline: Instant) -> Result<Value, NoReply> {
        self.last_progress = None;
        self.printed = 0;
        self.cpu = CpuMeter::default();
        self.wait_reply(&mut Vec::new(), deadline, None, ReplyBound::START)
    }

    /// Sends `body` (an object without `id`) as a request and waits for the
    /// reply with the same id until the session's processes have used
    /// `clocks.cpu` of CPU time since, or `clocks.deadline` passes. A reply
    /// that comes after more CPU time than that is a time-out too. A line
    /// longer than `bound` allows is not read further: it breaks the
    /// protocol.
    pub fn request(
        &mut self,
        mut body: serde_json::Map<String, Value>,
        clocks: Clocks,
        bound: ReplyBound,
    ) -> Result<Value, NoReply> {
        let deadline = clocks.deadline;
        let now = self.memory.cpu_and_wait(&sys::Deadline::at(deadline));
        self.cpu = CpuMeter::start(clocks.cpu, now.map(|(cpu, _)| cpu));
        // A reading the machine's load cut short leaves the last one
        // standing: what the session ran and waited, and the wall clock,
        // then count from that earlier reading (the wall clock from the
        // first byte of its request, see `Since::delivered`).
        if let Some((cpu, waited)) = now {
            self.since = starved::Since::now(Some(cpu), waited);
        }
        let id = self.next_id;
        self.next_id += 1;
        body.insert("id".into(), Value::from(id));
        let mut pending = serde_json::to_vec(&body).map_err(|e| NoReply::Io(e.into()))?;
        pending.push(b'\n');
        self.last_progress = None;
        self.printed = 0;
        self.wait_reply(&mut pending, deadline, Some(id), bound)
    }

    /// The CPU time the session's processes used during the last request,
    /// as last measured.
    pub fn cpu_used(&self) -> Duration {
        self.cpu.used()
    }

    /// Samples the tree when due: its memory against the limit, its CPU
    /// time against the request's.
    fn watch(&mut self, now: Instant, deadline: Instant) -> Result<(), NoReply> {
        let Some(reading) = self.memory.due(now, deadline) else {
            return Ok(());
        };
        self.cpu.note(reading.cpu);
        if let Some(held) = reading.over {
            self.kill();
            self.drain_output();
            return Err(NoReply::MemoryLimit {
                held,
                limit: self.memory_limit,
                op_index: self.last_progress,
            });
        }
        Ok(())
    }

    /// The output printed since the last call.
    pub fn take_captured(&mut self) -> CapturedOutput {
        let captured = CapturedOutput {
            stdout: String::from_utf8_lossy(&self.stdout.kept).into_owned(),
            stderr: String::from_utf8_lossy(&self.stderr.kept).into_owned(),
            dropped_bytes: self.dropped,
        };
        self.stdout.kept.clear();
        self.stderr.kept.clear();
        self.dropped = 0;
        captured
    }

    /// Kills the child's whole process group and reaps the child.
    /// Ends the session: first asks the sandbox's init to kill everything
    /// it runs (it alone can find processes that left the process group,
    /// when there is no PID namespace), then kills the group to be sure.
    pub fn kill(&mut self) {
        drop(self.shutdown.take());
        let until = Instant::now() + EXIT_GRACE;
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        sys::kill_group(self.child.id());
        let _ = self.child.wait();
        // What left the process group and the sandbox's tree (without a
        // PID namespace) is still in the cgroup.
        if let Some(group) = self.memory.group() {
            group.kill_all(EXIT_GRACE);
        }
    }

    fn wait_reply(
        &mut self,
        pending: &mut Vec<u8>,
        deadline: Instant,
        id: Option<u64>,
        bound: ReplyBound,
    ) -> Result<Value, NoReply> {
        // Progress messages answer queries, and none is asked before the
        // deadline: a few unasked ones are a driver's last word before an
        // exit, more are a flood, which ends the case at once.
        let mut unasked = 0;
        loop {
            match self.next_message(pending, deadline, bound)? {
                Some(message) => {
                    if let Some(p) = message.get("progress") {
                        self.last_progress = p
                            .get("op_index")
                            .and_then(Value::as_i64)
                            .and_then(At::from_wire);
                        unasked += 1;
                        if unasked > UNASKED_PROGRESS {
                            return Err(self.protocol_failure(Violation::UnaskedProgress {
                                limit: UNASKED_PROGRESS,
                                at: self.last_progress,
                            }));
                        }
                        // A reply read in time counts; a flood of progress
                        // lines stops neither clock.
                        self.watch(Instant::now(), deadline)?;
                        if Instant::now() < deadline && !self.cpu.over() {
                            continue;
                        }
                        let starved = self.starved();
                        let clock = self.cpu.clock();
                        self.kill();
                        self.drain_output();
                        if let Some(why) = starved {
                            return Err(NoReply::Starved(why));
                        }
                        return Err(NoReply::TimedOut {
                            op_index: self.last_progress,
                            clock,
                        });
                    }
                    if let Some(id) = id
                        && message.get("id").and_then(Value::as_u64) != Some(id)
                    {
                        return Err(self.protocol_failure(Violation::WrongReply {
                            id,
                            got: preview_value(&message),
                        }));
                    }
                    // Measured once more as the reply comes: the verdict
                    // is the CPU time the case took, not the last sample.
                    if self.cpu.limited()
                        && let Some(total) =
                            self.memory.cpu(&sys::Deadline::own_time(FINAL_READING))
                    {
                        self.cpu.note(total);
                    }
                    if self.cpu.over() {
                        self.kill();
                        self.drain_output();
                        return Err(NoReply::TimedOut {
                            op_index: self.last_progress,
                            clock: Clock::Cpu,
                        });
                    }
                    self.drain_output();
                    return Ok(message);
                }
                None => {
                    // A process the kernel killed for memory (a child the
                    // program waits for in vain) is the memory-limit,
                    // whichever clock then ran out.
                    if let Some(group) = self.memory.group()
                        && group.oom_killed()
                    {
                        let held = group.peak().unwrap_or(0).max(self.memory_limit + 1);
                        self.kill();
                        self.drain_output();
                        return Err(NoReply::MemoryLimit {
                            held,
                            limit: self.memory_limit,
                            op_index: self.last_progress,
                        });
                    }
                    // Out of time: ask what was running, give the child a
                    // moment to say, then end it. The CPU limit is done
                    // with: the moment is for answering.
                    if let Some(why) = self.starved() {
                        self.kill();
                        self.drain_output();
                        return Err(NoReply::Starved(why));
                    }
                    let clock = self.cpu.clock();
                    self.cpu.unlimit();
                    let _ = self.control.write(b"?\n");
                    let grace = Instant::now() + PROGRESS_GRACE;
                    while let Ok(Some(message)) = self.next_message(&mut Vec::new(), grace, bound) {
                        if let Some(p) = message.get("progress") {
                            self.last_progress = p
                                .get("op_index")
                                .and_then(Value::as_i64)
                                .and_then(At::from_wire);
                            break;
                        }
                    }
                    self.kill();
                    self.drain_output();
                    return Err(NoReply::TimedOut {
                        op_index: self.last_progress,
                        clock,
                    });
                }
            }
        }
    }

    /// The next complete message, or `None` once `deadline` passes.
    fn next_message(
        &mut self,
        pending: &mut Vec<u8>,
        deadline: Instant,
        bound: ReplyBound,
    ) -> Result<Option<Value>, NoReply> {
        loop {
            if let Some(line) = self.inbox.next_line() {
                if line.len() > bound.bytes {
                    return Err(self.too_long(bound));
                }
                // Counting first bounds what parsing costs, whatever the
                // shape: a line of `[0,0,...]` is a value per two bytes.
                let values = values_in(&line);
                if values > bound.values {
                    return Err(self.protocol_failure(Violation::TooManyValues {
                        answering: bound.what,
                        values,
                        bound: bound.values,
                    }));
                }
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    // However fast empty lines come, time runs out.
                    self.watch(Instant::now(), deadline)?;
                    if Instant::now() >= deadline || self.cpu.over() {
                        return Ok(None);
                    }
                    continue;
                }
                return match serde_json::from_str::<Value>(&text) {
                    Ok(message) if message.is_object() => Ok(Some(message)),
                    _ => Err(self.protocol_failure(Violation::NotAnObject {
                        line: preview(&text),
                    })),
                };
            }
            if !self.responses_open {
                return Err(self.died());
            }
            if self.inbox.unread() > bound.bytes {
                return Err(self.too_long(bound));
            }
            let now = Instant::now();
            if now >= deadline {
                // A reply the child wrote while the grader itself waited
                // for a CPU is read before the clock is called: the
                // machine's delay is not the child's.
                self.read_responses(bound.bytes).map_err(NoReply::Io)?;
                if self.inbox.has_line() {
                    continue;
                }
                return Ok(None);
            }
            self.watch(now, deadline)?;
            if self.cpu.over() {
                return Ok(None);
            }
            // Wake at least every 100 ms to notice a child that died while
            // something else still holds its response channel open, and
            // when the memory and CPU time are to be sampled.
            let timeout = (deadline - now)
                .min(Duration::from_millis(100))
                .min(self.memory.due_in(now));
            let mut interests = vec![Interest {
                fd: self.responses.as_raw_fd(),
                read: true,
                write: false,
            }];
            if !pending.is_empty() {
                interests.push(Interest {
                    fd: self.requests.as_raw_fd(),
                    read: false,
                    write: true,
                });
            }
            for fd in [
                self.stdout.pipe.as_ref().map(|p| p.as_raw_fd()),
                self.stderr.pipe.as_ref().map(|p| p.as_raw_fd()),
                self.status.as_ref().map(|p| p.as_raw_fd()),
            ]
            .into_iter()
            .flatten()
            {
                interests.push(Interest {
                    fd,
                    read: true,
                    write: false,
                });
            }
            let ready = sys::poll(&interests, timeout).map_err(NoReply::Io)?;
            if ready
                .iter()
                .all(|r| !r.readable && !r.writable && !r.closed)
            {
                if let Ok(Some(_)) = self.child.try_wait() {
                    self.read_responses(bound.bytes).map_err(NoReply::Io)?;
                    if !self.inbox.has_line() {
                        return Err(self.died());
                    }
                }
                continue;
            }
            self.drain_output();
            self.read_status();
            if self.printed > self.output_limit {
                self.kill();
                self.drain_output();
                return Err(NoReply::OutputLimit {
                    limit: self.output_limit,
                });
            }
            if !pending.is_empty() {
                match self.requests.write(pending) {
                    Ok(n) => {
                        // The program can start on the request only now: a
                        // grader the machine kept waiting before its first
                        // write is no wait of the program's. (Only the
                        // first: how fast the program reads the rest is
                        // its own doing, and a program that reads slowly
                        // must not choose when its time begins.)
                        if n > 0 {
                            self.since.delivered();
                        }
                        pending.drain(..n);
                    }
                    Err(e) if e.kind() == io::ErrorKind::WouldBlock => {}
                    // The child closed its request channel: it is dying;
                    // the response side will say how.
                    Err(e) if e.kind() == io::ErrorKind::BrokenPipe => pending.clear(),
                    Err(e) => return Err(NoReply::Io(e)),
                }
            }
            self.read_responses(bound.bytes).map_err(NoReply::Io)?;
        }
    }

    /// Reads the response channel until it would block, or until more than
    /// `limit` bytes wait unread: what is past a bound is never buffered.
    fn read_responses(&mut self, limit: usize) -> io::Result<()> {
        let mut buf = [0u8; 64 * 1024];
        while self.responses_open && self.inbox.unread() <= limit {
            match self.responses.read(&mut buf) {
                Ok(0) => self.responses_open = false,
                Ok(n) => self.inbox.extend(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        Ok(())
    }

    /// Reads whatever the child has printed, keeping up to the cap.
    fn drain_output(&mut self) {
        let cap = self.cap;
        let before = self.stdout.kept.len() + self.stderr.kept.len();
        let dropped = drain(&mut self.stdout, cap) + drain(&mut self.stderr, cap);
        let kept = (self.stdout.kept.len() + self.stderr.kept.len()).saturating_sub(before);
        self.dropped += dropped;
        self.printed += kept as u64 + dropped;
    }

    /// A reply line longer than `bound`: the child is stopped, the rest of
    /// the line never read.
    fn too_long(&mut self, bound: ReplyBound) -> NoReply {
        self.protocol_failure(Violation::TooLong {
            answering: bound.what,
            bytes: bound.bytes,
            error_room: super::ERROR_ROOM,
        })
    }

    fn protocol_failure(&mut self, what: Violation) -> NoReply {
        self.kill();
        self.drain_output();
        NoReply::Protocol(what)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

mod ended;
mod starved;
#[cfg(test)]
mod tests;
