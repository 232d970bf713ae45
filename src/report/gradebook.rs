//! The gradebook: a row per student with their score, for a spreadsheet
//! (CSV) or a script (JSON).

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
                    "score": s.score,
                    "max_score": s.max_score,
                    "verdict": s.verdict,
                    "passed": s.passed,
                    "total": s.total,
                })
            })
            .collect();
        let mut bytes = serde_json::to_vec_pretty(&rows).unwrap_or_default();
        bytes.push(b'\n');
        bytes
    } else {
        let mut csv = String::from("student,path,score,max_score,verdict,passed,total\n");
        for s in &report.submissions {
            csv.push_str(&format!(
                "{},{},{},{},{},{},{}\n",
                csv_field(&s.name),
                csv_field(&s.path),
                s.score,
                s.max_score,
                s.verdict,
                s.passed,
                s.total
            ));
        }
        csv.into_bytes()
    }
}

/// A CSV field, quoted when it must be (RFC 4180), and defused against
/// spreadsheet formulas.
fn csv_field(s: &str) -> String {
    let s = if s.starts_with(['=', '+', '-', '@']) {
        format!("'{s}")
    } else {
        s.to_owned()
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
}
