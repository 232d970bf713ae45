//! The grader's reasons for making no module of a submission
//! ([`grading::Unbuilt`]), and for finding nothing to grade
//! ([`grading::NothingToGrade`]), worded for the learner: what is wrong
//! and what to do, with the tool's own text where it said something.

use grading::{DriverItem, DriverItemName, Halt, TsconfigProblem, Unbuilt};
use grading::{LearnerException, NothingToGrade};
use sandbox::Ended;

/// Why a student has nothing to grade, as every test of theirs says it.
/// The command line's words serve where they are about the learner's
/// files; an instruction only the grader's user can follow is not given.
pub fn nothing_to_grade(why: &NothingToGrade) -> String {
    match why {
        NothingToGrade::NotAFile { file } => format!(
            "{} is not a file; submit the module itself, as a plain file",
            file.display()
        ),
        NothingToGrade::NoEntryFile { .. }
        | NothingToGrade::SeveralEntryFiles { .. }
        | NothingToGrade::Unreadable { .. }
        | NothingToGrade::UnknownLanguage { .. }
        | NothingToGrade::LinkedOut { .. } => why.to_string(),
    }
}

/// `error`'s message and traceback as the learner reads them: the
/// grader's reason worded around the tool's text, where there is one.
pub fn worded(error: &LearnerException) -> (String, String) {
    let tool = &error.message;
    let traceback = error.traceback.to_string();
    let Some(unbuilt) = error.unbuilt.as_deref() else {
        return (tool.clone(), traceback);
    };
    match unbuilt {
        Unbuilt::Unreadable { file, error } => {
            (format!("cannot read submission {file}: {error}"), traceback)
        }
        Unbuilt::TooLarge { file, most_bytes } => (
            format!(
                "{file} is larger than {} MiB, the most source a submission may have; \
                 submit the module alone, without data or generated code",
                most_bytes >> 20
            ),
            traceback,
        ),
        Unbuilt::NotUtf8 { file, byte } => (
            format!("{file} is not UTF-8 text (byte {byte} is not valid UTF-8); save it as UTF-8"),
            traceback,
        ),
        Unbuilt::Tsconfig { file, problem } => {
            let message = match problem {
                TsconfigProblem::TooLarge { most_bytes } => format!(
                    "{file} is larger than {} KiB: is it a tsconfig.json?",
                    most_bytes >> 10
                ),
                TsconfigProblem::Unreadable { error } => format!("cannot read {file}: {error}"),
                TsconfigProblem::LinkedOut => format!(
                    "{file} is a symbolic link out of your folder, which the grader does not \
                     follow; put the file itself in your folder, or remove it"
                ),
                TsconfigProblem::NotJson {
                    line,
                    column,
                    error,
                } => format!(
                    "{file}:{line}:{column}: not valid JSON ({error}); \
                     fix it, or remove it if it is not yours"
                ),
            };
            (message.clone(), message)
        }
        Unbuilt::TranspilerStopped {
            file,
            halt,
            stack_bytes,
            memory_bytes,
        } => {
            let how = match halt {
                Halt::TimedOut { seconds } => format!("ran past {seconds} s"),
                Halt::Ended { code, signal } => ended(*code, *signal, "was stopped"),
                halt => stopped(halt),
            };
            (
                format!(
                    "{file} could not be transpiled: the TypeScript parser {how} (code nested too \
                     deeply? the parser keeps nesting within {} MiB of stack and {} of memory)",
                    stack_bytes >> 20,
                    size(*memory_bytes)
                ),
                traceback,
            )
        }
        Unbuilt::CompilerStopped { file, halt } => (
            format!(
                "{file} could not be compiled: the compiler {} (a huge constant or array, \
                 or generic code that expands without end, can take any compiler past its limits)",
                stopped(halt)
            ),
            traceback,
        ),
        Unbuilt::NoDiagnostic { file, code, signal } => (
            format!(
                "{file} could not be compiled: the compiler {} without a diagnostic",
                ended(*code, *signal, "ended")
            ),
            traceback,
        ),
        Unbuilt::MissingCrate { name } => (
            format!(
                "{tool}: `{name}` is neither a module in scope nor a crate you can use; \
                 a submission is one file with the standard library only (std, core, alloc), \
                 no Cargo dependencies"
            ),
            traceback,
        ),
        Unbuilt::Shape {
            file,
            wanted,
            at,
            calls,
        } => {
            let mut message = match wanted {
                Some(item) => format!("{}: {tool}", must(item)),
                None => format!("your Router does not have what the grader calls: {tool}"),
            };
            if let Some((line, column)) = at {
                message.push_str(&format!(" at {file}:{line}:{column}"));
            }
            let calls: Vec<String> = calls
                .iter()
                .map(|item| match item.name {
                    DriverItemName::H32 => format!("  {} (optional)", must(item)),
                    _ => format!("  {}", must(item)),
                })
                .collect();
            (
                message,
                format!(
                    "The grader calls these from outside {file}, so each must be `pub` at the \
                     root of your file:\n{}",
                    calls.join("\n")
                ),
            )
        }
        Unbuilt::NotRunnable => (
            format!("{tool} (check its #! line and that it is a program for this machine)"),
            traceback,
        ),
    }
}

