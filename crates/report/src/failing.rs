//! One failing test explained: what went wrong, the learner's traceback,
//! the diff around the first wrong answer, the table of pinned scores (or
//! rankings, ring points) that decide the expected answer, and what the
//! learner's code printed. The human report shows it styled; the other
//! formats take it as plain text from [`failure_text`].

use super::style::{BAD, DIM, HEAD, NEW, NEW_EMPH, OLD, OLD_EMPH};
use super::text::{
    abbreviate, display_width, h32_value, number, pad, visible, visible_json, visible_lines,
    visible_str,
};
use super::{SubmissionReport, TestReport, Window};
use crate::contract::{
    ExpectedFrom, ExplanationReport, PointsView, RankedRow, RingReport, ScoreReport, ShownPoint,
    TopReport, Verdict, WeightedScore, WinRule,
};
use serde_json::Value;
use std::io::{self, Write};

/// A failing test's explanation as plain text, for the other formats.
pub fn failure_text(t: &TestReport) -> String {
    let mut bytes = Vec::new();
    let _ = render_failure(t, &mut bytes);
    anstream::adapter::strip_str(&String::from_utf8_lossy(&bytes)).to_string()
}

/// The failing tests of `s` to explain, each with the other tests that
/// failed the same way: a failure that is the same in many tests (a module
/// that does not load) is explained once, with the other tests named.
pub fn failures_shown(s: &SubmissionReport) -> Vec<(&TestReport, Vec<String>)> {
    let mut shown: Vec<(&TestReport, Vec<String>)> = Vec::new();
    for t in s.tests.iter().filter(|t| t.verdict != Verdict::Accepted) {
        let same = shown.iter_mut().find(|(u, _)| {
            t.divergence.is_none()
                && u.divergence.is_none()
                && u.verdict == t.verdict
                && u.message == t.message
        });
        match same {
            Some((_, others)) => others.push(t.id().to_string()),
            None => shown.push((t, Vec::new())),
        }
    }
    shown
}

/// A failing test explained in full: [`render_failure_head`], then
/// [`render_failure_details`].
pub fn render_failure(t: &TestReport, out: &mut dyn Write) -> io::Result<()> {
    render_failure_head(t, out)?;
    render_failure_details(t, out)
}

