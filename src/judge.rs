//! Judge: compares a run's output with the expected list entry by entry and
//! turns every outcome into a [`Verdict`]. The first divergence (operation
//! index, operation, expected, actual) is the heart of every report.

use crate::challenge::Case;
use crate::run::{LearnerError, Outcome};
use serde::Serialize;
use serde_json::Value;
use std::fmt;

/// A test's verdict. Ordered from best to worst: a submission's verdict is
/// its worst test's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    Accepted,
    WrongAnswer,
    RuntimeError,
    TimeLimit,
    MemoryLimit,
    OutputLimit,
    ProtocolError,
    CompileError,
}

impl Verdict {
    /// The verdict's name as the reports spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Accepted => "accepted",
            Verdict::WrongAnswer => "wrong-answer",
            Verdict::RuntimeError => "runtime-error",
            Verdict::TimeLimit => "time-limit",
            Verdict::MemoryLimit => "memory-limit",
            Verdict::OutputLimit => "output-limit",
            Verdict::ProtocolError => "protocol-error",
            Verdict::CompileError => "compile-error",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first operation whose answer differs from the expected one.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Divergence {
    pub op_index: usize,
    /// The operation as the case wrote it, e.g. `["route","user:1"]`.
    pub op: Value,
    pub expected: Value,
    /// The submission's answer (`null` when `missing`).
    pub actual: Value,
    /// The submission gave no answer for this operation at all.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub missing: bool,
    /// How many operations differ in all (missing answers included).
    pub differing_ops: usize,
}

/// A judged test.
#[derive(Debug, Clone)]
pub struct Judgement {
    pub verdict: Verdict,
    pub divergence: Option<Divergence>,
    /// One line saying what happened, for every verdict but `accepted`.
    pub message: String,
    /// The learner's exception, when one was raised.
    pub error: Option<LearnerError>,
    /// The submission's full output, when it produced one (for explaining).
    pub actual: Vec<Value>,
}

/// JSON equality where `1` and `1.0` are the same number: languages differ
/// in how they print integers held as floats.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b)),
        _ => a == b,
    }
}

/// The first operation where `actual` departs from the case's expected
/// output, counting answers `actual` lacks.
pub fn first_divergence(case: &Case, actual: &[Value]) -> Option<Divergence> {
    let expected = &case.expected;
    let differs = |i: usize| actual.get(i).is_none_or(|a| !same(&expected[i], a));
    let first = (0..expected.len()).find(|&i| differs(i))?;
    Some(Divergence {
        op_index: first,
        op: case.op_json(first),
        expected: expected[first].clone(),
        actual: actual.get(first).cloned().unwrap_or(Value::Null),
        missing: first >= actual.len(),
        differing_ops: (first..expected.len()).filter(|&i| differs(i)).count(),
    })
}

/// Judges one case's outcome.
pub fn judge(case: &Case, outcome: &Outcome) -> Judgement {
    let operation = |index: Option<i64>| describe_op(case, index);
    let fail = |verdict, message: String| Judgement {
        verdict,
        divergence: None,
        message,
        error: None,
        actual: Vec::new(),
    };
    match outcome {
        Outcome::Output(actual) => {
            let divergence = first_divergence(case, actual);
            let extra = actual.len().saturating_sub(case.expected.len());
            let (verdict, message) = match &divergence {
                Some(d) => (Verdict::WrongAnswer, wrong_answer_message(d, actual.len(), case.expected.len())),
                None if extra > 0 => (
                    Verdict::WrongAnswer,
                    format!(
                        "returned {} results for {} operations; give exactly one per operation (null for add and remove)",
                        actual.len(),
                        case.expected.len()
                    ),
                ),
                None => (Verdict::Accepted, String::new()),
            };
            Judgement {
                verdict,
                divergence,
                message,
                error: None,
                actual: actual.clone(),
            }
        }
        Outcome::Raised { output, error } => {
            let raised_at = error.op_index.and_then(|i| usize::try_from(i).ok());
            // A wrong answer before the exception is the first thing that
            // went wrong.
            let early = first_divergence(case, output).filter(|d| raised_at.is_none_or(|k| d.op_index < k) && !d.missing);
            let what = format!("{}: {}", error.kind, error.message);
            match early {
                Some(d) => Judgement {
                    verdict: Verdict::WrongAnswer,
                    message: format!(
                        "{} (later, {what} was raised {})",
                        wrong_answer_message(&d, output.len(), case.expected.len()),
                        operation(error.op_index)
                    ),
                    divergence: Some(d),
                    error: Some(error.clone()),
                    actual: output.clone(),
                },
                None => Judgement {
                    verdict: Verdict::RuntimeError,
                    message: format!("{what} raised {}", operation(error.op_index)),
                    divergence: None,
                    error: Some(error.clone()),
                    actual: output.clone(),
                },
            }
        }
        Outcome::TimedOut { limit, op_index } => fail(
            Verdict::TimeLimit,
            format!(
                "ran past the {} ms time limit {}",
                limit.as_millis(),
                match op_index {
                    Some(_) => format!("while running {}", operation(*op_index).trim_start_matches("in ")),
                    None => "(it did not say which operation was running)".into(),
                }
            ),
        ),
        Outcome::Crashed { status } => fail(
            Verdict::RuntimeError,
            format!("the process {status} before answering"),
        ),
        Outcome::Protocol(what) => fail(Verdict::ProtocolError, what.clone()),
        Outcome::LoadFailed(error) => Judgement {
            message: format!(
                "the module failed to load: {}: {}{}",
                error.kind,
                error.message,
                error.line.map(|l| format!(" (line {l})")).unwrap_or_default()
            ),
            error: Some(error.clone()),
            ..fail(Verdict::RuntimeError, String::new())
        },
        Outcome::LoadTimedOut => fail(
            Verdict::TimeLimit,
            format!(
                "the module did not finish loading within {} s; move slow work out of the top level",
                crate::run::STARTUP_LIMIT.as_secs()
            ),
        ),
    }
}

fn wrong_answer_message(d: &Divergence, produced: usize, wanted: usize) -> String {
    if d.missing {
        format!(
            "no answer for operation {} {}: returned {produced} results for {wanted} operations",
            d.op_index, d.op
        )
    } else {
        format!(
            "operation {} {}: expected {}, got {}",
            d.op_index, d.op, d.expected, d.actual
        )
    }
}

/// "in operation 3 ["remove","x"]", "in the constructor", "in solve".
fn describe_op(case: &Case, index: Option<i64>) -> String {
    match index {
        Some(-1) => "in the constructor".into(),
        Some(i) => match usize::try_from(i).ok().filter(|&i| i < case.ops.len()) {
            Some(i) => format!("in operation {i} {}", case.op_json(i)),
            None => format!("in operation {i}"),
        },
        None => "in solve".into(),
    }
}
