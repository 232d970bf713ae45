//! A failed Rust build, read: rustc's JSON diagnostics as the learner's
//! compile error, or what stopped the compiler (a limit, a signal, no
//! diagnostic at all) and whether the failure is worth remembering. An
//! error in the grader's driver (the learner's Router does not have what
//! it calls) is told in the learner's terms: the signature wanted and the
//! place in their file, never the driver's.

use super::{COMPILE_LIMIT, COMPILE_MEMORY};
use crate::challenge::Challenge;
use crate::error::Error;
use crate::protocol::{ErrorKind, LearnerException};
use crate::unbuilt::{DriverItem, DriverItemName, Halt, Unbuilt};
use reference::{Kind, Returns, Signature};
use sandbox::Finished;

/// One of rustc's JSON diagnostics, the parts read here.
#[derive(Debug, serde::Deserialize)]
struct Diagnostic {
    message: String,
    level: String,
    code: Option<Code>,
    #[serde(default)]
    spans: Vec<Span>,
    #[serde(default)]
    children: Vec<Diagnostic>,
    rendered: Option<String>,
}

/// Which of the two compiles failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Stage {
    /// The learner's file, as the crate `submission`.
    Learner,
    /// The grader's driver, linked with it.
    Driver,
}

#[derive(Debug, serde::Deserialize)]
struct Code {
    code: String,
}

#[derive(Debug, serde::Deserialize)]
struct Span {
    file_name: String,
    line_start: u64,
    column_start: u64,
    is_primary: bool,
    #[serde(default)]
    label: Option<String>,
    #[serde(default)]
    text: Vec<SpanLine>,
}

#[derive(Debug, serde::Deserialize)]
struct SpanLine {
    text: String,
}

