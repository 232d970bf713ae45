//! The page's charts, drawn by the grader as inline SVG: the class's score
//! histogram and a ring's load against the fair share. Readable without
//! colour: bars are filled with patterns (hatched for the expected or
//! counted value, dotted for the submission's), every bar carries its
//! value as text and a `<title>`, and every chart is an image with a
//! title and a description for screen readers.

use super::esc;
use crate::class::Bin;
use crate::text::visible_str;
use std::fmt::Write;

/// The fill patterns every chart uses, defined once for the page.
pub(super) const PATTERNS: &str = concat!(
    "<svg width=\"0\" height=\"0\" aria-hidden=\"true\" style=\"position:absolute\"><defs>",
    "<pattern id=\"pattern-hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\">",
    "<line class=\"pattern-line\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke-width=\"2.5\"/></pattern>",
    "<pattern id=\"pattern-dots\" width=\"5\" height=\"5\" patternUnits=\"userSpaceOnUse\">",
    "<circle class=\"pattern-dot\" cx=\"2.5\" cy=\"2.5\" r=\"1.3\"/></pattern>",
    "</defs></svg>\n"
);

/// The style of a chart outside the page: black on white.
const STANDALONE_STYLE: &str = "svg { font: 12px sans-serif; } text { fill: #000; } .fair { stroke: #000; stroke-dasharray: 6 4; } .bar { stroke: #000; } .bar.expected { fill: url(#pattern-hatch); } .bar.yours { fill: url(#pattern-dots); } .pattern-line { stroke: #000; } .pattern-dot { fill: #000; }";

/// `chart` (an `<svg>` element of the page) as an SVG document of its own,
/// for an image file or a data URL: its namespace, the patterns and the
/// style it needs inside it, on a white ground.
pub(crate) fn standalone(chart: &str) -> String {
    let defs = PATTERNS
        .find("<defs>")
        .zip(PATTERNS.find("</defs>"))
        .map_or("", |(from, to)| &PATTERNS[from..to + "</defs>".len()]);
    let Some((open, rest)) = chart.strip_prefix("<svg ").and_then(|c| c.split_once('>')) else {
        return chart.to_owned();
    };
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" {open}>{defs}<style>{STANDALONE_STYLE}</style><rect width=\"100%\" height=\"100%\" fill=\"#fff\"/>{rest}"
    )
}

/// The score histogram: a bar per bin, its count above it.
pub(super) fn histogram(bins: &[Bin], scored: usize) -> String {
    let (left, step, bar, base, tall) = (36.0, 46.0, 34.0, 170.0, 140.0);
    let width = left + step * bins.len() as f64 + 8.0;
    let most = bins
        .iter()
        .map(|b| b.students.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let described: Vec<String> = bins
        .iter()
        .map(|b| format!("{} {}", b.label(), b.students.len()))
        .collect();
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg class=\"chart histogram\" role=\"img\" viewBox=\"0 0 {width} 210\" width=\"{width}\" height=\"210\" aria-labelledby=\"histogram-title histogram-desc\">"
    );
    let _ = writeln!(
        svg,
        "<title id=\"histogram-title\">Scores of {}: students by share of the points</title>",
        grading::counted(scored, "scored submission")
    );
    let _ = writeln!(
        svg,
        "<desc id=\"histogram-desc\">{}</desc>",
        esc(&described.join(", "))
    );
    let _ = writeln!(
        svg,
        "<line class=\"axis\" x1=\"{left}\" y1=\"{base}\" x2=\"{}\" y2=\"{base}\"/>",
        width - 4.0
    );
    let _ = writeln!(
        svg,
        "<text x=\"4\" y=\"20\" font-size=\"11\">students</text>"
    );
    for (i, b) in bins.iter().enumerate() {
        let count = b.students.len();
        let h = tall * count as f64 / most as f64;
        let x = left + step * i as f64 + (step - bar) / 2.0;
        let _ = writeln!(
            svg,
            "<g data-bin=\"{}\" data-count=\"{count}\"><title>{}: {}</title><rect class=\"bar count\" x=\"{x}\" y=\"{:.1}\" width=\"{bar}\" height=\"{h:.1}\"/><text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-weight=\"700\">{count}</text><text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" font-size=\"10\">{}</text></g>",
            b.from,
            b.label(),
            grading::counted(count, "student"),
            base - h,
            x + bar / 2.0,
            base - h - 4.0,
            x + bar / 2.0,
            base + 16.0,
            b.label()
        );
    }
    let _ = writeln!(
        svg,
        "<text x=\"{:.1}\" y=\"204\" text-anchor=\"middle\" font-size=\"11\">share of the points</text>",
        width / 2.0
    );
    svg.push_str("</svg>");
    svg
}

/// A share of `keys` as a percentage with one decimal.
fn percent(count: u64, keys: u64) -> String {
    if keys == 0 {
        return "0%".to_owned();
    }
    format!("{:.1}%", count as f64 * 100.0 / keys as f64)
}

/// How many nodes a load chart draws at most (the rest are counted).
const MAX_NODES: usize = 40;

