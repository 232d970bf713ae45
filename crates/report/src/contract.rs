//! The report's JSON contract (docs/json-report.md): every type that
//! appears in `--format json`, field by field, and the only types that
//! say how the report is written and read back. Grading's records and the
//! reference's views are internal and change as grading does; the report
//! copies them into these once, when it is assembled (`contract/from.rs`,
//! field by field), so that a change inside grading cannot change a field
//! of the JSON unnoticed.
//!
//! New fields may be added; these keep their names, order and meaning.
//! Renderers, `merge`, `rejudge`, `compare` and `watch` read these types
//! only. A field that older reports lack has a default, so that they stay
//! readable.

mod from;
mod schema;
pub mod tools;

pub use schema::Document;

/// The grader's exit codes, a contract as the JSON is: a pipeline reads
/// them (docs/ci-and-instructors.md#exit-codes, which a test keeps in
/// step).
pub mod exit {
    /// Every graded submission passed every test.
    pub const PASSED: u8 = 0;
    /// Some test failed.
    pub const FAILED: u8 = 1;
    /// Bad usage, or invalid challenge or test files.
    pub const INVALID: u8 = 2;
    /// The grader itself failed.
    pub const GRADER_FAULT: u8 = 3;
    /// Stopped by a signal (Ctrl-C, SIGTERM, SIGHUP): this plus the
    /// signal's number, as a shell reports a program the signal ended.
    pub const SIGNALLED: u8 = 128;
}

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The closed sets of words the report shares with grading, the same types
/// (a leaf crate both use): written as they are, with nothing to convert.
pub use vocabulary::{
    At, Audience, ErrorKind, ExpectedFrom, GivenBy, Language, Scoring, Source, Verdict, Visibility,
};

/// The result of grading submissions against one challenge's suite.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct Report {
    /// The version of this contract the report follows: 1. It changes when
    /// a field changes its meaning or type, or goes; new fields keep it. A
    /// report written before it was recorded follows the first.
    #[serde(default = "first_schema_version")]
    #[schemars(extend("const" = SCHEMA_VERSION))]
    pub schema_version: u32,
    /// The grader's name and version, e.g. `"rendezvous-grader 0.1.0"`.
    pub grader: String,
    /// The challenge's id.
    pub challenge: String,
    /// Where the challenges came from: a folder, or the grader's own
    /// (none in reports made before it was recorded).
    #[serde(default)]
    pub challenges: Option<Source>,
    /// The containment in force for every submission.
    pub sandbox: Layers,
    /// The limits in force for every submission (none in reports made
    /// before they were recorded).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<LimitsInForce>,
    /// Who the report is for: a learner's report holds no hidden case data.
    pub audience: Audience,
    /// The folder the tests came from.
    pub tests_dir: String,
    /// The folders whose groups were graded besides `tests_dir`'s
    /// (`--add-tests`), in the order given; absent when none were.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added_tests: Vec<String>,
    /// The patterns that selected the tests run (`--only`): a partial
    /// run, whose scores are of those tests alone; absent for the whole
    /// suite.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub only: Vec<String>,
    /// When grading started, in milliseconds since the epoch.
    pub started_at_ms: u64,
    /// When grading finished, in milliseconds since the epoch.
    pub finished_at_ms: u64,
    /// A hash of everything a result depends on besides the submission
    /// (the grader's version, the suite, the limits, the audience): the
    /// shards of one run share it.
    #[serde(default)]
    pub run_key: String,
    /// The shard `K/N` this report grades, or none (absent) for a whole run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<Shard>,
    /// Every submission graded, in the order they were found.
    pub submissions: Vec<SubmissionReport>,
}

/// The version of the contract this grader writes. It changes when a
/// field changes its meaning or type, or goes; new fields, and new values
/// where a field says more may come, keep it.
pub const SCHEMA_VERSION: u32 = 1;

fn first_schema_version() -> u32 {
    1
}

impl Report {
    /// The folders the tests came from, for people: `tests_dir`, then
    /// each added folder after a `+`.
    pub fn tests_from(&self) -> String {
        std::iter::once(&self.tests_dir)
            .chain(&self.added_tests)
            .map(String::as_str)
            .collect::<Vec<_>>()
            .join(" + ")
    }

    /// Whether every test of every submission was accepted.
    pub fn all_passed(&self) -> bool {
        self.submissions
            .iter()
            .all(|s| s.verdict == Verdict::Accepted)
    }
}

