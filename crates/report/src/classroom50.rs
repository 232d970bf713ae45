//! Classroom 50's `result.json` (contract `classroom50/result/v1`) and the
//! `release-body.md` its runner publishes as the submission's Release.
//!
//! The contract, as foundation50/classroom50 documents it (wiki
//! "Autograders", "The result.json contract" and "Writing an
//! autograder.py") and its runner checks it (`runner.py`,
//! `validate_result`): a JSON object with `schema` exactly
//! `classroom50/result/v1`; `classroom` and `assignment` equal to the
//! runner's `CLASSROOM` and `ASSIGNMENT`; `submission` the submit tag
//! (`SUBMISSION_TAG`, `submit/...`); `commit`, `release`, `review` (URLs)
//! and `datetime` (UTC, `YYYY-MM-DDTHH:MM:SSZ`) non-empty strings;
//! `score` and `max-score` non-negative integers, `score <= max-score`,
//! the sums of `tests[]`, each an object `{test-name: non-empty string,
//! passed: bool, score: int, max-score: int}` with `score <= max-score`.
//! The runner stamps `owner`, `assignment_type`, `submitted_by`,
//! `graded_at` and its own `datetime` over what the autograder wrote, so
//! they are not written here. The autograder exits 0 when it ran to its
//! end, whatever the grade; a non-zero exit is an infrastructure error
//! (`status=error`, no Release, nothing in the gradebook): how a grader
//! fault is told, never as a score.
//!
//! A row per group of the suite: `test-name` the group's name, `passed`
//! when every test of the group passed, `max-score` its weight. The
//! points are whole: the total is the exact score rounded down, and the
//! rows share it by largest remainder (each row gets its exact points
//! rounded down, then the rows with the largest fractions, the first
//! first on a tie, one more each until the rows sum to the total), except
//! that a row reaches its `max-score` only when all its tests passed (the
//! total is then one less). The rows sum to `score` always.

use super::{Points, Report, SubmissionReport};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The contract's version, its `schema`.
pub const SCHEMA: &str = "classroom50/result/v1";

/// What the runner says of the submission graded: its environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classroom50Run {
    /// `CLASSROOM`: the classroom's short name.
    pub classroom: String,
    /// `ASSIGNMENT`: the assignment's slug.
    pub assignment: String,
    /// `SUBMISSION_TAG`: the submit tag, `submit/...`.
    pub submission: String,
    /// `COMMIT_URL`.
    pub commit: String,
    /// `RELEASE_URL`.
    pub release: String,
    /// `REVIEW_URL`, else `COMMIT_URL` (as the runner falls back).
    pub review: String,
    /// When it was graded, in seconds since the epoch.
    pub graded_at_secs: u64,
}

/// One row of `tests[]`: a group.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Row {
    /// The group's name.
    pub name: String,
    /// Whether every test of the group passed.
    pub passed: bool,
    /// The group's exact points.
    pub points: Points,
}

/// The rows of a graded submission, a group each; none when the grader
/// failed on it (it has no score to share).
pub fn rows(s: &SubmissionReport) -> Option<Vec<Row>> {
    if !s.points.graded() {
        return None;
    }
    Some(
        s.groups
            .iter()
            .map(|g| Row {
                name: g.name.clone(),
                passed: g.passed == g.total,
                points: g.points,
            })
            .collect(),
    )
}

/// Writes `result.json` for `rows` (of [`rows`], or every group at 0 for
/// files that could not be graded).
pub fn render_classroom50(
    rows: &[Row],
    run: &Classroom50Run,
    out: &mut dyn Write,
) -> io::Result<()> {
    let whole = whole_points(rows);
    let tests: Vec<Value> = rows
        .iter()
        .zip(&whole)
        .map(|(row, &(score, max))| {
            json!({
                "test-name": test_name(&row.name),
                "passed": row.passed,
                "score": score,
                "max-score": max,
            })
        })
        .collect();
    let value = json!({
        "schema": SCHEMA,
        "classroom": run.classroom,
        "assignment": run.assignment,
        "submission": run.submission,
        "commit": run.commit,
        "release": run.release,
        "review": run.review,
        "datetime": datetime(run.graded_at_secs),
        "score": whole.iter().map(|w| w.0).sum::<u64>(),
        "max-score": whole.iter().map(|w| w.1).sum::<u64>(),
        "tests": tests,
    });
    super::text::safe_json(&value, out)?;
    writeln!(out)
}

