//! One failing test, as the human report explains it (failing.rs
//! and the same data): the first wrong answer, the traceback, the diff
//! around it, the pinned scores, rankings or ring points that decide the
//! expected answer, a chart of every `load` in the window, and what the
//! code printed.

use super::{esc, svg};
use crate::TestReport;
use crate::contract::{
    Audience, ExpectedFrom, ExplanationReport, RankedRow, RingReport, ScoreReport, ShownPoint,
    TopReport, Visibility,
};
use crate::failing::{
    RING_EMPTY, points_why, ring_belongs, scores_rule, scores_why, top_why, window_diff,
};
use crate::text::{h32_value, number, visible_json, visible_lines, visible_str};
use serde_json::Value;
use std::fmt::{Result, Write};

pub(super) fn write_failure(
    audience: Audience,
    t: &TestReport,
    id: &str,
    page: &mut String,
) -> Result {
    let lines = |text: &str| visible_lines(text).map(|l| esc(&l)).collect::<Vec<_>>();
    // A learner's report holds no hidden case's data already; the page
    // shows none even of a report that would.
    if audience == Audience::Learner && t.visibility == Visibility::Hidden {
        return writeln!(
            page,
            "<p>{}</p><p class=\"dim\">(a hidden test: its details are not shown)</p>",
            lines(&t.message).join("<br>")
        );
    }
    if t.expected_from == ExpectedFrom::Reference {
        writeln!(
            page,
            "<p class=\"dim\">(this case has no expected file: the reference's output is expected)</p>"
        )?;
    }
    match &t.divergence {
        Some(d) => {
            writeln!(
                page,
                "<p>first wrong answer at operation {}: <code>{}</code></p>",
                d.op_index,
                esc(&d.op.to_string())
            )?;
            writeln!(page, "<table class=\"answers\"><tbody>")?;
            writeln!(
                page,
                "<tr><th>expected</th><td class=\"mono\">{}</td></tr>",
                esc(&visible_json(&d.expected))
            )?;
            writeln!(
                page,
                "<tr><th>actual</th><td class=\"mono\">{}</td></tr>",
                if d.missing {
                    "(no answer)".to_owned()
                } else {
                    esc(&visible_json(&d.actual))
                }
            )?;
            writeln!(page, "</tbody></table>")?;
            if d.differing_ops > 1 {
                writeln!(
                    page,
                    "<p>{} operations differ from here on</p>",
                    d.differing_ops
                )?;
            }
            if t.error.is_some() || d.replayed_ops.is_some() {
                writeln!(page, "<p>{}</p>", lines(&t.message).join("<br>"))?;
            }
        }
        None => writeln!(page, "<p>{}</p>", lines(&t.message).join("<br>"))?,
    }
    if let Some(e) = &t.error
        && !e.traceback.is_empty()
    {
        writeln!(page, "<p class=\"dim\">traceback (your files only):</p>")?;
        writeln!(page, "<pre>{}</pre>", lines(&e.traceback).join("\n"))?;
    }
    if let Some(w) = &t.window {
        writeln!(
            page,
            "<p class=\"dim\">diff around it (<span class=\"mono\">-</span> expected, <span class=\"mono\">+</span> actual):</p>"
        )?;
        writeln!(page, "<pre class=\"diff\">")?;
        for group in window_diff(w) {
            for line in &group {
                let class = match line.tag {
                    similar::ChangeTag::Delete => "del",
                    similar::ChangeTag::Insert => "ins",
                    similar::ChangeTag::Equal => "same",
                };
                let tag = if class == "del" { "del" } else { "ins" };
                write!(page, "<span class=\"{class}\">{}", line.sign())?;
                for (emphasized, text) in &line.parts {
                    if *emphasized && class != "same" {
                        write!(page, "<{tag}>{}</{tag}>", esc(text))?;
                    } else {
                        page.push_str(&esc(text));
                    }
                }
                writeln!(page, "</span>")?;
            }
        }
        writeln!(page, "</pre>")?;
        write_loads(w, id, page)?;
    }
    match &t.explanation {
        Some(ExplanationReport::Scores(s)) => {
            write_scores(s, t.divergence.as_ref().map(|d| &d.actual), page)?
        }
        Some(ExplanationReport::Top(top)) => write_top(top, page)?,
        Some(ExplanationReport::Ring(r)) => write_ring(r, page)?,
        Some(ExplanationReport::Points(p)) => writeln!(page, "<p>{}</p>", esc(&points_why(p)))?,
        None => {}
    }
    if let Some(c) = &t.captured {
        for (name, text) in [("stdout", &c.stdout), ("stderr", &c.stderr)] {
            if !text.is_empty() {
                writeln!(page, "<p class=\"dim\">captured {name}:</p>")?;
                writeln!(
                    page,
                    "<pre class=\"captured\">{}</pre>",
                    lines(text).join("\n")
                )?;
            }
        }
        if c.dropped_bytes > 0 {
            writeln!(
                page,
                "<p class=\"dim\">({} more bytes of output not kept)</p>",
                c.dropped_bytes
            )?;
        }
    }
    Ok(())
}