/// One graded submission.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct SubmissionReport {
    /// The student's name, the same in every format: their folder or file
    /// name, shown as learner text is, unique in the run (see
    /// `names::student_names`).
    pub name: String,
    /// The submission's path, as found: what formats show beside the name
    /// (for a student folder without an entry file, the folder).
    pub path: String,
    /// Its language, `unknown` when no entry file was found.
    pub language: Language,
    /// The interpreter that ran it, as the driver reported (e.g. "python
    /// 3.11.7"); none if it never started.
    pub runtime: Option<String>,
    /// `class` or `solve`, as the driver found it; none if it never started.
    pub api: Option<String>,
    /// For TypeScript and Rust: whether the build came from the cache, and
    /// its time.
    pub build: Option<Build>,
    /// The worst verdict of its tests.
    pub verdict: Verdict,
    /// The points, exactly; written with `score` and `max_score`, the
    /// floats derived from them (see `contract::scored`).
    #[serde(flatten, with = "scored")]
    #[schemars(with = "scored::Scored")]
    pub points: Points,
    /// Tests accepted.
    pub passed: usize,
    /// Tests in all.
    pub total: usize,
    /// The submission's own h32 against the pinned one, where it has one.
    pub h32: Option<HashCheck>,
    /// Without an h32 to compare: the two-node routes whose answers went
    /// against the pinned scores, when there are enough to blame the hash.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hash_hint: Option<HashHint>,
    /// The known mistake that explains the failures (`exact`), or the
    /// closest one with how many failing tests it reproduces.
    pub mistake: Option<MistakeReport>,
    /// Wrong answers that no known mistake explains well enough to name
    /// (the evidence rule of docs/diagnosis.md); written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unexplained: bool,
    /// It fails, and its file is the challenge's starter for its language
    /// as shipped: what fails is what is still to write (`unexplained`
    /// is then false); written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub untouched_starter: bool,
    /// Answers that changed between two runs of the same files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nondeterministic: Option<Nondeterminism>,
    /// Why the second opinion stopped before replaying every case it
    /// meant to (the budget of extra runs ran out); no verdict changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub second_opinion_cut_short: Option<String>,
    /// A property of consistent hashing the submission's own answers break.
    pub property: Option<PropertyHint>,
    /// A small case that fails the same way, with a snippet to run it.
    pub reproducer: Option<Reproducer>,
    /// Generated cases run against the reference once every test the
    /// reader sees passed (`--explore`); absent when none ran. It changes
    /// no verdict and no score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explore: Option<ExploreReport>,
    /// The Router lacks operations of this challenge: which, and the
    /// challenge whose operations it has, if one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_hint: Option<ApiHint>,
    /// Scores per group, in the suite's order.
    pub groups: Vec<GroupReport>,
    /// Every test, in the suite's order.
    pub tests: Vec<TestReport>,
}

/// One group's result for a submission.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct GroupReport {
    /// The group's name.
    pub name: String,
    /// How its points are earned, from challenge.toml.
    pub scoring: Scoring,
    /// Who sees its cases, from challenge.toml.
    pub visibility: Visibility,
    /// The points, exactly (`max_score` is the group's weight); written
    /// with `score` and `max_score`, the floats derived from them
    /// (see `contract::scored`).
    #[serde(flatten, with = "scored")]
    #[schemars(with = "scored::Scored")]
    pub points: Points,
    /// Tests accepted.
    pub passed: usize,
    /// Tests in the group.
    pub total: usize,
}

/// One graded test case.
#[derive(Debug, Clone, Serialize, Deserialize, JsonSchema)]
pub struct TestReport {
    /// The case's name.
    pub name: String,
    /// Its group's name.
    pub group: String,
    /// `hidden` tests show learners their name and verdict only.
    pub visibility: Visibility,
    pub verdict: Verdict,
    /// The test's share of its group's weight, exactly; written with
    /// `score` and `max_score`, the floats derived from it (see `contract::scored`).
    #[serde(flatten, with = "scored")]
    #[schemars(with = "scored::Scored")]
    pub points: Points,
    /// Wall-clock time of the case (0 for a hidden test in a learner's
    /// report, whose times are not shown).
    pub time_ms: u64,
    /// CPU time the session's processes used during the case: what its
    /// time limit is judged on. Reports written before it was recorded
    /// read as 0.
    #[serde(default)]
    pub cpu_ms: u64,
    /// Set when the case did not get its group's full time limit: an
    /// earlier test of the group ran past the limit, and the tests after it
    /// share one more limit; this is the limit this test ran under (what
    /// was left, at least a tenth of the limit). Not on hidden tests in a
    /// learner's report. Written only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_limit_ms: Option<u64>,
    /// With `shared_limit_ms`: the wall-clock time this test had, its
    /// share of the wall-clock time the group shares.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_wall_ms: Option<u64>,
    /// `file`, or `reference` when the case has no expected file.
    pub expected_from: ExpectedFrom,
    /// What went wrong, in one line; empty when accepted.
    pub message: String,
    /// The first operation whose answer differs from the expected one.
    pub divergence: Option<Divergence>,
    /// The learner's exception, with a traceback trimmed to their files.
    pub error: Option<LearnerError>,
    /// The module never loaded (its driver's `load_error`: an exception at
    /// import, no Router or solve, an executable that cannot start), so
    /// none of this case ran: formats that charge attempts tell it from a
    /// failure of the learner's code. Kept on hidden tests: it holds
    /// nothing of the case. Written only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub load_failed: bool,
    /// The pinned scores behind the expected answer.
    pub explanation: Option<ExplanationReport>,
    /// Operations and answers around the divergence, for the diff.
    pub window: Option<Window>,
    /// What the learner's code printed during this test, capped (only for
    /// failing tests).
    pub captured: Option<Captured>,
    /// The known mistake that reproduces this failure, when one explains
    /// all of the submission's failures.
    pub mistake: Option<MistakeReport>,
}