/// A row's name as Classroom 50 takes one: never empty, no control
/// characters (shown as the notation of every report), at most 100 bytes.
fn test_name(name: &str) -> String {
    let shown = super::text::visible(name);
    let shown = if shown.trim().is_empty() {
        "(unnamed group)".to_owned()
    } else {
        shown
    };
    let mut end = shown.len().min(100);
    while !shown.is_char_boundary(end) {
        end -= 1;
    }
    shown[..end].to_owned()
}

/// `secs` since the epoch as the contract writes a moment:
/// `YYYY-MM-DDTHH:MM:SSZ`.
fn datetime(secs: u64) -> String {
    let t = super::text::Utc::of_secs(secs);
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z",
        t.year, t.month, t.day, t.hour, t.minute, t.second
    )
}

/// Each row's whole `(score, max-score)`: the rule of this module's doc.
pub fn whole_points(rows: &[Row]) -> Vec<(u64, u64)> {
    let units = |p: &Points| p.earned.unwrap_or(0);
    let max: Vec<u64> = rows
        .iter()
        .map(|r| r.points.total / r.points.denominator)
        .collect();
    let mut score: Vec<u64> = rows
        .iter()
        .map(|r| units(&r.points) / r.points.denominator)
        .collect();
    let total = exact_floor(rows);
    let mut left = total.saturating_sub(score.iter().sum());
    // Largest fraction first, the first row first on a tie.
    let mut order: Vec<usize> = (0..rows.len()).collect();
    let fraction = |i: usize| {
        let p = &rows[i].points;
        (units(p) % p.denominator) as f64 / p.denominator as f64
    };
    order.sort_by(|&a, &b| fraction(b).total_cmp(&fraction(a)).then(a.cmp(&b)));
    for i in order {
        if left == 0 {
            break;
        }
        let rounds_up = units(&rows[i].points) % rows[i].points.denominator != 0;
        if rounds_up && (score[i] + 1 < max[i] || rows[i].passed) {
            score[i] += 1;
            left -= 1;
        }
    }
    score.into_iter().zip(max).collect()
}

/// The exact total of `rows` rounded down, counted in the least common
/// multiple of their denominators (one, in a report's rows).
fn exact_floor(rows: &[Row]) -> u64 {
    fn gcd(a: u128, b: u128) -> u128 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let common = rows.iter().fold(1u128, |l, r| {
        let d = u128::from(r.points.denominator);
        l / gcd(l, d) * d
    });
    let units: u128 = rows
        .iter()
        .map(|r| {
            u128::from(r.points.earned.unwrap_or(0)) * (common / u128::from(r.points.denominator))
        })
        .sum();
    u64::try_from(units / common).unwrap_or(u64::MAX)
}

/// The most of the learner's report a Release body holds (GitHub takes
/// 125,000 characters).
const BODY_REPORT_LIMIT: usize = 100_000;

/// `release-body.md`: the score, a row per group, what exploring found
/// when it ran (a line), and the learner's report (`human`, plain text)
/// verbatim in a code block, which Markdown shows as it is whatever it
/// holds.
pub fn release_body(report: &Report, rows: &[Row], human: &str) -> String {
    let whole = whole_points(rows);
    let score: u64 = whole.iter().map(|w| w.0).sum();
    let max: u64 = whole.iter().map(|w| w.1).sum();
    let mut md = format!(
        "### {}: {score} of {max} points\n\n| group | result | score |\n| --- | --- | ---: |\n",
        markdown_text(&report.challenge)
    );
    for (row, (score, max)) in rows.iter().zip(&whole) {
        md.push_str(&format!(
            "| {} | {} | {score} / {max} |\n",
            markdown_text(&test_name(&row.name)),
            if row.passed { "PASS" } else { "FAIL" },
        ));
    }
    md.push('\n');
    // What exploring found, under the table whose points it leaves as
    // they are; the report below has the case.
    if let Some(e) = report.submissions.first().and_then(|s| s.explore.as_ref()) {
        md.push_str(&format!(
            "{}\n\n",
            markdown_text(&super::text::explore_line(e))
        ));
    }
    md.push_str(&code_block(human, BODY_REPORT_LIMIT));
    md
}

