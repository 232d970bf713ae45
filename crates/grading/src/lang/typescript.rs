//! TypeScript: types stripped inside the grader with oxc (no npm, no
//! network), the result cached by content and run under the Node driver as
//! an ES module. The output carries an inline source map, so with
//! `--enable-source-maps` a traceback points at the learner's `.ts` lines.

mod form;
mod lower;
mod tsconfig;

pub use form::Form;
pub use lower::Decorators;

use super::{Replay, Submission, bare};
use crate::challenge::locate::line_column;
use crate::error::Error;
use crate::protocol::{ErrorKind, LearnerException};
use crate::unbuilt::{Halt, Unbuilt};
use oxc::allocator::Allocator;
use oxc::codegen::{Codegen, CodegenOptions};
use oxc::parser::Parser;
use oxc::semantic::SemanticBuilder;
use oxc::span::SourceType;
use oxc::transformer::{
    DecoratorOptions, HelperLoaderMode, HelperLoaderOptions, Module, TransformOptions, Transformer,
};
use sandbox::{Access, BuildCost, Environment, Program, ToolLimits, run_to_end};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The transpiled module of `submission`, from the cache when this grader
/// version transpiled the same file before; `true` when it was cached.
pub(super) fn transpile_cached(
    env: &Environment,
    submission: &Submission,
) -> Result<Result<(PathBuf, bool), LearnerException>, Error> {
    let source = match super::read_source(submission) {
        Ok(source) => source,
        Err(e) => return Ok(Err(e)),
    };
    let decorators = match tsconfig::decorators(&submission.absolute) {
        Ok(decorators) => decorators,
        Err(e) => return Ok(Err(e)),
    };
    let path = submission.absolute.to_string_lossy();
    let key = super::cache::cache_key(&[
        b"ts",
        env!("CARGO_PKG_VERSION").as_bytes(),
        TRANSPILER_REVISION,
        decorators.arg().as_bytes(),
        path.as_bytes(),
        source.as_bytes(),
    ]);
    // The module's extension is its kind, which Node runs it as.
    let folder = super::cache::cache_folder(env, "ts")?;
    let named = |form: Form| folder.join(format!("{key}.{}", form.extension()));
    for form in [Form::Es, Form::CommonJs] {
        if super::cache::verified(&named(form)) {
            return Ok(Ok((named(form), true)));
        }
    }
    let (js, form) = match transpile_contained(env, &source, &submission.absolute, decorators)? {
        Ok(module) => module,
        Err(e) => return Ok(Err(e)),
    };
    let out = named(form);
    super::cache::store(&out, js.as_bytes(), 0o644)?;
    Ok(Ok((out, false)))
}

/// Changes whenever what the transpiler accepts or emits changes, so that
/// a module cached by an older build of the same version is not served.
const TRANSPILER_REVISION: &[u8] = b"decorators-accessor-using-commonjs-3";

/// The first argument with which the grader runs itself to transpile one
/// file (`grader __transpile-ts SOURCE PATH DECORATORS`).
pub const TRANSPILE_ARG: &str = "__transpile-ts";
/// How long transpiling one file may take.
const TRANSPILE_LIMIT: Duration = Duration::from_secs(30);
/// The stack the parser gets in the transpiling process: deep enough for
/// any code a person writes, and when a file nests deeper, only that
/// process dies.
const TRANSPILE_STACK: usize = 256 << 20;
/// The memory the transpiling process may use.
const TRANSPILE_MEMORY: u64 = 2 << 30;

