//! Exploring: once a submission passes every test it may see, generated
//! cases ([`draw`]) are replayed against the reference until one differs
//! or the time given runs out, and the first that differs is shrunk on the
//! submission itself ([`crate::shrink`]). Every suite is finite; this
//! finds what it misses. Exploring never changes a verdict or a score: it
//! says "passes the suite; fails this generated case" beside them. It runs
//! in the visible phase, and uses no hidden case.

pub mod draw;

use crate::challenge::{Case, Challenge, Operations};
use crate::error::Error;
use crate::extra::{Budget, ExtraLimits};
use crate::judge::first_divergence;
use crate::lang::Submission;
use crate::protocol::LearnerException;
use crate::run::{CaseOutcome, ReplyBound, Runner};
use serde_json::Value;
use std::time::Duration;

/// How exploring went.
#[derive(Debug, Clone, PartialEq)]
pub struct ExploreOutcome {
    /// The seed every case was drawn from (`case_seed`).
    pub seed: u64,
    /// Cases run to the end.
    pub cases: usize,
    /// The time it was given.
    pub budget: Duration,
    /// The first case the submission answered otherwise than the
    /// reference, shrunk; `None` when every case agreed.
    pub counterexample: Option<FailingCase>,
}

/// A generated case the submission gets wrong.
#[derive(Debug, Clone, PartialEq)]
pub struct FailingCase {
    /// Which of the exploration's cases found it (from 0): with the seed,
    /// `draw::case` draws it again.
    pub index: usize,
    /// The case, `[args, ops]`, shrunk while it still fails.
    pub case: Value,
    /// The reference's answers to its operations.
    pub expected: Vec<Value>,
    /// The submission's: as many, or fewer when its code raised.
    pub actual: Vec<Value>,
    /// What the submission's code raised, when it did.
    pub raised: Option<LearnerException>,
    /// Code in the submission's language that fails the same way.
    pub snippet: String,
}

/// The seed of the exploration's case `index`: each case is drawn from a
/// seed of its own, so that any one can be drawn again alone.
pub fn case_seed(seed: u64, index: usize) -> u64 {
    // SplitMix64's own step: seeds a stride apart give unrelated outputs.
    crate::generate::Rng(seed.wrapping_add((index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)))
        .next()
}

/// The seed exploring uses unless told another: the same cases on every
/// run, so that a learner's counterexample does not come and go.
pub const DEFAULT_EXPLORE_SEED: u64 = 1;

/// Draws the first case may take (a drawn case the loader refuses is
/// drawn again) past the budget.
const FIRST_DRAWS: usize = 16;

/// What to explore with: a seed and the time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explore {
    pub seed: u64,
    pub time: Duration,
}

/// Explores `submission` for `time`, each case with `limit` of CPU time;
/// the shrinking of a counterexample has a budget of its own from
/// `limits`, like every extra run.
pub fn explore(
    challenge: &Challenge,
    runner: &mut Runner<'_>,
    submission: &Submission,
    Explore { seed, time }: Explore,
    limit: Duration,
    limits: ExtraLimits,
) -> Result<ExploreOutcome, Error> {
    // The pairs that tie first: the grader's own search, not the
    // submission's time, and made once per challenge in a run.
    let ties = draw::ties(challenge);
    let budget = Budget::of(limits, time);
    let ops = Operations {
        model: challenge.model,
        allowed: &challenge.operations,
    };
    let mut exploration = ExploreOutcome {
        seed,
        cases: 0,
        budget: time,
        counterexample: None,
    };
    let mut index = 0;
    loop {
        // The first case runs whatever the machine's load: an exploration
        // asked for is never empty.
        let attempt = match budget.attempt(Duration::ZERO, limit) {
            Some(attempt) => attempt,
            None if exploration.cases == 0 && index < FIRST_DRAWS => limit,
            None => break,
        };
        let Some(input) = draw::case(challenge, case_seed(seed, index), &ties) else {
            break;
        };
        index += 1;
        let Ok(case) = Case::in_memory(&ops, "generated", "", input.clone(), None) else {
            continue;
        };
        let run = runner.run_input(&input, ReplyBound::for_case(&case), attempt)?;
        let found = match &run.outcome {
            CaseOutcome::Output(actual) => {
                let differs = first_divergence(&case, actual).is_some()
                    || actual.len() != case.expected.len();
                differs.then(|| (actual.clone(), None))
            }
            CaseOutcome::Raised { output, error } => Some((output.clone(), Some(error.clone()))),
            // A limit on a case this small, or a crash, is no answer to
            // compare: the suite's own limits judge those.
            _ => None,
        };
        exploration.cases += 1;
        let Some((actual, raised)) = found else {
            continue;
        };
        let shrunk = match raised {
            Some(_) => None,
            None => {
                let extras = Budget::start(limits, run.elapsed);
                crate::shrink::shrink(
                    challenge,
                    runner,
                    submission,
                    (&input, crate::shrink::Texts::Shortened),
                    (run.elapsed, limit),
                    &extras,
                )?
            }
        };
        let counterexample =
            match shrunk.and_then(|r| Some((answers(challenge, runner, &r.case, limit)?, r))) {
                Some(((expected, actual), reproducer)) => FailingCase {
                    index: index - 1,
                    case: reproducer.case,
                    expected,
                    actual,
                    raised: None,
                    snippet: reproducer.snippet,
                },
                None => {
                    let last = actual.len().min(case.expected.len().saturating_sub(1));
                    FailingCase {
                        index: index - 1,
                        snippet: crate::lang::snippet(
                            challenge,
                            submission,
                            &input,
                            &case.expected[last],
                        ),
                        case: input,
                        expected: case.expected,
                        actual,
                        raised,
                    }
                }
            };
        exploration.counterexample = Some(counterexample);
        break;
    }
    Ok(exploration)
}

/// The reference's answers to `input` and the submission's, when it
/// answers every operation.
fn answers(
    challenge: &Challenge,
    runner: &mut Runner<'_>,
    input: &Value,
    limit: Duration,
) -> Option<(Vec<Value>, Vec<Value>)> {
    let ops = Operations {
        model: challenge.model,
        allowed: &challenge.operations,
    };
    let case = Case::in_memory(&ops, "generated", "", input.clone(), None).ok()?;
    let run = runner
        .run_input(input, ReplyBound::for_case(&case), limit)
        .ok()?;
    match run.outcome {
        CaseOutcome::Output(actual) => Some((case.expected, actual)),
        _ => None,
    }
}
