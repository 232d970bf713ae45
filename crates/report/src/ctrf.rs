//! Common Test Report Format (CTRF) JSON: a test per case of every
//! submission, scores under `extra`, and what exploring found
//! (`--explore`) beside each submission's score there, never as a test.

use super::Report;
use crate::contract::Verdict;
use serde_json::{Value, json};
use std::io::{self, Write};

/// The CTRF version written.
pub const SPEC_VERSION: &str = "1.0.0";

/// Writes `report` as CTRF JSON.
pub fn render_ctrf(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let mut tests = Vec::new();
    for s in &report.submissions {
        for t in &s.tests {
            let mut test = json!({
                "name": format!("{} :: {}", s.name, t.id()),
                // A grader's fault is no failure of the test's.
                "status": match t.verdict {
                    Verdict::Accepted => "passed",
                    Verdict::GraderFault => "other",
                    _ => "failed",
                },
                "duration": t.time_ms,
                "suite": [s.name.clone(), t.group.clone()],
                "rawStatus": t.verdict,
                "filePath": s.path,
                "extra": {
                    "verdict": t.verdict,
                    "score": t.points.score(),
                    "max_score": t.points.max_score(),
                    "points": t.points,
                    "visibility": t.visibility,
                },
            });
            if t.verdict != Verdict::Accepted {
                test["message"] = Value::from(super::junit::one_line(&t.message, 1000));
                test["trace"] = Value::from(super::failing::failure_text(t));
                if let Some(line) = t.error.as_ref().and_then(|e| e.line) {
                    test["line"] = Value::from(line);
                }
                if let Some(c) = &t.captured {
                    test["stdout"] = super::text::visible_lines(&c.stdout)
                        .collect::<Vec<_>>()
                        .into();
                    test["stderr"] = super::text::visible_lines(&c.stderr)
                        .collect::<Vec<_>>()
                        .into();
                }
            }
            tests.push(test);
        }
    }
    let passed = tests.iter().filter(|t| t["status"] == "passed").count();
    // A grader's fault is neither passed nor failed.
    let other = tests.iter().filter(|t| t["status"] == "other").count();
    let document = json!({
        "reportFormat": "CTRF",
        "specVersion": SPEC_VERSION,
        "generatedBy": report.grader,
        "results": {
            "tool": { "name": "rendezvous-grader", "version": env!("CARGO_PKG_VERSION") },
            "summary": {
                "tests": tests.len(),
                "passed": passed,
                "failed": tests.len() - passed - other,
                "skipped": 0,
                "pending": 0,
                "other": other,
                "start": report.started_at_ms,
                "stop": report.finished_at_ms,
                "duration": report.finished_at_ms.saturating_sub(report.started_at_ms),
            },
            "tests": tests,
            "extra": {
                "challenge": report.challenge,
                "challenges": report.challenges,
                "audience": report.audience,
                "sandbox": report.sandbox,
                "submissions": report.submissions.iter().map(submission_extra).collect::<Vec<_>>(),
            },
        },
    });
    super::text::safe_json(&document, out)?;
    writeln!(out)
}

/// A submission's entry in the results' `extra`: its verdict and score,
/// and, when it was explored, the report's `explore` object with its line
/// in words (`message`). Exploring is no test: the summary's counts stay
/// the suite's.
fn submission_extra(s: &super::SubmissionReport) -> Value {
    let mut entry = json!({
        "name": s.name,
        "path": s.path,
        "verdict": s.verdict,
        "score": s.points.score(),
        "max_score": s.points.max_score(),
        "points": s.points,
        "passed": s.passed,
        "total": s.total,
    });
    if let Some(e) = &s.explore {
        let mut explore = json!(e);
        explore["message"] = Value::from(super::text::explore_line(e));
        entry["explore"] = explore;
    }
    entry
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exploring_is_in_the_submissions_extra_and_no_test() {
        use crate::sample::{accepted, explored, written};
        let plain: Value = serde_json::from_str(&written(&accepted(), render_ctrf)).unwrap();
        for found in [true, false] {
            let mut value: Value =
                serde_json::from_str(&written(&explored(found), render_ctrf)).unwrap();
            let entry = &mut value["results"]["extra"]["submissions"][0];
            let explore = entry.as_object_mut().unwrap().remove("explore").unwrap();
            let message = explore["message"].as_str().unwrap();
            if found {
                assert!(message.starts_with("passes the suite; fails this generated case"));
                assert_eq!(explore["counterexample"]["case"][1][1][1], " <k>&");
            } else {
                assert!(message.contains("every one answered as the reference does"));
                assert!(explore["counterexample"].is_null());
            }
            assert_eq!(explore["cases"], 412);
            // The rest, tests and summary included, is the unexplored one.
            assert_eq!(value, plain);
        }
    }
}
