//! GitHub Actions: error annotations for failing tests (escaped by the
//! workflow-command rules, within GitHub's limit of ten per step), the
//! human report for the log, and a Markdown table of submissions appended
//! to `$GITHUB_STEP_SUMMARY` when it is set.

use super::Report;
use crate::judge::Verdict;
use std::io::{self, Write};

/// Error annotations GitHub shows per step; more are dropped silently.
pub const MAX_ANNOTATIONS: usize = 10;
/// The step summary's size limit (1 MiB), with room to spare.
const SUMMARY_LIMIT: usize = 1000 * 1024;

/// Writes annotations and the human report to `out`.
pub fn render_github(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let failing: Vec<_> = report
        .submissions
        .iter()
        .flat_map(|s| s.tests.iter().map(move |t| (s, t)))
        .filter(|(_, t)| t.verdict != Verdict::Accepted)
        .collect();
    for (s, t) in failing.iter().take(MAX_ANNOTATIONS) {
        // The path is the learner's (their folder's name): shown as every
        // report shows it, so that no control character reaches the log.
        let mut properties = format!("file={}", property(&super::text::visible(&s.path)));
        if let Some(line) = t.error.as_ref().and_then(|e| e.line) {
            properties.push_str(&format!(",line={line}"));
        }
        properties.push_str(&format!(
            ",title={}",
            property(&format!("{}/{}: {}", t.group, t.name, t.verdict))
        ));
        writeln!(
            out,
            "::error {properties}::{}",
            data(&super::failure::failure_text(t))
        )?;
    }
    if failing.len() > MAX_ANNOTATIONS {
        writeln!(
            out,
            "::notice title=More failing tests::{}",
            data(&format!(
                "{} more failing tests are not annotated (GitHub shows {MAX_ANNOTATIONS} per step); see the log",
                failing.len() - MAX_ANNOTATIONS
            ))
        )?;
    }
    // The log below shows learner text. Each line of it is already made
    // harmless (super::text::visible), and workflow commands are off
    // while it prints, under a token the learner's code, which ran before
    // it was drawn, cannot know.
    let token = stop_token();
    writeln!(out, "::stop-commands::{token}")?;
    super::render_human(report, out)?;
    writeln!(out, "::{token}::")
}

/// A fresh token for `::stop-commands::`: 128 random bits, in hex.
fn stop_token() -> String {
    let mut bytes = [0u8; 16];
    let read = std::fs::File::open("/dev/urandom")
        .and_then(|mut f| std::io::Read::read_exact(&mut f, &mut bytes));
    if read.is_err() {
        // No urandom: the clock and the pid are still unknown to a
        // submission that has already finished.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        bytes = (nanos ^ (u128::from(std::process::id()) << 64)).to_le_bytes();
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The Markdown step summary: a table of submissions and scores.
pub fn summary(report: &Report) -> String {
    let mut md = format!(
        "### {} — {} of {} submissions accepted\n\n| submission | verdict | score | tests passed |\n| --- | --- | ---: | ---: |\n",
        report.challenge,
        report
            .submissions
            .iter()
            .filter(|s| s.verdict == Verdict::Accepted)
            .count(),
        report.submissions.len()
    );
    for s in &report.submissions {
        let row = format!(
            "| {} | {} | {} / {} | {} / {} |\n",
            cell(&s.path),
            s.verdict,
            super::text::number(s.score),
            super::text::number(s.max_score),
            s.passed,
            s.total
        );
        if md.len() + row.len() > SUMMARY_LIMIT {
            md.push_str("| … | (table cut at GitHub's summary size limit) | | |\n");
            break;
        }
        md.push_str(&row);
    }
    md
}

/// Appends the summary to `$GITHUB_STEP_SUMMARY`, when running in Actions.
pub fn append_summary(report: &Report) -> io::Result<()> {
    let Some(path) = std::env::var_os("GITHUB_STEP_SUMMARY") else {
        return Ok(());
    };
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(summary(report).as_bytes())
}

/// A command's message, escaped: `%`, CR and LF.
fn data(s: &str) -> String {
    s.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A command's property value, escaped: as data, plus `:` and `,`.
fn property(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

/// A Markdown table cell: learner text made visible, with a backslash
/// before each character that could change the table or make markup of
/// it: a backslash of the learner's cannot unescape the pipe after it (a
/// folder named `x\|accepted\|` would otherwise add cells to its row), and
/// no link, image, HTML or character reference is made.
fn cell(s: &str) -> String {
    let mut out = String::new();
    for c in super::text::visible(s).chars() {
        if matches!(c, '\\' | '|' | '[' | ']' | '<' | '>' | '&') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_command_escaping_follows_githubs_rules() {
        assert_eq!(data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(cell("a|b\nc"), "a\\|b\\\\nc");
        // A learner's backslash escapes nothing of the table's.
        assert_eq!(cell("x\\|accepted"), "x\\\\\\|accepted");
        assert_eq!(cell("<img src=x>"), "\\<img src=x\\>");
    }
}
