//! What each command does, returning data for `main` to map to an exit code.

mod prairielearn;
mod rejudge;

use crate::batch;
use crate::challenge::{self, Challenge};
use crate::cli::{
    AddArgs, AuditArgs, AuditFormat, BlessArgs, Cli, Command, GenArgs, GradeArgs, InitArgs,
    MergeArgs, SuiteArgs,
};
use crate::error::Error;
use crate::exec::{Environment, RunOptions, SessionLimits};
use crate::lang::Submission;
use crate::report::{self, Format};
use std::io::Write;

/// Exit codes, as documented in docs/ci-and-instructors.md.
pub mod exit {
    /// Every graded submission passed every test.
    pub const PASSED: u8 = 0;
    /// Some test failed.
    pub const FAILED: u8 = 1;
    /// Bad usage, or invalid challenge or test files.
    pub const INVALID: u8 = 2;
    /// The grader itself failed.
    pub const GRADER_FAULT: u8 = 3;
}

/// How a command ended when it did not fail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Everything checked passed.
    Passed,
    /// A test failed.
    Failed,
}

/// The exit code of an error.
pub fn exit_code(error: &Error) -> u8 {
    match error {
        Error::Usage(_) | Error::Invalid(_) => exit::INVALID,
        Error::Runtime { .. } | Error::Busy(_) | Error::Io { .. } => exit::GRADER_FAULT,
    }
}

/// Runs the command `cli` names, writing to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<Status, Error> {
    match &cli.command {
        Command::Grade(args) => grade(cli, args, out),
        Command::Hash { texts } => {
            refuse_challenges(
                cli,
                "hash",
                "the pinned hash is the same in every challenge",
            )?;
            for text in texts {
                writeln!(out, "{}\t{text}", reference::h32(text))
                    .map_err(Error::io("cannot write output"))?;
            }
            Ok(Status::Passed)
        }
        Command::List => list(cli, out),
        Command::Init(args) => init(cli, args, out),
        Command::Merge(args) => {
            refuse_challenges(cli, "merge", "it reads only the reports it is given")?;
            merge(args, out)
        }
        Command::Prairielearn(args) => prairielearn::prairielearn(cli, args, out),
        Command::Rejudge(args) => rejudge::rejudge(cli, args, out),
        Command::Compare(args) => {
            refuse_challenges(cli, "compare", "it reads only the reports it is given")?;
            rejudge::compare(args, out)
        }
        Command::Audit(args) => audit(cli, args, out),
        Command::Add(args) => add(cli, args, out),
        Command::Bless(args) => bless(cli, args, out),
        Command::Validate(args) => validate(cli, args, out),
        Command::Gen(args) => generate(cli, args, out),
    }
}

/// A `--challenges` given to a command that reads no challenge is a
/// mistake to say, not an option to ignore.
fn refuse_challenges(cli: &Cli, command: &str, why: &str) -> Result<(), Error> {
    match &cli.challenges {
        Some(dir) => Err(Error::Usage(format!(
            "`grader {command}` takes no --challenges ({} given): {why}",
            dir.display()
        ))),
        None => Ok(()),
    }
}

fn grade(cli: &Cli, args: &GradeArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let output = args.output.as_deref().map(absolute).transpose()?;
    let gradebook = args.gradebook.as_deref().map(absolute).transpose()?;
    check_outputs(args.format, output.as_deref(), gradebook.as_deref())?;
    let results = args.results.as_deref().map(absolute).transpose()?;
    let report = graded(cli.challenges.as_deref(), args, results.as_deref())?;
    publish(
        &report,
        args.format,
        output.as_deref(),
        gradebook.as_deref(),
        args.exit_zero,
        out,
    )
}

/// `p` made absolute: every session runs in a scratch folder of its own,
/// where a path relative to here names nothing (a relative cache made
/// every TypeScript module "not found").
fn absolute(p: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    std::path::absolute(p).map_err(Error::io(format!("cannot resolve {}", p.display())))
}

