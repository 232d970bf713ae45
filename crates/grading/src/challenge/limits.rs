//! `[limits]` of `challenge.toml`, and the least of each that a correct
//! submission needs.

use serde::Deserialize;

/// Limits of every session; a group may override the time.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Wall-clock time per case, in milliseconds.
    pub time_ms: u64,
    /// Memory (RLIMIT_DATA) per session, in MiB.
    pub memory_mb: u64,
    /// Output a case may print (stdout and stderr together), in MiB.
    pub output_mb: u64,
    /// Processes and threads per session.
    pub processes: u64,
    /// Open files per process.
    pub open_files: u64,
    /// The largest file a session may write, in MiB.
    pub file_size_mb: u64,
    /// The session's scratch folder, in MiB.
    pub scratch_mb: u64,
    /// The least time one extra run (a shrinking attempt, the order or
    /// h32 check) gets, in milliseconds; it gets ten times its case's
    /// measured time when that is more, never more than its group's limit.
    pub extra_run_ms: u64,
    /// The most all extra runs of one submission take together, in
    /// milliseconds; less when the failing case is fast (20 times its
    /// time plus 5 s).
    pub extras_budget_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time_ms: 2000,
            memory_mb: 512,
            output_mb: 8,
            processes: 128,
            open_files: 256,
            file_size_mb: 16,
            scratch_mb: 64,
            extra_run_ms: 250,
            extras_budget_ms: 20_000,
        }
    }
}

impl Limits {
    /// Each limit with its key in `[limits]`.
    pub fn values(&self) -> [(&'static str, u64); 9] {
        [
            ("time_ms", self.time_ms),
            ("memory_mb", self.memory_mb),
            ("output_mb", self.output_mb),
            ("processes", self.processes),
            ("open_files", self.open_files),
            ("file_size_mb", self.file_size_mb),
            ("scratch_mb", self.scratch_mb),
            ("extra_run_ms", self.extra_run_ms),
            ("extras_budget_ms", self.extras_budget_ms),
        ]
    }
}

/// The least value of each limit that leaves a correct submission room to
/// pass, and who needs it. Found by grading the shipped correct examples
/// (`submissions/`, Python, JavaScript, TypeScript and Rust) on every
/// shipped challenge under lower and lower limits until one failed; each
/// least value is that failing point with a margin of two to four times,
/// for other machines and versions of the interpreters:
///
/// - `open_files`: Node.js fails with 25 open files and passes with 26
///   (Python with 5, Rust with 8): at least 64;
/// - `processes`: Node.js hangs or fails with 9 processes and threads and
///   passes with 12 (Python and Rust with 2): at least 32;
/// - `memory_mb`: Node.js runs out on the large cases with 96 MiB and
///   passes every shipped challenge with 128 (Python fails with 16 and
///   passes with 32, Rust passes with 16): at least 256;
/// - `time_ms`, a case's CPU time (read in 10 ms ticks): Node.js fails
///   the one-line sample cases with 5 ms and passes them with 10 (Python
///   and Rust with 1): at least 100, for the smallest case; larger cases
///   need more, which `grader validate` measures against the reference;
/// - the others (output, file size, scratch, the extra runs): a correct
///   submission writes no file and prints nothing, and passes with 1.
pub const MINIMUMS: [(&str, u64, &str); 9] = [
    (
        "time_ms",
        100,
        "Node.js alone takes about 10 ms of CPU on the smallest case",
    ),
    ("memory_mb", 256, "Node.js alone needs about 128 MiB"),
    ("output_mb", 1, "a limit of 0 leaves no room for any output"),
    (
        "processes",
        32,
        "Node.js alone needs about 12 processes and threads",
    ),
    ("open_files", 64, "Node.js alone opens about 26 files"),
    (
        "file_size_mb",
        1,
        "a limit of 0 leaves no room for any file",
    ),
    (
        "scratch_mb",
        1,
        "a limit of 0 leaves no room in the scratch folder",
    ),
    ("extra_run_ms", 1, "a limit of 0 leaves no time for any run"),
    (
        "extras_budget_ms",
        1,
        "a limit of 0 leaves no time for any run",
    ),
];

/// Whether `value` of limit `key` (a key of `[limits]`) leaves a correct
/// submission room to pass; if not, why, and the least that does.
pub fn check(key: &str, value: u64) -> Result<(), String> {
    match MINIMUMS.iter().find(|(k, _, _)| *k == key) {
        Some((_, least, who)) if value < *least => Err(format!(
            "{key} = {value} would fail every submission, correct or not ({who}); use {least} or more"
        )),
        _ => Ok(()),
    }
}
