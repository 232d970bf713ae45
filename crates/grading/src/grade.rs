//! Drives the pipeline for a set of submissions: run every case, judge it,
//! explain the failures, and return each submission's records
//! ([`Graded`]), from which the `report` crate builds the report.

use crate::challenge::{Case, Challenge, Group, Suite};
use crate::diagnose;
use crate::error::{Error, Starved};
use crate::explain;
use crate::extra::{Budget, ExtraLimits};
use crate::judge::{self, Verdict};
use crate::lang::{Language, Submission};
use crate::protocol::{At, ErrorKind};
use crate::run::{CaseOutcome, Runner};
use crate::tested::Tested;
use sandbox::Environment;

mod api;
pub mod key;
mod prefix;
mod second_opinion;
mod two_phases;

pub use crate::tested::TimeShare;
use api::api_gap;
pub use api::{ApiEvidence, ApiGap, Shape};
pub use prefix::PREFIX_REPLAYS;
use std::time::Duration;

/// The most a submission's h32 may take on the strings checked.
const HASH_LIMIT: Duration = Duration::from_secs(5);

/// Who reads what grading finds decides which cases the extra runs (the
/// shrunk reproducer, the order check) may start from. Its serde is also a
/// results folder's: the run key (run.json, and the digest reports record)
/// and the recorded command hold it.
pub use vocabulary::Audience;

/// One grading run's fixed inputs: grade submissions one by one (from as
/// many threads as wanted), each into a [`Graded`].
pub struct Grading<'a> {
    pub challenge: &'a Challenge,
    /// Where the challenge came from: a folder, or the grader's own.
    pub source: &'a crate::challenge::Source,
    pub suite: &'a Suite,
    pub env: &'a Environment,
    pub audience: Audience,
    /// The time extra runs (shrinking, the order and h32 checks) get.
    pub extras: ExtraLimits,
    /// When grading started, in milliseconds since the epoch.
    pub started_at_ms: u64,
    /// What is derived from the suite once, for every submission.
    pub derived: Derived,
    /// Told of every case as its first run ends.
    pub observer: Option<&'a dyn Observer>,
    /// Generated cases to explore a submission with once it passes every
    /// test the reader sees (`--explore`).
    pub explore: Option<crate::explore::Explore>,
}

/// Told of each case as its first run ends (not of the extra runs after
/// it), from whichever thread grades it: a progress line that moves while
/// a submission runs, a screen that shows the first failure before the
/// rest is graded.
pub trait Observer: Sync {
    /// A case of the submission named `name` ran, as `tested` records it.
    fn ran(&self, name: &str, tested: &Tested<'_>);
}

/// One case's slot in a grading, in the suite's order: its record, once
/// it ran.
type Slot<'c> = Option<Tested<'c>>;

/// How a hidden phase ended: graded (or failed), or starved by the
/// machine, with the grading to run that phase again.
pub enum Hidden<'a> {
    Graded(Box<Result<Graded<'a>, Error>>),
    Starved(Box<Pending<'a>>, Starved),
}

/// A submission whose visible phase is graded ([`Grading::grade_visible`]),
/// waiting for its hidden phase ([`Grading::grade_hidden`]): no session of
/// it is running.
pub struct Pending<'a> {
    name: String,
    submission: Submission,
    runner: Runner<'a>,
    ran: Vec<Slot<'a>>,
    h32: Option<explain::H32Check>,
    property: Option<diagnose::PropertyFinding>,
    reproducer: Option<crate::shrink::ShrunkCase>,
    explored: Option<crate::explore::ExploreOutcome>,
    hello: Option<crate::protocol::Hello>,
    budget: Budget,
    opinion: second_opinion::SecondOpinion,
    /// The budget of extra runs, when it cut the visible phase's second
    /// opinion short: all a learner may be told of it.
    visible_cut_short: Option<Duration>,
}

/// Facts of a run's suite and settings that every submission's grading
/// reads: computed on first use, once per run, from any thread; and when
/// its last visible phase ended.
#[derive(Debug, Default)]
pub struct Derived {
    run_key: std::sync::OnceLock<key::RunKey>,
    ties: std::sync::OnceLock<Vec<Vec<Tie>>>,
    /// When the last visible phase of the run ended (0: none did yet).
    visible_until: std::sync::atomic::AtomicU64,
}

impl Grading<'_> {
    /// The run key: everything a result depends on besides the submission.
    pub fn run_key(&self) -> &key::RunKey {
        self.derived.run_key.get_or_init(|| key::RunKey::of(self))
    }