/// What went wrong in a failing test: its name and verdict, the first wrong
/// answer (expected and actual) or the message, and the traceback.
pub fn render_failure_head(t: &TestReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(
        out,
        "{BAD}--- {}/{} ({}) ---{BAD:#}",
        visible(&t.group),
        visible(&t.name),
        t.verdict
    )?;
    if t.expected_from == ExpectedFrom::Reference {
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
            // A wrong answer that came before an exception, or before the
            // limit or crash that decided the verdict: the message names
            // both.
            if t.error.is_some() || d.replayed_ops.is_some() {
                for line in visible_lines(&t.message) {
                    writeln!(out, "  {line}")?;
                }
            }
        }
        None => {
            for line in visible_lines(&t.message) {
                writeln!(out, "{line}")?;
            }
        }
    }
    if let Some(e) = &t.error
        && !e.traceback.is_empty()
    {
        writeln!(out, "{DIM}traceback (your files only):{DIM:#}")?;
        for line in visible_lines(&e.traceback) {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}

/// What helps to see why, after [`render_failure_head`]: the diff around
/// the first wrong answer, the pinned scores (or rankings, ring points)
/// that decide the expected one, and what the learner's code printed.
pub fn render_failure_details(t: &TestReport, out: &mut dyn Write) -> io::Result<()> {
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
                for line in visible_lines(text) {
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
    writeln!(
        out,
        "{DIM}diff around it ({OLD}-expected{OLD:#}{DIM}, {NEW}+actual{NEW:#}{DIM}):{DIM:#}"
    )?;
    for group in window_diff(w) {
        for line in &group {
            let (plain, emph) = match line.tag {
                similar::ChangeTag::Delete => (OLD, OLD_EMPH),
                similar::ChangeTag::Insert => (NEW, NEW_EMPH),
                similar::ChangeTag::Equal => (DIM, DIM),
            };
            write!(out, "{plain}{}{plain:#}", line.sign())?;
            for (emphasized, text) in &line.parts {
                let style = if *emphasized { emph } else { plain };
                write!(out, "{style}{text}{style:#}")?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}

/// The diff of a window's expected answers against the submission's,
/// grouped with 3 lines of context: one line per operation,
/// `index op -> answer`, the answers shown as learner text is.
pub fn window_diff(w: &Window) -> Vec<Vec<grading::DiffLine>> {
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
    grading::line_diff(&expected, &actual, 3)
}

/// The submission's value beside a pinned one: plain when they agree.
/// Right-aligned to `width` columns before it is styled, so that the
/// style's escape sequences never count as columns.
/// The value is the submission's own (an h32 reply need not be a number),
/// so it is shown as every report shows learner text.
fn yours_cell(yours: &Option<Value>, pinned: u32, width: usize) -> String {
    let right = |v: &Value| {
        let shown = h32_value(v);
        format!(
            "{}{shown}",
            " ".repeat(width.saturating_sub(display_width(&shown)))
        )
    };
    match yours {
        Some(v) if v.as_u64() == Some(u64::from(pinned)) => right(v),
        Some(v) => format!("{BAD}{}{BAD:#}", right(v)),
        None => " ".repeat(width),
    }
}

/// The width of a column of the submission's h32 values: 12, or the
/// widest of `values`.
fn yours_width<'a>(values: impl Iterator<Item = &'a Value>) -> usize {
    values
        .map(|v| display_width(&h32_value(v)))
        .fold(12, usize::max)
}

/// The columns of a score row after the node: h32, the weighted steps
/// where there are some, the submission's h32 where it gave one.
struct ScoreColumns {
    weighted: bool,
    yours: bool,
    /// The width of the submission's h32 column: a value past 32 bits (a
    /// hash that lost its mask) is wider than the header.
    yours_width: usize,
    /// Decimals of U, -ln(U) and the score: enough to tell the rows
    /// apart ([`crate::text::decimals`]).
    places: [usize; 3],
}

impl ScoreColumns {
    fn of<'a>(rows: impl Iterator<Item = &'a RankedRow> + Clone) -> ScoreColumns {
        ScoreColumns {
            weighted: rows.clone().any(|r| r.weighted.is_some()),
            yours: rows.clone().any(|r| r.yours.is_some()),
            yours_width: yours_width(rows.clone().filter_map(|r| r.yours.as_ref())),
            places: weighted_places(rows),
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
            s.push_str(&format!("  {:>w$}", "your h32", w = self.yours_width));
        }
        s
    }

    fn cells(&self, r: &RankedRow) -> String {
        let mut s = format!("{:>10}", r.h32);
        if let (true, Some(w)) = (self.weighted, r.weighted) {
            let [u, ln, score] = self.places;
            s.push_str(&format!(
                "  {:>8}  {:>12.u$}  {:>8.ln$}  {:>12.score$}",
                number(w.weight),
                w.u,
                w.neg_ln_u,
                w.score
            ));
        }
        if self.yours {
            s.push_str(&format!(
                "  {}",
                yours_cell(&r.yours, r.h32, self.yours_width)
            ));
        }
        s
    }
}

/// The decimals of a weighted table's U, -ln(U) and score columns for
/// `rows`: 10, 5 and 6 at least, more where rows would look alike.
pub(crate) fn weighted_places<'a>(rows: impl Iterator<Item = &'a RankedRow>) -> [usize; 3] {
    let steps: Vec<_> = rows.filter_map(|r| r.weighted).collect();
    let column = |f: fn(&_) -> f64, least| {
        crate::text::decimals(&steps.iter().map(f).collect::<Vec<_>>(), least)
    };
    [
        column(|w: &WeightedScore| w.u, 10),
        column(|w: &WeightedScore| w.neg_ln_u, 5),
        column(|w: &WeightedScore| w.score, 6),
    ]
}

fn render_scores(s: &ScoreReport, actual: Option<&Value>, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", scores_why(s))?;
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
            grading::MAX_ROWS_SHOWN
        )?;
    }
    if let Some(rule) = scores_rule(s) {
        writeln!(out, "  {rule}")?;
    }
    Ok(())
}

