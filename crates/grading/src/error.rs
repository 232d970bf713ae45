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
    NothingToGrade(NothingToGrade),
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

impl From<NothingToGrade> for Error {
    fn from(why: NothingToGrade) -> Error {
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

/// Why there is nothing to grade where a submission was looked for: the
/// learner's own (or the command line's), never the grader's. Its
/// `Display` is the command line's words, an error of usage; the report
/// words it for the learner, as every test's message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NothingToGrade {
    /// A student's folder holds no entry file: `expected`, the names
    /// looked for (`lang::entry_names`); `found`, the folder's files when
    /// they were listed (a platform's single upload, where the words
    /// suggest the rename), `None` where they were not (a class's folder).
    NoEntryFile {
        folder: std::path::PathBuf,
        expected: Vec<String>,
        found: Option<Vec<String>>,
    },
    /// A student's folder holds several: their names.
    SeveralEntryFiles {
        folder: std::path::PathBuf,
        found: Vec<String>,
    },
    /// The file cannot be read: why, in the OS's words.
    Unreadable {
        file: std::path::PathBuf,
        error: String,
    },
    /// What is there is no regular file (a folder, a device).
    NotAFile { file: std::path::PathBuf },
    /// Of no known extension (`known`, as `.py`), and not executable.
    UnknownLanguage {
        file: std::path::PathBuf,
        known: Vec<String>,
    },
    /// A symbolic link out of its folder, which is never followed.
    LinkedOut {
        file: std::path::PathBuf,
        folder: std::path::PathBuf,
    },
}

impl NothingToGrade {
    /// The file found, when there is one (not for a folder without one
    /// entry file).
    pub fn file(&self) -> Option<&std::path::Path> {
        match self {
            NothingToGrade::NoEntryFile { .. } | NothingToGrade::SeveralEntryFiles { .. } => None,
            NothingToGrade::Unreadable { file, .. }
            | NothingToGrade::NotAFile { file }
            | NothingToGrade::UnknownLanguage { file, .. }
            | NothingToGrade::LinkedOut { file, .. } => Some(file),
        }
    }
}

impl std::fmt::Display for NothingToGrade {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NothingToGrade::NoEntryFile {
                folder, expected, ..
            } => {
                let (bare, modules) = expected.split_last().expect("entry names");
                write!(
                    f,
                    "no entry file in {}: expected one of {}, or an executable `{bare}`",
                    folder.display(),
                    modules.join(", ")
                )
            }
            NothingToGrade::SeveralEntryFiles { folder, found } => write!(
                f,
                "several entry files in {} ({}); keep exactly one router.*",
                folder.display(),
                found.join(", ")
            ),
            NothingToGrade::Unreadable { file, error } => {
                write!(f, "cannot read submission {}: {error}", file.display())
            }
            NothingToGrade::NotAFile { file } => write!(
                f,
                "submission {} is not a file; give the path of the module to grade",
                file.display()
            ),
            NothingToGrade::UnknownLanguage { file, known } => write!(
                f,
                "cannot tell the language of {}: expected {}, \
                 or an executable file that speaks the protocol (chmod +x it)",
                file.display(),
                known.join(", ")
            ),
            NothingToGrade::LinkedOut { file, folder } => write!(
                f,
                "{} is a symbolic link out of its folder {}, which the grader does not follow; \
                 submit the file itself",
                file.file_name().unwrap_or_default().to_string_lossy(),
                folder.display()
            ),
        }
    }
}
