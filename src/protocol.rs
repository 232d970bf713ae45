//! The wire format between the grader and a session: what a driver or an
//! executable says when it starts, how it reports the learner's
//! exceptions, and how a case reply reads (documented in docs/protocol.md).

use serde::{Deserialize, Serialize};
use serde_json::Value;

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
    #[serde(default)]
    pub runtime: String,
}

/// An exception in the learner's code, as the driver reported it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LearnerError {
    #[serde(rename = "type")]
    pub kind: String,
    pub message: String,
    #[serde(default)]
    pub traceback: String,
    /// The line in the learner's file, where known.
    #[serde(default)]
    pub line: Option<u64>,
    /// The operation running (`-1` the constructor, `None` unknown).
    #[serde(default)]
    pub op_index: Option<i64>,
    /// The OS error number, for errors from the OS.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<i64>,
}

impl LearnerError {
    /// An error of `kind` with `message` and nothing else known.
    pub fn new(kind: &str, message: String) -> LearnerError {
        LearnerError {
            kind: kind.into(),
            message,
            traceback: String::new(),
            line: None,
            op_index: None,
            errno: None,
        }
    }
}

/// A case reply: the answers given, and the learner's exception when their
/// code raised part-way.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseReply {
    pub output: Vec<Value>,
    pub error: Option<LearnerError>,
}

/// Reads a case reply: `{"id", "output": [...]}`, with `"error"` when the
/// learner's code raised. The `Err` says how the message breaks the protocol.
pub fn parse_case_reply(message: &Value) -> Result<CaseReply, String> {
    let output = message
        .get("output")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| {
            format!(
                "a case reply needs an \"output\" list, got {}",
                preview(&message.to_string())
            )
        })?;
    match message.get("error") {
        None | Some(Value::Null) => Ok(CaseReply {
            output,
            error: None,
        }),
        Some(error) => serde_json::from_value::<LearnerError>(error.clone())
            .map(|error| CaseReply {
                output,
                error: Some(error),
            })
            .map_err(|e| format!("malformed error in a case reply: {e}")),
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
