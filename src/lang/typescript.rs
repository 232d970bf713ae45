//! TypeScript: types stripped inside the grader with oxc (no npm, no
//! network), the result cached by content and run under the Node driver as
//! an ES module. The output carries an inline source map, so with
//! `--enable-source-maps` a traceback points at the learner's `.ts` lines.

use super::{Replay, Submission, bare};
use crate::challenge::locate::line_column;
use crate::error::Error;
use crate::exec::{Access, Build, Environment, Program, ToolLimits, describe_exit, run_to_end};
use crate::protocol::LearnerError;
use oxc::allocator::Allocator;
use oxc::ast::ast::{AccessorProperty, Decorator, VariableDeclaration, VariableDeclarationKind};
use oxc::ast_visit::{Visit, walk};
use oxc::codegen::{Codegen, CodegenOptions};
use oxc::parser::Parser;
use oxc::semantic::SemanticBuilder;
use oxc::span::SourceType;
use oxc::transformer::{TransformOptions, Transformer};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The transpiled module of `submission`, from the cache when this grader
/// version transpiled the same file before; `true` when it was cached.
pub(super) fn transpile_cached(
    env: &Environment,
    submission: &Submission,
) -> Result<Result<(PathBuf, bool), LearnerError>, Error> {
    let source = match super::read_source(submission) {
        Ok(source) => source,
        Err(e) => return Ok(Err(e)),
    };
    let path = submission.absolute.to_string_lossy();
    let key = super::cache::cache_key(&[
        b"ts",
        env!("CARGO_PKG_VERSION").as_bytes(),
        TRANSPILER_REVISION,
        path.as_bytes(),
        source.as_bytes(),
    ]);
    let out = super::cache::cache_folder(env, "ts")?.join(format!("{key}.mjs"));
    if super::cache::verified(&out) {
        return Ok(Ok((out, true)));
    }
    let js = match transpile_contained(env, &source, &submission.absolute)? {
        Ok(js) => js,
        Err(e) => return Ok(Err(e)),
    };
    super::cache::store(&out, js.as_bytes(), 0o644)?;
    Ok(Ok((out, false)))
}

/// Changes whenever what the transpiler accepts or emits changes, so that
/// a module cached by an older build of the same version is not served.
const TRANSPILER_REVISION: &[u8] = b"enums-and-refusals";

/// The first argument with which the grader runs itself to transpile one
/// file (`grader __transpile-ts SOURCE PATH`).
pub const TRANSPILE_ARG: &str = "__transpile-ts";
/// How long transpiling one file may take.
const TRANSPILE_LIMIT: Duration = Duration::from_secs(30);
/// The stack the parser gets in the transpiling process: deep enough for
/// any code a person writes, and when a file nests deeper, only that
/// process dies.
const TRANSPILE_STACK: usize = 256 << 20;

/// Transpiles `source` (of file `path`) in a contained child of the grader:
/// oxc parses recursively, and a file that nests deep enough to overflow
/// its stack, or makes it panic, must cost that submission a compile
/// error, not the grader its run.
fn transpile_contained(
    env: &Environment,
    source: &str,
    path: &Path,
) -> Result<Result<String, LearnerError>, Error> {
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
    let args: Vec<std::ffi::OsString> =
        vec![TRANSPILE_ARG.into(), input.path().into(), path.into()];
    let limits = ToolLimits {
        cpu_seconds: TRANSPILE_LIMIT.as_secs(),
        memory_bytes: 2 << 30,
        processes: 4,
        open_files: 64,
        file_size_bytes: 1 << 20,
        scratch_bytes: 1 << 20,
    };
    let access = Access {
        read: vec![grader.clone(), input.path().to_owned()],
        list: Vec::new(),
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
        return Ok(match reply {
            Transpiled::Js(js) => Ok(js),
            Transpiled::Error(e) => Err(e),
        });
    }
    if finished.status.and_then(|s| s.code()) == Some(crate::exec::SHIM_FAILED) {
        // The sandbox shim could not start it: the grader's fault.
        return Err(Error::Io {
            context: "cannot start the TypeScript transpiler in the sandbox".into(),
            source: std::io::Error::other(finished.stderr.trim().to_owned()),
        });
    }
    let how = if finished.timed_out {
        format!("ran past {} s", TRANSPILE_LIMIT.as_secs())
    } else {
        finished
            .status
            .map(describe_exit)
            .unwrap_or_else(|| "was stopped".into())
    };
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    Ok(Err(LearnerError::new(
        "CompileError",
        format!(
            "{name} could not be transpiled: the TypeScript parser {how} (code nested too deeply? \
             the parser keeps nesting within {} MiB of stack and 2 GiB of memory)",
            TRANSPILE_STACK >> 20
        ),
    )))
}

