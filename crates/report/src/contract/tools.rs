//! The JSON the authoring commands write, with the report's: `grader
//! audit`'s rows, `audit --limits`' proposal, `audit --submissions`'
//! exploration, and `compare` and `rejudge`'s changes (the changes
//! module computes them). Each is a named type here, so that it has a
//! schema (`grader schema NAME`) and a change to it is seen.

use super::{ExploreReport, Points, Verdict};
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

/// One mistake's audit (`grader audit --format json`, an array of these):
/// the tests that catch it.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct AuditEntry {
    /// The mistake's id in the challenge's catalogue.
    pub id: String,
    /// The mistake's form, when it has several (e.g. `Signed`); else
    /// `null`.
    pub form: Option<String>,
    /// The mistake, in words.
    pub title: String,
    /// `group/name` of every test the mistake fails; empty when none
    /// catches it.
    pub caught_by: Vec<String>,
}

impl From<&grading::AuditRow> for AuditEntry {
    fn from(row: &grading::AuditRow) -> AuditEntry {
        AuditEntry {
            id: row.id.clone(),
            form: row.form.clone(),
            title: row.title.clone(),
            caught_by: row.caught_by.clone(),
        }
    }
}

/// `grader audit --limits --format json`: the time limits proposed from
/// correct submissions' CPU time.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct LimitsProposal {
    /// The challenge's id.
    pub challenge: String,
    /// How many correct submissions were measured.
    pub measured: usize,
    /// A row per group, in the suite's order.
    pub groups: Vec<GroupLimitRow>,
    /// Submissions named that were not accepted, so not measured.
    pub left_out: Vec<LeftOut>,
    /// The challenge.toml the limits were written to (`--write`), else
    /// `null`.
    pub written: Option<String>,
}

/// One group's time limit, now and proposed.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct GroupLimitRow {
    /// The group's name.
    pub group: String,
    /// Its CPU time limit per case now, in milliseconds.
    pub current_ms: u64,
    /// The limit proposed, in milliseconds; `null` when nothing was
    /// measured for it.
    pub proposed_ms: Option<u64>,
    /// The reference's own time on the group's slowest case, in
    /// microseconds.
    pub reference_us: u64,
    /// The slowest case of each language measured.
    pub slowest: Vec<SlowestCase>,
}

/// The slowest case of one language's correct submissions.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct SlowestCase {
    /// The language, e.g. `python`.
    pub language: String,
    /// The submission that took it.
    pub submission: String,
    /// The case, `group/name`.
    pub case: String,
    /// Its CPU time, in milliseconds.
    pub cpu_ms: u64,
}

/// A submission named for `--limits` that was not accepted.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct LeftOut {
    /// Its path.
    pub submission: String,
    /// Its verdict.
    pub verdict: Verdict,
}

/// `grader audit --submissions --format json`: each submission's
/// exploration, and the cases proposed for the suite.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Exploration {
    /// The challenge's id.
    pub challenge: String,
    /// The seed the generated cases were drawn from.
    pub seed: u64,
    /// The time each submission was explored for, in milliseconds.
    pub budget_ms: u64,
    /// Every submission graded, in the order named.
    pub submissions: Vec<ExploredSubmission>,
    /// Each distinct case found, once, with the students it fails.
    pub proposed: Vec<ProposedCase>,
}

/// One submission of an exploration.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ExploredSubmission {
    /// The student's name.
    pub name: String,
    /// The submission's path.
    pub path: String,
    /// Its verdict on the suite.
    pub verdict: Verdict,
    /// What exploring found; `null` when it was not explored (it failed
    /// the suite).
    pub explore: Option<ExploreReport>,
}

/// A generated case proposed for the suite.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct ProposedCase {
    /// A case name for `grader add`.
    pub name: String,
    /// The case, `[args, ops]`, as `grader add` takes it.
    pub case: Value,
    /// The students it fails.
    pub students: Vec<String>,
    /// The file it was written to (`--write-cases`), else `null`.
    pub file: Option<String>,
}

/// `grader audit --all --format json`: each challenge's audit under its
/// id, sorted by id.
pub type Audits = std::collections::BTreeMap<String, Vec<AuditEntry>>;

/// The comparison of an earlier grading with a later one.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Changes {
    /// Every student whose result changes, or who is in one grading only,
    /// or who could not be judged in either, by name.
    pub students: Vec<StudentChange>,
    /// Students judged alike in both: the same verdict, score and tests.
    pub unchanged: usize,
    /// Tests (`group/name`) of the later suite that the earlier had not
    /// (a renamed test is one removed and one added).
    pub tests_added: Vec<String>,
    /// Tests of the earlier suite the later one has not.
    pub tests_removed: Vec<String>,
}

/// How one student's result changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum ChangeKind {
    /// Judged in both, with another verdict, score or set of passed tests.
    Changed,
    /// Only in the later grading.
    Added,
    /// Only in the earlier grading.
    Removed,
    /// Judged before; the later grading failed on them (grader-fault): no
    /// verdict on their code, and nothing to replace the earlier one with.
    NotJudged,
    /// Not judged before (grader-fault), judged now.
    NowJudged,
    /// The grader failed on them in both.
    StillNotJudged,
}

/// A verdict and a score, as one grading gave them.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct Standing {
    /// The verdict.
    pub verdict: Verdict,
    /// The points earned, as a float; none for a `grader-fault`, which has
    /// no score.
    pub score: Option<f64>,
    /// The points there are, as a float.
    pub max_score: f64,
    /// The points, exactly.
    pub points: Points,
    /// Tests accepted.
    pub passed: usize,
    /// Tests in all.
    pub total: usize,
}

/// One student's change.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
pub struct StudentChange {
    /// The student's name.
    pub name: String,
    /// How their result changes.
    pub kind: ChangeKind,
    /// Their result in the earlier grading, when they are in it.
    pub old: Option<Standing>,
    /// Their result in the later grading, when they are in it.
    pub new: Option<Standing>,
    /// The later score less the earlier one, in points (both judged).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_change: Option<f64>,
    /// Tests in both suites, passed before and failing now.
    pub now_failing: Vec<String>,
    /// Tests in both suites, failing before and passed now.
    pub now_passing: Vec<String>,
    /// Tests only in the later suite that this student fails.
    pub failing_added: Vec<String>,
    /// Why the grader could not judge them, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_judged: Option<String>,
}
