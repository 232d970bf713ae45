//! The languages a submission may be written in, one file each: how it is
//! recognised, its entry and starter names, how it is prepared (and cached),
//! the interpreter or toolchain it needs, the command that serves it, and
//! the snippet the shrinker writes in it. [`TABLE`] is what differs between
//! them as data; the functions here dispatch to each language's file.
//!
//! Adding a language is a file here, a [`Language`] variant (in the
//! `vocabulary` crate, which the report shares) with its [`TABLE`] row,
//! and a driver in `drivers/`; the test
//! `every_language_is_wired_everywhere` says what is missing.

mod cache;
mod executable;
mod interpreter;
mod javascript;
mod python;
mod rust;
mod typescript;
mod within;

pub use typescript::transpiler_if_asked;

use crate::challenge::Challenge;
use crate::error::{Error, NothingToGrade};
use crate::protocol::{ErrorKind, LearnerException};
use crate::unbuilt::Unbuilt;
use reference::{ModelSpec, Returns};
use sandbox::{BuildCost, Environment, Program};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

pub use vocabulary::Language;

/// What differs between languages, as data.
#[derive(Debug)]
pub struct Spec {
    pub language: Language,
    /// The extensions that mark a file as this language, the first the
    /// starter's.
    pub extensions: &'static [&'static str],
}

/// Every language written as a module, in the order entry files are looked
/// for. Executables are recognised by their mode, not their name.
pub const TABLE: [Spec; 4] = [
    Spec {
        language: Language::Python,
        extensions: &["py"],
    },
    Spec {
        language: Language::JavaScript,
        extensions: &["js", "cjs", "mjs"],
    },
    Spec {
        language: Language::TypeScript,
        extensions: &["ts", "mts"],
    },
    Spec {
        language: Language::Rust,
        extensions: &["rs"],
    },
];

/// The stem of every entry file and starter: `router.py`, `router`.
pub const ENTRY_STEM: &str = "router";

/// The syntax of the code in what `language`'s learners read (hints,
/// snippets, steps): TypeScript shares JavaScript's, and a program of its
/// own (or none found) gets words.
pub fn syntax(language: Language) -> reference::Syntax {
    use reference::Syntax;
    match language {
        Language::Python => Syntax::Python,
        Language::JavaScript | Language::TypeScript => Syntax::JavaScript,
        Language::Rust => Syntax::Rust,
        Language::Executable | Language::Unknown => Syntax::Words,
    }
}

/// What `language` runs on, for the limits a correct submission needs (a
/// program of its own, or of no known language, is held to what a
/// compiled one needs).
pub fn runtime_of(language: Language) -> crate::challenge::limits::Runtime {
    use crate::challenge::limits::Runtime;
    match language {
        Language::JavaScript | Language::TypeScript => Runtime::Node,
        Language::Python => Runtime::Python,
        Language::Rust | Language::Executable | Language::Unknown => Runtime::Compiled,
    }
}

/// `language`'s row of [`TABLE`], for modules.
pub fn spec(language: Language) -> Option<&'static Spec> {
    TABLE.iter().find(|s| s.language == language)
}

/// The starter's file name (`router.py`), for modules.
pub fn starter_name(language: Language) -> Option<String> {
    spec(language).map(|s| format!("{ENTRY_STEM}.{}", s.extensions[0]))
}

/// The file names a student's folder may hold as its entry, in the order
/// they are looked for: `router.<ext>` for every module extension, then an
/// executable `router`.
pub fn entry_names() -> Vec<String> {
    TABLE
        .iter()
        .flat_map(|s| s.extensions.iter())
        .map(|ext| format!("{ENTRY_STEM}.{ext}"))
        .chain([ENTRY_STEM.to_owned()])
        .collect()
}

/// A submission to grade.
#[derive(Debug, Clone)]
pub struct Submission {
    /// The path as the user gave it (for reports).
    pub path: PathBuf,
    /// The absolute path (for running).
    pub absolute: PathBuf,
    pub language: Language,
}