impl TestReport {
    /// Its id, `group/name`.
    pub fn id(&self) -> grading::TestId<'_> {
        grading::TestId {
            group: &self.group,
            name: &self.name,
        }
    }
}

/// A slice of a case around its first divergence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(into = "WindowJson", from = "WindowJson")]
pub struct Window {
    /// The index of the first operation in the window.
    pub first_op: usize,
    /// The operations, as the case wrote them.
    pub ops: Vec<Value>,
    /// The expected answers.
    pub expected: Vec<Value>,
    /// The submission's answers: `None` where it gave none, which is not
    /// `Some(Value::Null)`, a `null` it answered.
    pub actual: Vec<Option<Value>>,
}

/// A [`Window`] as the JSON holds it: `actual` has `null` both for a
/// `null` answered and for no answer (as reports always wrote it), and
/// `missing` lists the positions with no answer, so that a report read
/// back tells them apart.
#[derive(Serialize, Deserialize, JsonSchema)]
struct WindowJson {
    first_op: usize,
    ops: Vec<Value>,
    expected: Vec<Value>,
    actual: Vec<Value>,
    /// Positions in `ops` the submission gave no answer for; written only
    /// when there are some (a report without it reads every `null` as
    /// answered).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    missing: Vec<usize>,
}

impl From<Window> for WindowJson {
    fn from(w: Window) -> WindowJson {
        let missing = (0..w.actual.len())
            .filter(|&i| w.actual[i].is_none())
            .collect();
        WindowJson {
            first_op: w.first_op,
            ops: w.ops,
            expected: w.expected,
            actual: w
                .actual
                .into_iter()
                .map(|a| a.unwrap_or(Value::Null))
                .collect(),
            missing,
        }
    }
}

impl From<WindowJson> for Window {
    fn from(w: WindowJson) -> Window {
        let actual = w
            .actual
            .into_iter()
            .enumerate()
            .map(|(i, a)| (!w.missing.contains(&i)).then_some(a))
            .collect();
        Window {
            first_op: w.first_op,
            ops: w.ops,
            expected: w.expected,
            actual,
        }
    }
}

/// Points, exactly: `earned` of `total`, both counted in units of
/// 1/`denominator` of a point. One run counts every test, group and
/// submission in the same unit (the suite's least common multiple of its
/// groups' test counts), so sums and merged shards stay exact; the float
/// `score` and `max_score` beside it are derived from it once, and people
/// see it rounded once, to two decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Points {
    /// Units earned; none (`null`) for what was never judged (a
    /// `grader-fault`), which has no score, not a score of 0.
    pub earned: Option<u64>,
    /// Units there are.
    pub total: u64,
    /// Units per point: one for every test, group and submission of a run.
    pub denominator: u64,
}

impl Points {
    /// `earned` of `total` units of 1/`denominator` of a point.
    pub fn new(earned: u64, total: u64, denominator: u64) -> Points {
        Points {
            earned: Some(earned),
            total,
            denominator: denominator.max(1),
        }
    }

    /// These points as never judged: `total` stays, nothing is earned or
    /// lost.
    pub fn not_graded(self) -> Points {
        Points {
            earned: None,
            ..self
        }
    }

    /// Whether they were judged, so that they have a score.
    pub fn graded(self) -> bool {
        self.earned.is_some()
    }

    /// The points earned, as a float (for formats that want a number);
    /// none when never judged.
    pub fn score(self) -> Option<f64> {
        self.earned
            .map(|earned| earned as f64 / self.denominator as f64)
    }

    /// The points there are, as a float.
    pub fn max_score(self) -> f64 {
        self.total as f64 / self.denominator as f64
    }

