//! The HTML report: one self-contained page (inline CSS, inline SVG
//! charts, a few lines of inline script for the copy buttons) that works
//! from `file://` and loads nothing: a Content-Security-Policy forbids
//! every request, so a mistake in escaping could not fetch anything
//! either. For a class it starts with an overview (verdicts, the scores'
//! histogram, the named mistakes, the tests most students fail); every
//! student then gets what the human report explains, from the same data,
//! with everything beyond the first failure folded in `<details>`.
//!
//! Everything the learner controls (names, paths, answers, messages,
//! printed output) is written as every report shows learner text
//! ([`super::text::visible`]) and then HTML-escaped; the grader's own
//! numbers are written on the elements that show them as `data-`
//! attributes too, and in the `summary` JSON block, so a script can read
//! them. The page depends only on the report: same report, same bytes.

mod class;
mod failing;
mod student;
mod svg;

pub(crate) use failing::load_charts;
pub(crate) use svg::standalone as standalone_svg;

use super::Report;
use super::contract::Audience;
use super::text::visible;
use std::fmt::Write as _;
use std::io::{self, Write};

/// Writes the report as one HTML page.
pub fn render_html(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut page = String::new();
    write_page(report, &mut page).map_err(io::Error::other)?;
    out.write_all(page.as_bytes())
}

/// The page's policy: nothing from the network or any file, no frames,
/// no forms; only the page's own inline style and script, and data: images.
const POLICY: &str = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

fn write_page(report: &Report, page: &mut String) -> std::fmt::Result {
    let title = if report.submissions.len() == 1 {
        format!("{} · {}", report.submissions[0].name, report.challenge)
    } else {
        format!(
            "{} · {}",
            grading::counted(report.submissions.len(), "submission"),
            report.challenge
        )
    };
    writeln!(page, "<!DOCTYPE html>")?;
    writeln!(page, "<html lang=\"en\">")?;
    writeln!(page, "<head>")?;
    writeln!(page, "<meta charset=\"utf-8\">")?;
    writeln!(
        page,
        "<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">"
    )?;
    writeln!(
        page,
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
    )?;
    writeln!(
        page,
        "<meta name=\"generator\" content=\"{}\">",
        esc(&report.grader)
    )?;
    // No favicon request: the browser would otherwise ask for one.
    writeln!(page, "<link rel=\"icon\" href=\"data:,\">")?;
    writeln!(page, "<title>{}</title>", esc(&title))?;
    writeln!(page, "<style>{STYLE}</style>")?;
    writeln!(page, "</head>")?;
    writeln!(page, "<body>")?;
    page.push_str(svg::PATTERNS);
    writeln!(page, "<header>")?;
    writeln!(
        page,
        "<h1>{} <span class=\"dim\">· tests from {}</span></h1>",
        esc(&report.challenge),
        esc(&visible(&report.tests_from()))
    )?;
    if let Some(source) = &report.challenges {
        writeln!(
            page,
            "<p class=\"dim\">challenges: {}</p>",
            esc(&visible(&source.label()))
        )?;
    }
    let sandboxed = report.sandbox.enabled && report.sandbox.missing.is_empty();
    writeln!(
        page,
        "<p class=\"{}\">sandbox: {}</p>",
        if sandboxed { "dim" } else { "warn" },
        esc(&report.sandbox.describe())
    )?;
    if let Some(limits) = &report.limits {
        writeln!(
            page,
            "<p class=\"dim\">limits: {}</p>",
            esc(&visible(&limits.describe()))
        )?;
        for lowered in &limits.lowered {
            writeln!(
                page,
                "<p class=\"warn\">limit lowered: {}</p>",
                esc(&visible(&lowered.describe()))
            )?;
        }
    }
    writeln!(
        page,
        "<p class=\"dim\">{}, graded {} for {}{}</p>",
        esc(&report.grader),
        utc(report.started_at_ms),
        match report.audience {
            Audience::Instructor => "the instructor (every test shown)",
            Audience::Learner => "the learner (hidden tests show their verdict only)",
        },
        report
            .shard
            .map(|s| format!(", shard {}/{}", s.index, s.count))
            .unwrap_or_default()
    )?;
    writeln!(page, "</header>")?;
    writeln!(page, "<main>")?;
    if report.submissions.len() > 1 {
        class::write_overview(report, page)?;
    }
    for (i, s) in report.submissions.iter().enumerate() {
        student::write_student(report, i, s, page)?;
    }
    writeln!(page, "</main>")?;
    writeln!(page, "<script>{SCRIPT}</script>")?;
    writeln!(page, "</body>")?;
    writeln!(page, "</html>")
}