/// The signal that kills: 9 on every Unix.
const SIGKILL: i32 = 9;

/// What stopped a compiler, as "the compiler ...".
fn stopped(halt: &Halt) -> String {
    match halt {
        Halt::TimedOut { seconds } => format!("was stopped after its {seconds} s limit"),
        Halt::CpuTime { seconds } => {
            format!("used up its {seconds} s of CPU time and was stopped")
        }
        Halt::OutOfMemory { most_bytes } => {
            format!("ran out of its {} MiB memory limit", most_bytes >> 20)
        }
        Halt::Killed { most_bytes } => format!(
            "{}, as when it runs out of its {} MiB memory limit",
            Ended::Signalled(SIGKILL),
            most_bytes >> 20
        ),
        Halt::Ended { code, signal } => ended(*code, *signal, "was stopped"),
    }
}

/// How a process ended, or `otherwise` when nothing is known.
fn ended(code: Option<i32>, signal: Option<i32>, otherwise: &str) -> String {
    Ended::from_parts(code, signal).map_or_else(|| otherwise.to_owned(), |e| e.to_string())
}

/// A memory size in whole GiB where it is one: "2 GiB", "1536 MiB".
fn size(bytes: u64) -> String {
    if bytes >= 1 << 30 && bytes.is_multiple_of(1 << 30) {
        format!("{} GiB", bytes >> 30)
    } else {
        format!("{} MiB", bytes >> 20)
    }
}

