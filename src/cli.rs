//! The command line (clap derive types only; behaviour lives in
//! [`crate::commands`]).

use clap::{Parser, Subcommand};
use grading::Limit;
use report::Format;
use std::path::PathBuf;

/// Grades consistent-hashing challenge submissions against the reference and
/// explains every difference in pinned hash values.
#[derive(Debug, Parser)]
#[command(name = "grader", version, about, long_about = None)]
#[command(
    after_help = "Exit codes: 0 all passed, 1 some test failed, 2 bad usage or invalid \
challenge/test files, 3 the grader itself failed."
)]
pub struct Cli {
    /// Where challenges live [default: $GRADER_CHALLENGES, else
    /// ./challenges when it holds any, else the ones built into the grader]
    #[arg(long, global = true, value_name = "DIR")]
    pub challenges: Option<PathBuf>,

    /// When to colour output for people: `auto` colours a terminal unless
    /// NO_COLOR is set, or anything when FORCE_COLOR or CLICOLOR_FORCE is
    #[arg(long, global = true, value_enum, default_value_t = ColorWhen::Auto)]
    pub color: ColorWhen,

    /// Show no progress and no notes of the files written on standard
    /// error (warnings and errors stay); the report is unchanged
    #[arg(long, short, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Command,
}

/// When output for people is coloured (`--color`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorWhen {
    /// NO_COLOR, then FORCE_COLOR and CLICOLOR_FORCE, then whether the
    /// output is a terminal decide
    Auto,
    /// Always, whatever the environment says
    Always,
    /// Never, whatever the environment says
    Never,
}

impl ColorWhen {
    /// Whether to colour whatever the output is, in `env`'s words (a
    /// variable's value by name): the flag, then NO_COLOR, then
    /// FORCE_COLOR or CLICOLOR_FORCE; `None` leaves it to the output
    /// (a terminal, and not `TERM=dumb`). A variable set to the empty
    /// string is not set (no-color.org, force-color.org), and
    /// CLICOLOR_FORCE=0 forces nothing.
    pub fn forced(self, env: impl Fn(&str) -> Option<String>) -> Option<bool> {
        let set = |name: &str| env(name).is_some_and(|v| !v.is_empty());
        match self {
            ColorWhen::Always => Some(true),
            ColorWhen::Never => Some(false),
            ColorWhen::Auto if set("NO_COLOR") => Some(false),
            ColorWhen::Auto if set("FORCE_COLOR") => Some(true),
            ColorWhen::Auto if env("CLICOLOR_FORCE").is_some_and(|v| !v.is_empty() && v != "0") => {
                Some(true)
            }
            ColorWhen::Auto => None,
        }
    }

    /// The streams' colour choice, from [`ColorWhen::forced`], with the
    /// output's terminal (`terminal`: standard output is one) where nothing
    /// forces it. anstream's own rule takes any CLICOLOR_FORCE, 0
    /// included, for a force: with CLICOLOR_FORCE=0 the terminal decides
    /// here (and `TERM=dumb` is none).
    pub fn choice(
        self,
        env: impl Fn(&str) -> Option<String>,
        terminal: bool,
    ) -> anstream::ColorChoice {
        use anstream::ColorChoice;
        match self.forced(&env) {
            Some(true) => ColorChoice::Always,
            Some(false) => ColorChoice::Never,
            None if env("CLICOLOR_FORCE").is_some() => {
                if terminal && env("TERM").is_none_or(|t| t != "dumb") {
                    ColorChoice::Always
                } else {
                    ColorChoice::Never
                }
            }
            None => ColorChoice::Auto,
        }
    }
}

