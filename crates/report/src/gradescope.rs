//! Gradescope's `results.json` for one submission
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>): its
//! score, the learner's whole human report in `output`, and a test per
//! case with its score, status, output and visibility; within the same
//! 1 MB as PrairieLearn's (see [`super::fit`]).

use super::fit::{LIMIT, Slot, TEST_OUTPUT, cut, fit, written};
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
    // Students read `output`: the containment in force is the
    // instructors' business, in `extra_data`.
    let options = super::HumanOptions {
        without_setup: true,
        ..Default::default()
    };
    let human = super::fit::human_text(report, &options)?;
    let (value, texts) = results(report, submission, &human);
    let (value, layout) = fit(
        as_text(value),
        texts,
        LIMIT,
        "the results' 1 MB limit",
        |_, texts, tests| {
            if let Some((_, output)) = texts.first_mut() {
                output.insert_str(
                    0,
                    &format!(
                        "({tests} tests, too many to list within 1 MB: see the report below)\n"
                    ),
                );
            }
        },
    );
    out.write_all(&written(&value, layout)?)
}

/// How Gradescope shows every text of a results.json: as plain text,
/// never as HTML or Markdown, whatever a learner's code printed (its
/// default, `simple_format`, renders HTML).
const TEXT: &str = "text";

/// Sets every format of a results.json (`value`) and of its tests to plain
/// text.
fn as_text(mut value: Value) -> Value {
    value["output_format"] = json!(TEXT);
    value["test_output_format"] = json!(TEXT);
    value["test_name_format"] = json!(TEXT);
    if let Some(tests) = value["tests"].as_array_mut() {
        for test in tests {
            test["output_format"] = json!(TEXT);
            test["name_format"] = json!(TEXT);
        }
    }
    value
}

/// Writes Gradescope's results for an upload that was not graded, with a
/// message saying whose the problem is and what to do: the grader's own
/// failure has no score at all (never a 0), a missing entry file a score
/// of 0 (the learner's to fix).
pub fn render_gradescope_ungraded(ungraded: &Ungraded, out: &mut dyn Write) -> io::Result<()> {
    let mut value = match ungraded {
        Ungraded::Grader(why) => json!({
            "output": format!(
                "Not graded: the autograder could not grade this submission; this is not your code's fault, and there is no score. Tell your instructor. ({})",
                super::text::visible(&super::text::one_line(why))
            ),
        }),
        Ungraded::NoEntryFile { found, expected } => json!({
            "score": 0,
            "output": format!(
                "Your submission was not graded: {}. Submit again with that file.",
                super::prairielearn::no_entry_file(found, expected)
            ),
        }),
    };
    value["visibility"] = json!("visible");
    value["stdout_visibility"] = json!("hidden");
    value["tests"] = json!([]);
    value["extra_data"] = json!({ "graded": false });
    super::text::safe_json(&as_text(value), out)?;
    writeln!(out)
}

/// The results with every text empty, and the texts with their slots: the
/// summary and the human report (what the learner's terminal would show:
/// the verdict, the mistake and its hint, each failure explained), then
/// each failing test's output.
fn results(report: &Report, s: &SubmissionReport, human: &str) -> (Value, Vec<(Slot, String)>) {
    let mut texts = vec![(Slot::Field("output"), String::new())];
    let tests: Vec<Value> = s
        .tests
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if t.verdict != Verdict::Accepted {
                let output = cut(
                    &super::failing::failure_text(t),
                    TEST_OUTPUT,
                    "the room of each test",
                );
                texts.push((Slot::TestText(i, "output"), output));
            }
            let mut test = json!({
                "name": format!("{}/{}", t.group, t.name),
                "max_score": t.points.max_score(),
                "status": if t.verdict == Verdict::Accepted { "passed" } else { "failed" },
                "output": "",
                // A hidden group's results wait for the instructor to
                // publish them; what they hold depends on --audience.
                "visibility": match t.visibility {
                    Visibility::Visible => "visible",
                    Visibility::Hidden => "after_published",
                },
                "tags": [t.group.clone(), t.verdict.to_string()],
                "extra_data": { "verdict": t.verdict, "time_ms": t.time_ms },
            });
            // A test the grader failed on has no score, not a 0.
            if let Some(score) = t.points.score() {
                test["score"] = json!(score);
            }
            test
        })
        .collect();
    let seconds: u64 = s.tests.iter().map(|t| t.time_ms).sum::<u64>() / 1000;
    let not_graded = if s.points.graded() {
        ""
    } else {
        "not graded (the grader failed on this submission; this is not your code's fault: tell your instructor): "
    };
    // Students read `output`: the summary, then the report.
    texts[0].1 = format!(
        "{not_graded}{} ({}): {}: {} of {} tests passed, {}\n\n{human}",
        super::text::visible(&s.name),
        super::text::visible(&s.path),
        s.verdict,
        s.passed,
        s.total,
        super::text::score_of(&s.points),
    );
    let mut value = json!({
        "max_score": s.points.max_score(),
        "execution_time": seconds,
        "output": "",
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
            "graded": s.points.graded(),
        },
    });
    // A submission the grader failed on has no score at all: Gradescope
    // gets none to record, rather than a 0.
    if let Some(score) = s.points.score() {
        value["score"] = json!(score);
    }
    (value, texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tests_too_many_to_list_leave_the_score_and_the_report() {
        let mut report: Report = serde_json::from_str(include_str!(
            "../../../tests/fixtures/reports/rendezvous-scores.json"
        ))
        .unwrap();
        report.submissions.truncate(1);
        let s = &mut report.submissions[0];
        let one = s.tests[0].clone();
        s.tests = (0..10_000)
            .map(|i| {
                let mut t = one.clone();
                t.name = format!("a-case-with-a-long-descriptive-name-{i}");
                t
            })
            .collect();
        let mut out = Vec::new();
        render_gradescope(&report, &mut out).unwrap();
        assert!(out.len() <= LIMIT, "{}", out.len());
        let value: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["tests"], json!([]));
        assert!(value["score"].is_number());
        let output = value["output"].as_str().unwrap();
        assert!(
            output.starts_with("(10000 tests, too many to list"),
            "{output}"
        );
        assert!(output.contains("tests passed"), "{output}");
    }
}
