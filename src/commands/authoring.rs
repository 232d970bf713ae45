//! The authoring commands: `audit`, `add`, `bless`, `validate` and `gen`,
//! each on a challenge's suite (or a `--tests` folder).

use super::{Error, Status};
use crate::cli::{
    AddArgs, AuditArgs, AuditFormat, BlessArgs, Cli, GenArgs, GradeArgs, GradingArgs, SuiteArgs,
    SuitesArgs,
};
use grading::Problem;
use grading::{Challenge, Suite};
use std::io::Write;

/// `grader audit`: every known mistake against the suite, or against
/// each challenge's with `--all`.
pub(super) fn audit(cli: &Cli, args: &AuditArgs, out: &mut dyn Write) -> Result<Status, Error> {
    if !args.limits.is_empty() {
        return audit_limits(cli, args, out);
    }
    if !args.submissions.is_empty() {
        return audit_submissions(cli, args, out);
    }
    let suites = every_suite(suites(cli, &args.suites, None, true)?)?;
    let audits: Vec<(&str, usize, Vec<grading::AuditRow>)> = suites
        .iter()
        .map(|(challenge, suite)| {
            let cases: Vec<&grading::Case> = suite.cases().collect();
            let rows = grading::audit(challenge, &cases);
            (challenge.id.as_str(), cases.len(), rows)
        })
        .collect();
    match (args.format, args.suites.all) {
        (AuditFormat::Json, false) => report::render_audit_json(&audits[0].2, out),
        (AuditFormat::Json, true) => {
            let each: Vec<(&str, &[grading::AuditRow])> = audits
                .iter()
                .map(|(id, _, rows)| (*id, rows.as_slice()))
                .collect();
            report::render_audits_json(&each, out)
        }
        (AuditFormat::Human, _) => {
            audits
                .iter()
                .enumerate()
                .try_for_each(|(i, (id, cases, rows))| {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    report::render_audit(id, *cases, rows, out)
                })
        }
    }
    .map_err(Error::io("cannot write output"))?;
    let gaps = audits
        .iter()
        .any(|(_, _, rows)| rows.iter().any(|r| r.caught_by.is_empty()));
    Ok(if gaps { Status::Failed } else { Status::Passed })
}