/// `s` with every character HTML gives a meaning to escaped: safe as text
/// and inside a quoted attribute.
pub(crate) fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Learner text for the page: shown as every report shows it, escaped.
fn learner(s: &str) -> String {
    esc(&visible(s))
}

/// The id of a student's section, from their place in the report (a
/// name may hold anything; the anchor holds digits only).
fn student_id(i: usize) -> String {
    format!("student-{}", i + 1)
}

/// A time in milliseconds since the epoch, as `YYYY-MM-DD HH:MM UTC`.
fn utc(ms: u64) -> String {
    let t = super::text::Utc::of_secs(ms / 1000);
    format!(
        "{:04}-{:02}-{:02} {:02}:{:02} UTC",
        t.year, t.month, t.day, t.hour, t.minute
    )
}

/// The copy buttons: the clipboard where the page may use it, else the
/// text selected for the reader to copy. Nothing else runs.
const SCRIPT: &str = r#"
document.addEventListener("click", function (event) {
  var button = event.target.closest("button[data-copy]");
  if (!button) return;
  var source = document.getElementById(button.getAttribute("data-copy"));
  var status = button.parentNode.querySelector(".copy-status");
  var text = source.textContent;
  function select() {
    var range = document.createRange();
    range.selectNodeContents(source);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    status.textContent = copied ? "copied" : "selected: press Ctrl+C (or Cmd+C) to copy";
  }
  if (navigator.clipboard && window.isSecureContext) {
    navigator.clipboard.writeText(text).then(function () {
      status.textContent = "copied";
    }, select);
  } else {
    select();
  }
});
"#;

