//! The wire format between the grader and a session: what a driver or an
//! executable says when it starts, how it reports the learner's
//! exceptions, and how a case reply reads (documented in docs/protocol.md).

use crate::unbuilt::Unbuilt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub use vocabulary::{At, ErrorKind};

/// The protocol version the drivers and executables speak.
pub const PROTOCOL: u64 = 1;

/// What the submission said about itself when it started.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Hello {
    pub protocol: u64,
    /// `class` (a Router) or `solve`.
    #[serde(default)]
    pub api: String,
    /// Whether the module exposes its own h32.
    #[serde(default)]
    pub h32: bool,
    /// The Router's public methods, where the driver can list them.
    #[serde(default)]
    pub methods: Vec<String>,
    /// The arguments the Router's constructor takes, where the driver can
    /// tell.
    #[serde(default)]
    pub constructor_arity: Option<Arity>,
    /// The arguments each listed method takes, where the driver can tell.
    #[serde(default)]
    pub method_arity: std::collections::BTreeMap<String, Arity>,
    #[serde(default)]
    pub runtime: String,
}

/// How many arguments a function takes: at least `least`, at most `most`
/// (`None`: any number more).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Arity {
    pub least: u64,
    #[serde(default)]
    pub most: Option<u64>,
}

impl Arity {
    /// Whether a call with `n` arguments fits.
    pub fn takes(&self, n: usize) -> bool {
        let n = n as u64;
        self.least <= n && self.most.is_none_or(|m| n <= m)
    }

    /// Whether it could be any function's (what a driver says is the
    /// learner's program's word, and may be anything).
    pub fn is_sound(&self) -> bool {
        self.most.is_none_or(|m| self.least <= m)
    }
}

/// An exception in the learner's code, as the driver reported it. Its
/// serde is the wire's: read from the drivers, and written and read back
/// by the Rust build cache and the TypeScript transpiler's process (the
/// report writes its own copy, `report::contract::LearnerError`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerException {
    #[serde(rename = "type")]
    pub kind: ErrorKind,
    pub message: String,
    #[serde(default)]
    /// (A boxed `str`: an error travels in `Result`s, and kept small.)
    pub traceback: Box<str>,
    /// The line in the learner's file, where known.
    #[serde(default)]
    pub line: Option<u64>,
    /// Where it was raised (`None`: not known, or `solve`).
    #[serde(default, with = "vocabulary::at_wire")]
    pub op_index: Option<At>,
    /// The OS error number, for errors from the OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<i64>,
    /// The grader's own reason, when the grader refused to build a module
    /// (the message is then a tool's text, or empty). Never read from the
    /// wire: a driver or a learner's program cannot claim one.
    #[serde(skip)]
    pub unbuilt: Option<Box<Unbuilt>>,
}

impl LearnerException {
    /// An error of `kind` with `message` and nothing else known.
    pub fn new(kind: ErrorKind, message: String) -> LearnerException {
        LearnerException {
            kind,
            message,
            traceback: Box::default(),
            line: None,
            op_index: None,
            errno: None,
            unbuilt: None,
        }
    }

    /// A compile error the grader gives for `unbuilt`, with `message` the
    /// tool's own text, if any.
    pub fn unbuilt(unbuilt: Unbuilt, message: String) -> LearnerException {
        LearnerException {
            unbuilt: Some(Box::new(unbuilt)),
            ..LearnerException::new(ErrorKind::CompileError, message)
        }
    }
}

/// A case reply: the answers given, and the learner's exception when their
/// code raised part-way.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseReply {
    pub output: Vec<Value>,
    pub error: Option<LearnerException>,
}

/// Reads a case reply: `{"id", "output": [...]}`, with `"error"` when the
/// learner's code raised. The `Err` says how the message breaks the protocol.
pub fn parse_case_reply(mut message: Value) -> Result<CaseReply, Violation> {
    // Taken out, not copied: a reply may be as large as its case allows.
    let output = match message.get_mut("output").map(Value::take) {
        Some(Value::Array(output)) => output,
        _ => {
            return Err(Violation::NoOutput {
                got: preview_value(&message),
            });
        }
    };
    match message.get_mut("error").map(Value::take) {
        None | Some(Value::Null) => Ok(CaseReply {
            output,
            error: None,
        }),
        Some(error) => serde_json::from_value::<LearnerException>(error)
            .map(|error| CaseReply {
                output,
                error: Some(error),
            })
            .map_err(|e| Violation::Malformed {
                message: Message::CaseError,
                error: e.to_string(),
            }),
    }
}

/// How a program broke the protocol, as data: the report words it. What
/// the program sent is kept only as a preview (`preview_value`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// Its hello names another version of the protocol than [`PROTOCOL`].
    Version { spoken: u64 },
    /// A message of a known kind that does not parse as one (`error`:
    /// what the parser said).
    Malformed { message: Message, error: String },
    /// The first message is neither a hello nor a load error.
    NotHello { got: String },
    /// A case reply without its `output` list.
    NoOutput { got: String },
    /// More than `limit` progress messages that no query asked for, the
    /// last while running `at` (when it said).
    UnaskedProgress { limit: usize, at: Option<At> },
    /// A reply to another request than request `id`.
    WrongReply { id: u64, got: String },
    /// A reply holding more JSON values than any legitimate one can.
    TooManyValues {
        answering: Answering,
        values: usize,
        bound: usize,
    },
    /// A line on the response channel that is not a JSON object.
    NotAnObject { line: String },
    /// A reply line longer than any legitimate one (`bytes`), with
    /// `error_room` bytes of it for an error: the grader stopped reading.
    TooLong {
        answering: Answering,
        bytes: usize,
        error_room: usize,
    },
}

