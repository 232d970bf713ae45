//! Text for people, shared by every renderer: strings with their
//! invisible characters shown, columns padded by display width, lists
//! abbreviated, points rounded once.

use serde_json::Value;

/// A JSON value with invisible characters made visible: strings quoted as
/// [`visible_str`] writes them, at any depth.
pub fn visible_json(value: &Value) -> String {
    match value {
        Value::String(s) => visible_str(s),
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(visible_json).collect();
            format!("[{}]", items.join(","))
        }
        Value::Object(map) => {
            let fields: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}:{}", visible_str(k), visible_json(v)))
                .collect();
            format!("{{{}}}", fields.join(","))
        }
        other => other.to_string(),
    }
}

/// A value a submission's h32 returned: an integer as it is; a string,
/// which a driver sends for anything else (a float, a JavaScript BigInt,
/// a Python int past 128 bits), as the submission's language writes it,
/// so without JSON's quotes (`2872998923n`, `1.5e+28`); anything else as
/// JSON.
pub fn h32_value(value: &Value) -> String {
    match value {
        Value::String(literal) => visible(literal),
        other => visible_json(other),
    }
}

/// Said after a learner's h32 value that is the pinned one in another
/// type ([`crate::contract::HashMismatch::same_value_other_type`]).
pub const SAME_VALUE_OTHER_TYPE: &str =
    ": the right value, but not an integer: h32 must return a plain integer";

/// A quoted string as a JSON string literal that reads back as `s`: what
/// cannot be seen (see [`visible`]) written as JSON's `\uXXXX` escapes (a
/// character beyond the BMP as its surrogate pair), `"` and `\` escaped,
/// and every `##[` written `##\u005b`. Answers and values are JSON, so a
/// report shows them in JSON's one notation, never another language's
/// escapes inside JSON's quotes.
pub fn visible_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    escape_into(&mut out, s, true);
    out.push('"');
    out
}

/// `s` on one line, for a place that shows a message as one: its lines
/// trimmed and joined, `; ` between two, a space after one that ends in
/// `:` (a list of problems after its heading).
pub fn one_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for line in s.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        out.push_str(line);
    }
    out
}

/// Learner-controlled text (a message, a traceback line, a line the code
/// printed, a file name) made safe to print on one line of a report, in
/// a terminal or a CI log:
/// - every character that cannot be seen or that moves the cursor (C0 and
///   C1 controls, CR, form feed, ESC and so ANSI sequences, bidi overrides
///   and isolates, zero-width characters) is written in one notation:
///   `\n`, `\r`, `\t`, else `\u{...}`;
/// - nothing in it can be read by a CI runner as a command: GitHub's
///   runner takes a line that starts with `::` (after leading spaces) as a
///   workflow command and `##[` anywhere as a legacy one, so a leading `::`
///   is written `\u{003a}:` and every `##[` as `##\u{005b}`; GitLab's
///   runner takes `section_start:<ts>:<name>` or `section_end:...` then a
///   CR and `ESC[0K` as a log section's marker, which the CR and ESC
///   shown already break, and a line that starts with either word has its
///   `s` written `\u{0073}`.
///
/// Printed this way, learner text never ends the line it is on nor
/// changes what the terminal shows of the grader's own.
pub fn visible(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s, false);
    let start = out.trim_start();
    let indent = &out[..out.len() - start.len()];
    // The first character of a word a runner reads at the start of a
    // line, written in the notation.
    if let Some(rest) = start.strip_prefix("::") {
        format!("{indent}\\u{{003a}}:{rest}")
    } else if ["section_start:", "section_end:"]
        .iter()
        .any(|word| start.starts_with(word))
    {
        format!("{indent}\\u{{0073}}{}", &start[1..])
    } else {
        out
    }
}

/// The lines of learner-controlled `text`, each made [`visible`]: only a
/// newline (`\n`, or `\r\n`) ends a line; a lone CR is shown.
pub fn visible_lines(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().map(visible)
}

