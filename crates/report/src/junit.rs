//! JUnit XML, valid against the Jenkins schema (`junit-10.xsd`): a suite per
//! submission (named for the student, its path a property), a case per test, `time` always set, a one-line `message` and
//! the explanation in the body. Exploring (`--explore`) adds no case: its
//! line is the suite's `explore` property, the whole of it the suite's
//! `<system-out>`. Written by hand rather than with a JUnit
//! crate so that every element and attribute is one the schema allows.

use super::{Report, TestReport};
use crate::contract::Verdict;
use std::io::{self, Write};

/// Writes `report` as JUnit XML.
pub fn render_junit(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let count = |f: &dyn Fn(&TestReport) -> bool| -> usize {
        report
            .submissions
            .iter()
            .flat_map(|s| &s.tests)
            .filter(|t| f(t))
            .count()
    };
    let total_ms: u64 = report
        .submissions
        .iter()
        .flat_map(|s| &s.tests)
        .map(|t| t.time_ms)
        .sum();
    writeln!(out, r#"<?xml version="1.0" encoding="UTF-8"?>"#)?;
    writeln!(
        out,
        r#"<testsuites name="{}" tests="{}" failures="{}" errors="{}" time="{}">"#,
        attr(&report.challenge),
        count(&|_| true),
        count(&|t| is_failure(t.verdict)),
        count(&|t| is_error(t.verdict)),
        seconds(total_ms)
    )?;
    for s in &report.submissions {
        let failures = s.tests.iter().filter(|t| is_failure(t.verdict)).count();
        let errors = s.tests.iter().filter(|t| is_error(t.verdict)).count();
        let ms: u64 = s.tests.iter().map(|t| t.time_ms).sum();
        writeln!(
            out,
            r#"  <testsuite name="{}" tests="{}" failures="{failures}" errors="{errors}" skipped="0" time="{}">"#,
            attr(&super::text::visible(&s.name)),
            s.tests.len(),
            seconds(ms)
        )?;
        writeln!(out, "    <properties>")?;
        for (name, value) in [
            ("path", super::text::visible(&s.path)),
            ("verdict", s.verdict.to_string()),
            // A grader-fault has no score: its properties are empty.
            (
                "score",
                s.points.score().map(|x| x.to_string()).unwrap_or_default(),
            ),
            ("max_score", s.points.max_score().to_string()),
            (
                "points_earned",
                s.points.earned.map(|x| x.to_string()).unwrap_or_default(),
            ),
            ("points_total", s.points.total.to_string()),
            ("points_denominator", s.points.denominator.to_string()),
            ("language", format!("{:?}", s.language).to_lowercase()),
            ("sandbox", report.sandbox.describe()),
            (
                "challenges",
                report
                    .challenges
                    .as_ref()
                    .map_or_else(String::new, |c| c.label()),
            ),
        ]
        .into_iter()
        // Exploring is no test: a consumer that counts testcases counts
        // what it always did, and the line is a property of the suite.
        .chain(
            s.explore
                .as_ref()
                .map(|e| ("explore", super::text::explore_line(e))),
        ) {
            writeln!(
                out,
                r#"      <property name="{name}" value="{}"/>"#,
                attr(&value)
            )?;
        }
        writeln!(out, "    </properties>")?;
        for t in &s.tests {
            write!(
                out,
                r#"    <testcase name="{}" classname="{}" time="{}""#,
                attr(&t.id().to_string()),
                attr(&super::text::visible(&format!("{}.{}", s.name, t.group))),
                seconds(t.time_ms)
            )?;
            if t.verdict == Verdict::Accepted {
                writeln!(out, "/>")?;
                continue;
            }
            writeln!(out, ">")?;
            let element = if is_error(t.verdict) {
                "error"
            } else {
                "failure"
            };
            writeln!(
                out,
                r#"      <{element} type="{}" message="{}">{}</{element}>"#,
                t.verdict,
                attr(&one_line(&t.message, 500)),
                text(&super::failing::failure_text(t))
            )?;
            if let Some(c) = &t.captured {
                if !c.stdout.is_empty() {
                    writeln!(
                        out,
                        "      <system-out>{}</system-out>",
                        text(&shown(&c.stdout))
                    )?;
                }
                if !c.stderr.is_empty() {
                    writeln!(
                        out,
                        "      <system-err>{}</system-err>",
                        text(&shown(&c.stderr))
                    )?;
                }
            }
            writeln!(out, "    </testcase>")?;
        }
        // The whole of what exploring found (the case, its first wrong
        // answer, the code that fails) in the suite's own output.
        if let Some(e) = &s.explore {
            writeln!(
                out,
                "    <system-out>{}</system-out>",
                text(&super::text::explore_lines(e).join("\n"))
            )?;
        }
        writeln!(out, "  </testsuite>")?;
    }
    writeln!(out, "</testsuites>")
}

/// A learner's code that broke (raised, crashed, did not compile, spoke
/// nonsense), or a grader that did, is an error; a wrong or over-limit
/// answer is a failure.
fn is_error(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::RuntimeError
            | Verdict::CompileError
            | Verdict::ProtocolError
            | Verdict::GraderFault
    )
}

