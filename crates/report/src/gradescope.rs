//! Gradescope's `results.json` for one submission
//! (<https://gradescope-autograders.readthedocs.io/en/latest/specs/>): its
//! score, the learner's whole human report in `output`, and a test per
//! case with its score, status, output and visibility; within the same
//! 1 MB as PrairieLearn's (see [`super::fit`]).

use super::fit::{LIMIT, Slot, TEST_OUTPUT, cut, fit, written};
use super::{Report, SubmissionReport, Ungraded};
use crate::contract::{Audience, Points, Verdict, Visibility};
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
    // `output` is shown at once; the hidden tests wait for the grades to
    // be published, and so does everything worked out from them. The
    // containment in force is in `extra_data`.
    let shown = before_publishing(report);
    let human = super::fit::learner_text(&shown)?;
    let (value, texts) = results(report, submission, &shown.submissions[0], &human);
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

/// `report` (of one submission) as its `output` may show it before the
/// grades are published: without the hidden groups' tests, their scores or
/// the totals that count them (Gradescope hides the total score until then
/// when any test is hidden). For an instructor's audience, whose report
/// holds the hidden cases and works out its diagnosis from them too, the
/// diagnosis goes as well: it could quote a hidden case (the reproducer,
/// the h32 check's strings) or tell what the hidden tests found.
fn before_publishing(report: &Report) -> Report {
    let mut shown = report.clone();
    let Some(s) = shown.submissions.first_mut() else {
        return shown;
    };
    if s.tests.iter().all(|t| t.visibility == Visibility::Visible) {
        return shown;
    }
    s.tests.retain(|t| t.visibility == Visibility::Visible);
    s.groups.retain(|g| g.visibility == Visibility::Visible);
    s.passed = s
        .tests
        .iter()
        .filter(|t| t.verdict == Verdict::Accepted)
        .count();
    s.total = s.tests.len();
    s.verdict = s
        .tests
        .iter()
        .map(|t| t.verdict)
        .max()
        .unwrap_or(Verdict::Accepted);
    let earned = s.groups.iter().try_fold(0u64, |sum, g| {
        g.points.earned.map(|e| sum.saturating_add(e))
    });
    let total = s.groups.iter().map(|g| g.points.total).sum();
    s.points = Points {
        earned,
        total,
        denominator: s.points.denominator,
    };
    if report.audience == Audience::Instructor {
        s.h32 = None;
        s.hash_hint = None;
        s.mistake = None;
        s.unexplained = false;
        s.nondeterministic = None;
        s.property = None;
        s.reproducer = None;
        // Exploring ran because every test passed, the hidden ones too:
        // its line would tell their results before they are published.
        s.explore = None;
    }
    shown
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
        Ungraded::NothingToGrade(why) => json!({
            "score": 0,
            "output": format!(
                "Your submission was not graded: {}. Submit again with that file.",
                super::prairielearn::upload_words(why)
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
fn results(
    report: &Report,
    s: &SubmissionReport,
    shown: &SubmissionReport,
    human: &str,
) -> (Value, Vec<(Slot, String)>) {
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
                "name": t.id().to_string(),
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
    let seconds: u64 = shown.tests.iter().map(|t| t.time_ms).sum::<u64>() / 1000;
    let not_graded = if s.points.graded() {
        ""
    } else {
        "not graded (the grader failed on this submission; this is not your code's fault: tell your instructor): "
    };
    let hidden = s.total - shown.total;
    let (visible, later) = if hidden == 0 {
        ("", String::new())
    } else {
        (
            " visible",
            format!(
                "; {}: their results, and your total score, are shown once grades are published",
                grading::counted(hidden, "hidden test")
            ),
        )
    };
    // What exploring found goes under the summary, as a line of its own:
    // no test and no score of the results changes for it.
    let explored = shown
        .explore
        .as_ref()
        .map(|e| format!("\n{}", super::text::explore_line(e)))
        .unwrap_or_default();
    // Students read `output`: the summary, then the report.
    texts[0].1 = format!(
        "{not_graded}{} ({}): {}: {} of {}{visible} tests passed, {}{later}{explored}\n\n{human}",
        super::text::visible(&s.name),
        super::text::visible(&s.path),
        shown.verdict,
        shown.passed,
        shown.total,
        super::text::score_of(&shown.points),
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
        crate::sample::too_many_to_list(s);
        let mut out = Vec::new();
        render_gradescope(&report, &mut out).unwrap();
        assert!(out.len() <= LIMIT, "{}", out.len());
        let value: Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["tests"], json!([]));
        assert!(value["score"].is_number());
        let output = value["output"].as_str().unwrap();
        assert!(
            output.starts_with(&format!(
                "({} tests, too many to list",
                crate::sample::TOO_MANY
            )),
            "{output}"
        );
        assert!(output.contains("tests passed"), "{output}");
    }

    #[test]
    fn exploring_is_a_line_of_the_output_and_changes_no_score_or_test() {
        use crate::sample::{accepted, explored, written};
        let plain: Value = serde_json::from_str(&written(&accepted(), render_gradescope)).unwrap();
        for found in [true, false] {
            let value: Value =
                serde_json::from_str(&written(&explored(found), render_gradescope)).unwrap();
            let output = value["output"].as_str().unwrap();
            let line = crate::text::explore_line(&crate::sample::exploration(found));
            // Under the summary, then in the report below it.
            let summary = output.lines().next().unwrap();
            assert_eq!(output.lines().nth(1), Some(line.as_str()), "{output}");
            assert!(
                summary.contains("accepted: 7 of 7 tests passed"),
                "{summary}"
            );
            if found {
                assert!(
                    output.contains("  case: [[[\"a\",\"b\",\"c\"]]"),
                    "{output}"
                );
            }
            for field in ["score", "max_score", "tests", "extra_data"] {
                assert_eq!(value[field], plain[field], "{field}");
            }
        }
    }

    #[test]
    fn an_instructors_exploration_waits_for_the_hidden_tests_to_be_published() {
        let mut report = crate::sample::explored(true);
        report.submissions[0].tests[0].visibility = Visibility::Hidden;
        let shown = before_publishing(&report);
        assert!(shown.submissions[0].explore.is_none());
        report.audience = Audience::Learner;
        let shown = before_publishing(&report);
        assert!(shown.submissions[0].explore.is_some());
    }
}