    /// The sum of `parts`, all counted in units of 1/`denominator`: never
    /// judged when one of them was not.
    pub fn sum<'a>(parts: impl IntoIterator<Item = &'a Points>, denominator: u64) -> Points {
        parts
            .into_iter()
            .fold(Points::new(0, 0, denominator), |a, p| Points {
                earned: a.earned.zip(p.earned).map(|(a, p)| a + p),
                total: a.total + p.total,
                denominator,
            })
    }
}

/// How a report writes its points: `score` and `max_score`, the floats
/// derived from them, then `points` itself. Reading a report back keeps
/// `points` only and derives the floats again, so a score merged, resumed
/// or rejudged is the same float, to the last digit, as the one graded
/// whole, whatever the float read back was.
pub(crate) mod scored {
    use super::Points;
    use schemars::JsonSchema;
    use serde::ser::SerializeStruct;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(points: &Points, serializer: S) -> Result<S::Ok, S::Error> {
        let mut fields = serializer.serialize_struct("Scored", 3)?;
        fields.serialize_field("score", &points.score())?;
        fields.serialize_field("max_score", &points.max_score())?;
        fields.serialize_field("points", points)?;
        fields.end()
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        /// `score` and `max_score` are left unread: they follow from `points`.
        #[derive(Deserialize)]
        struct Read {
            points: Points,
        }
        Ok(Read::deserialize(deserializer)?.points)
    }

    /// The fields as written, for the JSON Schema.
    #[derive(JsonSchema)]
    #[allow(dead_code)]
    pub struct Scored {
        /// The points earned, as a float: `points.earned / points.denominator`;
        /// `null` for what was never judged.
        score: Option<f64>,
        /// The points there are, as a float: `points.total / points.denominator`.
        max_score: f64,
        /// The points, exactly.
        points: Points,
    }
}

/// `K/N`, as `--shard` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Shard {
    /// `K`, from 1.
    pub index: u32,
    /// `N`, the number of shards.
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

/// A Router that lacks some of the challenge's operations.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ApiHint {
    /// The challenge's operations the Router has no method for.
    pub missing: Vec<String>,
    /// Another challenge whose every operation the Router has.
    pub other_challenge: Option<String>,
    /// The hint, in words.
    pub message: String,
}

/// The sandbox layers in force, as probed when the grader started
/// (docs/containment.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Layers {
    /// `false` with `--no-sandbox`: only the rlimits apply.
    pub enabled: bool,
    pub pid_namespace: bool,
    pub network_namespace: bool,
    pub mount_namespace: bool,
    /// System V IPC and POSIX message queues of the session's own, gone
    /// with it (false in reports of versions before it).
    #[serde(default)]
    pub ipc_namespace: bool,
    pub user_namespace: bool,
    /// What Landlock enforces, e.g. "filesystem, tcp, signal scope", or
    /// none.
    pub landlock: Option<String>,
    /// What the seccomp filter refuses, or none (as in reports of
    /// versions before it).
    #[serde(default)]
    pub seccomp: Option<String>,
    /// When the grader is root and drops it: the first uid of the pool
    /// sessions run as (each session leases one of its own).
    pub runs_as: Option<u32>,
    /// Who keeps each session's accounts (its CPU time, memory and
    /// processes): the kernel, in a cgroup per session ("cgroup v1
    /// (cpuacct, memory, pids, cpu)", "cgroup v2 (cpu, memory, pids)"), or
    /// none: the grader samples `/proc` (as in reports of versions before
    /// it).
    #[serde(default)]
    pub accounting: Option<String>,
    /// Layers wanted but not in force, in words.
    pub missing: Vec<String>,
}

impl Layers {
    /// The layers' summary in one line, as the reports give it (the human
    /// and HTML headers, JUnit's properties, Gradescope's output) and as
    /// `--require-sandbox`'s refusal does.
    pub fn describe(&self) -> String {
        let accounts = match &self.accounting {
            Some(kernel) => format!("accounts by {kernel}"),
            None => "accounts sampled from /proc".into(),
        };
        if !self.enabled {
            return format!("off (--no-sandbox): rlimits only, {accounts}");
        }
        let mut on: Vec<String> = Vec::new();
        let ns: Vec<&str> = [
            (self.pid_namespace, "pid"),
            (self.network_namespace, "network"),
            (self.mount_namespace, "mount"),
            (self.ipc_namespace, "ipc"),
            (self.user_namespace, "user"),
        ]
        .iter()
        .filter(|(b, _)| *b)
        .map(|(_, n)| *n)
        .collect();
        if !ns.is_empty() {
            on.push(format!("{} namespaces", ns.join(", ")));
        }
        if let Some(v) = &self.landlock {
            on.push(format!("landlock {v}"));
        }
        if self.seccomp.is_some() {
            on.push("seccomp".into());
        }
        on.push("rlimits".into());
        if let Some(uid) = self.runs_as {
            on.push(format!("a uid per session from {uid}"));
        }
        on.push(accounts);
        let mut line = on.join(", ");
        if !self.missing.is_empty() {
            line.push_str(&format!("; MISSING: {}", self.missing.join(", ")));
        }
        line
    }
}