/// Grades what `args` names (with the challenges in `challenges`), saving
/// each result in `results` when given, and answers the report.
fn graded(
    challenges: Option<&std::path::Path>,
    args: &GradeArgs,
    results: Option<&std::path::Path>,
) -> Result<report::Report, Error> {
    // Every session runs in a scratch folder of its own, where a path
    // relative to here names nothing (a relative cache made every
    // TypeScript module "not found"): every path is made absolute first.
    let tests = args.tests.as_deref().map(absolute).transpose()?;
    let cache_dir = absolute(&args.cache_dir.clone().unwrap_or_else(default_cache_dir))?;
    let root = absolute(&challenge::root(challenges)?)?;
    // The command line's limits are held to challenge.toml's least values.
    for (flag, key, value) in [
        ("--time-limit", "time_ms", args.time_limit),
        ("--memory-limit", "memory_mb", args.memory_limit),
        ("--output-limit", "output_mb", args.output_limit),
        ("--extra-run-limit", "extra_run_ms", args.extra_run_limit),
        ("--extras-budget", "extras_budget_ms", args.extras_budget),
    ] {
        if let Some(value) = value {
            challenge::limits::check(key, value)
                .map_err(|why| Error::Usage(format!("{flag} {value}: {why}")))?;
        }
    }
    let challenge = Challenge::load(&root, &args.challenge)?;
    let (dir, own) = challenge.suite_dir(tests.as_deref());
    let mut suite = challenge.load_suite(&dir, own)?;
    // A wrong expected file stops the run before anyone is graded by it.
    crate::author::check_expected(&challenge, &suite)?;
    // Named files must be gradable (a typo is bad usage); entries found in
    // a batch folder that are not become that student's failure instead.
    for path in args.paths.iter().filter(|p| !p.is_dir()) {
        Submission::detect(path)?;
    }
    let found = batch::entries(&args.paths)?;
    if !found.skipped.is_empty() {
        eprintln!(
            "warning: not graded, as no submissions: {} (a student is a folder holding router.*, or a file of a known language, or an executable)",
            found
                .skipped
                .iter()
                .map(|p| crate::report::text::visible(&p.display().to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut entries = found.entries;
    if let Some(shard) = args.shard {
        entries.retain(|e| batch::shard_of(&e.name, shard.count) == shard.index);
    }
    if let Some(format) = single(args.format).filter(|_| entries.len() != 1) {
        return Err(Error::Usage(format!(
            "--format {format} describes one submission (its results.json), and {} were given; grade them one at a time",
            entries.len()
        )));
    }
    let submissions: Vec<&std::path::Path> = entries
        .iter()
        .filter_map(|e| e.file.as_deref().ok())
        .collect();
    let l = &challenge.config.limits;
    let mib = |n: u64| n.saturating_mul(1 << 20);
    let mut protected = vec![root.clone(), suite.dir.clone()];
    protected.extend(tests.clone());
    protected.extend(
        submissions
            .iter()
            .filter_map(|p| std::path::absolute(p).ok()),
    );
    let env = Environment::new(RunOptions {
        sandbox: !args.no_sandbox,
        require_sandbox: args.require_sandbox,
        limits: SessionLimits {
            memory_bytes: mib(args.memory_limit.unwrap_or(l.memory_mb)),
            output_bytes: mib(args.output_limit.unwrap_or(l.output_mb)),
            processes: l.processes,
            open_files: l.open_files,
            file_size_bytes: mib(l.file_size_mb),
            scratch_bytes: mib(l.scratch_mb),
        },
        protected,
        cache_dir,
    })?;
    let layers = env.layers();
    if layers.enabled && !layers.missing.is_empty() {
        eprintln!(
            "warning: the sandbox is incomplete on this machine ({}); grading goes on with the rest (--require-sandbox refuses instead)",
            layers.missing.join(", ")
        );
    }
    if let Some(ms) = args.time_limit {
        for group in &mut suite.groups {
            group.time_limit = std::time::Duration::from_millis(ms);
        }
    }
    let grading = crate::grade::Grading {
        challenge: &challenge,
        suite: &suite,
        env: &env,
        // Gradescope shows a published result to its student: hidden
        // tests' details stay out unless asked for by name.
        audience: args.audience.unwrap_or(if single(args.format).is_some() {
            report::Audience::Learner
        } else {
            report::Audience::Instructor
        }),
        extras: crate::extra::ExtraLimits {
            run_floor: std::time::Duration::from_millis(
                args.extra_run_limit.unwrap_or(l.extra_run_ms),
            ),
            budget_cap: std::time::Duration::from_millis(
                args.extras_budget.unwrap_or(l.extras_budget_ms),
            ),
        },
        started_at_ms: crate::grade::now_ms(),
        shard: args.shard,
        derived: Default::default(),
    };
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |j| j as usize,
    );
    let command = rejudge::record(&root, args, grading.audience)?;
    let graded = batch::run(&grading, &entries, jobs, results, args.resume, &command)?;
    Ok(grading.report(graded))
}

/// Proves every file a run will write can be written, before the work
/// that writing it would otherwise lose.
fn check_outputs(
    format: Format,
    output: Option<&std::path::Path>,
    gradebook: Option<&std::path::Path>,
) -> Result<(), Error> {
    use crate::fsutil::{check_appendable, check_writable};
    if let Some(path) = output {
        check_writable(path, "--output")?;
    }
    if let Some(path) = gradebook {
        check_writable(path, "--gradebook")?;
    }
    match std::env::var_os("GITHUB_STEP_SUMMARY") {
        Some(path) if format == Format::Github => {
            check_appendable(std::path::Path::new(&path), "$GITHUB_STEP_SUMMARY")
        }
        _ => Ok(()),
    }
}

/// Writes a finished report where it was asked for, with its gradebook,
/// and says how the run ended.
fn publish(
    report: &report::Report,
    format: Format,
    output: Option<&std::path::Path>,
    gradebook: Option<&std::path::Path>,
    exit_zero: bool,
    out: &mut dyn Write,
) -> Result<Status, Error> {
    match output {
        Some(path) => {
            let mut bytes = Vec::new();
            report::render(report, format, &mut bytes)
                .map_err(Error::io("cannot render the report"))?;
            let bytes = if matches!(format, Format::Human | Format::Github) {
                strip_ansi(&bytes)
            } else {
                bytes
            };
            crate::fsutil::write_atomically(path, &bytes)?;
        }
        None => quiet_broken_pipe(report::render(report, format, out))
            .map_err(Error::io("cannot write the report"))?,
    }
    if format == Format::Github {
        report::append_summary(report)
            .map_err(Error::io("cannot append to $GITHUB_STEP_SUMMARY"))?;
    }
    if let Some(path) = gradebook {
        let json = path.extension().is_some_and(|e| e == "json");
        crate::fsutil::write_atomically(path, &report::gradebook::render_gradebook(report, json))?;
    }
    // The report is out, with every submission the grader failed on
    // recorded as such; the run still ends as the grader's fault (exit 3),
    // --exit-zero or not, so that CI sees it.
    let faulted: Vec<&report::SubmissionReport> = report
        .submissions
        .iter()
        .filter(|s| s.verdict == crate::judge::Verdict::GraderFault)
        .collect();
    if let Some(first) = faulted.first() {
        let why = first.tests.first().map_or("", |t| t.message.as_str());
        return Err(Error::Io {
            context: format!(
                "the grader failed on {} (recorded in the report as grader-fault; the others were graded)",
                crate::words::counted(faulted.len(), "submission")
            ),
            source: std::io::Error::other(format!("{}: {why}", first.name)),
        });
    }
    Ok(if report.all_passed() || exit_zero {
        Status::Passed
    } else {
        Status::Failed
    })
}

/// `grader merge`: shard reports into one.
fn merge(args: &MergeArgs, out: &mut dyn Write) -> Result<Status, Error> {
    check_outputs(
        args.format,
        args.output.as_deref(),
        args.gradebook.as_deref(),
    )?;
    let mut reports = Vec::new();
    for path in &args.files {
        reports.push((path.clone(), read_report(path)?));
    }
    let merged = batch::merge(reports)?;
    if let Some(format) = single(args.format).filter(|_| merged.submissions.len() != 1) {
        return Err(Error::Usage(format!(
            "--format {format} describes one submission (its results.json), and the merged report has {}; merge to json, or pass one submission's report",
            merged.submissions.len()
        )));
    }
    publish(
        &merged,
        args.format,
        args.output.as_deref(),
        args.gradebook.as_deref(),
        args.exit_zero,
        out,
    )
}

/// The name of `format` when it describes one submission (a platform's
/// results.json, which its student sees).
fn single(format: Format) -> Option<&'static str> {
    match format {
        Format::Gradescope => Some("gradescope"),
        Format::Prairielearn => Some("prairielearn"),
        _ => None,
    }
}

/// The JSON report in `path`, or why it is none.
fn read_report(path: &std::path::Path) -> Result<report::Report, Error> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| Error::Usage(format!("cannot read report {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        Error::Usage(format!(
            "{}:{}:{}: not a report written by `grader grade --format json` ({e})",
            path.display(),
            e.line(),
            e.column()
        ))
    })
}