/// `grader audit --limits`: the correct submissions named graded one at a
/// time (so that none slows another), the CPU time of every case they
/// pass, and each group's limit proposed from it; written to
/// challenge.toml with `--write`.
fn audit_limits(cli: &Cli, args: &AuditArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let writes = args.write.then_some("audit --limits --write");
    let (challenge, dir, own) = authoring(cli, &args.suites.suite, writes)?;
    if args.write && !own {
        return Err(Error::Usage(
            "--write sets the limits of the challenge's own groups, and --tests names other cases: measure without --write, and set time_ms in challenge.toml yourself".into(),
        ));
    }
    let suite = challenge.load_suite(&dir, own)?;
    let file = challenge.dir.join("challenge.toml");
    if args.write {
        // What would stop the write stops the command before anything is
        // measured: a file that cannot be replaced, or a form of it the
        // limits cannot be written into.
        grading::check_writable(&file, "challenge.toml")?;
        let text = std::fs::read_to_string(&file)
            .map_err(Error::io(format!("cannot read {}", file.display())))?;
        grading::rewrite_limits(&text, &file, &grading::unchanged_limits(&suite))?;
    }
    // Measured under a limit well above the current ones, so that a
    // correct submission slower than they allow is measured, not cut.
    let measuring = suite
        .groups
        .iter()
        .map(|g| g.time_limit.as_millis() as u64)
        .max()
        .unwrap_or(0)
        .saturating_mul(4)
        .max(MEASURING_LEAST_MS);
    let grade = GradeArgs {
        // One at a time: a submission measured beside another would be
        // measured with its share of the machine's memory bandwidth.
        jobs: Some(1),
        audience: Some(report::Audience::Instructor),
        exit_zero: true,
        ..GradeArgs::of(
            GradingArgs {
                tests: args.suites.suite.tests.clone(),
                time_limit: Some(measuring),
                ..GradingArgs::of(args.suites.suite.challenge.clone(), args.cache_dir.clone())
            },
            args.limits.clone(),
        )
    };
    let graded = super::graded(
        super::Challenges::Find(cli.challenges.as_deref()),
        &grade,
        &[],
        None,
        None,
    )?;
    // A fault of the grader or the machine says nothing of the time
    // correct code takes: no limit is proposed from such a run.
    if let Some(s) = graded
        .submissions
        .iter()
        .find(|s| s.verdict == report::contract::Verdict::GraderFault)
    {
        let why = s
            .tests
            .iter()
            .find(|t| t.verdict == report::contract::Verdict::GraderFault)
            .map_or(String::new(), |t| format!(": {}", t.message));
        return Err(Error::Io {
            context: format!(
                "{} could not be measured, a fault of the grader or the machine{why}; nothing was written",
                s.path
            ),
            source: std::io::Error::other("grader fault"),
        });
    }
    let mut timings = Vec::new();
    let mut left_out = Vec::new();
    for submission in &graded.submissions {
        if submission.verdict != report::contract::Verdict::Accepted {
            left_out.push((submission.path.clone(), submission.verdict));
            continue;
        }
        let language = serde_json::to_value(submission.language)
            .ok()
            .and_then(|v| v.as_str().map(str::to_owned))
            .unwrap_or_default();
        timings.extend(submission.tests.iter().map(|t| grading::CaseTiming {
            group: t.group.clone(),
            case: t.name.clone(),
            by: submission.path.clone(),
            language: language.clone(),
            cpu: std::time::Duration::from_millis(t.cpu_ms),
        }));
    }
    let rows = grading::proposed_limits(&challenge, &suite, &timings);
    // Written only from every submission named, each correct: one left out
    // (wrong, or cut by the measuring limit) would leave its language's
    // time out of the limits.
    let written = match args.write && !timings.is_empty() && left_out.is_empty() {
        true => {
            let text = std::fs::read_to_string(&file)
                .map_err(Error::io(format!("cannot read {}", file.display())))?;
            let new = grading::rewrite_limits(&text, &file, &rows)?;
            if new != text {
                // Replaced with the file's own permissions.
                let mode = std::fs::metadata(&file)
                    .map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions()) & 0o7777)
                    .unwrap_or(0o644);
                grading::write_atomically_with_mode(&file, new.as_bytes(), mode)?;
            }
            Some(file.as_path())
        }
        false => None,
    };
    let view = report::Limits {
        write: args.write,
        challenge: &challenge.id,
        measured: graded.submissions.len() - left_out.len(),
        rows: &rows,
        left_out: &left_out,
        file: &file,
        written,
    };
    match args.format {
        AuditFormat::Json => report::render_limits_json(&view, out),
        AuditFormat::Human => report::render_limits(&view, out),
    }
    .map_err(Error::io("cannot write output"))?;
    // A submission given as correct that is not is the author's to look
    // at, and so is a suite no correct submission passed.
    Ok(match left_out.is_empty() && !timings.is_empty() {
        true => Status::Passed,
        false => Status::Failed,
    })
}

