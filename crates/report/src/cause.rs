//! The one line that says why a test got its verdict, worded from the
//! judge's [`Cause`]: the judge decides, this says it.

use crate::unbuilt::worded;
use grading::Case;
use grading::Clock;
use grading::{Answering, LearnerException, Message, PROTOCOL, Violation};
use grading::{Cause, DivergentOp, Judgement};
use serde_json::Value;
use vocabulary::At;

/// How a program broke the protocol, in one line.
pub fn broke(violation: &Violation) -> String {
    match violation {
        Violation::Version { spoken } => {
            format!("the program speaks protocol {spoken}, the grader speaks {PROTOCOL}")
        }
        Violation::Malformed { message, error } => {
            let what = match message {
                Message::Hello => "hello",
                Message::LoadError => "load_error",
                Message::CaseError => "error in a case reply",
            };
            format!("malformed {what}: {error}")
        }
        Violation::NotHello { got } => format!("the first message must be a hello, got {got}"),
        Violation::NoOutput { got } => {
            format!("a case reply needs an \"output\" list, got {got}")
        }
        Violation::UnaskedProgress { limit, at } => format!(
            "sent more than {limit} progress messages nobody asked for (they answer queries on descriptor 5) while running operation {}",
            at.map_or("unknown".to_owned(), |at| at.to_wire().to_string())
        ),
        Violation::WrongReply { id, got } => {
            format!("a reply to request {id} was expected, got {got}")
        }
        Violation::TooManyValues {
            answering,
            values,
            bound,
        } => format!(
            "{} holds {values} JSON values, more than any legitimate one can ({bound})",
            replying(*answering)
        ),
        Violation::NotAnObject { line } => {
            format!("this line on the response channel is not a JSON object: {line}")
        }
        Violation::TooLong {
            answering,
            bytes,
            error_room,
        } => format!(
            "{} grew past {bytes} bytes, longer than any legitimate one (each operation's longest answer with every string escaped at worst, and {} KiB for an error): the grader stopped reading it",
            replying(*answering),
            error_room >> 10
        ),
    }
}

/// The message a reply bound is for.
fn replying(answering: Answering) -> String {
    match answering {
        Answering::Start => "the program's hello".to_owned(),
        Answering::Case { ops } => format!(
            "the reply to a case of {}",
            grading::counted(ops, "operation")
        ),
        Answering::Hash { texts } => format!(
            "the reply to an h32 request for {}",
            grading::counted(texts, "string")
        ),
    }
}

/// The message of a `time-limit` of `case` run under its share of the
/// time its group shares (`share`) after an earlier test of the group ran
/// past the group's `limit`, in plain words: which clock stopped it, after
/// how long, and why it had less than the full limit. None for another
/// cause.
pub fn shared_time_message(
    case: &Case,
    judgement: &Judgement,
    limit: std::time::Duration,
    share: grading::TimeShare,
) -> Option<String> {
    let Cause::TimedOut { clock, at, .. } = &judgement.cause else {
        return None;
    };
    let running = match at {
        Some(_) => format!(
            "while running {}",
            describe_op(case, *at).trim_start_matches("in ")
        ),
        None => "(it did not say which operation was running)".into(),
    };
    let group = &case.group;
    let stopped = match clock {
        Clock::Cpu => format!(
            "ran past its share of the time left to group `{group}`, {} ms of CPU time, {running}",
            share.cpu.as_millis()
        ),
        Clock::Wall => format!(
            "waited past its share of the time left to group `{group}`, {} ms of wall-clock time, {running}, using less than its {} ms of CPU time (a sleep, or a read that never returns?)",
            share.wall.as_millis(),
            share.cpu.as_millis()
        ),
    };
    let least = grading::TimeShare::least(limit);
    let message = format!(
        "{stopped}: an earlier test of this group ran past the group's {} ms time limit, so the tests after it share one more {} ms of CPU time and {} ms of wall-clock time between them (each at least {} ms of CPU time and {} ms of wall-clock time)",
        limit.as_millis(),
        limit.as_millis(),
        grading::backstop(limit).as_millis(),
        least.cpu.as_millis(),
        least.wall.as_millis(),
    );
    Some(with_replayed(case, judgement, message))
}