/// What the driver calls, as the learner must write it: `Router::route
/// must take &str and return Option<String>`.
fn must(item: &DriverItem) -> String {
    let takes = match item.takes.as_slice() {
        [] => "nothing".to_owned(),
        takes => takes.join(", "),
    };
    let returns = item
        .returns
        .as_deref()
        .map(|r| format!(" and return {r}"))
        .unwrap_or_default();
    match &item.name {
        DriverItemName::Type => "Router must be a `pub struct` at the root of your file".into(),
        DriverItemName::New => format!("Router::new must take {takes}{returns}"),
        DriverItemName::H32 => format!("h32 must take {takes}{returns}"),
        DriverItemName::Method(name) => format!("Router::{name} must take {takes}{returns}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use vocabulary::ErrorKind;

    fn say(unbuilt: Unbuilt, tool: &str) -> (String, String) {
        let mut error = LearnerException::unbuilt(unbuilt, tool.into());
        error.traceback = "rustc said so".into();
        worded(&error)
    }

    /// Every way a compiler is stopped reads as what happened and the
    /// limit it hit; the compiler's own text stays the traceback.
    #[test]
    fn a_stopped_compiler_names_what_stopped_it_and_the_limit() {
        let memory = 4 << 30;
        let endings = [
            (
                Halt::TimedOut { seconds: 120 },
                "the compiler was stopped after its 120 s limit",
            ),
            (
                Halt::OutOfMemory { most_bytes: memory },
                "the compiler ran out of its 4096 MiB memory limit",
            ),
            (
                Halt::Killed { most_bytes: memory },
                "the compiler was killed by signal 9 (SIGKILL), as when it runs out of its 4096 MiB memory limit",
            ),
            (
                Halt::Ended {
                    code: None,
                    signal: Some(11),
                },
                "the compiler was killed by signal 11 (SIGSEGV)",
            ),
            (
                Halt::CpuTime { seconds: 120 },
                "the compiler used up its 120 s of CPU time and was stopped",
            ),
        ];
        for (halt, wanted) in endings {
            let file = "router.rs".into();
            let (message, traceback) = say(Unbuilt::CompilerStopped { file, halt }, "");
            assert!(
                message.starts_with(&format!("router.rs could not be compiled: {wanted} (")),
                "{message}"
            );
            assert_eq!(traceback, "rustc said so");
        }
        let silent = Unbuilt::NoDiagnostic {
            file: "router.rs".into(),
            code: Some(1),
            signal: None,
        };
        assert_eq!(
            say(silent, "").0,
            "router.rs could not be compiled: the compiler exited with code 1 without a diagnostic"
        );
    }

    /// The driver's failure is told as the item the learner must write,
    /// where rustc points in their file, and every item the driver calls.
    #[test]
    fn a_router_of_the_wrong_shape_is_told_the_shape_wanted() {
        let item = |name, takes: &[&str], returns: Option<&str>| DriverItem {
            name,
            takes: takes.iter().map(|t| t.to_string()).collect(),
            returns: returns.map(str::to_owned),
        };
        let route = item(
            DriverItemName::Method("route".into()),
            &["&str"],
            Some("Option<String>"),
        );
        let calls = vec![
            item(DriverItemName::Type, &[], None),
            item(DriverItemName::New, &["Vec<String>"], Some("Router")),
            item(DriverItemName::Method("add".into()), &["&str"], None),
            route.clone(),
            item(DriverItemName::H32, &["&str"], Some("u32")),
        ];
        let unbuilt = Unbuilt::Shape {
            file: "router.rs".into(),
            wanted: Some(route),
            at: Some((14, 5)),
            calls: calls.clone(),
        };
        let (message, traceback) = say(unbuilt, "error[E0308]: mismatched types");
        assert_eq!(
            message,
            "Router::route must take &str and return Option<String>: \
             error[E0308]: mismatched types at router.rs:14:5"
        );
        assert_eq!(
            traceback,
            "The grader calls these from outside router.rs, so each must be `pub` at the root \
             of your file:\n  Router must be a `pub struct` at the root of your file\n  \
             Router::new must take Vec<String> and return Router\n  Router::add must take &str\n  \
             Router::route must take &str and return Option<String>\n  \
             h32 must take &str and return u32 (optional)"
        );
        let unknown = Unbuilt::Shape {
            file: "router.rs".into(),
            wanted: None,
            at: None,
            calls,
        };
        assert_eq!(
            say(unknown, "error: x").0,
            "your Router does not have what the grader calls: error: x"
        );
    }

    #[test]
    fn a_file_the_grader_will_not_read_says_what_to_do() {
        let file = || "router.py".to_owned();
        let cases = [
            (
                Unbuilt::TooLarge {
                    file: file(),
                    most_bytes: 8 << 20,
                },
                "router.py is larger than 8 MiB, the most source a submission may have; \
                 submit the module alone, without data or generated code",
            ),
            (
                Unbuilt::NotUtf8 {
                    file: file(),
                    byte: 3,
                },
                "router.py is not UTF-8 text (byte 3 is not valid UTF-8); save it as UTF-8",
            ),
            (
                Unbuilt::Tsconfig {
                    file: "src/tsconfig.json".into(),
                    problem: TsconfigProblem::NotJson {
                        line: 3,
                        column: 5,
                        error: "key must be a string".into(),
                    },
                },
                "src/tsconfig.json:3:5: not valid JSON (key must be a string); \
                 fix it, or remove it if it is not yours",
            ),
            (
                Unbuilt::TranspilerStopped {
                    file: "router.ts".into(),
                    halt: Halt::TimedOut { seconds: 30 },
                    stack_bytes: 256 << 20,
                    memory_bytes: 2 << 30,
                },
                "router.ts could not be transpiled: the TypeScript parser ran past 30 s (code \
                 nested too deeply? the parser keeps nesting within 256 MiB of stack and 2 GiB \
                 of memory)",
            ),
        ];
        for (unbuilt, wanted) in cases {
            assert_eq!(say(unbuilt, "").0, wanted);
        }
        let missing = say(
            Unbuilt::MissingCrate {
                name: "rand".into(),
            },
            "error[E0433]: unlinked crate `rand` at router.rs:1:5",
        );
        assert!(
            missing.0.starts_with(
                "error[E0433]: unlinked crate `rand` at router.rs:1:5: `rand` is neither a module"
            ),
            "{}",
            missing.0
        );
    }

    /// Without a reason of the grader's, the error is the learner's own
    /// text, untouched; the wire cannot bring a reason.
    #[test]
    fn a_learners_own_error_is_left_as_it_is() {
        let mut error = LearnerException::new(ErrorKind::Other("KeyError".into()), "'a'".into());
        error.traceback = "line 3".into();
        assert_eq!(worded(&error), ("'a'".into(), "line 3".into()));
        let claimed: LearnerException = serde_json::from_value(serde_json::json!({
            "type": "CompileError",
            "message": "m",
            "unbuilt": {"not_utf8": {"file": "x", "byte": 1}}
        }))
        .unwrap();
        assert_eq!(claimed.unbuilt, None);
        assert_eq!(worded(&claimed).0, "m");
    }
}
