//! The human report: one line per test, then each failure explained. Styles
//! are always written as ANSI sequences; the caller's stream strips them
//! when the output is not a terminal or NO_COLOR is set.

use super::failing::{failures_shown, render_failure};
use super::style::{BAD, DIM, GOOD, HEAD};
use super::text::{
    SAME_VALUE_OTHER_TYPE, abbreviate, display_width, earned, first_line, h32_value, millis, pad,
    possible, visible, visible_json, visible_str,
};
use super::{Report, SubmissionReport};
use crate::contract::{
    ExploreReport, HashCheck, MistakeReport, NamedMistake, Nondeterminism, PropertyHint, Scoring,
    Verdict,
};
use std::io::{self, Write};

/// How much the human report shows: of each failure, and of the grading
/// machine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HumanOptions {
    /// Show only this many failures of a submission in full, the rest in
    /// a line each, with `all_command` to see them all; `None` shows every
    /// failure in full.
    pub folded: Option<Folded>,
    /// Leave the machine's set-up out of the header (the tests' and the
    /// challenges' folders, the sandbox): a platform's results show the
    /// report to students, and the set-up is the instructors' business.
    pub without_setup: bool,
}

/// Failures past the first few, in one line each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folded {
    /// How many failures are shown in full.
    pub in_full: usize,
    /// The command that shows every failure in full (`grader grade --all ...`).
    pub all_command: String,
}

/// Writes the human report, every failure in full.
pub fn render_human(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    render_human_with(report, &HumanOptions::default(), out)
}

/// Writes the human report as `options` ask.
pub fn render_human_with(
    report: &Report,
    options: &HumanOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    if options.without_setup {
        writeln!(out, "{HEAD}{}{HEAD:#}", report.challenge)?;
    } else {
        writeln!(
            out,
            "{HEAD}{}{HEAD:#} {DIM}· tests from {}{DIM:#}",
            report.challenge,
            report.tests_from()
        )?;
        if let Some(source) = &report.challenges {
            writeln!(out, "{DIM}challenges: {}{DIM:#}", source.label())?;
        }
        let style = if report.sandbox.enabled && report.sandbox.missing.is_empty() {
            DIM
        } else {
            BAD
        };
        writeln!(
            out,
            "{style}sandbox: {}{style:#}",
            report.sandbox.describe()
        )?;
    }
    if !report.only.is_empty() {
        writeln!(
            out,
            "{BAD}only {}: a partial run, its scores are of these tests alone, not grades{BAD:#}",
            super::text::visible(&report.only.join(", "))
        )?;
    }
    if let Some(limits) = &report.limits {
        writeln!(out, "{DIM}limits: {}{DIM:#}", visible(&limits.describe()))?;
        for lowered in &limits.lowered {
            writeln!(
                out,
                "{BAD}limit lowered: {}{BAD:#}",
                visible(&lowered.describe())
            )?;
        }
    }
    for submission in &report.submissions {
        writeln!(out)?;
        render_submission(submission, options, out)?;
    }
    if report.submissions.len() > 1 {
        let passed = report
            .submissions
            .iter()
            .filter(|s| s.verdict == Verdict::Accepted)
            .count();
        writeln!(
            out,
            "\n{HEAD}{passed} of {} submissions accepted{HEAD:#}",
            report.submissions.len()
        )?;
        render_class_scores(report, out)?;
        render_class_mistakes(&super::class::class_mistakes(report), out)?;
    }
    Ok(())
}

/// The class's table of students: each one's verdict, score and tests
/// passed, in report order, as the step summary and the HTML page have it;
/// when the class was explored, a column more says which accepted
/// students a generated case still fails.
fn render_class_scores(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let explored = super::text::any_explored(report);
    let mut header: Vec<String> = ["student", "verdict", "score", "tests passed"]
        .map(str::to_owned)
        .into();
    if explored {
        header.push("generated cases".to_owned());
    }
    let rows: Vec<Vec<String>> = report
        .submissions
        .iter()
        .map(|s| {
            let mut row = vec![
                visible(&s.name),
                s.verdict.to_string(),
                match s.points.earned {
                    Some(_) => format!("{} / {}", earned(&s.points), possible(&s.points)),
                    None => super::text::NOT_GRADED.to_owned(),
                },
                format!("{} / {}", s.passed, s.total),
            ];
            if explored {
                row.push(super::text::explore_cell(s));
            }
            row
        })
        .collect();
    writeln!(out)?;
    write_table(&header, &rows, out)
}

