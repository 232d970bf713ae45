//! What each command does, returning data for `main` to map to an exit code.

mod authoring;
mod classroom50;
mod prairielearn;
mod rejudge;

use crate::batch;
use crate::cli::{Cli, Command, GradeArgs, GradingArgs, InitArgs, MergeArgs, WatchArgs};
use grading::Challenge;
use grading::Error;
use grading::Submission;
use report::contract::Verdict;
use report::{self, Format};
use sandbox::{Environment, RunOptions};
use std::io::Write;

mod publish;
use publish::{check_outputs, publish, quiet_broken_pipe};

pub use report::contract::exit;

/// How a command ended when it ran to its end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Status {
    /// Everything checked passed.
    Passed,
    /// A test failed.
    Failed,
    /// Everything asked for was done and written, but the grader could not
    /// judge some submission (its report records it as grader-fault): the
    /// run is the grader's fault whatever else it found.
    Faulted(Fault),
}

/// What the grader could not judge, and the first reason why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{what}")]
pub struct Fault {
    /// What was not judged, and what was done instead.
    pub what: String,
    #[source]
    pub why: Why,
}

/// The first fault's own words.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct Why(pub String);

impl Status {
    /// The exit code of a run that ended so: the one place statuses
    /// become codes.
    pub fn exit_code(&self) -> u8 {
        match self {
            Status::Passed => exit::PASSED,
            Status::Failed => exit::FAILED,
            Status::Faulted(_) => exit::GRADER_FAULT,
        }
    }
}

/// The exit code of an error.
pub fn exit_code(error: &Error) -> u8 {
    match error {
        Error::Usage(_) | Error::NothingToGrade(_) | Error::Invalid { .. } => exit::INVALID,
        Error::Runtime { .. } | Error::Busy(_) | Error::Io { .. } => exit::GRADER_FAULT,
    }
}

/// Runs the command `cli` names, writing to `out`.
pub fn run(cli: &Cli, out: &mut dyn Write) -> Result<Status, Error> {
    dispatch(cli, out).map_err(|error| match undone(&cli.command) {
        Some(what) => error.undone(what),
        None => error,
    })
}

/// What a command does not do when the challenge or test files are
/// invalid, to say so; `validate`'s work is to find them, and the others
/// read no such files.
fn undone(command: &Command) -> Option<&'static str> {
    match command {
        Command::Grade(_)
        | Command::Watch(_)
        | Command::Prairielearn(_)
        | Command::Classroom50(_) => Some("graded"),
        Command::Rejudge(_) => Some("rejudged"),
        Command::Audit(args) if !args.limits.is_empty() => Some("measured"),
        Command::Audit(_) => Some("audited"),
        Command::Add(_) | Command::Bless(_) | Command::Gen(_) | Command::Init(_) => Some("written"),
        Command::List => Some("listed"),
        Command::Show { .. } => Some("shown"),
        Command::Validate(_)
        | Command::Hash { .. }
        | Command::Merge(_)
        | Command::Compare(_)
        | Command::Schema { .. } => None,
    }
}