/// `value` as pretty JSON that is safe in a terminal and a CI log, and the
/// same value for every JSON reader: what a terminal would obey (DEL, C1
/// controls, bidi overrides, zero-width characters; serde_json already
/// escapes C0) and the `[` of every `##[` (GitHub's legacy command form,
/// read anywhere in a line) are written as `\uXXXX` escapes.
pub fn safe_json<T: serde::Serialize + ?Sized>(
    value: &T,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    out.write_all(safe_json_text(&text).as_bytes())
}

/// Compact JSON of `value`, made safe as [`safe_json`] makes it.
pub fn safe_json_compact<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    Ok(safe_json_text(&serde_json::to_string(value)?))
}

/// JSON text with what a terminal or a runner would obey written as
/// `\uXXXX` escapes (a character beyond the BMP as its surrogate pair).
fn safe_json_text(text: &str) -> String {
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        if (hidden(c) && !matches!(c, '\n' | ' ')) || (c == '[' && safe.ends_with("##")) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                safe.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            safe.push(c);
        }
    }
    safe
}

/// Whether `c` is invisible, moves the cursor or reorders text: controls,
/// whitespace other than the space, every format character (Unicode's
/// `Cf`: bidi controls, zero-width characters, tags...), the other
/// characters that show nothing (the grapheme joiner, Hangul fillers,
/// variation selectors) and noncharacters.
fn hidden(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || (c as u32 & 0xfffe) == 0xfffe
        || matches!(c,
            '\u{ad}'
            | '\u{34f}'
            | '\u{600}'..='\u{605}'
            | '\u{61c}'
            | '\u{6dd}'
            | '\u{70f}'
            | '\u{890}'..='\u{891}'
            | '\u{8e2}'
            | '\u{115f}'..='\u{1160}'
            | '\u{17b4}'..='\u{17b5}'
            | '\u{180b}'..='\u{180f}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{206f}'
            | '\u{3164}'
            | '\u{fdd0}'..='\u{fdef}'
            | '\u{fe00}'..='\u{fe0f}'
            | '\u{feff}'
            | '\u{ffa0}'
            | '\u{fff9}'..='\u{fffb}'
            | '\u{110bd}'
            | '\u{110cd}'
            | '\u{13430}'..='\u{1343f}'
            | '\u{1bca0}'..='\u{1bca3}'
            | '\u{1d173}'..='\u{1d17a}'
            | '\u{e0000}'..='\u{e0fff}')
}