fn is_failure(v: Verdict) -> bool {
    v != Verdict::Accepted && !is_error(v)
}

fn seconds(ms: u64) -> String {
    format!("{}.{:03}", ms / 1000, ms % 1000)
}

/// Text XML 1.0 can carry: the characters it forbids (most C0 controls,
/// lone surrogates cannot occur in a `str`, U+FFFE and U+FFFF) are dropped.
fn xml_chars(s: &str) -> impl Iterator<Item = char> + '_ {
    s.chars().filter(|&c| {
        matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
    })
}

/// Element text: markup escaped, and the `[` of a `##[` (GitHub's legacy
/// command form, read anywhere in a log line) as a character reference.
fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in xml_chars(s) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '[' if out.ends_with("##") => out.push_str("&#91;"),
            c => out.push(c),
        }
    }
    out
}

fn attr(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in xml_chars(s) {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\n' => out.push_str("&#10;"),
            '\r' => out.push_str("&#13;"),
            '\t' => out.push_str("&#9;"),
            '[' if out.ends_with("##") => out.push_str("&#91;"),
            c => out.push(c),
        }
    }
    out
}

/// The first line of `s` as every report shows learner text
/// ([`super::text::visible`]), at most `max` characters.
pub(crate) fn one_line(s: &str, max: usize) -> String {
    let line = super::text::visible(s.lines().next().unwrap_or(""));
    if line.chars().count() > max {
        format!("{}...", line.chars().take(max).collect::<String>())
    } else {
        line
    }
}

/// Captured output as every report shows it, line by line.
fn shown(s: &str) -> String {
    super::text::visible_lines(s).collect::<Vec<_>>().join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forbidden_characters_are_dropped_and_markup_escaped() {
        assert_eq!(text("a\u{0}b\u{1b}c\u{FFFE}d\u{FFFF}e"), "abcde");
        assert_eq!(text("<x>&]]>"), "&lt;x&gt;&amp;]]&gt;");
        assert_eq!(attr("say \"hi\"\nnow"), "say &quot;hi&quot;&#10;now");
        assert_eq!(text("日本 🙂"), "日本 🙂");
    }

    #[test]
    fn exploring_is_a_property_and_the_suites_output_never_a_case() {
        use crate::sample::{accepted, explored, written};
        let plain = written(&accepted(), render_junit);
        for found in [true, false] {
            let xml = written(&explored(found), render_junit);
            let line = crate::text::explore_line(&crate::sample::exploration(found));
            let property = format!(
                r#"      <property name="explore" value="{}"/>"#,
                attr(&line)
            );
            assert!(xml.contains(&property), "{xml}");
            let start = xml.find("    <system-out>").expect("the suite's output");
            let end = xml[start..].find("</system-out>\n").unwrap() + start + 14;
            let output = &xml[start..end];
            if found {
                assert!(output.contains("passes the suite; fails this generated case"));
                assert!(
                    output.contains("case: [[[\"a\",\"b\",\"c\"]],[[\"route\",\"k\"],[\"route\",\" &lt;k&gt;&amp;\"]]]"),
                    "{output}"
                );
                assert!(output.contains("  | assert r.route("), "{output}");
            } else {
                assert!(output.contains("every one answered as the reference does"));
            }
            // Without these two, every byte is the unexplored report's:
            // the same cases, counts and score.
            let rest = xml
                .replace(&format!("{property}\n"), "")
                .replace(output, "");
            assert_eq!(rest, plain);
        }
    }
}