fn dispatch(cli: &Cli, out: &mut dyn Write) -> Result<Status, Error> {
    match &cli.command {
        Command::Grade(args) => grade(cli, args, out),
        Command::Watch(args) => watch(cli, args),
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
        Command::Show { challenge } => show(cli, challenge, out),
        Command::Init(args) => init(cli, args, out),
        Command::Merge(args) => {
            refuse_challenges(cli, "merge", "it reads only the reports it is given")?;
            merge(args, out)
        }
        Command::Prairielearn(args) => prairielearn::prairielearn(cli, args, out),
        Command::Classroom50(args) => classroom50::classroom50(cli, args, out),
        Command::Rejudge(args) => rejudge::rejudge(cli, args, out),
        Command::Compare(args) => {
            refuse_challenges(cli, "compare", "it reads only the reports it is given")?;
            rejudge::compare(args, out)
        }
        Command::Audit(args) => authoring::audit(cli, args, out),
        Command::Add(args) => authoring::add(cli, args, out),
        Command::Bless(args) => authoring::bless(cli, args, out),
        Command::Validate(args) => authoring::validate(cli, args, out),
        Command::Gen(args) => authoring::generate(cli, args, out),
        Command::Schema { document } => {
            refuse_challenges(
                cli,
                "schema",
                "the schemas are the same for every challenge",
            )?;
            out.write_all(document.schema_text().as_bytes())
                .map_err(Error::io("cannot write output"))?;
            Ok(Status::Passed)
        }
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
    if !args.grading.only.is_empty() {
        let grade = match (single(args.format), &args.gradebook, &args.results) {
            (Some(format), _, _) => Some(format!("--format {format}")),
            (_, Some(_), _) => Some("--gradebook".to_owned()),
            (_, _, Some(_)) => Some("--results".to_owned()),
            _ => None,
        };
        if let Some(what) = grade {
            return Err(partial_refused(&what));
        }
    }
    let output = args.output.as_deref().map(absolute_path).transpose()?;
    let gradebook = args.gradebook.as_deref().map(absolute_path).transpose()?;
    check_outputs(args.format, output.as_deref(), gradebook.as_deref())?;
    let results = args.results.as_deref().map(absolute_path).transpose()?;
    // Gradescope shows the student what results.json says, and nothing
    // when there is none: whatever the upload holds, it gets one (and so
    // does Codio's request).
    let gradescope = output
        .as_deref()
        .filter(|_| matches!(args.format, Format::Gradescope | Format::Codio));
    if let Some(file) = gradescope
        && let [upload] = args.paths.as_slice()
        && upload.is_dir()
        && !batch::holds_entry_file(upload)
    {
        ungraded(
            args.format,
            file,
            &report::Ungraded::NothingToGrade(batch::no_entry_file(upload)?),
        )?;
        return Ok(if args.exit_zero {
            Status::Passed
        } else {
            Status::Failed
        });
    }
    let on_stop = batch::interrupt::OnStop {
        results: args.results.as_deref(),
    };
    let graded = graded(
        Challenges::Find(cli.challenges.as_deref()),
        args,
        &[],
        results.as_deref(),
        Some(&on_stop),
    );
    let report = match (graded, gradescope) {
        (Ok(report), _) => report,
        (Err(e), Some(file)) => {
            // Said here too, for the message Gradescope shows.
            let e = e.undone("graded");
            ungraded(
                args.format,
                file,
                &report::Ungraded::Grader(error_chain(&e)),
            )?;
            return Err(e);
        }
        (Err(e), None) => return Err(e),
    };
    warn_of_missing_layers(&report);
    // On a terminal, a reader sees the first failures in full and the
    // rest in a line each; files, pipes and CI logs keep every one.
    let human = report::HumanOptions {
        folded: (!args.all
            && output.is_none()
            && std::io::IsTerminal::is_terminal(&std::io::stdout()))
        .then(|| report::Folded {
            in_full: FAILURES_IN_FULL,
            all_command: command_with_all(),
        }),
        ..Default::default()
    };
    publish(
        &report,
        args.format,
        output.as_deref(),
        gradebook.as_deref(),
        args.exit_zero,
        &human,
        out,
    )
}

/// Writes Gradescope's results.json (or Codio's request body, for `format`)
/// at `file` for an upload not graded.
fn ungraded(format: Format, file: &std::path::Path, why: &report::Ungraded) -> Result<(), Error> {
    let mut bytes = Vec::new();
    match format {
        Format::Codio => report::render_codio_ungraded(why, &mut bytes),
        _ => report::render_gradescope_ungraded(why, &mut bytes),
    }
    .map_err(Error::io(format!("cannot write {}", file.display())))?;
    grading::write_atomically(file, &bytes)
}

/// `e` with every cause after it, as one line.
fn error_chain(e: &Error) -> String {
    let mut why = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(cause) = source {
        why.push_str(&format!(": {cause}"));
        source = cause.source();
    }
    why
}

/// Grades what `args` names with `challenges`, and what each of
/// `resumed` names (a rejudged folder's runs beyond the first), saving
/// each result in `results` when given, and answers the report. With
/// `on_stop`, Ctrl-C or SIGTERM ends the grading saying so.
fn graded(
    challenges: Challenges,
    args: &GradeArgs,
    resumed: &[rejudge::Part],
    results: Option<&std::path::Path>,
    on_stop: Option<&batch::interrupt::OnStop<'_>>,
) -> Result<report::Report, Error> {
    let Setup {
        root,
        tests,
        add_tests,
        cache_dir,
        challenge,
        mut suite,
    } = setup(challenges, &args.grading)?;
    let mut entries = part_entries(&args.paths, args.shard)?;
    for part in resumed {
        // A student graded again by a later run: its result replaced the
        // earlier one in the folder.
        for entry in part_entries(&part.paths, part.shard)? {
            match entries.iter_mut().find(|e| e.name == entry.name) {
                Some(earlier) => *earlier = entry,
                None => entries.push(entry),
            }
        }
    }
    // The limits a correct submission needs are its language's.
    let mut languages: Vec<vocabulary::Language> = Vec::new();
    for submission in entries.iter().filter_map(|e| e.submission.as_ref().ok()) {
        if !languages.contains(&submission.language) {
            languages.push(submission.language);
        }
    }
    check_limits(&args.grading, &languages)?;
    if let Some(format) = single(args.format).filter(|_| entries.len() != 1) {
        return Err(Error::Usage(format!(
            "--format {format} describes one submission (its results.json), and {} were given; grade them one at a time",
            entries.len()
        )));
    }
    // The limits, converted once: challenge.toml's with the flags'.
    let limits = challenge.config.limits.with(&args.grading.limits());
    let mut protected = vec![root.dir.clone(), suite.dir.clone()];
    protected.extend(tests.clone());
    protected.extend(add_tests);
    // Every file found, recognised or not, is out of other sessions' reach.
    protected.extend(
        entries
            .iter()
            .filter_map(batch::Entry::file)
            .filter_map(|p| std::path::absolute(p).ok()),
    );
    let env = Environment::new(RunOptions {
        sandbox: !args.grading.no_sandbox,
        limits: limits.session(),
        protected,
        alone: entries
            .iter()
            .filter(|e| e.alone)
            .filter_map(batch::Entry::file)
            .filter_map(|p| std::path::absolute(p).ok())
            .collect(),
        cache_dir,
    })?;
    // --require-sandbox refuses before anything of a submission runs (the
    // probe's answer is awaited here, not beside the first session).
    if args.grading.require_sandbox {
        let layers = report::contract::Layers::from(env.layers()?);
        if !layers.enabled || !layers.missing.is_empty() {
            return Err(Error::Usage(format!(
                "--require-sandbox: the sandbox is not complete on this machine ({})",
                layers.describe()
            )));
        }
    }
    // `--time-limit` stands for `[limits] time_ms`, which a group's own
    // larger `time_ms` overrides: a generous flag never cuts a group the
    // author gave more.
    if let Some(ms) = args.grading.time_limit {
        for group in &mut suite.groups {
            let own = challenge.config.group(&group.name).and_then(|g| g.time_ms);
            let ms = own.map_or(ms, |own| own.max(ms));
            group.time_limit = std::time::Duration::from_millis(ms);
        }
    }
    // Gradescope shows a published result to its student: hidden tests'
    // details stay out unless asked for by name.
    let audience = args.audience.unwrap_or(if single(args.format).is_some() {
        report::Audience::Learner
    } else {
        report::Audience::Instructor
    });
    let cases: usize = suite.groups.iter().map(|g| g.cases.len()).sum();
    let progress = report::Progress::new(entries.len() as u64, cases as u64);
    let told = batch::Told {
        progress: &progress,
        events: args
            .events
            .then(|| batch::Events::new(audience, suite.denominator, cases as u64)),
    };
    let grading = grading::Grading {
        challenge: &challenge,
        source: &root.source,
        suite: &suite,
        env: &env,
        audience,
        extras: limits.extras(),
        started_at_ms: grading::now_ms(),
        derived: Default::default(),
        observer: Some(&told),
        explore: args.explore.map(|time| grading::Explore {
            seed: args.explore_seed.unwrap_or(grading::DEFAULT_EXPLORE_SEED),
            time,
        }),
    };
    // What the flags lowered is said before anyone is graded by it (and
    // in the report).
    for lowered in report::limits_in_force(&grading).lowered {
        eprintln!("warning: {}", lowered.describe());
    }
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        |j| j as usize,
    );
    let command = rejudge::record(&root, args, grading.audience, resumed)?;
    let record = |earlier: &[u8]| rejudge::merged(earlier, &command);
    let saved = std::sync::Mutex::new(0);
    let run = || {
        batch::run(
            &grading,
            &entries,
            jobs,
            &progress,
            results.map(|dir| batch::ResultsFolder {
                dir,
                resume: args.resume,
                command: &command,
                merged: &record,
                saved: &saved,
            }),
        )
    };
    let graded = match on_stop {
        Some(on_stop) => batch::interrupt::stoppable(on_stop, &progress, &saved, run)??,
        None => run()?,
    };
    report::assemble(&grading, args.shard, graded)
}

