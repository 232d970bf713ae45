//! PrairieLearn's external-grading `results.json` for one submission
//! (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>,
//! "Grading results"): `gradable`, `score` in 0..1, `message`, `output`,
//! `format_errors` when not gradable, and `tests[]` with `name`,
//! `description`, `points`, `max_points`, `message` and `output`. The
//! whole file stays within PrairieLearn's 1 MB.

use super::{Report, SubmissionReport};
use crate::judge::Verdict;
use serde_json::{Value, json};
use std::io::{self, Write};

/// PrairieLearn's limit for results.json.
pub const LIMIT: usize = 1_000_000;
/// The most output one test carries, so that a class of failing tests
/// leaves room for the submission's own.
const TEST_OUTPUT: usize = 8 * 1024;

/// Writes the report of its single submission as PrairieLearn's results.
pub fn render_prairielearn(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let [submission] = report.submissions.as_slice() else {
        return Err(io::Error::other(format!(
            "the prairielearn format describes one submission, and this report has {}; grade them one at a time",
            report.submissions.len()
        )));
    };
    let mut human = Vec::new();
    super::render_human(report, &mut human)?;
    let human = anstream::adapter::strip_str(&String::from_utf8_lossy(&human)).to_string();
    let mut bytes = Vec::new();
    super::text::safe_json(&results(submission, &human, LIMIT), &mut bytes)?;
    out.write_all(&bytes)?;
    writeln!(out)
}

/// Whether PrairieLearn should grade the attempt: a submission that does
/// not load or compile is the learner's, but charges no attempt; one the
/// grader failed on was never judged.
fn gradable(s: &SubmissionReport) -> bool {
    !matches!(s.verdict, Verdict::CompileError | Verdict::GraderFault)
}

/// The results, `output` cut so that the whole file is at most `limit`
/// bytes.
fn results(s: &SubmissionReport, human: &str, limit: usize) -> Value {
    let mut value = without_output(s);
    let mut room = limit.saturating_sub(size(&value) + 200);
    loop {
        value["output"] = Value::String(cut(human, room, "PrairieLearn's 1 MB limit"));
        let over = size(&value).saturating_sub(limit);
        if over == 0 || room == 0 {
            return value;
        }
        room = room.saturating_sub(over + 64);
    }
}

fn size(value: &Value) -> usize {
    super::text::safe_json_compact(value).map_or(usize::MAX, |s| s.len())
}

/// `text` within `bytes` bytes (of its JSON form, roughly: escapes make it
/// longer, which the caller measures), cut at a character boundary with a
/// note saying so.
pub fn cut(text: &str, bytes: usize, why: &str) -> String {
    if text.len() <= bytes {
        return text.to_owned();
    }
    let note = format!("\n… (cut at {bytes} of {} bytes, for {why})\n", text.len());
    let mut end = bytes.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}", &text[..end])
}

fn without_output(s: &SubmissionReport) -> Value {
    let tests: Vec<Value> = s
        .tests
        .iter()
        .map(|t| {
            let (message, output) = if t.verdict == Verdict::Accepted {
                ("passed".to_owned(), String::new())
            } else {
                (
                    format!(
                        "{}: {}",
                        t.verdict,
                        super::text::visible(super::text::first_line(&t.message))
                    ),
                    cut(
                        &super::failure::failure_text(t),
                        TEST_OUTPUT,
                        "the room of each test",
                    ),
                )
            };
            json!({
                "name": format!("{}/{}", t.group, t.name),
                "description": format!("group {}, {}", t.group, t.visibility_word()),
                "points": t.score,
                "max_points": t.max_score,
                "message": message,
                "output": output,
            })
        })
        .collect();
    let summary = format!(
        "{}: {} of {} tests passed, score {} of {}",
        s.verdict,
        s.passed,
        s.total,
        super::text::earned(&s.points),
        super::text::possible(&s.points)
    );
    let why = s
        .tests
        .first()
        .map(|t| super::text::visible(super::text::first_line(&t.message)))
        .unwrap_or_default();
    let mut value = match s.verdict {
        Verdict::GraderFault => json!({
            "gradable": false,
            "message": format!(
                "The grader failed on this submission; this is not your code's fault, and no attempt was charged. Submit again, or tell your instructor if it happens again. ({why})"
            ),
            "format_errors": [format!("the grader failed: {why}")],
        }),
        Verdict::CompileError => json!({
            "gradable": false,
            "message": format!("Your code does not compile or load, so it was not graded and no attempt was charged: {why}"),
            "format_errors": [why],
        }),
        _ => {
            let score = if s.points.total == 0 {
                f64::from(u8::from(s.verdict == Verdict::Accepted))
            } else {
                s.points.earned as f64 / s.points.total as f64
            };
            json!({ "gradable": true, "score": score.clamp(0.0, 1.0), "message": summary })
        }
    };
    value["tests"] = Value::Array(tests);
    value["output"] = Value::String(String::new());
    debug_assert_eq!(value["gradable"] == true, gradable(s));
    value
}

impl super::TestReport {
    /// Who sees the test, as a word.
    fn visibility_word(&self) -> &'static str {
        match self.visibility {
            crate::challenge::Visibility::Visible => "visible",
            crate::challenge::Visibility::Hidden => "hidden",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_is_cut_at_a_character_boundary_to_fit_the_limit() {
        let report: Report = serde_json::from_str(include_str!(
            "../../tests/fixtures/reports/rendezvous-scores.json"
        ))
        .unwrap();
        let s = &report.submissions[0];
        // Four bytes a character, so a cut in the middle of one is easy.
        let huge = "🦀".repeat(400_000);
        let value = results(s, &huge, LIMIT);
        let written = super::super::text::safe_json_compact(&value).unwrap();
        assert!(written.len() <= LIMIT, "{}", written.len());
        let output = value["output"].as_str().unwrap();
        assert!(output.contains("cut at"), "a note says it was cut");
        assert!(output.len() > LIMIT / 2, "most of the room is used");
        // Small output is kept whole.
        let value = results(s, "short", LIMIT);
        assert_eq!(value["output"], "short");
    }
}
