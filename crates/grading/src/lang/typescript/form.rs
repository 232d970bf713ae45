//! Which kind of module a TypeScript file is written as. `tsc`'s default
//! output, and what ts-node runs, is CommonJS: `import x = require(...)`,
//! `export =`, `require(...)`, `module.exports` and `exports.X` are valid
//! TypeScript there, and are refused only when compiling to an ES module.
//! A file that uses them runs as CommonJS (a `.cjs` module); any other
//! runs as an ES module, as before. tsc also takes `import x = require()`
//! and `require(...)` beside ES `import`s and `export`s (it compiles them all
//! to CommonJS): such a file runs as an ES module with a `require` of its
//! own (Node's `createRequire`), which is what they mean there. Only
//! `export =`, `module` and `exports`, which tsc refuses beside ES exports
//! or which mean nothing in an ES module, are refused beside them.

use super::lower::Refusal;
use oxc::ast::ast::{Program, Statement, TSModuleReference};
use oxc::semantic::SemanticBuilder;
use oxc::span::GetSpan;

/// The kind of module a file is run as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Es,
    /// An ES module that also calls `require` (`import x = require()`).
    EsRequiring,
    CommonJs,
}

impl Form {
    /// The extension Node needs to run the module as this kind.
    pub fn extension(self) -> &'static str {
        match self {
            Form::Es | Form::EsRequiring => "mjs",
            Form::CommonJs => "cjs",
        }
    }
}

/// The form of `program`, or a refusal where it mixes the two in one
/// file: an ES `import` or `export` beside a CommonJS form.
pub fn of(program: &Program<'_>) -> Result<Form, Refusal> {
    let mut commonjs: Option<(u32, &str)> = None;
    // Whether every CommonJS form seen is a `require`, which an ES module
    // may be given.
    let mut only_require = true;
    let mut es: Option<(u32, &str)> = None;
    for statement in &program.body {
        let start = statement.span().start;
        match statement {
            Statement::TSImportEqualsDeclaration(d)
                if d.import_kind.is_value()
                    && matches!(
                        d.module_reference,
                        TSModuleReference::ExternalModuleReference(_)
                    ) =>
            {
                commonjs.get_or_insert((start, "`import ... = require(...)`"));
            }
            Statement::TSExportAssignment(_) => {
                only_require = false;
                commonjs.get_or_insert((start, "`export =`"));
            }
            _ => {
                let type_only = |s: &Statement<'_>| matches!(s, Statement::ImportDeclaration(d) if d.import_kind.is_type());
                if let Some(module) = statement.as_module_declaration()
                    && !module.is_typescript_syntax()
                    && !type_only(statement)
                {
                    let what = if module.is_import() {
                        "an ES `import`"
                    } else {
                        "an ES `export`"
                    };
                    es.get_or_insert((start, what));
                }
            }
        }
    }
    // `require`, `module` and `exports` as CommonJS gives them: names the
    // file uses without declaring.
    let scoping = SemanticBuilder::new()
        .build(program)
        .semantic
        .into_scoping();
    let free = |name: &str| scoping.root_unresolved_references().contains_key(name);
    if free("module") || free("exports") {
        only_require = false;
        commonjs.get_or_insert((0, "CommonJS's `module` or `exports`"));
    } else if free("require") {
        commonjs.get_or_insert((0, "CommonJS's `require`"));
    }
    match (commonjs, es) {
        (None, _) => Ok(Form::Es),
        (Some(_), None) => Ok(Form::CommonJs),
        (Some(_), Some(_)) if only_require => Ok(Form::EsRequiring),
        (Some((_, cjs)), Some((offset, es))) => Err(Refusal {
            offset,
            message: format!(
                "{es} in a file that also uses {cjs}, which tsc refuses (or which means \
                 nothing in an ES module): export the ES way throughout (`export class Router`), \
                 or the CommonJS way throughout (`export = Router` or \
                 `module.exports = {{ Router }}`, with no ES `import` or `export`)"
            ),
        }),
    }
}
