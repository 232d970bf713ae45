//! Why the grader made no module of a submission, when the grader is the
//! one who says so: a file it will not read, a compiler it stopped, a
//! Router without the shape the driver calls. Facts only; the report words
//! them. (What a compiler itself says, rustc's or the TypeScript parser's
//! diagnostics, stays its own text, as a traceback is the interpreter's.)

use serde::{Deserialize, Serialize};

/// The grader's reason, carried by the learner's compile error
/// ([`crate::protocol::LearnerException::unbuilt`]). Its serde is the Rust
/// build cache's, which remembers a failed build.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unbuilt {
    /// The submission's file could not be read (`error`: the system's words).
    Unreadable { file: String, error: String },
    /// The submission's file is larger than a module may be.
    TooLarge { file: String, most_bytes: u64 },
    /// The submission's file is not UTF-8; `byte` (1-based) is the first
    /// that is not.
    NotUtf8 { file: String, byte: usize },
    /// The `tsconfig.json` that applies to a TypeScript file is unusable.
    Tsconfig {
        file: String,
        problem: TsconfigProblem,
    },
    /// The TypeScript parser was stopped (its own failures are diagnostics).
    TranspilerStopped {
        file: String,
        halt: Halt,
        stack_bytes: u64,
        memory_bytes: u64,
    },
    /// rustc was stopped, by a limit or a signal; its output is the
    /// error's traceback.
    CompilerStopped { file: String, halt: Halt },
    /// rustc failed and said nothing: how it ended.
    NoDiagnostic {
        file: String,
        code: Option<i32>,
        signal: Option<i32>,
    },
    /// rustc's first error (the error's message) names a crate that is not
    /// there: a submission has the standard library only.
    MissingCrate { name: String },
    /// The driver does not compile against the learner's file: their
    /// Router lacks an item the driver calls, or has it in another shape.
    /// The error's message is rustc's, in the learner's terms.
    Shape {
        file: String,
        /// The item on the driver's failing line, when it is known.
        wanted: Option<DriverItem>,
        /// Where rustc points in the learner's file.
        at: Option<(u64, u64)>,
        /// Every item the driver calls.
        calls: Vec<DriverItem>,
    },
    /// The learner's own program could not be started (the message is the
    /// system's).
    NotRunnable,
}

/// How a compiling or transpiling process was stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Halt {
    /// It ran past its wall-clock limit.
    TimedOut { seconds: u64 },
    /// It used up its CPU time.
    CpuTime { seconds: u64 },
    /// It said it ran out of memory.
    OutOfMemory { most_bytes: u64 },
    /// It was killed, as when it runs out of memory.
    Killed { most_bytes: u64 },
    /// It ended otherwise: an exit code or a signal, where known.
    Ended {
        code: Option<i32>,
        signal: Option<i32>,
    },
}

/// What is wrong with a `tsconfig.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TsconfigProblem {
    TooLarge {
        most_bytes: u64,
    },
    Unreadable {
        error: String,
    },
    NotJson {
        line: usize,
        column: usize,
        error: String,
    },
    /// A symbolic link out of the learner's folder, never followed.
    LinkedOut,
}

/// An item the Rust driver calls, with its Rust types (code, not prose):
/// `takes` its operands, `returns` its result, when it has one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DriverItem {
    pub name: DriverItemName,
    pub takes: Vec<String>,
    pub returns: Option<String>,
}

/// Which item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DriverItemName {
    /// The `Router` type itself.
    Type,
    /// `Router::new`.
    New,
    /// The optional free function `h32`.
    H32,
    /// A method of the Router.
    Method(String),
}