impl Submission {
    /// Whether its file is `challenge`'s starter for its language as
    /// shipped, but for the whitespace that ends its lines and the file:
    /// nothing of it written yet. A file of another size class (past
    /// 1 MiB), or one that cannot be read as a regular file, is none.
    pub fn is_untouched_starter(&self, challenge: &Challenge) -> bool {
        let Some(starter) = starter_name(self.language) else {
            return false;
        };
        let read = |path: &Path| -> Option<String> {
            let meta = std::fs::metadata(path).ok()?;
            if !meta.is_file() || meta.len() > 1 << 20 {
                return None;
            }
            let text = String::from_utf8(std::fs::read(path).ok()?).ok()?;
            let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
            Some(lines.join("\n").trim_end().to_owned())
        };
        let shipped = challenge.dir.join("starters").join(starter);
        match (read(&self.absolute), read(&shipped)) {
            (Some(yours), Some(shipped)) => yours == shipped,
            _ => false,
        }
    }

    /// Recognises the submission at `path` by its extension (see
    /// `lang::TABLE`), or as an executable file without one. Nothing to
    /// grade there is [`Error::NothingToGrade`], with the reason.
    pub fn detect(path: &Path) -> Result<Submission, Error> {
        let absolute = std::path::absolute(path)
            .map_err(Error::io(format!("cannot resolve {}", path.display())))?;
        let unreadable = |e: std::io::Error| NothingToGrade::Unreadable {
            file: path.to_owned(),
            error: e.to_string(),
        };
        let meta = std::fs::metadata(resolve_entry(path, &absolute)?).map_err(unreadable)?;
        if !meta.is_file() {
            return Err(NothingToGrade::NotAFile {
                file: path.to_owned(),
            }
            .into());
        }
        let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let language = match TABLE.iter().find(|s| s.extensions.contains(&extension)) {
            Some(spec) => spec.language,
            None => {
                use std::os::unix::fs::PermissionsExt;
                if meta.permissions().mode() & 0o111 != 0 {
                    Language::Executable
                } else {
                    let known = TABLE
                        .iter()
                        .flat_map(|s| s.extensions.iter())
                        .map(|e| format!(".{e}"))
                        .collect();
                    return Err(NothingToGrade::UnknownLanguage {
                        file: path.to_owned(),
                        known,
                    }
                    .into());
                }
            }
        };
        Ok(Submission {
            path: path.to_owned(),
            absolute,
            language,
        })
    }
}

/// The Router `submission`'s source declares, for a language whose driver
/// cannot list it (Rust's is built from the challenge's signatures).
pub fn declared_shape(submission: &Submission) -> Option<crate::protocol::Shape> {
    match submission.language {
        Language::Rust => rust::declared_shape(&submission.absolute),
        _ => None,
    }
}

/// Prepares `submission` for `challenge`: transpiles or compiles it where
/// its language needs it (cached by content), and returns the program that
/// serves it. The inner `Err` is the learner's compile error.
pub fn prepare(
    env: &Environment,
    challenge: &Challenge,
    submission: &Submission,
) -> Result<Result<Program, LearnerException>, Error> {
    let started = Instant::now();
    let built = |artifact: Result<(PathBuf, bool), LearnerException>| {
        artifact.map(|(path, cached)| {
            let build = BuildCost {
                cached,
                time_ms: started.elapsed().as_millis() as u64,
            };
            (path, build)
        })
    };
    if !matches!(
        submission.language,
        Language::Executable | Language::Unknown
    ) && let Err(e) = read_source(submission)
    {
        return Ok(Err(e));
    }
    // Its sessions may be given a copy they can read (see the sandbox crate's `reach`).
    let grants = match env.reachable_submission(&submission.absolute)? {
        Ok(grants) => grants,
        Err(too_many) => {
            return Ok(Err(LearnerException::new(
                ErrorKind::CompileError,
                too_many.to_string(),
            )));
        }
    };
    let copy;
    let submission = if grants.file == submission.absolute {
        submission
    } else {
        copy = Submission {
            absolute: grants.file.clone(),
            ..submission.clone()
        };
        &copy
    };
    let (own, list, hide) = (grants.read, grants.list, grants.hide);
    let mut program = match submission.language {
        Language::Python => python::program(env, submission)?,
        Language::JavaScript => javascript::program(env, submission)?,
        Language::TypeScript => match built(typescript::transpile_cached(env, submission)?) {
            Ok((module, build)) => typescript::program(env, submission, &module, build)?,
            Err(e) => return Ok(Err(e)),
        },
        Language::Rust => match built(rust::compile(
            env,
            challenge,
            submission,
            (&own, &list, &hide),
        )?) {
            Ok((binary, build)) => rust::program(submission, &binary, build),
            Err(e) => return Ok(Err(e)),
        },
        Language::Executable | Language::Unknown => executable::program(submission),
    };
    program.read.splice(0..0, own);
    program.list.extend(list);
    program.hide.extend(hide);
    Ok(Ok(program))
}

