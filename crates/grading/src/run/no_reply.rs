//! Why a request got no reply.

use super::clock::Clock;
use crate::protocol::{At, Violation};
use sandbox::{Ended, SandboxExit};
use std::io;

/// Why a request got no reply.
#[derive(Debug)]
pub enum NoReply {
    /// The request's CPU time ran out, or its wall-clock deadline passed
    /// (`clock` says which); `op_index` is what the child said it was
    /// running (`None` if it did not say).
    TimedOut { op_index: Option<At>, clock: Clock },
    /// The child exited or closed its response channel; `op_index` is the
    /// operation it last said it was running, if it said; `exit` is how the
    /// sandbox saw the program end; `sandbox_error` says the sandbox failed
    /// before the program ran (a fault of the grader, or of an executable
    /// that cannot be run).
    Died {
        status: Ended,
        op_index: Option<At>,
        exit: Option<SandboxExit>,
        sandbox_error: Option<String>,
    },
    /// The program printed more than the output limit during one request.
    OutputLimit { limit: u64 },
    /// The session's processes held more memory than the limit, shared
    /// memory counted: `held` bytes when sampled.
    MemoryLimit {
        held: u64,
        limit: u64,
        op_index: Option<At>,
    },
    /// The wall clock ran out while the program was running or waiting
    /// for a CPU: the machine's load, not the program, says why.
    Starved(crate::error::Starved),
    /// The child wrote something that is not the protocol.
    Protocol(Violation),
    /// The grader could not talk to the child: a fault of the grader.
    Io(io::Error),
}
