//! Python: the learner's module imported by our driver, run by the real
//! interpreter (found once, `$GRADER_PYTHON` or `python3`).

use super::interpreter::Interpreter;
use super::{Replay, Submission, bare};
use crate::error::Error;
use reference::Returns;
use sandbox::{Environment, Program};
use serde_json::Value;
use std::ffi::OsString;

const DRIVER: &str = include_str!("../../../../drivers/python_driver.py");

/// The interpreter: the driver needs Python 3.7, for `-X utf8` (UTF-8
/// mode, ignored before) and dictionaries kept in insertion order. The
/// probe runs on Python 2 too, so that it can be told to go.
pub(super) const PYTHON: Interpreter = Interpreter {
    name: "python",
    title: "Python",
    rank: 0,
    variable: "GRADER_PYTHON",
    default: "python3",
    probe: (
        "-c",
        "import sys; print(sys.executable); print('%d.%d' % sys.version_info[:2])",
    ),
    package: "python3",
    minimum: (3, 7),
};

/// `python -B -s -S -X utf8 driver.py router.py`: no bytecode written, no
/// user site folder, UTF-8 whatever the locale. `-S` because the driver does
/// site's work itself, leaving the code lines of `.pth` files and
/// `sitecustomize` until an import needs them: they can cost more than the
/// whole replay at every interpreter start (the driver's `SiteOnDemand`).
pub(super) fn program(env: &Environment, submission: &Submission) -> Result<Program, Error> {
    let python = PYTHON.find(env)?;
    let driver = env.driver("python_driver.py", DRIVER)?;
    let mut program = bare(submission, python);
    program.announces = true;
    program.args = ["-B", "-s", "-S", "-X", "utf8"]
        .iter()
        .map(OsString::from)
        .collect();
    program.args.push(driver.into());
    program.args.push(submission.absolute.clone().into());
    Ok(program)
}

pub(super) fn snippet(r: &Replay<'_>) -> String {
    let mut s = format!(
        "# Run beside {}: it fails until the bug is fixed.\nfrom {} import Router\n\nrouter = Router({})\n",
        r.file,
        r.stem,
        r.arguments(&literal)
    );
    for op in r.before {
        s.push_str(&format!("{}\n", r.call(op, &literal)));
    }
    // Pairs may come back as tuples: compare them as lists.
    let answer = match r.returns {
        Returns::Loads => format!("[list(p) for p in {}]", r.call(r.last, &literal)),
        _ => r.call(r.last, &literal),
    };
    s.push_str(&format!(
        "assert {answer} == {}, {}\n",
        literal(r.expected),
        r.call(r.last, &literal)
    ));
    s
}

/// A JSON value as a Python literal.
fn literal(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(literal).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}
