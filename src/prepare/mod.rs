//! Prepare: what a submission needs before it can run. TypeScript is
//! transpiled in-process, Rust is compiled in the sandbox under limits;
//! both are cached by content, so grading the same file again costs
//! nothing. A learner's compile error is a verdict, never a fault.

pub mod rust;
pub mod typescript;

use crate::batch::write_atomically;
use crate::challenge::Challenge;
use crate::error::Error;
use crate::run::{Environment, Language, LearnerError, Submission, describe_exit};
use crate::sandbox;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// How long a compiler may run.
pub const COMPILE_LIMIT: Duration = Duration::from_secs(120);
/// Compiler output kept for a compile error.
const COMPILE_OUTPUT_CAP: usize = 64 * 1024;

/// What preparing a submission cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Build {
    /// Whether the artifact came from the cache (nothing was compiled).
    pub cached: bool,
    pub time_ms: u64,
}

/// A prepared submission: the artifact to run, if it needed one.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub artifact: Option<PathBuf>,
    pub build: Option<Build>,
}

/// Prepares `submission` for `challenge`. The inner `Err` is the learner's
/// compile error.
pub fn prepare(
    env: &Environment,
    challenge: &Challenge,
    submission: &Submission,
) -> Result<Result<Prepared, LearnerError>, Error> {
    let started = Instant::now();
    let (artifact, cached) = match submission.language {
        Language::Python | Language::JavaScript | Language::Executable | Language::Unknown => {
            return Ok(Ok(Prepared {
                artifact: None,
                build: None,
            }));
        }
        Language::TypeScript => match transpile(env, submission)? {
            Ok(done) => done,
            Err(e) => return Ok(Err(e)),
        },
        Language::Rust => match compile_rust(env, challenge, submission)? {
            Ok(done) => done,
            Err(e) => return Ok(Err(e)),
        },
    };
    Ok(Ok(Prepared {
        artifact: Some(artifact),
        build: Some(Build {
            cached,
            time_ms: started.elapsed().as_millis() as u64,
        }),
    }))
}

fn read_source(submission: &Submission) -> Result<String, Error> {
    std::fs::read_to_string(&submission.absolute).map_err(|e| {
        Error::Usage(format!(
            "cannot read submission {} as UTF-8 text: {e}",
            submission.path.display()
        ))
    })
}

fn key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn cache_folder(env: &Environment, kind: &str) -> Result<PathBuf, Error> {
    let dir = env.cache_dir().join(kind);
    std::fs::create_dir_all(&dir).map_err(|source| Error::Io {
        context: format!(
            "cannot create the cache folder {} (choose another with --cache-dir)",
            dir.display()
        ),
        source,
    })?;
    Ok(dir)
}

type Done = Result<(PathBuf, bool), LearnerError>;

fn transpile(env: &Environment, submission: &Submission) -> Result<Done, Error> {
    let source = read_source(submission)?;
    let path = submission.absolute.to_string_lossy();
    let key = key(&[
        b"ts",
        env!("CARGO_PKG_VERSION").as_bytes(),
        path.as_bytes(),
        source.as_bytes(),
    ]);
    let out = cache_folder(env, "ts")?.join(format!("{key}.mjs"));
    if out.is_file() {
        return Ok(Ok((out, true)));
    }
    let js = match typescript::transpile(&source, &submission.absolute) {
        Ok(js) => js,
        Err(e) => return Ok(Err(e)),
    };
    write_atomically(&out, js.as_bytes())?;
    Ok(Ok((out, false)))
}

/// The Rust toolchain: the real rustc inside the sysroot (not rustup's
/// proxy, which needs the home folder) and its version.
fn toolchain() -> Result<(PathBuf, PathBuf, String), Error> {
    static FOUND: OnceLock<Result<(PathBuf, PathBuf, String), String>> = OnceLock::new();
    let found = FOUND.get_or_init(|| {
        let rustc = std::env::var_os("GRADER_RUSTC").unwrap_or_else(|| "rustc".into());
        let run = |arg: &str| {
            std::process::Command::new(&rustc)
                .arg(arg)
                .output()
                .map_err(|e| format!("`{}`: {e}", rustc.to_string_lossy()))
                .and_then(|o| {
                    if o.status.success() {
                        Ok(String::from_utf8_lossy(&o.stdout).trim().to_owned())
                    } else {
                        Err(format!(
                            "`{} {arg}` {}",
                            rustc.to_string_lossy(),
                            describe_exit(o.status)
                        ))
                    }
                })
        };
        let sysroot = PathBuf::from(run("--print=sysroot")?);
        // "rustc 1.95.0 (59807616e 2026-04-14)" reads as "rustc 1.95.0".
        let version = run("--version")?
            .split(" (")
            .next()
            .unwrap_or_default()
            .to_owned();
        Ok((sysroot.join("bin/rustc"), sysroot, version))
    });
    found.clone().map_err(|detail| Error::Runtime {
        program: "rustc".into(),
        hint: "install Rust (rustup) or set GRADER_RUSTC to the rustc to use".into(),
        source: std::io::Error::other(detail),
    })
}