/// A kind of message a program sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Message {
    Hello,
    LoadError,
    /// The error of a case reply.
    CaseError,
}

/// The request a reply answers, which bounds how long it may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Answering {
    /// The hello or load error a program starts with.
    Start,
    /// A case of this many operations.
    Case { ops: usize },
    /// An h32 request for this many strings.
    Hash { texts: usize },
}

/// `value` as JSON, shortened for a message, without writing out more of
/// it than is shown.
pub fn preview_value(value: &Value) -> String {
    /// Keeps the first bytes written, then refuses the rest.
    struct Head(Vec<u8>);
    impl std::io::Write for Head {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            if self.0.len() >= HEAD {
                return Err(std::io::Error::other("enough"));
            }
            let n = buf.len().min(HEAD - self.0.len());
            self.0.extend_from_slice(&buf[..n]);
            Ok(n)
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    const HEAD: usize = 4096;
    let mut head = Head(Vec::new());
    let whole = serde_json::to_writer(&mut head, value).is_ok();
    let text = String::from_utf8_lossy(&head.0);
    if whole {
        preview(&text)
    } else {
        format!("{}...", text.chars().take(120).collect::<String>())
    }
}

/// A line shortened for a message.
pub fn preview(text: &str) -> String {
    const MAX: usize = 120;
    if text.chars().count() <= MAX {
        text.to_owned()
    } else {
        format!(
            "{}... ({} bytes)",
            text.chars().take(MAX).collect::<String>(),
            text.len()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::{At, ErrorKind, LearnerException};
    use serde_json::json;

    fn read(op_index: serde_json::Value) -> LearnerException {
        serde_json::from_value(json!({
            "type": "KeyError", "message": "'a'", "op_index": op_index
        }))
        .unwrap()
    }

    #[test]
    fn op_index_is_read_once_into_where_the_code_was() {
        assert_eq!(read(json!(-1)).op_index, Some(At::Constructor));
        assert_eq!(read(json!(0)).op_index, Some(At::Op(0)));
        assert_eq!(read(json!(7)).op_index, Some(At::Op(7)));
        assert_eq!(read(json!(null)).op_index, None);
        // Below -1 names no place in a case.
        assert_eq!(read(json!(-2)).op_index, None);
        let absent: LearnerException =
            serde_json::from_value(json!({"type": "E", "message": ""})).unwrap();
        assert_eq!(absent.op_index, None);
    }

    #[test]
    fn op_index_is_written_as_the_protocol_writes_it() {
        for (wire, at) in [
            (json!(-1), Some(At::Constructor)),
            (json!(4), Some(At::Op(4))),
            (json!(null), None),
        ] {
            let mut error = LearnerException::new(ErrorKind::Other("E".into()), String::new());
            error.op_index = at;
            assert_eq!(serde_json::to_value(&error).unwrap()["op_index"], wire);
        }
    }

    #[test]
    fn an_error_kind_is_read_once_and_written_as_it_came() {
        let kind = |name: &str| {
            serde_json::from_value::<LearnerException>(json!({"type": name, "message": ""}))
                .unwrap()
                .kind
        };
        assert_eq!(kind("MemoryError"), ErrorKind::MemoryError);
        assert_eq!(kind("MissingMethod"), ErrorKind::MissingMethod);
        assert_eq!(kind("ValueError"), ErrorKind::Other("ValueError".into()));
        for name in ["CompileError", "ExecError", "SyntaxError", "KeyError", ""] {
            let error = LearnerException::new(name.to_owned().into(), String::new());
            assert_eq!(serde_json::to_value(&error).unwrap()["type"], json!(name));
            assert_eq!(error.kind.to_string(), name);
        }
    }
}

/// What a submission's Router looks like, as its driver lists it or its
/// source declares it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shape {
    /// Its public methods.
    pub methods: Vec<String>,
    /// The arguments its constructor takes, where known.
    pub constructor: Option<Arity>,
    /// The arguments each method takes (not `self`), where known.
    pub params: BTreeMap<String, Arity>,
}

impl Shape {
    /// The shape a driver's hello lists: no shape without methods (a
    /// `solve` function, or a driver that cannot list them).
    pub fn of_hello(hello: &Hello) -> Option<Shape> {
        if hello.methods.is_empty() {
            return None;
        }
        Some(Shape {
            methods: hello.methods.clone(),
            constructor: hello.constructor_arity.filter(Arity::is_sound),
            params: hello
                .method_arity
                .iter()
                .filter(|(name, a)| hello.methods.contains(name) && a.is_sound())
                .map(|(name, a)| (name.clone(), *a))
                .collect(),
        })
    }
}
