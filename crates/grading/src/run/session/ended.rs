//! How a session's program ended: the sandbox's status lines, and the
//! failure a closed response channel means.

use super::{EXIT_GRACE, NoReply, Session};
use sandbox::Ended;
use serde_json::Value;
use std::io::{self, Read};
use std::time::{Duration, Instant};

impl Session {
    /// Reads the sandbox's status lines: how the program ended, or why it
    /// could not start.
    pub(super) fn read_status(&mut self) {
        let Some(status) = self.status.as_mut() else {
            return;
        };
        let mut buf = [0u8; 4096];
        loop {
            match status.read(&mut buf) {
                Ok(0) => {
                    self.status = None;
                    break;
                }
                Ok(n) => self.status_inbox.extend_from_slice(&buf[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => break,
            }
            if self.status_inbox.len() > 1 << 20 {
                self.status = None;
                break;
            }
        }
        while let Some(end) = self.status_inbox.iter().position(|&b| b == b'\n') {
            let line: Vec<u8> = self.status_inbox.drain(..=end).collect();
            let Ok(message) = serde_json::from_slice::<Value>(&line) else {
                continue;
            };
            if let Some(exit) = message.get("sandbox_exit") {
                self.exit = serde_json::from_value(exit.clone()).ok();
            }
            if let Some(error) = message.get("sandbox_error").and_then(Value::as_str) {
                self.sandbox_error = Some(error.to_owned());
            }
        }
    }

    /// The child closed its response channel: let it exit, then describe how.
    pub(super) fn died(&mut self) -> NoReply {
        let until = Instant::now() + EXIT_GRACE;
        let status = loop {
            match self.child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
                _ => break None,
            }
        };
        sys::kill_group(self.child.id());
        let status = match status {
            Some(status) => Ended::of(status),
            None => {
                let _ = self.child.wait();
                Ended::Stopped
            }
        };
        self.drain_output();
        // The status channel closes when the sandbox's init has exited,
        // right after its report.
        let until = Instant::now() + EXIT_GRACE;
        while self.status.is_some() && Instant::now() < until {
            self.read_status();
            std::thread::sleep(Duration::from_millis(2));
        }
        self.read_status();
        // The kernel killed it at the memory its cgroup may hold: that
        // memory was the program's, mapped or not.
        if let Some(group) = self.memory.group()
            && group.oom_killed()
        {
            return NoReply::MemoryLimit {
                held: group
                    .peak()
                    .unwrap_or(self.memory_limit)
                    .max(self.memory_limit + 1),
                limit: self.memory_limit,
                op_index: self.last_progress,
            };
        }
        NoReply::Died {
            status,
            op_index: self.last_progress,
            exit: self.exit,
            sandbox_error: self.sandbox_error.clone(),
        }
    }
}
