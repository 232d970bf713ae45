//! `grader rejudge` and `grader compare`: a class graded again, or two
//! reports, compared student by student ([`report::changes`]).
//!
//! Exit codes: 0 when no student changes verdict or score (and, with
//! `--apply`, once the change is applied), 1 when some do and nothing was
//! applied (as `bless --check` and `diff` do), 2 for bad usage, 3 when
//! the grader failed on a submission (which is shown as "could not be
//! judged", never as a verdict change, and never applied over a verdict).

use super::{Error, Fault, Status, Why};
use crate::batch::rejudge as files;
use crate::cli::{ChangesFormat, CompareArgs, GradeArgs, GradingArgs, RejudgeArgs};
use report::contract::tools::{Changes, StudentChange};
use report::{Audience, Format};
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::PathBuf;

/// What a grading run with `--results` records of its command: what
/// decides its results, every path absolute. The report's format and
/// files, the cache and the jobs are not in it: they change no result.
#[derive(Debug, Serialize, Deserialize)]
struct Recorded {
    /// The folder of challenges; none for those built into the grader
    /// (a rejudging uses those of the grader that rejudges).
    challenges: Option<PathBuf>,
    challenge: String,
    tests: Option<PathBuf>,
    /// The `--add-tests` folders, in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    add_tests: Vec<PathBuf>,
    audience: Audience,
    time_limit: Option<u64>,
    memory_limit: Option<u64>,
    output_limit: Option<u64>,
    extra_run_limit: Option<u64>,
    extras_budget: Option<u64>,
    no_sandbox: bool,
    require_sandbox: bool,
    shard: Option<report::Shard>,
    paths: Vec<PathBuf>,
    /// What the runs that added to the folder with `--resume` graded,
    /// beyond `shard` and `paths` (the fresh run's): the folder holds the
    /// results of them all, and a rejudge grades them all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    resumed: Vec<Part>,
}

/// What one grading run into a results folder graded: its paths, and its
/// shard of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Part {
    pub(super) shard: Option<report::Shard>,
    pub(super) paths: Vec<PathBuf>,
}

/// The record of `args` (graded with the challenges in `root`, for
/// `audience`, and with `resumed`, the parts of a rejudged folder beyond
/// the command line's), as the results folder keeps it.
pub(super) fn record(
    root: &grading::Root,
    args: &GradeArgs,
    audience: Audience,
    resumed: &[Part],
) -> Result<Vec<u8>, Error> {
    let paths = args
        .paths
        .iter()
        .map(|p| super::absolute_path(p))
        .collect::<Result<Vec<_>, _>>()?;
    let recorded = Recorded {
        challenges: match root.source {
            vocabulary::Source::Embedded { .. } => None,
            vocabulary::Source::Folder { .. } => Some(root.dir.clone()),
        },
        challenge: args.grading.challenge.clone(),
        tests: args
            .grading
            .tests
            .as_deref()
            .map(super::absolute_path)
            .transpose()?,
        add_tests: args
            .grading
            .add_tests
            .iter()
            .map(|d| super::absolute_path(d))
            .collect::<Result<_, _>>()?,
        audience,
        time_limit: args.grading.time_limit,
        memory_limit: args.grading.memory_limit,
        output_limit: args.grading.output_limit,
        extra_run_limit: args.grading.extra_run_limit,
        extras_budget: args.grading.extras_budget,
        no_sandbox: args.grading.no_sandbox,
        require_sandbox: args.grading.require_sandbox,
        shard: args.shard,
        paths,
        resumed: resumed.to_vec(),
    };
    serde_json::to_vec_pretty(&recorded).map_err(|e| {
        Error::Usage(format!(
            "a path to grade is not UTF-8 text ({e}); rename it"
        ))
    })
}

/// The command to record for a run that adds to a results folder
/// (`--resume`): `now`, this run's, with the paths and shards of every
/// run the folder's record `earlier` names, so that the record describes
/// every result the folder holds. An unreadable earlier record describes
/// nothing and is replaced.
pub(super) fn merged(earlier: &[u8], now: &[u8]) -> Vec<u8> {
    let (Ok(earlier), Ok(mut merged)) = (
        serde_json::from_slice::<Recorded>(earlier),
        serde_json::from_slice::<Recorded>(now),
    ) else {
        return now.to_vec();
    };
    let mut parts = earlier.parts();
    for part in merged.parts() {
        if !parts.contains(&part) {
            parts.push(part);
        }
    }
    let mut parts = parts.into_iter();
    if let Some(first) = parts.next() {
        merged.shard = first.shard;
        merged.paths = first.paths;
    }
    merged.resumed = parts.collect();
    serde_json::to_vec_pretty(&merged).unwrap_or_else(|_| now.to_vec())
}

impl Recorded {
    /// Every run's paths and shard, the fresh run's first.
    fn parts(&self) -> Vec<Part> {
        let mut parts = vec![Part {
            shard: self.shard,
            paths: self.paths.clone(),
        }];
        parts.extend(self.resumed.iter().cloned());
        parts
    }
}

