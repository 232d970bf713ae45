//! The human report: one line per test, then each failure explained. Styles
//! are always written as ANSI sequences; the caller's stream strips them
//! when the output is not a terminal or NO_COLOR is set.

use super::{Report, SubmissionReport, TestReport, Window};
use crate::explain::{
    ExplanationReport, HashCheck, RankedRow, RingReport, ScoreReport, ShownPoint, TopReport,
};
use crate::judge::Verdict;
use anstyle::{AnsiColor, Effects, Style};
use reference::model::{PointsView, WinRule};
use serde_json::Value;
use similar::{Algorithm, ChangeTag, TextDiff};
use std::io::{self, Write};
use std::time::Duration;

const GOOD: Style = AnsiColor::Green.on_default().effects(Effects::BOLD);
const BAD: Style = AnsiColor::Red.on_default().effects(Effects::BOLD);
const HEAD: Style = Style::new().effects(Effects::BOLD);
const DIM: Style = Style::new().effects(Effects::DIMMED);
const OLD: Style = AnsiColor::Red.on_default();
const NEW: Style = AnsiColor::Green.on_default();
const OLD_EMPH: Style = AnsiColor::Red
    .on_default()
    .effects(Effects::UNDERLINE.insert(Effects::BOLD));
const NEW_EMPH: Style = AnsiColor::Green
    .on_default()
    .effects(Effects::UNDERLINE.insert(Effects::BOLD));

/// Writes the human report.
pub fn render_human(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{HEAD}{}{HEAD:#} {DIM}· tests from {}{DIM:#}",
        report.challenge, report.tests_dir
    )?;
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
    for submission in &report.submissions {
        writeln!(out)?;
        render_submission(submission, out)?;
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
    }
    Ok(())
}