/// Every `load(n)` of the window with a well-formed expected answer,
/// charted against the fair share, the submission's answer beside it.
fn write_loads(w: &crate::Window, id: &str, page: &mut String) -> Result {
    let charts: Vec<String> = load_charts(w, id).into_iter().map(|c| c.svg).collect();
    if !charts.is_empty() {
        writeln!(page, "<div class=\"charts\">{}</div>", charts.join("\n"))?;
    }
    Ok(())
}

/// A chart of one `load(keys)` of a window.
pub(crate) struct LoadChart {
    /// The operation's index in the session.
    pub op: usize,
    /// The keys it looks up.
    pub keys: u64,
    /// The chart, an `<svg>` element for the page.
    pub svg: String,
}

/// The charts of every `load(n)` of the window with a well-formed
/// expected answer, their ids made from `id`.
pub(crate) fn load_charts(w: &crate::Window, id: &str) -> Vec<LoadChart> {
    let mut charts = Vec::new();
    for (i, op) in w.ops.iter().enumerate() {
        let Some(keys) = load_keys(op) else {
            continue;
        };
        let Some(expected) = w.expected.get(i).and_then(load_answer) else {
            continue;
        };
        let yours = w.actual.get(i).and_then(|a| a.as_ref());
        charts.push(LoadChart {
            op: w.first_op + i,
            keys,
            svg: svg::load_chart(
                &format!("{id}-load-{}", w.first_op + i),
                w.first_op + i,
                keys,
                &expected,
                yours.and_then(load_answer).as_deref(),
                yours.is_some(),
            ),
        });
    }
    charts
}

/// The number of keys a `["load", n]` operation looks up.
fn load_keys(op: &Value) -> Option<u64> {
    match op.as_array()?.as_slice() {
        [name, n] if name == "load" => n.as_u64(),
        _ => None,
    }
}

/// A `load` answer, `[[node, count], ...]`, as node names (learner text
/// in the submission's answer) and counts; `None` when it is not one.
fn load_answer(answer: &Value) -> Option<Vec<(String, u64)>> {
    answer
        .as_array()?
        .iter()
        .map(|pair| match pair.as_array()?.as_slice() {
            [Value::String(node), count] => Some((node.clone(), count.as_u64()?)),
            _ => None,
        })
        .collect()
}

/// A row's cells after the node: h32, the weighted steps where there are
/// some, the submission's own h32 where it gave one, marked when it
/// differs.
fn score_cells(r: &RankedRow, weighted: bool, yours: bool, places: [usize; 3]) -> String {
    let [u, ln, score] = places;
    let mut cells = format!("<td class=\"n\">{}</td>", r.h32);
    if weighted {
        match r.weighted {
            Some(w) => cells.push_str(&format!(
                "<td class=\"n\">{}</td><td class=\"n\">{:.u$}</td><td class=\"n\">{:.ln$}</td><td class=\"n\">{:.score$}</td>",
                number(w.weight),
                w.u,
                w.neg_ln_u,
                w.score
            )),
            None => cells.push_str("<td></td><td></td><td></td><td></td>"),
        }
    }
    if yours {
        cells.push_str(&yours_cell(&r.yours, r.h32));
    }
    cells
}