/// The limits every submission of a run was graded under: challenge.toml's
/// `[limits]` with the command line's flags (docs/containment.md#limits).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LimitsInForce {
    /// CPU time per case of each group, in the suite's order.
    pub groups: Vec<GroupTime>,
    /// Memory per session, in MiB.
    pub memory_mb: u64,
    /// Output a case may print, in MiB.
    pub output_mb: u64,
    /// The least time one extra run gets, in milliseconds.
    pub extra_run_ms: u64,
    /// The most all extra runs of one submission take, in milliseconds.
    pub extras_budget_ms: u64,
    /// Each limit the command line set below what challenge.toml sets.
    pub lowered: Vec<Lowered>,
}

impl LimitsInForce {
    /// The limits in one line, e.g. "CPU time per case 2000 ms (large
    /// 13000 ms), memory 512 MiB, output 8 MiB, extra runs at least 250 ms
    /// and 20000 ms in all".
    pub fn describe(&self) -> String {
        // The most common group limit, then the groups that differ.
        let mut common: Option<(u64, usize)> = None;
        for g in &self.groups {
            let n = self
                .groups
                .iter()
                .filter(|o| o.time_ms == g.time_ms)
                .count();
            if common.is_none_or(|(_, most)| n > most) {
                common = Some((g.time_ms, n));
            }
        }
        let mut time = match common {
            Some((ms, _)) => format!("CPU time per case {ms} ms"),
            None => "no tests".to_owned(),
        };
        let others: Vec<String> = self
            .groups
            .iter()
            .filter(|g| common.is_some_and(|(ms, _)| g.time_ms != ms))
            .map(|g| format!("{} {} ms", g.group, g.time_ms))
            .collect();
        if !others.is_empty() {
            time.push_str(&format!(" ({})", others.join(", ")));
        }
        format!(
            "{time}, memory {} MiB, output {} MiB, extra runs at least {} ms and {} ms in all",
            self.memory_mb, self.output_mb, self.extra_run_ms, self.extras_budget_ms
        )
    }
}

/// One group's time limit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct GroupTime {
    pub group: String,
    pub time_ms: u64,
}

/// A limit the command line set below challenge.toml's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Lowered {
    /// The flag that set it, e.g. `--memory-limit`.
    pub flag: String,
    /// What it limits, in words: e.g. "memory per session", "CPU time per
    /// case of group `sample`".
    pub what: String,
    /// challenge.toml's value.
    pub challenge: u64,
    /// The value in force.
    pub used: u64,
    /// Their unit: `ms` or `MiB`.
    pub unit: String,
}

impl Lowered {
    /// The note, in one line.
    pub fn describe(&self) -> String {
        format!(
            "{} lowered {} from challenge.toml's {} {} to {} {}",
            self.flag, self.what, self.challenge, self.unit, self.used, self.unit
        )
    }
}

/// What preparing a submission cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Build {
    /// Whether the artifact came from the cache (nothing was compiled).
    pub cached: bool,
    /// The time preparing took.
    pub time_ms: u64,
}

/// The first operation whose answer differs from the expected one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Divergence {
    /// Its index in the case (0-based).
    pub op_index: usize,
    /// The operation as the case wrote it, e.g. `["route","user:1"]`.
    pub op: Value,
    /// The expected answer.
    pub expected: Value,
    /// The submission's answer (`null` when `missing`).
    pub actual: Value,
    /// The submission gave no answer for this operation at all; written
    /// only when true.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub missing: bool,
    /// How many operations differ in all (missing answers included); of
    /// a replayed divergence, how many of the operations replayed.
    pub differing_ops: usize,
    /// Set when the test hit a limit or crashed at this operation index,
    /// and the wrong answer was seen when the operations before it were
    /// run again alone: a case's answers come only at its end, so the
    /// test's own run gave none. Written only when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replayed_ops: Option<usize>,
}

/// An exception in the learner's code, as the driver reported it
/// (docs/protocol.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LearnerError {
    /// The exception's type, written `type`.
    #[serde(rename = "type")]
    pub kind: ErrorKind,
    pub message: String,
    /// The traceback, trimmed to the learner's files.
    #[serde(default)]
    pub traceback: String,
    /// The line in the learner's file, where known.
    #[serde(default)]
    pub line: Option<u64>,
    /// Where it was raised: `-1` the constructor, `i` operation `i`,
    /// `null` not known (or `solve`).
    #[serde(default, with = "vocabulary::at_wire")]
    #[schemars(with = "Option<i64>")]
    pub op_index: Option<At>,
    /// The OS error number, for errors from the OS; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<i64>,
}

