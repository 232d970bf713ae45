//! Diagnose: name the learner's mistake. A failing submission's cases are
//! replayed on every known mistake of the challenge; a mistake that
//! reproduces the submission on every failing case it can be compared on
//! is named, preferring one that also passes where the submission passed.
//! When none does, two (or three) mistakes made together may be; failing
//! that, the closest is shown with its agreement rate, on enough evidence
//! only.

use crate::challenge::{Case, Challenge};
use crate::judge::same;
use crate::run::CaseOutcome;
use reference::mistakes::{Made, VariantRun};
use reference::{Effect, Syntax};

use serde::Serialize;
use serde_json::Value;

mod nondeterminism;
mod property;
pub use nondeterminism::{ChangedAnswer, RerunDifferences, first_difference};
pub use property::{
    NodeChanges, Property, PropertyEvidence, PropertyFinding, Tie, order_hint, property_hint,
};

/// What the submission did on one case, as far as a mistake can reproduce
/// it.
#[derive(Debug, Clone, PartialEq)]
pub enum Behaviour {
    /// Answered every operation.
    Output(Vec<Value>),
    /// Raised at `at`, having answered `output` before.
    Raised { output: Vec<Value>, at: usize },
}

impl Behaviour {
    /// The behaviour in `outcome`, if a mistake could reproduce it (time and
    /// memory limits, crashes and load failures cannot be compared). An
    /// exception that is a limit (a MemoryError, a write past the file size
    /// limit), judged as that limit, is not something the code chose to
    /// raise: it is no behaviour either.
    pub fn of(outcome: &CaseOutcome) -> Option<Behaviour> {
        match outcome {
            CaseOutcome::Output(output) => Some(Behaviour::Output(output.clone())),
            CaseOutcome::Raised { error, .. } if crate::judge::raised_at_a_limit(error) => None,
            CaseOutcome::Raised { output, error } => {
                let at = error.op_index?.op()?;
                Some(Behaviour::Raised {
                    output: output.clone(),
                    at,
                })
            }
            _ => None,
        }
    }

    fn reproduced_by(&self, run: &VariantRun) -> bool {
        let all_same = |a: &[Value], b: &[Value]| {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y))
        };
        match self {
            Behaviour::Output(output) => run.raised_at.is_none() && all_same(output, &run.output),
            Behaviour::Raised { output, at } => {
                run.raised_at == Some(*at) && all_same(output, &run.output)
            }
        }
    }
}

/// A known mistake by name, in the form it was made.
#[derive(Debug, Clone, PartialEq)]
pub struct MistakeMatch {
    pub id: String,
    pub title: String,
    pub explanation: String,
    pub hint: String,
    /// The variation that matched (a separator, say), when there are several.
    pub form: Option<String>,
}

impl MistakeMatch {
    /// `made`, told in the words for code of `syntax`.
    fn of(made: Made, syntax: Syntax) -> MistakeMatch {
        MistakeMatch {
            id: made.mistake.id.to_owned(),
            title: made.mistake.title.to_owned(),
            explanation: made.mistake.explanation.get(syntax).to_owned(),
            hint: made.mistake.hint.get(syntax).to_owned(),
            form: made.form_label().map(|f| format!("{f:?}")),
        }
    }
}

/// A named mistake in a report.
#[derive(Debug, Clone, PartialEq)]
pub struct MistakeFinding {
    pub id: String,
    pub title: String,
    pub explanation: String,
    pub hint: String,
    /// The variation that matched (a separator, say), when there are several.
    pub form: Option<String>,
    /// The other mistakes made together with this one (one or two), when
    /// only all of them together explain the answers; empty otherwise.
    pub with: Vec<MistakeMatch>,
    /// When the cases cannot tell which of several mistakes of one knob
    /// was made, each of them, and the mistake reported is their family
    /// (its id is no mistake's); empty otherwise.
    pub candidates: Vec<MistakeMatch>,
    /// `true` when it reproduces every failing case; `false` for the
    /// closest mistake when none does.
    pub exact: bool,
    /// Failing cases it reproduces, of those compared.
    pub reproduced: usize,
    pub compared: usize,
}

/// One case with what the submission did and whether it passed.
#[derive(Debug, Clone)]
pub struct Observed<'a> {
    pub case: &'a Case,
    pub behaviour: Option<Behaviour>,
    pub passed: bool,
}

