//! Codio's partial points: the body of the request an assessment script
//! sends to `$CODIO_PARTIAL_POINTS_V2_URL`.
//!
//! Codio documents it (docs.codio.com, "Partial Points", "Autograding
//! enhancements for partial points"; "Assignment Level Scripts" for the
//! limit) as a POST (or GET) with the fields `points` (a percentage of the
//! points possible, 0 to 100), `feedback` (text, at most 1 MB: a larger
//! payload is refused, "Payload content length greater than maximum
//! allowed: 1048576") and `format` (`html`, `md` or `txt`), form-encoded
//! as `curl -d` sends them (`application/x-www-form-urlencoded`).
//!
//! `points` is the score's percentage rounded down, so that 100 means
//! every point was earned (a suite worth no points: 100 when every test
//! passed, else 0). The feedback is the learner's report as HTML, all of
//! it escaped inside one `<pre>`, so that nothing a learner's code printed
//! is ever markup; the whole body stays under [`LIMIT`] bytes as sent,
//! the report cut at a character with a note when it would not. A
//! submission the grader failed on has no `points` at all: the script
//! sends nothing for it, never a 0.

use super::{Report, Ungraded};
use std::io::{self, Write};

/// The most bytes a body holds, as sent: under Codio's 1,048,576 with
/// room to spare.
pub const LIMIT: usize = 1_000_000;

/// Writes the request body for the report's single submission.
pub fn render_codio(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let [submission] = report.submissions.as_slice() else {
        return Err(io::Error::other(format!(
            "the codio format describes one submission, and this report has {}; grade them one at a time",
            report.submissions.len()
        )));
    };
    let human = super::fit::learner_text(report)?;
    let points = &submission.points;
    let percent = points.earned.map(|earned| match points.total {
        0 if submission.verdict == super::contract::Verdict::Accepted => 100,
        0 => 0,
        total => (u128::from(earned) * 100 / u128::from(total)).min(100) as u64,
    });
    let human = match percent {
        Some(_) => human,
        None => format!("{NOT_GRADED}\n\n{human}"),
    };
    // What exploring found heads the feedback too (the report below has
    // it in full), where a cut for the limit cannot reach it; `points`
    // stays the suite's.
    let human = match &submission.explore {
        Some(e) => format!("{}\n\n{human}", super::text::explore_line(e)),
        None => human,
    };
    out.write_all(body(percent, &human).as_bytes())
}

/// What a learner reads of a grading the grader failed.
const NOT_GRADED: &str = "Not graded: the autograder could not grade this submission. This is not your code's fault, and no score was recorded. Tell your instructor.";

/// Writes the body for files that were not graded: no points for the
/// grader's own failure, 0 for a missing entry file (the learner's to
/// fix), with what to do.
pub fn render_codio_ungraded(ungraded: &Ungraded, out: &mut dyn Write) -> io::Result<()> {
    let (percent, text) = match ungraded {
        Ungraded::Grader(why) => (
            None,
            format!(
                "{NOT_GRADED} ({})",
                super::text::visible(&super::text::one_line(why))
            ),
        ),
        Ungraded::NothingToGrade(why) => (
            Some(0),
            format!(
                "Your work was not graded: {}. Rename it and check it again.",
                super::prairielearn::upload_words(why)
            ),
        ),
    };
    out.write_all(body(percent, &text).as_bytes())
}

/// The form-encoded body: `points` when there are some, `format=html`,
/// and `text` as escaped HTML in a `<pre>`, cut to keep it under [`LIMIT`].
fn body(percent: Option<u64>, text: &str) -> String {
    let mut head = String::new();
    if let Some(percent) = percent {
        head.push_str(&format!("points={percent}&"));
    }
    head.push_str("format=html&feedback=");
    let open = form("<pre>");
    let close = form("</pre>");
    let room = LIMIT - head.len() - open.len() - close.len();
    let whole: usize = text.chars().map(sent_len).sum();
    let shown = if whole <= room {
        form(&super::html::esc(text))
    } else {
        // The note's own length depends on the numbers it states: room
        // for their longest.
        let note = |kept: usize| {
            format!(
                "\n… (the report is cut here: {kept} of its {} bytes are shown)",
                text.len()
            )
        };
        let budget = room - note(text.len()).chars().map(sent_len).sum::<usize>();
        let mut used = 0;
        let mut end = 0;
        for (at, c) in text.char_indices() {
            let len = sent_len(c);
            if used + len > budget {
                break;
            }
            used += len;
            end = at + c.len_utf8();
        }
        form(&super::html::esc(&format!("{}{}", &text[..end], note(end))))
    };
    format!("{head}{open}{shown}{close}")
}

/// The bytes `c` takes in the body: escaped for HTML, then form-encoded.
fn sent_len(c: char) -> usize {
    let mut buf = [0u8; 4];
    form(&super::html::esc(c.encode_utf8(&mut buf))).len()
}

/// `text` form-encoded (`application/x-www-form-urlencoded`): letters,
/// digits and `*-._` as they are, a space as `+`, every other byte `%XX`.
fn form(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &b in text.as_bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'*' | b'-' | b'.' | b'_' => {
                out.push(b as char)
            }
            b' ' => out.push('+'),
            b => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_escaped_then_form_encoded() {
        assert_eq!(
            body(Some(50), "<b>&"),
            "points=50&format=html&feedback=%3Cpre%3E%26lt%3Bb%26gt%3B%26amp%3B%3C%2Fpre%3E"
        );
        assert_eq!(
            body(None, "a b"),
            "format=html&feedback=%3Cpre%3Ea+b%3C%2Fpre%3E"
        );
    }

    #[test]
    fn a_body_of_any_text_stays_under_the_limit() {
        for text in [
            "<".repeat(2 * LIMIT),
            "é".repeat(LIMIT),
            "a".repeat(3 * LIMIT),
        ] {
            let sent = body(Some(100), &text);
            assert!(sent.len() <= LIMIT, "{}", sent.len());
            assert!(sent.len() > LIMIT - 100, "the room is used: {}", sent.len());
            assert!(sent.contains("the+report+is+cut+here"));
        }
    }

    #[test]
    fn exploring_heads_the_feedback_and_changes_no_points() {
        use crate::sample::{accepted, explored, written};
        let points = |body: &str| body.split('&').next().unwrap().to_owned();
        let plain = written(&accepted(), render_codio);
        assert_eq!(points(&plain), "points=100");
        for found in [true, false] {
            let body = written(&explored(found), render_codio);
            assert_eq!(points(&body), points(&plain));
            let line = crate::text::explore_line(&crate::sample::exploration(found));
            let head = form(&format!("<pre>{}\n\n", super::super::html::esc(&line)));
            assert!(body.contains(&head), "{body}");
            if found {
                // The key's markup is text, escaped then encoded.
                assert!(
                    body.contains(&form("&quot; &lt;k&gt;&amp;&quot;")),
                    "{body}"
                );
            }
        }
    }
}