    /// When the run's last visible phase ended, in milliseconds since the
    /// epoch (`None` before one did): where a learner's report ends its
    /// run, since the hidden phases' times are not theirs to see.
    pub fn visible_until_ms(&self) -> Option<u64> {
        let ms = self
            .derived
            .visible_until
            .load(std::sync::atomic::Ordering::Relaxed);
        (ms != 0).then_some(ms)
    }

    /// For each case of the suite, in its order, the tie that decides each
    /// of its answers ([`reference::ModelSpec::ties`]): the answers a
    /// salted hash or a set's order changes.
    pub(crate) fn ties(&self) -> &[Vec<Tie>] {
        self.derived.ties.get_or_init(|| {
            self.suite
                .groups
                .iter()
                .flat_map(|g| &g.cases)
                .map(|case| self.challenge.model.ties(&case.args, &case.ops))
                .collect()
        })
    }
}

/// The nodes of the tie that decides an answer (`None`: no tie does).
pub(crate) type Tie = Option<Vec<String>>;

/// The time each group's cases get in one phase of a grading. Once a case
/// runs past its group's limit (either clock), the cases after it in that
/// group share one more limit of CPU time and one more wall-clock
/// backstop between them (both spent by the wall-clock time they take),
/// each getting what is left of each but never less than a tenth of the
/// limit of CPU time and a fifth of it of wall-clock time: code that never
/// ends, or that waits (a sleep in every case, or in the constructor),
/// costs about two backstops a group, not one per case, while a case the
/// submission answers quickly still passes (it takes a little of the
/// shared time, and a tenth of the limit is plenty for it).

#[derive(Debug, Default)]
pub(crate) struct GroupClock {
    /// Per group (by name) that hit its limit: the shared time left, of
    /// CPU time and of wall-clock time.
    left: std::collections::HashMap<String, TimeShare>,
}

impl GroupClock {
    /// The share of `group`'s next case when it is a share of the time the
    /// group shares; `None` for the group's full limit and backstop.
    fn limit(&self, group: &Group) -> Option<TimeShare> {
        let least = TimeShare::least(group.time_limit);
        self.left.get(&group.name).map(|left| {
            let cpu = left.cpu.max(least.cpu).min(group.time_limit);
            let wall = left
                .wall
                .max(least.wall)
                .min(crate::run::backstop(cpu))
                .max(cpu);
            TimeShare { cpu, wall }
        })
    }

    /// Counts `tested`, a case of `group` that ran.
    fn ran(&mut self, group: &Group, tested: &Tested<'_>) {
        match self.left.get_mut(&group.name) {
            Some(left) => {
                left.cpu = left.cpu.saturating_sub(tested.time);
                left.wall = left.wall.saturating_sub(tested.time);
            }
            None if tested.judgement.verdict == Verdict::TimeLimit => {
                let share = TimeShare {
                    cpu: group.time_limit,
                    wall: crate::run::backstop(group.time_limit),
                };
                self.left.insert(group.name.clone(), share);
            }
            None => {}
        }
    }
}

/// Now, in milliseconds since the epoch.
pub fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as u64)
}

