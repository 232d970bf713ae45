//! The gradebook: a row per student with their score, for a spreadsheet
//! (CSV) or a script (JSON), with the mistake named for them and whether
//! their answers changed between runs.

use super::Report;

/// The gradebook of `report`: a row per student, as JSON when `json`, else
/// as CSV.
pub fn render_gradebook(report: &Report, json: bool) -> Vec<u8> {
    if json {
        let rows: Vec<serde_json::Value> = report
            .submissions
            .iter()
            .map(|s| {
                serde_json::json!({
                    "student": s.name,
                    "path": s.path,
                    "score": s.points.score(),
                    "max_score": s.points.max_score(),
                    "points": s.points,
                    "verdict": s.verdict,
                    "passed": s.passed,
                    "total": s.total,
                    "mistake": mistake(s),
                    "nondeterministic": s.nondeterministic.is_some(),
                })
            })
            .collect();
        let mut bytes = Vec::new();
        let _ = super::text::safe_json(&rows, &mut bytes);
        bytes.push(b'\n');
        bytes
    } else {
        let mut csv = String::from(
            "student,path,score,max_score,verdict,passed,total,points_earned,points_total,points_denominator,mistake,nondeterministic\n",
        );
        // A `grader-fault` has no score: its cells are empty, never 0.
        let cell = |n: Option<String>| n.unwrap_or_default();
        for s in &report.submissions {
            csv.push_str(&format!(
                "{},{},{},{},{},{},{},{},{},{},{},{}\n",
                csv_field(&s.name),
                csv_field(&s.path),
                cell(s.points.score().map(|x| x.to_string())),
                s.points.max_score(),
                s.verdict,
                s.passed,
                s.total,
                cell(s.points.earned.map(|x| x.to_string())),
                s.points.total,
                s.points.denominator,
                mistake(s).unwrap_or_default(),
                s.nondeterministic.is_some()
            ));
        }
        csv.into_bytes()
    }
}

/// The mistakes a student's report names exactly, their ids joined by
/// `+` when two are made together (the class table's rule,
/// [`super::class`]); none for a closest mistake or a grader fault.
fn mistake(s: &super::SubmissionReport) -> Option<String> {
    let ids = super::class::named_ids(s);
    (!ids.is_empty()).then(|| ids.join("+"))
}

/// A CSV field of learner text (a student's folder or file name): shown
/// as every report shows it ([`super::text::visible`]: no control
/// character, nothing a CI runner reads as a command, one line), quoted
/// when it must be (RFC 4180), and defused against spreadsheet formulas.
fn csv_field(s: &str) -> String {
    let s = super::text::visible(s);
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s
    };
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_fields_are_quoted_and_defused() {
        assert_eq!(csv_field("alice"), "alice");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("=cmd()"), "'=cmd()");
    }

    #[test]
    fn csv_fields_hold_no_control_character_or_runner_command() {
        // A tab or CR before the formula is shown, so the cell starts with
        // a backslash, never a formula.
        assert_eq!(csv_field("\t=cmd()"), "\\t=cmd()");
        assert_eq!(csv_field("\r=cmd()"), "\\r=cmd()");
        assert_eq!(
            csv_field("a\u{1b}[31m\u{202e}\u{9b}"),
            "a\\u{001b}[31m\\u{202e}\\u{009b}"
        );
        assert_eq!(csv_field(" ::warning::x"), " \\u{003a}:warning::x");
        assert_eq!(csv_field("##[group]x"), "##\\u{005b}group]x");
        assert_eq!(csv_field("a\nb"), "a\\nb");
    }
}
