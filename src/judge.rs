//! Judge: compares a run's output with the expected list entry by entry and
//! turns every outcome into a [`Verdict`]. The first divergence (operation
//! index, operation, expected, actual) is the heart of every report.

use crate::challenge::Case;
use crate::protocol::LearnerError;
use crate::run::{Clock, Outcome};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// A test's verdict. Ordered from best to worst: a submission's verdict is
/// its worst test's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
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
    /// Not a verdict on the learner's code: the grader or its machine
    /// failed while grading it (the run exits 3, and resuming grades it
    /// again).
    GraderFault,
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
            Verdict::GraderFault => "grader-fault",
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The first operation whose answer differs from the expected one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Divergence {
    pub op_index: usize,
    /// The operation as the case wrote it, e.g. `["route","user:1"]`.
    pub op: Value,
    pub expected: Value,
    /// The submission's answer (`null` when `missing`).
    pub actual: Value,
    /// The submission gave no answer for this operation at all.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
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
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| same(a, b))
        }
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
    let running = |index: Option<i64>| match index {
        Some(_) => format!(
            "while running {}",
            operation(index).trim_start_matches("in ")
        ),
        None => "(it did not say which operation was running)".into(),
    };
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
                Some(d) => (
                    Verdict::WrongAnswer,
                    wrong_answer_message(case, d, actual.len(), case.expected.len()),
                ),
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
            let early = first_divergence(case, output)
                .filter(|d| raised_at.is_none_or(|k| d.op_index < k) && !d.missing);
            let what = format!("{}: {}", error.kind, error.message);
            match early {
                Some(d) => Judgement {
                    verdict: Verdict::WrongAnswer,
                    message: format!(
                        "{} (later, {what} was raised {})",
                        wrong_answer_message(case, &d, output.len(), case.expected.len()),
                        operation(error.op_index)
                    ),
                    divergence: Some(d),
                    error: Some(error.clone()),
                    actual: output.clone(),
                },
                // Past the file size limit or with the scratch folder full,
                // writes fail with EFBIG or ENOSPC.
                None if file_limit(error) => Judgement {
                    verdict: Verdict::OutputLimit,
                    message: format!(
                        "wrote too much to a file ({what}) {}: files are limited in size, and the scratch folder too",
                        operation(error.op_index)
                    ),
                    divergence: None,
                    error: Some(error.clone()),
                    actual: output.clone(),
                },
                // Under the memory limit, allocation fails as an exception.
                None if memory_limit(error) => Judgement {
                    verdict: Verdict::MemoryLimit,
                    message: format!(
                        "ran out of memory (MemoryError) {}",
                        operation(error.op_index)
                    ),
                    divergence: None,
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
        Outcome::TimedOut {
            limit,
            clock,
            op_index,
        } => {
            let running = match op_index {
                Some(_) => format!(
                    "while running {}",
                    operation(*op_index).trim_start_matches("in ")
                ),
                None => "(it did not say which operation was running)".into(),
            };
            fail(
                Verdict::TimeLimit,
                match clock {
                    Clock::Cpu => format!(
                        "ran past the {} ms time limit of CPU time {running}",
                        limit.as_millis()
                    ),
                    Clock::Wall => format!(
                        "waited past the {} ms wall-clock backstop of the {} ms time limit {running}, using less CPU time than the limit (a sleep, or a read that never returns?)",
                        crate::run::backstop(*limit).as_millis(),
                        limit.as_millis()
                    ),
                },
            )
        }
        Outcome::Crashed {
            status,
            op_index,
            starting,
        } => fail(
            Verdict::RuntimeError,
            match op_index {
                _ if *starting => format!("the process {status} while starting, before its hello"),
                Some(_) => format!("the process {status} {}", operation(*op_index)),
                None => format!("the process {status} before answering"),
            },
        ),
        Outcome::MemoryLimit {
            limit_bytes,
            peak_bytes,
            op_index,
        } => fail(
            Verdict::MemoryLimit,
            format!(
                "ran out of memory {}: the limit is {} and it reached {}",
                running(*op_index),
                mib(*limit_bytes),
                mib(*peak_bytes)
            ),
        ),
        Outcome::SharedMemoryLimit {
            limit_bytes,
            held_bytes,
            op_index,
        } => fail(
            Verdict::MemoryLimit,
            format!(
                "held more memory than the {} limit {}: its processes held {}, shared memory (mmap, /dev/shm) and every process counted",
                mib(*limit_bytes),
                running(*op_index),
                mib(*held_bytes)
            ),
        ),
        Outcome::CpuLimit { seconds, op_index } => fail(
            Verdict::TimeLimit,
            format!(
                "used up the session's {seconds} s of CPU time {} (a busy thread that never ends?)",
                running(*op_index)
            ),
        ),
        Outcome::FileSizeLimit {
            limit_bytes,
            op_index,
        } => fail(
            Verdict::OutputLimit,
            format!(
                "wrote a file past the {} file size limit {}",
                mib(*limit_bytes),
                running(*op_index)
            ),
        ),
        Outcome::OutputLimit { limit_bytes } => fail(
            Verdict::OutputLimit,
            format!(
                "printed more than {} during this test (the output limit); print less, or only when debugging",
                mib(*limit_bytes)
            ),
        ),
        Outcome::Protocol(what) => fail(Verdict::ProtocolError, what.clone()),
        Outcome::LoadFailed(error) => Judgement {
            message: format!(
                "the module failed to load: {}: {}{}",
                error.kind,
                error.message,
                error
                    .line
                    .map(|l| format!(" (line {l})"))
                    .unwrap_or_default()
            ),
            error: Some(error.clone()),
            ..fail(Verdict::RuntimeError, String::new())
        },
        Outcome::CompileFailed(error) => Judgement {
            message: format!("does not compile: {}", error.message),
            error: Some(error.clone()),
            ..fail(Verdict::CompileError, String::new())
        },
        Outcome::LoadTimedOut { executable } => fail(
            Verdict::TimeLimit,
            if *executable {
                format!(
                    "the program sent no hello within {} s; it must first write {{\"hello\": ...}} on descriptor 4 (see the protocol)",
                    crate::run::STARTUP_LIMIT.as_secs()
                )
            } else {
                format!(
                    "the module did not finish loading within {} s; move slow work out of the top level",
                    crate::run::STARTUP_LIMIT.as_secs()
                )
            },
        ),
    }
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

fn wrong_answer_message(case: &Case, d: &Divergence, produced: usize, wanted: usize) -> String {
    if d.missing {
        return format!(
            "no answer for operation {} {}: returned {produced} results for {wanted} operations",
            d.op_index, d.op
        );
    }
    let mut message = format!(
        "operation {} {}: expected {}, got {}",
        d.op_index, d.op, d.expected, d.actual
    );
    // An answer of the wrong type: say what the operation returns.
    if let Some(op) = case.ops.get(d.op_index)
        && !op.signature.returns.accepts(&d.actual)
    {
        let returns = op.signature.returns.describe();
        message.push_str(&match &d.actual {
            Value::Array(_) => format!(
                " (`{}` returns {returns}; yours is a list of something else)",
                op.name()
            ),
            other => format!(
                " (`{}` returns {returns}, not {})",
                op.name(),
                reference::operation::kind_of(other)
            ),
        });
    }
    message
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

/// Whether `error` is a write past the file size limit or into a full
/// scratch folder (EFBIG or ENOSPC).
fn file_limit(error: &LearnerError) -> bool {
    matches!(error.errno, Some(e) if e == i64::from(libc::EFBIG) || e == i64::from(libc::ENOSPC))
}

/// Whether `error` is an allocation that failed under the memory limit.
fn memory_limit(error: &LearnerError) -> bool {
    error.kind == "MemoryError"
}

/// Whether `error` is a limit the code ran into (memory, file size, the
/// scratch folder), judged as that limit, rather than an exception the
/// code raised of itself.
pub fn raised_at_a_limit(error: &LearnerError) -> bool {
    file_limit(error) || memory_limit(error)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::challenge::Operations;
    use serde_json::json;
    use std::time::Duration;

    /// A rendezvous-router case with `expected` as its expected output.
    fn case(input: Value, expected: Value) -> Case {
        let model = &reference::rendezvous::SPEC;
        let allowed: Vec<_> = model.operations.iter().collect();
        let ops = Operations {
            model,
            allowed: &allowed,
        };
        Case::in_memory(
            &ops,
            "t",
            "g",
            input,
            Some(expected.as_array().unwrap().clone()),
        )
        .unwrap()
    }

    fn three_ops() -> Case {
        case(
            json!([
                [["a", "b"]],
                [["route", "k"], ["remove", "a"], ["route", "k"]]
            ]),
            json!(["a", null, "b"]),
        )
    }

    #[test]
    fn an_answer_of_the_wrong_type_says_what_the_operation_returns() {
        let c = three_ops();
        let j = judge(
            &c,
            &Outcome::Output(vec![json!({"node": "a"}), Value::Null, json!("b")]),
        );
        assert!(
            j.message
                .ends_with("(`route` returns a string or null, not an object)"),
            "{}",
            j.message
        );
        let j = judge(
            &c,
            &Outcome::Output(vec![json!(["a"]), Value::Null, json!("b")]),
        );
        assert!(
            j.message.ends_with("yours is a list of something else)"),
            "{}",
            j.message
        );
        // A right type with a wrong value needs no such note.
        let j = judge(
            &c,
            &Outcome::Output(vec![json!("b"), Value::Null, json!("b")]),
        );
        assert!(
            j.message.ends_with("expected \"a\", got \"b\""),
            "{}",
            j.message
        );
    }

    #[test]
    fn numbers_compare_by_value() {
        assert!(same(&json!(1), &json!(1.0)));
        assert!(same(&json!([["a", 2]]), &json!([["a", 2.0]])));
        assert!(!same(&json!(1), &json!(2)));
        assert!(!same(&json!("1"), &json!(1)));
        assert!(!same(&json!([1]), &json!([1, 1])));
    }

    #[test]
    fn the_first_differing_operation_is_reported_with_the_count() {
        let c = three_ops();
        let j = judge(
            &c,
            &Outcome::Output(vec![json!("a"), Value::Null, json!("a")]),
        );
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        let d = j.divergence.unwrap();
        assert_eq!((d.op_index, d.missing, d.differing_ops), (2, false, 1));
        assert_eq!(d.op, json!(["route", "k"]));
        assert_eq!((d.expected, d.actual), (json!("b"), json!("a")));
        assert_eq!(
            j.message,
            r#"operation 2 ["route","k"]: expected "b", got "a""#
        );
    }

    #[test]
    fn a_short_output_diverges_at_its_first_missing_answer() {
        let c = three_ops();
        let j = judge(&c, &Outcome::Output(vec![json!("a")]));
        let d = j.divergence.unwrap();
        assert_eq!((d.op_index, d.missing, d.differing_ops), (1, true, 2));
        // A long one is wrong too, though every expected entry matches.
        let j = judge(
            &c,
            &Outcome::Output(vec![json!("a"), Value::Null, json!("b"), json!("x")]),
        );
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        assert!(j.divergence.is_none());
        assert!(
            j.message.contains("returned 4 results for 3 operations"),
            "{}",
            j.message
        );
    }

    #[test]
    fn an_exception_is_a_runtime_error_unless_a_wrong_answer_came_first() {
        let c = three_ops();
        let error = |op_index| LearnerError {
            kind: "KeyError".into(),
            message: "'a'".into(),
            traceback: String::new(),
            line: Some(3),
            op_index: Some(op_index),
            errno: None,
        };
        let raised = judge(
            &c,
            &Outcome::Raised {
                output: vec![json!("a")],
                error: error(1),
            },
        );
        assert_eq!(raised.verdict, Verdict::RuntimeError);
        assert_eq!(
            raised.message,
            r#"KeyError: 'a' raised in operation 1 ["remove","a"]"#
        );
        let wrong_first = judge(
            &c,
            &Outcome::Raised {
                output: vec![json!("b"), Value::Null],
                error: error(2),
            },
        );
        assert_eq!(wrong_first.verdict, Verdict::WrongAnswer);
        assert_eq!(wrong_first.divergence.unwrap().op_index, 0);
        assert!(
            wrong_first.message.contains("later, KeyError"),
            "{}",
            wrong_first.message
        );
    }

    #[test]
    fn a_timeout_names_the_running_operation() {
        let c = three_ops();
        let j = judge(
            &c,
            &Outcome::TimedOut {
                limit: Duration::from_millis(1500),
                clock: Clock::Cpu,
                op_index: Some(2),
            },
        );
        assert_eq!(j.verdict, Verdict::TimeLimit);
        assert_eq!(
            j.message,
            r#"ran past the 1500 ms time limit of CPU time while running operation 2 ["route","k"]"#
        );
        let j = judge(
            &c,
            &Outcome::TimedOut {
                limit: Duration::from_millis(1500),
                clock: Clock::Wall,
                op_index: Some(-1),
            },
        );
        assert!(
            j.message.starts_with(
                "waited past the 6500 ms wall-clock backstop of the 1500 ms time limit while running the constructor, "
            ),
            "{}",
            j.message
        );
    }

    #[test]
    fn the_worst_verdict_orders_after_accepted() {
        let worst = [Verdict::Accepted, Verdict::TimeLimit, Verdict::WrongAnswer]
            .into_iter()
            .max();
        assert_eq!(worst, Some(Verdict::TimeLimit));
    }
}