/// The grader's commands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Grade submissions (Python, JavaScript, TypeScript, Rust, or executables speaking the protocol)
    Grade(GradeArgs),
    /// Grade one file now and again on every save, showing the first
    /// failing test (q or Ctrl-C leaves)
    Watch(WatchArgs),
    /// Print the pinned h32 of each text
    Hash {
        /// Texts to hash (UTF-8)
        #[arg(required = true)]
        texts: Vec<String>,
    },
    /// List the challenges with their groups and case counts
    List,
    /// Print a challenge's statement (its README.md)
    Show {
        /// The challenge to show
        #[arg(default_value = grading::DEFAULT_CHALLENGE, value_name = "CHALLENGE")]
        challenge: String,
    },
    /// Start a solution from the challenge's starter (the pinned hash done)
    Init(InitArgs),
    /// Combine the JSON reports of several shards into one report
    Merge(MergeArgs),
    /// Grade one submission as PrairieLearn's external grader: ROOT/student
    /// into ROOT/results/results.json
    Prairielearn(PrairielearnArgs),
    /// Grade the checkout it runs in as Classroom 50's autograder: ROOT
    /// into ROOT/result.json (classroom50/result/v1) and
    /// ROOT/release-body.md, the learner's report on standard output
    Classroom50(Classroom50Args),
    /// Grade a results folder's submissions again, against the suite and
    /// grader of now, and show which students change; --apply replaces
    /// the results
    Rejudge(RejudgeArgs),
    /// Show which students change verdict or score between two JSON reports
    Compare(CompareArgs),
    /// Run every known mistake against the tests: which tests catch each,
    /// and which mistakes no test catches (exit 1)
    Audit(AuditArgs),
    /// Add a case pasted from a challenge page (stdin or FILE), with its
    /// expected output from the reference
    Add(AddArgs),
    /// Rewrite expected files from the reference, showing each change
    Bless(BlessArgs),
    /// Check everything a grading run depends on
    Validate(SuitesArgs),
    /// Generate a reproducible case and its expected output
    Gen(GenArgs),
    /// Print the JSON Schema of a JSON document the grader writes
    /// (docs/schemas/NAME.schema.json)
    Schema {
        /// The document
        #[arg(value_enum, default_value = "report")]
        document: report::contract::Document,
    },
}

/// Arguments of `grader init`.
#[derive(Debug, clap::Args)]
pub struct InitArgs {
    /// The language to start in
    #[arg(long, short, value_enum)]
    pub lang: vocabulary::Language,

    /// The challenge to start
    #[arg(long, short, default_value = grading::DEFAULT_CHALLENGE, value_name = "ID")]
    pub challenge: String,

    /// The folder to write the starter into [default: .]
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
}

/// Arguments of `grader grade`.
#[derive(Debug, clap::Args)]
pub struct GradeArgs {
    #[command(flatten)]
    pub grading: GradingArgs,

    /// How to write the report
    #[arg(long, short, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Write the report to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Show every failure in full (on a terminal, only the first three
    /// are, the rest in a line each; files and pipes always get all)
    #[arg(long)]
    pub all: bool,

    /// Who reads the report: `learner` hides every detail of hidden groups
    /// [default: learner with --format gradescope, prairielearn or codio,
    /// whose results students see; else instructor]
    #[arg(long, value_enum)]
    pub audience: Option<report::Audience>,

    /// Submissions graded at once [default: the number of cores]
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Save each submission's result in DIR as it finishes
    #[arg(long, value_name = "DIR")]
    pub results: Option<PathBuf>,

    /// With --results: keep the results already saved there and grade only
    /// the rest (after an interrupted batch)
    #[arg(long, requires = "results")]
    pub resume: bool,

    /// Grade only the submissions of shard K of N (1-based), assigned by
    /// rendezvous hashing of their names
    #[arg(long, value_name = "K/N")]
    pub shard: Option<crate::batch::Shard>,

    /// Write a gradebook, a row per student: CSV, or JSON for a .json file
    #[arg(long, value_name = "FILE")]
    pub gradebook: Option<PathBuf>,

    /// Exit 0 even when tests fail (for jobs that must always publish)
    #[arg(long)]
    pub exit_zero: bool,

    /// Tell each test as it ends on standard error, a line of JSON after
    /// "event: " (what `grader watch` shows before the rest is graded)
    #[arg(long, hide = true)]
    pub events: bool,

