//! `[limits]` of `challenge.toml`, and the least of each that a correct
//! submission needs.

use serde::Deserialize;
use std::time::Duration;

/// Limits of every session; a group may override the time.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// CPU time per case, in milliseconds; the wall-clock backstop of a
    /// case that waits follows from it.
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
    /// The value of `limit`, in the unit of its key.
    pub fn get(&self, limit: Limit) -> u64 {
        let mut limits = *self;
        *limits.slot(limit)
    }

    fn slot(&mut self, limit: Limit) -> &mut u64 {
        match limit {
            Limit::Time => &mut self.time_ms,
            Limit::Memory => &mut self.memory_mb,
            Limit::Output => &mut self.output_mb,
            Limit::Processes => &mut self.processes,
            Limit::OpenFiles => &mut self.open_files,
            Limit::FileSize => &mut self.file_size_mb,
            Limit::Scratch => &mut self.scratch_mb,
            Limit::ExtraRun => &mut self.extra_run_ms,
            Limit::ExtrasBudget => &mut self.extras_budget_ms,
        }
    }

    /// These limits with `overrides` (the command line's) in place of
    /// theirs.
    pub fn with(mut self, overrides: &[(Limit, u64)]) -> Limits {
        for &(limit, value) in overrides {
            *self.slot(limit) = value;
        }
        self
    }

    /// What a session may use, in bytes: the sandbox's policy.
    pub fn session(&self) -> sandbox::SessionLimits {
        let mib = |n: u64| n.saturating_mul(1 << 20);
        sandbox::SessionLimits {
            memory_bytes: mib(self.memory_mb),
            output_bytes: mib(self.output_mb),
            processes: self.processes,
            open_files: self.open_files,
            file_size_bytes: mib(self.file_size_mb),
            scratch_bytes: mib(self.scratch_mb),
        }
    }

    /// The time extra runs get.
    pub fn extras(&self) -> crate::extra::ExtraLimits {
        crate::extra::ExtraLimits {
            run_floor: Duration::from_millis(self.extra_run_ms),
            budget_cap: Duration::from_millis(self.extras_budget_ms),
        }
    }
}

/// The most open files, and processes and threads, a session may be
/// given: see [`Limit::most`].
const MOST_PER_SESSION: u64 = 4096;

/// One of the limits: its key in `[limits]`, its flag on the command line
/// where it has one, and the least value that leaves a correct submission
/// room to pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Time,
    Memory,
    Output,
    Processes,
    OpenFiles,
    FileSize,
    Scratch,
    ExtraRun,
    ExtrasBudget,
}

impl Limit {
    pub const ALL: [Limit; 9] = [
        Limit::Time,
        Limit::Memory,
        Limit::Output,
        Limit::Processes,
        Limit::OpenFiles,
        Limit::FileSize,
        Limit::Scratch,
        Limit::ExtraRun,
        Limit::ExtrasBudget,
    ];