/// The grading command `recorded` describes, with this run's jobs and
/// cache, and the parts of the folder beyond its paths and shard.
fn grade_args(recorded: Recorded, args: &RejudgeArgs) -> (GradeArgs, Vec<Part>) {
    let grade = GradeArgs {
        format: Format::Json,
        audience: Some(recorded.audience),
        jobs: args.jobs,
        shard: recorded.shard,
        ..GradeArgs::of(
            GradingArgs {
                tests: recorded.tests,
                add_tests: recorded.add_tests,
                time_limit: recorded.time_limit,
                memory_limit: recorded.memory_limit,
                output_limit: recorded.output_limit,
                extra_run_limit: recorded.extra_run_limit,
                extras_budget: recorded.extras_budget,
                no_sandbox: recorded.no_sandbox,
                require_sandbox: recorded.require_sandbox,
                ..GradingArgs::of(recorded.challenge, args.cache_dir.clone())
            },
            recorded.paths,
        )
    };
    (grade, recorded.resumed)
}

/// `grader rejudge`: the results folder's class graded again, aside, and
/// compared with what the folder holds; with `--apply`, the new results
/// take the folder's place in one step.
pub(super) fn rejudge(
    cli: &crate::cli::Cli,
    args: &RejudgeArgs,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    // A link is followed: the folder it names is rejudged and replaced,
    // beside itself (where the exchange can be one step), and the link
    // names the new results.
    let dir = super::absolute_path(&args.results)?;
    let dir = std::fs::canonicalize(&dir).unwrap_or(dir);
    if !dir.join("run.json").is_file() {
        return Err(Error::Usage(format!(
            "{} is no results folder (it holds no run.json); give --results the folder a `grader grade --results DIR` run wrote",
            dir.display()
        )));
    }
    let command = files::command(&dir)?;
    let recorded: Recorded = serde_json::from_slice(&command).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: not a grading command this grader records ({e}); grade the class again with --results",
            dir.join("command.json").display(),
            e.line(),
            e.column()
        ))
    })?;
    let mut held = files::hold(&dir)?;
    let old = files::saved(&dir)?;
    // The class is graded with the challenges it was graded with, unless
    // this command names others.
    let challenges = cli.challenges.clone().or(recorded.challenges.clone());
    let from = match &challenges {
        Some(dir) => super::Challenges::Find(Some(dir)),
        None => super::Challenges::BuiltIn,
    };
    let (grade, resumed) = grade_args(recorded, args);
    let staging = held.staging()?;
    if let Some(kept) = &staging.recovered {
        eprintln!(
            "note: an earlier rejudge --apply of {} was stopped after replacing the results; the results it replaced are kept in {}",
            dir.display(),
            kept.display()
        );
    }
    let staged = staging.dir;
    let report = match super::graded(from, &grade, &resumed, Some(&staged), None) {
        Ok(report) => report,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staged);
            return Err(e);
        }
    };
    let changes = report::compare_results(&old, &report.submissions);
    show(&changes, args.format, out)?;
    let blocked: Vec<&StudentChange> = changes.not_judged().collect();
    let names: Vec<String> = blocked.iter().map(|s| report::visible(&s.name)).collect();
    // The others' new results are applied when some are; every student
    // the grader could not judge again keeps their previous result.
    let judged_again = report.submissions.len() > blocked.len();
    let applying = args.apply && (blocked.is_empty() || judged_again);
    if applying && !blocked.is_empty() {
        let kept: Vec<String> = blocked.iter().map(|s| s.name.clone()).collect();
        if let Err(e) = files::keep_previous(&dir, &staged, &kept) {
            let _ = std::fs::remove_dir_all(&staged);
            return Err(e);
        }
    }
    if !applying {
        let _ = std::fs::remove_dir_all(&staged);
    }
    let mut kept_in = None;
    if applying {
        let kept = held.replace(&staged)?;
        if args.format == ChangesFormat::Human {
            writeln!(
                out,
                "\napplied: {} holds the new results; the old ones are in {}",
                dir.display(),
                kept.display()
            )
            .map_err(Error::io("cannot write output"))?;
        }
        kept_in = Some(kept);
    }
    if let Some(first) = blocked.first() {
        let what = match (&kept_in, args.apply) {
            (Some(_), _) => format!(
                "the others' new results were applied, and {} kept at {} previous result: rejudge again once the fault is fixed",
                if blocked.len() == 1 {
                    "this one is"
                } else {
                    "these are"
                },
                if blocked.len() == 1 { "its" } else { "their" }
            ),
            (None, true) => {
                "nothing was replaced: rejudge again once the fault is fixed".to_owned()
            }
            (None, false) if judged_again => {
                "--apply would apply the others' new results and keep these at their previous ones"
                    .to_owned()
            }
            (None, false) => "--apply would replace nothing until the fault is fixed".to_owned(),
        };
        return Ok(Status::Faulted(Fault {
            what: format!(
                "the grader could not judge {} that {} holds a verdict for ({}); {what}",
                grading::counted(blocked.len(), "submission"),
                dir.display(),
                names.join(", "),
            ),
            why: Why(first.not_judged.clone().unwrap_or_default()),
        }));
    }
    if let Some(fault) = faults(&changes) {
        return Ok(Status::Faulted(fault));
    }
    Ok(if changes.any() && !args.apply {
        Status::Failed
    } else {
        Status::Passed
    })
}