/// Transpiles `source` (of file `path`) in a contained child of the grader:
/// oxc parses recursively, and a file that nests deep enough to overflow
/// its stack, or makes it panic, must cost that submission a compile
/// error, not the grader its run.
fn transpile_contained(
    env: &Environment,
    source: &str,
    path: &Path,
    decorators: Decorators,
) -> Result<Result<(String, Form), LearnerException>, Error> {
    let input = tempfile::Builder::new()
        .prefix("transpile-")
        .suffix(".ts")
        .tempfile_in(env.scratch_dir())
        .and_then(|mut f| {
            std::io::Write::write_all(&mut f, source.as_bytes())?;
            use std::os::unix::fs::PermissionsExt;
            f.as_file()
                .set_permissions(std::fs::Permissions::from_mode(0o644))?;
            Ok(f)
        })
        .map_err(Error::io("cannot write the source to transpile"))?;
    let grader = std::env::current_exe()
        .map_err(Error::io("cannot find the grader binary to transpile with"))?;
    let args: Vec<std::ffi::OsString> = vec![
        TRANSPILE_ARG.into(),
        input.path().into(),
        path.into(),
        decorators.arg().into(),
    ];
    let limits = ToolLimits {
        cpu_seconds: TRANSPILE_LIMIT.as_secs(),
        memory_bytes: TRANSPILE_MEMORY,
        processes: 4,
        open_files: 64,
        file_size_bytes: 1 << 20,
        scratch_bytes: 1 << 20,
    };
    let access = Access {
        read: vec![grader.clone(), input.path().to_owned()],
        list: Vec::new(),
        hide: Vec::new(),
        write: Vec::new(),
    };
    let contained = env.contained(&grader, &args, access, limits, false)?;
    // The output holds the module and its inline source map.
    let cap = 16 * source.len() + (1 << 20);
    let finished = run_to_end(contained.command, TRANSPILE_LIMIT, cap)
        .map_err(Error::io("cannot run the TypeScript transpiler"))?;
    drop(contained.lease);
    if let Some(Ok(reply)) = (finished.status.is_some_and(|s| s.success()))
        .then(|| serde_json::from_str::<Transpiled>(&finished.stdout))
    {
        return match reply {
            Transpiled::Js(js) => Ok(Ok((js, Form::Es))),
            Transpiled::Cjs(js) => Ok(Ok((js, Form::CommonJs))),
            Transpiled::Error(e) => Ok(Err(e)),
            Transpiled::Internal(e) => Err(Error::Io {
                context: format!("cannot transpile {}", path.display()),
                source: std::io::Error::other(e),
            }),
        };
    }
    if finished.status.and_then(|s| s.code()) == Some(sandbox::SHIM_FAILED) {
        // The sandbox shim could not start it: the grader's fault.
        return Err(Error::Io {
            context: "cannot start the TypeScript transpiler in the sandbox".into(),
            source: std::io::Error::other(finished.stderr.trim().to_owned()),
        });
    }
    let halt = if finished.timed_out {
        Halt::TimedOut {
            seconds: TRANSPILE_LIMIT.as_secs(),
        }
    } else {
        use std::os::unix::process::ExitStatusExt;
        Halt::Ended {
            code: finished.status.and_then(|s| s.code()),
            signal: finished.status.and_then(|s| s.signal()),
        }
    };
    let unbuilt = Unbuilt::TranspilerStopped {
        file: path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into(),
        halt,
        stack_bytes: TRANSPILE_STACK as u64,
        memory_bytes: TRANSPILE_MEMORY,
    };
    Ok(Err(LearnerException::unbuilt(unbuilt, String::new())))
}

/// What the transpiling process writes on standard output.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Transpiled {
    /// An ES module.
    Js(String),
    /// A CommonJS module.
    Cjs(String),
    Error(LearnerException),
    /// The grader's own fault (its lowering produced what does not parse).
    Internal(String),
}

/// Runs the transpiling process when `args` (the process's own) ask for
/// it: reads the source at `args[2]`, transpiles it as the file `args[3]`
/// on a thread with a large stack, and writes the result as JSON.
pub fn transpiler_if_asked(args: &[std::ffi::OsString]) -> Option<i32> {
    if args.get(1).is_none_or(|a| a != TRANSPILE_ARG) {
        return None;
    }
    let (Some(input), Some(path), Some(decorators)) = (
        args.get(2),
        args.get(3),
        args.get(4)
            .and_then(|a| Decorators::from_arg(&a.to_string_lossy())),
    ) else {
        eprintln!("usage: grader {TRANSPILE_ARG} SOURCE PATH standard|experimental|metadata");
        return Some(2);
    };
    let Ok(source) = std::fs::read_to_string(input) else {
        eprintln!("cannot read {}", input.to_string_lossy());
        return Some(2);
    };
    let path = PathBuf::from(path);
    let worker = std::thread::Builder::new()
        .stack_size(TRANSPILE_STACK)
        .spawn(move || transpile_module(&source, &path, decorators));
    let Ok(Ok(result)) = worker.map(|w| w.join()) else {
        return Some(101);
    };
    let reply = match result {
        Ok((js, Form::Es | Form::EsRequiring)) => Transpiled::Js(js),
        Ok((js, Form::CommonJs)) => Transpiled::Cjs(js),
        Err(TranspileFailure::Learner(e)) => Transpiled::Error(e),
        Err(TranspileFailure::Internal(e)) => Transpiled::Internal(e),
    };
    match serde_json::to_writer(std::io::stdout().lock(), &reply) {
        Ok(()) => Some(0),
        Err(_) => Some(1),
    }
}

