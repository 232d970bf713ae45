//! The report's JSON contract (docs/json-report.md): every type that
//! appears in `--format json`, and what each field promises.

use grading::challenge::ExpectedFrom;
use grading::explain::{ExplanationReport, HashCheck};
use grading::judge::{Divergence, Verdict};
use grading::lang::Language;
use grading::protocol::LearnerError;
use grading::run::Captured;
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use grading::grade::Audience;

/// A Router that lacks some of the challenge's operations.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ApiHint {
    /// The challenge's operations the Router has no method for.
    pub missing: Vec<String>,
    /// Another challenge whose every operation the Router has.
    pub other_challenge: Option<String>,
    pub message: String,
}

/// `K/N`, as `--shard` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("`{s}` is not a shard: write K/N with 1 <= K <= N, e.g. 2/4");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) = (
            k.trim().parse().map_err(|_| bad())?,
            n.trim().parse().map_err(|_| bad())?,
        );
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

/// Points, exactly: `earned` of `total`, both counted in units of
/// 1/`denominator` of a point. One run counts every test, group and
/// submission in the same unit (the suite's least common multiple of its
/// groups' test counts), so sums and merged shards stay exact; the float
/// `score` and `max_score` beside it are derived from it once, and people
/// see it rounded once, to two decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Points {
    pub earned: u64,
    pub total: u64,
    pub denominator: u64,
}

impl Points {
    /// `earned` of `total` units of 1/`denominator` of a point.
    pub fn new(earned: u64, total: u64, denominator: u64) -> Points {
        Points {
            earned,
            total,
            denominator: denominator.max(1),
        }
    }

    /// The points earned, as a float (for formats that want a number).
    pub fn score(self) -> f64 {
        self.earned as f64 / self.denominator as f64
    }

    /// The points there are, as a float.
    pub fn max_score(self) -> f64 {
        self.total as f64 / self.denominator as f64
    }

    /// The sum of `parts`, all counted in units of 1/`denominator`.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Points>, denominator: u64) -> Points {
        parts
            .into_iter()
            .fold(Points::new(0, 0, denominator), |a, p| {
                Points::new(a.earned + p.earned, a.total + p.total, denominator)
            })
    }
}

/// The result of grading submissions against one challenge's suite.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// The grader's name and version.
    pub grader: String,
    pub challenge: String,
    /// Where the challenges came from: a folder, or the grader's own
    /// (none in reports made before it was recorded).
    #[serde(default)]
    pub challenges: Option<grading::challenge::Source>,
    /// The containment in force for every submission.
    pub sandbox: sandbox::Layers,
    /// Who the report is for: a learner's report holds no hidden case data.
    pub audience: Audience,
    /// The folder the tests came from.
    pub tests_dir: String,
    /// When grading started and finished, in milliseconds since the epoch.
    pub started_at_ms: u64,
    pub finished_at_ms: u64,
    /// A hash of everything a result depends on besides the submission
    /// (the grader's version, the suite, the limits, the audience): the
    /// shards of one run share it.
    #[serde(default)]
    pub run_key: String,
    /// The shard `K/N` this report grades, or none for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
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
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SubmissionReport {
    /// The student's name, the same in every format: their folder or file
    /// name, shown as learner text is, unique in the run
    /// ([`crate::names::student_names`]).
    pub name: String,
    /// The submission's path, as found: what formats show beside the name.
    pub path: String,
    pub language: Language,
    /// The interpreter that ran it, as the driver reported (e.g. "python 3.11.7").
    pub runtime: Option<String>,
    /// `class` or `solve`, as the driver found it.
    pub api: Option<String>,
    /// For TypeScript and Rust: whether the build came from the cache, and
    /// its time.
    pub build: Option<sandbox::Build>,
    /// The worst verdict of its tests.
    pub verdict: Verdict,
    pub score: f64,
    pub max_score: f64,
    /// `score` and `max_score` exactly: they are derived from it.
    pub points: Points,
    pub passed: usize,
    pub total: usize,
    /// The submission's own h32 against the pinned one, where it has one.
    pub h32: Option<HashCheck>,
    /// Without an h32 to compare: the two-node routes whose answers went
    /// against the pinned scores, when there are enough to blame the hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_hint: Option<grading::diagnose::HashHint>,
    /// The known mistake that explains the failures (`exact`), or the
    /// closest one with how many failing tests it reproduces.
    pub mistake: Option<grading::diagnose::MistakeReport>,
    /// Wrong answers that no known mistake explains well enough to name
    /// (the evidence rule of docs/diagnosis.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unexplained: bool,
    /// Answers that changed between two runs of the same files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nondeterministic: Option<grading::diagnose::Nondeterminism>,
    /// Why the second opinion stopped before replaying every case it
    /// meant to (the budget of extra runs ran out); no verdict changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_opinion_cut_short: Option<String>,
    /// A property of consistent hashing the submission's own answers break.
    pub property: Option<grading::diagnose::PropertyHint>,
    /// A small case that fails the same way, with a snippet to run it.
    pub reproducer: Option<grading::shrink::Reproducer>,
    /// The Router lacks operations of this challenge: which, and the
    /// challenge whose operations it has, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_hint: Option<ApiHint>,
    /// Scores per group.
    pub groups: Vec<GroupReport>,
    pub tests: Vec<TestReport>,
}

/// One group's result for a submission.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GroupReport {
    pub name: String,
    pub scoring: grading::challenge::Scoring,
    pub visibility: grading::challenge::Visibility,
    pub score: f64,
    pub max_score: f64,
    /// `score` and `max_score` exactly: they are derived from it.
    pub points: Points,
    pub passed: usize,
    pub total: usize,
}

/// One graded test case.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct TestReport {
    pub name: String,
    pub group: String,
    /// `hidden` tests show learners their name and verdict only.
    pub visibility: grading::challenge::Visibility,
    pub verdict: Verdict,
    pub score: f64,
    pub max_score: f64,
    /// `score` and `max_score` exactly: they are derived from it.
    pub points: Points,
    /// Wall-clock time of the case.
    pub time_ms: u64,
    /// CPU time the session's processes used during the case: what its
    /// time limit is judged on. Reports written before it was recorded
    /// read as 0.
    #[serde(default)]
    pub cpu_ms: u64,
    /// `file`, or `reference` when the case has no expected file.
    pub expected_from: ExpectedFrom,
    /// What went wrong, in one line; empty when accepted.
    pub message: String,
    pub divergence: Option<Divergence>,
    /// The learner's exception, with a traceback trimmed to their files.
    pub error: Option<LearnerError>,
    /// The module never loaded (its driver's `load_error`: an exception at
    /// import, no Router or solve, an executable that cannot start), so
    /// none of this case ran: formats that charge attempts tell it from a
    /// failure of the learner's code. Kept on hidden tests: it holds
    /// nothing of the case.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub load_failed: bool,
    /// The pinned scores behind the expected answer.
    pub explanation: Option<ExplanationReport>,
    /// Operations and answers around the divergence, for the diff.
    pub window: Option<Window>,
    /// What the learner's code printed during this test, capped.
    pub captured: Option<Captured>,
    /// The known mistake that reproduces this failure, when one explains
    /// all of the submission's failures.
    pub mistake: Option<grading::diagnose::MistakeReport>,
}

/// A slice of a case around its first divergence.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Window {
    /// The index of the first operation in the window.
    pub first_op: usize,
    pub ops: Vec<Value>,
    pub expected: Vec<Value>,
    /// The submission's answers; `null` where it gave none.
    pub actual: Vec<Option<Value>>,
}
