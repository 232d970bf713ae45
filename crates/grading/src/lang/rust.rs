//! Rust: the learner's `router.rs` compiled with `rustc -O` together with
//! the grader's driver, whose glue (how to build the Router, how to call
//! each operation) is generated from the challenge's signatures. rustc runs
//! in the sandbox under limits; builds and compile errors are cached by the
//! content of the driver, the source and the compiler's version.

use super::{Submission, bare};
use crate::challenge::Challenge;
use crate::error::Error;
use crate::protocol::LearnerException;
use crate::unbuilt::Unbuilt;
use reference::{Kind, ModelSpec, Returns, Signature};
use sandbox::{Access, BuildCost, Environment, Program, ToolLimits};
use std::ffi::OsString;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::Duration;

mod diagnostics;
mod shape;
mod snippet;

use diagnostics::{Stage, compile_error};
pub(super) use shape::declared_shape;
pub(super) use snippet::snippet;

const TEMPLATE: &str = include_str!("../../../../drivers/rust_driver.rs");

/// How long the compiler may run.
pub const COMPILE_LIMIT: Duration = Duration::from_secs(120);
/// The memory the compiler may use (RLIMIT_DATA).
pub const COMPILE_MEMORY: u64 = 4 << 30;
/// Compiler output kept for a compile error.
/// rustc's JSON diagnostics (each with its rendering) are several times
/// the size of its plain text.
const COMPILE_OUTPUT_CAP: usize = 1 << 20;

/// The compiled binary runs as it is: it is the driver. Its session is
/// granted that one file, not the cache folder of everyone's.
pub(super) fn program(submission: &Submission, binary: &Path, build: BuildCost) -> Program {
    let mut program = bare(submission, binary.to_owned());
    program.read.push(binary.to_owned());
    program.build = Some(build);
    program
}

/// Whether the learner's crate exposes `h32` at its root, where the
/// driver calls it: a `pub fn h32` or a `pub use` naming it, outside every
/// block (an `h32` inside `mod hashing` is the learner's own helper, not
/// reachable as `submission::h32`). Comments and literals are skipped.
pub fn has_h32(source: &str) -> bool {
    let (text, depth) = code_and_depth(source);
    let at_top = |i: usize| depth[i] == 0;
    let starts = |word: &str| {
        text.match_indices(word)
            .filter(|(i, _)| at_top(*i) && (*i == 0 || !is_ident(text[..*i].chars().last())))
            .map(|(i, _)| i + word.len())
            .collect::<Vec<_>>()
    };
    let public_fn = starts("pub fn").into_iter().any(|after| {
        text[after..]
            .trim_start()
            .strip_prefix("h32")
            .is_some_and(|r| r.trim_start().starts_with('('))
    });
    let public_use = starts("pub use").into_iter().any(|after| {
        let statement = text[after..].split(';').next().unwrap_or_default();
        statement
            .split(|c: char| !is_ident(Some(c)))
            .any(|word| word == "h32")
    });
    public_fn || public_use
}

fn is_ident(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// `source` with comments and string and character literals blanked
/// out, and the brace depth at each byte.
fn code_and_depth(source: &str) -> (String, Vec<u32>) {
    let bytes = source.as_bytes();
    let mut text = Vec::with_capacity(bytes.len());
    let mut depth = Vec::with_capacity(bytes.len());
    let mut level = 0u32;
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        let skip = if rest.starts_with(b"//") {
            rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            rest.windows(2)
                .skip(2)
                .position(|w| w == b"*/")
                .map_or(rest.len(), |p| p + 4)
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            (j + 1).min(rest.len())
        } else if rest[0] == b'\'' && rest.get(2) == Some(&b'\'') {
            3
        } else {
            0
        };
        if skip > 0 {
            text.extend(std::iter::repeat_n(b' ', skip));
            depth.extend(std::iter::repeat_n(level, skip));
            i += skip;
            continue;
        }
        match rest[0] {
            b'{' => {
                depth.push(level);
                level += 1;
            }
            b'}' => {
                level = level.saturating_sub(1);
                depth.push(level);
            }
            _ => depth.push(level),
        }
        text.push(if rest[0].is_ascii() { rest[0] } else { b' ' });
        i += 1;
    }
    (String::from_utf8(text).unwrap_or_default(), depth)
}

