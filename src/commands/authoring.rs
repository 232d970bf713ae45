//! The authoring commands: `audit`, `add`, `bless`, `validate` and `gen`,
//! each on a challenge's suite (or a `--tests` folder).

use super::{Error, Status};
use crate::cli::{AddArgs, AuditArgs, AuditFormat, BlessArgs, Cli, GenArgs, SuiteArgs};
use grading::challenge::{self, Challenge};
use std::io::Write;

/// `grader audit`: every known mistake against the suite.
pub(super) fn audit(cli: &Cli, args: &AuditArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite, None)?;
    let suite = challenge.load_suite(&dir, own)?;
    let cases: Vec<&challenge::Case> = suite.cases().collect();
    let rows = grading::diagnose::audit(&challenge, &cases);
    match args.format {
        AuditFormat::Json => report::authoring::render_audit_json(&rows, out),
        AuditFormat::Human => {
            report::authoring::render_audit(&challenge.id, cases.len(), &rows, out)
        }
    }
    .map_err(Error::io("cannot write output"))?;
    Ok(if rows.iter().all(|r| !r.caught_by.is_empty()) {
        Status::Passed
    } else {
        Status::Failed
    })
}

/// The challenge and the folder an authoring command works in. A command
/// that writes (`writes`, its name) may not write into the embedded
/// challenges' folder.
fn authoring(
    cli: &Cli,
    args: &SuiteArgs,
    writes: Option<&str>,
) -> Result<(Challenge, std::path::PathBuf, bool), Error> {
    let root = challenge::Root::find(cli.challenges.as_deref(), &challenge::default_cache_dir())?;
    let challenge = root.load(&args.challenge)?;
    let (dir, own) = challenge.suite_dir(args.tests.as_deref());
    if let Some(command) = writes
        && own
    {
        root.check_writable(&format!("`grader {command}`"))?;
    }
    Ok((challenge, dir, own))
}

pub(super) fn add(cli: &Cli, args: &AddArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite, Some("add"))?;
    let folder = challenge.case_folder(&dir, own, &args.group, &args.name)?;
    let text = match &args.file {
        Some(file) => std::fs::read_to_string(file)
            .map_err(|e| Error::Usage(format!("cannot read {}: {e}", file.display())))?,
        None => {
            let mut text = String::new();
            std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
                .map_err(Error::io("cannot read standard input"))?;
            text
        }
    };
    let pasted = grading::author::parse_pasted(&text).map_err(Error::Usage)?;
    let (case, expected) = grading::author::add(&challenge, &folder, &args.name, &pasted)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

pub(super) fn bless(cli: &Cli, args: &BlessArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let writes = (!args.check).then_some("bless");
    let (challenge, dir, own) = authoring(cli, &args.suite, writes)?;
    let suite = challenge.load_suite_with(&dir, own, false)?;
    let changes = grading::author::blessings(&challenge, &suite);
    report::authoring::render_bless(&changes, args.check, out)
        .map_err(Error::io("cannot write output"))?;
    if changes.is_empty() {
        return Ok(Status::Passed);
    }
    if args.check {
        return Ok(Status::Failed);
    }
    grading::author::bless(&changes)?;
    Ok(Status::Passed)
}

pub(super) fn validate(cli: &Cli, args: &SuiteArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, args, None)?;
    // Loading checks challenge.toml, every case and every expected file.
    let suite = challenge.load_suite(&dir, own)?;
    let findings = grading::author::validate(&challenge, &suite);
    report::authoring::render_findings(&findings, out).map_err(Error::io("cannot write output"))?;
    if findings.iter().any(|f| f.error) {
        return Err(Error::Invalid(
            findings
                .into_iter()
                .filter(|f| f.error)
                .map(|f| f.problem)
                .collect(),
        ));
    }
    report::authoring::render_valid(&challenge.id, &suite, findings.len(), out)
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

pub(super) fn generate(cli: &Cli, args: &GenArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite, Some("gen"))?;
    let folder = challenge.case_folder(&dir, own, &args.group, &args.name)?;
    let request = grading::generate::Request {
        profile: args.profile,
        seed: args.seed,
        nodes: args.nodes,
        ops: args.ops,
        dir: &folder,
        name: &args.name,
    };
    let (case, expected) = grading::generate::generate(&challenge, &request)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}
