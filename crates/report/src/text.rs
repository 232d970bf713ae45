//! Text for people, shared by every renderer: learner text in its one
//! notation ([`crate::notation`]), columns padded by display width, lists
//! abbreviated, points rounded once.

pub use crate::notation::{
    h32_value, one_line, safe_json, safe_json_compact, visible, visible_json, visible_lines,
    visible_str,
};

/// Said after a learner's h32 value that is the pinned one in another
/// type ([`crate::contract::HashMismatch::same_value_other_type`]).
pub const SAME_VALUE_OTHER_TYPE: &str =
    ": the right value, but not an integer: h32 must return a plain integer";

/// What a report says above its failures when no known mistake is named
/// for them: that `s` is the starter untouched, or that no known mistake
/// explains its failures, and where the evidence is (diffs of answers, or
/// the failures themselves when none answered wrong). `None` when it says
/// neither.
pub fn unnamed_cause(s: &crate::contract::SubmissionReport) -> Option<&'static str> {
    if s.untouched_starter {
        return Some(
            "this is the challenge's starter as shipped: the tests fail because its TODOs are still to write",
        );
    }
    if !s.unexplained {
        return None;
    }
    Some(if s.tests.iter().any(|t| t.window.is_some()) {
        "none of the known mistakes explains these answers: the diffs below are the evidence"
    } else {
        "none of the known mistakes explains these failures: each is shown below"
    })
}

/// How a report says `count` mistakes made together, and that no fewer
/// of them explain the answers.
pub fn made_together(count: usize) -> (&'static str, &'static str) {
    if count >= 3 {
        ("three made together", "no two of them do")
    } else {
        ("two made together", "neither does alone")
    }
}

/// What a report says reproduces the failing tests: the mistake named,
/// or each mistake of a family the tests cannot choose between.
pub fn reproduced_by(m: &crate::contract::MistakeReport) -> &'static str {
    if m.candidates.is_empty() {
        "this mistake reproduces"
    } else {
        "each of them reproduces"
    }
}

/// What every format says of a submission whose exploration found a case
/// it answers otherwise than the reference. It names no verdict: the
/// verdict and the score stay the suite's.
pub const FAILS_THIS_GENERATED_CASE: &str = "passes the suite; fails this generated case";

/// The same of a student in a class's list, where the case itself is in
/// the student's own report.
pub const FAILS_A_GENERATED_CASE: &str = "passes the suite; fails a generated case";

/// What exploring found, as its label (what the human report styles) and
/// the rest of its line: how many generated cases all agreed, or which
/// case fails, with a reminder that no verdict or score changes.
pub fn explore_headline(e: &crate::contract::ExploreReport) -> (&'static str, String) {
    match &e.counterexample {
        None => (
            "explored",
            format!(
                ": {} (seed {}, {:.1} s); every one answered as the reference does",
                grading::counted(e.cases, "generated case"),
                e.seed,
                e.budget_ms as f64 / 1000.0
            ),
        ),
        Some(c) => (
            FAILS_THIS_GENERATED_CASE,
            format!(
                " (case {} of seed {}, shrunk; no verdict or score changes)",
                c.index + 1,
                e.seed
            ),
        ),
    }
}

/// [`explore_headline`] as one line, for a format that has room for one
/// (a message, a property, a table's note).
pub fn explore_line(e: &crate::contract::ExploreReport) -> String {
    let (label, rest) = explore_headline(e);
    format!("{label}{rest}")
}

/// The first operation a counterexample answers otherwise, with the
/// reference's answer and the submission's (or what it raised):
/// `operation 1 ["route","k"]: expected "b", yours "a"`.
pub fn explore_difference(c: &crate::contract::Counterexample) -> String {
    let (at, expected, actual) = c.first_difference();
    let op = visible_json(&c.case[1][at]);
    match (&c.raised, actual) {
        (Some(error), None) => format!(
            "operation {at} {op}: expected {}, yours raised {}: {}",
            visible_json(expected),
            error.kind,
            visible(first_line(&error.message))
        ),
        (_, actual) => format!(
            "operation {at} {op}: expected {}, yours {}",
            visible_json(expected),
            actual.map_or_else(|| "gave no answer".to_owned(), visible_json)
        ),
    }
}

