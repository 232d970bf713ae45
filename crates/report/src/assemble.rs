//! The report, assembled once from what grading found: each submission's
//! records scored and worded ([`submission`]), a submission that could
//! not be graded ([`unpreparable`], [`faulted`]), and the run around them
//! ([`report`]).

use super::contract::{self, MistakeReport};
use super::score;
use super::{ApiHint, GroupReport, Points, Report, Shard, SubmissionReport, TestReport};
use grading::Tested;
use grading::{ApiEvidence, ApiGap, Graded, Grading, SubmissionOutcome, now_ms};
use grading::{Challenge, Group};
use grading::{Error, NothingToGrade};
use vocabulary::Scoring;
use vocabulary::Verdict;

/// The report holding `submissions`, graded by `grading` (of `shard`,
/// when the run grades one).
pub fn assemble(
    grading: &Grading<'_>,
    shard: Option<Shard>,
    submissions: Vec<SubmissionReport>,
) -> Result<Report, Error> {
    Ok(Report {
        schema_version: contract::SCHEMA_VERSION,
        grader: format!("rendezvous-grader {}", env!("CARGO_PKG_VERSION")),
        challenge: grading.challenge.id.clone(),
        challenges: Some(grading.source.clone()),
        sandbox: grading.env.layers()?.into(),
        limits: Some(limits_in_force(grading)),
        audience: grading.audience,
        tests_dir: grading.suite.dir.display().to_string(),
        added_tests: grading
            .suite
            .added
            .iter()
            .map(|d| d.display().to_string())
            .collect(),
        only: grading.suite.only.clone(),
        started_at_ms: grading.started_at_ms,
        // A learner's run ends with its last visible phase: the time the
        // hidden phases took could spell what their cases held.
        finished_at_ms: match grading.has_hidden_phase() {
            true => grading.visible_until_ms().unwrap_or(grading.started_at_ms),
            false => now_ms(),
        },
        run_key: grading.run_key().digest(),
        shard,
        submissions,
    })
}

/// The limits `grading` grades under, and each that the command line set
/// below challenge.toml's: the only way one can differ from it.
pub fn limits_in_force(grading: &Grading<'_>) -> contract::LimitsInForce {
    use grading::Limit;
    let config = &grading.challenge.config;
    let mut lowered = Vec::new();
    let mut note = |limit: Limit, what: String, challenge: u64, used: u64, unit: &str| {
        if used < challenge {
            lowered.push(contract::Lowered {
                flag: limit.flag().unwrap_or(limit.key()).to_owned(),
                what,
                challenge,
                used,
                unit: unit.to_owned(),
            });
        }
    };
    let mut groups = Vec::new();
    for group in &grading.suite.groups {
        let time_ms = group.time_limit.as_millis() as u64;
        let own = config.group(&group.name).and_then(|g| g.time_ms);
        let what = format!("the CPU time per case of group `{}`", group.name);
        note(
            Limit::Time,
            what,
            own.unwrap_or(config.limits.time_ms),
            time_ms,
            "ms",
        );
        groups.push(contract::GroupTime {
            group: group.name.clone(),
            time_ms,
        });
    }
    let session = grading.env.limits();
    let memory_mb = session.memory_bytes >> 20;
    let output_mb = session.output_bytes >> 20;
    let extra_run_ms = grading.extras.run_floor.as_millis() as u64;
    let extras_budget_ms = grading.extras.budget_cap.as_millis() as u64;
    for (limit, what, used, unit) in [
        (Limit::Memory, "the memory per session", memory_mb, "MiB"),
        (Limit::Output, "the output per case", output_mb, "MiB"),
        (
            Limit::ExtraRun,
            "the least time of an extra run",
            extra_run_ms,
            "ms",
        ),
        (
            Limit::ExtrasBudget,
            "the time of all extra runs",
            extras_budget_ms,
            "ms",
        ),
    ] {
        note(limit, what.to_owned(), config.limits.get(limit), used, unit);
    }
    contract::LimitsInForce {
        groups,
        memory_mb,
        output_mb,
        extra_run_ms,
        extras_budget_ms,
        lowered,
    }
}

