//! Text for people, shared by every renderer: strings with their
//! invisible characters shown, columns padded by display width, lists
//! abbreviated, scores rounded.

use serde_json::Value;

/// A JSON value with invisible characters made visible.
pub fn visible_json(value: &Value) -> String {
    match value {
        Value::String(s) => visible_str(s),
        other => other.to_string(),
    }
}

/// A quoted string with control, format and other invisible characters
/// written as `\u{...}` so that two different strings never look alike.
pub fn visible_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || c.is_whitespace() && c != ' '
                || matches!(c, '\u{200b}'..='\u{200f}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{ad}') =>
            {
                out.push_str(&format!("\\u{{{:04x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// How many terminal columns `s` takes (wide CJK characters take two).
pub fn display_width(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
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

/// A score for people: whole numbers bare, others to two decimals.
pub fn number(x: f64) -> String {
    let rounded = (x * 100.0).round() / 100.0;
    if rounded.fract() == 0.0 {
        format!("{rounded:.0}")
    } else {
        format!("{rounded:.2}")
    }
}