/// What exploring found, line by line, as the human report writes it
/// without its styles: the headline, then for a counterexample its case,
/// its first wrong operation and the snippet that shows it (each line
/// after `  | `), every line safe to print.
pub fn explore_lines(e: &crate::contract::ExploreReport) -> Vec<String> {
    let line = explore_line(e);
    let Some(c) = &e.counterexample else {
        return vec![line];
    };
    let mut lines = vec![
        format!("{line}:"),
        format!("  case: {}", visible_json(&c.case)),
        format!("  {}", explore_difference(c)),
    ];
    lines.extend(visible_lines(&c.snippet).map(|l| format!("  | {l}")));
    lines
}

/// A student's exploration in a class's table of students: that a
/// generated case fails them, or how many agreed; empty when none ran
/// (the suite failed them, or `--explore` was not given).
pub fn explore_cell(s: &crate::contract::SubmissionReport) -> String {
    match &s.explore {
        None => String::new(),
        Some(e) if e.counterexample.is_some() => FAILS_A_GENERATED_CASE.to_owned(),
        Some(e) => format!("agrees on {}", grading::counted(e.cases, "generated case")),
    }
}

/// Whether any submission of `report` was explored: a class's table has
/// its column for exploring then only, so that a report without it reads
/// as it always did.
pub fn any_explored(report: &crate::contract::Report) -> bool {
    report.submissions.iter().any(|s| s.explore.is_some())
}

/// How many terminal columns `s` takes (wide CJK characters take two).
pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `line` (text styled with ANSI sequences, no newline) as lines of at
/// most `width` columns, broken at spaces: a word wider than a line alone
/// is broken where it reaches the edge. The lines after the first keep
/// the first's indentation (when it leaves room), and every style
/// sequence stays where it was, taking no column.
pub fn wrap_styled(line: &str, width: usize) -> Vec<String> {
    let width = width.max(1);
    if styled_width(line) <= width {
        return vec![line.to_owned()];
    }
    let body = line.trim_start_matches(' ');
    let indent = line.len() - body.len();
    let indent = if indent * 2 < width { indent } else { 0 };
    let mut lines = Vec::new();
    let mut current = " ".repeat(indent);
    let mut used = indent;
    // Whether `current` holds a word yet (only its indent otherwise).
    let mut started = false;
    for word in body.split(' ') {
        let w = styled_width(word);
        if started && used + 1 + w <= width {
            current.push(' ');
            current.push_str(word);
            used += 1 + w;
            continue;
        }
        if started {
            lines.push(std::mem::replace(&mut current, " ".repeat(indent)));
            used = indent;
        }
        started = true;
        // A word too wide for a line of its own: broken at the edge.
        for (unit, unit_width) in styled_units(word) {
            if used + unit_width > width && used > indent {
                lines.push(std::mem::replace(&mut current, " ".repeat(indent)));
                used = indent;
            }
            current.push_str(unit);
            used += unit_width;
        }
    }
    lines.push(current);
    lines
}

/// The columns `s` takes on a terminal, its style sequences taking none.
pub fn styled_width(s: &str) -> usize {
    styled_units(s).map(|(_, w)| w).sum()
}

/// `s` as its style sequences (no column) and its characters (their
/// columns).
fn styled_units(s: &str) -> impl Iterator<Item = (&str, usize)> {
    let mut rest = s;
    std::iter::from_fn(move || {
        let c = rest.chars().next()?;
        let len = if c == '\x1b' && rest[1..].starts_with('[') {
            // CSI: parameters and intermediates, then a final byte.
            rest[2..]
                .bytes()
                .position(|b| (0x40..=0x7e).contains(&b))
                .map_or(rest.len(), |end| end + 3)
        } else {
            c.len_utf8()
        };
        let (unit, after) = rest.split_at(len);
        rest = after;
        let width = if unit.starts_with('\x1b') {
            0
        } else {
            unicode_width::UnicodeWidthChar::width(c).unwrap_or(0)
        };
        Some((unit, width))
    })
}

/// `s` padded with spaces to `width` columns.
pub fn pad(s: &str, width: usize) -> String {
    format!("{s}{}", " ".repeat(width.saturating_sub(display_width(s))))
}

/// The first `n` items, then how many more.
pub fn abbreviate(items: &[String], n: usize) -> String {
    let head = items.iter().take(n).cloned().collect::<Vec<_>>().join(", ");
    if items.len() > n {
        format!("{head} and {} more", items.len() - n)
    } else {
        head
    }
}

pub fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

pub fn millis(ms: u64) -> String {
    format!("{ms} ms")
}

