//! TypeScript: types stripped inside the grader with oxc (no npm, no
//! network), the result cached by content and run under the Node driver as
//! an ES module. The output carries an inline source map, so with
//! `--enable-source-maps` a traceback points at the learner's `.ts` lines.

use super::{Replay, Submission, bare};
use crate::challenge::locate::line_column;
use crate::error::Error;
use crate::exec::{Build, Environment, Program};
use crate::protocol::LearnerError;
use oxc::allocator::Allocator;
use oxc::codegen::{Codegen, CodegenOptions};
use oxc::parser::Parser;
use oxc::semantic::SemanticBuilder;
use oxc::span::SourceType;
use oxc::transformer::{TransformOptions, Transformer};
use std::path::{Path, PathBuf};

/// The transpiled module of `submission`, from the cache when this grader
/// version transpiled the same file before; `true` when it was cached.
pub(super) fn transpile_cached(
    env: &Environment,
    submission: &Submission,
) -> Result<Result<(PathBuf, bool), LearnerError>, Error> {
    let source = super::read_source(submission)?;
    let path = submission.absolute.to_string_lossy();
    let key = super::cache_key(&[
        b"ts",
        env!("CARGO_PKG_VERSION").as_bytes(),
        path.as_bytes(),
        source.as_bytes(),
    ]);
    let out = super::cache_folder(env, "ts")?.join(format!("{key}.mjs"));
    if out.is_file() {
        return Ok(Ok((out, true)));
    }
    let js = match transpile(&source, &submission.absolute) {
        Ok(js) => js,
        Err(e) => return Ok(Err(e)),
    };
    crate::fsutil::write_atomically(&out, js.as_bytes())?;
    Ok(Ok((out, false)))
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
    program.read.extend(module.parent().map(Path::to_owned));
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
    let scoping = SemanticBuilder::new()
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
}
