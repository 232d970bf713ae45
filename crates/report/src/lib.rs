//! The grader's report: built once from the graded records, with all the
//! wording and the audience's redaction; its JSON form is a public
//! contract (see docs/json-report.md), and renderers turn it into every
//! other format without computing a verdict.

mod assemble;
mod authoring;
mod cause;
mod changes;
mod class;
mod classroom50;
mod codio;
pub mod contract;
mod ctrf;
mod entry;
mod failing;
mod fit;
mod github;
mod gradebook;
mod gradescope;
mod html;
mod human;
mod junit;
mod names;
mod notation;
mod prairielearn;
mod progress;
#[cfg(test)]
mod sample;
mod score;
mod style;
mod text;
mod unbuilt;
mod watch;

// What the binary uses, and nothing more: the modules are private, so
// that the dead-code lint sees every item no caller needs.
pub use assemble::{assemble, limits_in_force, record};
pub use authoring::explored::{
    Explored, Proposal, proposals, render_explored, render_explored_json,
};
pub use authoring::{
    Limits, render_audit, render_audit_json, render_audits_json, render_bless, render_findings,
    render_limits, render_limits_json, render_list, render_valid,
};
pub use changes::{compare as compare_results, render_changes, render_changes_json};
pub use classroom50::{
    Classroom50Run, Row as Classroom50Row, release_body as classroom50_release_body,
    render_classroom50, rows as classroom50_rows,
};
pub use gradebook::render_gradebook;
pub use names::{file_name, student_names};
pub use progress::{EVENT_PREFIX, Event, Progress, failed_early, quiet, set_quiet};
pub use text::{one_line, safe_json, safe_json_compact, shell_command, visible, visible_lines};

pub use codio::{render_codio, render_codio_ungraded};
pub use ctrf::render_ctrf;
pub use fit::learner_options;
pub use github::{append_summary, render_github, summary as github_summary};
pub use gradescope::{render_gradescope, render_gradescope_ungraded};
pub use html::render_html;
pub use human::{Folded, HumanOptions, render_human, render_human_with};
pub use junit::render_junit;
pub use prairielearn::{Ungraded, render_prairielearn, render_ungraded, upload_words};
pub use watch::{WatchScreen, WatchState, render_watch};

pub use contract::{
    ApiHint, GroupReport, Points, Report, Shard, SubmissionReport, TestReport, Window,
};

/// Who a grading is for, as the command line, a results folder's record
/// and the report name it (one type, the `vocabulary` crate's).
pub use vocabulary::Audience;

use std::io::{self, Write};

/// How a report is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// For people: one line per test, then the failures explained.
    Human,
    /// The report as JSON, for machines.
    Json,
    /// JUnit XML (Jenkins schema), a suite per submission.
    Junit,
    /// Gradescope's results.json, for one submission.
    Gradescope,
    /// PrairieLearn's external-grading results.json, for one submission.
    Prairielearn,
    /// Codio's partial points: the form-encoded request body for
    /// `$CODIO_PARTIAL_POINTS_V2_URL`, for one submission.
    Codio,
    /// Common Test Report Format JSON.
    Ctrf,
    /// GitHub Actions annotations, the human report, and a step summary.
    Github,
    /// One self-contained HTML page: a class overview with charts, then
    /// every student's failures explained.
    Html,
}

/// Writes `report` in `format`. `color` applies to human output only.
pub fn render(report: &Report, format: Format, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Human => render_human(report, out),
        Format::Json => {
            text::safe_json(report, out)?;
            writeln!(out)
        }
        Format::Junit => render_junit(report, out),
        Format::Gradescope => render_gradescope(report, out),
        Format::Prairielearn => render_prairielearn(report, out),
        Format::Codio => render_codio(report, out),
        Format::Ctrf => render_ctrf(report, out),
        Format::Github => render_github(report, out),
        Format::Html => render_html(report, out),
    }
}