/// A number a case gives (a node's weight), as it was written: the
/// shortest decimal that reads back as it, whole numbers bare (0.001 is
/// never 0). Points are rounded once: see [`points`].
pub fn number(x: f64) -> String {
    x.to_string()
}

/// How many decimals show every one of `values` (a column of a score
/// table) to the precision that decides a ranking: at least `least`, and
/// more until two different values never look alike and no value but 0
/// looks like 0 (at most 17, past which an f64 has no more to show).
pub fn decimals(values: &[f64], least: usize) -> usize {
    (least..17)
        .find(|&d| {
            let shown: Vec<String> = values.iter().map(|v| format!("{v:.d$}")).collect();
            let zero = format!("{:.d$}", 0.0);
            values
                .iter()
                .zip(&shown)
                .all(|(v, s)| *v == 0.0 || *s != zero)
                && values.iter().zip(&shown).enumerate().all(|(i, (a, sa))| {
                    values[i + 1..]
                        .iter()
                        .zip(&shown[i + 1..])
                        .all(|(b, sb)| a == b || sa != sb)
                })
        })
        .unwrap_or(17)
}

/// Points for people: `units` of 1/`denominator` of a point, rounded
/// once (half up) to two decimals from the exact value, whole numbers bare.
pub fn points(units: u64, denominator: u64) -> String {
    let denominator = u128::from(denominator.max(1));
    let hundredths = (u128::from(units) * 200 + denominator) / (2 * denominator);
    match hundredths % 100 {
        0 => format!("{}", hundredths / 100),
        cents => format!("{}.{cents:02}", hundredths / 100),
    }
}

/// A score for people: what `points` earned, rounded once, or "not
/// graded" for what was never judged.
pub fn earned(points: &super::Points) -> String {
    match points.earned {
        Some(earned) => self::points(earned, points.denominator),
        None => NOT_GRADED.to_owned(),
    }
}

/// "score 45 of 100", or for what was never judged "not graded (100
/// possible)": the score in words, never a 0 for a `grader-fault`.
pub fn score_of(points: &super::Points) -> String {
    match points.earned {
        Some(_) => format!("score {} of {}", earned(points), possible(points)),
        None => format!("{NOT_GRADED} ({} possible)", possible(points)),
    }
}

/// What a format says in place of the score of a `grader-fault`.
pub const NOT_GRADED: &str = "not graded";

/// A maximum score for people: what `points` could earn, rounded once.
pub fn possible(points: &super::Points) -> String {
    self::points(points.total, points.denominator)
}

