//! GitHub Actions: error annotations for failing tests (escaped by the
//! workflow-command rules, within GitHub's limit of ten per step), a
//! warning for each accepted student a generated case fails (`--explore`),
//! the human report for the log, and a Markdown table of submissions appended
//! to `$GITHUB_STEP_SUMMARY` when it is set.

use super::Report;
use crate::contract::Verdict;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Error annotations GitHub shows per step; more are dropped silently.
pub const MAX_ANNOTATIONS: usize = 10;
/// The step summary's size limit (1 MiB), with room to spare.
const SUMMARY_LIMIT: usize = 1000 * 1024;

/// Writes annotations and the human report to `out`, each annotation's
/// file relative to `$GITHUB_WORKSPACE` when it is set.
pub fn render_github(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let workspace = std::env::var_os("GITHUB_WORKSPACE").map(PathBuf::from);
    render_github_in(report, workspace.as_deref(), out)
}

/// [`render_github`] for a workflow whose repository is checked out at
/// `workspace`.
fn render_github_in(
    report: &Report,
    workspace: Option<&Path>,
    out: &mut dyn Write,
) -> io::Result<()> {
    // One annotation per failing student, their first failing test: a
    // class's annotations must not all go to its first students. With more
    // failing students than GitHub shows, they are chosen evenly over the
    // class (in report order).
    let failing: Vec<(&super::SubmissionReport, &super::TestReport)> = report
        .submissions
        .iter()
        .filter_map(|s| Some((s, s.tests.iter().find(|t| t.verdict != Verdict::Accepted)?)))
        .collect();
    let shown = spread(failing.len(), MAX_ANNOTATIONS);
    for &i in &shown {
        let (s, t) = failing[i];
        // The path is the learner's (their folder's name): shown as every
        // report shows it, so that no control character reaches the log.
        let file = in_workspace(&s.path, workspace);
        let mut properties = format!("file={}", property(&super::text::visible(&file)));
        if let Some(line) = t.error.as_ref().and_then(|e| e.line) {
            properties.push_str(&format!(",line={line}"));
        }
        properties.push_str(&format!(
            ",title={}",
            property(&format!(
                "{}: {}: {}",
                super::text::visible(&s.name),
                t.id(),
                t.verdict
            ))
        ));
        writeln!(
            out,
            "::error {properties}::{}",
            data(&super::failing::failure_text(t))
        )?;
    }
    let failing_tests: usize = report.submissions.iter().map(|s| s.total - s.passed).sum();
    if failing_tests > shown.len() {
        let students = if shown.len() < failing.len() {
            format!(
                "{} of the {} failing students, chosen over the class (GitHub shows {MAX_ANNOTATIONS} per step)",
                shown.len(),
                failing.len()
            )
        } else if failing.len() == 1 {
            "the one failing student".to_owned()
        } else {
            format!("each of the {} failing students", failing.len())
        };
        writeln!(
            out,
            "::notice title=More failing tests::{}",
            data(&format!(
                "{failing_tests} tests fail; the first failing test of {students} is annotated; see the log and the step summary for the rest"
            ))
        )?;
    }
    // An accepted student a generated case still fails: a warning, which
    // fails no check, with the case (GitHub shows ten a step too).
    let still_wrong: Vec<(&super::SubmissionReport, &super::contract::ExploreReport)> = report
        .submissions
        .iter()
        .filter_map(|s| {
            Some((
                s,
                s.explore.as_ref().filter(|e| e.counterexample.is_some())?,
            ))
        })
        .collect();
    for i in spread(still_wrong.len(), MAX_ANNOTATIONS) {
        let (s, e) = still_wrong[i];
        let file = in_workspace(&s.path, workspace);
        writeln!(
            out,
            "::warning file={},title={}::{}",
            property(&super::text::visible(&file)),
            property(&format!(
                "{}: {}",
                super::text::visible(&s.name),
                super::text::FAILS_A_GENERATED_CASE
            )),
            data(&super::text::explore_lines(e).join("\n"))
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

/// Which of `n` items in order get one of at most `most` annotations:
/// every one, or `most` chosen evenly over them all.
fn spread(n: usize, most: usize) -> Vec<usize> {
    if n <= most {
        (0..n).collect()
    } else {
        (0..most).map(|i| i * n / most).collect()
    }
}

/// `path` as GitHub attaches an annotation to a file of the repository:
/// relative to the workspace it was checked out in, when it is under it
/// (an absolute path attaches to nothing). A report's path is as given,
/// absolute (a rejudged class, `$GITHUB_WORKSPACE/class`) or relative to
/// the folder the grader ran in (a step's `working-directory`); the
/// workspace may be reached through a link, so both are also compared
/// resolved. A path outside the workspace is kept as it is.
fn in_workspace(path: &str, workspace: Option<&Path>) -> String {
    let Some(workspace) = workspace.filter(|w| w.is_absolute()) else {
        return path.to_owned();
    };
    let Ok(absolute) = std::path::absolute(path) else {
        return path.to_owned();
    };
    let relative = |path: &Path, workspace: &Path| {
        path.strip_prefix(workspace)
            .ok()
            .filter(|r| !r.as_os_str().is_empty())
            .map(|r| r.to_string_lossy().into_owned())
    };
    let resolved = || {
        let workspace = std::fs::canonicalize(workspace).ok()?;
        let path = std::fs::canonicalize(&absolute).ok()?;
        relative(&path, &workspace)
    };
    relative(&absolute, workspace)
        .or_else(resolved)
        .unwrap_or_else(|| path.to_owned())
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
    grading::hex(&bytes)
}

/// The Markdown step summary: a table of submissions and scores, with a
/// column saying which accepted students a generated case still fails
/// when the class was explored.
pub fn summary(report: &Report) -> String {
    let explored = super::text::any_explored(report);
    let (head, rule) = if explored {
        (" generated cases |", " --- |")
    } else {
        ("", "")
    };
    let mut md = format!(
        "### {} — {} of {} submissions accepted\n\n| student | path | verdict | score | tests passed |{head}\n| --- | --- | --- | ---: | ---: |{rule}\n",
        report.challenge,
        report
            .submissions
            .iter()
            .filter(|s| s.verdict == Verdict::Accepted)
            .count(),
        report.submissions.len()
    );
    for s in &report.submissions {
        let explore = if explored {
            format!(" {} |", cell(&super::text::explore_cell(s)))
        } else {
            String::new()
        };
        let row = format!(
            "| {} | {} | {} | {} / {} | {} / {} |{explore}\n",
            cell(&s.name),
            cell(&s.path),
            s.verdict,
            super::text::earned(&s.points),
            super::text::possible(&s.points),
            s.passed,
            s.total
        );
        if md.len() + row.len() > SUMMARY_LIMIT {
            md.push_str(&format!(
                "| … | (table cut at GitHub's summary size limit) | | | |{}\n",
                if explored { " |" } else { "" }
            ));
            break;
        }
        md.push_str(&row);
    }
    if report.submissions.len() > 1 {
        let table = mistake_table(&super::class::class_mistakes(report));
        if md.len() + table.len() <= SUMMARY_LIMIT {
            md.push_str(&table);
        }
    }
    md
}

/// The class's mistakes as a Markdown table: a row per mistake named (a
/// student counts once for each, see [`super::class`]), then the pairs
/// made together, then the students no mistake explains.
fn mistake_table(c: &super::class::ClassMistakes) -> String {
    use super::class::share;
    if c.is_empty() {
        return format!(
            "\nNo known mistake named in the class ({} judged).\n",
            grading::counted(c.judged, "student")
        );
    }
    let mut md = format!(
        "\n#### Mistakes across the class\n\n{} judged; a student counts once for each mistake named.\n\n| mistake | | students | share |\n| --- | --- | ---: | ---: |\n",
        grading::counted(c.judged, "student")
    );
    for m in &c.mistakes {
        let together = if m.together > 0 {
            format!(" ({} with another)", m.together)
        } else {
            String::new()
        };
        md.push_str(&format!(
            "| `{}` | {} | {}{together} | {} |\n",
            m.id,
            cell(&m.title),
            m.students.len(),
            share(m.students.len(), c.judged)
        ));
    }
    for p in &c.pairs {
        md.push_str(&format!(
            "| `{}` | made together | {} | {} |\n",
            p.ids.join("` + `"),
            p.students.len(),
            share(p.students.len(), c.judged)
        ));
    }
    if c.unexplained > 0 {
        md.push_str(&format!(
            "| | no known mistake explains the wrong answers | {} | {} |\n",
            c.unexplained,
            share(c.unexplained, c.judged)
        ));
    }
    if c.nondeterministic > 0 {
        md.push_str(&format!(
            "| | answers change between runs (no mistake named) | {} | {} |\n",
            c.nondeterministic,
            share(c.nondeterministic, c.judged)
        ));
    }
    if c.not_judged > 0 {
        md.push_str(&format!(
            "\n{} not judged (grader-fault), in no count.\n",
            grading::counted(c.not_judged, "submission")
        ));
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
/// no link, image, HTML or character reference is made. GitHub's Markdown
/// also links bare `www.` names, `http://` addresses and e-mail addresses
/// (its autolink extension, which reads one run of text at a time): a
/// backslash before every `:` and `@`, and before the `.` of `www.`, puts
/// each in a run of its own, so that a folder named `www.evil.example`
/// shows as itself, never as a link.
fn cell(s: &str) -> String {
    let mut out = String::new();
    let text = super::text::visible(s);
    for (at, c) in text.char_indices() {
        let www = c == '.' && text[..at].to_ascii_lowercase().ends_with("www");
        if www || matches!(c, '\\' | '|' | '[' | ']' | '<' | '>' | '&' | ':' | '@') {
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
    fn no_cell_holds_what_github_would_link() {
        for name in [
            "www.evil.example",
            "WWW.evil.example",
            "x@evil.example",
            "https://evil.example",
            "see www.evil.example now",
            "學www.evil.example",
        ] {
            let shown = cell(name);
            let lower = shown.to_ascii_lowercase();
            assert!(!lower.contains("www."), "{shown}");
            assert!(!shown.contains("x@") && !shown.contains("s:"), "{shown}");
            // Markdown reads each backslash as escaping the character after
            // it: what a reader sees is the name.
            assert_eq!(shown.replace('\\', ""), name);
        }
    }

    #[test]
    fn a_large_class_gets_one_annotation_per_student_spread_over_it() {
        let mut report: Report =
            serde_json::from_str(include_str!("../../../tests/fixtures/reports/batch.json"))
                .unwrap();
        let failing = report
            .submissions
            .iter()
            .find(|s| s.tests.iter().any(|t| t.verdict != Verdict::Accepted))
            .unwrap()
            .clone();
        report.submissions = (0..25)
            .map(|i| {
                let mut s = failing.clone();
                s.name = format!("student-{i:02}");
                s.path = format!("class/student-{i:02}");
                s
            })
            .collect();
        let mut out = Vec::new();
        render_github_in(&report, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let annotated: Vec<usize> = text
            .lines()
            .filter_map(|l| l.strip_prefix("::error file=class/student-"))
            .map(|l| l[..2].parse::<usize>().unwrap())
            .collect();
        // Ten students, each once, spread over the whole class: from its
        // start to its last tenth, never more than three apart.
        assert_eq!(annotated.len(), 10, "{annotated:?}");
        assert!(
            annotated
                .windows(2)
                .all(|w| w[0] < w[1] && w[1] - w[0] <= 3),
            "{annotated:?}"
        );
        assert_eq!(annotated[0], 0, "{annotated:?}");
        assert!(annotated[9] >= 20, "{annotated:?}");
        assert!(text.contains("10 of the 25 failing students, chosen over the class"));
    }

    #[test]
    fn annotation_paths_are_relative_to_the_workspace_under_it() {
        let ws = Some(Path::new("/home/runner/work/course/course"));
        let at = |p| in_workspace(p, ws);
        assert_eq!(
            at("/home/runner/work/course/course/class/ada/router.py"),
            "class/ada/router.py"
        );
        // Outside it, or the workspace itself, or no workspace: as it was.
        assert_eq!(at("/tmp/class/ada.py"), "/tmp/class/ada.py");
        assert_eq!(
            at("/home/runner/work/course/course2/ada.py"),
            "/home/runner/work/course/course2/ada.py"
        );
        assert_eq!(
            at("/home/runner/work/course/course"),
            "/home/runner/work/course/course"
        );
        assert_eq!(in_workspace("/w/ada.py", None), "/w/ada.py");
        assert_eq!(in_workspace("/w/ada.py", Some(Path::new("w"))), "/w/ada.py");
    }

    #[test]
    fn workflow_command_escaping_follows_githubs_rules() {
        assert_eq!(data("50% done\r\nnext"), "50%25 done%0D%0Anext");
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(cell("a|b\nc"), "a\\|b\\\\nc");
        // A learner's backslash escapes nothing of the table's.
        assert_eq!(cell("x\\|accepted"), "x\\\\\\|accepted");
        assert_eq!(cell("<img src=x>"), "\\<img src=x\\>");
    }

    #[test]
    fn an_accepted_student_a_generated_case_fails_gets_a_warning_and_a_cell() {
        let plain = crate::sample::class();
        let report = crate::sample::explored_class();
        let mut out = Vec::new();
        render_github_in(&report, None, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let warnings: Vec<&str> = text
            .lines()
            .filter(|l| l.starts_with("::warning "))
            .collect();
        assert_eq!(warnings.len(), 1, "{text}");
        assert!(
            warnings[0].starts_with("::warning file=tests/fixtures/reports/class/ada/router.py,title=ada%3A passes the suite; fails a generated case::passes the suite; fails this generated case (case 7 of seed 7"),
            "{}",
            warnings[0]
        );
        assert!(warnings[0].contains("%0A  case: [[["), "{}", warnings[0]);
        // The errors are the unexplored class's.
        let mut before = Vec::new();
        render_github_in(&plain, None, &mut before).unwrap();
        let errors = |t: &str| -> Vec<String> {
            t.lines()
                .filter(|l| l.starts_with("::error "))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(errors(&text), errors(&String::from_utf8(before).unwrap()));
        // The summary's table gets a column, each row its cell.
        let md = summary(&report);
        assert!(md.contains("| tests passed | generated cases |\n"), "{md}");
        assert!(
            md.contains(" | 7 / 7 | passes the suite; fails a generated case |\n"),
            "{md}"
        );
        assert!(
            md.contains(" | 7 / 7 | agrees on 412 generated cases |\n"),
            "{md}"
        );
        assert!(md.contains(" | 1 / 7 |  |\n"), "{md}");
        assert!(!summary(&plain).contains("generated"));
    }
}