/// What the transpiling process writes on standard output.
#[derive(Debug, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum Transpiled {
    Js(String),
    Error(LearnerError),
}

/// Runs the transpiling process when `args` (the process's own) ask for
/// it: reads the source at `args[2]`, transpiles it as the file `args[3]`
/// on a thread with a large stack, and writes the result as JSON.
pub fn transpiler_if_asked(args: &[std::ffi::OsString]) -> Option<i32> {
    if args.get(1).is_none_or(|a| a != TRANSPILE_ARG) {
        return None;
    }
    let (Some(input), Some(path)) = (args.get(2), args.get(3)) else {
        eprintln!("usage: grader {TRANSPILE_ARG} SOURCE PATH");
        return Some(2);
    };
    let Ok(source) = std::fs::read_to_string(input) else {
        eprintln!("cannot read {}", input.to_string_lossy());
        return Some(2);
    };
    let path = PathBuf::from(path);
    let worker = std::thread::Builder::new()
        .stack_size(TRANSPILE_STACK)
        .spawn(move || transpile(&source, &path));
    let Ok(Ok(result)) = worker.map(|w| w.join()) else {
        return Some(101);
    };
    let reply = match result {
        Ok(js) => Transpiled::Js(js),
        Err(e) => Transpiled::Error(e),
    };
    match serde_json::to_writer(std::io::stdout().lock(), &reply) {
        Ok(()) => Some(0),
        Err(_) => Some(1),
    }
}