    /// Its key in `[limits]`.
    pub fn key(self) -> &'static str {
        match self {
            Limit::Time => "time_ms",
            Limit::Memory => "memory_mb",
            Limit::Output => "output_mb",
            Limit::Processes => "processes",
            Limit::OpenFiles => "open_files",
            Limit::FileSize => "file_size_mb",
            Limit::Scratch => "scratch_mb",
            Limit::ExtraRun => "extra_run_ms",
            Limit::ExtrasBudget => "extras_budget_ms",
        }
    }

    /// Its option of `grade` and `watch`, where it has one.
    pub fn flag(self) -> Option<&'static str> {
        match self {
            Limit::Time => Some("--time-limit"),
            Limit::Memory => Some("--memory-limit"),
            Limit::Output => Some("--output-limit"),
            Limit::ExtraRun => Some("--extra-run-limit"),
            Limit::ExtrasBudget => Some("--extras-budget"),
            Limit::Processes | Limit::OpenFiles | Limit::FileSize | Limit::Scratch => None,
        }
    }

    /// Whether `value` leaves a correct submission room to pass, in any
    /// language; if not, why, and the least that does.
    pub fn check(self, value: u64) -> Result<(), String> {
        self.check_for(value, &[])
    }

    /// Whether `value` leaves a correct submission on each of `runtimes`
    /// room to pass (on any when none is given); if not, why, and the
    /// least that does.
    pub fn check_for(self, value: u64, runtimes: &[Runtime]) -> Result<(), String> {
        // Node.js needs the most of every limit.
        let all = [Runtime::Node];
        let runtimes = if runtimes.is_empty() { &all } else { runtimes };
        let (least, who) = runtimes
            .iter()
            .map(|&l| self.least(l))
            .max_by_key(|(least, _)| *least)
            .unwrap_or((1, ""));
        if value < least {
            return Err(format!(
                "{} = {value} would fail every submission, correct or not ({who}); use {least} or more",
                self.key()
            ));
        }
        match self.most() {
            Some((most, why)) if value > most => Err(format!(
                "{} = {value} is more than a session can be given ({why}), so every submission would be a grader fault; use at most {most}",
                self.key()
            )),
            _ => Ok(()),
        }
    }

    /// The most of a limit the grader can give a session on any Linux
    /// machine, where there is such a bound, and why. Open files and
    /// processes are set as the session's own rlimits, which may not pass
    /// the machine's hard limits: 4096 is the least hard limit of open
    /// files a stock kernel gives, and a hundred times what Node.js needs
    /// of either. The others are bytes and milliseconds with no bound but
    /// the machine's memory and the user's patience.
    fn most(self) -> Option<(u64, &'static str)> {
        match self {
            Limit::OpenFiles => Some((
                MOST_PER_SESSION,
                "a machine's hard limit of open files may be as low as 4096",
            )),
            Limit::Processes => Some((
                MOST_PER_SESSION,
                "more may pass the machine's own limit of processes per user",
            )),
            _ => None,
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
    ///
    /// Memory, processes and open files are `runtime`'s own, the CPU time
    /// every runtime's.
    fn least(self, runtime: Runtime) -> (u64, &'static str) {
        let node = runtime == Runtime::Node;
        let python = runtime == Runtime::Python;
        match self {
            Limit::Time => (
                100,
                "Node.js alone takes about 10 ms of CPU on the smallest case",
            ),
            Limit::Memory if node => (256, "Node.js alone needs about 128 MiB"),
            Limit::Memory if python => (64, "Python alone needs about 32 MiB"),
            Limit::Memory => (32, "a compiled program needs about 16 MiB"),
            Limit::Output => (1, "a limit of 0 leaves no room for any output"),
            Limit::Processes if node => (32, "Node.js alone needs about 12 processes and threads"),
            Limit::Processes => (8, "a session needs about 2 processes and threads"),
            Limit::OpenFiles if node => (64, "Node.js alone opens about 26 files"),
            Limit::OpenFiles if python => (16, "Python alone opens about 5 files"),
            Limit::OpenFiles => (16, "a compiled program opens about 8 files"),
            Limit::FileSize => (1, "a limit of 0 leaves no room for any file"),
            Limit::Scratch => (1, "a limit of 0 leaves no room in the scratch folder"),
            Limit::ExtraRun | Limit::ExtrasBudget => (1, "a limit of 0 leaves no time for any run"),
        }
    }
}

/// What a submission runs on, as far as the limits it needs go: the
/// languages map onto these (`lang::runtime_of`), so that the
/// challenge's rules need not know the languages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runtime {
    /// JavaScript and TypeScript.
    Node,
    Python,
    /// Rust, and a program that speaks the protocol itself.
    Compiled,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_lines_limits_replace_the_challenges_and_convert_once() {
        let toml = Limits {
            memory_mb: 300,
            scratch_mb: 3,
            ..Limits::default()
        };
        let limits = toml.with(&[(Limit::Memory, 400), (Limit::ExtrasBudget, 7000)]);
        let session = limits.session();
        assert_eq!(session.memory_bytes, 400 * 1024 * 1024);
        assert_eq!(session.scratch_bytes, 3 * 1024 * 1024);
        assert_eq!(session.processes, Limits::default().processes);
        assert_eq!(limits.extras().budget_cap, Duration::from_secs(7));
        assert_eq!(
            limits.extras().run_floor,
            Duration::from_millis(Limits::default().extra_run_ms)
        );
        assert_eq!(limits.get(Limit::Memory), 400);
        assert_eq!(toml.get(Limit::Memory), 300, "the challenge's own are kept");
    }

    #[test]
    fn a_limit_below_its_least_value_is_refused_with_the_least() {
        assert!(Limit::Time.check(100).is_ok());
        let why = Limit::Time.check(99).unwrap_err();
        assert!(
            why.starts_with("time_ms = 99 would fail every submission"),
            "{why}"
        );
        assert!(why.ends_with("use 100 or more"), "{why}");
    }

    #[test]
    fn open_files_and_processes_past_what_a_session_can_be_given_are_refused() {
        for limit in [Limit::OpenFiles, Limit::Processes] {
            assert!(limit.check(4096).is_ok());
            let why = limit.check(65536).unwrap_err();
            assert!(why.contains("grader fault"), "{why}");
            assert!(why.ends_with("use at most 4096"), "{why}");
        }
        assert!(Limit::Memory.check(1 << 40).is_ok());
    }
}
