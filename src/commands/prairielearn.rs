//! `grader prairielearn`: the entrypoint of a PrairieLearn external
//! grader. PrairieLearn mounts the job at `/grade` (`student/` the
//! student's files, `tests/` the question's, `serverFilesCourse/` the
//! course's shared files, `data/data.json` the question's data) and reads
//! `results/results.json` once the entrypoint ends.
//!
//! The challenges are `--challenges`, else `ROOT/serverFilesCourse/challenges`,
//! else `ROOT/tests/challenges`; the challenge is `--challenge`, else
//! `params.challenge` of `data.json`, else (only when there is no
//! data.json) the default. `student/` is one student's folder, never a
//! class: without a `router.*` it is their format error. Whatever goes
//! wrong, a results.json is written: a grader (or a course set-up) that
//! fails is never a score of 0 for the student, but `gradable: false`
//! saying so.

use super::{Error, Status};
use crate::cli::{Cli, GradeArgs, GradingArgs, PrairielearnArgs};
use report::{Audience, Format, Ungraded};
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
    // Said here too, for the message PrairieLearn shows.
    let graded = grade(cli, args, &root, &file, out).map_err(|e| e.undone("graded"));
    // A grader fault on the submission is written by the renderer; any
    // other failure leaves no results.json, and gets this one.
    if let (Err(e), false) = (&graded, file.exists()) {
        // PrairieLearn must hear why: not a score, no attempt charged.
        let why = super::error_chain(e);
        let mut bytes = Vec::new();
        report::render_ungraded(&Ungraded::Grader(why), &mut bytes)
            .map_err(Error::io(format!("cannot write {}", file.display())))?;
        grading::write_atomically(&file, &bytes)?;
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
            .unwrap_or_else(|| grading::DEFAULT_CHALLENGE.to_owned()),
    };
    let student: PathBuf = root.join("student");
    if !student.is_dir() {
        return Err(Error::Usage(format!(
            "{} is missing: PrairieLearn puts the student's files there",
            student.display()
        )));
    }
    // The folder is one student's, never a class: without the entry file
    // it is their format error, told them before anything runs.
    if !grading::entry_names()
        .iter()
        .any(|name| student.join(name).is_file())
    {
        let why = crate::batch::no_entry_file(&student)?;
        let mut bytes = Vec::new();
        report::render_ungraded(&Ungraded::NothingToGrade(why), &mut bytes)
            .map_err(Error::io(format!("cannot write {}", file.display())))?;
        grading::write_atomically(file, &bytes)?;
        return Ok(Status::Passed);
    }
    let grade = GradeArgs {
        format: Format::Prairielearn,
        output: Some(file.to_owned()),
        // Students see the results: hidden groups' details stay out.
        audience: Some(Audience::Learner),
        jobs: Some(1),
        exit_zero: true,
        ..GradeArgs::of(
            GradingArgs {
                no_sandbox: args.no_sandbox,
                require_sandbox: args.require_sandbox,
                ..GradingArgs::of(challenge, args.cache_dir.clone())
            },
            vec![student],
        )
    };
    let report = super::graded(
        super::Challenges::Find(Some(&challenges)),
        &grade,
        &[],
        None,
        None,
    )?;
    super::warn_of_missing_layers(&report);
    let human = report::HumanOptions::default();
    super::publish(&report, grade.format, Some(file), None, true, &human, out)
}

/// `params.challenge` of PrairieLearn's `data.json`, if it names one. Only
/// a missing file means there is none: one that cannot be read, is not
/// UTF-8 or not JSON, or names a challenge with something other than a
/// string, is the course's problem to hear of, not a reason to grade
/// against the default challenge.
fn from_data(path: &Path) -> Result<Option<String>, Error> {
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::Usage(format!(
                "cannot read {}: {e}; PrairieLearn writes the question's data there",
                path.display()
            )));
        }
    };
    let text = String::from_utf8(bytes).map_err(|e| {
        Error::Usage(format!(
            "{}: not UTF-8 (an invalid byte at offset {}); data.json must be UTF-8 JSON",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })?;
    let data: serde_json::Value = serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: not JSON ({e})",
            path.display(),
            e.line(),
            e.column()
        ))
    })?;
    let params = &data["params"];
    if !data.is_object() || !(params.is_object() || params.is_null()) {
        return Err(Error::Usage(format!(
            "{}: not a JSON object with an object params; PrairieLearn's data.json is {{\"params\": {{...}}, ...}}",
            path.display()
        )));
    }
    match &params["challenge"] {
        serde_json::Value::Null => Ok(None),
        serde_json::Value::String(id) => Ok(Some(id.clone())),
        other => Err(Error::Usage(format!(
            "{}: params.challenge is {other}, not a string; give the challenge's id, e.g. \"{}\"",
            path.display(),
            grading::DEFAULT_CHALLENGE
        ))),
    }
}
