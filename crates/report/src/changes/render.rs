//! The changes between two gradings, for people and for machines.

use super::{ChangeKind, Changes, Standing, StudentChange, score_change};
use crate::style::{BAD, DIM, GOOD, HEAD};
use crate::text::{abbreviate, display_width, earned, pad, possible, visible};
use std::io::{self, Write};

/// The changes as JSON: the [`Changes`] value, learner text escaped as in
/// every JSON the grader writes.
pub fn render_changes_json(changes: &Changes, out: &mut dyn Write) -> io::Result<()> {
    crate::text::safe_json(changes, out)?;
    writeln!(out)
}

/// The changes for people: a line per student who changes, with the tests
/// that flipped, after a line that counts them.
pub fn render_changes(changes: &Changes, out: &mut dyn Write) -> io::Result<()> {
    let judged_alike = changes.unchanged;
    let moving = changes
        .students
        .iter()
        .filter(|s| s.kind != ChangeKind::StillNotJudged && s.kind != ChangeKind::NotJudged)
        .count();
    let style = if moving == 0 { GOOD } else { HEAD };
    writeln!(
        out,
        "{style}{}{style:#} {DIM}({judged_alike} unchanged){DIM:#}",
        if moving == 0 {
            "no student changes verdict or score".to_owned()
        } else {
            format!(
                "{} change{}",
                grading::counted(moving, "student"),
                if moving == 1 { "s" } else { "" }
            )
        }
    )?;
    for (what, tests) in [
        ("tests added", &changes.tests_added),
        ("tests removed", &changes.tests_removed),
    ] {
        if !tests.is_empty() {
            let shown: Vec<String> = tests.iter().map(|t| visible(t)).collect();
            writeln!(
                out,
                "{DIM}{what} ({}): {}{DIM:#}",
                tests.len(),
                abbreviate(&shown, 8)
            )?;
        }
    }
    if changes.students.is_empty() {
        return Ok(());
    }
    writeln!(out)?;
    let names: Vec<String> = changes.students.iter().map(|s| visible(&s.name)).collect();
    let width = names.iter().map(|n| display_width(n)).max().unwrap_or(0);
    for (s, name) in changes.students.iter().zip(&names) {
        writeln!(out, "  {HEAD}{}{HEAD:#}  {}", pad(name, width), line(s))?;
        let indent = " ".repeat(width + 4);
        for (what, tests) in [
            ("now failing", &s.now_failing),
            ("now passing", &s.now_passing),
            ("fails added tests", &s.failing_added),
        ] {
            if !tests.is_empty() {
                let shown: Vec<String> = tests.iter().map(|t| visible(t)).collect();
                writeln!(out, "{indent}{what}: {}", abbreviate(&shown, 8))?;
            }
        }
    }
    Ok(())
}

fn score(o: &Standing) -> String {
    format!("{}, {}", o.verdict, crate::text::score_of(&o.points))
}

/// What happened to one student, on one line.
fn line(s: &StudentChange) -> String {
    let why = || {
        s.not_judged
            .as_deref()
            .map(|w| visible(crate::text::first_line(w)))
            .unwrap_or_default()
    };
    match (s.kind, &s.old, &s.new) {
        (ChangeKind::Changed, Some(o), Some(n)) => {
            let verdict = if o.verdict == n.verdict {
                n.verdict.to_string()
            } else {
                format!("{} → {}", o.verdict, n.verdict)
            };
            let total =
                if o.points.total * n.points.denominator == n.points.total * o.points.denominator {
                    possible(&n.points)
                } else {
                    format!("{} → {}", possible(&o.points), possible(&n.points))
                };
            let style = if n.score < o.score || n.verdict > o.verdict {
                BAD
            } else {
                GOOD
            };
            format!(
                "{style}{verdict}{style:#}, score {} → {} of {total} ({})",
                earned(&o.points),
                earned(&n.points),
                score_change(o.points, n.points)
            )
        }
        (ChangeKind::Added, _, Some(n)) => {
            format!("new: {} {DIM}(no earlier result){DIM:#}", score(n))
        }
        (ChangeKind::Removed, Some(o), _) => format!(
            "gone: was {} {DIM}(no submission in the later grading){DIM:#}",
            score(o)
        ),
        (ChangeKind::NotJudged, Some(o), _) => format!(
            "{BAD}could not be judged{BAD:#} ({}); was {}, not replaced by a verdict",
            why(),
            score(o)
        ),
        (ChangeKind::NowJudged, _, Some(n)) => format!(
            "judged now: {} {DIM}(the grader had failed on them before){DIM:#}",
            score(n)
        ),
        _ => format!(
            "{BAD}could not be judged{BAD:#} in either grading ({})",
            why()
        ),
    }
}