/// The submission's value beside a pinned one: marked `≠` and in bold
/// when they differ, so that it shows without colour.
fn yours_cell(yours: &Option<Value>, pinned: u32) -> String {
    match yours {
        Some(v) if v.as_u64() == Some(u64::from(pinned)) => {
            format!("<td class=\"n\">{}</td>", esc(&h32_value(v)))
        }
        Some(v) => format!(
            "<td class=\"n bad\"><strong>≠ {}</strong></td>",
            esc(&h32_value(v))
        ),
        None => "<td></td>".to_owned(),
    }
}

fn score_header(weighted: bool, yours: bool) -> String {
    let mut s = "<th class=\"n\">h32</th>".to_owned();
    if weighted {
        s.push_str("<th class=\"n\">weight</th><th class=\"n\">U</th><th class=\"n\">-ln(U)</th><th class=\"n\">score</th>");
    }
    if yours {
        s.push_str("<th class=\"n\">your h32</th>");
    }
    s
}

fn write_scores(s: &ScoreReport, actual: Option<&Value>, page: &mut String) -> Result {
    writeln!(page, "<p>{}</p>", esc(&scores_why(s)))?;
    let weighted = s.rows.iter().any(|r| r.weighted.is_some());
    let yours = s.rows.iter().any(|r| r.yours.is_some());
    let places = crate::failing::weighted_places(s.rows.iter());
    writeln!(
        page,
        "<table class=\"scores\"><thead><tr><th class=\"n\">rank</th><th>node</th>{}<th>text hashed</th><th></th></tr></thead><tbody>",
        score_header(weighted, yours)
    )?;
    let mut last_rank = 0;
    for r in &s.rows {
        if r.rank > last_rank + 1 {
            writeln!(page, "<tr><td class=\"n dim\">…</td></tr>")?;
        }
        last_rank = r.rank;
        let mut notes = Vec::new();
        if s.winner.as_deref() == Some(r.node.as_str()) {
            notes.push("expected");
        }
        if actual.and_then(Value::as_str) == Some(r.node.as_str()) {
            notes.push("your answer");
        }
        writeln!(
            page,
            "<tr{}><td class=\"n\">{}</td><td class=\"mono\">{}</td>{}<td class=\"mono\">{}</td><td class=\"note\">{}</td></tr>",
            if notes.is_empty() {
                ""
            } else {
                " class=\"mark\""
            },
            r.rank,
            esc(&visible_str(&r.node)),
            score_cells(r, weighted, yours, places),
            esc(&visible_str(&r.hashed)),
            if notes.is_empty() {
                String::new()
            } else {
                format!("← {}", notes.join(", "))
            }
        )?;
    }
    writeln!(page, "</tbody></table>")?;
    if s.total_nodes > s.rows.len() {
        writeln!(
            page,
            "<p class=\"dim\">({} nodes in all; the first {} by score are shown)</p>",
            s.total_nodes,
            grading::MAX_ROWS_SHOWN
        )?;
    }
    if let Some(rule) = scores_rule(s) {
        writeln!(page, "<p>{}</p>", esc(&rule))?;
    }
    Ok(())
}