/// `text` as Markdown that shows it literally: every ASCII punctuation
/// character backslash-escaped (a `|` cannot end a table's cell).
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in super::text::visible(text).chars() {
        if c.is_ascii_punctuation() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `text` in a fenced code block whose fence no run of backticks in it
/// can close, cut at a character boundary to `limit` bytes with a note.
fn code_block(text: &str, limit: usize) -> String {
    let text = if text.len() > limit {
        let mut end = limit;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        format!(
            "{}\n… (the report is cut here: {end} of its {} bytes are shown; the job's log has all of it)\n",
            &text[..end],
            text.len()
        )
    } else {
        text.to_owned()
    };
    let longest = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat((longest + 1).max(3));
    let newline = if text.ends_with('\n') { "" } else { "\n" };
    format!("{fence}text\n{text}{newline}{fence}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(earned: u64, total: u64, denominator: u64, passed: bool) -> Row {
        Row {
            name: "g".into(),
            passed,
            points: Points::new(earned, total, denominator),
        }
    }

    #[test]
    fn rows_share_the_total_by_largest_remainder() {
        // Thirds of 10, 10 and 10 points: 3⅓ + 6⅔ + 6⅔ = 16⅔, so 16.
        let rows = [
            row(10, 30, 3, false),
            row(20, 30, 3, false),
            row(20, 30, 3, false),
        ];
        assert_eq!(whole_points(&rows), vec![(3, 10), (7, 10), (6, 10)]);
    }

    #[test]
    fn a_row_reaches_its_maximum_only_when_all_its_tests_passed() {
        // 9½ of 10 and ½ of 10: the total 10 would put the first at 10/10.
        let rows = [row(19, 20, 2, false), row(1, 20, 2, false)];
        assert_eq!(whole_points(&rows), vec![(9, 10), (1, 10)]);
        // Alone, 9½ rounds down to 9 as the total does.
        assert_eq!(whole_points(&[row(19, 20, 2, false)]), vec![(9, 10)]);
    }

    #[test]
    fn a_full_score_is_whole() {
        let rows = [row(30, 30, 3, true), row(0, 0, 3, true)];
        assert_eq!(whole_points(&rows), vec![(10, 10), (0, 0)]);
    }

    #[test]
    fn a_code_block_cannot_be_closed_by_its_text() {
        let block = code_block("a ```` b\n", 1000);
        assert!(block.starts_with("`````text\n"), "{block}");
        assert!(block.ends_with("\n`````\n"), "{block}");
        let cut = code_block("ééé", 3);
        assert!(cut.starts_with("```text\né\n… (the report is cut here: 2 of its 6 bytes"));
    }

    #[test]
    fn datetimes_are_utc_with_a_z() {
        assert_eq!(datetime(0), "1970-01-01T00:00:00Z");
        assert_eq!(datetime(951_782_400 + 3_723), "2000-02-29T01:02:03Z");
    }

    #[test]
    fn exploring_is_a_line_of_the_release_and_changes_no_points() {
        let plain = crate::sample::accepted();
        let rows_of = |r: &Report| rows(&r.submissions[0]).unwrap();
        for found in [true, false] {
            let report = crate::sample::explored(found);
            assert_eq!(rows_of(&report), rows_of(&plain));
            let body = release_body(&report, &rows_of(&report), "the report\n");
            let line = crate::text::explore_line(&crate::sample::exploration(found));
            assert!(
                body.contains(&format!("{}\n\n```text\n", markdown_text(&line))),
                "{body}"
            );
            let without = release_body(&plain, &rows_of(&plain), "the report\n");
            assert_eq!(
                body.replace(&format!("{}\n\n", markdown_text(&line)), ""),
                without
            );
        }
    }
}