/// A table with its `header` dimmed, each column but the last padded to
/// its widest cell, indented by two spaces; every row has the header's
/// columns.
fn write_table(header: &[String], rows: &[Vec<String>], out: &mut dyn Write) -> io::Result<()> {
    let n = header.len();
    let widths: Vec<usize> = (0..n)
        .map(|i| {
            std::iter::once(header)
                .chain(rows.iter().map(Vec::as_slice))
                .map(|r| display_width(&r[i]))
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (i, row) in std::iter::once(header)
        .chain(rows.iter().map(Vec::as_slice))
        .enumerate()
    {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c + 1 < n {
                    pad(cell, widths[c])
                } else {
                    cell.clone()
                }
            })
            .collect();
        let line = format!("  {}", cells.join("  "));
        if i == 0 {
            writeln!(out, "{DIM}{}{DIM:#}", line.trim_end())?;
        } else {
            writeln!(out, "{}", line.trim_end())?;
        }
    }
    Ok(())
}

/// The class's mistake table: a row per mistake named (a student counts
/// once for each, see [`super::class`]), then the pairs made together.
/// It names no test, so a learner's report shows in it only what each
/// student's own report shows.
fn render_class_mistakes(c: &super::class::ClassMistakes, out: &mut dyn Write) -> io::Result<()> {
    use super::class::share;
    let students = |n: usize| grading::counted(n, "student");
    writeln!(out)?;
    if c.is_empty() {
        return writeln!(
            out,
            "{DIM}no known mistake named in the class ({} judged){DIM:#}",
            students(c.judged)
        );
    }
    writeln!(
        out,
        "{HEAD}mistakes across the class{HEAD:#} {DIM}({} judged; a student counts once for each mistake named){DIM:#}",
        students(c.judged)
    )?;
    let rows: Vec<Vec<String>> = c
        .mistakes
        .iter()
        .map(|m| {
            let together = if m.together > 0 {
                format!(" ({} with another)", m.together)
            } else {
                String::new()
            };
            vec![
                format!("{} ({})", m.id, m.title),
                format!("{}{together}", m.students.len()),
                share(m.students.len(), c.judged),
            ]
        })
        .chain(c.pairs.iter().map(|p| {
            vec![
                format!("made together: {}", p.ids.join(" + ")),
                p.students.len().to_string(),
                share(p.students.len(), c.judged),
            ]
        }))
        .collect();
    let header = ["mistake", "students", "share"].map(str::to_owned);
    write_table(&header, &rows, out)?;
    for line in super::class::other_students(c) {
        writeln!(out, "  {line}")?;
    }
    if c.not_judged > 0 {
        writeln!(
            out,
            "  {DIM}{} not judged (grader-fault), in no count{DIM:#}",
            grading::counted(c.not_judged, "submission")
        )?;
    }
    Ok(())
}

