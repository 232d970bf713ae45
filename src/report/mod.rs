//! Report: one serde value built once per run; renderers turn it into text
//! and never compute verdicts. The JSON form is a public contract (see the
//! README's "JSON report" section).

mod human;

pub use human::render_human;

use crate::challenge::ExpectedFrom;
use crate::explain::{ExplanationReport, HashCheck};
use crate::judge::{Divergence, Verdict};
use crate::run::{Captured, Language, LearnerError};
use serde::Serialize;
use serde_json::Value;
use std::io::{self, Write};

/// The result of grading submissions against one challenge's suite.
#[derive(Debug, Clone, Serialize)]
pub struct Report {
    /// The grader's name and version.
    pub grader: String,
    pub challenge: String,
    /// The containment in force for every submission.
    pub sandbox: crate::sandbox::Layers,
    /// The folder the tests came from.
    pub tests_dir: String,
    pub submissions: Vec<SubmissionReport>,
}

impl Report {
    /// Whether every test of every submission was accepted.
    pub fn all_passed(&self) -> bool {
        self.submissions
            .iter()
            .all(|s| s.verdict == Verdict::Accepted)
    }
}

/// One graded submission.
#[derive(Debug, Clone, Serialize)]
pub struct SubmissionReport {
    pub path: String,
    pub language: Language,
    /// The interpreter that ran it, as the driver reported (e.g. "python 3.11.7").
    pub runtime: Option<String>,
    /// `class` or `solve`, as the driver found it.
    pub api: Option<String>,
    /// For TypeScript and Rust: whether the build came from the cache, and
    /// its time.
    pub build: Option<crate::prepare::Build>,
    /// The worst verdict of its tests.
    pub verdict: Verdict,
    pub score: f64,
    pub max_score: f64,
    pub passed: usize,
    pub total: usize,
    /// The submission's own h32 against the pinned one, where it has one.
    pub h32: Option<HashCheck>,
    pub tests: Vec<TestReport>,
}

/// One graded test case.
#[derive(Debug, Clone, Serialize)]
pub struct TestReport {
    pub name: String,
    pub group: String,
    pub verdict: Verdict,
    pub score: f64,
    pub max_score: f64,
    pub time_ms: u64,
    /// `file`, or `reference` when the case has no expected file.
    pub expected_from: ExpectedFrom,
    /// What went wrong, in one line; empty when accepted.
    pub message: String,
    pub divergence: Option<Divergence>,
    /// The learner's exception, with a traceback trimmed to their files.
    pub error: Option<LearnerError>,
    /// The pinned scores behind the expected answer.
    pub explanation: Option<ExplanationReport>,
    /// Operations and answers around the divergence, for the diff.
    pub window: Option<Window>,
    /// What the learner's code printed during this test, capped.
    pub captured: Option<Captured>,
}

/// A slice of a case around its first divergence.
#[derive(Debug, Clone, Serialize)]
pub struct Window {
    /// The index of the first operation in the window.
    pub first_op: usize,
    pub ops: Vec<Value>,
    pub expected: Vec<Value>,
    /// The submission's answers; `null` where it gave none.
    pub actual: Vec<Option<Value>>,
}

/// How a report is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: one line per test, then the failures explained.
    Human,
    /// The report as JSON, for machines.
    Json,
}

/// Writes `report` in `format`. `color` applies to human output only.
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Human => render_human(report, out),
        Format::Json => {
            serde_json::to_writer_pretty(&mut *out, report)?;
            writeln!(out)
        }
    }
}