    /// Once a submission passes every test shown, run generated cases
    /// against the reference for DURATION (`--explore=30s`, `=2m`; 10 s
    /// when given alone) and show the first it answers otherwise, shrunk.
    /// No verdict or score changes
    #[arg(
        long,
        value_name = "DURATION",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "10s",
        value_parser = duration
    )]
    pub explore: Option<std::time::Duration>,

    /// The seed --explore draws its cases from: the same seed, the same
    /// cases [default: 1]
    #[arg(long, value_name = "N", requires = "explore")]
    pub explore_seed: Option<u64>,

    /// Submission files, or folders holding one folder (or file) per student
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<PathBuf>,
}

impl GradeArgs {
    /// `grade` of `paths` as `grading` says, every other option at its
    /// default (a human report on standard output): what a command that
    /// grades on its own behalf changes from.
    pub fn of(grading: GradingArgs, paths: Vec<PathBuf>) -> GradeArgs {
        GradeArgs {
            grading,
            format: Format::Human,
            output: None,
            all: false,
            audience: None,
            jobs: None,
            results: None,
            resume: false,
            shard: None,
            gradebook: None,
            exit_zero: false,
            events: false,
            explore: None,
            explore_seed: None,
            paths,
        }
    }
}

/// Arguments of `grader watch`.
#[derive(Debug, clap::Args)]
pub struct WatchArgs {
    #[command(flatten)]
    pub grading: GradingArgs,

    /// Who reads the screen: `learner` hides every detail of hidden groups
    #[arg(long, value_enum, default_value_t = report::Audience::Learner)]
    pub audience: report::Audience,

    /// Once every test shown passes, run generated cases against the
    /// reference for DURATION (`--explore=10s`) and show the first one
    /// answered otherwise, shrunk; no verdict or score changes
    #[arg(
        long,
        value_name = "DURATION",
        require_equals = true,
        default_value = "3s",
        value_parser = duration,
        conflicts_with = "no_explore"
    )]
    pub explore: std::time::Duration,

    /// Do not explore once every test passes
    #[arg(long)]
    pub no_explore: bool,

    /// The submission file to grade on every save
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

/// What grading a submission needs besides where its report goes: the
/// challenge, the tests, the limits and the containment (`grade` and
/// `watch` take the same).
#[derive(Debug, Clone, PartialEq, Eq, clap::Args)]
pub struct GradingArgs {
    /// The challenge to grade against
    #[arg(long, short, default_value = grading::DEFAULT_CHALLENGE, value_name = "ID")]
    pub challenge: String,

    /// Grade against the cases in DIR instead of the challenge's own
    /// (subfolders are groups; files directly in DIR form one group)
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,

    /// Grade the groups in DIR as well as the challenge's own (or
    /// --tests'): hidden tests kept out of the learners' repository.
    /// Repeatable; a group found in two folders is refused
    #[arg(long, value_name = "DIR")]
    pub add_tests: Vec<PathBuf>,

    /// Run only the tests GROUP or GROUP/NAME selects (globs of `*` and
    /// `?`; repeatable): a partial run, whose score is no grade (refused
    /// with --gradebook, --results and the gradescope, prairielearn and
    /// codio formats)
    #[arg(long, value_name = "GROUP[/NAME]")]
    pub only: Vec<String>,

    /// CPU time per case in milliseconds, for every group without a larger
    /// limit of its own in challenge.toml (a case that waits is stopped by
    /// the wall clock at 3 times it, at least it plus 5 s); a value below
    /// challenge.toml's is said on stderr and in the report [default: from
    /// challenge.toml]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub time_limit: Option<u64>,

    /// Memory per session in MiB [default: from challenge.toml, else 512]
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,

    /// Output a test may print in MiB [default: from challenge.toml, else 8]
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..))]
    pub output_limit: Option<u64>,

    /// The least time in milliseconds one extra run (a shrinking attempt,
    /// the order or h32 check) gets; ten times its case's time when more,
    /// never more than the case's limit [default: from challenge.toml, else 250]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub extra_run_limit: Option<u64>,

    /// The most time in milliseconds all extra runs of one submission take
    /// together; less for a fast failing case (20 times its time + 5 s)
    /// [default: from challenge.toml, else 20000]
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    pub extras_budget: Option<u64>,

    /// Run submissions without namespaces, Landlock or a dropped uid
    /// (rlimits still apply); for debugging the grader only
    #[arg(long, conflicts_with = "require_sandbox")]
    pub no_sandbox: bool,

    /// Refuse to grade (exit 2) if any sandbox layer is missing here
    #[arg(long)]
    pub require_sandbox: bool,

    /// Where compiled and transpiled submissions are cached
    /// [default: $XDG_CACHE_HOME/rendezvous-grader, else ~/.cache/rendezvous-grader]
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