fn render_submission(s: &SubmissionReport, out: &mut dyn Write) -> io::Result<()> {
    let about = [
        s.runtime.clone(),
        s.api.as_ref().map(|a| format!("{a} API")),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");
    writeln!(
        out,
        "{HEAD}{}{HEAD:#}{}",
        s.path,
        if about.is_empty() {
            String::new()
        } else {
            format!(" {DIM}({about}){DIM:#}")
        }
    )?;
    if let Some(hint) = &s.api_hint {
        writeln!(out, "{BAD}note{BAD:#}: {}", hint.message)?;
    }
    let width = s
        .tests
        .iter()
        .map(|t| t.group.len() + t.name.len() + 1)
        .max()
        .unwrap_or(0);
    for t in &s.tests {
        let id = format!("{}/{}", t.group, t.name);
        if t.verdict == Verdict::Accepted {
            writeln!(
                out,
                "  {GOOD}ok{GOOD:#}   {id:<width$}  {DIM}{}{DIM:#}",
                millis(t.time_ms)
            )?;
        } else {
            writeln!(
                out,
                "  {BAD}FAIL{BAD:#} {id:<width$}  {BAD}{}{BAD:#}  {}",
                t.verdict,
                first_line(&t.message)
            )?;
        }
    }
    if let Some(m) = &s.mistake {
        writeln!(out)?;
        if m.exact {
            writeln!(
                out,
                "{BAD}likely mistake{BAD:#}: {}{}",
                m.title,
                m.form
                    .as_ref()
                    .map(|f| format!(" ({f})"))
                    .unwrap_or_default()
            )?;
            writeln!(out, "  {}", m.explanation)?;
            writeln!(out, "  {HEAD}hint{HEAD:#}: {}", m.hint)?;
            writeln!(
                out,
                "  {DIM}(this mistake reproduces all {} failing tests compared){DIM:#}",
                m.compared
            )?;
        } else {
            writeln!(
                out,
                "no known mistake reproduces every failure; the closest, \"{}\", reproduces {} of {} failing tests",
                m.title, m.reproduced, m.compared
            )?;
        }
    }
    // A failure that is the same in many tests (a module that does not
    // load) is explained once, with the other tests named.
    let mut shown: Vec<(&TestReport, Vec<String>)> = Vec::new();
    for t in s.tests.iter().filter(|t| t.verdict != Verdict::Accepted) {
        let same = shown.iter_mut().find(|(u, _)| {
            t.divergence.is_none()
                && u.divergence.is_none()
                && u.verdict == t.verdict
                && u.message == t.message
        });
        match same {
            Some((_, others)) => others.push(format!("{}/{}", t.group, t.name)),
            None => shown.push((t, Vec::new())),
        }
    }
    for (t, others) in &shown {
        writeln!(out)?;
        render_failure(t, out)?;
        if !others.is_empty() {
            writeln!(
                out,
                "{DIM}the same failure in {} more tests: {}{DIM:#}",
                others.len(),
                abbreviate(others, 5)
            )?;
        }
    }
    if let Some(p) = &s.property {
        writeln!(out)?;
        let place = if p.first_op == p.second_op {
            format!("operation {}", p.first_op)
        } else {
            format!("operations {} and {}", p.first_op, p.second_op)
        };
        writeln!(
            out,
            "{BAD}broken property{BAD:#} in {} ({place}): {}",
            p.case, p.message
        )?;
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
        for line in r.snippet.lines() {
            writeln!(out, "  {DIM}|{DIM:#} {line}")?;
        }
    }
    if let Some(check) = &s.h32 {
        writeln!(out)?;
        render_hash_check(check, out)?;
    }
    if s.groups.len() > 1 {
        let groups: Vec<String> = s
            .groups
            .iter()
            .map(|g| {
                let rule = if g.scoring == crate::challenge::Scoring::AllOrNothing {
                    ", all or nothing"
                } else {
                    ""
                };
                format!(
                    "{} {}/{}{rule}",
                    g.name,
                    number(g.score),
                    number(g.max_score)
                )
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
        "\n{style}{}{style:#}: {} of {} tests passed, score {} of {}",
        s.verdict,
        s.passed,
        s.total,
        number(s.score),
        number(s.max_score)
    )
}

/// A failing test's explanation as plain text, for the other formats.
pub(crate) fn failure_text(t: &TestReport) -> String {
    let mut bytes = Vec::new();
    let _ = render_failure(t, &mut bytes);
    anstream::adapter::strip_str(&String::from_utf8_lossy(&bytes)).to_string()
}

fn render_failure(t: &TestReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{BAD}--- {}/{} ({}) ---{BAD:#}",
        t.group, t.name, t.verdict
    )?;
    if t.expected_from == crate::challenge::ExpectedFrom::Reference {
        writeln!(
            out,
            "{DIM}(this case has no expected file: the reference's output is expected){DIM:#}"
        )?;
    }
    match &t.divergence {
        Some(d) => {
            writeln!(
                out,
                "first wrong answer at operation {}: {}",
                d.op_index, d.op
            )?;
            writeln!(out, "  expected: {}", visible_json(&d.expected))?;
            if d.missing {
                writeln!(out, "  actual:   (no answer)")?;
            } else {
                writeln!(out, "  actual:   {}", visible_json(&d.actual))?;
            }
            if d.differing_ops > 1 {
                writeln!(out, "  {} operations differ from here on", d.differing_ops)?;
            }
            if t.message.contains("later, ") {
                writeln!(out, "  {}", t.message)?;
            }
        }
        None => writeln!(out, "{}", t.message)?,
    }
    if let Some(e) = &t.error
        && !e.traceback.is_empty()
    {
        writeln!(out, "{DIM}traceback (your files only):{DIM:#}")?;
        for line in e.traceback.lines() {
            writeln!(out, "  {line}")?;
        }
    }
    if let Some(w) = &t.window {
        render_diff(w, out)?;
    }
    match &t.explanation {
        Some(ExplanationReport::Scores(s)) => {
            render_scores(s, t.divergence.as_ref().map(|d| &d.actual), out)?
        }
        Some(ExplanationReport::Top(top)) => render_top(top, out)?,
        Some(ExplanationReport::Ring(r)) => render_ring(r, out)?,
        Some(ExplanationReport::Points(p)) => render_points(p, out)?,
        None => {}
    }
    if let Some(c) = &t.captured {
        for (name, text) in [("stdout", &c.stdout), ("stderr", &c.stderr)] {
            if !text.is_empty() {
                writeln!(out, "{DIM}captured {name}:{DIM:#}")?;
                for line in text.lines() {
                    writeln!(out, "  {DIM}|{DIM:#} {line}")?;
                }
            }
        }
        if c.dropped_bytes > 0 {
            writeln!(
                out,
                "{DIM}({} more bytes of output not kept){DIM:#}",
                c.dropped_bytes
            )?;
        }
    }
    Ok(())
}

/// A diff of expected against actual around the divergence, one line per
/// operation: `index op -> answer`.
fn render_diff(w: &Window, out: &mut dyn Write) -> io::Result<()> {
    let line = |i: usize, answer: Option<&Value>| {
        let answer = answer.map_or_else(|| "(no answer)".to_owned(), visible_json);
        format!("{:>4} {} -> {answer}\n", w.first_op + i, w.ops[i])
    };
    let expected: String = (0..w.ops.len())
        .map(|i| line(i, w.expected.get(i)))
        .collect();
    let actual: String = (0..w.ops.len())
        .map(|i| line(i, w.actual[i].as_ref()))
        .collect();
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(Duration::from_millis(500))
        .diff_lines(&expected, &actual);
    writeln!(
        out,
        "{DIM}diff around it ({OLD}-expected{OLD:#}{DIM}, {NEW}+actual{NEW:#}{DIM}):{DIM:#}"
    )?;
    for group in diff.grouped_ops(3) {
        for op in &group {
            for change in diff.iter_inline_changes(op) {
                let (sign, plain, emph) = match change.tag() {
                    ChangeTag::Delete => ("-", OLD, OLD_EMPH),
                    ChangeTag::Insert => ("+", NEW, NEW_EMPH),
                    ChangeTag::Equal => (" ", DIM, DIM),
                };
                write!(out, "{plain}{sign}{plain:#}")?;
                for (emphasized, text) in change.iter_strings_lossy() {
                    let style = if emphasized { emph } else { plain };
                    write!(out, "{style}{}{style:#}", text.trim_end_matches('\n'))?;
                }
                writeln!(out)?;
            }
        }
    }
    Ok(())
}

/// The submission's value beside a pinned one: plain when they agree.
fn yours_cell(yours: &Option<Value>, pinned: u32) -> String {
    match yours {
        Some(v) if v.as_u64() == Some(u64::from(pinned)) => format!("{v}"),
        Some(v) => format!("{BAD}{v}{BAD:#}"),
        None => String::new(),
    }
}

/// The columns of a score row after the node: h32, the weighted steps
/// where there are some, the submission's h32 where it gave one.
struct ScoreColumns {
    weighted: bool,
    yours: bool,
}

impl ScoreColumns {
    fn of<'a>(rows: impl Iterator<Item = &'a RankedRow> + Clone) -> ScoreColumns {
        ScoreColumns {
            weighted: rows.clone().any(|r| r.weighted.is_some()),
            yours: rows.clone().any(|r| r.yours.is_some()),
        }
    }

    fn header(&self) -> String {
        let mut s = format!("{:>10}", "h32");
        if self.weighted {
            s.push_str(&format!(
                "  {:>8}  {:>12}  {:>8}  {:>12}",
                "weight", "U", "-ln(U)", "score"
            ));
        }
        if self.yours {
            s.push_str(&format!("  {:>12}", "your h32"));
        }
        s
    }

    fn cells(&self, r: &RankedRow) -> String {
        let mut s = format!("{:>10}", r.h32);
        if let (true, Some(w)) = (self.weighted, r.weighted) {
            s.push_str(&format!(
                "  {:>8}  {:>12.10}  {:>8.5}  {:>12.6}",
                number(w.weight),
                w.u,
                w.neg_ln_u,
                w.score
            ));
        }
        if self.yours {
            s.push_str(&format!("  {:>12}", yours_cell(&r.yours, r.h32)));
        }
        s
    }
}

fn render_scores(s: &ScoreReport, actual: Option<&Value>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "why: each node scores {} for key {}; the highest wins, ties go to the smaller name",
        s.formula,
        visible_str(&s.key)
    )?;
    let columns = ScoreColumns::of(s.rows.iter());
    let node_w = s
        .rows
        .iter()
        .map(|r| display_width(&visible_str(&r.node)))
        .max()
        .unwrap_or(4)
        .max(4);
    writeln!(
        out,
        "  {DIM}{:>5}  {:<node_w$}  {}  text hashed{DIM:#}",
        "rank",
        "node",
        columns.header()
    )?;
    let mut last_rank = 0;
    for r in &s.rows {
        if r.rank > last_rank + 1 {
            writeln!(out, "  {DIM}{:>5}{DIM:#}", "...")?;
        }
        last_rank = r.rank;
        write!(
            out,
            "  {:>5}  {}  {}  {}",
            r.rank,
            pad(&visible_str(&r.node), node_w),
            columns.cells(r),
            visible_str(&r.hashed)
        )?;
        let mut notes = Vec::new();
        if s.winner.as_deref() == Some(r.node.as_str()) {
            notes.push("expected");
        }
        if actual.and_then(Value::as_str) == Some(r.node.as_str()) {
            notes.push("your answer");
        }
        if !notes.is_empty() {
            write!(out, "  {HEAD}<- {}{HEAD:#}", notes.join(", "))?;
        }
        writeln!(out)?;
    }
    if s.total_nodes > s.rows.len() {
        writeln!(
            out,
            "  {DIM}({} nodes in all; the first {} by score are shown){DIM:#}",
            s.total_nodes,
            crate::explain::MAX_ROWS
        )?;
    }
    match (s.rule, s.rows.as_slice()) {
        (WinRule::NoNodes, _) => writeln!(out, "  there are no nodes, so the answer is null")?,
        (WinRule::TieSmallerName, [first, ..]) => {
            let tied: Vec<String> = s
                .rows
                .iter()
                .filter(|r| r.h32 == first.h32 && r.weighted == first.weighted)
                .map(|r| visible_str(&r.node))
                .collect();
            writeln!(
                out,
                "  {} tie at {}; the smaller name, {}, wins",
                tied.join(" and "),
                first
                    .weighted
                    .map_or(first.h32.to_string(), |w| w.score.to_string()),
                visible_str(&first.node)
            )?;
        }
        (_, [first, ..]) => writeln!(out, "  {} has the highest score", visible_str(&first.node))?,
        _ => {}
    }
    Ok(())
}

fn render_top(t: &TopReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "why: top({}, {}) lists the first min(n, {}) nodes by descending {}, ties by smaller name; the lists part at position {}",
        visible_str(&t.key),
        t.n,
        t.total_nodes,
        t.formula,
        t.first_difference
    )?;
    let rows = t
        .lines
        .iter()
        .flat_map(|l| l.expected.iter().chain(l.yours_row.iter()));
    let columns = ScoreColumns::of(rows.clone());
    let name_w = rows
        .map(|r| display_width(&visible_str(&r.node)))
        .max()
        .unwrap_or(4)
        .max(8);
    let blank = " ".repeat(columns.header().chars().count());
    // The submission's side shows the value ranked by; the rest of its row
    // is on the expected side, where each node also appears.
    let ranked_by = if columns.weighted { "score" } else { "h32" };
    let value = |r: &RankedRow| match r.weighted {
        Some(w) => format!("{:>12.6}", w.score),
        None => format!("{:>12}", r.h32),
    };
    writeln!(
        out,
        "  {DIM}{:>4}  {:<name_w$}  {}  {:<name_w$}  {ranked_by:>12}{DIM:#}",
        "pos",
        "expected",
        columns.header(),
        "yours",
    )?;
    if t.lines.first().is_some_and(|l| l.position > 0) {
        writeln!(out, "  {DIM}{:>4}{DIM:#}", "...")?;
    }
    for l in &t.lines {
        let (name, cells) = match &l.expected {
            Some(r) => (visible_str(&r.node), columns.cells(r)),
            None => ("(none)".to_owned(), blank.clone()),
        };
        let (your_name, your_value) = match (&l.yours, &l.yours_row) {
            (Some(_), Some(r)) => (visible_str(&r.node), value(r)),
            (Some(v), None) => (visible_json(v), format!("{BAD}not a node{BAD:#}")),
            (None, _) => ("(none)".to_owned(), String::new()),
        };
        let differs = l.expected.as_ref().map(|r| r.node.as_str())
            != l.yours.as_ref().and_then(Value::as_str);
        let style = if differs { BAD } else { DIM };
        writeln!(
            out,
            "  {:>4}  {}  {cells}  {style}{}{style:#}  {your_value}",
            l.position,
            pad(&name, name_w),
            pad(&your_name, name_w)
        )?;
    }
    Ok(())
}