/// `grader audit --submissions`: the submissions graded with every test
/// shown, each that passes them all explored, and the counterexamples
/// found proposed as cases (written with `--write-cases`). Exit 1 when a
/// case is proposed: the suite lets a wrong submission through.
fn audit_submissions(cli: &Cli, args: &AuditArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, _, _) = authoring(cli, &args.suites.suite, None)?;
    let seed = args.explore_seed.unwrap_or(grading::DEFAULT_EXPLORE_SEED);
    // Checked before anything is graded: a folder that cannot take the
    // cases stops the command while nothing is spent.
    if let Some(dir) = &args.write_cases {
        std::fs::create_dir_all(dir).map_err(Error::io(format!(
            "cannot make {} for the proposed cases",
            dir.display()
        )))?;
        grading::check_writable(&dir.join("case.json"), "a case into --write-cases, as")?;
    }
    let grade = GradeArgs {
        // The author sees every test, hidden ones too: exploring starts
        // once the whole suite passes.
        audience: Some(report::Audience::Instructor),
        exit_zero: true,
        explore: Some(args.explore),
        explore_seed: Some(seed),
        ..GradeArgs::of(
            GradingArgs {
                tests: args.suites.suite.tests.clone(),
                ..GradingArgs::of(args.suites.suite.challenge.clone(), args.cache_dir.clone())
            },
            args.submissions.clone(),
        )
    };
    let graded = super::graded(
        super::Challenges::Find(cli.challenges.as_deref()),
        &grade,
        &[],
        None,
        None,
    )?;
    let mut proposals = report::proposals(&graded.submissions);
    if let Some(dir) = &args.write_cases {
        // A case already there is the author's: never replaced, and then
        // none is written.
        let file = |p: &report::Proposal| dir.join(format!("{}.json", p.name));
        if let Some(there) = proposals.iter().map(file).find(|f| f.exists()) {
            return Err(Error::Usage(format!(
                "{} exists already; no case was written: move it, or write the cases to an empty folder",
                there.display()
            )));
        }
        for p in &mut proposals {
            let file = file(p);
            let text = format!("{}\n", p.case);
            grading::write_atomically_with_mode(&file, text.as_bytes(), 0o644)?;
            p.written = Some(file);
        }
    }
    let view = report::Explored {
        challenge: &challenge.id,
        time: args.explore,
        seed,
        submissions: &graded.submissions,
        proposals: &proposals,
        write_to: args
            .write_cases
            .as_deref()
            .filter(|_| !proposals.is_empty()),
        add: &match &args.suites.suite.tests {
            Some(tests) => format!(
                "grader add --challenge {} --tests {}",
                challenge.id,
                tests.display()
            ),
            None => format!("grader add --challenge {}", challenge.id),
        },
    };
    match args.format {
        AuditFormat::Json => report::render_explored_json(&view, out),
        AuditFormat::Human => report::render_explored(&view, out),
    }
    .map_err(Error::io("cannot write output"))?;
    Ok(match proposals.is_empty() {
        true => Status::Passed,
        false => Status::Failed,
    })
}

/// The least time limit `audit --limits` measures under, in ms.
const MEASURING_LEAST_MS: u64 = 20_000;

/// The challenge and the folder an authoring command works in. A command
/// that writes (`writes`, its name) may not write into the embedded
/// challenges' folder.
fn authoring(
    cli: &Cli,
    args: &SuiteArgs,
    writes: Option<&str>,
) -> Result<(Challenge, std::path::PathBuf, bool), Error> {
    let root = grading::Root::find(cli.challenges.as_deref(), &grading::default_cache_dir())?;
    let challenge = root.load(&args.challenge)?;
    let (dir, own) = challenge.suite_dir(args.tests.as_deref());
    if let Some(command) = writes
        && own
    {
        root.check_writable(&format!("`grader {command}`"))?;
    }
    Ok((challenge, dir, own))
}

/// One suite loaded for a command that reads suites, or the problems
/// that kept it from loading.
pub(super) type Loaded = Result<(Challenge, Suite), Vec<Problem>>;

/// The suites `args` names: one challenge's (or a `--tests` folder), or
/// with `--all` every challenge's own, each loaded (its expected files
/// read when `read_expected`) or with the problems that stopped it. A
/// command that writes (`writes`, its name) may not write into the
/// embedded challenges' folder.
fn suites(
    cli: &Cli,
    args: &SuitesArgs,
    writes: Option<&str>,
    read_expected: bool,
) -> Result<Vec<Loaded>, Error> {
    if !args.all {
        let (challenge, dir, own) = authoring(cli, &args.suite, writes)?;
        let suite = challenge.load_suite_with(&dir, own, read_expected);
        return Ok(vec![loaded(suite.map(|suite| (challenge, suite)))?]);
    }
    let root = grading::Root::find(cli.challenges.as_deref(), &grading::default_cache_dir())?;
    if let Some(command) = writes {
        root.check_writable(&format!("`grader {command} --all`"))?;
    }
    let each = each_challenge(&root, read_expected)?;
    if each.is_empty() {
        return Err(Error::Usage(format!(
            "--all: there is no challenge in {} (a folder with a challenge.toml)",
            root.source.describe()
        )));
    }
    Ok(each)
}

/// A suite loaded, as [`Loaded`]: invalid files are the suite's problems
/// to list, any other error stops the command.
fn loaded(result: Result<(Challenge, Suite), Error>) -> Result<Loaded, Error> {
    match result {
        Ok(pair) => Ok(Ok(pair)),
        Err(Error::Invalid { problems, .. }) => Ok(Err(problems)),
        Err(other) => Err(other),
    }
}