/// `node --no-warnings --enable-source-maps driver.js module.mjs router.ts`:
/// the driver runs the module and names the learner's file in tracebacks.
pub(super) fn program(
    env: &Environment,
    submission: &Submission,
    module: &Path,
    build: Build,
) -> Result<Program, Error> {
    let (node, driver) = super::javascript::node_and_driver(env)?;
    let mut program = bare(submission, node);
    program.args = vec![
        "--no-warnings".into(),
        "--enable-source-maps".into(),
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

/// The JavaScript for the TypeScript `source` of file `path`, or the first
/// syntax error as a compile error pointing into `path`.
pub fn transpile(source: &str, path: &Path) -> Result<String, LearnerError> {
    let allocator = Allocator::default();
    let source_type = SourceType::from_path(path).unwrap_or_else(|_| SourceType::ts());
    let parsed = Parser::new(&allocator, source, source_type).parse();
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let compile_error = |diagnostics: &[oxc::diagnostics::OxcDiagnostic]| {
        let all: Vec<String> = diagnostics
            .iter()
            .map(|d| {
                let at = d.labels.first().map(|l| l.offset() as usize);
                match at {
                    Some(offset) => {
                        let (line, column) = line_column(source, offset);
                        format!("{name}:{line}:{column}: {}", d.message)
                    }
                    None => format!("{name}: {}", d.message),
                }
            })
            .collect();
        let line = diagnostics
            .first()
            .and_then(|d| d.labels.first().map(|l| l.offset() as usize))
            .map(|offset| line_column(source, offset).0 as u64);
        LearnerError {
            kind: "SyntaxError".into(),
            message: all.first().cloned().unwrap_or_default(),
            traceback: all.join("\n"),
            line,
            op_index: None,
            errno: None,
        }
    };
    if !parsed.diagnostics.is_empty() {
        return Err(compile_error(&parsed.diagnostics));
    }
    let mut program = parsed.program;
    if let Some(e) = unsupported(&program, source, &name) {
        return Err(e);
    }
    // Enum members are evaluated in the semantic pass: without it the
    // transformer cannot lower an enum at all.
    let scoping = SemanticBuilder::new()
        .with_enum_eval(true)
        .build(&program)
        .semantic
        .into_scoping();
    let transformed = Transformer::new(&allocator, path, &TransformOptions::default())
        .build_with_scoping(scoping, &mut program);
    if !transformed.diagnostics.is_empty() {
        return Err(compile_error(&transformed.diagnostics));
    }
    let generated = Codegen::new()
        .with_options(CodegenOptions {
            source_map_path: Some(path.to_owned()),
            ..CodegenOptions::default()
        })
        .build(&program);
    let mut code = generated.code;
    if let Some(map) = generated.map {
        code.push_str("\n//# sourceMappingURL=");
        code.push_str(&map.to_data_url());
        code.push('\n');
    }
    Ok(code)
}

/// The constructs that parse as TypeScript but that Node 20 cannot run
/// and the transformer does not lower. Standard (TypeScript 5) decorators
/// and the `experimentalDecorators` form share one syntax with different
/// meanings, so neither is guessed at; `accessor` fields and `using`
/// declarations have no lowering in the transformer.
struct Unsupported {
    first: Option<(u32, &'static str)>,
}

impl Unsupported {
    fn note(&mut self, offset: u32, construct: &'static str) {
        if self.first.is_none_or(|(at, _)| offset < at) {
            self.first = Some((offset, construct));
        }
    }
}

impl<'a> Visit<'a> for Unsupported {
    fn visit_decorator(&mut self, it: &Decorator<'a>) {
        self.note(
            it.span.start,
            "decorators are not supported (Node 20 runs neither the TypeScript 5 form nor the \
             experimentalDecorators form): call the wrapping function by hand instead",
        );
        walk::walk_decorator(self, it);
    }

    fn visit_accessor_property(&mut self, it: &AccessorProperty<'a>) {
        self.note(
            it.span.start,
            "`accessor` fields are not supported (Node 20 cannot run them): write a private \
             field with a getter and a setter instead",
        );
        walk::walk_accessor_property(self, it);
    }

    fn visit_variable_declaration(&mut self, it: &VariableDeclaration<'a>) {
        if matches!(
            it.kind,
            VariableDeclarationKind::Using | VariableDeclarationKind::AwaitUsing
        ) {
            self.note(
                it.span.start,
                "`using` declarations are not supported (Node 20 cannot run them): call \
                 [Symbol.dispose]() in a `finally` block instead",
            );
        }
        walk::walk_variable_declaration(self, it);
    }
}

/// The first construct of `program` that cannot run, as a compile error
/// naming it with its line and column in the file `name`.
fn unsupported(
    program: &oxc::ast::ast::Program<'_>,
    source: &str,
    name: &str,
) -> Option<LearnerError> {
    let mut found = Unsupported { first: None };
    found.visit_program(program);
    let (offset, construct) = found.first?;
    let (line, column) = line_column(source, offset as usize);
    let message = format!("{name}:{line}:{column}: {construct}");
    Some(LearnerError {
        kind: "SyntaxError".into(),
        message: message.clone(),
        traceback: message,
        line: Some(line as u64),
        op_index: None,
        errno: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_are_stripped_and_a_source_map_is_inlined() {
        let js = transpile(
            "export class Router {\n  nodes: Set<string>;\n  constructor(n: string[]) { this.nodes = new Set<string>(n); }\n}\n",
            Path::new("/x/router.ts"),
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
        )
        .unwrap_err();
        assert_eq!(e.kind, "SyntaxError");
        assert_eq!(e.line, Some(2));
        assert!(e.message.starts_with("router.ts:2:"), "{}", e.message);
    }

    #[test]
    fn an_enum_is_lowered_to_an_object() {
        let js = transpile(
            "enum S { Up, Down = \"down\" }\nexport const s = S.Up;\n",
            Path::new("/x/router.ts"),
        )
        .unwrap();
        assert!(!js.contains("enum S"), "{js}");
        assert!(js.contains("\"down\""), "{js}");
    }

    #[test]
    fn what_node_cannot_run_is_refused_with_its_line_and_column() {
        for (source, line, construct) in [
            (
                "class R {\n  @d m() {}\n}\n",
                2,
                "decorators are not supported",
            ),
            ("class R {\n  accessor x = 1;\n}\n", 2, "`accessor` fields"),
            (
                "function f() {\n\n  using x = null;\n}\n",
                3,
                "`using` declarations",
            ),
        ] {
            let e = transpile(source, Path::new("/x/router.ts")).unwrap_err();
            assert_eq!(e.line, Some(line), "{}", e.message);
            assert!(
                e.message.starts_with(&format!("router.ts:{line}:")),
                "{}",
                e.message
            );
            assert!(e.message.contains(construct), "{}", e.message);
        }
    }
}
