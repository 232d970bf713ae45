//! The screen of `grader watch`: for the newest save of one file, its
//! verdict, the first failing test explained, the known mistake or hint
//! that explains it, and a line of progress. Styled as the human report
//! is; the caller strips the styles where colour is off.

use super::failing::{render_failure_details, render_failure_head};
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
    /// The command that grades the file once with the same challenge,
    /// tests and limits and shows the whole report, as words (run as the
    /// learner runs the grader: `grader`, or a wrapper's `npx grader`).
    pub again: &'a [String],
    pub challenge: &'a str,
    /// How long a grading explores once every test passes, if it does.
    pub explore: Option<std::time::Duration>,
    /// Whether keys are read (standard input is a terminal): the footer
    /// offers them only then.
    pub keys: bool,
    pub state: WatchState<'a>,
    /// What the grader warned about while grading (an incomplete sandbox).
    pub notes: &'a [String],
    /// The terminal's size (columns, rows) when the screen is shown on
    /// one: the screen fits it, the rest trimmed.
    pub size: Option<(u16, u16)>,
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

/// Writes `screen`: fitted to the terminal's size when it has one.
pub fn render_watch(screen: &WatchScreen<'_>, out: &mut dyn Write) -> io::Result<()> {
    let sections = sections(screen)?;
    let lines = |bytes: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(bytes)
            .lines()
            .map(str::to_owned)
            .collect()
    };
    let head = lines(&sections.head);
    let parts: Vec<Vec<String>> = sections.parts.iter().map(|p| lines(p)).collect();
    let foot = lines(&sections.foot);
    let shown = match screen.size {
        None => {
            let mut all = head;
            all.extend(parts.into_iter().flatten());
            all.extend(foot);
            all
        }
        Some((columns, rows)) => fit(head, parts, foot, columns.into(), rows.into()),
    };
    for line in shown {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// A screen in three: `head` (what the file is, its verdict) and `foot`
/// (the score, how to go on) are shown whole; `parts` (what to fix, in
/// the order to read it) as far as there is room.
struct Sections {
    head: Vec<u8>,
    parts: Vec<Vec<u8>>,
    foot: Vec<u8>,
}

/// `head`, `parts` and `foot` wrapped at word boundaries to `columns`,
/// in at most `rows` rows less one (the cursor's, so that the screen
/// does not scroll): the parts cut where the room ends, and how many
/// lines were left out said in their place.
fn fit(
    head: Vec<String>,
    parts: Vec<Vec<String>>,
    foot: Vec<String>,
    columns: usize,
    rows: usize,
) -> Vec<String> {
    let wrap = |lines: Vec<String>| -> Vec<String> {
        lines
            .iter()
            .flat_map(|l| super::text::wrap_styled(l, columns))
            .collect()
    };
    let rows = rows.saturating_sub(1).max(1);
    let (head, foot) = (wrap(head), wrap(foot));
    let mut body = wrap(parts.into_iter().flatten().collect());
    let room = rows.saturating_sub(head.len() + foot.len());
    if body.len() > room {
        let kept = room.saturating_sub(1);
        let left = body[kept..].iter().filter(|l| !l.trim().is_empty()).count();
        body.truncate(kept);
        while body.last().is_some_and(|l| l.trim().is_empty()) {
            body.pop();
        }
        if room > 0 {
            body.push(format!(
                "{DIM}... {}{DIM:#}",
                grading::counted(left, "more line")
            ));
        }
    }
    let mut shown = head;
    shown.extend(body);
    shown.extend(foot);
    // A terminal too small even for the head and foot: their start.
    shown.truncate(rows);
    shown
}

/// The sections of `screen`, styled.
fn sections(screen: &WatchScreen<'_>) -> io::Result<Sections> {
    let file = visible(screen.file);
    let when = match screen.state {
        WatchState::Graded { at, .. } => format!(" · graded at {at}"),
        WatchState::Failed { at, .. } => format!(" · {at}"),
        WatchState::Grading { .. } | WatchState::Missing => String::new(),
    };
    let mut head = Vec::new();
    let mut parts = Vec::new();
    let mut foot = Vec::new();
    writeln!(
        head,
        "{HEAD}{file}{HEAD:#} {DIM}· {}{when}{DIM:#}",
        screen.challenge
    )?;
    writeln!(head)?;
    match screen.state {
        WatchState::Grading {
            saved_at,
            previous,
            ran,
            failed,
        } => {
            let count = match (ran, screen.explore) {
                // Every test ran and none failed: the wait left is the
                // exploring's.
                (Some((ran, of)), Some(time)) if ran == of && failed.is_none() => format!(
                    " {ran}/{of} tests run, every one passes; exploring with generated cases for {:.1} s",
                    time.as_secs_f64()
                ),
                (ran, _) => ran.map_or(String::new(), |(ran, of)| format!(" {ran}/{of} tests run")),
            };
            writeln!(
                head,
                "{HEAD}grading{HEAD:#} the version saved at {saved_at}...{count}"
            )?;
            if let Some(t) = failed {
                writeln!(
                    head,
                    "{BAD}{}{BAD:#} in {}, the first failing test (the rest are still being graded)",
                    t.verdict,
                    visible(&t.id().to_string())
                )?;
                let mut first = Vec::new();
                writeln!(first)?;
                render_failure_head(t, &mut first)?;
                let mut details = Vec::new();
                render_failure_details(t, &mut details)?;
                parts.extend([first, details]);
            } else if let Some(s) = previous {
                writeln!(
                    head,
                    "{DIM}before this save: {}, {}{DIM:#}",
                    s.verdict,
                    progress(s)
                )?;
            }
        }
        WatchState::Graded { submission, .. } => {
            graded(submission, &mut head, &mut parts, &mut foot)?
        }
        WatchState::Failed { error, .. } => {
            writeln!(
                head,
                "{BAD}not graded{BAD:#}: the grader could not grade this version:"
            )?;
            let mut said = Vec::new();
            for line in visible_lines(error) {
                writeln!(said, "  {line}")?;
            }
            parts.push(said);
        }
        WatchState::Missing => writeln!(
            head,
            "{BAD}{file} is not there{BAD:#}: it is graded again as soon as it is saved"
        )?,
    }
    for note in screen.notes {
        writeln!(foot, "{DIM}{}{DIM:#}", visible(note))?;
    }
    writeln!(foot)?;
    let keys = if screen.keys {
        "r grades again · q quits"
    } else {
        "Ctrl-C quits"
    };
    writeln!(
        foot,
        "{DIM}watching: every save grades it again · {keys}{DIM:#}"
    )?;
    writeln!(
        foot,
        "{DIM}the whole report, every failure in full: {}{DIM:#}",
        super::text::shell_command(screen.again)
    )?;
    Ok(Sections { head, parts, foot })
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

/// A graded submission's sections: its verdict in `head`; in `parts`, in
/// the order to fix them, the first failing test's first wrong answer,
/// the hint that explains the failures, then the details of that test
/// (its diff, the pinned scores, what it printed); its score in `foot`.
fn graded(
    s: &SubmissionReport,
    head: &mut Vec<u8>,
    parts: &mut Vec<Vec<u8>>,
    foot: &mut Vec<u8>,
) -> io::Result<()> {
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
        None => {
            writeln!(head, "{GOOD}{}{GOOD:#}: every test passes", s.verdict)?;
            // What exploring found: the next thing to fix, though no
            // verdict or score changes.
            if let Some(e) = &s.explore {
                let mut found = Vec::new();
                writeln!(found)?;
                super::human::render_explore(e, &mut found)?;
                parts.push(found);
            }
        }
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
            let id = visible(&t.id().to_string());
            // A line that names one test gives that test's verdict (the
            // submission's, its worst, may be a hidden test's).
            if failing.len() == 1 {
                writeln!(
                    head,
                    "{BAD}{}{BAD:#} in {id}, the only failing test",
                    t.verdict
                )?;
            } else if alike + 1 == failing.len() {
                writeln!(
                    head,
                    "{BAD}{}{BAD:#} in all {} failing tests, alike",
                    s.verdict,
                    failing.len()
                )?;
            } else {
                writeln!(
                    head,
                    "{BAD}{}{BAD:#} in {id}, the first of {} failing tests",
                    t.verdict,
                    failing.len()
                )?;
            }
            if let Some(hint) = &s.api_hint {
                writeln!(head, "{BAD}note{BAD:#}: {}", visible(&hint.message))?;
            }
            let mut what = Vec::new();
            writeln!(what)?;
            render_failure_head(t, &mut what)?;
            if alike > 0 {
                writeln!(
                    what,
                    "{DIM}the same failure in {}{DIM:#}",
                    grading::counted(alike, "more test")
                )?;
            }
            let mut hint = Vec::new();
            render_hint(s, &mut hint)?;
            let mut details = Vec::new();
            if !hint.is_empty() {
                writeln!(details)?;
            }
            render_failure_details(t, &mut details)?;
            parts.extend([what, hint, details]);
        }
    }
    writeln!(foot)?;
    let style = if s.verdict == Verdict::Accepted {
        GOOD
    } else {
        BAD
    };
    writeln!(foot, "{style}{}{style:#}", progress(s))
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
