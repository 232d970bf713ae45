//! JavaScript: the learner's module (CommonJS or ES) loaded by our Node
//! driver, run by the real `node` (found once, `$GRADER_NODE` or `node`).

use super::interpreter::Interpreter;
use super::{Replay, Submission, bare};
use crate::error::Error;
use sandbox::{Environment, Program};
use serde_json::Value;
use std::path::PathBuf;

const DRIVER: &str = include_str!("../../../../drivers/node_driver.js");

/// The interpreter: the driver needs Node.js 14, for optional chaining
/// (`?.`).
pub(super) const NODE: Interpreter = Interpreter {
    name: "node",
    title: "Node.js",
    rank: 1,
    variable: "GRADER_NODE",
    default: "node",
    probe: (
        "-e",
        "console.log(process.execPath); console.log(process.versions.node)",
    ),
    package: "nodejs",
    minimum: (14, 0),
};

/// The real `node` binary, and our driver written out.
pub(super) fn node_and_driver(env: &Environment) -> Result<(PathBuf, PathBuf), Error> {
    let node = NODE.find(env)?;
    Ok((node, env.driver("node_driver.js", DRIVER)?))
}

/// `node --no-warnings driver.js router.js`.
pub(super) fn program(env: &Environment, submission: &Submission) -> Result<Program, Error> {
    let (node, driver) = node_and_driver(env)?;
    let mut program = bare(submission, node);
    program.announces = true;
    program.args = vec![
        "--no-warnings".into(),
        driver.into(),
        submission.absolute.clone().into(),
    ];
    Ok(program)
}

pub(super) fn snippet(r: &Replay<'_>) -> String {
    let header = format!(
        "// Save as check.mjs beside {file} and run `node check.mjs`: it fails until the bug is fixed.\nimport assert from 'node:assert';\nimport * as m from './{file}';\nconst Router = m.Router ?? m.default?.Router;\n",
        file = r.file
    );
    with_header(r, &header)
}

/// The replay after `header` (which imports `Router` and `assert`): JSON
/// literals are valid JavaScript and TypeScript.
pub(super) fn with_header(r: &Replay<'_>, header: &str) -> String {
    let json = |v: &Value| v.to_string();
    let mut s = format!(
        "{header}\nconst router = new Router({});\n",
        r.arguments(&json)
    );
    for op in r.before {
        s.push_str(&format!("{};\n", r.call(op, &json)));
    }
    s.push_str(&format!(
        "assert.deepStrictEqual({}, {});\n",
        r.call(r.last, &json),
        r.expected
    ));
    s
}