/// Every challenge of `root` with its own suite (its expected files read
/// when `read_expected`), each loaded or with the problems that stopped
/// it: one that does not load does not hide the others' problems.
pub(super) fn each_challenge(
    root: &grading::Root,
    read_expected: bool,
) -> Result<Vec<Loaded>, Error> {
    root.ids()?
        .iter()
        .map(|id| {
            loaded(root.load(id).and_then(|challenge| {
                let suite =
                    challenge.load_suite_with(&challenge.tests_dir(), true, read_expected)?;
                Ok((challenge, suite))
            }))
        })
        .collect()
}

/// Every suite, or the problems of all that did not load: a command that
/// changes or judges suites works on all or on none.
pub(super) fn every_suite(loaded: Vec<Loaded>) -> Result<Vec<(Challenge, Suite)>, Error> {
    let mut suites = Vec::new();
    let mut problems = Vec::new();
    for one in loaded {
        match one {
            Ok(pair) => suites.push(pair),
            Err(found) => problems.extend(found),
        }
    }
    match problems.is_empty() {
        true => Ok(suites),
        false => Err(Error::invalid(problems)),
    }
}

pub(super) fn add(cli: &Cli, args: &AddArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, _) = authoring(cli, &args.suite, Some("add"))?;
    let folder = challenge.case_folder(&dir, &args.group, &args.name)?;
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
    let pasted = grading::parse_pasted(&text).map_err(Error::Usage)?;
    let (case, expected) = grading::add_case(&challenge, &folder, &args.name, &pasted)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

pub(super) fn bless(cli: &Cli, args: &BlessArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let writes = (!args.check).then_some("bless");
    // Expected files are not read: they may be broken, and bless rewrites
    // them.
    let suites = every_suite(suites(cli, &args.suites, writes, false)?)?;
    let changes: Vec<(&str, Vec<grading::Blessing>)> = suites
        .iter()
        .map(|(challenge, suite)| (challenge.id.as_str(), grading::blessings(challenge, suite)))
        .collect();
    for (id, changed) in &changes {
        report::render_bless(id, changed, args.check, out)
            .map_err(Error::io("cannot write output"))?;
    }
    if changes.iter().all(|(_, changed)| changed.is_empty()) {
        return Ok(Status::Passed);
    }
    if args.check {
        return Ok(Status::Failed);
    }
    for (_, changed) in &changes {
        grading::bless(changed)?;
    }
    Ok(Status::Passed)
}

/// `grader validate`: every problem of the suite, or of each challenge's
/// with `--all` (one that does not load does not stop the others).
pub(super) fn validate(cli: &Cli, args: &SuitesArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let mut problems = Vec::new();
    // Loading checks challenge.toml, every case and every expected file.
    for loaded in suites(cli, args, None, true)? {
        let (challenge, suite) = match loaded {
            Ok(pair) => pair,
            Err(found) => {
                problems.extend(found);
                continue;
            }
        };
        // Warnings here; errors once, with the others, in the list the
        // command ends with.
        let (errors, warnings): (Vec<_>, Vec<_>) = grading::validate_suite(&challenge, &suite)
            .into_iter()
            .partition(|f| f.error);
        report::render_findings(&warnings, out).map_err(Error::io("cannot write output"))?;
        let warnings = warnings.len();
        let errors: Vec<Problem> = errors.into_iter().map(|f| f.problem).collect();
        if errors.is_empty() {
            report::render_valid(&challenge.id, &suite, warnings, out)
                .map_err(Error::io("cannot write output"))?;
        }
        problems.extend(errors);
    }
    match problems.is_empty() {
        true => Ok(Status::Passed),
        false => Err(Error::invalid(problems)),
    }
}

pub(super) fn generate(cli: &Cli, args: &GenArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, _) = authoring(cli, &args.suite, Some("gen"))?;
    let folder = challenge.case_folder(&dir, &args.group, &args.name)?;
    let request = grading::GenRequest {
        profile: args.profile,
        seed: args.seed,
        nodes: args.nodes,
        ops: args.ops,
        dir: &folder,
        name: &args.name,
    };
    let (case, expected) = grading::generate(&challenge, &request)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}
