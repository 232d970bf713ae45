//! Python: the learner's module imported by our driver, run by the real
//! interpreter (found once, `$GRADER_PYTHON` or `python3`).

use super::{Replay, Submission, bare};
use crate::error::Error;
use crate::exec::{Environment, Program};
use reference::Returns;
use serde_json::Value;
use std::ffi::OsString;

const DRIVER: &str = include_str!("../../drivers/python_driver.py");

/// `python -B -s -X utf8 driver.py router.py`: no bytecode written, no user
/// site folder, UTF-8 whatever the locale.
pub(super) fn program(env: &Environment, submission: &Submission) -> Result<Program, Error> {
    let python = super::interpreter(
        env,
        "python",
        0,
        "GRADER_PYTHON",
        "python3",
        ("-c", "import sys; print(sys.executable)"),
        "python3",
    )?;
    let driver = env.driver("python_driver.py", DRIVER)?;
    let mut program = bare(submission, python);
    program.args = ["-B", "-s", "-X", "utf8"]
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