/// A rustc failure as the learner's compile error, and whether it is
/// deterministic (worth remembering): the first error, where it is, and
/// every diagnostic as rustc renders it; or, for a compiler that was
/// stopped, killed or went silent, what happened and the limit it hit. Only
/// a sandbox that could not start the compiler is the grader's fault.
pub(super) fn compile_error(
    challenge: &Challenge,
    name: &str,
    stage: Stage,
    finished: &Finished,
) -> Result<(LearnerException, bool), Error> {
    use std::os::unix::process::ExitStatusExt;
    let diagnostics: Vec<Diagnostic> = finished
        .stderr
        .lines()
        .filter_map(|line| serde_json::from_str(line).ok())
        .collect();
    // What rustc said in plain text besides its diagnostics (an ICE, a
    // linker's complaint) stays in the traceback.
    // As rustc prints them for people: a blank line after each diagnostic.
    let mut text = String::new();
    for line in finished.stderr.lines() {
        match serde_json::from_str::<Diagnostic>(line) {
            Ok(d) => {
                let shown = d.rendered.as_deref().unwrap_or(&d.message);
                text.push_str(anstream::adapter::strip_str(shown).to_string().trim_end());
                text.push_str("\n\n");
            }
            // A diagnostic cut off at the output cap is dropped whole.
            Err(_) if line.starts_with('{') => {}
            Err(_) => {
                text.push_str(line);
                text.push('\n');
            }
        }
    }
    let text = text.trim_end().to_owned();
    let code = finished.status.and_then(|s| s.code());
    if code == Some(sandbox::SHIM_FAILED) {
        return Err(Error::Io {
            context: "cannot start rustc in the sandbox".into(),
            source: std::io::Error::other(text),
        });
    }
    // The sandbox's init passes a signal death on as 128 + the signal.
    let signal = finished.status.and_then(|s| {
        s.signal().or_else(|| {
            s.code()
                .filter(|c| (129..=128 + 64).contains(c))
                .map(|c| c - 128)
        })
    });
    let seconds = COMPILE_LIMIT.as_secs();
    let out_of_memory = ["out of memory", "memory allocation of", "Allocation failed"]
        .iter()
        .any(|m| text.contains(m));
    let halt = if finished.timed_out {
        Some(Halt::TimedOut { seconds })
    } else if signal == Some(libc::SIGXCPU) {
        Some(Halt::CpuTime { seconds })
    } else if out_of_memory {
        Some(Halt::OutOfMemory {
            most_bytes: COMPILE_MEMORY,
        })
    } else if signal == Some(libc::SIGKILL) {
        Some(Halt::Killed {
            most_bytes: COMPILE_MEMORY,
        })
    } else {
        signal.map(|signal| Halt::Ended {
            code: None,
            signal: Some(signal),
        })
    };
    if let Some(halt) = halt {
        let file = name.to_owned();
        let mut error =
            LearnerException::unbuilt(Unbuilt::CompilerStopped { file, halt }, String::new());
        error.traceback = text.into();
        return Ok((error, false));
    }
    // "error", or "error: internal compiler error": the compiler's own
    // failure on the learner's code is still where they must change it.
    let Some(first) = diagnostics.iter().find(|d| d.level.starts_with("error")) else {
        let unbuilt = Unbuilt::NoDiagnostic {
            file: name.to_owned(),
            code,
            signal: finished.status.and_then(|s| s.signal()),
        };
        let mut error = LearnerException::unbuilt(unbuilt, String::new());
        error.traceback = text.into();
        return Ok((error, false));
    };
    // An ordinary error (exit code 1) is the same next time; a compiler's
    // crash may not be. Nor is one that points at no line of any file:
    // rustc could not read its input or write its output, or the linker
    // failed, which is the machine's or the grader's doing.
    let span = first
        .spans
        .iter()
        .find(|s| s.is_primary)
        .or(first.spans.first());
    let deterministic = code == Some(1) && first.level == "error" && span.is_some();
    let headline = match &first.code {
        Some(code) => format!("error[{}]: {}", code.code, first.message),
        None => format!("error: {}", first.message),
    };
    // An error of the driver's stage at no line (the linker failed, an
    // output could not be written) is told in rustc's own words: it is not
    // a call the learner's Router lacks. It stays the learner's verdict,
    // since a crate can make the linker fail on purpose (`#[link(name =
    // ...)]`), saying whatever it likes.
    let in_driver = (stage == Stage::Driver && span.is_some())
        || span.is_some_and(|s| s.file_name.starts_with(DRIVER));
    if in_driver {
        return Ok((
            driver_error(challenge, name, first, &headline),
            deterministic,
        ));
    }
    let place = span.map(|s| format!("{}:{}:{}", s.file_name, s.line_start, s.column_start));
    let message = match &place {
        Some(place) => format!("{headline} at {place}"),
        None => headline,
    };
    let mut error = match missing_crate(first) {
        Some(name) => LearnerException::unbuilt(Unbuilt::MissingCrate { name }, message),
        None => LearnerException::new(ErrorKind::CompileError, message),
    };
    error.traceback = text.into();
    error.line = span.map(|s| s.line_start);
    Ok((error, deterministic))
}

/// Where the driver's files are, as rustc names them (remapped).
const DRIVER: &str = "<grader-driver>";

/// The crate a diagnostic could not find, for `use rand::Rng;`,
/// `rand::random()` or `extern crate rand;`.
fn missing_crate(d: &Diagnostic) -> Option<String> {
    let quoted = |text: &str, after: &str| {
        let rest = &text[text.find(after)? + after.len()..];
        Some(rest.split('`').next()?.to_owned())
    };
    let labels = d.spans.iter().filter_map(|s| s.label.as_deref());
    std::iter::once(d.message.as_str())
        .chain(labels)
        .find_map(|text| {
            quoted(text, "unlinked crate `").or_else(|| quoted(text, "can't find crate for `"))
        })
}

/// A name in the learner's crate as they write it: the driver sees it as
/// the crate `submission`.
fn learners_terms(text: &str, name: &str) -> String {
    text.replace("crate `submission`", &format!("`{name}`"))
        .replace("submission::", "")
}

/// What the driver calls, with its Rust types.
fn wanted(challenge: &Challenge, call: Call) -> DriverItem {
    let kind = |k: &Kind| match k {
        Kind::Name => "&str",
        Kind::Count | Kind::Size => "usize",
        Kind::Weight => "f64",
        Kind::Names => "Vec<String>",
        Kind::WeightedNames => "Vec<(String, f64)>",
    };
    let takes = |kinds: &[Kind]| kinds.iter().map(|k| kind(k).to_owned()).collect();
    let item = |name, takes, returns: Option<&str>| DriverItem {
        name,
        takes,
        returns: returns.map(str::to_owned),
    };
    match call {
        Call::New => item(
            DriverItemName::New,
            takes(challenge.model.constructor),
            Some("Router"),
        ),
        Call::Type => item(DriverItemName::Type, Vec::new(), None),
        Call::H32 => item(DriverItemName::H32, vec!["&str".into()], Some("u32")),
        Call::Method(sig) => {
            let returns = match sig.returns {
                Returns::Nothing => None,
                Returns::MaybeName => Some("Option<String>"),
                Returns::Names => Some("Vec<String>"),
                Returns::Count => Some("usize"),
                Returns::Loads => Some("Vec<(String, usize)>"),
            };
            item(
                DriverItemName::Method(sig.name.to_owned()),
                takes(sig.operands),
                returns,
            )
        }
    }
}

