//! The closed sets of words that grading and the report share, as one
//! type each: grading computes with them and the report's JSON writes them
//! as they are (the way nextest-metadata's enums serve nextest's runner and
//! its consumers alike). Only enums belong here, each a small closed set
//! with its wire spelling; records stay apart on each side, so that a
//! field added inside grading does not reach the JSON unnoticed.
//!
//! The doc comments of the types and their variants are the descriptions
//! in the report's JSON Schema (`grader schema`), and a variant's is the
//! help of its value in `--lang` and `--audience`.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A test's verdict, in kebab case. Ordered from best to worst: a
/// submission's verdict is its worst test's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
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

/// How a group's points are earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Each accepted test earns its share of the group's weight.
    #[default]
    PerTest,
    /// The group's weight, only when every test in it is accepted.
    AllOrNothing,
}

/// Who sees a group's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Learners see the case, the divergence and the diff.
    #[default]
    Visible,
    /// Learners see the test's name and verdict only.
    Hidden,
}

/// Where a case's expected output came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum ExpectedFrom {
    /// The case's `NAME.expected.json`.
    File,
    /// No expected file: the reference's output stands in.
    Reference,
}

/// Who a report is for: `instructor` or `learner`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Audience {
    /// Everything, hidden groups included.
    #[default]
    Instructor,
    /// Hidden groups show a test's name, verdict and score only.
    Learner,
}

impl Audience {
    /// Whether this reader may see the details of a group of `visibility`:
    /// the one rule behind every redaction and every hidden phase.
    pub fn sees(self, visibility: Visibility) -> bool {
        self == Audience::Instructor || visibility == Visibility::Visible
    }
}

/// The language a submission is written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Language {
    Python,
    #[serde(rename = "javascript")]
    #[cfg_attr(feature = "clap", value(name = "javascript"))]
    JavaScript,
    #[serde(rename = "typescript")]
    #[cfg_attr(feature = "clap", value(name = "typescript"))]
    TypeScript,
    Rust,
    /// Any program speaking the protocol itself.
    #[cfg_attr(feature = "clap", value(skip))]
    Executable,
    /// No submission file was found (a batch folder without an entry).
    #[cfg_attr(feature = "clap", value(skip))]
    Unknown,
}

/// Where the challenges of a run came from, tagged by `source`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(tag = "source", rename_all = "kebab-case")]
pub enum Source {
    /// `embedded`: built into the grader of `version`, the set whose
    /// SHA-256 is `digest`, unpacked at `path`.
    Embedded {
        version: String,
        digest: String,
        path: String,
    },
    /// `folder`: a folder on disk (its absolute `path`), and what named it.
    Folder { path: String, given_by: GivenBy },
}

impl Source {
    /// A phrase for errors: "the challenges built into rendezvous-grader
    /// 0.1.0", "the folder /x/challenges (--challenges)".
    pub fn describe(&self) -> String {
        match self {
            Source::Embedded { .. } => format!("the challenges {}", self.label()),
            Source::Folder { .. } => format!("the folder {}", self.label()),
        }
    }

    /// What reports say after "challenges: ": "built into
    /// rendezvous-grader 0.1.0", "/x/challenges (--challenges)".
    pub fn label(&self) -> String {
        match self {
            Source::Embedded { version, .. } => format!("built into rendezvous-grader {version}"),
            Source::Folder { path, given_by } => {
                let by = match given_by {
                    GivenBy::Flag => "--challenges",
                    GivenBy::Environment => "$GRADER_CHALLENGES",
                    GivenBy::WorkingFolder => "./challenges in the working folder",
                };
                format!("{path} ({by})")
            }
        }
    }
}

/// What named a challenge folder on disk.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
pub enum GivenBy {
    /// `--challenges DIR`.
    #[serde(rename = "--challenges")]
    Flag,
    /// `$GRADER_CHALLENGES`.
    #[serde(rename = "GRADER_CHALLENGES")]
    Environment,
    /// `./challenges`, found in the working folder.
    #[serde(rename = "./challenges")]
    WorkingFolder,
}

/// What kind of error the learner's code met, written as the name the
/// protocol gives it: the few kinds the grader and its drivers give a
/// meaning to, and any other by the name the learner's runtime gave it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(schemars::JsonSchema))]
#[serde(from = "String", into = "String")]
pub enum ErrorKind {
    // (Plain comments beside the doc comments, which are the schema's
    // descriptions: whose kind each is.)
    /// `CompileError`: the submission does not compile (or transpile).
    // The grader's kind, for a build it made or refused.
    CompileError,
    /// `ExecError`: the learner's executable could not be started.
    // The grader's kind.
    ExecError,
    /// `MemoryError`: an allocation failed.
    // Python's own, and what the drivers call a runtime's out-of-memory
    // error.
    MemoryError,
    /// `MissingMethod`: an operation the Router does not have.
    // The drivers' kind.
    MissingMethod,
    /// `SyntaxError`: a syntax error the grader found in a TypeScript file.
    // The grader's kind (a learner's runtime may give its own too).
    SyntaxError,
    /// Any other exception, as its runtime named it.
    Other(String),
}