fn render_submission(
    s: &SubmissionReport,
    options: &HumanOptions,
    out: &mut dyn Write,
) -> io::Result<()> {
    // The runtime is the program's own word (an executable's hello).
    let about = [
        s.runtime.as_deref().map(visible),
        s.api.as_ref().map(|a| format!("{} API", visible(a))),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    writeln!(
        out,
        "{HEAD}{}{HEAD:#} {DIM}· {}{DIM:#}{}",
        visible(&s.name),
        visible(&s.path),
        if about.is_empty() {
            String::new()
        } else {
            format!(" {DIM}({about}){DIM:#}")
        }
    )?;
    if let Some(hint) = &s.api_hint {
        writeln!(out, "{BAD}note{BAD:#}: {}", visible(&hint.message))?;
    }
    let ids: Vec<String> = s
        .tests
        .iter()
        .map(|t| visible(&t.id().to_string()))
        .collect();
    // Columns by display width: a wide name takes two columns a character.
    let width = ids.iter().map(|id| display_width(id)).max().unwrap_or(0);
    for (t, id) in s.tests.iter().zip(&ids) {
        let id = pad(id, width);
        if t.verdict == Verdict::Accepted {
            writeln!(
                out,
                "  {GOOD}ok{GOOD:#}   {id}  {DIM}{}{DIM:#}",
                millis(t.time_ms)
            )?;
        } else {
            writeln!(
                out,
                "  {BAD}FAIL{BAD:#} {id}  {BAD}{}{BAD:#}  {}",
                t.verdict,
                visible(first_line(&t.message))
            )?;
        }
    }
    if let Some(n) = &s.nondeterministic {
        writeln!(out)?;
        render_nondeterminism(n, out)?;
    }
    if let Some(why) = &s.second_opinion_cut_short {
        writeln!(out)?;
        writeln!(out, "{}", visible(why))?;
    }
    if let Some(cause) = crate::text::unnamed_cause(s) {
        writeln!(out)?;
        writeln!(out, "{cause}")?;
    }
    if let Some(m) = &s.mistake {
        writeln!(out)?;
        render_mistake(m, out)?;
    }
    // A hash that is not h32 changes nearly every answer: it is the first
    // thing to fix, before any failure or broken property.
    render_wrong_hash(s, out)?;
    let shown = failures_shown(s);
    let in_full = options
        .folded
        .as_ref()
        .map_or(shown.len(), |f| f.in_full.min(shown.len()));
    for (t, others) in &shown[..in_full] {
        writeln!(out)?;
        render_failure(t, out)?;
        if !others.is_empty() {
            writeln!(
                out,
                "{DIM}the same failure in {}: {}{DIM:#}",
                grading::counted(others.len(), "more test"),
                abbreviate(others, 5)
            )?;
        }
    }
    if let Some(folded) = options.folded.as_ref().filter(|_| in_full < shown.len()) {
        writeln!(out)?;
        for (t, others) in &shown[in_full..] {
            let same = if others.is_empty() {
                String::new()
            } else {
                format!(
                    " {DIM}(the same in {}){DIM:#}",
                    grading::counted(others.len(), "more test")
                )
            };
            writeln!(
                out,
                "{BAD}--- {} ({}){BAD:#}: {}{same}",
                visible(&t.id().to_string()),
                t.verdict,
                visible(first_line(&t.message))
            )?;
        }
        writeln!(
            out,
            "{DIM}{} in full above, {} in a line each; every one in full:{DIM:#} {}",
            grading::counted(in_full, "failure"),
            shown.len() - in_full,
            folded.all_command
        )?;
    }
    if let Some(p) = &s.property {
        writeln!(out)?;
        render_property(p, out)?;
    }
    if let Some(r) = &s.reproducer {
        writeln!(out)?;
        writeln!(
            out,
            "{HEAD}a smaller case that fails the same way{HEAD:#}: {}",
            r.case
        )?;
        writeln!(
            out,
            "  the last operation should answer {}, yours answers {}",
            visible_json(&r.expected),
            visible_json(&r.actual)
        )?;
        if let Some(why) = &r.cut_short {
            writeln!(out, "  {DIM}({why}){DIM:#}")?;
        }
        for line in r.snippet.lines() {
            writeln!(out, "  {DIM}|{DIM:#} {}", visible(line))?;
        }
    }
    if let Some(e) = &s.explore {
        writeln!(out)?;
        render_explore(e, out)?;
    }
    // An h32 that agrees is said at the end; one that does not, above.
    if let Some(check) = s.h32.as_ref().filter(|c| c.first_mismatch.is_none()) {
        writeln!(out)?;
        render_hash_check(check, out)?;
    }
    if s.groups.len() > 1 {
        let groups: Vec<String> = s
            .groups
            .iter()
            .map(|g| {
                let rule = if g.scoring == Scoring::AllOrNothing {
                    ", all or nothing"
                } else {
                    ""
                };
                // A group worth nothing says so, with its tests: "0/0"
                // would read as a group without any.
                match g.points.total {
                    0 => format!("{} no points ({} of {} passed)", g.name, g.passed, g.total),
                    _ => format!(
                        "{} {}/{}{rule}",
                        g.name,
                        earned(&g.points),
                        possible(&g.points)
                    ),
                }
            })
            .collect();
        writeln!(out, "\n{DIM}by group: {}{DIM:#}", groups.join(" · "))?;
    }
    let style = if s.verdict == Verdict::Accepted {
        GOOD
    } else {
        BAD
    };
    writeln!(
        out,
        "\n{style}{}{style:#}: {} of {} tests passed, {}",
        s.verdict,
        s.passed,
        s.total,
        super::text::score_of(&s.points)
    )
}

/// Answers that change between runs: how many tests, one example, why.
pub(super) fn render_nondeterminism(n: &Nondeterminism, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{BAD}your answers change between runs{BAD:#}: {} of the same tests answered differently in another run (a fresh process with another hash seed)",
        n.tests.len()
    )?;
    if let Some(c) = &n.example {
        let answer = |a: &Option<serde_json::Value>| {
            a.as_ref().map_or_else(|| "raised".to_owned(), visible_json)
        };
        writeln!(
            out,
            "  {}: operation {} {} answered {} in one run and {} in the other",
            c.test,
            c.op_index,
            c.op,
            answer(&c.first),
            answer(&c.second)
        )?;
    }
    writeln!(out, "  {HEAD}hint{HEAD:#}: {}", n.explanation)?;
    Ok(())
}

/// The known mistake (or two) that explain the failures, with hints.
pub(super) fn render_mistake(m: &MistakeReport, out: &mut dyn Write) -> io::Result<()> {
    let titled = |n: &NamedMistake| {
        let form = n.form.as_ref().map(|f| format!(" ({f})"));
        format!("{}{}", n.title, form.unwrap_or_default())
    };
    let failing = if m.compared == 1 {
        "the one failing test compared".to_owned()
    } else {
        format!("all {} failing tests compared", m.compared)
    };
    if m.exact && m.with.is_some() {
        let (together, fewer) = crate::text::made_together(m.named().len());
        writeln!(out, "{BAD}likely mistakes, {together}{BAD:#}:")?;
        for (i, n) in m.named().iter().enumerate() {
            writeln!(out, "  {}. {}", i + 1, titled(n))?;
            writeln!(out, "     {}", n.explanation)?;
            writeln!(out, "     {HEAD}hint{HEAD:#}: {}", n.hint)?;
        }
        writeln!(
            out,
            "  {DIM}(together they reproduce {failing}, and pass every test your code passed; {fewer}){DIM:#}"
        )?;
    } else if m.exact {
        writeln!(out, "{BAD}likely mistake{BAD:#}: {}", titled(&m.named()[0]))?;
        writeln!(out, "  {}", m.explanation)?;
        writeln!(out, "  {HEAD}hint{HEAD:#}: {}", m.hint)?;
        let who = crate::text::reproduced_by(m);
        writeln!(out, "  {DIM}({who} {failing}){DIM:#}")?;
    } else {
        writeln!(
            out,
            "no known mistake reproduces every failure; the closest, \"{}\", reproduces {} of the {} failing tests, more than any other",
            m.title, m.reproduced, m.compared
        )?;
    }
    Ok(())
}

/// A property of consistent hashing the answers break.
pub(super) fn render_property(p: &PropertyHint, out: &mut dyn Write) -> io::Result<()> {
    let place = if p.first_op == p.second_op {
        format!("operation {}", p.first_op)
    } else {
        format!("operations {} and {}", p.first_op, p.second_op)
    };
    writeln!(
        out,
        "{BAD}broken property{BAD:#} in {} ({place}): {}",
        p.case,
        visible(&p.message)
    )?;
    Ok(())
}

/// What says the submission's hash is not h32: its own h32 where it parts
/// from the pinned one, or, without one, the routes against the pinned
/// scores. Nothing when neither does.
pub(super) fn render_wrong_hash(s: &SubmissionReport, out: &mut dyn Write) -> io::Result<()> {
    if let Some(check) = s.h32.as_ref().filter(|c| c.first_mismatch.is_some()) {
        writeln!(out)?;
        render_hash_check(check, out)?;
    }
    if let Some(hint) = &s.hash_hint {
        writeln!(out, "\n{BAD}your hash{BAD:#}: {}", hint.message)?;
    }
    Ok(())
}

/// What exploring found: nothing in so many cases, or the first case
/// that differs, shrunk, with its first wrong answer and the snippet; in
/// the words every format shares ([`super::text::explore_lines`]).
pub(super) fn render_explore(e: &ExploreReport, out: &mut dyn Write) -> io::Result<()> {
    let (label, rest) = super::text::explore_headline(e);
    let Some(c) = &e.counterexample else {
        return writeln!(out, "{GOOD}{label}{GOOD:#}{rest}");
    };
    writeln!(out, "{BAD}{label}{BAD:#}{rest}:")?;
    writeln!(out, "  case: {}", visible_json(&c.case))?;
    writeln!(out, "  {}", super::text::explore_difference(c))?;
    for line in c.snippet.lines() {
        writeln!(out, "  {DIM}|{DIM:#} {}", visible(line))?;
    }
    Ok(())
}

pub(super) fn render_hash_check(check: &HashCheck, out: &mut dyn Write) -> io::Result<()> {
    match &check.first_mismatch {
        None => writeln!(
            out,
            "your h32 agrees with the pinned hash on all {} strings checked",
            check.checked
        ),
        Some(m) => {
            writeln!(
                out,
                "{BAD}your h32 differs from the pinned hash{BAD:#}: h32({}) is {}, yours gave {}{}",
                visible_str(&m.text),
                m.pinned,
                h32_value(&m.yours),
                if m.same_value_other_type() {
                    SAME_VALUE_OTHER_TYPE
                } else {
                    ""
                }
            )?;
            match &check.step {
                Some(step) => writeln!(
                    out,
                    "  {} (the smallest text that shows it: h32({}) is {}, yours {})",
                    super::text::hash_steps(step),
                    visible_str(&step.text),
                    step.pinned,
                    step.yours
                ),
                None => Ok(()),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_class_table_says_which_accepted_students_a_generated_case_fails() {
        use crate::sample::{class, explored_class, written};
        let text = written(&explored_class(), render_human);
        let plain = anstream::adapter::strip_str(&text).to_string();
        let table: Vec<&str> = plain
            .lines()
            .skip_while(|l| !l.starts_with("  student"))
            .take_while(|l| !l.is_empty())
            .collect();
        assert!(
            table[0].ends_with("tests passed  generated cases"),
            "{table:#?}"
        );
        assert!(
            table[1].starts_with("  ada ")
                && table[1].ends_with("7 / 7         passes the suite; fails a generated case"),
            "{table:#?}"
        );
        assert!(
            table[2].ends_with("agrees on 412 generated cases"),
            "{table:#?}"
        );
        // A student exploring never reached keeps the row it had.
        let before = anstream::adapter::strip_str(&written(&class(), render_human)).to_string();
        assert!(!before.contains("generated cases"));
        let cy = |t: &str| {
            t.lines()
                .find(|l| l.starts_with("  cy "))
                .unwrap()
                .trim_end()
                .to_owned()
        };
        assert_eq!(
            cy(&plain).split_whitespace().collect::<Vec<_>>(),
            cy(&before).split_whitespace().collect::<Vec<_>>()
        );
        assert!(plain.contains("4 of 7 submissions accepted"));
    }
}
