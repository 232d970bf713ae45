//! A test's entry in the report, built once from grading's record of it:
//! the one place that words its message, marks a second opinion's
//! finding, and keeps a hidden test's details from a learner.

use super::contract::MistakeReport;
use super::{Audience, Points, TestReport, Window};
use grading::Case;
use grading::Judgement;
use grading::Tested;
use vocabulary::Verdict;

/// Operations shown before and after the divergence in a report's window.
const WINDOW_BEFORE: usize = 5;
const WINDOW_AFTER: usize = 5;

/// The entry of `tested` with its `points` (all-or-nothing groups
/// considered), for `audience`; `mistake` is the known mistake that
/// explains every failure, shown on each failing test.
pub fn test_report(
    tested: &Tested<'_>,
    points: Points,
    audience: Audience,
    mistake: Option<&MistakeReport>,
) -> TestReport {
    let run = tested.deciding();
    let (case, judgement) = (tested.case, &run.judgement);
    let accepted = judgement.verdict == Verdict::Accepted;
    let message = super::cause::message(case, judgement);
    let mut test = TestReport {
        name: case.name.clone(),
        group: case.group.clone(),
        visibility: tested.group.visibility,
        verdict: judgement.verdict,
        points,
        time_ms: run.time_ms(),
        cpu_ms: run.cpu.as_millis() as u64,
        shared_limit_ms: tested.shared_limit.map(|l| l.cpu.as_millis() as u64),
        shared_wall_ms: tested.shared_limit.map(|l| l.wall.as_millis() as u64),
        expected_from: case.expected_from,
        message: match (&tested.in_another_run, tested.shared_limit) {
            (Some(_), _) => format!("in another run, {message}"),
            (None, Some(share)) => {
                super::cause::shared_time_message(case, judgement, tested.group.time_limit, share)
                    .unwrap_or(message)
            }
            (None, None) => message,
        },
        divergence: judgement.divergence.as_ref().map(Into::into),
        error: judgement.error().map(Into::into),
        load_failed: run.load_failed,
        explanation: run.explanation.as_ref().map(Into::into),
        window: window(case, judgement),
        captured: (!accepted && !run.captured.is_empty()).then(|| (&run.captured).into()),
        mistake: mistake.filter(|_| !accepted).cloned(),
    };
    if !audience.sees(tested.group.visibility) {
        redact(&mut test);
    }
    test
}

/// Leaves a hidden test its name, group, verdict and score: nothing of its
/// case (operands, expected or actual answers, explanations), nothing the
/// learner's code printed or raised while running it, which could echo
/// the case, and not its times (how long a hidden case took can spell what
/// it held: a submission that sleeps in proportion to an operand), nor a
/// mistake on it.
fn redact(t: &mut TestReport) {
    t.message = format!("{} (a hidden test: its details are not shown)", t.verdict);
    t.divergence = None;
    t.error = None;
    t.explanation = None;
    t.window = None;
    t.captured = None;
    t.mistake = None;
    (t.time_ms, t.cpu_ms, t.shared_limit_ms, t.shared_wall_ms) = (0, 0, None, None);
}

/// The operations around the first divergence, with both answers: of a
/// replayed one, only operations that were replayed (the rest were never
/// answered in either run).
fn window(case: &Case, judgement: &Judgement) -> Option<Window> {
    let d = judgement.divergence.as_ref()?;
    let first = d.op_index.saturating_sub(WINDOW_BEFORE);
    let end = (d.op_index + WINDOW_AFTER + 1)
        .min(case.ops.len())
        .min(d.replayed_ops.unwrap_or(usize::MAX));
    Some(Window {
        first_op: first,
        ops: (first..end).map(|i| case.op_json(i)).collect(),
        expected: case.expected[first..end].to_vec(),
        actual: (first..end)
            .map(|i| judgement.actual.get(i).cloned())
            .collect(),
    })
}