/// What diagnosis found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Diagnosis {
    /// The mistake named, exactly or as the closest.
    pub mistake: Option<MistakeFinding>,
    /// The submission gave wrong answers and no known mistake explains
    /// them well enough to be named.
    pub unexplained: bool,
}

/// The mistake that explains `observed`, by the evidence rule
/// (docs/diagnosis.md):
/// - named **exactly** when it reproduces every failing test: the same
///   answers, and a raise only where the submission raised, after the
///   same answers. A failing test that hit a limit or crashed gave no
///   answers to reproduce, so it is never reproduced. Of those, the one
///   that also passes the most tests the submission passed; none when
///   two that make different solutions pass as many;
/// - when no one mistake is exact, **two made together** (or, when no two
///   are, three) are named when together they reproduce every failing
///   test and pass every test the submission passed (a stricter rule than
///   for one: there are many more combinations than mistakes to match by
///   chance);
/// - named as the **closest** when it reproduces more than half of the
///   failing tests and more than any other mistake does;
/// - otherwise none is named, and `unexplained` says so when the
///   submission gave wrong answers at all.
///
/// The mistake is told in the words for code of `syntax`, the learner's.
///
/// `own` holds the values of the learner's own h32 on the texts the h32
/// check asked (empty without one): a mistake of the hash, alone or made
/// with others, is a candidate only if its hash gives those values too (a
/// router that fails like a missing last shift, from an h32 whose values
/// show the shift is there, made another mistake).
pub fn diagnose(
    challenge: &Challenge,
    observed: &[&Observed<'_>],
    syntax: Syntax,
    own: &[(&str, Option<u32>)],
) -> Diagnosis {
    let failing_all = observed.iter().filter(|o| !o.passed).count();
    let mut failing: Vec<(&Case, &Behaviour)> = observed
        .iter()
        .filter(|o| !o.passed)
        .filter_map(|o| Some((o.case, o.behaviour.as_ref()?)))
        .collect();
    // The smallest first: a mistake that is not the one made nearly always
    // misses a small one, and is then never replayed on the large ones.
    failing.sort_by_key(|(case, _)| replay_cost(case));
    if failing.is_empty() {
        return Diagnosis::default();
    }
    let passing: Vec<&Case> = observed
        .iter()
        .filter(|o| o.passed)
        .map(|o| o.case)
        .collect();
    let catalogue = challenge.model.catalogue;
    let reproduces = |made: Made, (case, behaviour): &(&Case, &Behaviour)| {
        behaviour.reproduced_by(&catalogue.run(&[made], &case.args, &case.ops))
    };
    // The mistakes that reproduce every failing test, smallest first. Only
    // when none does is each mistake counted on every test, for the
    // closest.
    // The mistakes the learner's own h32 does not rule out.
    let admissible: Vec<Made> = catalogue
        .each()
        .filter(|&made| catalogue.hash_fits(&[made], own))
        .collect();
    let every: Vec<Made> = if failing.len() == failing_all {
        admissible
            .iter()
            .copied()
            .filter(|&made| failing.iter().all(|f| reproduces(made, f)))
            .collect()
    } else {
        Vec::new()
    };
    let passes = |made: Made| {
        passing
            .iter()
            .filter(|case| {
                let run = catalogue.run(&[made], &case.args, &case.ops);
                Behaviour::Output(case.expected.clone()).reproduced_by(&run)
            })
            .count()
    };
    // (mistake, failing reproduced, passing also passed), in the
    // catalogue's order.
    let scored: Vec<(Made, usize, usize)> = if every.is_empty() {
        admissible
            .iter()
            .copied()
            .map(|made| {
                (
                    made,
                    failing.iter().filter(|f| reproduces(made, f)).count(),
                    0,
                )
            })
            .collect()
    } else {
        every
            .into_iter()
            .map(|made| (made, failing_all, passes(made)))
            .collect()
    };
    let exact = scored
        .iter()
        .enumerate()
        .filter(|(_, (_, reproduced, _))| *reproduced == failing_all)
        // Most passing cases kept; the catalogue's order breaks ties.
        .max_by_key(|(at, (_, _, passes))| (*passes, std::cmp::Reverse(*at)))
        .map(|(_, hit)| hit);
    let catalogue_alike = |a: Made, b: Made| catalogue.alike(&[a], &[b]);
    if let Some((_, _, passes)) = exact {
        // One mistake per solution that explains the answers as well, in
        // the catalogue's order.
        let mut candidates: Vec<Made> = Vec::new();
        for (other, reproduced, p) in &scored {
            if *reproduced == failing_all
                && p == passes
                && !candidates.iter().any(|c| catalogue_alike(*c, *other))
            {
                candidates.push(*other);
            }
        }
        if candidates.len() > 1 {
            // Mistakes that make different solutions explain the answers
            // equally well: they do not say which was made, and a wrong
            // name is worse than none. When all of them turn one knob,
            // that knob is what the answers say, and it is named as such.
            return Diagnosis {
                mistake: family_report(catalogue, &candidates, failing_all, syntax),
                unexplained: false,
            };
        }
    }
    let (named, with, reproduced) = if let Some((made, reproduced, _)) = exact {
        (*made, Vec::new(), *reproduced)
    } else if let Some(made) = (failing.len() == failing_all)
        .then(|| together(challenge, &failing, &passing, own, TOGETHER_SEARCH_SUITES))
        .flatten()
    {
        let with = made[1..]
            .iter()
            .map(|m| MistakeMatch::of(*m, syntax))
            .collect();
        (made[0], with, failing_all)
    } else if let Some((made, reproduced, _)) = closest(&scored, failing_all) {
        (made, Vec::new(), reproduced)
    } else {
        return Diagnosis {
            mistake: None,
            unexplained: true,
        };
    };
    let MistakeMatch {
        id,
        title,
        explanation,
        hint,
        form,
    } = MistakeMatch::of(named, syntax);
    Diagnosis {
        mistake: Some(MistakeFinding {
            id,
            title,
            explanation,
            hint,
            form,
            with,
            candidates: Vec::new(),
            exact: reproduced == failing_all,
            reproduced,
            compared: failing_all,
        }),
        unexplained: false,
    }
}

/// The family of `candidates`, mistakes that each explain the answers as
/// well as the others, as the mistake reported: `None` when they do not
/// all turn one knob. Its hint is theirs when they share one, else the
/// family's own.
fn family_report(
    catalogue: &reference::mistakes::Catalogue,
    candidates: &[Made],
    failing: usize,
    syntax: Syntax,
) -> Option<MistakeFinding> {
    let family = catalogue.family(candidates)?;
    let named: Vec<MistakeMatch> = candidates
        .iter()
        .map(|m| MistakeMatch::of(*m, syntax))
        .collect();
    let hint = match named.iter().all(|n| n.hint == named[0].hint) {
        true => named[0].hint.clone(),
        false => family.hint.get(syntax).to_owned(),
    };
    let each: Vec<String> = named
        .iter()
        .map(|n| match &n.form {
            Some(form) => format!("{} ({form})", n.title),
            None => n.title.clone(),
        })
        .collect();
    Some(MistakeFinding {
        id: family.id.to_owned(),
        title: family.title.to_owned(),
        explanation: format!(
            "Your answers fit each of these equally, and these tests cannot tell which you made: {}.",
            each.join("; or ")
        ),
        hint,
        form: None,
        with: Vec::new(),
        candidates: named,
        exact: true,
        reproduced: failing,
        compared: failing,
    })
}

/// How many replays of the whole suite the search for mistakes made
/// together may cost. There are hundreds of pairs and triples: without a
/// bound, a submission failing only a large case would replay it hundreds
/// of times. The bound counts work, not time, so the same files always get
/// the same diagnosis.
const TOGETHER_SEARCH_SUITES: u64 = 20;

/// The work of replaying `case` once: each operation may look at every
/// node there can be (those it starts with and those added), times the
/// points per node of a ring (`k`); an operation with a count (`load(n)`,
/// `top(key, n)`) does that many times more.
fn replay_cost(case: &Case) -> u64 {
    let count = |v: &Value| v.as_u64().unwrap_or(0);
    let started = case.input[0][0].as_array().map_or(0, Vec::len) as u64;
    let added = case
        .ops
        .iter()
        .filter(|op| op.signature.effect == Effect::Adds)
        .count() as u64;
    let k = count(&case.input[0][1]).max(1);
    let each = (started + added + 1).saturating_mul(k);
    case.input[1]
        .as_array()
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .map(|op| {
            let times = op
                .as_array()
                .map_or(1, |op| op.iter().map(count).sum::<u64>().max(1));
            each.saturating_mul(times)
        })
        .fold(0, u64::saturating_add)
}

/// The mistakes that made together reproduce every `failing` test and
/// pass every `passing` one: two ([`Catalogue::pairs`]), or, when no two
/// do, three ([`Catalogue::triples`]). `None` when two different
/// solutions of the same size both fit, and when the search would cost
/// more than `suites` replays of the suite ([`TOGETHER_SEARCH_SUITES`])
/// before it has tried every pair, or every triple.
///
/// [`Catalogue::pairs`]: reference::mistakes::Catalogue::pairs
/// [`Catalogue::triples`]: reference::mistakes::Catalogue::triples
fn together(
    challenge: &Challenge,
    failing: &[(&Case, &Behaviour)],
    passing: &[&Case],
    own: &[(&str, Option<u32>)],
    suites: u64,
) -> Option<Vec<Made>> {
    let catalogue = challenge.model.catalogue;
    // The smallest failing cases first: most combinations fail one of them.
    let mut failing = failing.to_vec();
    failing.sort_by_key(|(case, _)| replay_cost(case));
    let suite: u64 = failing
        .iter()
        .map(|(case, _)| replay_cost(case))
        .chain(passing.iter().map(|case| replay_cost(case)))
        .sum();
    let mut search = Search {
        challenge,
        failing: &failing,
        passing,
        budget: suite.saturating_mul(suites),
    };
    // Combinations the learner's own h32 rules out are not tried.
    let mut pairs = catalogue.pairs();
    pairs.retain(|m| catalogue.hash_fits(m, own));
    match search.first_fit(pairs)? {
        Some(pair) => Some(pair.to_vec()),
        None => {
            let mut triples = catalogue.triples();
            triples.retain(|m| catalogue.hash_fits(m, own));
            search.first_fit(triples)?.map(|t| t.to_vec())
        }
    }
}

/// A search for mistakes made together, and the work it may still do.
struct Search<'a> {
    challenge: &'a Challenge,
    failing: &'a [(&'a Case, &'a Behaviour)],
    passing: &'a [&'a Case],
    budget: u64,
}