/// A program with no arguments or grants of its own yet.
fn bare(submission: &Submission, program: PathBuf) -> Program {
    Program {
        name: submission.path.display().to_string(),
        program,
        args: Vec::new(),
        read: Vec::new(),
        list: Vec::new(),
        hide: Vec::new(),
        own_program: false,
        announces: false,
        build: None,
    }
}

/// Where the entry file `path` (absolute: `absolute`) really is: itself,
/// or where a link within its own folder points. A link out of its folder
/// is refused without a look at where it leads (see [`within`]): the
/// grader reads the entry as its own user, and would read (and cache)
/// whatever it points at, or tell whether it exists. The folder itself
/// may be a link (a class folder of links to students' folders is the
/// instructor's).
fn resolve_entry(path: &Path, absolute: &Path) -> Result<PathBuf, NothingToGrade> {
    let unreadable = |e: std::io::Error| NothingToGrade::Unreadable {
        file: path.to_owned(),
        error: e.to_string(),
    };
    let folder = absolute.parent().unwrap_or(Path::new("/"));
    let real_folder = std::fs::canonicalize(folder).map_err(unreadable)?;
    let name = absolute.file_name().unwrap_or_default();
    within::resolve(&real_folder, Path::new(name)).map_err(|e| match e {
        within::Unreached::Io(e) => unreadable(e),
        within::Unreached::LinkedOut => NothingToGrade::LinkedOut {
            file: path.to_owned(),
            folder: folder.to_owned(),
        },
    })
}

/// The most source a module submission may have: a hundred times the
/// largest honest solution would still be below it, and the grader reads,
/// hashes and caches what it is given (the transpiler's own bound on
/// nesting is met well below it).
pub const MAX_SOURCE_BYTES: u64 = 8 << 20;

/// The submission's text, read from where it really is (never through a
/// link out of its folder). A file that cannot be read, is larger than
/// [`MAX_SOURCE_BYTES`] or is not UTF-8 cannot be a module: the `Err` is
/// that learner's compile error, and the class is graded on.
fn read_source(submission: &Submission) -> Result<String, LearnerException> {
    use std::io::Read;
    let file = submission.path.display().to_string();
    let real = resolve_entry(&submission.path, &submission.absolute)
        .map_err(|e| LearnerException::new(ErrorKind::CompileError, e.to_string()))?;
    let mut bytes = Vec::new();
    cache::open_no_follow(&real)
        .and_then(|f| f.take(MAX_SOURCE_BYTES + 1).read_to_end(&mut bytes))
        .map_err(|e| {
            let error = e.to_string();
            let unbuilt = Unbuilt::Unreadable {
                file: file.clone(),
                error,
            };
            LearnerException::unbuilt(unbuilt, String::new())
        })?;
    if bytes.len() as u64 > MAX_SOURCE_BYTES {
        let unbuilt = Unbuilt::TooLarge {
            file,
            most_bytes: MAX_SOURCE_BYTES,
        };
        return Err(LearnerException::unbuilt(unbuilt, String::new()));
    }
    String::from_utf8(bytes).map_err(|e| {
        let byte = e.utf8_error().valid_up_to() + 1;
        LearnerException::unbuilt(Unbuilt::NotUtf8 { file, byte }, String::new())
    })
}

/// A shrunk case to replay in the learner's language: the constructor's
/// arguments, the operations before the last, and the last one with its
/// expected answer.
struct Replay<'a> {
    model: &'static ModelSpec,
    /// The submission's file name (`router.py`) and stem (`router`).
    file: String,
    stem: String,
    case: &'a Value,
    args: &'a [Value],
    before: &'a [Value],
    last: &'a Value,
    /// What the last operation returns.
    returns: Returns,
    expected: &'a Value,
}