/// The report of one submission, from what grading it came to: the one
/// constructor of a [`SubmissionReport`].
pub fn record(grading: &Grading<'_>, outcome: SubmissionOutcome<'_>) -> SubmissionReport {
    match outcome {
        SubmissionOutcome::Graded(graded) => submission(grading, *graded),
        SubmissionOutcome::Unpreparable { name, path, why } => {
            unpreparable(grading, &name, &path, &why)
        }
        SubmissionOutcome::Faulted {
            name,
            path,
            language,
            error,
        } => {
            let report = faulted(grading, &name, &path, &error);
            match language {
                Some(language) => SubmissionReport { language, ..report },
                None => report,
            }
        }
    }
}

/// The report of one graded submission: every record scored (an
/// all-or-nothing group takes its points back when one test fails) and
/// worded for the run's audience.
fn submission(grading: &Grading<'_>, graded: Graded<'_>) -> SubmissionReport {
    let suite = grading.suite;
    let Graded {
        name,
        path,
        language,
        runtime,
        api,
        build,
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
    } = graded;
    let mistake = diagnosis.mistake.as_ref().map(MistakeReport::from);
    let unexplained = diagnosis.unexplained;
    let exact_mistake = mistake.as_ref().filter(|m| m.exact);
    let mut groups = Vec::new();
    let mut tests = Vec::with_capacity(records.len());
    let mut first = 0;
    for group in &suite.groups {
        let group_records = &records[first..first + group.cases.len()];
        first += group.cases.len();
        let accepted = |t: &Tested<'_>| t.deciding().judgement.verdict == Verdict::Accepted;
        let passed = group_records.iter().filter(|t| accepted(t)).count();
        let taken_back = group.scoring == Scoring::AllOrNothing && passed < group_records.len();
        for t in group_records {
            let mut points = score::test_points(group, suite.denominator, accepted(t));
            if taken_back {
                points = score::take_back(points);
            }
            tests.push(super::entry::test_report(
                t,
                points,
                grading.audience,
                exact_mistake,
            ));
        }
        groups.push(group_report(
            group,
            suite.denominator,
            passed,
            group_records.len(),
        ));
    }
    let verdict = tests
        .iter()
        .map(|t| t.verdict)
        .max()
        .unwrap_or(contract::Verdict::Accepted);
    withhold_faulted(&mut groups, &mut tests);
    let points = Points::sum(groups.iter().map(|g| &g.points), suite.denominator);
    SubmissionReport {
        name,
        path,
        language,
        runtime,
        api,
        build: build.as_ref().map(Into::into),
        verdict,
        points,
        passed: tests
            .iter()
            .filter(|t| t.verdict == contract::Verdict::Accepted)
            .count(),
        total: tests.len(),
        h32: h32.as_ref().map(Into::into),
        hash_hint: hash_hint
            .as_ref()
            .map(|hint| contract::HashHint::of(hint, language)),
        mistake,
        unexplained,
        untouched_starter,
        nondeterministic: nondeterministic.as_ref().map(Into::into),
        second_opinion_cut_short: second_opinion_cut_short.map(|budget| {
            format!(
                "the second opinion (replays under other hash seeds) was cut short: its last replays did not fit in the {:.1} s budget for extra runs, and what they did not run changes no verdict",
                budget.as_secs_f64()
            )
        }),
        property: property.as_ref().map(Into::into),
        reproducer: reproducer.as_ref().map(Into::into),
        explore: explored.as_ref().map(Into::into),
        api_hint: api_gap.map(|gap| api_hint(grading.challenge, gap)),
        groups,
        tests,
    }
}