impl Search<'_> {
    /// The first of `combinations` (in the catalogue's order of those that
    /// make one solution) that reproduces every failing test and passes
    /// every passing one: `Some(None)` when none does, `None` when two
    /// different solutions do, or the budget ran out first.
    fn first_fit<const N: usize>(
        &mut self,
        combinations: Vec<[Made; N]>,
    ) -> Option<Option<[Made; N]>> {
        let catalogue = self.challenge.model.catalogue;
        let mut found: Option<[Made; N]> = None;
        'combinations: for made in combinations {
            for (case, behaviour) in self.failing {
                if !behaviour.reproduced_by(&self.replay(&made, case)?) {
                    continue 'combinations;
                }
            }
            for case in self.passing {
                let run = self.replay(&made, case)?;
                if !Behaviour::Output(case.expected.clone()).reproduced_by(&run) {
                    continue 'combinations;
                }
            }
            match found {
                // Two other solutions that both fit: the answers do not say
                // which mistakes were made, and a wrong name is worse than
                // none.
                Some(first) if !catalogue.alike(&first, &made) => return None,
                Some(_) => {}
                None => found = Some(made),
            }
        }
        Some(found)
    }

    /// Replays `case` on a solution that makes `made`, if the budget
    /// allows.
    fn replay(&mut self, made: &[Made], case: &Case) -> Option<VariantRun> {
        self.budget = self.budget.checked_sub(replay_cost(case))?;
        Some(
            self.challenge
                .model
                .catalogue
                .run(made, &case.args, &case.ops),
        )
    }
}