/// `grader compare OLD.json NEW.json`.
pub(super) fn compare(args: &CompareArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let old = super::read_report(&args.old)?;
    let new = super::read_report(&args.new)?;
    one_each(&old.submissions, &args.old)?;
    one_each(&new.submissions, &args.new)?;
    if old.challenge != new.challenge {
        return Err(Error::Usage(format!(
            "{} grades {} and {} grades {}: compare two reports of one challenge",
            args.old.display(),
            old.challenge,
            args.new.display(),
            new.challenge
        )));
    }
    let changes = report::compare_results(&old.submissions, &new.submissions);
    show(&changes, args.format, out)?;
    if let Some(fault) = faults(&changes) {
        return Ok(Status::Faulted(fault));
    }
    Ok(if changes.any() {
        Status::Failed
    } else {
        Status::Passed
    })
}

/// Refuses a report in which two submissions share a name: students are
/// matched by name, so a second one would be left out of every count
/// without a word. No report the grader writes has one.
fn one_each(submissions: &[report::SubmissionReport], path: &std::path::Path) -> Result<(), Error> {
    let mut first = std::collections::BTreeMap::new();
    for (i, s) in submissions.iter().enumerate() {
        if let Some(j) = first.insert(s.name.as_str(), i) {
            return Err(Error::Usage(format!(
                "{}: submissions[{j}] and submissions[{i}] are both named {}; a report names each student once: compare reports the grader wrote, or merge shards with `grader merge`",
                path.display(),
                report::visible(&s.name)
            )));
        }
    }
    Ok(())
}

fn show(changes: &Changes, format: ChangesFormat, out: &mut dyn Write) -> Result<(), Error> {
    match format {
        ChangesFormat::Human => report::render_changes(changes, out),
        ChangesFormat::Json => report::render_changes_json(changes, out),
    }
    .map_err(Error::io("cannot write output"))
}

/// The later grading's faults end the command as the grader's (exit 3),
/// once the changes are shown: a submission it could not judge has no
/// verdict, and CI must see it.
/// The fault of the later grading, when it failed on any submission.
fn faults(changes: &Changes) -> Option<Fault> {
    let faulted: Vec<&StudentChange> = changes
        .students
        .iter()
        .filter(|s| {
            s.new
                .as_ref()
                .is_some_and(|n| n.verdict == report::contract::Verdict::GraderFault)
        })
        .collect();
    let first = faulted.first()?;
    Some(Fault {
        what: format!(
            "the grader failed on {} of the later grading (shown as could not be judged)",
            grading::counted(faulted.len(), "submission")
        ),
        why: Why(format!(
            "{}: {}",
            report::visible(&first.name),
            first.not_judged.clone().unwrap_or_default()
        )),
    })
}

#[cfg(test)]
mod tests {
    use super::{Part, Recorded, merged};
    use report::{Audience, Shard};
    use std::path::PathBuf;

    fn recorded(shard: Option<Shard>, paths: &[&str]) -> Vec<u8> {
        serde_json::to_vec(&Recorded {
            challenges: None,
            challenge: "rendezvous-router".into(),
            tests: None,
            add_tests: Vec::new(),
            audience: Audience::Instructor,
            time_limit: None,
            memory_limit: None,
            output_limit: None,
            extra_run_limit: None,
            extras_budget: None,
            no_sandbox: false,
            require_sandbox: false,
            shard,
            paths: paths.iter().map(PathBuf::from).collect(),
            resumed: Vec::new(),
        })
        .unwrap()
    }

    fn parts(bytes: &[u8]) -> Vec<Part> {
        serde_json::from_slice::<Recorded>(bytes).unwrap().parts()
    }

    #[test]
    fn a_resumed_run_adds_its_part_to_the_record_once() {
        let one = Shard { index: 1, count: 2 };
        let two = Shard { index: 2, count: 2 };
        let first = recorded(Some(one), &["/class"]);
        let second = recorded(Some(two), &["/class"]);
        let both = merged(&first, &second);
        let expected = vec![
            Part {
                shard: Some(one),
                paths: vec!["/class".into()],
            },
            Part {
                shard: Some(two),
                paths: vec!["/class".into()],
            },
        ];
        assert_eq!(parts(&both), expected);
        // The same run resumed again adds nothing; the first again neither.
        assert_eq!(parts(&merged(&both, &second)), expected);
        assert_eq!(parts(&merged(&both, &first)), expected);
        let late = recorded(None, &["/late/dan.py"]);
        let all = parts(&merged(&both, &late));
        assert_eq!(all.len(), 3);
        assert_eq!(all[2].paths, [PathBuf::from("/late/dan.py")]);
    }

    #[test]
    fn an_unreadable_earlier_record_is_replaced_by_this_runs() {
        let now = recorded(None, &["/class"]);
        assert_eq!(merged(b"not json", &now), now);
    }
}