/// `s` with what cannot be seen escaped: in JSON's notation when `quoted`
/// (a JSON string literal's inside), else as `\u{...}`.
fn escape_into(out: &mut String, s: &str, quoted: bool) {
    let code = |out: &mut String, c: char| {
        if quoted {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push_str(&format!("\\u{{{:04x}}}", c as u32));
        }
    };
    for c in s.chars() {
        match c {
            '"' if quoted => out.push_str("\\\""),
            '\\' if quoted => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if hidden(c) => code(out, c),
            // GitHub's legacy command form is read anywhere in a line.
            '[' if out.ends_with("##") => code(out, c),
            c => out.push(c),
        }
    }
}

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
    fn a_list_of_problems_is_put_on_one_line() {
        let listed = "2 problems in the tests; nothing was graded:\n    a.json:1:2: bad\n    b.json: worse\n";
        assert_eq!(
            one_line(listed),
            "2 problems in the tests; nothing was graded: a.json:1:2: bad; b.json: worse"
        );
        assert_eq!(one_line("one"), "one");
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
    fn learner_text_can_neither_start_a_command_nor_move_the_cursor() {
        assert_eq!(visible("  ::add-mask::x"), "  \\u{003a}:add-mask::x");
        assert_eq!(visible("a ##[group]b"), "a ##\\u{005b}group]b");
        // GitLab's section markers: the CR and ESC shown, and the word at
        // the start of a line written so that it is not the marker's.
        assert_eq!(
            visible("section_start:1:x\r\u{1b}[0Kevil"),
            "\\u{0073}ection_start:1:x\\r\\u{001b}[0Kevil"
        );
        assert_eq!(visible("  section_end:1:x"), "  \\u{0073}ection_end:1:x");
        assert_eq!(visible("a section_end:1:x"), "a section_end:1:x");
        assert_eq!(visible("sections"), "sections");
        assert_eq!(
            visible("a\rb\u{1b}[31m\u{202e}\u{c}"),
            "a\\rb\\u{001b}[31m\\u{202e}\\u{000c}"
        );
        // Only a newline ends a line; a lone CR is shown.
        assert_eq!(
            visible_lines("x\r\ny\rz\n").collect::<Vec<_>>(),
            ["x", "y\\rz"]
        );
        // Quoted, JSON's notation, and quotes and backslashes escaped.
        assert_eq!(visible_str("a\"\\\r"), "\"a\\\"\\\\\\r\"");
        assert_eq!(visible_str("\u{1b}[0m"), "\"\\u001b[0m\"");
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
    fn quoted_learner_text_holds_no_legacy_command() {
        // An answer or a value is shown quoted: its `##[` too is written
        // so that no runner reads it.
        assert_eq!(visible_str("x ##[group]y"), "\"x ##\\u005bgroup]y\"");
        assert_eq!(
            visible_json(&serde_json::json!(["##[error]", {"##[k": 1}])),
            "[\"##\\u005berror]\",{\"##\\u005bk\":1}]"
        );
        assert_eq!(visible("###[ ##["), "###\\u{005b} ##\\u{005b}");
    }

    #[test]
    fn every_invisible_character_is_shown() {
        // Format characters beyond the bidi and zero-width ones (Arabic
        // number sign, Mongolian vowel separator, deprecated format
        // controls, musical format characters, tags), characters that show
        // nothing, variation selectors and noncharacters.
        for c in [
            '\u{600}',
            '\u{180e}',
            '\u{206a}',
            '\u{206f}',
            '\u{1d173}',
            '\u{e0001}',
            '\u{e0041}',
            '\u{e007f}',
            '\u{34f}',
            '\u{3164}',
            '\u{115f}',
            '\u{ffa0}',
            '\u{fe0f}',
            '\u{e0100}',
            '\u{fffe}',
            '\u{ffff}',
            '\u{fdd0}',
            '\u{10ffff}',
        ] {
            let shown = visible(&format!("a{c}b"));
            assert_eq!(shown, format!("a\\u{{{:04x}}}b", c as u32));
            // Quoted, an answer reads back as itself, as JSON, and shows
            // nothing hidden.
            let quoted = visible_str(&format!("a{c}b"));
            assert!(!quoted.contains(c), "{quoted}");
            assert_eq!(
                serde_json::from_str::<String>(&quoted).unwrap(),
                format!("a{c}b")
            );
            let mut out = Vec::new();
            safe_json(&format!("a{c}b"), &mut out).unwrap();
            let text = String::from_utf8(out).unwrap();
            assert!(!text.contains(c), "{text}");
            assert_eq!(
                serde_json::from_str::<String>(&text).unwrap(),
                format!("a{c}b")
            );
        }
        // What people read stays as it was.
        assert_eq!(visible("日本 é 🙂 ½"), "日本 é 🙂 ½");
    }

    #[test]
    fn safe_json_is_the_same_value_with_nothing_a_terminal_or_runner_obeys() {
        let value = serde_json::json!({"m": "##[set-output] \u{202e}rtl \u{7f} \u{85} ok"});
        let mut out = Vec::new();
        safe_json(&value, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(!text.contains("##["), "{text}");
        assert!(!text.contains(['\u{202e}', '\u{7f}', '\u{85}']), "{text}");
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }
}