/// Output the learner's code printed while serving one case.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Captured {
    /// Standard output, up to the cap.
    pub stdout: String,
    /// Standard error, up to the cap.
    pub stderr: String,
    /// Bytes printed past the cap and not kept.
    pub dropped_bytes: u64,
}

/// The submission's h32 against the pinned one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HashCheck {
    /// How many strings were compared.
    pub checked: usize,
    /// The first string where the values differ (check values first, then
    /// the strings scored in the explanations), or `None` if all agree.
    pub first_mismatch: Option<HashMismatch>,
    /// The step of the hash that is wrong, when one known wrong h32 gives
    /// every value the submission's gave; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<HashStep>,
}

/// The steps of a learner's h32 that are wrong, with the smallest text
/// that shows them: the first step, and the others wrong with it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HashStep {
    /// The catalogue mistake it is.
    pub mistake: String,
    /// The mistake's form, when it has several; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// The step, in words.
    pub step: String,
    /// The other steps wrong with it (only all of them together give the
    /// submission's values), in the order they are named; absent when the
    /// one step explains them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<WrongStep>,
    /// The smallest text that shows it.
    pub text: String,
    /// The pinned h32 of `text`.
    pub pinned: u32,
    /// The submission's h32 of `text`: negative when its h32 is signed.
    pub yours: i64,
}

/// One more wrong step of a learner's h32 (a `HashStep`'s `also`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WrongStep {
    /// The catalogue mistake it is.
    pub mistake: String,
    /// The mistake's form, when it has several; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// The step, in words.
    pub step: String,
}

/// A string the submission hashes differently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct HashMismatch {
    pub text: String,
    /// The pinned h32 of `text`.
    pub pinned: u32,
    /// What the submission's h32 returned for it: an integer (negative
    /// when its h32 is signed), or, for anything else, the value as the
    /// submission's language writes it (`"2872998923n"`, `"1.5e+28"`).
    pub yours: Value,
}

impl HashMismatch {
    /// Whether `yours` is the pinned value itself in another type than an
    /// integer: a JavaScript BigInt (`2872998923n`), a float
    /// (`2872998923.0`), a string of its digits.
    pub fn same_value_other_type(&self) -> bool {
        let Value::String(literal) = &self.yours else {
            return false;
        };
        let bare = literal
            .trim_matches(|c| c == '"' || c == '\'')
            .trim_end_matches('n');
        bare.parse::<f64>()
            .is_ok_and(|v| v == f64::from(self.pinned))
    }
}

/// Routes between two nodes whose answer went against the pinned scores,
/// for a submission without `h32` to compare: with two nodes and two
/// different scores, nothing but the hash decides.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct HashHint {
    /// Two-node routes answered with the other node.
    pub against: usize,
    /// Two-node routes answered at all.
    pub asked: usize,
    /// The hint, in words.
    pub message: String,
}

/// A named mistake in a report (docs/diagnosis.md).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct MistakeReport {
    /// The catalogue's id, e.g. `lowest-score`.
    pub id: String,
    pub title: String,
    pub explanation: String,
    pub hint: String,
    /// The variation that matched (a separator, say), when there are
    /// several; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
    /// A second mistake made together with this one, when only the two
    /// together explain the answers; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub with: Option<NamedMistake>,
    /// A third mistake made together with these two, when only the three
    /// together explain the answers; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub third: Option<NamedMistake>,
    /// When the tests cannot tell which of several mistakes of one knob
    /// was made: each of them, and `id`, `title` and `hint` are then
    /// their family's (an id no mistake has); absent otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<NamedMistake>,
    /// `true` when it reproduces every failing case; `false` for the
    /// closest mistake when none does.
    pub exact: bool,
    /// Failing cases it reproduces, of those compared.
    pub reproduced: usize,
    /// Failing cases compared: every failing test, those that hit a limit
    /// or crashed included.
    pub compared: usize,
}

impl MistakeReport {
    /// Every mistake named: the first and those made with it.
    pub fn named(&self) -> Vec<NamedMistake> {
        let first = NamedMistake {
            id: self.id.clone(),
            title: self.title.clone(),
            explanation: self.explanation.clone(),
            hint: self.hint.clone(),
            form: self.form.clone(),
        };
        std::iter::once(first)
            .chain(self.with.clone())
            .chain(self.third.clone())
            .collect()
    }
}