/// The closest mistake: its best form reproduces more than half of the
/// `failing` tests and more than any other mistake's best form.
fn closest(scored: &[(Made, usize, usize)], failing: usize) -> Option<(Made, usize, usize)> {
    // The catalogue's order breaks ties.
    let (_, best) = scored
        .iter()
        .enumerate()
        .max_by_key(|(at, (_, reproduced, _))| (*reproduced, std::cmp::Reverse(*at)))?;
    let runner_up = scored
        .iter()
        .filter(|(m, ..)| m.mistake.id != best.0.mistake.id)
        .map(|(_, reproduced, _)| *reproduced)
        .max()
        .unwrap_or(0);
    (2 * best.1 > failing && best.1 > runner_up).then_some(*best)
}

/// One mistake's audit: the tests that catch it.
#[derive(Debug, Clone, Serialize)]
pub struct AuditRow {
    pub id: String,
    pub form: Option<String>,
    pub title: String,
    /// `group/name` of every test the mistake fails.
    pub caught_by: Vec<String>,
}

/// Runs every mistake (in every form) on every case of `cases`.
pub fn audit(challenge: &Challenge, cases: &[&Case]) -> Vec<AuditRow> {
    let catalogue = challenge.model.catalogue;
    let mut rows = Vec::new();
    for made in catalogue.each() {
        let caught_by = cases
            .iter()
            .filter(|case| {
                let run = catalogue.run(&[made], &case.args, &case.ops);
                !Behaviour::Output(case.expected.clone()).reproduced_by(&run)
            })
            .map(|case| case.id().to_string())
            .collect();
        rows.push(AuditRow {
            id: made.mistake.id.to_owned(),
            form: made.form_label().map(|f| format!("{f:?}")),
            title: made.mistake.title.to_owned(),
            caught_by,
        });
    }
    rows
}