/// The driver's source, with the glue for `model`'s constructor and the
/// challenge's `operations`, calling into the learner's crate `submission`.
pub fn driver_source(
    model: &ModelSpec,
    operations: &[&'static Signature],
    h32: bool,
    runtime: &str,
) -> String {
    let mut glue = String::new();
    let _ = writeln!(glue, "const RUNTIME: &str = {runtime:?};");
    if h32 {
        glue.push_str(
            "const H32: Option<fn(&str) -> u64> = Some(|t| submission::h32(t) as u64);\n",
        );
    } else {
        glue.push_str("const H32: Option<fn(&str) -> u64> = None;\n");
    }
    let args: Vec<String> = model
        .constructor
        .iter()
        .enumerate()
        .map(|(i, kind)| match kind {
            Kind::Name => format!("arg_str(args, {i}).to_owned()"),
            Kind::Count | Kind::Size => format!("arg_usize(args, {i})"),
            Kind::Weight => format!("arg_f64(args, {i})"),
            Kind::Names => format!("arg_names(&args[{i}])"),
            Kind::WeightedNames => format!("arg_pairs(&args[{i}])"),
        })
        .collect();
    let _ = writeln!(
        glue,
        "fn construct(args: &[Json]) -> submission::Router {{\n    submission::Router::new({})\n}}",
        args.join(", ")
    );
    glue.push_str("fn dispatch(router: &mut submission::Router, op: &[Json]) -> Json {\n    match arg_str(op, 0) {\n");
    for signature in operations {
        let operands: Vec<String> = signature
            .operands
            .iter()
            .enumerate()
            .map(|(k, kind)| match kind {
                Kind::Count | Kind::Size => format!("arg_usize(op, {})", k + 1),
                Kind::Weight => format!("arg_f64(op, {})", k + 1),
                _ => format!("arg_str(op, {})", k + 1),
            })
            .collect();
        let call = format!("router.{}({})", signature.name, operands.join(", "));
        let body = match signature.returns {
            Returns::Nothing => format!("{{ let _ = {call}; Json::Null }}"),
            _ => format!("{call}.to_json()"),
        };
        let _ = writeln!(glue, "        {:?} => {body},", signature.name);
    }
    glue.push_str(
        "        other => panic!(\"the grader's driver has no operation {other}\"),\n    }\n}\n",
    );
    TEMPLATE.replace("@@GLUE@@", &glue)
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
                        // What it said is why (rustup's proxy without its
                        // home: no default toolchain), a few lines of it.
                        let said = String::from_utf8_lossy(&o.stderr);
                        let said: Vec<&str> = said
                            .lines()
                            .map(str::trim)
                            .filter(|l| !l.is_empty())
                            .take(5)
                            .collect();
                        let said = match said.is_empty() {
                            true => String::new(),
                            false => format!(": {}", said.join(" / ")),
                        };
                        Err(format!(
                            "`{} {arg}` {}{said}",
                            rustc.to_string_lossy(),
                            sandbox::describe_exit(o.status)
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

/// Changes whenever how the grader builds a submission changes (the
/// driver's template, rustc's arguments, the sandbox's grants, which
/// failures are remembered), so that a build or a compile error cached by
/// an older grader of the same version is never served.
const BUILD_REVISION: &[u8] = b"remember-only-spanned-errors-1";

/// What a cached Rust build is, first in its key.
const BUILD_KIND: &[u8] = b"rust: rlib submission, bin driver, every file granted beside it";

/// The cache key of a build by this grader at `revision` from `inputs`
/// (the compiler's version, the edition, the driver's source, the
/// learner's source and the digest of their folder).
fn build_key(revision: &[u8], inputs: &[&str; 5]) -> String {
    let mut parts: Vec<&[u8]> = vec![BUILD_KIND, env!("CARGO_PKG_VERSION").as_bytes(), revision];
    parts.extend(inputs.iter().map(|input| input.as_bytes()));
    super::cache::cache_key(&parts)
}

/// Compiles `submission` with the driver, or takes the binary (or the
/// compile error) from the cache; `true` when it was cached.
pub(super) fn compile(
    env: &Environment,
    challenge: &Challenge,
    submission: &Submission,
    (own, list, hide): (&[PathBuf], &[PathBuf], &[PathBuf]),
) -> Result<Result<(PathBuf, bool), LearnerException>, Error> {
    let source = match super::read_source(submission) {
        Ok(source) => source,
        Err(e) => return Ok(Err(e)),
    };
    let (rustc, sysroot, version) = toolchain()?;
    let edition = challenge.config.rust.edition.year();
    let driver = driver_source(
        challenge.model,
        &challenge.operations,
        has_h32(&source),
        &version,
    );
    let learner_dir = submission.absolute.parent().unwrap_or(Path::new("/"));
    // Both compiles' inputs: the compiler, the learner's edition and
    // source, the driver's source, the layout that links them, and every
    // file the learner's crate may read besides its entry (its modules,
    // `#[path]` ones, what `include_str!` and `include_bytes!` take, and
    // which names exist, which decides `foo.rs` or `foo/mod.rs`): the
    // whole of what the build is granted of its folder, named from the
    // folder so that identical folders share a build. A folder beyond
    // the digest's bound is built every time.
    let real_dir = std::fs::canonicalize(learner_dir).unwrap_or_else(|_| learner_dir.to_owned());
    let key = super::cache::folder_digest(&real_dir, own, hide).map(|folder| {
        build_key(
            BUILD_REVISION,
            &[&version, edition, &driver, &source, &folder],
        )
    });
    let folder = super::cache::cache_folder(env, "rust")?;
    let cached = key.as_ref().map(|key| {
        (
            folder.join(format!("{key}.router")),
            folder.join(format!("{key}.error.json")),
        )
    });
    if let Some((binary, failed)) = &cached {
        if super::cache::verified(binary) {
            return Ok(Ok((binary.clone(), true)));
        }
        // A compile error is as deterministic as a success: remembered too.
        if let Some(stored) = std::fs::read(failed)
            .ok()
            .and_then(|b| serde_json::from_slice::<Remembered>(&b).ok())
        {
            return Ok(Err(stored.into_error()));
        }
    }
    // A folder of this build's own, outside the cache (rustc's uid owns it
    // while it runs), removed when it is done.
    let private = tempfile::Builder::new()
        .prefix("rust-build-")
        .tempdir_in(env.scratch_dir())
        .map_err(Error::io("cannot create a folder to build in"))?;
    let build = private.path().to_owned();
    std::fs::write(build.join("main.rs"), &driver)
        .map_err(Error::io("cannot write the Rust driver"))?;
    let common = |args: &[OsString]| -> Vec<OsString> {
        let mut all: Vec<OsString> = vec![
            "-O".into(),
            "--error-format=json".into(),
            "--color=never".into(),
        ];
        all.extend_from_slice(args);
        all
    };
    // The learner's file is a crate of its own, so that `crate::` is its
    // root as in any single-file crate. Its lints never fail the build:
    // in a library a leftover `fn main` is dead code, which a
    // `#![deny(warnings)]` would make an error nobody's `cargo build` sees.
    let library = common(&[
        format!("--edition={edition}").into(),
        "--cap-lints=allow".into(),
        "--crate-name=submission".into(),
        "--crate-type=rlib".into(),
        format!("--remap-path-prefix={}/=", learner_dir.display()).into(),
        // The files it read, to tell whether the key covered them all.
        {
            let mut emit = OsString::from("--emit=link=");
            emit.push(build.join("libsubmission.rlib"));
            emit.push(",dep-info=");
            emit.push(build.join("submission.d"));
            emit
        },
        submission.absolute.clone().into(),
    ]);
    // The driver is the grader's, written for one edition whatever the
    // learner's; crates of different editions link together.
    let program = common(&[
        "--edition=2021".into(),
        "-A".into(),
        "warnings".into(),
        "--crate-name=router".into(),
        "--crate-type=bin".into(),
        "--extern".into(),
        {
            let mut extern_arg = OsString::from("submission=");
            extern_arg.push(build.join("libsubmission.rlib"));
            extern_arg
        },
        format!("--remap-path-prefix={}/=<grader-driver>/", build.display()).into(),
        "-o".into(),
        build.join("router").into(),
        build.join("main.rs").into(),
    ]);
    let mut read = vec![sysroot.clone()];
    read.extend_from_slice(own);
    let limits = ToolLimits {
        cpu_seconds: COMPILE_LIMIT.as_secs(),
        memory_bytes: COMPILE_MEMORY,
        processes: 256,
        open_files: 1024,
        file_size_bytes: 1 << 30,
        scratch_bytes: 1 << 30,
    };
    let access = Access {
        read,
        list: list.to_vec(),
        hide: hide.to_vec(),
        write: vec![build.clone()],
    };
    let name = submission.path.file_name().unwrap_or_default();
    let name = name.to_string_lossy();
    for (stage, args, built) in [
        (Stage::Learner, &library, "libsubmission.rlib"),
        (Stage::Driver, &program, "router"),
    ] {
        // The lease on rustc's uid lasts until it has finished.
        let contained = env.contained(&rustc, args, access.clone(), limits, false)?;
        let finished = sandbox::run_to_end(contained.command, COMPILE_LIMIT, COMPILE_OUTPUT_CAP)
            .map_err(Error::io("cannot run rustc in the sandbox"))?;
        drop(contained.lease);
        let compiled = finished.status.is_some_and(|s| s.success()) && build.join(built).is_file();
        if !compiled {
            let (error, deterministic) = compile_error(challenge, &name, stage, &finished)?;
            // A build stopped by a limit or a signal may be the machine's
            // doing (a busy host, memory pressure): it is tried again next
            // time, never remembered.
            if deterministic
                && let Some((_, failed)) = &cached
                && let Ok(bytes) = serde_json::to_vec(&Remembered::of(&error))
            {
                crate::fsutil::write_atomically(failed, &bytes)?;
            }
            return Ok(Err(error));
        }
    }
    // The grader's own copy, whoever wrote the build's: nothing a sandbox
    // uid owns is ever run again. Two graders storing the same build write
    // the same bytes.
    let bytes = super::cache::read_no_follow(&build.join("router")).map_err(Error::io(format!(
        "cannot read the program rustc built in {}",
        build.display()
    )))?;
    // Kept for the next grader only when every file rustc read was in
    // the key (or the toolchain's): without the sandbox's walls a crate
    // may read a file anywhere (`include_bytes!("../../../../../../abs/path")`).
    let read = std::fs::read_to_string(build.join("submission.d")).unwrap_or_default();
    let toolchain = std::fs::canonicalize(&sysroot).unwrap_or(sysroot);
    let covered = |dep: &Path| {
        std::fs::canonicalize(dep).is_ok_and(|dep| {
            dep.starts_with(&toolchain)
                || (own.iter().any(|granted| {
                    std::fs::canonicalize(granted).is_ok_and(|g| dep.starts_with(g))
                }) && !hide.iter().any(|h| dep.starts_with(h)))
        })
    };
    match cached {
        Some((binary, _)) if !read.is_empty() && dependencies(&read).iter().all(|d| covered(d)) => {
            super::cache::store(&binary, &bytes, 0o755)?;
            Ok(Ok((binary, false)))
        }
        _ => uncached(env, &bytes).map(|binary| Ok((binary, false))),
    }
}

/// Stores a build no cache may keep in a folder of its own in the run's
/// scratch folder (removed with it): the grader's file, as a cached one.
fn uncached(env: &Environment, bytes: &[u8]) -> Result<PathBuf, Error> {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("rust-program-")
        .tempdir_in(env.scratch_dir())
        .map_err(Error::io("cannot create a folder for a program"))?
        .keep();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711))
        .map_err(Error::io("cannot open a program's folder to its session"))?;
    let binary = dir.join("router");
    crate::fsutil::write_atomically_with_mode(&binary, bytes, 0o755)?;
    Ok(binary)
}

/// The files a dep-info file (`target: dep dep ...`, as rustc writes it
/// with `--emit=dep-info`) says were read: its first rule's prerequisites,
/// with make's escapes undone.
fn dependencies(dep_info: &str) -> Vec<PathBuf> {
    let Some(line) = dep_info.lines().find(|l| !l.trim().is_empty()) else {
        return Vec::new();
    };
    // The target ends at the first `: ` not escaped; paths never hold one
    // unescaped.
    let Some((_, prerequisites)) = line.split_once(": ") else {
        return Vec::new();
    };
    let mut deps = Vec::new();
    let mut current = String::new();
    let mut chars = prerequisites.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if matches!(chars.peek(), Some(' ' | '#' | '\\')) => {
                current.extend(chars.next());
            }
            '$' if chars.peek() == Some(&'$') => {
                current.push('$');
                chars.next();
            }
            ' ' => {
                if !current.is_empty() {
                    deps.push(PathBuf::from(std::mem::take(&mut current)));
                }
            }
            other => current.push(other),
        }
    }
    if !current.is_empty() {
        deps.push(PathBuf::from(current));
    }
    deps
}