/// The submissions `paths` hold, in shard `shard` when given. A file
/// named that cannot be graded is bad usage (a typo); an entry found in a
/// class folder that cannot is that student's failure instead.
fn part_entries(
    paths: &[std::path::PathBuf],
    shard: Option<batch::Shard>,
) -> Result<Vec<batch::Entry>, Error> {
    let found = batch::entries(paths)?;
    if !found.skipped.is_empty() {
        eprintln!(
            "warning: not graded, as no submissions: {} (a student is a folder holding router.*, or a file of a known language, or an executable)",
            found
                .skipped
                .iter()
                .map(|p| report::visible(&p.display().to_string()))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    let mut entries = found.entries;
    if let Some(shard) = shard {
        entries.retain(|e| batch::shard_of(&e.name, shard.count) == shard.index);
    }
    Ok(entries)
}

/// `grader watch`: what `grade` would refuse is refused at once (exit 2);
/// then every save is graded by `grade` itself, as a learner's report.
fn watch(cli: &Cli, args: &WatchArgs) -> Result<Status, Error> {
    let setup = setup(Challenges::Find(cli.challenges.as_deref()), &args.grading)?;
    if args.file.is_dir() {
        return Err(Error::Usage(format!(
            "`grader watch` takes one submission file, and {} is a folder: name the file you edit (e.g. {}/router.py)",
            args.file.display(),
            args.file.display()
        )));
    }
    let language = Submission::detect(&args.file)?.language;
    check_limits(&args.grading, &[language])?;
    let program = std::env::current_exe().map_err(Error::io(
        "cannot find the grader's own binary to grade with",
    ))?;
    let grading = GradingArgs {
        tests: setup.tests,
        add_tests: setup.add_tests,
        cache_dir: Some(setup.cache_dir),
        ..args.grading.clone()
    };
    let audience = clap::ValueEnum::to_possible_value(&args.audience)
        .map(|v| v.get_name().to_owned())
        .unwrap_or_default();
    // The gradings find the challenges as this command did: the same
    // working folder and environment, and the same folder if one was named.
    let mut grade: Vec<std::ffi::OsString> = Vec::new();
    if let Some(dir) = &cli.challenges {
        grade.extend(["--challenges".into(), absolute_path(dir)?.into_os_string()]);
    }
    grade.extend(
        [
            "grade",
            "--format",
            "json",
            "--events",
            "--jobs",
            "1",
            "--audience",
        ]
        .map(Into::into),
    );
    grade.push(audience.into());
    grade.extend(grading.to_args());
    // Exploring runs only once every test shown passes: what a learner
    // who sees "accepted" most needs to hear next.
    let explore = (!args.no_explore).then_some(args.explore);
    if let Some(time) = explore {
        grade.push(format!("--explore={}ms", time.as_millis()).into());
    }
    grade.push("--".into());
    let file = absolute_path(&args.file)?;
    grade.push(file.clone().into());
    // What the screen says to run for the whole report: this grading as
    // the learner would type it, from the options they gave.
    let mut again = invoked_as();
    if let Some(dir) = &cli.challenges {
        again.extend(["--challenges".to_owned(), dir.display().to_string()]);
    }
    again.push("grade".to_owned());
    let given: Vec<String> = args
        .grading
        .to_args()
        .iter()
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    match given.as_slice() {
        [flag, id, rest @ ..] if flag == "--challenge" && id == grading::DEFAULT_CHALLENGE => {
            again.extend(rest.iter().cloned())
        }
        all => again.extend(all.iter().cloned()),
    }
    let shown = args.file.display().to_string();
    if shown.starts_with('-') {
        again.push("--".to_owned());
    }
    again.push(shown);
    let verdict = crate::watch::run(&crate::watch::Watch {
        file,
        shown: args.file.display().to_string(),
        again,
        challenge: setup.challenge.id.clone(),
        explore,
        program,
        args: grade,
    })?;
    Ok(match verdict {
        Some(Verdict::Accepted) => Status::Passed,
        _ => Status::Failed,
    })
}

/// Which challenges a grading uses.
#[derive(Debug, Clone, Copy)]
enum Challenges<'a> {
    /// Those every command finds ([`grading::Root::find`]), this folder
    /// first if given.
    Find(Option<&'a std::path::Path>),
    /// Those built into this grader, whatever folders there are (a class
    /// graded with them is rejudged with them).
    BuiltIn,
}

/// What a grading run reads before anyone is graded, checked.
struct Setup {
    root: grading::Root,
    tests: Option<std::path::PathBuf>,
    add_tests: Vec<std::path::PathBuf>,
    cache_dir: std::path::PathBuf,
    challenge: Challenge,
    suite: grading::Suite,
}

/// Every session runs in a scratch folder of its own, where a path
/// relative to here names nothing (a relative cache made every TypeScript
/// module "not found"): every path is made absolute first.
fn absolute_path(p: &std::path::Path) -> Result<std::path::PathBuf, Error> {
    std::path::absolute(p).map_err(Error::io(format!("cannot resolve {}", p.display())))
}

/// Holds the command line's limits to what correct submissions in
/// `languages` (those to be graded) need, as challenge.toml's are held.
fn check_limits(args: &GradingArgs, languages: &[vocabulary::Language]) -> Result<(), Error> {
    let runtimes: Vec<_> = languages.iter().map(|&l| grading::runtime_of(l)).collect();
    for (limit, value) in args.limits() {
        limit.check_for(value, &runtimes).map_err(|why| {
            let flag = limit.flag().unwrap_or_default();
            Error::Usage(format!("{flag} {value}: {why}"))
        })?;
    }
    Ok(())
}

/// Loads and checks what `args` grade against (from `challenges`): the
/// challenge, its suite, and the suite's expected files.
fn setup(challenges: Challenges, args: &GradingArgs) -> Result<Setup, Error> {
    let tests = args.tests.as_deref().map(absolute_path).transpose()?;
    let add_tests = args
        .add_tests
        .iter()
        .map(|d| absolute_path(d))
        .collect::<Result<Vec<_>, _>>()?;
    let cache_dir = absolute_path(
        &args
            .cache_dir
            .clone()
            .unwrap_or_else(grading::default_cache_dir),
    )?;
    let mut root = match challenges {
        Challenges::Find(dir) => grading::Root::find(dir, &cache_dir)?,
        Challenges::BuiltIn => grading::Root::embedded(&cache_dir)?,
    };
    root.dir = absolute_path(&root.dir)?;
    let challenge = root.load(&args.challenge)?;
    let (dir, own) = challenge.suite_dir(tests.as_deref());
    let mut suite = challenge.load_suite_adding(&dir, own, &add_tests)?;
    suite.select(&args.only)?;
    // A wrong expected file stops the run before anyone is graded by it.
    grading::check_expected_files(&challenge, &suite)?;
    Ok(Setup {
        root,
        tests,
        add_tests,
        cache_dir,
        challenge,
        suite,
    })
}

/// Failures of a submission a terminal shows in full without `--all`.
const FAILURES_IN_FULL: usize = 3;

/// The environment variable a wrapper sets to the command that runs the
/// grader through it (the npm package's: `npx grader`): the hints that
/// give a command to type give that one, not the binary's own path.
pub const INVOKED_AS: &str = "GRADER_INVOKED_AS";

/// The words that run this grader, as a hint to type them: those of
/// [`INVOKED_AS`] when a wrapper set it, else `grader`.
pub fn invoked_as() -> Vec<String> {
    std::env::var(INVOKED_AS)
        .ok()
        .map(|words| {
            words
                .split_whitespace()
                .map(str::to_owned)
                .collect::<Vec<_>>()
        })
        .filter(|words| !words.is_empty())
        .unwrap_or_else(|| vec!["grader".to_owned()])
}

/// This process's own command line with `--all` after `grade` (run as a
/// wrapper said it is, when one did).
fn command_with_all() -> String {
    let mut words: Vec<String> = std::env::args_os()
        .map(|w| w.to_string_lossy().into_owned())
        .collect();
    if std::env::var_os(INVOKED_AS).is_some() && !words.is_empty() {
        words.splice(..1, invoked_as());
    }
    match words.iter().position(|w| w == "grade") {
        Some(at) => words.insert(at + 1, "--all".to_owned()),
        None => words.push("--all".to_owned()),
    }
    report::shell_command(&words)
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
    if !merged.only.is_empty() {
        let grade = match (single(args.format), &args.gradebook) {
            (Some(format), _) => Some(format!("--format {format}")),
            (_, Some(_)) => Some("--gradebook".to_owned()),
            _ => None,
        };
        if let Some(what) = grade {
            return Err(partial_refused(&what));
        }
    }
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
        &report::HumanOptions::default(),
        out,
    )
}

/// The refusal of `what` (a gradebook, a platform's results) for a run of
/// the tests `--only` selects, whose score is not a grade.
fn partial_refused(what: &str) -> Error {
    Error::Usage(format!(
        "{what} records grades, and --only grades part of the suite (its score is of the tests selected, not a grade); grade the whole suite for it"
    ))
}

/// The name of `format` when it describes one submission (a platform's
/// results.json, which its student sees).
fn single(format: Format) -> Option<&'static str> {
    match format {
        Format::Gradescope => Some("gradescope"),
        Format::Prairielearn => Some("prairielearn"),
        Format::Codio => Some("codio"),
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

/// Copies a challenge's starter into a folder, never over an existing file.
fn init(cli: &Cli, args: &InitArgs, out: &mut dyn Write) -> Result<Status, Error> {
    let root = grading::Root::find(cli.challenges.as_deref(), &grading::default_cache_dir())?;
    let challenge = root.load(&args.challenge)?;
    let name = grading::starter_name(args.lang)
        .ok_or_else(|| Error::Usage(format!("{:?} has no starter", args.lang)))?;
    let name = name.as_str();
    let starter = challenge.dir.join("starters").join(name);
    let text = grading::read_regular(&starter).map_err(|e| {
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
    let mut command = format!("{} grade", invoked_as().join(" "));
    if challenge.id != grading::DEFAULT_CHALLENGE {
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

fn list(cli: &Cli, out: &mut dyn Write) -> Result<Status, Error> {
    let root = grading::Root::find(cli.challenges.as_deref(), &grading::default_cache_dir())?;
    let listed = authoring::every_suite(authoring::each_challenge(&root, true)?)?;
    quiet_broken_pipe(report::render_list(&listed, &root.source, out))
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

/// `grader show`: a challenge's statement, its README.md.
fn show(cli: &Cli, id: &str, out: &mut dyn Write) -> Result<Status, Error> {
    let root = grading::Root::find(cli.challenges.as_deref(), &grading::default_cache_dir())?;
    let challenge = root.load(id)?;
    let path = challenge.dir.join("README.md");
    let text = grading::read_regular(&path).map_err(|e| {
        Error::Usage(format!(
            "challenge `{id}` has no statement: cannot read {} ({e}); add a README.md beside its challenge.toml",
            path.display()
        ))
    })?;
    quiet_broken_pipe(out.write_all(&text).and_then(|()| out.flush()))
        .map_err(Error::io("cannot write output"))?;
    Ok(Status::Passed)
}

/// Says on standard error (a platform's job log, which instructors read)
/// which layers of the sandbox were missing in `report`'s grading.
fn warn_of_missing_layers(report: &report::Report) {
    let layers = &report.sandbox;
    if layers.enabled && !layers.missing.is_empty() {
        eprintln!(
            "warning: the sandbox is incomplete on this machine ({}); --require-sandbox refuses to grade on it",
            layers.missing.join(", ")
        );
    }
}