/// `grader audit`: every known mistake against the suite.
fn audit(cli: &Cli, args: &AuditArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite)?;
    let suite = challenge.load_suite(&dir, own)?;
    let cases: Vec<&challenge::Case> = suite.cases().collect();
    let rows = crate::diagnose::audit(&challenge, &cases);
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

/// The challenge and the folder an authoring command works in.
fn authoring(cli: &Cli, args: &SuiteArgs) -> Result<(Challenge, std::path::PathBuf, bool), Error> {
    let root = challenge::root(cli.challenges.as_deref())?;
    let challenge = Challenge::load(&root, &args.challenge)?;
    let (dir, own) = challenge.suite_dir(args.tests.as_deref());
    Ok((challenge, dir, own))
}

fn add(cli: &Cli, args: &AddArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite)?;
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
    let pasted = crate::author::parse_pasted(&text).map_err(Error::Usage)?;
    let (case, expected) = crate::author::add(&challenge, &folder, &args.name, &pasted)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

fn bless(cli: &Cli, args: &BlessArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite)?;
    let suite = challenge.load_suite_with(&dir, own, false)?;
    let changes = crate::author::blessings(&challenge, &suite);
    report::authoring::render_bless(&changes, args.check, out)
        .map_err(Error::io("cannot write output"))?;
    if changes.is_empty() {
        return Ok(Status::Passed);
    }
    if args.check {
        return Ok(Status::Failed);
    }
    crate::author::bless(&changes)?;
    Ok(Status::Passed)
}