/// What lowered modules call (`babelHelpers`): see [`lower`].
const RUNTIME: &str = include_str!("../../../../drivers/typescript_runtime.js");

/// `node --no-warnings --enable-source-maps --require runtime.js driver.js
/// module.mjs router.ts`:
/// the driver runs the module and names the learner's file in tracebacks.
pub(super) fn program(
    env: &Environment,
    submission: &Submission,
    module: &Path,
    build: BuildCost,
) -> Result<Program, Error> {
    let (node, driver) = super::javascript::node_and_driver(env)?;
    let runtime = env.driver("typescript_runtime.js", RUNTIME)?;
    let mut program = bare(submission, node);
    program.announces = true;
    program.args = vec![
        "--no-warnings".into(),
        "--enable-source-maps".into(),
        "--require".into(),
        runtime.into(),
        driver.into(),
        module.into(),
        submission.absolute.clone().into(),
    ];
    // The module alone, not the cache folder: other students' modules (and
    // the sources their maps embed) are beside it.
    program.read.push(module.to_owned());
    program.build = Some(build);
    Ok(program)
}

pub(super) fn snippet(r: &Replay<'_>) -> String {
    let header = format!(
        "// Save as check.ts beside {} and run it with your TypeScript runner (tsx, deno): it fails until the bug is fixed.\nimport assert from 'node:assert';\nimport {{ Router }} from './{}';\n",
        r.file, r.stem
    );
    super::javascript::with_header(r, &header)
}

/// Why a file could not be transpiled.
#[derive(Debug)]
pub enum TranspileFailure {
    /// The learner's: a syntax error or a construct that cannot run.
    Learner(LearnerException),
    /// The grader's: its own lowering gave what does not parse.
    Internal(String),
}

/// The JavaScript for the TypeScript `source` of file `path` (whose
/// decorators are `decorators`), or the first syntax error as a compile
/// error pointing into `path`.
#[cfg(test)]
pub fn transpile(
    source: &str,
    path: &Path,
    decorators: Decorators,
) -> Result<String, TranspileFailure> {
    transpile_module(source, path, decorators).map(|(js, _)| js)
}

/// [`transpile`], with the kind of module the JavaScript is (see
/// [`form`]).
pub fn transpile_module(
    source: &str,
    path: &Path,
    decorators: Decorators,
) -> Result<(String, Form), TranspileFailure> {
    let allocator = Allocator::default();
    let source_type = SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts());
    let parsed = Parser::new(&allocator, source, source_type).parse();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !parsed.diagnostics.is_empty() {
        return Err(TranspileFailure::Learner(compile_error(
            source,
            &name,
            &parsed.diagnostics,
        )));
    }
    let refused = |refusal: lower::Refusal| {
        let (line, column) = line_column(source, refusal.offset as usize);
        let mut lines = vec![format!("{name}:{line}:{column}: {}", refusal.message)];
        lines.extend(excerpt(source, refusal.offset as usize, 1));
        TranspileFailure::Learner(syntax_error(lines, Some(line as u64)))
    };
    let form = form::of(&parsed.program).map_err(refused)?;
    let emit = |allocator, program, source: &str| {
        emit(allocator, program, source, path, &name, decorators, form).map(|js| (js, form))
    };
    match lower::lower(&parsed.program, source, decorators) {
        Err(refusal) => Err(refused(refusal)),
        Ok(None) => emit(&allocator, parsed.program, source),
        Ok(Some(lowered)) => {
            let allocator = Allocator::default();
            let parsed = Parser::new(&allocator, &lowered, source_type).parse();
            if let Some(d) = parsed.diagnostics.first() {
                // Invalid TypeScript the lowering let through (`static
                // accessor prototype`) is the learner's error, found where
                // they wrote it; only valid input lowered wrongly is ours.
                if let Some(error) = invalid_input(&name, source, source_type) {
                    return Err(TranspileFailure::Learner(error));
                }
                return Err(TranspileFailure::Internal(format!(
                    "the decorators or accessors of {name} were lowered into code that does not \
                     parse ({}); please report this with the file",
                    d.message
                )));
            }
            emit(&allocator, parsed.program, &lowered)
        }
    }
}

