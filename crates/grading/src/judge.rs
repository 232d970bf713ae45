//! Judge: compares a run's output with the expected list entry by entry and
//! turns every outcome into a [`Verdict`] and its [`Cause`], as data (the
//! report words them). The first divergence (operation index, operation,
//! expected, actual) is the heart of every report.

use crate::challenge::Case;
use crate::protocol::{At, ErrorKind, LearnerException, Violation};
use crate::run::{CaseOutcome, Clock};
use sandbox::Ended;
use serde_json::Value;
use std::time::Duration;

pub use vocabulary::Verdict;

/// The first operation whose answer differs from the expected one.
#[derive(Debug, Clone, PartialEq)]
pub struct DivergentOp {
    pub op_index: usize,
    /// The operation as the case wrote it, e.g. `["route","user:1"]`.
    pub op: Value,
    pub expected: Value,
    /// The submission's answer (`null` when `missing`).
    pub actual: Value,
    /// The submission gave no answer for this operation at all.
    pub missing: bool,
    /// How many operations differ in all (missing answers included); of
    /// a replayed divergence, how many of the operations replayed.
    pub differing_ops: usize,
    /// Set when the answer was seen in a replay of the case's first
    /// `replayed_ops` operations alone, in a fresh session: the test's own
    /// run hit a limit or crashed at operation `replayed_ops`, and its
    /// answers are sent only at the end of a case (`grade::prefix`).
    pub replayed_ops: Option<usize>,
}

/// A judged test.
#[derive(Debug, Clone)]
pub struct Judgement {
    pub verdict: Verdict,
    pub divergence: Option<DivergentOp>,
    /// Why it got its verdict, as data: the report words it.
    pub cause: Cause,
    /// The submission's full output, when it produced one (for explaining).
    pub actual: Vec<Value>,
}

impl Judgement {
    /// The learner's exception, when one was raised.
    pub fn error(&self) -> Option<&LearnerException> {
        match &self.cause {
            Cause::WrongThenRaised { error, .. }
            | Cause::RaisedAtFileLimit(error)
            | Cause::RaisedAtMemoryLimit(error)
            | Cause::Raised(error)
            | Cause::LoadFailed(error)
            | Cause::CompileFailed(error) => Some(error),
            _ => None,
        }
    }
}

/// Why a test got its verdict: everything its one-line message says, as
/// data. Where the code was is the protocol's [`At`] (`None`: it did not
/// say).
#[derive(Debug, Clone, PartialEq)]
pub enum Cause {
    /// Every answer as expected.
    Accepted,
    /// An answer differs from the expected one (the judgement's
    /// divergence): `produced` answers for `wanted` operations.
    WrongAnswer { produced: usize, wanted: usize },
    /// Every expected answer given, and more after them.
    ExtraAnswers { produced: usize, wanted: usize },
    /// An answer differed (the divergence) before the code raised `error`.
    WrongThenRaised {
        produced: usize,
        wanted: usize,
        error: LearnerException,
    },
    /// A write failed past the file size limit or into a full scratch
    /// folder (EFBIG or ENOSPC).
    RaisedAtFileLimit(LearnerException),
    /// An allocation failed under the memory limit (a MemoryError).
    RaisedAtMemoryLimit(LearnerException),
    /// The code raised an exception.
    Raised(LearnerException),
    /// A case ran past its `limit` of CPU time, or waited past its
    /// wall-clock backstop: `clock` says which.
    TimedOut {
        limit: Duration,
        clock: Clock,
        at: Option<At>,
    },
    /// The process ended without answering (`starting`: before its hello).
    Crashed {
        status: Ended,
        at: Option<At>,
        starting: bool,
    },
    /// The process died near the memory limit.
    MemoryLimit {
        limit_bytes: u64,
        peak_bytes: u64,
        at: Option<At>,
    },
    /// The session's processes together held more than the limit.
    SharedMemoryLimit {
        limit_bytes: u64,
        held_bytes: u64,
        at: Option<At>,
    },
    /// The session used up its CPU time.
    CpuLimit { seconds: u64, at: Option<At> },
    /// A file written past the file size limit.
    FileSizeLimit { limit_bytes: u64, at: Option<At> },
    /// More printed during the case than the output limit.
    OutputLimit { limit_bytes: u64 },
    /// The program broke the protocol, as the session said.
    Protocol(Violation),
    /// The module did not load.
    LoadFailed(LearnerException),
    /// The submission did not compile.
    CompileFailed(LearnerException),
    /// No hello within the start-up limit (`executable`: the learner's
    /// own program, which must send it itself).
    LoadTimedOut { executable: bool },
}

