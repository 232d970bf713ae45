//! One grading of the watched file: `grader grade --format json` run as a
//! child process, so that a newer save can stop it at any moment (its
//! sessions die with it) and nothing it does can take `watch` down.

use report::Report;
use sandbox::os;
use std::ffi::OsString;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;

/// A grading of the watched file under way.
pub struct Regrading {
    child: Child,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
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
        os::kill_child_with_parent(&mut command);
        let mut child = command.spawn()?;
        let drain = |mut pipe: Box<dyn Read + Send>| {
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                let _ = pipe.read_to_end(&mut bytes);
                bytes
            })
        };
        let stdout = child.stdout.take().map(|p| drain(Box::new(p)));
        let stderr = child.stderr.take().map(|p| drain(Box::new(p)));
        Ok(Regrading {
            child,
            stdout,
            stderr,
        })
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
