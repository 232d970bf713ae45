//! Drives the pipeline for a set of submissions: run every case, judge it,
//! explain the failures, and build the [`Report`].

use crate::challenge::{Case, Challenge, Suite};
use crate::error::Error;
use crate::explain;
use crate::judge::{self, Judgement, Verdict};
use crate::report::{Report, SubmissionReport, TestReport, Window};
use crate::run::{Environment, Runner, Submission};
use std::time::Duration;

/// Operations shown before and after the divergence in a report's window.
const WINDOW_BEFORE: usize = 5;
const WINDOW_AFTER: usize = 5;
/// How long a submission's h32 may take on the strings checked.
const HASH_LIMIT: Duration = Duration::from_secs(5);

/// Grades `submissions` on `suite` and builds the report.
pub fn grade(
    challenge: &Challenge,
    suite: &Suite,
    submissions: &[Submission],
    env: &Environment,
) -> Result<Report, Error> {
    let submissions = submissions
        .iter()
        .map(|s| grade_one(challenge, suite, s, env))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Report {
        grader: format!("rendezvous-grader {}", env!("CARGO_PKG_VERSION")),
        challenge: challenge.id.clone(),
        sandbox: env.layers().clone(),
        tests_dir: suite.dir.display().to_string(),
        submissions,
    })
}

fn grade_one(
    challenge: &Challenge,
    suite: &Suite,
    submission: &Submission,
    env: &Environment,
) -> Result<SubmissionReport, Error> {
    // CPU for a whole session: every case's wall-clock limit, plus start-up.
    // It catches a thread that burns CPU between cases, which no wall-clock
    // limit sees.
    let case_ms: u128 = suite
        .groups
        .iter()
        .map(|g| g.time_limit.as_millis() * g.cases.len() as u128)
        .sum();
    let cpu_seconds = (case_ms / 1000) as u64 + crate::run::STARTUP_LIMIT.as_secs() + 1;
    let mut runner = Runner::new(env, challenge, submission, cpu_seconds);
    let mut tests = Vec::new();
    for group in &suite.groups {
        for case in &group.cases {
            let run = runner.run_case(case, group.time_limit)?;
            let judgement = judge::judge(case, &run.outcome);
            let accepted = judgement.verdict == Verdict::Accepted;
            tests.push(TestReport {
                name: case.name.clone(),
                group: case.group.clone(),
                verdict: judgement.verdict,
                score: if accepted { group.weight } else { 0.0 },
                max_score: group.weight,
                time_ms: run.elapsed.as_millis() as u64,
                expected_from: case.expected_from,
                explanation: judgement
                    .divergence
                    .as_ref()
                    .and_then(|d| explain::explain(challenge, case, d)),
                window: window(case, &judgement),
                captured: (!accepted && !run.captured.is_empty()).then_some(run.captured),
                message: judgement.message,
                divergence: judgement.divergence,
                error: judgement.error,
            });
        }
    }
    let h32 = check_hash(&mut runner, &mut tests)?;
    let verdict = tests
        .iter()
        .map(|t| t.verdict)
        .max()
        .unwrap_or(Verdict::Accepted);
    let hello = runner.hello();
    Ok(SubmissionReport {
        path: submission.path.display().to_string(),
        language: submission.language,
        runtime: hello.map(|h| h.runtime.clone()).filter(|r| !r.is_empty()),
        api: hello.map(|h| h.api.clone()).filter(|a| !a.is_empty()),
        build: runner.build(),
        verdict,
        score: tests.iter().map(|t| t.score).sum(),
        max_score: tests.iter().map(|t| t.max_score).sum(),
        passed: tests
            .iter()
            .filter(|t| t.verdict == Verdict::Accepted)
            .count(),
        total: tests.len(),
        h32,
        tests,
    })
}

/// Asks a submission that exposes h32 for its values on the check strings
/// and on every string in the explanations, and puts them beside the pinned
/// values.
fn check_hash(
    runner: &mut Runner<'_>,
    tests: &mut [TestReport],
) -> Result<Option<explain::HashCheck>, Error> {
    if !runner.hello().is_some_and(|h| h.h32) {
        return Ok(None);
    }
    let texts = explain::hash_texts(tests.iter().filter_map(|t| t.explanation.as_ref()));
    let Some(yours) = runner.hash(&texts, HASH_LIMIT)? else {
        return Ok(None);
    };
    for t in tests.iter_mut() {
        if let Some(e) = t.explanation.as_mut() {
            explain::annotate(e, &texts, &yours);
        }
    }
    Ok(Some(explain::check_hash(&texts, &yours)))
}

/// The operations around the first divergence, with both answers.
fn window(case: &Case, judgement: &Judgement) -> Option<Window> {
    let d = judgement.divergence.as_ref()?;
    let first = d.op_index.saturating_sub(WINDOW_BEFORE);
    let end = (d.op_index + WINDOW_AFTER + 1).min(case.ops.len());
    Some(Window {
        first_op: first,
        ops: (first..end).map(|i| case.op_json(i)).collect(),
        expected: case.expected[first..end].to_vec(),
        actual: (first..end)
            .map(|i| judgement.actual.get(i).cloned())
            .collect(),
    })
}
