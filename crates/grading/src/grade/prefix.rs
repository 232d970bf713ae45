//! The first wrong answer of a test that later hit a limit or crashed. A
//! case's answers come in one reply at its end (docs/protocol.md), so a
//! case stopped at operation k by a limit or a crash answered nothing: a
//! wrong answer before k, often the cheaper bug to fix, went unseen. The
//! operations before k are run again alone, in a fresh session under the
//! test's own limit, and a wrong answer among them is the test's
//! divergence; its verdict stays the limit's.
//!
//! This asks nothing of the drivers or of a learner's own program: the
//! progress they already serve names k. Answers streamed as they are
//! given, or sent with each progress reply, would cost every case of
//! every submission, and a change to every driver and to the protocol
//! every executable speaks, for the few tests that end at a limit.

use super::{Grading, Slot};
use crate::error::Error;
use crate::explain;
use crate::judge::{self, DivergentOp};
use crate::run::{CaseOutcome, ReplyBound, Runner, backstop};
use crate::tested::Tested;

/// How many tests of a grading, at most, have the operations before their
/// limit run again: the first ones in the suite's order whose replay could
/// show something. A submission that makes every test hit a limit (on
/// purpose or not) costs at most this many tests' time more, whatever the
/// suite, and the same ones each time it is graded; a learner fixes the
/// first wrong answer first.
pub const PREFIX_REPLAYS: usize = 3;

impl<'a> Grading<'a> {
    /// Replays the operations before the limit (or crash) of the first
    /// [`PREFIX_REPLAYS`] tests in `ran` that stopped at an operation k > 0
    /// which the reader may see (a hidden test's divergence would not be
    /// shown to a learner: it is not replayed), each in a fresh session of
    /// `runner`'s program under the limit the test ran under, and makes a
    /// wrong answer among them the test's divergence, its verdict as it
    /// was. A replay that does not answer all of them (a limit, a crash,
    /// an exception: not what the first run did before k) adds nothing;
    /// one the machine or the sandbox could not run adds nothing either
    /// and ends the replays, since they are never worth a verdict.
    pub(super) fn replay_prefixes(&self, runner: &Runner<'_>, ran: &mut [Slot<'a>]) {
        let wanted: Vec<(usize, usize)> = ran
            .iter()
            .enumerate()
            .filter_map(|(i, slot)| Some((i, self.replayable(slot.as_ref()?)?)))
            .take(PREFIX_REPLAYS)
            .collect();
        if wanted.is_empty() {
            return;
        }
        let Some(mut again) = runner.fresh(runner.seed()) else {
            return;
        };
        for (i, k) in wanted {
            let Some(tested) = ran[i].as_mut() else {
                continue;
            };
            match replay_prefix(&mut again, tested, k) {
                Ok(Some((divergence, answers))) => {
                    tested.explanation = explain::explain(self.challenge, tested.case, &divergence);
                    tested.judgement.divergence = Some(divergence);
                    tested.judgement.actual = answers;
                }
                Ok(None) => {}
                Err(_) => break,
            }
            // Each replay in a session of its own, as its case's first
            // operations would run.
            again.restart();
        }
    }

    /// The number of operations to replay of `tested`: those before the
    /// operation a limit or a crash stopped it in, when there are some,
    /// the reader may see the test, and it has no divergence already.
    fn replayable(&self, tested: &Tested<'_>) -> Option<usize> {
        if !self.shown(tested.group) || tested.judgement.divergence.is_some() {
            return None;
        }
        let k = tested.judgement.cause.stopped_at()?.op()?;
        // A program of the learner's own may name any operation.
        Some(k.min(tested.case.ops.len())).filter(|&k| k > 0)
    }
}

/// Runs the first `k` operations of `tested`'s case on `runner`, under the
/// limit the test ran under: the first wrong answer among them, with the
/// answers, when it answered every one of them.
fn replay_prefix(
    runner: &mut Runner<'_>,
    tested: &Tested<'_>,
    k: usize,
) -> Result<Option<(DivergentOp, Vec<serde_json::Value>)>, Error> {
    let case = tested.case;
    let (cpu, wall) = match tested.shared_limit {
        Some(share) => (share.cpu, share.wall),
        None => (tested.group.time_limit, backstop(tested.group.time_limit)),
    };
    let kept: Vec<usize> = (0..k).collect();
    let input = super::second_opinion::subcase(case, &kept);
    let run = runner.run_input_within(&input, ReplyBound::for_case(case), cpu, wall)?;
    let CaseOutcome::Output(answers) = run.outcome else {
        return Ok(None);
    };
    if answers.len() != k {
        return Ok(None);
    }
    Ok(judge::first_divergence_before(case, &answers, k).map(|d| {
        (
            DivergentOp {
                replayed_ops: Some(k),
                ..d
            },
            answers,
        )
    }))
}