/// The api hint's words for `gap`. A Router the graded challenge's
/// catalogue explains too may still be meant for another challenge: that
/// is told as a possibility, beside what explains it.
fn api_hint(challenge: &Challenge, gap: ApiGap) -> ApiHint {
    let ApiGap {
        missing,
        other_challenge,
        looks_like,
        evidence,
        explained,
    } = gap;
    let flags: Vec<String> = looks_like
        .iter()
        .map(|id| format!("--challenge {id}"))
        .collect();
    let message = match &other_challenge {
        Some(_) if explained => {
            let lacks = (!missing.is_empty()).then(|| format!("has no {}", missing.join(", ")));
            let clauses: Vec<String> = lacks
                .into_iter()
                .chain(evidence.iter().map(ApiEvidence::calls))
                .collect();
            let owners: Vec<String> = looks_like.iter().map(|id| format!("{id}'s")).collect();
            let (owners, target) = match owners.len() {
                1 => (format!("{} does", owners[0]), looks_like[0].clone()),
                _ => (
                    format!("{} do", and_list(&owners)),
                    "one of them".to_owned(),
                ),
            };
            format!(
                "your Router {}, as {owners}: if it is meant for {target}, grade it with {}",
                and_list(&clauses),
                flags.join(" or ")
            )
        }
        Some(_) => {
            let why: Vec<String> = (!missing.is_empty())
                .then(|| format!("it has no {}", missing.join(", ")))
                .into_iter()
                .chain(evidence.iter().map(ApiEvidence::words))
                .collect();
            let why = match why.is_empty() {
                true => String::new(),
                false => format!(" ({})", why.join("; ")),
            };
            format!(
                "your Router looks like one for {}{why}, not for {}: if it is, grade it with {}",
                looks_like.join(" or "),
                challenge.id,
                flags.join(" or ")
            )
        }
        None => {
            let wanted: Vec<&str> = challenge.operations.iter().map(|s| s.name).collect();
            format!(
                "your Router has no {}; the {} challenge calls {}",
                missing.join(", "),
                challenge.id,
                wanted.join(", ")
            )
        }
    };
    ApiHint {
        missing,
        other_challenge,
        message,
    }
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The report of a submission that could not even be found or prepared
/// (`why`): every test fails with a compile error saying so.
fn unpreparable(
    grading: &Grading<'_>,
    name: &str,
    path: &str,
    why: &NothingToGrade,
) -> SubmissionReport {
    let why = crate::unbuilt::nothing_to_grade(why);
    ungraded(grading, name, path, &why, Verdict::CompileError)
}

/// The report of a submission the grader failed on (`error`, a fault of
/// the grader or its machine): every test says so, with no score and no
/// verdict on the learner's code.
fn faulted(grading: &Grading<'_>, name: &str, path: &str, error: &Error) -> SubmissionReport {
    let mut why = format!("the grader failed on this submission: {error}");
    let mut source = std::error::Error::source(error);
    while let Some(cause) = source {
        why.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    ungraded(grading, name, path, &why, Verdict::GraderFault)
}

/// A submission with `verdict` and message `why` on every test.
fn ungraded(
    grading: &Grading<'_>,
    name: &str,
    path: &str,
    why: &str,
    verdict: Verdict,
) -> SubmissionReport {
    let mut groups = Vec::new();
    let mut tests = Vec::new();
    let denominator = grading.suite.denominator;
    for group in &grading.suite.groups {
        let points = score::test_points(group, denominator, false);
        for case in &group.cases {
            tests.push(TestReport {
                name: case.name.clone(),
                group: case.group.clone(),
                visibility: group.visibility,
                verdict,
                points,
                time_ms: 0,
                cpu_ms: 0,
                shared_limit_ms: None,
                shared_wall_ms: None,
                expected_from: case.expected_from,
                message: why.to_owned(),
                divergence: None,
                error: None,
                load_failed: false,
                explanation: None,
                window: None,
                captured: None,
                mistake: None,
            });
        }
        groups.push(group_report(group, denominator, 0, group.cases.len()));
    }
    withhold_faulted(&mut groups, &mut tests);
    let points = Points::sum(groups.iter().map(|g| &g.points), denominator);
    SubmissionReport {
        name: name.to_owned(),
        path: path.to_owned(),
        language: contract::Language::Unknown,
        runtime: None,
        api: None,
        build: None,
        verdict,
        points,
        passed: 0,
        total: tests.len(),
        h32: None,
        hash_hint: None,
        mistake: None,
        unexplained: false,
        untouched_starter: false,
        nondeterministic: None,
        second_opinion_cut_short: None,
        property: None,
        reproducer: None,
        explore: None,
        api_hint: None,
        groups,
        tests,
    }
}

/// A test the grader failed on was never judged: it has no score, nor
/// has its group (whose score depends on every test), nor, through the
/// sum, the submission. Never a 0 that an LMS would record.
fn withhold_faulted(groups: &mut [GroupReport], tests: &mut [TestReport]) {
    for t in tests.iter_mut() {
        if t.verdict == contract::Verdict::GraderFault {
            t.points = t.points.not_graded();
            for g in groups.iter_mut().filter(|g| g.name == t.group) {
                g.points = g.points.not_graded();
            }
        }
    }
}

/// A group's entry: `passed` of its `total` cases, scored.
fn group_report(group: &Group, denominator: u64, passed: usize, total: usize) -> GroupReport {
    let points = score::group_points(group, denominator, passed);
    GroupReport {
        name: group.name.clone(),
        scoring: group.scoring,
        visibility: group.visibility,
        points,
        passed,
        total,
    }
}