impl GradingArgs {
    /// Grading against `challenge`'s own cases with challenge.toml's
    /// limits, sandboxed, cached in `cache_dir` (the default when `None`):
    /// what a command that grades on its own behalf starts from.
    pub fn of(challenge: String, cache_dir: Option<PathBuf>) -> GradingArgs {
        GradingArgs {
            challenge,
            tests: None,
            add_tests: Vec::new(),
            only: Vec::new(),
            time_limit: None,
            memory_limit: None,
            output_limit: None,
            extra_run_limit: None,
            extras_budget: None,
            no_sandbox: false,
            require_sandbox: false,
            cache_dir,
        }
    }

    /// The limits these arguments set, each by its flag: what overrides
    /// challenge.toml's `[limits]`.
    pub fn limits(&self) -> Vec<(Limit, u64)> {
        [
            (Limit::Time, self.time_limit),
            (Limit::Memory, self.memory_limit),
            (Limit::Output, self.output_limit),
            (Limit::ExtraRun, self.extra_run_limit),
            (Limit::ExtrasBudget, self.extras_budget),
        ]
        .into_iter()
        .filter_map(|(limit, value)| Some((limit, value?)))
        .collect()
    }

    /// The options that give these arguments back when parsed after
    /// `grader grade` (what `watch` passes the grading it starts).
    pub fn to_args(&self) -> Vec<std::ffi::OsString> {
        // Destructured, so that a new option cannot be left out.
        let GradingArgs {
            challenge,
            tests,
            add_tests,
            only,
            // The limits, each by its flag: `limits()` lists them.
            time_limit: _,
            memory_limit: _,
            output_limit: _,
            extra_run_limit: _,
            extras_budget: _,
            no_sandbox,
            require_sandbox,
            cache_dir,
        } = self;
        let mut args: Vec<std::ffi::OsString> = vec!["--challenge".into(), challenge.into()];
        let paths = [("--tests", tests), ("--cache-dir", cache_dir)];
        for (flag, path) in paths {
            if let Some(path) = path {
                args.extend([flag.into(), path.into()]);
            }
        }
        for dir in add_tests {
            args.extend(["--add-tests".into(), dir.into()]);
        }
        for pattern in only {
            args.extend(["--only".into(), pattern.into()]);
        }
        for (limit, value) in self.limits() {
            let flag = limit.flag().expect("a limit given by its flag");
            args.extend([flag.into(), value.to_string().into()]);
        }
        for (flag, on) in [
            ("--no-sandbox", no_sandbox),
            ("--require-sandbox", require_sandbox),
        ] {
            if *on {
                args.push(flag.into());
            }
        }
        args
    }
}

/// Arguments of `grader audit`.
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("graded").args(["limits", "submissions"])))]
pub struct AuditArgs {
    #[command(flatten)]
    pub suites: SuitesArgs,

    /// How to write the audit
    #[arg(long, short, value_enum, default_value_t = AuditFormat::Human)]
    pub format: AuditFormat,

    /// Instead of the mistakes: grade these correct submissions, measure
    /// the CPU time of every case, and propose each group's time limit as
    /// twice the slowest correct case, in whole seconds, at least 1 s
    #[arg(long, value_name = "SUBMISSION", num_args = 1.., conflicts_with_all = ["all", "submissions"])]
    pub limits: Vec<PathBuf>,

    /// With --limits: write the proposed limits to the challenge's
    /// challenge.toml, keeping its comments and other settings
    #[arg(long, requires = "limits")]
    pub write: bool,