impl Replay<'_> {
    /// `router.name(operands...)`, each operand written by `literal`.
    fn call(&self, op: &Value, literal: &dyn Fn(&Value) -> String) -> String {
        let name = op[0].as_str().unwrap_or_default();
        let operands: Vec<String> = op
            .as_array()
            .map_or(&[][..], |a| &a[1..])
            .iter()
            .map(literal)
            .collect();
        format!("router.{name}({})", operands.join(", "))
    }

    /// The constructor's arguments, each written by `literal`.
    fn arguments(&self, literal: &dyn Fn(&Value) -> String) -> String {
        self.args.iter().map(literal).collect::<Vec<_>>().join(", ")
    }
}

/// Code that replays `case` in the submission's language and asserts that
/// its last operation answers `expected`.
pub fn snippet(
    challenge: &Challenge,
    submission: &Submission,
    case: &Value,
    expected: &Value,
) -> String {
    let args = case[0].as_array().map_or(&[][..], Vec::as_slice);
    let ops = case[1].as_array().map_or(&[][..], Vec::as_slice);
    let Some((last, before)) = ops.split_last() else {
        return String::new();
    };
    let name =
        |part: Option<&std::ffi::OsStr>| part.unwrap_or_default().to_string_lossy().into_owned();
    let replay = Replay {
        model: challenge.model,
        file: name(submission.path.file_name()),
        stem: name(submission.path.file_stem()),
        case,
        args,
        before,
        last,
        returns: last[0]
            .as_str()
            .and_then(|name| challenge.model.signature(name))
            .map_or(Returns::MaybeName, |s| s.returns),
        expected,
    };
    match submission.language {
        Language::Python => python::snippet(&replay),
        Language::JavaScript => javascript::snippet(&replay),
        Language::TypeScript => typescript::snippet(&replay),
        Language::Rust => rust::snippet(&replay),
        Language::Executable | Language::Unknown => executable::snippet(&replay),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::ValueEnum;

    fn root() -> PathBuf {
        PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
    }

    /// Every language a learner can start in (`grader init --lang`, from
    /// the enum itself, not from the table it is checked against): a row of
    /// TABLE, recognised by each of its extensions, an entry name a batch
    /// looks for, a starter in every challenge, and a snippet of its own
    /// (its name in reports is the report crate's to check).
    #[test]
    fn every_language_is_wired_everywhere() {
        let dir = tempfile::tempdir().unwrap();
        let entries = entry_names();
        let case = serde_json::json!([[["a", "b"]], [["route", "k"], ["route", "k"]]]);
        let challenges =
            crate::challenge::list(&root().join("challenges")).expect("the shipped challenges");
        assert!(!challenges.is_empty());
        let languages = Language::value_variants();
        assert_eq!(languages.len(), TABLE.len(), "a row of TABLE for each");
        let executable = |path: PathBuf| Submission {
            path: path.clone(),
            absolute: path,
            language: Language::Executable,
        };
        let generic = snippet(
            &challenges[0],
            &executable(dir.path().join("router")),
            &case,
            &Value::from("a"),
        );
        let mut snippets = vec![generic];
        for &language in languages {
            let spec = spec(language).unwrap_or_else(|| panic!("{language:?} has no row"));
            for ext in spec.extensions {
                let path = dir.path().join(format!("router.{ext}"));
                std::fs::write(&path, "").unwrap();
                let found = Submission::detect(&path).unwrap();
                assert_eq!(found.language, language, ".{ext}");
                assert!(entries.contains(&format!("router.{ext}")), ".{ext}");
            }
            let starter = starter_name(language).unwrap();
            for challenge in &challenges {
                let file = challenge.dir.join("starters").join(&starter);
                assert!(file.is_file(), "{} has no {starter}", challenge.id);
            }
            let path = dir.path().join(&starter);
            let code = snippet(
                &challenges[0],
                &Submission {
                    language,
                    ..executable(path)
                },
                &case,
                &Value::from("a"),
            );
            // It builds a Router and asks it, in this language's syntax.
            assert!(code.contains("Router"), "{language:?}: {code}");
            assert!(code.contains("route(\"k\")"), "{language:?}: {code}");
            assert!(
                !snippets.contains(&code),
                "{language:?} has a snippet of its own"
            );
            snippets.push(code);
        }
        // The executable is the one kind recognised without an extension.
        assert_eq!(entries.last().map(String::as_str), Some(ENTRY_STEM));
    }
}