impl<'a> Grading<'a> {
    /// The hidden phase of a grading begun by [`Grading::grade_visible`],
    /// and the submission as graded.
    pub fn grade_hidden(&self, pending: Pending<'a>) -> Result<Graded<'a>, Error> {
        match self.grade_hidden_or_starved(pending) {
            Hidden::Graded(graded) => *graded,
            Hidden::Starved(_, why) => Err(Error::Busy(why)),
        }
    }

    /// Like [`Grading::grade_hidden`], but a hidden phase the machine
    /// starved hands its grading back, to run that phase again (it runs
    /// every hidden case and its replays afresh): the visible phase stands,
    /// and is never run again after a hidden one.
    pub fn grade_hidden_or_starved(&self, mut pending: Pending<'a>) -> Hidden<'a> {
        match self.hidden_phase(&mut pending) {
            Ok(()) => Hidden::Graded(Box::new(Ok(self.graded(pending)))),
            Err(Error::Busy(why)) => Hidden::Starved(Box::new(pending), why),
            Err(e) => Hidden::Graded(Box::new(Err(e))),
        }
    }

    /// What a grading whose phases have run found.
    fn graded(&self, pending: Pending<'a>) -> Graded<'a> {
        let challenge = self.challenge;
        let cases = self.cases();
        let Pending {
            name,
            submission,
            runner,
            ran,
            h32,
            property,
            reproducer,
            explored,
            hello,
            budget: _,
            opinion,
            visible_cut_short,
        } = pending;
        let records: Vec<Tested<'a>> = ran.into_iter().flatten().collect();
        // The diagnosis reads what each case the reader may see did in the
        // graded run: a mistake, a hint or a finding worked out from hidden
        // answers would tell a learner something of them.
        let observed: Vec<&diagnose::Observed<'_>> = records
            .iter()
            .filter(|t| self.shown(t.group))
            .map(|t| &t.observed)
            .collect();
        let nondeterministic = opinion.finding(&cases, submission.language, |g| self.shown(g));
        let second_opinion_cut_short = visible_cut_short;
        // Answers that change between runs are explained by that, not by a
        // mistake that one run's answers happen to match.
        let own = h32.as_ref().map(explain::H32Check::own).unwrap_or_default();
        let diagnosis = if nondeterministic.is_none() {
            diagnose::diagnose(
                challenge,
                &observed,
                crate::lang::syntax(submission.language),
                &own,
            )
        } else {
            diagnose::Diagnosis::default()
        };
        // The hello of the visible phase: a session of the hidden phase
        // may have learnt what it must not say.
        let hello = hello.as_ref();
        let exact = diagnosis.mistake.as_ref().is_some_and(|m| m.exact);
        // Answers that change between runs have their cause named already.
        let hash_hint = (h32.is_none()
            && !exact
            && nondeterministic.is_none()
            && hello.is_some_and(|h| !h.h32))
        .then(|| diagnose::hash_hint(challenge, &observed, diagnosis.mistake.as_ref()))
        .flatten();
        // The hello lists methods from the class; one set on the instance
        // (a class field, an attribute set in __init__) is not there. A gap
        // of missing operations alone stands only on evidence the reader
        // may see: an operation really was missing, or no Router could even
        // be built (another challenge's takes other arguments), so none of
        // its operations ever ran. A Router shaped as another challenge's
        // is told so when a test the reader sees failed.
        let errors: Vec<_> = records
            .iter()
            .map(|t| {
                self.shown(t.group)
                    .then(|| t.deciding().judgement.error())
                    .flatten()
            })
            .collect();
        let missed = errors
            .iter()
            .any(|e| e.is_some_and(|e| e.kind == ErrorKind::MissingMethod))
            || (!errors.is_empty()
                && errors
                    .iter()
                    .all(|e| e.is_some_and(|e| e.op_index == Some(At::Constructor))));
        let failed = records
            .iter()
            .filter(|t| self.shown(t.group))
            .any(|t| t.deciding().judgement.verdict != Verdict::Accepted);
        let shape = || match hello.and_then(Shape::of_hello) {
            Some(shape) => Some(shape),
            None => crate::lang::declared_shape(&submission),
        };
        // What the challenge's catalogue explains is named whatever the
        // Router's shape: a shape is the learner's to choose, and a helper
        // named as another challenge's operation must not hide a mistake.
        let explained = diagnosis.mistake.is_some()
            || property.is_some()
            || h32.as_ref().is_some_and(|c| c.first_mismatch.is_some());
        let api_gap = failed
            .then(shape)
            .flatten()
            .and_then(|s| api_gap(challenge, &s))
            .filter(|g| g.other_challenge.is_some() || missed)
            .map(|g| ApiGap { explained, ..g });
        // A Router of another challenge that nothing here explains is told
        // which, alone: a hint of this one would coach it towards the
        // wrong challenge.
        let (mut diagnosis, hash_hint, property) = match &api_gap {
            Some(g) if g.other_challenge.is_some() && !explained => {
                (diagnose::Diagnosis::default(), None, None)
            }
            _ => (diagnosis, hash_hint, property),
        };
        // The starter as shipped fails for what is still to write, which
        // no mistake explains: it is told so, not that nothing does.
        let untouched_starter = records
            .iter()
            .any(|t| t.deciding().judgement.verdict != Verdict::Accepted)
            && submission.is_untouched_starter(challenge);
        if untouched_starter {
            diagnosis.unexplained = false;
        }
        Graded {
            name,
            path: submission.path.display().to_string(),
            language: submission.language,
            runtime: hello.map(|h| h.runtime.clone()).filter(|r| !r.is_empty()),
            api: hello.map(|h| h.api.clone()).filter(|a| !a.is_empty()),
            build: runner.build(),
            records,
            h32,
            hash_hint,
            diagnosis,
            nondeterministic,
            second_opinion_cut_short,
            property,
            reproducer,
            explored,
            api_gap,
            untouched_starter,
        }
    }
}

/// What grading one submission came to: the one record its report is
/// built from (the `report` crate's `record`).
pub enum SubmissionOutcome<'a> {
    /// Graded to the end.
    Graded(Box<Graded<'a>>),
    /// Nothing of it could be graded, for a reason of its own (no entry
    /// file, a file of no known language, a file it cannot read): the
    /// report words `why` as every test's message.
    Unpreparable {
        name: String,
        path: String,
        why: crate::error::NothingToGrade,
    },
    /// The grader or its machine failed on it (`language` when the
    /// submission was recognised): no test has a verdict on its code.
    Faulted {
        name: String,
        path: String,
        language: Option<Language>,
        error: std::sync::Arc<Error>,
    },
}

/// A submission graded: every case's record, in the suite's order, and
/// what the checks and the diagnosis found; the report is built from it.
pub struct Graded<'a> {
    /// The student's name in the report.
    pub name: String,
    /// The submission's path, as found.
    pub path: String,
    pub language: Language,
    /// The interpreter that ran it, as its driver said.
    pub runtime: Option<String>,
    /// `class` or `solve`, as its driver found it.
    pub api: Option<String>,
    /// For TypeScript and Rust: whether the build came from the cache.
    pub build: Option<sandbox::BuildCost>,
    pub records: Vec<Tested<'a>>,
    /// The submission's own h32 against the pinned one, where it has one.
    pub h32: Option<explain::H32Check>,
    /// Without an h32 to compare: answers that went against the pinned
    /// scores, when there are enough to blame the hash.
    pub hash_hint: Option<diagnose::H32Finding>,
    /// The known mistake that explains the failures, or none that does.
    pub diagnosis: diagnose::Diagnosis,
    /// Answers that changed between two runs of the same files.
    pub nondeterministic: Option<diagnose::RerunDifferences>,
    /// The budget for extra runs, when it stopped the second opinion
    /// before it replayed all it meant to.
    pub second_opinion_cut_short: Option<Duration>,
    /// A property of consistent hashing the answers break.
    pub property: Option<diagnose::PropertyFinding>,
    /// A small case that fails the same way.
    pub reproducer: Option<crate::shrink::ShrunkCase>,
    /// How exploring went, when it ran: every test the reader sees
    /// passed, and `--explore` asked for it.
    pub explored: Option<crate::explore::ExploreOutcome>,
    /// The challenge's operations the Router lacks.
    pub api_gap: Option<ApiGap>,
    /// It fails, and its file is the challenge's starter as shipped.
    pub untouched_starter: bool,
}

impl Grading<'_> {
    /// Runs and judges one case within `limit` (its group's, or an extra
    /// run's): its record, as the report and the diagnosis need it.
    fn run_one<'c>(
        &self,
        runner: &mut Runner<'_>,
        group: &'c Group,
        case: &'c Case,
        limit: Duration,
    ) -> Result<Tested<'c>, Error> {
        self.run_within(runner, group, case, limit, crate::run::backstop(limit))
    }

    /// [`Grading::run_one`] with `wall` of wall-clock time in place of the
    /// limit's backstop.
    fn run_within<'c>(
        &self,
        runner: &mut Runner<'_>,
        group: &'c Group,
        case: &'c Case,
        limit: Duration,
        wall: Duration,
    ) -> Result<Tested<'c>, Error> {
        let run = runner.run_case_within(case, limit, wall)?;
        let judgement = judge::judge(case, &run.outcome);
        let observed = diagnose::Observed {
            case,
            behaviour: diagnose::Behaviour::of(&run.outcome),
            passed: judgement.verdict == Verdict::Accepted,
        };
        Ok(Tested {
            group,
            case,
            explanation: judgement
                .divergence
                .as_ref()
                .and_then(|d| explain::explain(self.challenge, case, d)),
            load_failed: matches!(run.outcome, CaseOutcome::LoadFailed(_)),
            judgement,
            time: run.elapsed,
            cpu: run.cpu,
            captured: run.captured,
            observed,
            shared_limit: None,
            in_another_run: None,
        })
    }

    /// Runs `case` of `group` under `clock`'s limit for it: the group's
    /// full limit, or its share of the time the group shares once one of
    /// its cases ran past the limit.
    fn run_timed<'c>(
        &self,
        name: &str,
        runner: &mut Runner<'_>,
        clock: &mut GroupClock,
        group: &'c Group,
        case: &'c Case,
    ) -> Result<Tested<'c>, Error> {
        let tested = match clock.limit(group) {
            Some(shared) => Tested {
                shared_limit: Some(shared),
                ..self.run_within(runner, group, case, shared.cpu, shared.wall)?
            },
            None => self.run_one(runner, group, case, group.time_limit)?,
        };
        clock.ran(group, &tested);
        if let Some(observer) = self.observer {
            observer.ran(name, &tested);
        }
        Ok(tested)
    }

    /// A broken property and a shrunk reproducer, from the failing cases
    /// the report's reader may see.
    fn extras(
        &self,
        runner: &mut Runner<'_>,
        submission: &Submission,
        ran: &[&Tested<'_>],
        budget: &Budget,
    ) -> Result<
        (
            Option<diagnose::PropertyFinding>,
            Option<crate::shrink::ShrunkCase>,
        ),
        Error,
    > {
        // The smallest case with a wrong answer, shrunk on the submission
        // itself: first, as the most telling of the extras, while the
        // budget is whole.
        let reproducer = match self.extras_case(ran, |_| true) {
            Some((o, ms)) => {
                let times = (Duration::from_millis(ms), self.time_limit(o.case));
                crate::shrink::shrink(
                    self.challenge,
                    runner,
                    submission,
                    (&o.case.input, crate::shrink::Texts::Kept),
                    times,
                    budget,
                )?
            }
            None => None,
        };
        // A broken property, from the submission's own answers.
        let property = ran
            .iter()
            .filter(|t| t.judgement.verdict != Verdict::Accepted)
            .filter(|t| self.shown(t.group))
            .map(|t| &t.observed)
            .find_map(|o| match &o.behaviour {
                Some(diagnose::Behaviour::Output(actual)) => {
                    diagnose::property_hint(self.challenge.model, o.case, actual)
                }
                _ => None,
            });
        let property = match property {
            Some(p) => Some(p),
            None => self.order_hint(runner, ran, budget)?,
        };
        Ok((property, reproducer))
    }

    /// The smallest wrong answer the reader may see among the cases that
    /// pass `also`, with its measured time in milliseconds: what extra
    /// runs start from.
    fn extras_case<'o, 'c>(
        &self,
        ran: &[&'o Tested<'c>],
        also: impl Fn(&diagnose::Observed<'c>) -> bool,
    ) -> Option<(&'o diagnose::Observed<'c>, u64)> {
        ran.iter()
            .filter(|t| t.judgement.verdict == Verdict::WrongAnswer)
            .filter(|t| self.shown(t.group))
            .filter(|t| also(&t.observed))
            .min_by_key(|t| t.case.ops.len())
            .map(|t| (&t.observed, t.time_ms()))
    }

    /// Whether the report's reader may see the cases of `group`.
    fn shown(&self, group: &Group) -> bool {
        self.audience.sees(group.visibility)
    }

    /// The wall-clock limit of `case`'s group.
    fn time_limit(&self, case: &Case) -> Duration {
        self.suite
            .groups
            .iter()
            .find(|g| g.name == case.group)
            .map_or(Duration::from_secs(5), |g| g.time_limit)
    }

    /// Replays the smallest failing case the reader may see with its initial
    /// nodes in reverse order: a router's answers must not depend on it.
    fn order_hint(
        &self,
        runner: &mut Runner<'_>,
        ran: &[&Tested<'_>],
        budget: &Budget,
    ) -> Result<Option<diagnose::PropertyFinding>, Error> {
        let Some(nodes) = self.challenge.model.nodes_arg() else {
            return Ok(None);
        };
        let Some((o, ms)) = self.extras_case(ran, |o| {
            matches!(o.behaviour, Some(diagnose::Behaviour::Output(_)))
                && o.case.input[0][nodes]
                    .as_array()
                    .is_some_and(|n| n.len() > 1)
        }) else {
            return Ok(None);
        };
        let Some(diagnose::Behaviour::Output(actual)) = &o.behaviour else {
            return Ok(None);
        };
        let mut reversed = o.case.input.clone();
        if let Some(nodes) = reversed[0][nodes].as_array_mut() {
            nodes.reverse();
        }
        let Some(limit) = budget.attempt(Duration::from_millis(ms), self.time_limit(o.case)) else {
            return Ok(None);
        };
        let bound = crate::run::ReplyBound::for_case(o.case);
        let run = runner.run_input(&reversed, bound, limit)?;
        let CaseOutcome::Output(again) = run.outcome else {
            return Ok(None);
        };
        Ok(diagnose::order_hint(o.case, actual, &again))
    }
}

/// Asks a submission that exposes h32 for its values on the check strings
/// and on every string in the explanations, and puts them beside the pinned
/// values.
/// The h32 check is an extra run: it gets `budget`'s limit for a case of
/// `base_ms`, at most [`HASH_LIMIT`]. Its wrong steps are told in the
/// words for code of `syntax`.
fn check_hash(
    runner: &mut Runner<'_>,
    ran: &mut [Slot<'_>],
    budget: &Budget,
    base_ms: u64,
    syntax: reference::Syntax,
) -> Result<Option<explain::H32Check>, Error> {
    if !runner.hello().is_some_and(|h| h.h32) {
        return Ok(None);
    }
    let texts = explain::hash_texts(
        ran.iter_mut()
            .flatten()
            .filter_map(|t| t.explanation.as_mut()),
    );
    let Some(limit) = budget.attempt(Duration::from_millis(base_ms), HASH_LIMIT) else {
        return Ok(None);
    };
    let Some(yours) = runner.hash(&texts, limit)? else {
        return Ok(None);
    };
    for t in ran.iter_mut().flatten() {
        if let Some(e) = t.explanation.as_mut() {
            explain::annotate(e, &texts, &yours);
        }
    }
    Ok(Some(explain::check_hash(&texts, &yours, syntax)))
}
