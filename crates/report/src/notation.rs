//! The one notation of learner text and values in every report: strings
//! with their invisible characters shown, values as JSON, nothing a CI
//! runner reads as a command. The contract's words and every renderer
//! write through it; it depends on nothing of the report.

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

#[cfg(test)]
mod tests {
    use super::*;

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