/// The learner's compile error when `source` (of the file `name`), with
/// what the lowering lowers written plainly, does not parse or breaks an
/// early rule of the language (see [`lower::plain_equivalent`]).
fn invalid_input(name: &str, source: &str, source_type: SourceType) -> Option<LearnerException> {
    let allocator = Allocator::default();
    let original = Parser::new(&allocator, source, source_type).parse();
    let plain = lower::plain_equivalent(&original.program, source);
    let parsed = Parser::new(&allocator, &plain, source_type).parse();
    if !parsed.diagnostics.is_empty() {
        return Some(compile_error(source, name, &parsed.diagnostics));
    }
    let checked = SemanticBuilder::new()
        .with_check_syntax_error(true)
        .build(&parsed.program);
    let errors: Vec<_> = checked.diagnostics.errors().cloned().collect();
    (!errors.is_empty()).then(|| compile_error(source, name, &errors))
}

/// The module for `program` (parsed from `source`), with an inline source
/// map pointing into `path`.
fn emit<'a>(
    allocator: &'a Allocator,
    mut program: oxc::ast::ast::Program<'a>,
    source: &str,
    path: &Path,
    name: &str,
    decorators: Decorators,
    form: Form,
) -> Result<String, TranspileFailure> {
    // Enum members are evaluated in the semantic pass: without it the
    // transformer cannot lower an enum at all.
    let scoping = SemanticBuilder::new()
        .with_enum_eval(true)
        .build(&program)
        .semantic
        .into_scoping();
    let mut options = TransformOptions::default();
    // `using` declarations, which Node 20 cannot parse.
    options.env.es2026.explicit_resource_management = true;
    // `import x = require()` and `export =` as tsc's CommonJS output has them.
    if form == Form::CommonJs {
        options.env.module = Module::CommonJS;
    }
    if let Decorators::Experimental { metadata } = decorators {
        options.decorator = DecoratorOptions {
            legacy: true,
            emit_decorator_metadata: metadata,
            ..DecoratorOptions::default()
        };
    }
    // Helpers are called on the global `babelHelpers`, which the grader's
    // runtime defines (drivers/typescript_runtime.js): no import of a
    // package the learner does not have.
    options.helper_loader = HelperLoaderOptions {
        mode: HelperLoaderMode::External,
        ..HelperLoaderOptions::default()
    };
    let transformed =
        Transformer::new(allocator, path, &options).build_with_scoping(scoping, &mut program);
    if !transformed.diagnostics.is_empty() {
        return Err(TranspileFailure::Learner(compile_error(
            source,
            name,
            &transformed.diagnostics,
        )));
    }
    let generated = Codegen::new()
        .with_options(CodegenOptions {
            source_map_path: Some(path.to_owned()),
            ..CodegenOptions::default()
        })
        .build(&program);
    let mut code = generated.code;
    if form == Form::EsRequiring {
        // On the first line, which the source map's lines stay true to.
        code.insert_str(
            0,
            "import { createRequire as __graderCreateRequire } from \"module\"; \
             const require = __graderCreateRequire(import.meta.url); ",
        );
    }
    if let Some(map) = generated.map {
        code.push_str("\n//# sourceMappingURL=");
        code.push_str(&map.to_data_url());
        code.push('\n');
    }
    Ok(code)
}

/// `diagnostics` of `source` (of the file `name`) as one compile error,
/// each with its line and column.
fn compile_error(
    source: &str,
    name: &str,
    diagnostics: &[oxc::diagnostics::OxcDiagnostic],
) -> LearnerException {
    let at = |d: &oxc::diagnostics::OxcDiagnostic| {
        d.labels
            .first()
            .map(|l| line_column(source, l.offset() as usize))
    };
    // Each diagnostic, the first few with the line they point at.
    let all: Vec<String> = diagnostics
        .iter()
        .enumerate()
        .flat_map(|(i, d)| {
            let head = match at(d) {
                Some((line, column)) => format!("{name}:{line}:{column}: {}", d.message),
                None => format!("{name}: {}", d.message),
            };
            let shown = d
                .labels
                .first()
                .filter(|_| i < EXCERPTS)
                .map(|l| excerpt(source, l.offset() as usize, l.len() as usize))
                .unwrap_or_default();
            std::iter::once(head).chain(shown)
        })
        .collect();
    let line = diagnostics
        .first()
        .and_then(at)
        .map(|(line, _)| line as u64);
    syntax_error(all, line)
}