/// `message`, the limit or crash that stopped a test, followed by the
/// wrong answer a replay of the operations before it found, if one did.
fn with_replayed(case: &Case, judgement: &Judgement, message: String) -> String {
    let replayed = judgement
        .divergence
        .as_ref()
        .and_then(|d| Some((d, d.replayed_ops?)));
    match replayed {
        Some((d, k)) if judgement.cause.stopped_at().is_some() => {
            let replay = match k {
                1 => "the operation before it was run again on its own".to_owned(),
                k => format!("the {k} operations before it were run again on their own"),
            };
            format!(
                "{message}; before that, {} (seen when {replay}: a case's answers come only at its end)",
                wrong_answer_message(case, d, k, k)
            )
        }
        _ => message,
    }
}

/// What went wrong in `judgement` of `case`, in one line; empty when it
/// was accepted. A test stopped by a limit or a crash says, after it, the
/// wrong answer the operations before it gave when run again.
pub fn message(case: &Case, judgement: &Judgement) -> String {
    with_replayed(case, judgement, cause_message(case, judgement))
}

/// [`message`] without the replay's wrong answer.
fn cause_message(case: &Case, judgement: &Judgement) -> String {
    let operation = |at: Option<At>| describe_op(case, at);
    let running = |at: Option<At>| match at {
        Some(_) => format!("while running {}", operation(at).trim_start_matches("in ")),
        None => "(it did not say which operation was running)".into(),
    };
    let wrong = |produced, wanted| match &judgement.divergence {
        Some(d) => wrong_answer_message(case, d, produced, wanted),
        None => String::new(),
    };
    let what = |error: &LearnerException| format!("{}: {}", error.kind, worded(error).0);
    match &judgement.cause {
        Cause::Accepted => String::new(),
        Cause::WrongAnswer { produced, wanted } => wrong(*produced, *wanted),
        Cause::ExtraAnswers { produced, wanted } => format!(
            "returned {produced} results for {wanted} operations; give exactly one per operation (null for add and remove)"
        ),
        Cause::WrongThenRaised {
            produced,
            wanted,
            error,
        } => format!(
            "{} (later, {} was raised {})",
            wrong(*produced, *wanted),
            what(error),
            operation(error.op_index)
        ),
        Cause::RaisedAtFileLimit(error) => format!(
            "wrote too much to a file ({}) {}: files are limited in size, and the scratch folder too",
            what(error),
            operation(error.op_index)
        ),
        Cause::RaisedAtMemoryLimit(error) => format!(
            "ran out of memory (MemoryError) {}",
            operation(error.op_index)
        ),
        Cause::Raised(error) => format!("{} raised {}", what(error), operation(error.op_index)),
        Cause::TimedOut { limit, clock, at } => {
            let running = running(*at);
            match clock {
                Clock::Cpu => format!(
                    "ran past the {} ms time limit of CPU time {running}",
                    limit.as_millis()
                ),
                Clock::Wall => format!(
                    "waited past the {} ms wall-clock backstop of the {} ms time limit {running}, using less CPU time than the limit (a sleep, or a read that never returns?)",
                    grading::backstop(*limit).as_millis(),
                    limit.as_millis()
                ),
            }
        }
        Cause::Crashed {
            status,
            at,
            starting,
        } => match at {
            _ if *starting => format!("the process {status} while starting, before its hello"),
            Some(_) => format!("the process {status} {}", operation(*at)),
            None => format!("the process {status} before answering"),
        },
        Cause::MemoryLimit {
            limit_bytes,
            peak_bytes,
            at,
        } => format!(
            "ran out of memory {}: the limit is {} and it reached {}",
            running(*at),
            mib(*limit_bytes),
            mib(*peak_bytes)
        ),
        Cause::SharedMemoryLimit {
            limit_bytes,
            held_bytes,
            at,
        } => format!(
            "held more memory than the {} limit {}: its processes held {}, shared memory (mmap, /dev/shm) and every process counted",
            mib(*limit_bytes),
            running(*at),
            mib(*held_bytes)
        ),
        Cause::CpuLimit { seconds, at } => format!(
            "used up the session's {seconds} s of CPU time {} (a busy thread that never ends?)",
            running(*at)
        ),
        Cause::FileSizeLimit { limit_bytes, at } => format!(
            "wrote a file past the {} file size limit {}",
            mib(*limit_bytes),
            running(*at)
        ),
        Cause::OutputLimit { limit_bytes } => format!(
            "printed more than {} during this test (the output limit); print less, or only when debugging",
            mib(*limit_bytes)
        ),
        Cause::Protocol(violation) => broke(violation),
        Cause::LoadFailed(error) => format!(
            "the module failed to load: {}: {}{}",
            error.kind,
            worded(error).0,
            error
                .line
                .map(|l| format!(" (line {l})"))
                .unwrap_or_default()
        ),
        Cause::CompileFailed(error) => format!("does not compile: {}", worded(error).0),
        Cause::LoadTimedOut { executable: true } => format!(
            "the program sent no hello within {} s; it must first write {{\"hello\": ...}} on descriptor 4 (see the protocol)",
            grading::STARTUP_LIMIT.as_secs()
        ),
        Cause::LoadTimedOut { executable: false } => format!(
            "the module did not finish loading within {} s; move slow work out of the top level",
            grading::STARTUP_LIMIT.as_secs()
        ),
    }
}

fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}

fn wrong_answer_message(case: &Case, d: &DivergentOp, produced: usize, wanted: usize) -> String {
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
fn describe_op(case: &Case, at: Option<At>) -> String {
    match at {
        Some(At::Constructor) => "in the constructor".into(),
        Some(At::Op(i)) if i < case.ops.len() => format!("in operation {i} {}", case.op_json(i)),
        Some(At::Op(i)) => format!("in operation {i}"),
        None => "in solve".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::message;
    use grading::judge;
    use grading::{Answering, LearnerException, Violation};
    use grading::{Case, Operations};
    use grading::{CaseOutcome, Clock};
    use serde_json::{Value, json};
    use std::time::Duration;
    use vocabulary::{At, ErrorKind};

    /// A rendezvous-router case of three operations: route, remove, route.
    fn three_ops() -> Case {
        let model = &reference::rendezvous::SPEC;
        let allowed: Vec<_> = model.operations.iter().collect();
        let ops = Operations {
            model,
            allowed: &allowed,
        };
        let input = json!([
            [["a", "b"]],
            [["route", "k"], ["remove", "a"], ["route", "k"]]
        ]);
        Case::in_memory(
            &ops,
            "t",
            "g",
            input,
            Some(vec![json!("a"), Value::Null, json!("b")]),
        )
        .unwrap()
    }

    fn said(outcome: CaseOutcome) -> String {
        let c = three_ops();
        message(&c, &judge(&c, &outcome))
    }

    #[test]
    fn a_wrong_answer_names_the_operation_and_both_answers() {
        assert_eq!(
            said(CaseOutcome::Output(vec![
                json!("a"),
                Value::Null,
                json!("a")
            ])),
            r#"operation 2 ["route","k"]: expected "b", got "a""#
        );
        assert_eq!(
            said(CaseOutcome::Output(vec![json!("a")])),
            r#"no answer for operation 1 ["remove","a"]: returned 1 results for 3 operations"#
        );
        assert!(
            said(CaseOutcome::Output(vec![
                json!("a"),
                Value::Null,
                json!("b"),
                json!("x")
            ]))
            .starts_with("returned 4 results for 3 operations; give exactly one per operation")
        );
        assert_eq!(
            said(CaseOutcome::Output(vec![
                json!("a"),
                Value::Null,
                json!("b")
            ])),
            ""
        );
    }

    #[test]
    fn an_answer_of_the_wrong_type_says_what_the_operation_returns() {
        let object = said(CaseOutcome::Output(vec![
            json!({"node": "a"}),
            Value::Null,
            json!("b"),
        ]));
        assert!(
            object.ends_with("(`route` returns a string or null, not an object)"),
            "{object}"
        );
        let list = said(CaseOutcome::Output(vec![
            json!(["a"]),
            Value::Null,
            json!("b"),
        ]));
        assert!(
            list.ends_with("yours is a list of something else)"),
            "{list}"
        );
        // A right type with a wrong value needs no such note.
        let value = said(CaseOutcome::Output(vec![
            json!("b"),
            Value::Null,
            json!("b"),
        ]));
        assert!(value.ends_with("expected \"a\", got \"b\""), "{value}");
    }

    #[test]
    fn an_exception_says_where_it_was_raised() {
        let error = |at| LearnerException {
            kind: ErrorKind::Other("KeyError".into()),
            message: "'a'".into(),
            traceback: Box::default(),
            line: Some(3),
            op_index: at,
            errno: None,
            unbuilt: None,
        };
        assert_eq!(
            said(CaseOutcome::Raised {
                output: vec![json!("a")],
                error: error(Some(At::Op(1))),
            }),
            r#"KeyError: 'a' raised in operation 1 ["remove","a"]"#
        );
        assert_eq!(
            said(CaseOutcome::Raised {
                output: vec![json!("b"), Value::Null],
                error: error(Some(At::Op(2))),
            }),
            r#"operation 0 ["route","k"]: expected "a", got "b" (later, KeyError: 'a' was raised in operation 2 ["route","k"])"#
        );
        assert_eq!(
            said(CaseOutcome::Raised {
                output: vec![],
                error: error(Some(At::Constructor)),
            }),
            "KeyError: 'a' raised in the constructor"
        );
        assert_eq!(
            said(CaseOutcome::Raised {
                output: vec![],
                error: error(None),
            }),
            "KeyError: 'a' raised in solve"
        );
    }

    #[test]
    fn a_timeout_names_the_running_operation() {
        assert_eq!(
            said(CaseOutcome::TimedOut {
                limit: Duration::from_millis(1500),
                clock: Clock::Cpu,
                op_index: Some(At::Op(2)),
            }),
            r#"ran past the 1500 ms time limit of CPU time while running operation 2 ["route","k"]"#
        );
        let wall = said(CaseOutcome::TimedOut {
            limit: Duration::from_millis(1500),
            clock: Clock::Wall,
            op_index: Some(At::Constructor),
        });
        assert!(
            wall.starts_with(
                "waited past the 6500 ms wall-clock backstop of the 1500 ms time limit while running the constructor, "
            ),
            "{wall}"
        );
        assert_eq!(
            said(CaseOutcome::CpuLimit {
                seconds: 10,
                op_index: None
            }),
            "used up the session's 10 s of CPU time (it did not say which operation was running) (a busy thread that never ends?)"
        );
    }

    #[test]
    fn a_protocol_violation_names_what_was_sent_and_the_bound() {
        let flood = super::broke(&Violation::UnaskedProgress {
            limit: 16,
            at: Some(At::Op(7)),
        });
        assert!(flood.contains("more than 16 progress messages"), "{flood}");
        assert!(flood.ends_with("while running operation 7"), "{flood}");
        let long = super::broke(&Violation::TooLong {
            answering: Answering::Case { ops: 1 },
            bytes: 300,
            error_room: 256 << 10,
        });
        assert!(
            long.starts_with("the reply to a case of 1 operation grew past 300 bytes"),
            "{long}"
        );
        assert!(long.contains("256 KiB for an error"), "{long}");
    }
}