    /// Instead of the mistakes: grade these submissions (files, or folders
    /// holding one per student), explore each that passes every test with
    /// generated cases, and propose the cases that tell a wrong one from
    /// the reference, shrunk, for `grader add`
    #[arg(long, value_name = "PATH", num_args = 1.., conflicts_with = "all")]
    pub submissions: Vec<PathBuf>,

    /// With --submissions: how long to explore each (`--explore=30s`,
    /// `=2m`)
    #[arg(
        long,
        value_name = "DURATION",
        require_equals = true,
        default_value = "10s",
        value_parser = duration,
        requires = "submissions"
    )]
    pub explore: std::time::Duration,

    /// With --submissions: the seed the cases are drawn from [default: 1]
    #[arg(long, value_name = "N", requires = "submissions")]
    pub explore_seed: Option<u64>,

    /// With --submissions: write each proposed case to DIR as NAME.json,
    /// ready for `grader add --group GROUP NAME DIR/NAME.json`
    #[arg(long, value_name = "DIR", requires = "submissions")]
    pub write_cases: Option<PathBuf>,

    /// With --limits or --submissions: where compiled and transpiled
    /// submissions are cached [default: as for `grade`]
    #[arg(long, value_name = "DIR", requires = "graded")]
    pub cache_dir: Option<PathBuf>,
}

/// The formats `grader audit` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AuditFormat {
    /// A line per mistake: caught, by which tests, or a gap
    Human,
    /// A row per mistake with the tests that catch it
    Json,
}

/// Which suite an authoring command works on.
#[derive(Debug, clap::Args)]
pub struct SuiteArgs {
    /// The challenge
    #[arg(long, short, default_value = grading::DEFAULT_CHALLENGE, value_name = "ID")]
    pub challenge: String,

    /// The cases in DIR instead of the challenge's own tests
    #[arg(long, value_name = "DIR")]
    pub tests: Option<PathBuf>,
}

/// The suites of a command that reads them (`validate`, `audit`,
/// `bless`): one challenge's, a `--tests` folder, or every challenge's.
#[derive(Debug, clap::Args)]
pub struct SuitesArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,

    /// Every challenge, each with its own tests
    #[arg(long, conflicts_with_all = ["challenge", "tests"])]
    pub all: bool,
}

/// Arguments of `grader add`.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,

    /// The group (folder) to add the case to
    #[arg(long, short)]
    pub group: String,

    /// The case's name (its files are NAME.json and NAME.expected.json)
    pub name: String,

    /// Read the case from FILE instead of standard input
    pub file: Option<PathBuf>,
}

/// Arguments of `grader bless`.
#[derive(Debug, clap::Args)]
pub struct BlessArgs {
    #[command(flatten)]
    pub suites: SuitesArgs,

    /// Change nothing; exit 1 if any expected file would change
    #[arg(long)]
    pub check: bool,
}

/// Arguments of `grader gen`.
#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(flatten)]
    pub suite: SuiteArgs,

    /// What kind of case
    #[arg(long, short, value_enum)]
    pub profile: grading::GenProfile,

    /// The seed: the same seed writes the same bytes
    #[arg(long, short)]
    pub seed: u64,

    /// Initial nodes (0: none, adds draw from two names) [default: by profile]
    #[arg(long)]
    pub nodes: Option<usize>,

    /// Operations [default: by profile]
    #[arg(long)]
    pub ops: Option<usize>,

    /// The group (folder) to write into
    #[arg(long, short)]
    pub group: String,

    /// The case's name
    pub name: String,
}

/// Arguments of `grader merge`.
#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// How to write the merged report
    #[arg(long, short, value_enum, default_value_t = Format::Human)]
    pub format: Format,

    /// Write the merged report to FILE instead of standard output
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,

    /// Write a gradebook of all shards: CSV, or JSON for a .json file
    #[arg(long, value_name = "FILE")]
    pub gradebook: Option<PathBuf>,

    /// Exit 0 even when tests fail
    #[arg(long)]
    pub exit_zero: bool,

    /// Reports written by `grader grade --format json`, one per shard
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// Arguments of `grader prairielearn`.
#[derive(Debug, clap::Args)]
pub struct PrairielearnArgs {
    /// The grading job's folder PrairieLearn mounts
    #[arg(long, value_name = "DIR", default_value = "/grade")]
    pub root: PathBuf,