fn render_points(p: &PointsView, out: &mut dyn Write) -> io::Result<()> {
    let names: Vec<String> = p.nodes.iter().map(|n| visible_str(n)).collect();
    writeln!(
        out,
        "why: the ring has {} ({}) with k = {} points each: {} entries. Removing a node takes all k of its points away, and two points at one position both stay.",
        if p.nodes.len() == 1 {
            "1 node".to_owned()
        } else {
            format!("{} nodes", p.nodes.len())
        },
        abbreviate(&names, 8),
        p.k,
        p.points
    )
}

fn render_ring(r: &RingReport, out: &mut dyn Write) -> io::Result<()> {
    write!(
        out,
        "why: key {} sits at position h32 = {}",
        visible_str(&r.key),
        r.position
    )?;
    if let Some(v) = &r.position_yours {
        write!(
            out,
            " (your h32: {})",
            yours_cell(&Some(v.clone()), r.position)
        )?;
    }
    writeln!(
        out,
        "; it belongs to the first of the ring's {} points at or after it{}",
        r.points,
        if r.wrapped {
            ", and there is none, so the lookup wraps to the first point"
        } else {
            ""
        }
    )?;
    if r.points == 0 {
        return writeln!(out, "  the ring is empty, so the answer is null");
    }
    let yours = r.before.iter().chain(&r.after).any(|p| p.yours.is_some());
    writeln!(
        out,
        "  {DIM}{:>6}  {:>10}{}  point{DIM:#}",
        "index",
        "position",
        if yours { "      your h32" } else { "" }
    )?;
    let line = |p: &ShownPoint, note: &str, out: &mut dyn Write| -> io::Result<()> {
        let mut cells = format!("{:>6}  {:>10}", p.index, p.position);
        if yours {
            cells.push_str(&format!("  {:>12}", yours_cell(&p.yours, p.position)));
        }
        writeln!(out, "  {cells}  {}{note}", visible_str(&p.hashed))
    };
    for p in &r.before {
        line(p, "", out)?;
    }
    writeln!(
        out,
        "  {HEAD}{:>6}  {:>10}  <- the key{HEAD:#}",
        "", r.position
    )?;
    for (i, p) in r.after.iter().enumerate() {
        let note = if i == 0 {
            format!("  {HEAD}<- expected: {}{HEAD:#}", visible_str(&p.node))
        } else {
            String::new()
        };
        line(p, &note, out)?;
    }
    Ok(())
}

