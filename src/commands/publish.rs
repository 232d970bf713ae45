//! Where a finished report goes: checked to be writable before the run,
//! then written to a file, standard output, a gradebook and the step
//! summary.

use super::{Fault, Status, Why};
use grading::Error;
use report::{self, Format};
use std::io::Write;

/// Proves every file a run will write can be written, before the work
/// that writing it would otherwise lose.
pub(super) fn check_outputs(
    format: Format,
    output: Option<&std::path::Path>,
    gradebook: Option<&std::path::Path>,
) -> Result<(), Error> {
    use grading::{check_appendable, check_writable};
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
pub(super) fn publish(
    report: &report::Report,
    format: Format,
    output: Option<&std::path::Path>,
    gradebook: Option<&std::path::Path>,
    exit_zero: bool,
    human: &report::HumanOptions,
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
            grading::write_atomically(path, &bytes)?;
            // Nothing else tells where the report went: standard output
            // stays empty.
            let name = clap::ValueEnum::to_possible_value(&format)
                .map(|v| v.get_name().to_owned())
                .unwrap_or_default();
            if !report::quiet() {
                eprintln!("wrote the {name} report to {}", path.display());
            }
        }
        None => quiet_broken_pipe(match format {
            Format::Human => report::render_human_with(report, human, out),
            _ => report::render(report, format, out),
        })
        .map_err(Error::io("cannot write the report"))?,
    }
    if format == Format::Github {
        report::append_summary(report)
            .map_err(Error::io("cannot append to $GITHUB_STEP_SUMMARY"))?;
    }
    if let Some(path) = gradebook {
        let json = path.extension().is_some_and(|e| e == "json");
        grading::write_atomically(path, &report::render_gradebook(report, json))?;
        if !report::quiet() {
            eprintln!("wrote the gradebook to {}", path.display());
        }
    }
    // The report is out, with every submission the grader failed on
    // recorded as such; the run still ends as the grader's fault (exit 3),
    // --exit-zero or not, so that CI sees it.
    let faulted: Vec<&report::SubmissionReport> = report
        .submissions
        .iter()
        .filter(|s| s.verdict == report::contract::Verdict::GraderFault)
        .collect();
    if let Some(first) = faulted.first() {
        let why = first.tests.first().map_or("", |t| t.message.as_str());
        return Ok(Status::Faulted(Fault {
            what: format!(
                "the grader failed on {} (recorded in the report as grader-fault; the others were graded)",
                grading::counted(faulted.len(), "submission")
            ),
            why: Why(format!("{}: {why}", first.name)),
        }));
    }
    Ok(if report.all_passed() || exit_zero {
        Status::Passed
    } else {
        Status::Failed
    })
}

/// A reader that stopped reading (`grader ... | head`) is not a failure.
pub(super) fn quiet_broken_pipe(result: std::io::Result<()>) -> std::io::Result<()> {
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

fn strip_ansi(bytes: &[u8]) -> Vec<u8> {
    anstream::adapter::strip_bytes(bytes).into_vec()
}