/// Routes between two nodes whose answer went against the pinned scores,
/// for a submission without `h32` to compare: with two nodes and two
/// different scores, nothing but the hash decides, so such answers say the
/// submission's scores do not follow h32 as pinned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct H32Finding {
    /// Two-node routes answered with the other node.
    pub against: usize,
    /// Two-node routes answered at all.
    pub asked: usize,
}

/// The fewest routes against the pinned scores that make a hint: one could
/// be a tie rule or an off-by-one, three in two-node routes are the hash.
const HASH_HINT_EVIDENCE: usize = 3;

/// The hint, when the answers of `observed` went against the pinned scores
/// in at least three two-node routes that `closest`, the mistake named as
/// the closest if one is, does not answer alike (the lowest score wins
/// every two-node route against the pinned scores, with the pinned hash).
/// The caller gives it only to a submission without `h32` and no exactly
/// named mistake.
pub fn hash_hint(
    challenge: &Challenge,
    observed: &[&Observed<'_>],
    closest: Option<&MistakeFinding>,
) -> Option<H32Finding> {
    let catalogue = challenge.model.catalogue;
    let closest = closest.and_then(|named| {
        catalogue.each().find(|m| {
            m.mistake.id == named.id && m.form_label().map(|f| format!("{f:?}")) == named.form
        })
    });
    let (mut asked, mut against) = (0, 0);
    for o in observed {
        let answers = match &o.behaviour {
            Some(Behaviour::Output(output)) | Some(Behaviour::Raised { output, .. }) => output,
            None => continue,
        };
        let explained = closest.map(|made| catalogue.run(&[made], &o.case.args, &o.case.ops));
        // One replay gives every operation's scores.
        let explanations = challenge.model.explanations(&o.case.args, &o.case.ops);
        for (at, (answer, explanation)) in answers.iter().zip(explanations).enumerate() {
            let Some(reference::Explanation::Scores(table)) = explanation else {
                continue;
            };
            let [first, second] = table.rows.as_slice() else {
                continue;
            };
            if first.h32 == second.h32 || table.rows.iter().any(|r| r.weighted.is_some()) {
                // A tie goes by the names; a weight changes the scores.
                continue;
            }
            asked += 1;
            let by_mistake = explained.as_ref().and_then(|run| run.output.get(at));
            if answer.as_str() == Some(second.node.as_str()) && by_mistake != Some(answer) {
                against += 1;
            }
        }
    }
    (against >= HASH_HINT_EVIDENCE).then_some(H32Finding { against, asked })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The shipped rendezvous-router suite, answered by a solution that
    /// makes `made`.
    fn answered_by(challenge: &Challenge, suite: &[&Case], made: &[Made]) -> Vec<Behaviour> {
        suite
            .iter()
            .map(|case| {
                let run = challenge.model.catalogue.run(made, &case.args, &case.ops);
                match run.raised_at {
                    None => Behaviour::Output(run.output),
                    Some(at) => Behaviour::Raised {
                        output: run.output,
                        at,
                    },
                }
            })
            .collect()
    }

    /// A shipped challenge and its whole suite.
    fn shipped(id: &str) -> (Challenge, crate::challenge::Suite) {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        let challenge = Challenge::load(&root, id).unwrap();
        let suite = challenge
            .load_suite(&root.join(id).join("tests"), true)
            .unwrap();
        (challenge, suite)
    }

    /// `cases` with the `behaviours` a solution showed on them.
    fn observed<'a>(cases: &[&'a Case], behaviours: &'a [Behaviour]) -> Vec<Observed<'a>> {
        cases
            .iter()
            .zip(behaviours)
            .map(|(case, behaviour)| Observed {
                case,
                passed: matches!(behaviour, Behaviour::Output(o) if *o == case.expected),
                behaviour: Some(behaviour.clone()),
            })
            .collect()
    }

    /// The failing tests with what the submission did, and the passing
    /// ones.
    fn split<'a>(observed: &'a [Observed<'a>]) -> (Vec<(&'a Case, &'a Behaviour)>, Vec<&'a Case>) {
        let failing = observed
            .iter()
            .filter(|o| !o.passed)
            .map(|o| (o.case, o.behaviour.as_ref().unwrap()))
            .collect();
        let passing = observed
            .iter()
            .filter(|o| o.passed)
            .map(|o| o.case)
            .collect();
        (failing, passing)
    }

    /// The ids of what `diagnose` names exactly, in order.
    fn named_exactly(challenge: &Challenge, observed: &[Observed<'_>]) -> Vec<String> {
        let named = diagnose(
            challenge,
            &observed.iter().collect::<Vec<_>>(),
            Syntax::Python,
            &[],
        )
        .mistake
        .unwrap();
        assert!(named.exact);
        std::iter::once(named.id)
            .chain(named.with.into_iter().map(|w| w.id))
            .collect()
    }

    #[test]
    fn three_mistakes_made_together_are_named_when_no_two_are() {
        let (challenge, suite) = shipped("vnode-ring");
        let catalogue = challenge.model.catalogue;
        let made = |id: &str, form: usize| {
            catalogue
                .each()
                .find(|m| m.mistake.id == id && m.form == form)
                .unwrap()
        };
        // bisect_right, a clamp to the last point, deleting while
        // iterating.
        let three = [
            made("strictly-after", 0),
            made("no-wrap", 2),
            made("partial-removal", 1),
        ];
        let cases: Vec<&Case> = suite.cases().collect();
        let behaviours = answered_by(&challenge, &cases, &three);
        let observed = observed(&cases, &behaviours);
        assert_eq!(
            named_exactly(&challenge, &observed),
            ["strictly-after", "no-wrap", "partial-removal"]
        );
        // No two of them explain the answers: each pair leaves a failing
        // test unexplained or fails a test the three pass.
        for pair in [
            [three[0], three[1]],
            [three[0], three[2]],
            [three[1], three[2]],
        ] {
            let by_two = answered_by(&challenge, &cases, &pair);
            assert_ne!(by_two, behaviours);
        }
        // With the work of one replay of the suite, the search stops before
        // it has tried every combination, and names none.
        let (failing, passing) = split(&observed);
        assert!(together(&challenge, &failing, &passing, &[], 1).is_none());
    }

    #[test]
    fn two_mistakes_made_together_are_named_within_the_search_budget() {
        let (challenge, suite) = shipped("rendezvous-router");
        let catalogue = challenge.model.catalogue;
        let made = |id: &str| catalogue.each().find(|m| m.mistake.id == id).unwrap();
        let pair = [made("lowest-score"), made("no-separator")];
        let cases: Vec<&Case> = suite.cases().collect();
        let behaviours = answered_by(&challenge, &cases, &pair);
        let observed = observed(&cases, &behaviours);
        assert_eq!(
            named_exactly(&challenge, &observed),
            ["lowest-score", "no-separator"]
        );
        // With no budget the search stops before it starts, and nothing
        // is named exactly.
        let (failing, passing) = split(&observed);
        assert!(together(&challenge, &failing, &passing, &[], 0).is_none());
        assert!(together(&challenge, &failing, &passing, &[], TOGETHER_SEARCH_SUITES).is_some());
    }
}