fn validate(cli: &Cli, args: &SuiteArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, args)?;
    // Loading checks challenge.toml, every case and every expected file.
    let suite = challenge.load_suite(&dir, own)?;
    let findings = crate::author::validate(&challenge, &suite);
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

fn generate(cli: &Cli, args: &GenArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let (challenge, dir, own) = authoring(cli, &args.suite)?;
    let folder = challenge.case_folder(&dir, own, &args.group, &args.name)?;
    let request = crate::generate::Request {
        profile: args.profile,
        seed: args.seed,
        nodes: args.nodes,
        ops: args.ops,
        dir: &folder,
        name: &args.name,
    };
    let (case, expected) = crate::generate::generate(&challenge, &request)?;
    writeln!(out, "wrote {} and {}", case.display(), expected.display())
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

/// Copies a challenge's starter into a folder, never over an existing file.
fn init(cli: &Cli, args: &InitArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let root = challenge::root(cli.challenges.as_deref())?;
    let challenge = Challenge::load(&root, &args.challenge)?;
    let name = args
        .lang
        .starter()
        .ok_or_else(|| Error::Usage(format!("{:?} has no starter", args.lang)))?;
    let name = name.as_str();
    let starter = challenge.dir.join("starters").join(name);
    let text = std::fs::read(&starter).map_err(|e| {
        Error::Usage(format!(
            "challenge `{}` has no {name} starter ({}: {e})",
            challenge.id,
            starter.display()
        ))
    })?;
    let dir = args.dir.clone().unwrap_or_else(|| ".".into());
    std::fs::create_dir_all(&dir).map_err(Error::io(format!("cannot create {}", dir.display())))?;
    let target = dir.join(name);
    let mut file = match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&target)
    {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            return Err(Error::Usage(format!(
                "{} already exists; nothing was written (move it away or choose another folder)",
                target.display()
            )));
        }
        Err(e) => return Err(Error::io(format!("cannot create {}", target.display()))(e)),
    };
    file.write_all(&text)
        .map_err(Error::io(format!("cannot write {}", target.display())))?;
    let mut command = "grader grade".to_owned();
    if challenge.id != challenge::DEFAULT_CHALLENGE {
        command.push_str(&format!(" --challenge {}", challenge.id));
    }
    writeln!(
        out,
        "wrote {} (the {} starter: h32 is done, the rest is yours)\nwhen ready, check it with: {command} {}",
        target.display(),
        challenge.config.title,
        target.display()
    )
    .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

/// `$XDG_CACHE_HOME/rendezvous-grader`, else `~/.cache/rendezvous-grader`,
/// else a folder in the system's temporary folder.
fn default_cache_dir() -> std::path::PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(std::path::PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| std::path::PathBuf::from(h).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("rendezvous-grader")
}

/// A reader that stopped reading (`grader ... | head`) is not a failure.
fn quiet_broken_pipe(result: std::io::Result<()>) -> std::io::Result<()> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

fn strip_ansi(bytes: &[u8]) -> Vec<u8> {
    anstream::adapter::strip_bytes(bytes).into_vec()
}

fn list(cli: &Cli, out: &mut dyn Write) -> Result<Status, Error> {
    let root = challenge::root(cli.challenges.as_deref())?;
    let mut listed = Vec::new();
    for c in challenge::list(&root)? {
        let suite = c.load_suite(&c.tests_dir(), true)?;
        listed.push((c, suite));
    }
    quiet_broken_pipe(report::authoring::render_list(&listed, out))
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}