impl Cause {
    /// The operation a limit or a crash stopped the case in, when the
    /// code said which (its progress): the answers before it, sent only
    /// at the end of a case, were lost with it. `None` for every other
    /// cause, and for a process that died before its hello.
    pub fn stopped_at(&self) -> Option<At> {
        match self {
            Cause::TimedOut { at, .. }
            | Cause::MemoryLimit { at, .. }
            | Cause::SharedMemoryLimit { at, .. }
            | Cause::CpuLimit { at, .. }
            | Cause::FileSizeLimit { at, .. }
            | Cause::Crashed {
                at,
                starting: false,
                ..
            } => *at,
            _ => None,
        }
    }
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
pub fn first_divergence(case: &Case, actual: &[Value]) -> Option<DivergentOp> {
    first_divergence_before(case, actual, case.expected.len())
}

/// [`first_divergence`] among the case's first `end` operations only.
pub fn first_divergence_before(case: &Case, actual: &[Value], end: usize) -> Option<DivergentOp> {
    let expected = &case.expected;
    let end = end.min(expected.len());
    let differs = |i: usize| actual.get(i).is_none_or(|a| !same(&expected[i], a));
    let first = (0..end).find(|&i| differs(i))?;
    Some(DivergentOp {
        op_index: first,
        op: case.op_json(first),
        expected: expected[first].clone(),
        actual: actual.get(first).cloned().unwrap_or(Value::Null),
        missing: first >= actual.len(),
        differing_ops: (first..end).filter(|&i| differs(i)).count(),
        replayed_ops: None,
    })
}

/// Judges one case's outcome.
pub fn judge(case: &Case, outcome: &CaseOutcome) -> Judgement {
    let fail = |verdict, cause| Judgement {
        verdict,
        divergence: None,
        cause,
        actual: Vec::new(),
    };
    let wanted = case.expected.len();
    match outcome {
        CaseOutcome::Output(actual) => {
            let divergence = first_divergence(case, actual);
            let produced = actual.len();
            let (verdict, cause) = match &divergence {
                Some(_) => (
                    Verdict::WrongAnswer,
                    Cause::WrongAnswer { produced, wanted },
                ),
                None if produced > wanted => (
                    Verdict::WrongAnswer,
                    Cause::ExtraAnswers { produced, wanted },
                ),
                None => (Verdict::Accepted, Cause::Accepted),
            };
            Judgement {
                verdict,
                divergence,
                cause,
                actual: actual.clone(),
            }
        }
        CaseOutcome::Raised { output, error } => {
            let raised_at = error.op_index.and_then(At::op);
            // A wrong answer before the exception is the first thing that
            // went wrong.
            let early = first_divergence(case, output)
                .filter(|d| raised_at.is_none_or(|k| d.op_index < k) && !d.missing);
            let error = error.clone();
            let (verdict, cause) = match early {
                Some(_) => (
                    Verdict::WrongAnswer,
                    Cause::WrongThenRaised {
                        produced: output.len(),
                        wanted,
                        error,
                    },
                ),
                // Past the file size limit or with the scratch folder full,
                // writes fail with EFBIG or ENOSPC.
                None if file_limit(&error) => {
                    (Verdict::OutputLimit, Cause::RaisedAtFileLimit(error))
                }
                // Under the memory limit, allocation fails as an exception.
                None if memory_limit(&error) => {
                    (Verdict::MemoryLimit, Cause::RaisedAtMemoryLimit(error))
                }
                None if error.kind == ErrorKind::CompileError => {
                    (Verdict::CompileError, Cause::CompileFailed(error))
                }
                None => (Verdict::RuntimeError, Cause::Raised(error)),
            };
            Judgement {
                verdict,
                divergence: early,
                cause,
                actual: output.clone(),
            }
        }
        CaseOutcome::TimedOut {
            limit,
            clock,
            op_index,
        } => fail(
            Verdict::TimeLimit,
            Cause::TimedOut {
                limit: *limit,
                clock: *clock,
                at: *op_index,
            },
        ),
        CaseOutcome::Crashed {
            status,
            op_index,
            starting,
        } => fail(
            Verdict::RuntimeError,
            Cause::Crashed {
                status: status.clone(),
                at: *op_index,
                starting: *starting,
            },
        ),
        CaseOutcome::MemoryLimit {
            limit_bytes,
            peak_bytes,
            op_index,
        } => fail(
            Verdict::MemoryLimit,
            Cause::MemoryLimit {
                limit_bytes: *limit_bytes,
                peak_bytes: *peak_bytes,
                at: *op_index,
            },
        ),
        CaseOutcome::SharedMemoryLimit {
            limit_bytes,
            held_bytes,
            op_index,
        } => fail(
            Verdict::MemoryLimit,
            Cause::SharedMemoryLimit {
                limit_bytes: *limit_bytes,
                held_bytes: *held_bytes,
                at: *op_index,
            },
        ),
        CaseOutcome::CpuLimit { seconds, op_index } => fail(
            Verdict::TimeLimit,
            Cause::CpuLimit {
                seconds: *seconds,
                at: *op_index,
            },
        ),
        CaseOutcome::FileSizeLimit {
            limit_bytes,
            op_index,
        } => fail(
            Verdict::OutputLimit,
            Cause::FileSizeLimit {
                limit_bytes: *limit_bytes,
                at: *op_index,
            },
        ),
        CaseOutcome::OutputLimit { limit_bytes } => fail(
            Verdict::OutputLimit,
            Cause::OutputLimit {
                limit_bytes: *limit_bytes,
            },
        ),
        CaseOutcome::Protocol(what) => fail(Verdict::ProtocolError, Cause::Protocol(what.clone())),
        // A driver that refused to run what the learner's code loaded
        // (Python's bytecode) says it is a compile error.
        CaseOutcome::LoadFailed(error) if error.kind != ErrorKind::CompileError => {
            fail(Verdict::RuntimeError, Cause::LoadFailed(error.clone()))
        }
        CaseOutcome::LoadFailed(error) | CaseOutcome::CompileFailed(error) => {
            fail(Verdict::CompileError, Cause::CompileFailed(error.clone()))
        }
        CaseOutcome::LoadTimedOut { executable } => fail(
            Verdict::TimeLimit,
            Cause::LoadTimedOut {
                executable: *executable,
            },
        ),
    }
}

/// Whether `error` is a write past the file size limit or into a full
/// scratch folder (EFBIG or ENOSPC).
fn file_limit(error: &LearnerException) -> bool {
    matches!(error.errno, Some(e) if e == i64::from(libc::EFBIG) || e == i64::from(libc::ENOSPC))
}

/// Whether `error` is an allocation that failed under the memory limit.
fn memory_limit(error: &LearnerException) -> bool {
    error.kind == ErrorKind::MemoryError
}

/// Whether `error` is a limit the code ran into (memory, file size, the
/// scratch folder), judged as that limit, rather than an exception the
/// code raised of itself.
pub fn raised_at_a_limit(error: &LearnerException) -> bool {
    file_limit(error) || memory_limit(error)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::challenge::Operations;
    use serde_json::json;
    use std::time::Duration;

    /// A rendezvous-router case with `expected` as its expected output.
    pub(crate) fn case(input: Value, expected: Value) -> Case {
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

    pub(crate) fn three_ops() -> Case {
        case(
            json!([
                [["a", "b"]],
                [["route", "k"], ["remove", "a"], ["route", "k"]]
            ]),
            json!(["a", null, "b"]),
        )
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
            &CaseOutcome::Output(vec![json!("a"), Value::Null, json!("a")]),
        );
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        let d = j.divergence.unwrap();
        assert_eq!((d.op_index, d.missing, d.differing_ops), (2, false, 1));
        assert_eq!(d.op, json!(["route", "k"]));
        assert_eq!((d.expected, d.actual), (json!("b"), json!("a")));
        assert_eq!(
            j.cause,
            Cause::WrongAnswer {
                produced: 3,
                wanted: 3
            }
        );
    }

    #[test]
    fn a_short_output_diverges_at_its_first_missing_answer() {
        let c = three_ops();
        let j = judge(&c, &CaseOutcome::Output(vec![json!("a")]));
        let d = j.divergence.unwrap();
        assert_eq!((d.op_index, d.missing, d.differing_ops), (1, true, 2));
        // A long one is wrong too, though every expected entry matches.
        let j = judge(
            &c,
            &CaseOutcome::Output(vec![json!("a"), Value::Null, json!("b"), json!("x")]),
        );
        assert_eq!(j.verdict, Verdict::WrongAnswer);
        assert!(j.divergence.is_none());
        assert_eq!(
            j.cause,
            Cause::ExtraAnswers {
                produced: 4,
                wanted: 3
            }
        );
    }

    #[test]
    fn an_exception_is_a_runtime_error_unless_a_wrong_answer_came_first() {
        let c = three_ops();
        let error = |op_index| LearnerException {
            kind: ErrorKind::Other("KeyError".into()),
            message: "'a'".into(),
            traceback: Box::default(),
            line: Some(3),
            op_index: Some(At::Op(op_index)),
            errno: None,
            unbuilt: None,
        };
        let raised = judge(
            &c,
            &CaseOutcome::Raised {
                output: vec![json!("a")],
                error: error(1),
            },
        );
        assert_eq!(raised.verdict, Verdict::RuntimeError);
        assert_eq!(raised.cause, Cause::Raised(error(1)));
        assert!(raised.divergence.is_none());
        let wrong_first = judge(
            &c,
            &CaseOutcome::Raised {
                output: vec![json!("b"), Value::Null],
                error: error(2),
            },
        );
        assert_eq!(wrong_first.verdict, Verdict::WrongAnswer);
        assert_eq!(wrong_first.divergence.as_ref().unwrap().op_index, 0);
        assert_eq!(wrong_first.error(), Some(&error(2)));
        assert!(matches!(wrong_first.cause, Cause::WrongThenRaised { .. }));
    }

    #[test]
    fn a_limit_keeps_where_the_code_was() {
        let c = three_ops();
        let j = judge(
            &c,
            &CaseOutcome::TimedOut {
                limit: Duration::from_millis(1500),
                clock: Clock::Wall,
                op_index: Some(At::Constructor),
            },
        );
        assert_eq!(j.verdict, Verdict::TimeLimit);
        assert_eq!(
            j.cause,
            Cause::TimedOut {
                limit: Duration::from_millis(1500),
                clock: Clock::Wall,
                at: Some(At::Constructor)
            }
        );
        let memory = LearnerException::new(ErrorKind::MemoryError, String::new());
        let j = judge(
            &c,
            &CaseOutcome::Raised {
                output: vec![],
                error: memory.clone(),
            },
        );
        assert_eq!(
            (j.verdict, j.cause),
            (Verdict::MemoryLimit, Cause::RaisedAtMemoryLimit(memory))
        );
    }

    #[test]
    fn a_prefix_diverges_only_among_its_own_operations() {
        let c = three_ops();
        // Right on the first two: the third, never asked, is no divergence.
        let right = [json!("a"), Value::Null];
        assert_eq!(first_divergence_before(&c, &right, 2), None);
        let wrong = [json!("b"), Value::Null];
        let d = first_divergence_before(&c, &wrong, 2).unwrap();
        assert_eq!((d.op_index, d.missing, d.differing_ops), (0, false, 1));
        assert_eq!((d.expected, d.actual), (json!("a"), json!("b")));
        assert_eq!(d.replayed_ops, None);
        // Past the case's end, the whole case.
        assert_eq!(
            first_divergence_before(&c, &[json!("a")], 9),
            first_divergence(&c, &[json!("a")])
        );
    }

    #[test]
    fn a_limit_or_a_crash_says_where_it_stopped_and_nothing_else_does() {
        let at = Some(At::Op(4));
        let stopped = [
            Cause::TimedOut {
                limit: Duration::from_secs(1),
                clock: Clock::Cpu,
                at,
            },
            Cause::MemoryLimit {
                limit_bytes: 1,
                peak_bytes: 1,
                at,
            },
            Cause::CpuLimit { seconds: 1, at },
            Cause::Crashed {
                status: Ended::Exited(3),
                at,
                starting: false,
            },
        ];
        for cause in stopped {
            assert_eq!(cause.stopped_at(), at, "{cause:?}");
        }
        let starting = Cause::Crashed {
            status: Ended::Exited(3),
            at,
            starting: true,
        };
        assert_eq!(starting.stopped_at(), None);
        let error = LearnerException::new(ErrorKind::Other("E".into()), String::new());
        assert_eq!(Cause::Raised(error).stopped_at(), None);
    }

    #[test]
    fn the_worst_verdict_orders_after_accepted() {
        let worst = [Verdict::Accepted, Verdict::TimeLimit, Verdict::WrongAnswer]
            .into_iter()
            .max();
        assert_eq!(worst, Some(Verdict::TimeLimit));
    }
}
