//! One grading of the watched file: `grader grade --format json --events`
//! run as a child process, so that a newer save can stop it at any moment
//! (its sessions die with it) and nothing it does can take `watch` down.
//! Its events (every test as it ends, the first failure in full) come on
//! its standard error as they happen.

use report::Report;
use report::{EVENT_PREFIX, Event};
use std::ffi::OsString;
use std::io::{BufRead, Read};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread::JoinHandle;

/// A grading of the watched file under way.
pub struct Regrading {
    child: Child,
    stdout: Option<JoinHandle<Vec<u8>>>,
    /// What the grader said on standard error that is not an event.
    stderr: Option<JoinHandle<Vec<u8>>>,
    events: Receiver<Event>,
}

/// How a grading ended.
pub enum Ended {
    /// The report, with the grader's warnings.
    Graded(Box<Report>, Vec<String>),
    /// No report: what the grader said instead.
    Failed(String),
}

impl Regrading {
    /// Starts `program` with `args`.
    pub fn start(program: &Path, args: &[OsString]) -> std::io::Result<Regrading> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            // Out of the terminal's group: Ctrl-C is watch's to handle.
            .process_group(0);
        sys::kill_child_with_parent(&mut command);
        let mut child = command.spawn()?;
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = child.stdout.take().map(|p| drain(Box::new(p)));
        let (send, events) = channel();
        let stderr = child.stderr.take().map(|pipe| {
            std::thread::spawn(move || {
                let mut said = Vec::new();
                let mut lines = std::io::BufReader::new(pipe);
                let mut line = Vec::new();
                while lines.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                    let event = line
                        .strip_prefix(EVENT_PREFIX.as_bytes())
                        .and_then(|json| serde_json::from_slice::<Event>(json).ok());
                    match event {
                        // Nobody listening: the grading was dropped.
                        Some(event) => drop(send.send(event)),
                        None => said.extend_from_slice(&line),
                    }
                    line.clear();
                }
                said
            })
        });
        Ok(Regrading {
            child,
            stdout,
            stderr,
            events,
        })
    }

    /// The events told since the last call, in order.
    pub fn events(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }

    /// The outcome, once the grading has ended.
    pub fn poll(&mut self) -> Option<Ended> {
        let status = match self.child.try_wait() {
            Ok(None) => return None,
            Ok(Some(status)) => status,
            Err(e) => return Some(Ended::Failed(format!("cannot wait for the grader: {e}"))),
        };
        // Whatever the grading left behind goes before its pipes are read
        // to their end (a leftover could hold them open).
        super::sweep();
        let stdout = self.stdout.take().map(join).unwrap_or_default();
        let stderr =
            String::from_utf8_lossy(&self.stderr.take().map(join).unwrap_or_default()).into_owned();
        let warnings: Vec<String> = stderr
            .lines()
            .filter(|l| l.starts_with("warning:"))
            .map(str::to_owned)
            .collect();
        let said = stderr
            .lines()
            .filter(|l| !l.starts_with("warning:"))
            .collect::<Vec<_>>()
            .join("\n");
        // A report (exit 0 or 1, or 3 with the submission recorded as the
        // grader's fault) is shown whatever the code.
        // The rest of stderr then is its progress line, or the error that
        // the report records too.
        if let Ok(report) = serde_json::from_slice::<Report>(&stdout) {
            return Some(Ended::Graded(Box::new(report), warnings));
        }
        Some(Ended::Failed(if said.trim().is_empty() {
            format!("the grader ended ({status}) without a report")
        } else {
            said
        }))
    }

    /// Stops the grading and everything it started.
    pub fn cancel(mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
        super::sweep();
        for reader in [self.stdout.take(), self.stderr.take()]
            .into_iter()
            .flatten()
        {
            let _ = reader.join();
        }
    }
}

fn join(reader: JoinHandle<Vec<u8>>) -> Vec<u8> {
    reader.join().unwrap_or_default()
}
