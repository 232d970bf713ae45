//! `grader classroom50`: the grading step of a Classroom 50 autograder
//! (`autograder.py`, run by the runner with the student's checkout as its
//! working folder). It grades the checkout (`--root`, default `.`) and
//! writes `ROOT/result.json` in the `classroom50/result/v1` contract (see
//! [`report::classroom50`]) and `ROOT/release-body.md`, the Release's
//! text; the learner's report goes to standard output, the job's log.
//!
//! The identity comes from the runner's environment (`CLASSROOM`,
//! `ASSIGNMENT`, `SUBMISSION_TAG`, `COMMIT_URL`, `RELEASE_URL`, and
//! `REVIEW_URL`, else `COMMIT_URL`); one missing stops the command before
//! anything runs. The challenges are `--challenges`, else the bundle's
//! (`$CLASSROOM50_BUNDLE_DIR/challenges`, where the runner unpacks the
//! assignment's autograder folder), else those built into the grader:
//! never a folder of the checkout, which the student writes.
//!
//! It exits 0 whenever the student's work was graded, whatever the grade.
//! When grading itself fails, no result.json is left (the runner then
//! records an error, not a score) and the command exits 2 or 3.

use super::{Challenges, Error, Fault, Status, Why};
use crate::cli::{Classroom50Args, Cli, GradeArgs, GradingArgs};
use report::Audience;
use report::{Classroom50Row as Row, Classroom50Run};
use std::io::Write;
use std::path::{Path, PathBuf};

pub(super) fn classroom50(
    cli: &Cli,
    args: &Classroom50Args,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let root = super::absolute_path(&args.root)?;
    let result = root.join("result.json");
    let body = root.join("release-body.md");
    // Left by an earlier run, they would be taken for this one's; the
    // names are the runner's, so whatever the student committed there (a
    // folder, a link: never followed) is removed too, or it would stop
    // the grading and leave no score.
    for file in [&result, &body] {
        let removed = match std::fs::symlink_metadata(file) {
            Ok(meta) if meta.is_dir() => std::fs::remove_dir_all(file),
            _ => std::fs::remove_file(file),
        };
        match removed {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                return Err(Error::io(format!("cannot remove {}", file.display()))(e));
            }
            _ => {}
        }
    }
    let graded = grade(cli, args, &root, &result, &body, out);
    let told = match &graded {
        Err(e) => Some(super::error_chain(e)),
        Ok(Status::Faulted(fault)) => Some(format!("{fault}: {}", fault.why)),
        Ok(_) => None,
    };
    if let Some(why) = told {
        // No score for the student: the runner records an error.
        let _ = std::fs::remove_file(&result);
        let _ = std::fs::remove_file(&body);
        let _ = writeln!(
            out,
            "::error::Not graded: the autograder failed, not your code; no score was recorded. Tell your instructor. ({})",
            report::visible(&report::one_line(&why))
        );
    }
    graded
}