    /// The challenge [default: params.challenge of ROOT/data/data.json,
    /// else rendezvous-router]
    #[arg(long, short, value_name = "ID")]
    pub challenge: Option<String>,

    /// Run submissions without namespaces, Landlock or a dropped uid
    /// (rlimits still apply): for trying a set-up only, never for
    /// grading, since a submission could then read the tests
    #[arg(long, conflicts_with = "require_sandbox")]
    pub no_sandbox: bool,

    /// Refuse to grade (not graded, exit 2) if any sandbox layer is
    /// missing where the container runs
    #[arg(long)]
    pub require_sandbox: bool,

    /// Where compiled and transpiled submissions are cached
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Arguments of `grader classroom50`.
#[derive(Debug, clap::Args)]
pub struct Classroom50Args {
    /// The student's checkout, where result.json is written (the
    /// runner's working folder)
    #[arg(long, value_name = "DIR", default_value = ".")]
    pub root: PathBuf,

    /// The challenge
    #[arg(long, short, value_name = "ID", default_value = grading::DEFAULT_CHALLENGE)]
    pub challenge: String,

    /// Run submissions without namespaces, Landlock or a dropped uid
    /// (rlimits still apply): for trying a set-up only, never for
    /// grading, since a submission could then read the tests
    #[arg(long, conflicts_with = "require_sandbox")]
    pub no_sandbox: bool,

    /// Refuse to grade (not graded, exit 2) if any sandbox layer is
    /// missing where the runner runs
    #[arg(long)]
    pub require_sandbox: bool,

    /// Where compiled and transpiled submissions are cached
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Arguments of `grader rejudge`.
#[derive(Debug, clap::Args)]
pub struct RejudgeArgs {
    /// The results folder a `grader grade --results DIR` run wrote
    #[arg(long, value_name = "DIR")]
    pub results: PathBuf,

    /// Replace the results with the new ones (the old ones are kept in
    /// DIR.previous); without it, nothing is written
    #[arg(long)]
    pub apply: bool,

    /// How to write the changes
    #[arg(long, short, value_enum, default_value_t = ChangesFormat::Human)]
    pub format: ChangesFormat,

    /// Submissions graded at once [default: the number of cores]
    #[arg(long, short, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub jobs: Option<u32>,

    /// Where compiled and transpiled submissions are cached
    /// [default: $XDG_CACHE_HOME/rendezvous-grader, else ~/.cache/rendezvous-grader]
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
}

/// Arguments of `grader compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// How to write the changes
    #[arg(long, short, value_enum, default_value_t = ChangesFormat::Human)]
    pub format: ChangesFormat,

    /// The earlier report (`grader grade --format json`)
    #[arg(value_name = "OLD.json")]
    pub old: PathBuf,

    /// The later report
    #[arg(value_name = "NEW.json")]
    pub new: PathBuf,
}

/// The formats of `grader rejudge` and `grader compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ChangesFormat {
    /// A line per student who changes, with the tests that flipped
    Human,
    /// The changes as one JSON object
    Json,
}

#[cfg(test)]
mod tests;

/// A duration as `--explore` takes it: a number with `ms`, `s` or `m`
/// (seconds when bare), from 1 ms to an hour.
fn duration(text: &str) -> Result<std::time::Duration, String> {
    let bad =
        || format!("`{text}` is not a duration: write a number with ms, s or m, e.g. 30s or 2m");
    let (number, unit) = match text.find(|c: char| !c.is_ascii_digit() && c != '.') {
        Some(at) => text.split_at(at),
        None => (text, "s"),
    };
    let number: f64 = number.parse().map_err(|_| bad())?;
    let seconds = match unit {
        "ms" => number / 1000.0,
        "s" => number,
        "m" => number * 60.0,
        _ => return Err(bad()),
    };
    if !(0.001..=3600.0).contains(&seconds) {
        return Err(format!(
            "`{text}` is outside what --explore takes: from 1ms to 60m"
        ));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}