/// The two rankings side by side, position by position; a position where
/// they differ is marked `≠`.
fn write_top(t: &TopReport, page: &mut String) -> Result {
    writeln!(page, "<p>{}</p>", esc(&top_why(t)))?;
    let rows = t
        .lines
        .iter()
        .flat_map(|l| l.expected.iter().chain(l.yours_row.iter()));
    let weighted = rows.clone().any(|r| r.weighted.is_some());
    let yours = rows.clone().any(|r| r.yours.is_some());
    let places = crate::failing::weighted_places(rows.clone());
    let ranked_by = if weighted { "score" } else { "h32" };
    let columns = 2 + usize::from(yours) + if weighted { 4 } else { 0 };
    writeln!(
        page,
        "<table class=\"top\"><thead><tr><th></th><th colspan=\"{columns}\">expected</th><th colspan=\"3\">yours</th></tr><tr><th class=\"n\">pos</th><th>node</th>{}<th></th><th>node</th><th class=\"n\">{ranked_by}</th></tr></thead><tbody>",
        score_header(weighted, yours)
    )?;
    if t.lines.first().is_some_and(|l| l.position > 0) {
        writeln!(page, "<tr><td class=\"n dim\">…</td></tr>")?;
    }
    for l in &t.lines {
        let (name, cells) = match &l.expected {
            Some(r) => (
                esc(&visible_str(&r.node)),
                score_cells(r, weighted, yours, places),
            ),
            None => ("(none)".to_owned(), "<td></td>".repeat(columns - 1)),
        };
        let (your_name, your_value) = match (&l.yours, &l.yours_row) {
            (Some(_), Some(r)) => (
                esc(&visible_str(&r.node)),
                match r.weighted {
                    Some(w) => format!("{:.*}", places[2], w.score),
                    None => r.h32.to_string(),
                },
            ),
            (Some(v), None) => (esc(&visible_json(v)), "not a node".to_owned()),
            (None, _) => ("(none)".to_owned(), String::new()),
        };
        let differs = l.expected.as_ref().map(|r| r.node.as_str())
            != l.yours.as_ref().and_then(Value::as_str);
        writeln!(
            page,
            "<tr{}><td class=\"n\">{}</td><td class=\"mono\">{name}</td>{cells}<td class=\"note\">{}</td><td class=\"mono\">{your_name}</td><td class=\"n\">{your_value}</td></tr>",
            if differs { " class=\"mark\"" } else { "" },
            l.position,
            if differs { "≠" } else { "=" }
        )?;
    }
    writeln!(page, "</tbody></table>")
}

/// The ring around the key: the points before its position, the key, then
/// the point it lands on (the expected node) and the next ones.
fn write_ring(r: &RingReport, page: &mut String) -> Result {
    write!(
        page,
        "<p>why: key <code>{}</code> sits at position h32 = {}",
        esc(&visible_str(&r.key)),
        r.position
    )?;
    if let Some(v) = &r.position_yours {
        let differs = v.as_u64() != Some(u64::from(r.position));
        write!(
            page,
            " (your h32: {}{})",
            if differs { "≠ " } else { "" },
            esc(&visible_json(v))
        )?;
    }
    writeln!(page, "{}</p>", esc(&ring_belongs(r)))?;
    if r.points == 0 {
        return writeln!(page, "<p>{RING_EMPTY}</p>");
    }
    let yours = r.before.iter().chain(&r.after).any(|p| p.yours.is_some());
    writeln!(
        page,
        "<table class=\"ring\"><thead><tr><th class=\"n\">index</th><th class=\"n\">position</th>{}<th>point</th><th></th></tr></thead><tbody>",
        if yours {
            "<th class=\"n\">your h32</th>"
        } else {
            ""
        }
    )?;
    let row = |p: &ShownPoint, note: &str, page: &mut String| {
        writeln!(
            page,
            "<tr{}><td class=\"n\">{}</td><td class=\"n\">{}</td>{}<td class=\"mono\">{}</td><td class=\"note\">{note}</td></tr>",
            if note.is_empty() {
                ""
            } else {
                " class=\"mark\""
            },
            p.index,
            p.position,
            if yours {
                yours_cell(&p.yours, p.position)
            } else {
                String::new()
            },
            esc(&visible_str(&p.hashed))
        )
    };
    for p in &r.before {
        row(p, "", page)?;
    }
    writeln!(
        page,
        "<tr class=\"mark\"><td></td><td class=\"n\"><strong>{}</strong></td>{}<td></td><td class=\"note\">← the key</td></tr>",
        r.position,
        if yours { "<td></td>" } else { "" }
    )?;
    for (i, p) in r.after.iter().enumerate() {
        let note = if i == 0 {
            format!("← expected: {}", esc(&visible_str(&p.node)))
        } else {
            String::new()
        };
        row(p, &note, page)?;
    }
    writeln!(page, "</tbody></table>")
}