impl ErrorKind {
    /// The kind as the protocol and the reports spell it.
    pub fn as_str(&self) -> &str {
        match self {
            ErrorKind::CompileError => "CompileError",
            ErrorKind::ExecError => "ExecError",
            ErrorKind::MemoryError => "MemoryError",
            ErrorKind::MissingMethod => "MissingMethod",
            ErrorKind::SyntaxError => "SyntaxError",
            ErrorKind::Other(name) => name,
        }
    }
}

impl From<String> for ErrorKind {
    fn from(name: String) -> ErrorKind {
        match name.as_str() {
            "CompileError" => ErrorKind::CompileError,
            "ExecError" => ErrorKind::ExecError,
            "MemoryError" => ErrorKind::MemoryError,
            "MissingMethod" => ErrorKind::MissingMethod,
            "SyntaxError" => ErrorKind::SyntaxError,
            _ => ErrorKind::Other(name),
        }
    }
}

impl From<ErrorKind> for String {
    fn from(kind: ErrorKind) -> String {
        match kind {
            ErrorKind::Other(name) => name,
            known => known.as_str().to_owned(),
        }
    }
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Where in a case the learner's code was, read once from the protocol's
/// `op_index`: `-1` is the constructor and `i` operation `i`. Any other
/// value says nothing and reads as not known (`None`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum At {
    /// The constructor, before any operation: `-1`.
    Constructor,
    /// Operation `i` of the case (0-based): `i`.
    Op(usize),
}

impl At {
    /// The place an `op_index` names; any value below `-1` names none.
    pub fn from_wire(index: i64) -> Option<At> {
        match index {
            -1 => Some(At::Constructor),
            i => usize::try_from(i).ok().map(At::Op),
        }
    }

    /// The `op_index` of this place.
    pub fn to_wire(self) -> i64 {
        match self {
            At::Constructor => -1,
            At::Op(i) => i64::try_from(i).unwrap_or(i64::MAX),
        }
    }

    /// The operation's index, unless this is the constructor.
    pub fn op(self) -> Option<usize> {
        match self {
            At::Constructor => None,
            At::Op(i) => Some(i),
        }
    }
}

/// `Option<At>` as the protocol and the report write it: `-1`, `i` or
/// `null` (`#[serde(with = "vocabulary::at_wire")]`).
pub mod at_wire {
    use super::At;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Writes `-1`, `i` or `null`.
    pub fn serialize<S: Serializer>(at: &Option<At>, serializer: S) -> Result<S::Ok, S::Error> {
        match at {
            Some(at) => serializer.serialize_some(&at.to_wire()),
            None => serializer.serialize_none(),
        }
    }

    /// Reads `-1`, `i` or `null`; any other number reads as not known.
    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<At>, D::Error> {
        Ok(Option::<i64>::deserialize(deserializer)?.and_then(At::from_wire))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[cfg(feature = "clap")]
    #[test]
    fn the_report_names_a_language_as_lang_does() {
        use clap::ValueEnum;
        for &language in Language::value_variants() {
            let value = language.to_possible_value().expect("a value of --lang");
            assert_eq!(
                serde_json::to_value(language).unwrap(),
                Value::from(value.get_name()),
                "--lang and the report name {language:?} alike"
            );
        }
    }

    #[test]
    fn an_op_index_reads_back_as_written() {
        #[derive(Serialize, Deserialize, PartialEq, Debug)]
        struct Wire {
            #[serde(with = "at_wire")]
            op_index: Option<At>,
        }
        for (wire, at) in [
            (json!(-1), Some(At::Constructor)),
            (json!(4), Some(At::Op(4))),
            (json!(null), None),
        ] {
            let written = serde_json::to_value(Wire { op_index: at }).unwrap();
            assert_eq!(written["op_index"], wire);
            let read: Wire = serde_json::from_value(written).unwrap();
            assert_eq!(read.op_index, at);
        }
        // Below -1 names no place.
        let read: Wire = serde_json::from_value(json!({"op_index": -2})).unwrap();
        assert_eq!(read.op_index, None);
    }

    #[test]
    fn an_error_kind_is_its_protocol_name() {
        for name in [
            "CompileError",
            "ExecError",
            "MemoryError",
            "MissingMethod",
            "SyntaxError",
            "KeyError",
            "",
        ] {
            let kind: ErrorKind = serde_json::from_value(json!(name)).unwrap();
            assert_eq!(kind.as_str(), name);
            assert_eq!(serde_json::to_value(&kind).unwrap(), json!(name));
        }
        assert_eq!(
            ErrorKind::from("KeyError".to_owned()),
            ErrorKind::Other("KeyError".into())
        );
    }
}