fn grade(
    cli: &Cli,
    args: &Classroom50Args,
    root: &Path,
    result: &Path,
    body: &Path,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    let run = from_environment(|name| std::env::var(name).ok())?;
    let bundled = std::env::var_os("CLASSROOM50_BUNDLE_DIR")
        .map(|dir| PathBuf::from(dir).join("challenges"))
        .filter(|dir| dir.is_dir());
    let chosen = cli
        .challenges
        .clone()
        .or(bundled)
        .map(|dir| super::absolute_path(&dir))
        .transpose()?;
    if let Some(dir) = &chosen {
        outside_checkout(dir, root)?;
    }
    let challenges = match &chosen {
        Some(dir) => Challenges::Find(Some(dir)),
        None => Challenges::BuiltIn,
    };
    let grading = GradingArgs {
        no_sandbox: args.no_sandbox,
        require_sandbox: args.require_sandbox,
        ..GradingArgs::of(args.challenge.clone(), args.cache_dir.clone())
    };
    if !crate::batch::holds_entry_file(root) {
        // The checkout is one student's work, never a class: without the
        // entry file it is their mistake, every group at 0, said why.
        let setup = super::setup(challenges, &grading)?;
        let rows: Vec<Row> = setup
            .suite
            .groups
            .iter()
            .map(|g| Row {
                name: g.name.clone(),
                passed: false,
                points: report::Points::new(
                    0,
                    g.weight * setup.suite.denominator,
                    setup.suite.denominator,
                ),
            })
            .collect();
        let why = format!(
            "Your repository was not graded: {}. Commit that file and submit again.\n",
            report::upload_words(&crate::batch::no_entry_file(root)?)
        );
        write_result(&rows, &run, result)?;
        grading::write_atomically(body, why.as_bytes())?;
        out.write_all(why.as_bytes())
            .map_err(Error::io("cannot write the report"))?;
        return Ok(Status::Passed);
    }
    let grade = GradeArgs {
        format: report::Format::Human,
        // The student sees the Release and the log: hidden groups'
        // details stay out.
        audience: Some(Audience::Learner),
        jobs: Some(1),
        exit_zero: true,
        ..GradeArgs::of(grading, vec![root.to_owned()])
    };
    let report = super::graded(challenges, &grade, &[], None, None)?;
    super::warn_of_missing_layers(&report);
    let mut human = Vec::new();
    report::render_human_with(&report, &report::learner_options(), &mut human)
        .map_err(Error::io("cannot render the report"))?;
    let plain = anstream::adapter::strip_str(&String::from_utf8_lossy(&human)).to_string();
    super::quiet_broken_pipe(out.write_all(&human))
        .map_err(Error::io("cannot write the report"))?;
    let [submission] = report.submissions.as_slice() else {
        return Err(Error::Usage(format!(
            "{} holds {} submissions; Classroom 50 grades one student's checkout",
            root.display(),
            report.submissions.len()
        )));
    };
    let faulted = submission.verdict == report::contract::Verdict::GraderFault;
    let Some(rows) = report::classroom50_rows(submission).filter(|_| !faulted) else {
        let why = submission.tests.first().map_or("", |t| t.message.as_str());
        return Ok(Status::Faulted(Fault {
            what: "the grader failed on this submission (nothing was recorded for the student)"
                .to_owned(),
            why: Why(why.to_owned()),
        }));
    };
    write_result(&rows, &run, result)?;
    let md = report::classroom50_release_body(&report, &rows, &plain);
    grading::write_atomically(body, md.as_bytes())?;
    Ok(Status::Passed)
}

/// Writes `result.json` for `rows`.
fn write_result(rows: &[Row], run: &Classroom50Run, file: &Path) -> Result<(), Error> {
    let mut bytes = Vec::new();
    report::render_classroom50(rows, run, &mut bytes)
        .map_err(Error::io(format!("cannot write {}", file.display())))?;
    grading::write_atomically(file, &bytes)
}

/// The runner's variables, as `var` reads them; those missing or empty
/// named, with what to do.
fn from_environment(var: impl Fn(&str) -> Option<String>) -> Result<Classroom50Run, Error> {
    let required = [
        "CLASSROOM",
        "ASSIGNMENT",
        "SUBMISSION_TAG",
        "COMMIT_URL",
        "RELEASE_URL",
    ];
    let given = |name: &str| var(name).filter(|v| !v.trim().is_empty());
    let missing: Vec<&str> = required
        .into_iter()
        .filter(|name| given(name).is_none())
        .collect();
    if !missing.is_empty() {
        return Err(Error::Usage(format!(
            "{} not set: Classroom 50's runner sets them for autograder.py; to try it elsewhere, set them yourself (SUBMISSION_TAG=submit/trial ...)",
            missing.join(", ")
        )));
    }
    let get = |name: &str| given(name).unwrap_or_default();
    let submission = get("SUBMISSION_TAG");
    if !submission.starts_with("submit/") {
        return Err(Error::Usage(format!(
            "SUBMISSION_TAG is `{}`, and Classroom 50 takes only a submit/... tag in result.json; run from its runner, or set one (submit/trial)",
            report::visible(&submission)
        )));
    }
    let commit = get("COMMIT_URL");
    Ok(Classroom50Run {
        classroom: get("CLASSROOM"),
        assignment: get("ASSIGNMENT"),
        submission,
        review: given("REVIEW_URL").unwrap_or_else(|| commit.clone()),
        commit,
        release: get("RELEASE_URL"),
        graded_at_secs: std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs()),
    })
}

/// Refuses challenges inside the student's checkout: the student writes
/// every file there, expected outputs included.
fn outside_checkout(dir: &Path, root: &Path) -> Result<(), Error> {
    let real = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_owned());
    if real(dir).starts_with(real(root)) {
        return Err(Error::Usage(format!(
            "the challenges in {} are inside the student's checkout {}, which the student can change; ship them in the assignment's autograder folder ($CLASSROOM50_BUNDLE_DIR/challenges) or use the built-in ones",
            dir.display(),
            root.display()
        )));
    }
    Ok(())
}