/// A known mistake by name, in the form it was made.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct NamedMistake {
    pub id: String,
    pub title: String,
    pub explanation: String,
    pub hint: String,
    /// The variation that matched (a separator, say), when there are
    /// several; absent otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub form: Option<String>,
}

/// Answers that changed between two runs of the same cases in fresh
/// processes with different hash seeds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Nondeterminism {
    /// The tests whose answers changed, as `group/name`.
    pub tests: Vec<String>,
    /// The first change in a test the reader may see; absent when there
    /// is none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub example: Option<Change>,
    /// What in the submission's language changes between processes.
    pub explanation: String,
}

/// One operation that answered differently in two runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Change {
    /// `group/name`.
    pub test: String,
    /// The operation's index in the case.
    pub op_index: usize,
    /// The operation, as the case wrote it.
    pub op: Value,
    /// The answer in each run; `null` when that run raised there instead.
    pub first: Option<Value>,
    pub second: Option<Value>,
}

/// A property of consistent hashing the submission breaks, shown by two
/// routes of the same key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PropertyHint {
    /// `remove-moves-only-its-keys`, `add-only-steals-keys`,
    /// `remove-keeps-the-ranking`, `add-keeps-the-ranking`,
    /// `removed-nodes-are-gone`, `ties-keep-their-order` or
    /// `order-independent`.
    pub property: String,
    /// The case, as `group/name`.
    pub case: String,
    /// The two routes of the same key, by operation index.
    pub first_op: usize,
    pub second_op: usize,
    /// The hint, in words.
    pub message: String,
}

/// A small failing case and the snippet that shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Reproducer {
    /// The case, `[args, ops]`, ending at the first wrong answer.
    pub case: Value,
    /// What the last operation should answer.
    pub expected: Value,
    /// What the submission answered.
    pub actual: Value,
    /// Code in the submission's language that fails with the wrong answer.
    pub snippet: String,
    /// Why shrinking stopped before it was done, when it did: the case is
    /// then the smallest found so far. Absent when shrinking finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cut_short: Option<String>,
}

/// How exploring a submission with generated cases went.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ExploreReport {
    /// Generated cases run to the end.
    pub cases: usize,
    /// The seed they were drawn from (`--explore-seed`).
    pub seed: u64,
    /// The time exploring was given, in milliseconds.
    pub budget_ms: u64,
    /// The first generated case the submission answers otherwise than
    /// the reference, shrunk; `null` when every case agreed.
    pub counterexample: Option<Counterexample>,
}

/// A generated case the submission gets wrong.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Counterexample {
    /// Which of the exploration's cases found it, from 0.
    pub index: usize,
    /// The case, `[args, ops]`, shrunk while it still fails.
    pub case: Value,
    /// The reference's answers to its operations.
    pub expected: Vec<Value>,
    /// The submission's answers: as many, or fewer when its code raised.
    pub actual: Vec<Value>,
    /// What the submission's code raised on it, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub raised: Option<LearnerError>,
    /// Code in the submission's language that fails the same way.
    pub snippet: String,
}

impl Counterexample {
    /// The first operation the submission answered otherwise (or not at
    /// all), with the reference's answer and its own (`None`: none).
    pub fn first_difference(&self) -> (usize, &Value, Option<&Value>) {
        let at = (0..self.expected.len())
            .find(|&i| self.actual.get(i) != Some(&self.expected[i]))
            .unwrap_or(self.expected.len().saturating_sub(1));
        (at, &self.expected[at], self.actual.get(at))
    }
}

/// Why the expected answer of a divergent operation is what it is, tagged
/// by `kind`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ExplanationReport {
    /// `scores`: a route, every node's score.
    Scores(ScoreReport),
    /// `top`: a replica list, the expected ranking beside the submission's.
    Top(TopReport),
    /// `ring`: a ring lookup, the key's position and the points around it.
    Ring(RingReport),
    /// `points`: a ring's size, k points for each of its nodes.
    Points(PointsView),
}

/// A route's score table, capped for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ScoreReport {
    /// The key routed.
    pub key: String,
    /// How a node's score is computed, e.g. `h32(node + ":" + key)`.
    pub formula: String,
    /// The reference's answer.
    pub winner: Option<String>,
    /// The rule that picked the winner.
    pub rule: WinRule,
    /// The highest-ranked rows (at most 10), and the submission's
    /// answer's row if it ranked lower.
    pub rows: Vec<RankedRow>,
    /// How many nodes there were in all.
    pub total_nodes: usize,
    /// The submission's answer and its rank (`None` if it is not a node).
    pub answer: Option<RankedRow>,
}

