//! The screen of `grader watch`: for the newest save of one file, its
//! verdict, the first failing test explained, the known mistake or hint
//! that explains it, and a line of progress. Styled as the human report
//! is; the caller strips the styles where colour is off.

use super::failing::render_failure;
use super::human::{render_mistake, render_nondeterminism, render_property, render_wrong_hash};
use super::style::{BAD, DIM, GOOD, HEAD};
use super::text::{earned, possible, visible, visible_lines};
use super::{SubmissionReport, TestReport};
use crate::contract::{Verdict, Visibility};
use std::io::{self, Write};

/// Everything one screen shows.
#[derive(Debug, Clone, Copy)]
pub struct WatchScreen<'a> {
    /// The watched file, as the learner named it.
    pub file: &'a str,
    pub challenge: &'a str,
    /// Whether keys are read (standard input is a terminal): the footer
    /// offers them only then.
    pub keys: bool,
    pub state: WatchState<'a>,
    /// What the grader warned about while grading (an incomplete sandbox).
    pub notes: &'a [String],
}

/// Where the newest save stands.
#[derive(Debug, Clone, Copy)]
pub enum WatchState<'a> {
    /// Being graded, saved at `saved_at`; `previous` is the verdict of an
    /// older version, shown as such until this one's first failure,
    /// `failed`, is known; `ran` is the tests run so far, of all.
    Grading {
        saved_at: &'a str,
        previous: Option<&'a SubmissionReport>,
        ran: Option<(u64, u64)>,
        failed: Option<&'a TestReport>,
    },
    /// Graded at `at`.
    Graded {
        at: &'a str,
        submission: &'a SubmissionReport,
    },
    /// The grader could not grade this version (`error`, its own words).
    Failed { at: &'a str, error: &'a str },
    /// The file is not there (an editor between writing and renaming, or
    /// deleted): it is graded again when it comes back.
    Missing,
}

/// Writes `screen`.
pub fn render_watch(screen: &WatchScreen<'_>, out: &mut dyn Write) -> io::Result<()> {
    let file = visible(screen.file);
    let when = match screen.state {
        WatchState::Graded { at, .. } => format!(" · graded at {at}"),
        WatchState::Failed { at, .. } => format!(" · {at}"),
        WatchState::Grading { .. } | WatchState::Missing => String::new(),
    };
    writeln!(
        out,
        "{HEAD}{file}{HEAD:#} {DIM}· {}{when}{DIM:#}",
        screen.challenge
    )?;
    writeln!(out)?;
    match screen.state {
        WatchState::Grading {
            saved_at,
            previous,
            ran,
            failed,
        } => {
            let count = ran.map_or(String::new(), |(ran, of)| format!(" {ran}/{of} tests run"));
            writeln!(
                out,
                "{HEAD}grading{HEAD:#} the version saved at {saved_at}...{count}"
            )?;
            if let Some(t) = failed {
                writeln!(
                    out,
                    "{BAD}{}{BAD:#} in {}, the first failing test (the rest are still being graded)",
                    t.verdict,
                    visible(&format!("{}/{}", t.group, t.name))
                )?;
                writeln!(out)?;
                render_failure(t, out)?;
            } else if let Some(s) = previous {
                writeln!(
                    out,
                    "{DIM}before this save: {}, {}{DIM:#}",
                    s.verdict,
                    progress(s)
                )?;
            }
        }
        WatchState::Graded { submission, .. } => render_graded(submission, out)?,
        WatchState::Failed { error, .. } => {
            writeln!(
                out,
                "{BAD}not graded{BAD:#}: the grader could not grade this version:"
            )?;
            for line in visible_lines(error) {
                writeln!(out, "  {line}")?;
            }
        }
        WatchState::Missing => writeln!(
            out,
            "{BAD}{file} is not there{BAD:#}: it is graded again as soon as it is saved"
        )?,
    }
    for note in screen.notes {
        writeln!(out, "{DIM}{}{DIM:#}", visible(note))?;
    }
    writeln!(out)?;
    let keys = if screen.keys {
        "r grades again · q quits"
    } else {
        "Ctrl-C quits"
    };
    writeln!(
        out,
        "{DIM}watching: every save grades it again · {keys}{DIM:#}"
    )?;
    let mut grade = vec!["grader".to_owned(), "grade".to_owned()];
    if screen.challenge != grading::challenge::DEFAULT_CHALLENGE {
        grade.extend(["--challenge".to_owned(), screen.challenge.to_owned()]);
    }
    grade.push(screen.file.to_owned());
    writeln!(
        out,
        "{DIM}the whole report, every failure in full: {}{DIM:#}",
        super::text::shell_command(&grade)
    )
}