/// The diagnostics of a compile error shown with their source line.
const EXCERPTS: usize = 3;

/// The line of `source` holding byte `offset`, numbered, with carets
/// under the `len` bytes from there (one at least, to the line's end at
/// most), as rustc shows its errors: a tab keeps its place in the caret
/// line, and a long line is cut to the part around the offset.
fn excerpt(source: &str, offset: usize, len: usize) -> Vec<String> {
    /// The most characters of a line shown, and before the offset.
    const WIDTH: usize = 120;
    const BEFORE: usize = 60;
    let offset = offset.min(source.len());
    let Some(offset) = (0..=offset).rev().find(|&i| source.is_char_boundary(i)) else {
        return Vec::new();
    };
    let start = source[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = source[offset..]
        .find('\n')
        .map_or(source.len(), |i| offset + i);
    let line = source[..offset].matches('\n').count() + 1;
    let text = source[start..end].trim_end_matches('\r');
    let before: Vec<char> = text[..(offset - start).min(text.len())].chars().collect();
    let skip = before.len().saturating_sub(BEFORE);
    let marked = source[offset..end.max(offset)]
        .chars()
        .scan(0, |bytes, c| {
            *bytes += c.len_utf8();
            (*bytes <= len.max(1)).then_some(c)
        })
        .count()
        .max(1);
    let shown: String = text.chars().skip(skip).take(WIDTH).collect();
    let pad: String = before[skip..]
        .iter()
        .map(|&c| if c == '\t' { '\t' } else { ' ' })
        .collect();
    let number = line.to_string();
    let gutter = " ".repeat(number.len());
    let cut = if skip > 0 { "…" } else { "" };
    vec![
        format!("{gutter} |"),
        format!("{number} | {cut}{shown}"),
        format!(
            "{gutter} | {}{pad}{}",
            " ".repeat(cut.chars().count()),
            "^".repeat(marked.min(WIDTH))
        ),
    ]
}

/// A compile error of the learner's: the first of `lines` its message, all
/// of them its traceback.
fn syntax_error(lines: Vec<String>, line: Option<u64>) -> LearnerException {
    LearnerException {
        traceback: lines.join("\n").into(),
        line,
        ..LearnerException::new(
            ErrorKind::SyntaxError,
            lines.first().cloned().unwrap_or_default(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_stripped_and_a_source_map_is_inlined() {
        let js = transpile(
            "export class Router {\n  nodes: Set<string>;\n  constructor(n: string[]) { this.nodes = new Set<string>(n); }\n}\n",
            Path::new("/x/router.ts"),
            Decorators::Standard,
        )
        .unwrap();
        assert!(js.contains("export class Router"), "{js}");
        assert!(!js.contains("Set<string>"), "{js}");
        assert!(
            js.contains("sourceMappingURL=data:application/json"),
            "{js}"
        );
    }

    #[test]
    fn a_syntax_error_points_at_the_learners_line_and_column() {
        let e = transpile(
            "export class R {\n  f(x: number {\n  }\n}\n",
            Path::new("/x/router.ts"),
            Decorators::Standard,
        )
        .unwrap_err();
        let e = learner(e);
        assert_eq!(e.kind, ErrorKind::SyntaxError);
        assert_eq!(e.line, Some(2));
        assert!(e.message.starts_with("router.ts:2:"), "{}", e.message);
    }

    #[test]
    fn a_syntax_error_shows_its_line_with_a_caret_under_the_place() {
        let e = learner(
            transpile(
                "export class R {\n\tf() { const x: number = ; }\n}\n",
                Path::new("/x/router.ts"),
                Decorators::Standard,
            )
            .unwrap_err(),
        );
        let traceback = e.traceback.to_string();
        let lines: Vec<&str> = traceback.lines().collect();
        assert!(lines[0].starts_with("router.ts:2:"), "{traceback}");
        // The column the message names is where the caret stands.
        let column: usize = lines[0].split(':').nth(2).unwrap().parse().unwrap();
        assert_eq!(lines[2], "2 | \tf() { const x: number = ; }", "{traceback}");
        let caret = lines[3].strip_prefix("  | ").unwrap();
        assert_eq!(caret.find('^'), Some(column - 1), "{traceback}");
        assert!(
            caret.starts_with('\t'),
            "a tab keeps its place: {traceback}"
        );
        // A long line is cut around the place it points at.
        let long = format!("export const a = [{}1 1];\n", "1, ".repeat(200));
        let e =
            learner(transpile(&long, Path::new("/x/router.ts"), Decorators::Standard).unwrap_err());
        let traceback = e.traceback.to_string();
        assert!(
            traceback.lines().all(|l| l.chars().count() < 200),
            "{traceback}"
        );
    }

    #[test]
    fn an_enum_is_lowered_to_an_object() {
        let js = transpile(
            "enum S { Up, Down = \"down\" }\nexport const s = S.Up;\n",
            Path::new("/x/router.ts"),
            Decorators::Standard,
        )
        .unwrap();
        assert!(!js.contains("enum S"), "{js}");
        assert!(js.contains("\"down\""), "{js}");
    }

    fn learner(e: TranspileFailure) -> LearnerException {
        match e {
            TranspileFailure::Learner(e) => e,
            TranspileFailure::Internal(e) => panic!("the grader's fault: {e}"),
        }
    }

    #[test]
    fn what_cannot_run_is_refused_with_its_line_and_column() {
        for (source, (line, column), construct) in [
            (
                "class R {\n  m(@d x: number) {}\n}\n",
                (2, 5),
                "parameter decorators exist only in the experimentalDecorators form",
            ),
            (
                "class R {\n  x = 1;\n  @d #m() {}\n}\n",
                (3, 3),
                "a decorator on the private method #m is not supported",
            ),
            (
                "const k = 'a';\nclass R {\n  @d [k]() {}\n}\n",
                (3, 3),
                "a decorator on a member with a computed name",
            ),
        ] {
            let e = learner(
                transpile(source, Path::new("/x/router.ts"), Decorators::Standard).unwrap_err(),
            );
            assert_eq!(e.line, Some(line), "{}", e.message);
            assert!(
                e.message
                    .starts_with(&format!("router.ts:{line}:{column}: ")),
                "{}",
                e.message
            );
            assert!(e.message.contains(construct), "{}", e.message);
        }
    }

    /// What is not valid TypeScript stays the learner's error even where
    /// only the lowered code shows it: never the grader's.
    #[test]
    fn invalid_input_the_lowering_lets_through_is_the_learners_error() {
        for (source, line, column, what) in [
            (
                "export class Router {\n  static accessor prototype = 1;\n}\n",
                2,
                19,
                "static property named 'prototype'",
            ),
            (
                "export class Router {\n  x = 1;\n  @d static accessor prototype = 1;\n}\n",
                3,
                22,
                "static property named 'prototype'",
            ),
            (
                "export class Router {\n  accessor constructor = 1;\n}\n",
                2,
                24,
                "Expected `(`",
            ),
        ] {
            let e = learner(
                transpile(source, Path::new("/x/router.ts"), Decorators::Standard).unwrap_err(),
            );
            assert_eq!(e.kind, ErrorKind::SyntaxError, "{source}");
            assert_eq!(e.line, Some(line), "{}", e.message);
            assert!(
                e.message
                    .starts_with(&format!("router.ts:{line}:{column}: ")),
                "{}",
                e.message
            );
            assert!(e.message.contains(what), "{}", e.message);
        }
    }

    #[test]
    fn decorators_accessors_and_using_are_lowered_on_their_own_lines() {
        let source = "@sealed\nexport class R {\n  @logged m() { using r = res(); return 1; }\n  @init accessor x = 1;\n  @init y: number;\n}\nthrow new Error('line 7');\n";
        for decorators in [
            Decorators::Standard,
            Decorators::Experimental { metadata: false },
        ] {
            let result = transpile(source, Path::new("/x/router.ts"), decorators);
            if let Decorators::Experimental { .. } = decorators {
                // A decorated accessor has no experimentalDecorators meaning.
                let e = learner(result.unwrap_err());
                assert_eq!(e.line, Some(4), "{}", e.message);
                continue;
            }
            let js = result.unwrap();
            assert!(!js.contains('@'), "{js}");
            assert!(!js.contains("using r"), "{js}");
            assert!(js.contains("babelHelpers.usingCtx()"), "{js}");
            assert!(js.contains("babelHelpers.decoratorsApply"), "{js}");
        }
        let legacy = transpile(
            "@sealed\nexport class R {\n  @logged m() {}\n}\n",
            Path::new("/x/router.ts"),
            Decorators::Experimental { metadata: false },
        )
        .unwrap();
        assert!(legacy.contains("babelHelpers.decorate("), "{legacy}");
    }
}