/// `load(keys)` at operation `op`: each node's share of the keys, the
/// expected one hatched and the submission's dotted, against the fair
/// share (the keys split evenly over the expected answer's nodes).
/// `yours` is the submission's answer when it is a load answer;
/// `answered` says whether it gave one at all.
pub(super) fn load_chart(
    id: &str,
    op: usize,
    keys: u64,
    expected: &[(String, u64)],
    yours: Option<&[(String, u64)]>,
    answered: bool,
) -> String {
    // Every node of either answer, the expected ones first.
    let mut nodes: Vec<&str> = expected.iter().map(|(n, _)| n.as_str()).collect();
    for (n, _) in yours.unwrap_or(&[]) {
        if !nodes.contains(&n.as_str()) {
            nodes.push(n);
        }
    }
    let hidden = nodes.len().saturating_sub(MAX_NODES);
    nodes.truncate(MAX_NODES);
    let count_in = |answer: &[(String, u64)], node: &str| {
        answer.iter().find(|(n, _)| n == node).map(|(_, c)| *c)
    };
    let fair = if expected.is_empty() {
        0.0
    } else {
        1.0 / expected.len() as f64
    };
    let share = |c: u64| {
        if keys == 0 {
            0.0
        } else {
            c as f64 / keys as f64
        }
    };
    let most = nodes
        .iter()
        .flat_map(|n| {
            [count_in(expected, n), yours.and_then(|y| count_in(y, n))]
                .into_iter()
                .flatten()
        })
        .map(share)
        .fold(fair, f64::max)
        .max(f64::MIN_POSITIVE);
    let (label_w, bars_w, value_w, row_h, top) = (130.0, 280.0, 110.0, 30.0, 44.0);
    let width = label_w + bars_w + value_w;
    let height = top + row_h * nodes.len() as f64 + 34.0;
    let scale = |s: f64| bars_w * s / most;
    let your_state = match (yours, answered) {
        (Some(_), _) => "yours dotted",
        (None, true) => "your answer is not a list of [node, count] pairs",
        (None, false) => "your code gave no answer",
    };
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        "<svg class=\"chart load\" role=\"img\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" aria-labelledby=\"{id}-title {id}-desc\">"
    );
    let _ = writeln!(
        svg,
        "<title id=\"{id}-title\">load({keys}) at operation {op}: each node's share of the keys against the fair share</title>"
    );
    let described: Vec<String> = nodes
        .iter()
        .map(|n| {
            let e = count_in(expected, n).map_or("none".to_owned(), |c| percent(c, keys));
            let y = yours
                .and_then(|y| count_in(y, n))
                .map_or("none".to_owned(), |c| percent(c, keys));
            format!("{} expected {e}, yours {y}", visible_str(n))
        })
        .collect();
    let _ = writeln!(
        svg,
        "<desc id=\"{id}-desc\">fair share {}; {}</desc>",
        percent_f(fair),
        esc(&described.join("; "))
    );
    let _ = writeln!(
        svg,
        "<text x=\"0\" y=\"14\" font-weight=\"700\">load({keys}) at operation {op}</text>"
    );
    let _ = writeln!(
        svg,
        "<text x=\"0\" y=\"30\" font-size=\"11\">expected hatched, {}</text>",
        esc(your_state)
    );
    let fair_x = label_w + scale(fair);
    for (i, node) in nodes.iter().enumerate() {
        let y = top + row_h * i as f64;
        let _ = writeln!(
            svg,
            "<text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"end\" font-family=\"monospace\">{}</text>",
            label_w - 8.0,
            y + 17.0,
            esc(&clip(&visible_str(node), 16))
        );
        let bars = [
            ("expected", count_in(expected, node), 2.0),
            ("yours", yours.and_then(|y| count_in(y, node)), 14.0),
        ];
        for (side, count, dy) in bars {
            if side == "yours" && yours.is_none() {
                continue;
            }
            let c = count.unwrap_or(0);
            let w = scale(share(c));
            let value = match count {
                Some(c) => format!("{} ({c})", percent(c, keys)),
                None => "absent".to_owned(),
            };
            let _ = writeln!(
                svg,
                "<g><title>{}: {side} {value}</title><rect class=\"bar {side}\" x=\"{label_w}\" y=\"{:.1}\" width=\"{w:.1}\" height=\"11\"/><text x=\"{:.1}\" y=\"{:.1}\" font-size=\"10\">{} {value}</text></g>",
                esc(&visible_str(node)),
                y + dy,
                label_w + w + 4.0,
                y + dy + 9.5,
                if side == "expected" { "E" } else { "Y" }
            );
        }
    }
    let bottom = top + row_h * nodes.len() as f64;
    let _ = writeln!(
        svg,
        "<line class=\"fair\" x1=\"{fair_x:.1}\" y1=\"{:.1}\" x2=\"{fair_x:.1}\" y2=\"{:.1}\"/><text x=\"{fair_x:.1}\" y=\"{:.1}\" text-anchor=\"middle\" font-size=\"11\">fair share {}</text>",
        top - 4.0,
        bottom,
        bottom + 14.0,
        percent_f(fair)
    );
    if hidden > 0 {
        let _ = writeln!(
            svg,
            "<text x=\"0\" y=\"{:.1}\" font-size=\"11\">and {} more not drawn</text>",
            bottom + 28.0,
            grading::counted(hidden, "node")
        );
    }
    svg.push_str("</svg>");
    svg
}

fn percent_f(share: f64) -> String {
    format!("{:.1}%", share * 100.0)
}

/// At most `n` characters of `s`, an ellipsis for the rest.
fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(n - 1).collect::<String>())
    }
}
