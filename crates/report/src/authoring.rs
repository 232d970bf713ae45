//! What the authoring commands print: `list`, `audit`, `bless` and
//! `validate`. The commands compute; these functions only write.

use grading::author::{Blessing, Finding};
use grading::challenge::{Challenge, Scoring, Suite, Visibility};
use grading::diagnose::AuditRow;
use grading::words::counted;
use std::io::{self, Write};

/// `grader list`: each challenge with its operations, then its groups.
pub fn render_list(
    challenges: &[(Challenge, Suite)],
    source: &grading::challenge::Source,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(out, "challenges: {}", source.label())?;
    for (c, suite) in challenges {
        let total: usize = suite.groups.iter().map(|g| g.cases.len()).sum();
        let ops: Vec<&str> = c.operations.iter().map(|s| s.name).collect();
        writeln!(
            out,
            "{}  {} ({}; operations: {})",
            c.id,
            c.config.title,
            counted(total, "case"),
            ops.join(", ")
        )?;
        for g in &suite.groups {
            writeln!(
                out,
                "  {:<10} {:>10}  weight {} ({})  {}  {} ms",
                g.name,
                counted(g.cases.len(), "case"),
                g.weight,
                match g.scoring {
                    Scoring::PerTest => "per test",
                    Scoring::AllOrNothing => "all or nothing",
                },
                match g.visibility {
                    Visibility::Visible => "visible",
                    Visibility::Hidden => "hidden",
                },
                g.time_limit.as_millis()
            )?;
        }
    }
    Ok(())
}

/// `grader audit`: a line per mistake (and form), caught or a gap, and
/// what to do about the gaps.
pub fn render_audit(
    challenge: &str,
    tests: usize,
    rows: &[AuditRow],
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "{challenge}: {} against {}",
        counted(rows.len(), "known mistake"),
        counted(tests, "test")
    )?;
    let named = |r: &AuditRow| match &r.form {
        Some(form) => format!("{} {form}", r.id),
        None => r.id.clone(),
    };
    // One column for every name, however long the longest.
    let width = rows
        .iter()
        .map(|r| named(r).chars().count())
        .max()
        .unwrap_or(0);
    for r in rows {
        let name = named(r);
        if r.caught_by.is_empty() {
            writeln!(out, "  GAP  {name:<width$} no test catches it: {}", r.title)?;
        } else {
            let shown: Vec<&str> = r.caught_by.iter().take(4).map(String::as_str).collect();
            let more = r.caught_by.len().saturating_sub(shown.len());
            writeln!(
                out,
                "  ok   {name:<width$} caught by {}{}",
                shown.join(", "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )?;
        }
    }
    let gaps = rows.iter().filter(|r| r.caught_by.is_empty()).count();
    if gaps > 0 {
        writeln!(
            out,
            "{} through: add cases that catch {}",
            if gaps == 1 {
                "1 mistake slips".to_owned()
            } else {
                format!("{gaps} mistakes slip")
            },
            if gaps == 1 { "it" } else { "them" }
        )?;
    }
    Ok(())
}

/// `grader audit --format json`: the rows as they are.
pub fn render_audit_json(rows: &[AuditRow], out: &mut dyn Write) -> io::Result<()> {
    super::text::safe_json(rows, out)?;
    writeln!(out)
}

/// `grader bless`: each expected file that changes (or would, with
/// `check`), with the diff of its answers, and the summary.
pub fn render_bless(changes: &[Blessing], check: bool, out: &mut dyn Write) -> io::Result<()> {
    for c in changes {
        writeln!(
            out,
            "{} {}",
            if check { "would change" } else { "changed" },
            c.path.display()
        )?;
        match &c.old {
            Some(old) => write!(out, "{}", grading::diff::answers(old, &c.new))?,
            None => writeln!(out, "  (missing or unreadable: written from the reference)")?,
        }
    }
    if changes.is_empty() {
        writeln!(out, "every expected file agrees with the reference")?;
    } else if check {
        writeln!(
            out,
            "{} would change; run `grader bless` to write {}",
            counted(changes.len(), "expected file"),
            if changes.len() == 1 { "it" } else { "them" }
        )?;
    }
    Ok(())
}

/// `grader validate`'s findings, errors and warnings, each at its place.
pub fn render_findings(findings: &[Finding], out: &mut dyn Write) -> io::Result<()> {
    for f in findings {
        writeln!(
            out,
            "{}: {}",
            if f.error { "error" } else { "warning" },
            f.problem
        )?;
    }
    Ok(())
}

/// `grader validate`'s last line when nothing is wrong.
pub fn render_valid(
    challenge: &str,
    suite: &Suite,
    warnings: usize,
    out: &mut dyn Write,
) -> io::Result<()> {
    writeln!(
        out,
        "{challenge}: {} in {}, all valid{}",
        counted(suite.cases().count(), "case"),
        counted(suite.groups.len(), "group"),
        if warnings == 0 {
            String::new()
        } else {
            format!(" ({})", counted(warnings, "warning"))
        }
    )
}