/// One node's score with its rank (1 = highest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RankedRow {
    pub rank: usize,
    pub node: String,
    /// The exact text hashed, e.g. `"cache-1:user:1"`.
    pub hashed: String,
    /// The pinned h32 of `hashed`.
    pub h32: u32,
    /// U, -ln(U) and the weighted score, in weighted challenges; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted: Option<WeightedScore>,
    /// The submission's own h32 of `hashed`, where it exposes one; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yours: Option<Value>,
}

/// `top(key, n)`: the expected ranking beside the submission's, position
/// by position, from a little before the first place they part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TopReport {
    pub key: String,
    pub formula: String,
    pub n: u64,
    pub total_nodes: usize,
    /// The first position (0-based) where the two lists differ.
    pub first_difference: usize,
    /// One line per position shown.
    pub lines: Vec<TopLine>,
}

/// One position of a ranking: the expected node and the submission's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct TopLine {
    pub position: usize,
    /// The expected node's row, none past the expected list's end.
    pub expected: Option<RankedRow>,
    /// The submission's name at this position, as it answered it.
    pub yours: Option<Value>,
    /// Its row, when it is a node.
    pub yours_row: Option<RankedRow>,
}

/// A ring lookup's neighbourhood.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct RingReport {
    pub key: String,
    /// h32(key).
    pub position: u32,
    /// The submission's own h32 of the key, where it exposes one; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position_yours: Option<Value>,
    /// Entries on the ring in all.
    pub points: usize,
    /// Whether no entry is at or after the key's position, so the lookup
    /// wrapped to the first entry.
    pub wrapped: bool,
    /// Entries just before the key's position, in ring order.
    pub before: Vec<ShownPoint>,
    /// The entry the key lands on, then the next ones.
    pub after: Vec<ShownPoint>,
}

/// One entry of a ring, for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct ShownPoint {
    /// Its index in ring order.
    pub index: usize,
    pub node: String,
    /// The text hashed for its position, e.g. `"A#2"`.
    pub hashed: String,
    pub position: u32,
    /// The submission's own h32 of `hashed`, where it exposes one; absent
    /// otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub yours: Option<Value>,
}

/// Why a ring holds the entries it does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PointsView {
    /// Points per node.
    pub k: usize,
    /// The nodes on the ring, sorted.
    pub nodes: Vec<String>,
    /// k times the number of nodes.
    pub points: usize,
}

/// The steps from a node's h32 to its weighted score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct WeightedScore {
    pub weight: f64,
    /// (h32 + 0.5) / 2^32, in (0, 1).
    pub u: f64,
    /// -ln(U), positive.
    pub neg_ln_u: f64,
    /// weight / -ln(U).
    pub score: f64,
}

/// How the winner of a route was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum WinRule {
    /// `no-nodes`: no nodes, the answer is null.
    NoNodes,
    /// `highest-score`: one node had the strictly highest score.
    HighestScore,
    /// `tie-smaller-name`: several nodes shared the highest score; the
    /// smallest name won.
    TieSmallerName,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The exit codes' table in the instructors' guide lists each code
    /// the grader has, and no other (a signal's as 128 + SIGINT's 2).
    #[test]
    fn the_guide_lists_every_exit_code() {
        let guide = include_str!("../../../docs/ci-and-instructors.md");
        let table = guide
            .split("\n## Exit codes\n")
            .nth(1)
            .expect("the guide has an Exit codes section");
        let listed: Vec<u8> = table
            .lines()
            .skip_while(|l| !l.starts_with("| code"))
            .skip(2)
            .take_while(|l| l.starts_with('|'))
            .map(|l| l.split('|').nth(1).unwrap().trim().parse().unwrap())
            .collect();
        assert_eq!(
            listed,
            [
                exit::PASSED,
                exit::FAILED,
                exit::INVALID,
                exit::GRADER_FAULT,
                exit::SIGNALLED + 2
            ]
        );
    }

    #[test]
    fn a_learner_error_is_written_as_the_protocol_writes_it() {
        for (wire, at) in [
            (json!(-1), Some(vocabulary::At::Constructor)),
            (json!(4), Some(vocabulary::At::Op(4))),
            (json!(null), None),
        ] {
            for name in ["CompileError", "MemoryError", "KeyError", ""] {
                let mut error = grading::LearnerException::new(name.to_owned().into(), "m".into());
                error.op_index = at;
                let ours = serde_json::to_value(&error).unwrap();
                let written = serde_json::to_value(LearnerError::from(&error)).unwrap();
                assert_eq!(written, ours);
                assert_eq!(written["op_index"], wire);
                assert_eq!(written["type"], json!(name));
                let read: LearnerError = serde_json::from_value(written).unwrap();
                assert_eq!(read, LearnerError::from(&error));
            }
        }
    }
}