fn render_hash_check(check: &HashCheck, out: &mut dyn Write) -> io::Result<()> {
    match &check.first_mismatch {
        None => writeln!(
            out,
            "your h32 agrees with the pinned hash on all {} strings checked",
            check.checked
        ),
        Some(m) => writeln!(
            out,
            "{BAD}your h32 differs from the pinned hash{BAD:#}: h32({}) is {}, yours gave {}",
            visible_str(&m.text),
            m.pinned,
            m.yours
        ),
    }
}

/// A JSON value with invisible characters made visible.
fn visible_json(value: &Value) -> String {
    match value {
        Value::String(s) => visible_str(s),
        other => other.to_string(),
    }
}

/// A quoted string with control, format and other invisible characters
/// written as `\u{...}` so that two different strings never look alike.
pub fn visible_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || c.is_whitespace() && c != ' '
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{ad}') =>
            {
                out.push_str(&format!("\\u{{{:04x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// How many terminal columns `s` takes (wide CJK characters take two).
fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` padded with spaces to `width` columns.
fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

/// The first `n` items, then how many more.
fn abbreviate(items: &[String], n: usize) -> String {
    let head = items.iter().take(n).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > n {
        format!("{head} and {} more", items.len() - n)
    } else {
        head
    }
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

fn millis(ms: u64) -> String {
    format!("{ms} ms")
}

/// A score for people: whole numbers bare, others to two decimals.
pub(crate) fn number(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.2}")
    }
}
