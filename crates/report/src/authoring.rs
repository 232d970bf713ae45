//! What the authoring commands print: `list`, `audit` (and
//! [`explored`], for `audit --submissions`), `bless` and `validate`. The
//! commands compute; these functions only write.

pub mod explored;

use crate::contract::Verdict;
use crate::contract::tools::{
    AuditEntry, Audits, GroupLimitRow, LeftOut, LimitsProposal, SlowestCase,
};
use grading::AuditRow;
use grading::GroupLimit;
use grading::counted;
use grading::{Blessing, SuiteFinding};
use grading::{Challenge, Suite};
use std::io::{self, Write};
use std::path::Path;
use vocabulary::{Scoring, Visibility};

/// `grader list`: each challenge with its operations, then its groups.
pub fn render_list(
    challenges: &[(Challenge, Suite)],
    source: &vocabulary::Source,
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
            // The points are the group's, never each test's.
            let points = match (g.weight, g.scoring) {
                (0, _) => "no points".to_owned(),
                (w, Scoring::PerTest) => format!("{w} points, shared by its cases"),
                (w, Scoring::AllOrNothing) => format!("{w} points, all or nothing"),
            };
            writeln!(
                out,
                "  {:<10} {:>10}  {points:<30}  {}  {} ms",
                g.name,
                counted(g.cases.len(), "case"),
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
    let entries: Vec<AuditEntry> = rows.iter().map(AuditEntry::from).collect();
    super::text::safe_json(&entries, out)?;
    writeln!(out)
}

/// `grader audit --all --format json`: an object with each challenge's
/// rows under its id (sorted by id).
pub fn render_audits_json(audits: &[(&str, &[AuditRow])], out: &mut dyn Write) -> io::Result<()> {
    let object: Audits = audits
        .iter()
        .map(|(id, rows)| {
            (
                (*id).to_owned(),
                rows.iter().map(AuditEntry::from).collect(),
            )
        })
        .collect();
    super::text::safe_json(&object, out)?;
    writeln!(out)
}

/// `grader bless`: each expected file of `challenge` that changes (or
/// would, with `check`), with the diff of its answers, and the summary.
pub fn render_bless(
    challenge: &str,
    changes: &[Blessing],
    check: bool,
    out: &mut dyn Write,
) -> io::Result<()> {
    for c in changes {
        writeln!(
            out,
            "{} {}",
            if check { "would change" } else { "changed" },
            c.path.display()
        )?;
        match &c.old {
            Some(old) => write!(out, "{}", grading::answers_diff(old, &c.new))?,
            None => writeln!(out, "  (missing or unreadable: written from the reference)")?,
        }
    }
    if changes.is_empty() {
        writeln!(
            out,
            "{challenge}: every expected file agrees with the reference"
        )?;
    } else if check {
        writeln!(
            out,
            "{challenge}: {} would change; run the same command without --check to write {}",
            counted(changes.len(), "expected file"),
            if changes.len() == 1 { "it" } else { "them" }
        )?;
    }
    Ok(())
}

/// `grader validate`'s findings, errors and warnings, each at its place.
pub fn render_findings(findings: &[SuiteFinding], out: &mut dyn Write) -> io::Result<()> {
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

/// What `grader audit --limits` found: each group's limit as it is and as
/// proposed from the correct submissions measured.
#[derive(Debug)]
pub struct Limits<'a> {
    /// `--write` was asked for.
    pub write: bool,
    pub challenge: &'a str,
    /// Correct submissions measured.
    pub measured: usize,
    pub rows: &'a [GroupLimit],
    /// Submissions named that were not accepted, so not measured: their
    /// paths and verdicts.
    pub left_out: &'a [(String, Verdict)],
    /// The challenge.toml the limits belong in.
    pub file: &'a Path,
    /// Where they were written, with `--write`.
    pub written: Option<&'a Path>,
}

/// `grader audit --limits`: a line per group (its limit now, the proposed
/// one and why), the submissions left out, and where the limits go.
pub fn render_limits(limits: &Limits<'_>, out: &mut dyn Write) -> io::Result<()> {
    use grading::{LIMIT_FLOOR, LIMIT_MULTIPLE, shown_duration};
    writeln!(
        out,
        "{}: time limits from {} (CPU time; {LIMIT_MULTIPLE} times the slowest correct case, in whole seconds, at least {})",
        limits.challenge,
        counted(limits.measured, "correct submission"),
        shown_duration(LIMIT_FLOOR)
    )?;
    let width = limits
        .rows
        .iter()
        .map(|r| r.group.chars().count())
        .max()
        .unwrap_or(0);
    for row in limits.rows {
        let now = shown_duration(row.current);
        let group = &row.group;
        match (row.proposed, row.slowest()) {
            (Some(proposed), Some(slowest)) => {
                let change = match proposed == row.current {
                    true => format!("{now}, as now"),
                    false => format!("{now} now, {} proposed", shown_duration(proposed)),
                };
                let languages: Vec<String> = row
                    .slowest
                    .iter()
                    .map(|t| format!("{} {}", t.language, shown_duration(t.cpu)))
                    .collect();
                writeln!(
                    out,
                    "  {group:<width$}  {change}: slowest {} by {} on {} ({}; reference {})",
                    shown_duration(slowest.cpu),
                    super::text::visible(&slowest.by),
                    super::text::visible(&slowest.case),
                    languages.join(", "),
                    shown_duration(row.reference)
                )?;
            }
            _ => writeln!(
                out,
                "  {group:<width$}  {now} now: no correct submission passed a case of it, so it is kept"
            )?,
        }
    }
    for (path, verdict) in limits.left_out {
        writeln!(
            out,
            "left out: {} is {verdict}, not correct on this suite; fix it or leave it out",
            super::text::visible(path)
        )?;
    }
    match limits.written {
        Some(file) => writeln!(out, "written to {}", file.display()),
        None if limits.write && !limits.left_out.is_empty() => writeln!(
            out,
            "nothing written: every submission named must be correct; run again without those left out"
        ),
        None if limits.measured > 0 => writeln!(
            out,
            "run again with --write to write them to {}",
            limits.file.display()
        ),
        None => writeln!(
            out,
            "nothing measured: name correct submissions after --limits"
        ),
    }
}

/// `grader audit --limits --format json`.
pub fn render_limits_json(limits: &Limits<'_>, out: &mut dyn Write) -> io::Result<()> {
    let ms = |d: std::time::Duration| d.as_millis() as u64;
    let view = LimitsProposal {
        challenge: limits.challenge.to_owned(),
        measured: limits.measured,
        groups: limits
            .rows
            .iter()
            .map(|r| GroupLimitRow {
                group: r.group.clone(),
                current_ms: ms(r.current),
                proposed_ms: r.proposed.map(ms),
                reference_us: r.reference.as_micros() as u64,
                slowest: r
                    .slowest
                    .iter()
                    .map(|t| SlowestCase {
                        language: t.language.clone(),
                        submission: t.by.clone(),
                        case: t.case.clone(),
                        cpu_ms: ms(t.cpu),
                    })
                    .collect(),
            })
            .collect(),
        left_out: limits
            .left_out
            .iter()
            .map(|(submission, verdict)| LeftOut {
                submission: submission.clone(),
                verdict: *verdict,
            })
            .collect(),
        written: limits.written.map(|p| p.display().to_string()),
    };
    super::text::safe_json(&view, out)?;
    writeln!(out)
}