/// What a line of the driver calls.
#[derive(Clone, Copy)]
enum Call {
    Type,
    New,
    H32,
    Method(&'static Signature),
}

/// The call on the driver's line `line`, read from the glue it generates.
fn call_on(challenge: &Challenge, line: &str) -> Option<Call> {
    if line.contains("Router::new(") {
        return Some(Call::New);
    }
    if line.contains("submission::h32(") {
        return Some(Call::H32);
    }
    let method = challenge
        .operations
        .iter()
        .find(|sig| line.trim_start().starts_with(&format!("{:?} =>", sig.name)));
    match method {
        Some(sig) => Some(Call::Method(sig)),
        None if line.contains("submission::Router") => Some(Call::Type),
        None => None,
    }
}

/// An error in the driver as the learner's: which of their items does not
/// have the shape the grader calls, and where it is in their file when
/// rustc points there; the traceback lists every call the grader makes.
fn driver_error(
    challenge: &Challenge,
    name: &str,
    first: &Diagnostic,
    headline: &str,
) -> LearnerException {
    let primary = first
        .spans
        .iter()
        .find(|s| s.is_primary)
        .or(first.spans.first());
    let call = primary
        .and_then(|s| s.text.first())
        .and_then(|l| call_on(challenge, &l.text));
    // rustc's notes point at the learner's item ("method defined here")
    // through the crate's metadata, under their file's name.
    let theirs = std::iter::once(first)
        .chain(first.children.iter())
        .flat_map(|d| d.spans.iter())
        .find(|s| s.file_name == name);
    let mut calls = vec![wanted(challenge, Call::Type), wanted(challenge, Call::New)];
    calls.extend(
        challenge
            .operations
            .iter()
            .map(|sig| wanted(challenge, Call::Method(sig))),
    );
    calls.push(wanted(challenge, Call::H32));
    let unbuilt = Unbuilt::Shape {
        file: name.to_owned(),
        wanted: call.map(|call| wanted(challenge, call)),
        at: theirs.map(|s| (s.line_start, s.column_start)),
        calls,
    };
    let mut error = LearnerException::unbuilt(unbuilt, learners_terms(headline, name));
    error.line = theirs.map(|s| s.line_start);
    error
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;
    use std::path::PathBuf;
    use std::process::ExitStatus;

    #[test]
    fn a_compile_error_is_read_from_rustcs_json_diagnostics() {
        let challenge_dir =
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        let challenge = Challenge::load(&challenge_dir, "rendezvous-router").unwrap();
        // What rustc 1.9x writes for a type error, one diagnostic a line.
        let stderr = concat!(
            r#"{"$message_type":"diagnostic","message":"mismatched types","code":{"code":"E0308","explanation":null},"level":"error","spans":[{"file_name":"router.rs","byte_start":1,"byte_end":2,"line_start":14,"line_end":14,"column_start":9,"column_end":10,"is_primary":true,"text":[],"label":"expected `u32`","suggested_replacement":null,"suggestion_applicability":null,"expansion":null}],"children":[],"rendered":"\u001b[1merror[E0308]\u001b[0m: mismatched types\n --> router.rs:14:9\n"}"#,
            "\n",
            r#"{"$message_type":"diagnostic","message":"aborting due to 1 previous error","code":null,"level":"error","spans":[],"children":[],"rendered":"error: aborting due to 1 previous error\n"}"#,
            "\n"
        );
        let finished = Finished {
            status: None,
            stdout: String::new(),
            stderr: stderr.into(),
            timed_out: false,
        };
        let (error, deterministic) =
            compile_error(&challenge, "router.rs", Stage::Learner, &finished).unwrap();
        assert!(!deterministic, "no exit code: not remembered");
        assert_eq!(
            error.message,
            "error[E0308]: mismatched types at router.rs:14:9"
        );
        assert_eq!(error.line, Some(14));
        assert_eq!(
            &*error.traceback,
            "error[E0308]: mismatched types\n --> router.rs:14:9\n\nerror: aborting due to 1 previous error"
        );
        let ordinary = Finished {
            status: Some(ExitStatus::from_raw(1 << 8)),
            ..finished.clone()
        };
        assert!(
            compile_error(&challenge, "router.rs", Stage::Learner, &ordinary)
                .unwrap()
                .1
        );
    }

    fn ended(status: Option<i32>, stderr: &str, timed_out: bool) -> Finished {
        Finished {
            status: status.map(ExitStatus::from_raw),
            stdout: String::new(),
            stderr: stderr.into(),
            timed_out,
        }
    }

    /// Every way a build can end without an ordinary error is the learner's
    /// compile error saying what happened and the limit, never remembered;
    /// only a sandbox that could not start rustc is the grader's fault.
    #[test]
    fn a_compiler_stopped_killed_or_silent_is_a_compile_error_naming_why() {
        let challenge_dir =
            PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        let challenge = Challenge::load(&challenge_dir, "rendezvous-router").unwrap();
        // (wait status, stderr, timed out, why it was stopped)
        let exit = |code: i32| Some(code << 8);
        let memory = COMPILE_MEMORY;
        let signal = |signal| Halt::Ended {
            code: None,
            signal: Some(signal),
        };
        let stopped = |halt| Unbuilt::CompilerStopped {
            file: "router.rs".into(),
            halt,
        };
        let endings = [
            (None, "", true, stopped(Halt::TimedOut { seconds: 120 })),
            // LLVM's own report of a failed allocation, then SIGABRT,
            // passed on by the sandbox's init as 128 + 6.
            (
                exit(134),
                "rustc-LLVM ERROR: out of memory\nAllocation failed\n",
                false,
                stopped(Halt::OutOfMemory { most_bytes: memory }),
            ),
            (
                exit(137),
                "",
                false,
                stopped(Halt::Killed { most_bytes: memory }),
            ),
            (
                Some(libc::SIGSEGV),
                "",
                false,
                stopped(signal(libc::SIGSEGV)),
            ),
            (
                exit(128 + libc::SIGABRT),
                "",
                false,
                stopped(signal(libc::SIGABRT)),
            ),
            (
                exit(128 + libc::SIGXCPU),
                "",
                false,
                stopped(Halt::CpuTime { seconds: 120 }),
            ),
            (
                exit(1),
                "Killed\n",
                false,
                Unbuilt::NoDiagnostic {
                    file: "router.rs".into(),
                    code: Some(1),
                    signal: None,
                },
            ),
        ];
        for (status, stderr, timed_out, wanted) in endings {
            let (error, deterministic) = compile_error(
                &challenge,
                "router.rs",
                Stage::Learner,
                &ended(status, stderr, timed_out),
            )
            .unwrap_or_else(|e| panic!("{wanted:?}: a grader fault: {e}"));
            assert_eq!(error.kind, ErrorKind::CompileError);
            assert_eq!(error.unbuilt.as_deref(), Some(&wanted));
            assert_eq!(&*error.traceback, stderr.trim_end(), "rustc's text is kept");
            assert!(!deterministic, "{wanted:?}: must not be remembered");
        }
        // An internal compiler error is the learner's too, but not remembered.
        let ice = r#"{"message":"internal compiler error: unexpected panic","level":"error: internal compiler error","code":null,"spans":[],"rendered":"error: internal compiler error: unexpected panic\n"}"#;
        let (error, deterministic) = compile_error(
            &challenge,
            "router.rs",
            Stage::Learner,
            &ended(exit(101), ice, false),
        )
        .unwrap();
        assert!(
            error.message.contains("internal compiler error"),
            "{}",
            error.message
        );
        assert!(!deterministic);
        // The sandbox could not start rustc: the grader's.
        let shim = ended(
            exit(sandbox::SHIM_FAILED),
            "rendezvous-grader sandbox: cannot run rustc\n",
            false,
        );
        assert!(compile_error(&challenge, "router.rs", Stage::Learner, &shim).is_err());
    }
}
