//! The grader's errors. A failing submission is never an error: it is a
//! [`crate::judge::Verdict`]. These are bad input (exit 2) and faults of the
//! grader or its machine (exit 3); the codes are the report's contract's
//! (`report::contract::exit`).

use std::fmt;
use std::path::PathBuf;

/// The machine was too loaded to judge a submission fairly, and why:
/// what its processes ran and waited for, in the words every report
/// gives. One shape wherever it is found: a session's request, a phase, a
/// submission's grading.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Starved(String);

impl Starved {
    /// Starved, for the reason `why`.
    pub fn new(why: String) -> Starved {
        Starved(why)
    }

    /// Starved again when graded alone, with no other session running:
    /// final, a fault of the grader's machine.
    #[must_use]
    pub fn again_alone(self) -> Starved {
        Starved(format!(
            "{} (graded again alone, with no other session running)",
            self.0
        ))
    }
}

impl fmt::Display for Starved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// One problem in a challenge or test file, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub path: PathBuf,
    /// 1-based line and column, where the format allows pointing at one.
    pub position: Option<(usize, usize)>,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some((line, column)) = self.position {
            write!(f, ":{line}:{column}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Everything that stops a grading run before or outside judging.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The command line asked for something impossible.
    #[error("{0}")]
    Usage(String),
    /// Nothing to grade where a submission was looked for (an error of
    /// usage on the command line; a student's own reason in a class).
    #[error("{0}")]
    NothingToGrade(crate::lang::NothingToGrade),
    /// Challenge or test files are invalid; nothing was run. `undone`
    /// says what the command did not do for them ("graded", "written"),
    /// set by the command ([`Error::undone`]): `validate` did its work.
    #[error("{} in the challenge or test files{}:\n{}", crate::words::counted(problems.len(), "problem"), undone.map_or(String::new(), |what| format!("; nothing was {what}")), list(problems))]
    Invalid {
        problems: Vec<Problem>,
        undone: Option<&'static str>,
    },
    /// A runtime the grader needs (python3, node) cannot be started.
    #[error("cannot start {program}; {hint}")]
    Runtime {
        program: String,
        hint: String,
        #[source]
        source: std::io::Error,
    },
    /// The machine was too loaded to judge a submission fairly.
    #[error("{0}")]
    Busy(Starved),
    /// Any other fault of the grader or its machine.
    #[error("{context}")]
    Io {
        context: String,
        #[source]
        source: std::io::Error,
    },
}

impl Error {
    /// Problems in the challenge or test files.
    pub fn invalid(problems: Vec<Problem>) -> Error {
        Error::Invalid {
            problems,
            undone: None,
        }
    }

    /// This error, saying (if it is of invalid files) that nothing was
    /// `what` because of them.
    pub fn undone(self, what: &'static str) -> Error {
        match self {
            Error::Invalid { problems, .. } => Error::Invalid {
                problems,
                undone: Some(what),
            },
            other => other,
        }
    }

    /// Wraps an I/O error with what the grader was doing.
    pub fn io(context: impl Into<String>) -> impl FnOnce(std::io::Error) -> Error {
        move |source| Error::Io {
            context: context.into(),
            source,
        }
    }
}

impl From<crate::lang::NothingToGrade> for Error {
    fn from(why: crate::lang::NothingToGrade) -> Error {
        Error::NothingToGrade(why)
    }
}

impl From<sandbox::Error> for Error {
    fn from(error: sandbox::Error) -> Error {
        match error {
            sandbox::Error::Usage(message) => Error::Usage(message),
            sandbox::Error::Io { context, source } => Error::Io { context, source },
        }
    }
}

fn list(problems: &[Problem]) -> String {
    problems
        .iter()
        .map(|p| format!("  {p}"))
        .collect::<Vec<_>>()
        .join("\n")
}