/// `words` as a POSIX shell command line to copy: each word bare when
/// made of safe characters, else in single quotes, and shown as learner
/// text is (a path is the learner's).
pub fn shell_command(words: &[String]) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_-./:=@%+,".contains(c);
    words
        .iter()
        .map(|w| {
            if !w.is_empty() && w.chars().all(safe) {
                w.clone()
            } else {
                visible(&format!("'{}'", w.replace('\'', "'\\''")))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The wrong steps of a learner's h32 in words, as every format says them:
/// "the step that is wrong: ..." or, for steps wrong together, "the steps
/// that are wrong together: ...; ...".
pub fn hash_steps(step: &crate::contract::HashStep) -> String {
    match step.also.as_slice() {
        [] => format!("the step that is wrong: {}", step.step),
        also => {
            let mut steps = vec![step.step.as_str()];
            steps.extend(also.iter().map(|w| w.step.as_str()));
            format!("the steps that are wrong together: {}", steps.join("; "))
        }
    }
}

/// A moment in UTC, to the second, as a calendar writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Utc {
    /// The year, e.g. 2026.
    pub year: i64,
    /// The month, 1 to 12.
    pub month: i64,
    /// The day of the month, from 1.
    pub day: i64,
    /// The hour, 0 to 23.
    pub hour: u64,
    /// The minute, 0 to 59.
    pub minute: u64,
    /// The second, 0 to 59.
    pub second: u64,
}

impl Utc {
    /// The moment `secs` seconds after the Unix epoch.
    pub fn of_secs(secs: u64) -> Utc {
        let (days, rest) = ((secs / 86_400) as i64, secs % 86_400);
        // Howard Hinnant's civil_from_days.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = doy - (153 * mp + 2) / 5 + 1;
        let month = if mp < 10 { mp + 3 } else { mp - 9 };
        Utc {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: rest / 3600,
            minute: rest % 3600 / 60,
            second: rest % 60,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_weight_is_shown_as_written_and_scores_as_far_as_they_differ() {
        assert_eq!(number(0.001), "0.001");
        assert_eq!(number(2.0), "2");
        assert_eq!(number(1.25), "1.25");
        // Six decimals tell these apart; two that agree to the sixth need
        // more, and a tiny score is never shown as 0.
        assert_eq!(decimals(&[44.139814, 19.620749], 6), 6);
        assert_eq!(decimals(&[1.000_000_1, 1.000_000_2], 6), 7);
        assert_eq!(decimals(&[0.000_000_04, 1.0], 6), 8);
        assert_eq!(decimals(&[3.0, 3.0, 0.0], 6), 6);
    }

    #[test]
    fn lines_wrap_at_spaces_keeping_their_indent_and_styles() {
        assert_eq!(wrap_styled("short", 10), ["short"]);
        assert_eq!(
            wrap_styled("  one two three four", 12),
            ["  one two", "  three four"]
        );
        // Styles take no column and stay where they were.
        let bold = "\x1b[1mone\x1b[0m two three";
        assert_eq!(wrap_styled(bold, 9), ["\x1b[1mone\x1b[0m two", "three"]);
        assert_eq!(styled_width(bold), 13);
        // A word wider than a line is broken at the edge; wide characters
        // count two columns.
        assert_eq!(wrap_styled("abcdefgh ij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap_styled("ノードノード", 6), ["ノード", "ノード"]);
    }

    #[test]
    fn points_are_rounded_once_from_the_exact_value() {
        assert_eq!(points(270, 9), "30");
        assert_eq!(points(120, 9), "13.33");
        assert_eq!(points(150, 9), "16.67");
        assert_eq!(points(1, 8), "0.13");
        assert_eq!(points(2, 3), "0.67");
        assert_eq!(points(0, 7), "0");
        assert_eq!(points(21, 10), "2.10");
        // 1/200 is exactly half a hundredth: up, as a float's rounding
        // of 0.005 (stored as 0.00499...) would not.
        assert_eq!(points(1, 200), "0.01");
        assert_eq!(points(u64::MAX, 1), u64::MAX.to_string());
    }

    #[test]
    fn a_command_to_copy_reads_back_as_the_same_words() {
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            shell_command(&words(&["grader", "grade", "--all", "a/router.py"])),
            "grader grade --all a/router.py"
        );
        assert_eq!(
            shell_command(&words(&["grader", "my file.py", "it's", ""])),
            "grader 'my file.py' 'it'\\''s' ''"
        );
        // A newline in a name is shown, not written.
        assert_eq!(shell_command(&words(&["a\nb"])), "'a\\nb'");
    }

    #[test]
    fn what_exploring_found_is_said_in_one_set_of_words() {
        let found = crate::sample::exploration(true);
        assert_eq!(
            explore_lines(&found),
            [
                "passes the suite; fails this generated case (case 7 of seed 7, shrunk; no verdict or score changes):",
                "  case: [[[\"a\",\"b\",\"c\"]],[[\"route\",\"k\"],[\"route\",\" <k>&\"]]]",
                "  operation 1 [\"route\",\" <k>&\"]: expected \"c\", yours \"a\"",
                "  | from router import Router",
                "  | r = Router([\"a\", \"b\", \"c\"])",
                "  | assert r.route(\" <k>&\") == \"c\"",
            ]
        );
        let none = crate::sample::exploration(false);
        assert_eq!(
            explore_lines(&none),
            [
                "explored: 412 generated cases (seed 7, 10.0 s); every one answered as the reference does"
            ]
        );
        let mut s = crate::sample::accepted().submissions.remove(0);
        assert_eq!(explore_cell(&s), "");
        s.explore = Some(none);
        assert_eq!(explore_cell(&s), "agrees on 412 generated cases");
        s.explore = Some(found);
        assert_eq!(explore_cell(&s), FAILS_A_GENERATED_CASE);
    }

    #[test]
    fn a_case_the_code_raised_on_says_what_it_raised() {
        let mut e = crate::sample::exploration(true);
        let c = e.counterexample.as_mut().unwrap();
        c.actual.truncate(1);
        c.raised = Some(
            serde_json::from_value(serde_json::json!({
                "type": "KeyError", "message": "' <k>&'\nmore", "traceback": "", "op_index": 1
            }))
            .unwrap(),
        );
        assert_eq!(
            explore_difference(c),
            "operation 1 [\"route\",\" <k>&\"]: expected \"c\", yours raised KeyError: ' <k>&'"
        );
    }
}
