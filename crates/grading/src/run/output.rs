//! What the learner's code prints on stdout and stderr: kept up to a cap,
//! always drained.

use std::io::{self, Read};

/// Output the learner's code printed while serving one request.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CapturedOutput {
    pub stdout: String,
    pub stderr: String,
    /// Bytes printed past the cap and not kept.
    pub dropped_bytes: u64,
}

impl CapturedOutput {
    /// Whether nothing was printed.
    pub fn is_empty(&self) -> bool {
        self.stdout.is_empty() && self.stderr.is_empty() && self.dropped_bytes == 0
    }
}

/// One output pipe and what was kept of it.
#[derive(Debug)]
pub(super) struct Stream<R> {
    pub(super) pipe: Option<R>,
    pub(super) kept: Vec<u8>,
}

/// Reads `stream` until it would block, keeping up to `cap` bytes; returns
/// the bytes read past the cap.
pub(super) fn drain<R: Read>(stream: &mut Stream<R>, cap: usize) -> u64 {
    let mut dropped = 0;
    let mut buf = [0u8; 64 * 1024];
    while let Some(pipe) = stream.pipe.as_mut() {
        match pipe.read(&mut buf) {
            Ok(0) => stream.pipe = None,
            Ok(n) => dropped += sandbox::keep(&mut stream.kept, cap, &buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
            Err(_) => stream.pipe = None,
        }
    }
    dropped
}