/// What a score table shows, in one line.
pub fn scores_why(s: &ScoreReport) -> String {
    format!(
        "why: each node scores {} for key {}; the highest wins, ties go to the smaller name",
        s.formula,
        visible_str(&s.key)
    )
}

/// How the rule picks the winner from a score table's rows, if it has any.
pub fn scores_rule(s: &ScoreReport) -> Option<String> {
    match (s.rule, s.rows.as_slice()) {
        (WinRule::NoNodes, _) => Some("there are no nodes, so the answer is null".to_owned()),
        (WinRule::TieSmallerName, [first, ..]) => {
            let tied: Vec<String> = s
                .rows
                .iter()
                .filter(|r| r.h32 == first.h32 && r.weighted == first.weighted)
                .map(|r| visible_str(&r.node))
                .collect();
            Some(format!(
                "{} tie at {}; the smaller name, {}, wins",
                tied.join(" and "),
                first
                    .weighted
                    .map_or(first.h32.to_string(), |w| w.score.to_string()),
                visible_str(&first.node)
            ))
        }
        (_, [first, ..]) => Some(format!(
            "{} has the highest score",
            visible_str(&first.node)
        )),
        _ => None,
    }
}

/// What the two rankings of `top` show, in one line.
pub fn top_why(t: &TopReport) -> String {
    format!(
        "why: top({}, {}) lists the first min(n, {}) nodes by descending {}, ties by smaller name; the lists part at position {}",
        visible_str(&t.key),
        t.n,
        t.total_nodes,
        t.formula,
        t.first_difference
    )
}

fn render_top(t: &TopReport, out: &mut dyn Write) -> io::Result<()> {
    writeln!(out, "{}", top_why(t))?;
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
        Some(w) => format!("{:>12.*}", columns.places[2], w.score),
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
    writeln!(out, "{}", points_why(p))
}

/// Why a ring has the number of points it has, in one line.
pub fn points_why(p: &PointsView) -> String {
    let names: Vec<String> = p.nodes.iter().map(|n| visible_str(n)).collect();
    format!(
        "why: the ring has {} ({}) with k = {} points each: {} entries. Removing a node takes all k of its points away, and two points at one position both stay.",
        grading::counted(p.nodes.len(), "node"),
        abbreviate(&names, 8),
        p.k,
        p.points
    )
}

/// What the lookup of a ring's key lands on, after its position, for
/// every renderer: "; it belongs to the first of the ring's 6 points at
/// or after it".
pub fn ring_belongs(r: &RingReport) -> String {
    format!(
        "; it belongs to the first of the ring's {} points at or after it{}",
        r.points,
        if r.wrapped {
            ", and there is none, so the lookup wraps to the first point"
        } else {
            ""
        }
    )
}

/// Said of a ring with no point.
pub const RING_EMPTY: &str = "the ring is empty, so the answer is null";

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
            yours_cell(&Some(v.clone()), r.position, 0)
        )?;
    }
    writeln!(out, "{}", ring_belongs(r))?;
    if r.points == 0 {
        return writeln!(out, "  {RING_EMPTY}");
    }
    let yours = r.before.iter().chain(&r.after).any(|p| p.yours.is_some());
    let width = yours_width(
        r.before
            .iter()
            .chain(&r.after)
            .filter_map(|p| p.yours.as_ref()),
    );
    writeln!(
        out,
        "  {DIM}{:>6}  {:>10}{}  point{DIM:#}",
        "index",
        "position",
        if yours {
            format!("  {:>width$}", "your h32")
        } else {
            String::new()
        }
    )?;
    let line = |p: &ShownPoint, note: &str, out: &mut dyn Write| -> io::Result<()> {
        let mut cells = format!("{:>6}  {:>10}", p.index, p.position);
        if yours {
            cells.push_str(&format!("  {}", yours_cell(&p.yours, p.position, width)));
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