fn compile_rust(
    env: &Environment,
    challenge: &Challenge,
    submission: &Submission,
) -> Result<Done, Error> {
    let source = read_source(submission)?;
    let (rustc, sysroot, version) = toolchain()?;
    let driver = rust::driver_source(
        challenge.model,
        &challenge.operations,
        &submission.absolute,
        rust::has_h32(&source),
        &version,
    );
    let key = key(&[
        b"rust",
        version.as_bytes(),
        driver.as_bytes(),
        source.as_bytes(),
    ]);
    let folder = cache_folder(env, "rust")?;
    let done = folder.join(&key);
    let binary = done.join("router");
    let failed = folder.join(format!("{key}.error.json"));
    if binary.is_file() {
        return Ok(Ok((binary, true)));
    }
    // A compile error is as deterministic as a success: remembered too.
    if let Some(error) = std::fs::read(&failed)
        .ok()
        .and_then(|b| serde_json::from_slice::<LearnerError>(&b).ok())
    {
        return Ok(Err(error));
    }
    let build = folder.join(format!("build-{key}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&build);
    std::fs::create_dir_all(&build)
        .map_err(Error::io(format!("cannot create {}", build.display())))?;
    std::fs::write(build.join("main.rs"), &driver)
        .map_err(Error::io("cannot write the Rust driver"))?;
    let learner_dir = submission.absolute.parent().unwrap_or(Path::new("/"));
    let args: Vec<OsString> = vec![
        "--edition=2021".into(),
        "-O".into(),
        "--color=never".into(),
        "-A".into(),
        "warnings".into(),
        "--crate-name=router".into(),
        "--crate-type=bin".into(),
        format!("--remap-path-prefix={}/=", learner_dir.display()).into(),
        format!("--remap-path-prefix={}/=<grader-driver>/", build.display()).into(),
        "-o".into(),
        build.join("router").into(),
        build.join("main.rs").into(),
    ];
    let (own, list) = env.submission_paths(&submission.absolute);
    let mut read = vec![sysroot];
    read.extend(own);
    let limits = sandbox::Limits {
        cpu_seconds: COMPILE_LIMIT.as_secs(),
        memory_bytes: 4 << 30,
        processes: 256,
        open_files: 1024,
        file_size_bytes: 1 << 30,
        scratch_bytes: 1 << 30,
    };
    let access = crate::run::Access {
        read,
        list,
        write: vec![build.clone()],
    };
    let (command, _) = env.contained(&rustc, &args, access, limits, false)?;
    let finished = crate::run::run_to_end(command, COMPILE_LIMIT, COMPILE_OUTPUT_CAP)
        .map_err(Error::io("cannot run rustc in the sandbox"))?;
    let compiled = finished.status.is_some_and(|s| s.success()) && build.join("router").is_file();
    if !compiled {
        let _ = std::fs::remove_dir_all(&build);
        let error = compile_error(challenge, &finished)?;
        if !finished.timed_out
            && let Ok(bytes) = serde_json::to_vec(&error)
        {
            write_atomically(&failed, &bytes)?;
        }
        return Ok(Err(error));
    }
    if std::fs::rename(&build, &done).is_err() {
        // Another grader finished the same build first: use its result.
        let _ = std::fs::remove_dir_all(&build);
    }
    Ok(Ok((binary, false)))
}

/// A rustc failure as the learner's compile error: the first error, where
/// it is, and the whole diagnostic. A failure without any diagnostic is not
/// the learner's: the compiler or the sandbox broke.
fn compile_error(
    challenge: &Challenge,
    finished: &crate::run::Finished,
) -> Result<LearnerError, Error> {
    let text = finished.stderr.trim_end().to_owned();
    if finished.timed_out {
        return Ok(LearnerError {
            kind: "CompileError".into(),
            message: format!(
                "the compiler ran past {} s and was stopped",
                COMPILE_LIMIT.as_secs()
            ),
            traceback: text,
            line: None,
            op_index: None,
            errno: None,
        });
    }
    let Some(first_error) = text
        .lines()
        .find(|l| l.starts_with("error"))
        .map(str::to_owned)
    else {
        return Err(Error::Io {
            context: format!(
                "rustc failed without a diagnostic ({})",
                finished
                    .status
                    .map(describe_exit)
                    .unwrap_or_else(|| "killed".into())
            ),
            source: std::io::Error::other(if text.is_empty() {
                "no output".into()
            } else {
                text
            }),
        });
    };
    let place = text
        .lines()
        .find_map(|l| l.trim_start().strip_prefix("--> "))
        .map(str::to_owned);
    let line = place
        .as_deref()
        .and_then(|p| p.rsplit(':').nth(1))
        .and_then(|l| l.parse().ok());
    let mut message = match &place {
        Some(place) => format!("{first_error} at {place}"),
        None => first_error,
    };
    if place
        .as_deref()
        .is_some_and(|p| p.starts_with("<grader-driver>"))
    {
        let wanted: Vec<String> = challenge.operations.iter().map(|s| s.to_string()).collect();
        message.push_str(&format!(
            " (in the grader's driver: your Router must have Router::new and the methods for {})",
            wanted.join(", ")
        ));
    }
    Ok(LearnerError {
        kind: "CompileError".into(),
        message,
        traceback: text,
        line,
        op_index: None,
        errno: None,
    })
}
