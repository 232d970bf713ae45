//! The one line diff of the grader: Patience, with a time bound, grouped
//! with context, changes within a line marked. Renderers style its lines;
//! [`answers_diff`] writes them plain.

use serde_json::Value;
use similar::{Algorithm, ChangeTag, TextDiff};
use std::time::Duration;

/// One line of a diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffLine {
    pub tag: ChangeTag,
    /// The line's text in parts, `true` where it changed within the line;
    /// without its line break.
    pub parts: Vec<(bool, String)>,
}

impl DiffLine {
    /// `-`, `+` or a space.
    pub fn sign(&self) -> char {
        match self.tag {
            ChangeTag::Delete => '-',
            ChangeTag::Insert => '+',
            ChangeTag::Equal => ' ',
        }
    }

    /// The whole line, without its line break.
    pub fn text(&self) -> String {
        self.parts.iter().map(|(_, t)| t.as_str()).collect()
    }
}

/// The groups of changes from `old` to `new` (texts of whole lines), each
/// with `context` unchanged lines around it.
pub fn line_diff(old: &str, new: &str, context: usize) -> Vec<Vec<DiffLine>> {
    let diff = TextDiff::configure()
        .algorithm(Algorithm::Patience)
        .timeout(Duration::from_millis(500))
        .diff_lines(old, new);
    diff.grouped_ops(context)
        .iter()
        .map(|group| {
            group
                .iter()
                .flat_map(|op| diff.iter_inline_changes(op))
                .map(|change| DiffLine {
                    tag: change.tag(),
                    parts: change
                        .iter_strings_lossy()
                        .map(|(emphasized, text)| {
                            (emphasized, text.trim_end_matches('\n').to_owned())
                        })
                        .filter(|(_, text)| !text.is_empty())
                        .collect(),
                })
                .collect()
        })
        .collect()
}

/// A plain diff of two lists of answers, one numbered answer per line.
pub fn answers_diff(old: &[Value], new: &[Value]) -> String {
    let lines = |v: &[Value]| {
        v.iter()
            .enumerate()
            .map(|(i, x)| format!("{i:>5}: {x}\n"))
            .collect::<String>()
    };
    let mut out = String::new();
    for (i, group) in line_diff(&lines(old), &lines(new), 2).iter().enumerate() {
        // Unchanged answers lie between two groups.
        if i > 0 {
            out.push_str("  ...\n");
        }
        for line in group {
            out.push(line.sign());
            out.push_str(&line.text());
            out.push('\n');
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_is_marked_within_and_grouped_with_context() {
        let old = "a\nb\nc\nd\ne\nf\n";
        let new = "a\nb\nc\nD\ne\nf\n";
        let groups = line_diff(old, new, 1);
        assert_eq!(groups.len(), 1);
        let lines: Vec<String> = groups[0]
            .iter()
            .map(|l| format!("{}{}", l.sign(), l.text()))
            .collect();
        assert_eq!(lines, [" c", "-d", "+D", " e"]);
        assert_eq!(groups[0][1].parts, [(true, "d".to_owned())]);
    }

    #[test]
    fn a_blessed_change_shows_the_answers_that_differ_with_context() {
        let old: Vec<Value> = ["a", "b", "c", "d", "e", "f"].map(Value::from).to_vec();
        let mut new = old.clone();
        new[3] = Value::from("x");
        assert_eq!(
            answers_diff(&old, &new),
            "     1: \"b\"\n     2: \"c\"\n-    3: \"d\"\n+    3: \"x\"\n     4: \"e\"\n     5: \"f\"\n"
        );
        // Two changes far apart: two groups, the answers between elided.
        let long: Vec<Value> = (0..20).map(Value::from).collect();
        let mut changed = long.clone();
        changed[1] = Value::from("one");
        changed[18] = Value::from("eighteen");
        let diff = answers_diff(&long, &changed);
        assert_eq!(diff.matches("  ...\n").count(), 1, "{diff}");
        assert!(!diff.ends_with("  ...\n"), "{diff}");
    }
}
