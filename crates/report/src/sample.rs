//! Reports the renderers' tests share: a stored report's accepted student
//! alone, explored or not, so that each format's test compares what it
//! writes with exploring and without.

use crate::contract::{Counterexample, ExploreReport};
use crate::{Report, SubmissionReport};
use serde_json::json;

/// The stored class report (`tests/fixtures/reports/batch.json`).
pub(crate) fn class() -> Report {
    serde_json::from_str(include_str!("../../../tests/fixtures/reports/batch.json")).unwrap()
}

/// Its first accepted student alone, not explored.
pub(crate) fn accepted() -> Report {
    let mut report = class();
    let s = first_accepted(&report).clone();
    report.submissions = vec![s];
    report
}

fn first_accepted(report: &Report) -> &SubmissionReport {
    report
        .submissions
        .iter()
        .find(|s| s.verdict == crate::contract::Verdict::Accepted && s.explore.is_none())
        .unwrap()
}

/// An exploration of 412 cases, seed 7, that found a case (the seventh
/// drawn, its second operation answered wrong, its key holding markup)
/// when `found`, or none.
pub(crate) fn exploration(found: bool) -> ExploreReport {
    ExploreReport {
        cases: 412,
        seed: 7,
        budget_ms: 10_000,
        counterexample: found.then(|| Counterexample {
            index: 6,
            case: json!([[["a", "b", "c"]], [["route", "k"], ["route", " <k>&"]]]),
            expected: vec![json!("b"), json!("c")],
            actual: vec![json!("b"), json!("a")],
            raised: None,
            snippet: "from router import Router\nr = Router([\"a\", \"b\", \"c\"])\nassert r.route(\" <k>&\") == \"c\"\n".to_owned(),
        }),
    }
}

/// [`accepted`], explored as [`exploration`] says.
pub(crate) fn explored(found: bool) -> Report {
    let mut report = accepted();
    report.submissions[0].explore = Some(exploration(found));
    report
}

/// The class report with its first accepted student explored, a case
/// found, and its second explored without one.
pub(crate) fn explored_class() -> Report {
    let mut report = class();
    let mut accepted = report
        .submissions
        .iter_mut()
        .filter(|s| s.verdict == crate::contract::Verdict::Accepted);
    accepted.next().unwrap().explore = Some(exploration(true));
    accepted.next().unwrap().explore = Some(exploration(false));
    report
}

/// `report` written by `render`, as text.
pub(crate) fn written(
    report: &Report,
    render: fn(&Report, &mut dyn std::io::Write) -> std::io::Result<()>,
) -> String {
    let mut out = Vec::new();
    render(report, &mut out).unwrap();
    String::from_utf8(out).unwrap()
}

/// How many tests [`too_many_to_list`] gives a submission.
pub(crate) const TOO_MANY: usize = 1_500;

/// Replaces `submission`'s tests with [`TOO_MANY`] copies of its first,
/// each named at length (as a suite may name its cases): listed, they
/// take more than a platform's 1 MB of results even without any text.
pub(crate) fn too_many_to_list(submission: &mut SubmissionReport) {
    let one = submission.tests[0].clone();
    let long = "a-case-with-a-long-descriptive-name-".repeat(20);
    submission.tests = (0..TOO_MANY)
        .map(|i| {
            let mut t = one.clone();
            t.name = format!("{long}{i}");
            t
        })
        .collect();
}
