//! Gradescope's `results.json` for one submission: its score, and a test
//! per case with its score, status, output and visibility.

use super::{Report, SubmissionReport, Ungraded};
use crate::contract::{Verdict, Visibility};
use serde_json::{Value, json};
use std::io::{self, Write};

/// Writes the report of its single submission as Gradescope's results.
pub fn render_gradescope(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let [submission] = report.submissions.as_slice() else {
        return Err(io::Error::other(format!(
            "the gradescope format describes one submission, and this report has {}; grade them one at a time",
            report.submissions.len()
        )));
    };
    super::text::safe_json(&results(report, submission), out)?;
    writeln!(out)
}

/// Writes Gradescope's results for an upload that was not graded: a score
/// of 0 (Gradescope has no ungraded result) and a message saying whose the
/// problem is and what to do.
pub fn render_gradescope_ungraded(ungraded: &Ungraded, out: &mut dyn Write) -> io::Result<()> {
    let output = match ungraded {
        Ungraded::Grader(why) => format!(
            "The autograder could not grade this submission; this is not your code's fault, and the score of 0 is not a grade. Tell your instructor. ({})",
            super::text::visible(&super::text::one_line(why))
        ),
        Ungraded::NoEntryFile { found, expected } => format!(
            "Your submission was not graded: {}. Submit again with that file.",
            super::prairielearn::no_entry_file(found, expected)
        ),
    };
    let value = json!({
        "score": 0,
        "output": output,
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": [],
        "extra_data": { "graded": false },
    });
    super::text::safe_json(&value, out)?;
    writeln!(out)
}

fn results(report: &Report, s: &SubmissionReport) -> Value {
    let tests: Vec<Value> = s
        .tests
        .iter()
        .map(|t| {
            let output = if t.verdict == Verdict::Accepted {
                String::new()
            } else {
                super::failing::failure_text(t)
            };
            json!({
                "name": format!("{}/{}", t.group, t.name),
                "score": t.points.score(),
                "max_score": t.points.max_score(),
                "status": if t.verdict == Verdict::Accepted { "passed" } else { "failed" },
                "output": output,
                // A hidden group's results wait for the instructor to
                // publish them; what they hold depends on --audience.
                "visibility": match t.visibility {
                    Visibility::Visible => "visible",
                    Visibility::Hidden => "after_published",
                },
                "tags": [t.group.clone(), t.verdict.to_string()],
                "extra_data": { "verdict": t.verdict, "time_ms": t.time_ms },
            })
        })
        .collect();
    let seconds: u64 = s.tests.iter().map(|t| t.time_ms).sum::<u64>() / 1000;
    json!({
        "score": s.points.score(),
        "max_score": s.points.max_score(),
        "execution_time": seconds,
        // Students read `output`; the containment in force is the
        // instructors' business, in `extra_data`.
        "output": format!(
            "{} ({}): {}: {} of {} tests passed, score {} of {}",
            super::text::visible(&s.name),
            super::text::visible(&s.path),
            s.verdict,
            s.passed,
            s.total,
            super::text::earned(&s.points),
            super::text::possible(&s.points),
        ),
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {
            "verdict": s.verdict,
            "name": s.name,
            "path": s.path,
            "language": s.language,
            "points": s.points,
            "challenges": report.challenges,
            "sandbox": report.sandbox.describe(),
        },
    })
}