/// The page's look: system fonts, readable without colour (every state
/// is also a word or a sign), light and dark.
const STYLE: &str = r#"
:root { color-scheme: light dark; --fg: #1b1f24; --dim: #59636e; --bg: #fff; --panel: #f6f8fa; --line: #d1d9e0; --bad: #b3261e; --good: #1a7f37; --del: #ffebe9; --ins: #dafbe1; --mark: #fff8c5; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --dim: #9198a1; --bg: #0d1117; --panel: #151b23; --line: #3d444d; --bad: #ff7b72; --good: #3fb950; --del: #3c1618; --ins: #12261e; --mark: #3a3000; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 72rem; padding: 1rem 1.5rem 4rem; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--fg); background: var(--bg); }
h1 { font-size: 1.5rem; margin: .5rem 0; } h2 { font-size: 1.25rem; margin: 0 0 .5rem; } h3 { font-size: 1.05rem; margin: 1.25rem 0 .5rem; }
header p { margin: .25rem 0; }
.dim { color: var(--dim); } .warn, .bad { color: var(--bad); } .good { color: var(--good); }
section.student, section.overview { border-top: 2px solid var(--line); margin-top: 2rem; padding-top: 1rem; }
.verdict { white-space: nowrap; display: inline-block; border: 1px solid currentColor; border-radius: 3px; padding: 0 .4em; font-weight: 600; font-size: .9em; }
.verdict.accepted::before { content: "\2713  "; } .verdict.failed::before { content: "\2717  "; } .verdict.fault::before { content: "\26A0  "; }
.verdict.accepted { color: var(--good); } .verdict.failed, .verdict.fault { color: var(--bad); }
table { border-collapse: collapse; margin: .5rem 0; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--line); padding: .2rem .6rem; text-align: left; vertical-align: top; }
th { font-weight: 600; color: var(--dim); } td.n, th.n { text-align: right; white-space: nowrap; }
pre, code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
pre { background: var(--panel); border: 1px solid var(--line); border-radius: 4px; padding: .5rem .75rem; overflow-x: auto; white-space: pre; margin: .5rem 0; }
details { border: 1px solid var(--line); border-radius: 4px; padding: .25rem .75rem; margin: .5rem 0; }
details > summary { cursor: pointer; font-weight: 600; padding: .25rem 0; }
details[open] > summary { margin-bottom: .25rem; }
.diff .del { background: var(--del); } .diff .ins { background: var(--ins); }
.diff del, .diff ins { text-decoration: underline; font-weight: 700; }
tr.mark td { background: var(--mark); }
.note { font-weight: 600; }
.cards { display: flex; flex-wrap: wrap; gap: .5rem; padding: 0; list-style: none; }
.cards li { border: 1px solid var(--line); border-radius: 4px; padding: .4rem .8rem; min-width: 8rem; }
.cards .count { display: block; font-size: 1.5rem; font-weight: 700; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; }
svg.chart { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
svg.chart text { fill: var(--fg); } svg.chart .axis { stroke: var(--dim); } svg.chart .fair { stroke: var(--fg); stroke-dasharray: 6 4; }
svg.chart .bar { stroke: var(--fg); } svg.chart .bar.expected { fill: url(#pattern-hatch); } svg.chart .bar.yours { fill: url(#pattern-dots); } svg.chart .bar.count { fill: url(#pattern-hatch); }
.pattern-line { stroke: var(--fg); } .pattern-dot { fill: var(--fg); }
button.copy { font: inherit; font-size: .85em; padding: .1rem .6rem; cursor: pointer; }
.copy-status { margin-left: .5rem; color: var(--dim); }
a { color: inherit; }
@media print { details { border: none; } details > summary { list-style: none; } }
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_quotes_are_escaped() {
        assert_eq!(
            esc(r#"</script><img src=x onerror='a("b")'>&"#),
            "&lt;/script&gt;&lt;img src=x onerror=&#39;a(&quot;b&quot;)&#39;&gt;&amp;"
        );
        // Learner text keeps its notation for what cannot be seen, then
        // is escaped.
        assert_eq!(learner("<b>\u{202e}\n"), "&lt;b&gt;\\u{202e}\\n");
    }

    #[test]
    fn times_are_written_in_utc() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_767_225_600_000), "2026-01-01 00:00 UTC");
        assert_eq!(utc(951_782_400_000 + 3_723_000), "2000-02-29 01:02 UTC");
    }

    #[test]
    fn a_students_exploration_is_a_section_of_theirs_escaped() {
        use crate::sample::{accepted, explored, written};
        let plain = written(&accepted(), render_html);
        let page = written(&explored(true), render_html);
        let start = page.find("<div class=\"explore\"").expect("a section");
        let end = page[start..].find("</div>\n").unwrap() + start + 7;
        let section = &page[start..end];
        assert!(
            section.contains("<strong class=\"bad\">passes the suite; fails this generated case</strong> (case 7 of seed 7, shrunk; no verdict or score changes):"),
            "{section}"
        );
        assert!(
            section.contains("<code>[[[&quot;a&quot;,&quot;b&quot;,&quot;c&quot;]],[[&quot;route&quot;,&quot;k&quot;],[&quot;route&quot;,&quot; &lt;k&gt;&amp;&quot;]]]</code>"),
            "{section}"
        );
        assert!(
            section.contains("operation 1 [&quot;route&quot;"),
            "{section}"
        );
        assert!(
            section.contains("<pre id=\"student-1-explore-snippet\">from router import Router\n"),
            "{section}"
        );
        assert!(!section.contains("<k>"), "{section}");
        // Nothing else changes: the verdict, the score, the tests.
        assert_eq!(page.replace(section, ""), plain);

        let page = written(&explored(false), render_html);
        let start = page.find("<p class=\"explore\"").expect("a line");
        let end = page[start..].find("</p>\n").unwrap() + start + 5;
        let line = &page[start..end];
        assert!(
            line.contains("<strong class=\"good\">explored</strong>: 412 generated cases (seed 7, 10.0 s); every one answered as the reference does"),
            "{line}"
        );
        assert_eq!(page.replace(line, ""), plain);
    }

    #[test]
    fn the_class_names_the_accepted_students_a_generated_case_fails() {
        use crate::sample::{class, explored_class, written};
        let page = written(&explored_class(), render_html);
        assert!(
            page.contains("<p id=\"still-wrong\" data-count=\"1\"><strong class=\"bad\">passes the suite; fails a generated case</strong>: <a href=\"#student-1\">ada</a></p>"),
            "{page}"
        );
        assert!(page.contains("<th>generated cases</th>"));
        assert!(page.contains(
            "<td class=\"bad\" data-counterexample=\"true\">passes the suite; fails a generated case</td></tr>"
        ));
        assert!(page.contains("<td>agrees on 412 generated cases</td></tr>"));
        assert!(page.contains("\"fail_a_generated_case\":[\"ada\"]"));
        assert!(page.contains("\"students\":2"));
        // The verdicts' cards are the unexplored class's.
        let plain = written(&class(), render_html);
        let cards = |p: &str| {
            let start = p.find("<ul class=\"cards\" id=\"verdicts\">").unwrap();
            p[start..start + p[start..].find("</ul>").unwrap()].to_owned()
        };
        assert_eq!(cards(&page), cards(&plain));
        assert!(!plain.contains("generated case"));
    }
}