/// `7/21 tests pass · score 45/100`
fn progress(s: &SubmissionReport) -> String {
    format!(
        "{}/{} tests pass · score {}/{}",
        s.passed,
        s.total,
        earned(&s.points),
        possible(&s.points)
    )
}

fn render_graded(s: &SubmissionReport, out: &mut dyn Write) -> io::Result<()> {
    let failing: Vec<&TestReport> = s
        .tests
        .iter()
        .filter(|t| t.verdict != Verdict::Accepted)
        .collect();
    // The first failure the reader can see the inside of; a hidden test
    // only when no other fails.
    let first = failing
        .iter()
        .find(|t| t.visibility == Visibility::Visible)
        .or(failing.first());
    match first {
        None => writeln!(out, "{GOOD}{}{GOOD:#}: every test passes", s.verdict)?,
        Some(t) => {
            // A module that does not load fails every test alike.
            let alike = failing
                .iter()
                .filter(|u| {
                    !std::ptr::eq(**u, *t)
                        && u.divergence.is_none()
                        && t.divergence.is_none()
                        && u.verdict == t.verdict
                        && u.message == t.message
                })
                .count();
            let id = visible(&format!("{}/{}", t.group, t.name));
            // A line that names one test gives that test's verdict (the
            // submission's, its worst, may be a hidden test's).
            if failing.len() == 1 {
                writeln!(
                    out,
                    "{BAD}{}{BAD:#} in {id}, the only failing test",
                    t.verdict
                )?;
            } else if alike + 1 == failing.len() {
                writeln!(
                    out,
                    "{BAD}{}{BAD:#} in all {} failing tests, alike",
                    s.verdict,
                    failing.len()
                )?;
            } else {
                writeln!(
                    out,
                    "{BAD}{}{BAD:#} in {id}, the first of {} failing tests",
                    t.verdict,
                    failing.len()
                )?;
            }
            if let Some(hint) = &s.api_hint {
                writeln!(out, "{BAD}note{BAD:#}: {}", visible(&hint.message))?;
            }
            writeln!(out)?;
            render_failure(t, out)?;
            if alike > 0 {
                writeln!(
                    out,
                    "{DIM}the same failure in {}{DIM:#}",
                    grading::words::counted(alike, "more test")
                )?;
            }
            render_hint(s, out)?;
        }
    }
    writeln!(out)?;
    let style = if s.verdict == Verdict::Accepted {
        GOOD
    } else {
        BAD
    };
    writeln!(out, "{style}{}{style:#}", progress(s))
}

/// What explains the failures: answers that change between runs (which
/// explain them alone), else every hint the evidence supports, in the
/// order to fix them: the known mistake, a hash that is not h32 (the
/// learner's own h32 where it parts, or routes against the pinned
/// scores), a broken property.
fn render_hint(s: &SubmissionReport, out: &mut dyn Write) -> io::Result<()> {
    if let Some(n) = &s.nondeterministic {
        writeln!(out)?;
        return render_nondeterminism(n, out);
    }
    if let Some(m) = &s.mistake {
        writeln!(out)?;
        render_mistake(m, out)?;
    }
    render_wrong_hash(s, out)?;
    if let Some(p) = &s.property {
        writeln!(out)?;
        render_property(p, out)?;
    }
    Ok(())
}