/// A failed build as the cache keeps it: the error and the grader's reason
/// (which the wire's form of an error leaves out).
#[derive(serde::Serialize, serde::Deserialize)]
struct Remembered {
    #[serde(flatten)]
    error: LearnerException,
    #[serde(default)]
    unbuilt: Option<Unbuilt>,
}

impl Remembered {
    fn of(error: &LearnerException) -> Remembered {
        Remembered {
            error: error.clone(),
            unbuilt: error.unbuilt.as_deref().cloned(),
        }
    }

    fn into_error(self) -> LearnerException {
        LearnerException {
            unbuilt: self.unbuilt.map(Box::new),
            ..self.error
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A remembered build failure comes back with the grader's reason,
    /// which the wire's form of an error drops.
    #[test]
    fn a_remembered_failure_keeps_its_reason() {
        let mut error = LearnerException::unbuilt(
            Unbuilt::MissingCrate {
                name: "rand".into(),
            },
            "error[E0433]: unlinked crate `rand`".into(),
        );
        error.line = Some(1);
        let bytes = serde_json::to_vec(&Remembered::of(&error)).unwrap();
        let read: Remembered = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(read.into_error(), error);
        let wire: LearnerException = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(wire.unbuilt, None);
    }

    /// A build or compile error cached by another grader (another version,
    /// another [`BUILD_REVISION`], or one from before either was in the
    /// key) is under another name, so it is never served.
    #[test]
    fn a_build_cached_by_another_grader_is_under_another_key() {
        let inputs = [
            "rustc 1.95.0",
            "2024",
            "fn main() {}",
            "pub struct Router;",
            "f0",
        ];
        let key = build_key(BUILD_REVISION, &inputs);
        assert_eq!(key, build_key(BUILD_REVISION, &inputs), "the same build");
        assert_ne!(key, build_key(b"an older revision", &inputs));
        // The key as graders wrote it before their version and revision
        // were part of it: the kind, then the inputs alone.
        let mut parts: Vec<&[u8]> = vec![BUILD_KIND];
        parts.extend(inputs.iter().map(|input| input.as_bytes()));
        assert_ne!(key, super::super::cache::cache_key(&parts));
        // Every input is part of it.
        for i in 0..inputs.len() {
            let mut changed = inputs;
            changed[i] = "something else";
            assert_ne!(key, build_key(BUILD_REVISION, &changed), "input {i}");
        }
    }

    #[test]
    fn h32_is_found_only_when_public() {
        assert!(has_h32("pub fn h32(text: &str) -> u32 { 0 }"));
        assert!(has_h32("pub fn  h32 (t: &str) -> u32 { 0 }"));
        assert!(!has_h32("fn h32(text: &str) -> u32 { 0 }"));
        assert!(!has_h32("pub fn h32_bytes(b: &[u8]) -> u32 { 0 }"));
        // Only at the crate's root, where the driver calls it.
        assert!(!has_h32("mod hashing { pub fn h32(t: &str) -> u32 { 0 } }"));
        assert!(has_h32(
            "mod hashing { pub fn h32(t: &str) -> u32 { 0 } }\npub use hashing::h32;"
        ));
        assert!(has_h32("pub use crate::hashing::{h32, fnv};"));
        assert!(!has_h32(
            "// pub fn h32(t: &str) -> u32\nconst S: &str = \"pub fn h32(\";"
        ));
        assert!(has_h32(
            "const B: char = '{';\npub fn h32(t: &str) -> u32 { 0 }"
        ));
    }

    #[test]
    fn the_files_rustc_read_are_read_from_its_dep_info() {
        let info = "/b/submission.d: /s/router.rs /s/data\\ dir/x.txt /etc/host\\#1 /s/a$$b.rs\n\n/s/router.rs:\n";
        assert_eq!(
            dependencies(info),
            [
                "/s/router.rs",
                "/s/data dir/x.txt",
                "/etc/host#1",
                "/s/a$b.rs"
            ]
            .map(PathBuf::from)
        );
        assert!(dependencies("").is_empty());
    }

    #[test]
    fn the_glue_calls_every_operation_with_its_types() {
        let model = &reference::rendezvous::SPEC;
        let ops: Vec<&'static Signature> = model.operations.iter().collect();
        let source = driver_source(model, &ops, true, "rustc 1.0");
        assert!(source.contains("submission::Router::new(arg_names(&args[0]))"));
        assert!(source.contains("\"route\" => router.route(arg_str(op, 1)).to_json(),"));
        assert!(source.contains("\"add\" => { let _ = router.add(arg_str(op, 1)); Json::Null },"));
        assert!(source.contains("Some(|t| submission::h32(t) as u64)"));
        assert!(!source.contains("@@GLUE@@"));
    }
}
