//! `grader prairielearn`: the entrypoint of a PrairieLearn external
//! grader. PrairieLearn mounts the job at `/grade` (`student/` the
//! student's files, `tests/` the question's, `serverFilesCourse/` the
//! course's shared files, `data/data.json` the question's data) and reads
//! `results/results.json` once the entrypoint ends.
//!
//! The challenges are `--challenges`, else `ROOT/serverFilesCourse/challenges`,
//! else `ROOT/tests/challenges`; the challenge is `--challenge`, else
//! `params.challenge` of `data.json`, else the default. Whatever goes
//! wrong, a results.json is written: a grader that fails is never a score
//! of 0 for the student, but `gradable: false` saying so.

use super::{Error, Status};
use crate::cli::{Cli, GradeArgs, GradingArgs, PrairielearnArgs};
use crate::report::{Audience, Format};
use std::io::Write;
use std::path::{Path, PathBuf};

pub(super) fn prairielearn(
    cli: &Cli,
    args: &PrairielearnArgs,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let root = super::absolute_path(&args.root)?;
    let results = root.join("results");
    std::fs::create_dir_all(&results)
        .map_err(Error::io(format!("cannot create {}", results.display())))?;
    let file = results.join("results.json");
    // Left by an earlier job, it would be taken for this one's.
    let _ = std::fs::remove_file(&file);
    let graded = grade(cli, args, &root, &file, out);
    // A grader fault on the submission is written by the renderer; any
    // other failure leaves no results.json, and gets this one.
    if let (Err(e), false) = (&graded, file.exists()) {
        // PrairieLearn must hear why: not a score, no attempt charged.
        let mut why = e.to_string();
        let mut source = std::error::Error::source(e);
        while let Some(cause) = source {
            why.push_str(&format!(": {cause}"));
            source = cause.source();
        }
        let why = crate::report::text::visible(&why);
        let failed = serde_json::json!({
            "gradable": false,
            "message": format!("The grader could not grade this submission; this is not your code's fault, and no attempt was charged. Tell your instructor. ({why})"),
            "format_errors": [format!("the grader failed: {why}")],
            "output": "",
            "tests": [],
        });
        crate::fsutil::write_atomically(&file, format!("{failed}\n").as_bytes())?;
    }
    graded
}

fn grade(
    cli: &Cli,
    args: &PrairielearnArgs,
    root: &Path,
    file: &Path,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let challenges = match &cli.challenges {
        Some(dir) => dir.clone(),
        None => ["serverFilesCourse/challenges", "tests/challenges"]
            .iter()
            .map(|p| root.join(p))
            .find(|p| p.is_dir())
            .ok_or_else(|| {
                Error::Usage(format!(
                    "no challenges in {0}/serverFilesCourse/challenges or {0}/tests/challenges; copy the course's challenges/ folder there, or give --challenges",
                    root.display()
                ))
            })?,
    };
    let challenge = match &args.challenge {
        Some(id) => id.clone(),
        None => from_data(&root.join("data/data.json"))?
            .unwrap_or_else(|| crate::challenge::DEFAULT_CHALLENGE.to_owned()),
    };
    let student: PathBuf = root.join("student");
    if !student.is_dir() {
        return Err(Error::Usage(format!(
            "{} is missing: PrairieLearn puts the student's files there",
            student.display()
        )));
    }
    let grade = GradeArgs {
        grading: GradingArgs {
            challenge,
            tests: None,
            time_limit: None,
            memory_limit: None,
            output_limit: None,
            extra_run_limit: None,
            extras_budget: None,
            no_sandbox: args.no_sandbox,
            require_sandbox: false,
            cache_dir: args.cache_dir.clone(),
        },
        format: Format::Prairielearn,
        output: Some(file.to_owned()),
        all: false,
        // Students see the results: hidden groups' details stay out.
        audience: Some(Audience::Learner),
        jobs: Some(1),
        results: None,
        resume: false,
        shard: None,
        gradebook: None,
        exit_zero: true,
        paths: vec![student],
    };
    let report = super::graded(
        super::Challenges::Find(Some(&challenges)),
        &grade,
        &[],
        None,
    )?;
    let human = crate::report::HumanOptions::default();
    super::publish(&report, grade.format, Some(file), None, true, &human, out)
}

/// `params.challenge` of PrairieLearn's `data.json`, if it names one.
fn from_data(path: &Path) -> Result<Option<String>, Error> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(None);
    };
    let data: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: not JSON ({e})",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    Ok(data["params"]["challenge"].as_str().map(str::to_owned))
}
