//! How long a reply may be: the grader reads a submission's reply only as
//! far as anything the request can legitimately be answered with, so that
//! its own memory is bounded by the case, not by what the child sends.

use crate::challenge::Case;
pub use crate::protocol::Answering;
use reference::{Arg, Effect, Returns};
use serde_json::Value;

/// Bytes a learner's error object (type, message, traceback, line, ...)
/// may take in a reply. The grader's drivers cut a message and a traceback
/// to [`ERROR_TEXT_CHARS`] characters each, which even escaped character
/// by character stays well within it.
pub const ERROR_ROOM: usize = 256 << 10;
/// Characters of an error's message and of its traceback the drivers keep.
const ERROR_TEXT_CHARS: usize = 8192;
/// Bytes of a JSON string's escaping at worst, per byte of the string: a
/// control character written `\u0001`.
const ESCAPED: usize = 6;
// A message and a traceback at the drivers' cap, every character a control
// character escaped (six bytes, more than any UTF-8 character's four),
// leave room in ERROR_ROOM for the rest of the error object.
const _: () = assert!(2 * ERROR_TEXT_CHARS * ESCAPED <= ERROR_ROOM / 2);
/// Room for an answer of any scalar shape (`null`, a count, a float in
/// exponent form) where another was due: a wrong answer, not a protocol
/// error.
const SCALAR: usize = 32;
/// Room for the envelope: `{"id": N, "output": [...], "error": ...}`.
const ENVELOPE: usize = 128;

/// The most a reply line may hold: bytes, and JSON values (the count
/// bounds what parsing it costs, whatever its shape).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplyBound {
    pub bytes: usize,
    pub values: usize,
    /// What the reply answers, for messages.
    pub what: Answering,
}

impl ReplyBound {
    /// The first message: a hello (with its list of methods) or a load
    /// error.
    pub const START: ReplyBound = ReplyBound {
        bytes: 1 << 20,
        values: 1 << 16,
        what: Answering::Start,
    };

    /// The longest reply `case` can have: for each operation, its longest
    /// answer of the type it returns made of the case's own names (every
    /// string escaped at worst), or the reference's answer so escaped if
    /// longer, plus room for the envelope and an error.
    pub fn for_case(case: &Case) -> ReplyBound {
        // Every name that can be a node (the constructor's, and those
        // added), and the longest string of the case, node or key.
        let mut names: Vec<&str> = Vec::new();
        let mut longest = 0;
        for arg in &case.args {
            strings(arg, &mut names);
        }
        for op in &case.ops {
            let mut operands = Vec::new();
            for a in &op.operands {
                strings(a, &mut operands);
            }
            longest = operands.iter().map(|s| s.len()).fold(longest, usize::max);
            if op.signature.effect == Effect::Adds
                && let Some(first) = operands.first()
            {
                names.push(first);
            }
        }
        longest = names.iter().map(|s| s.len()).fold(longest, usize::max);
        names.sort_unstable();
        names.dedup();
        let distinct = names.len();
        let string = 2 + ESCAPED * longest;
        let (mut bytes, mut values): (usize, usize) = (ENVELOPE + ERROR_ROOM, 64);
        for (i, op) in case.ops.iter().enumerate() {
            let asked = op.operands.iter().find_map(|a| match a {
                Arg::Count(n) => Some(usize::try_from(*n).unwrap_or(usize::MAX)),
                _ => None,
            });
            let (answer, answer_values) = match op.signature.returns {
                Returns::Nothing | Returns::Count => (SCALAR, 1),
                Returns::MaybeName => (string.max(SCALAR), 1),
                Returns::Names => {
                    let n = asked.map_or(distinct, |n| n.min(distinct));
                    (2 + n * (string + 2), 1 + n)
                }
                Returns::Loads => (2 + distinct * (string + SCALAR + 6), 1 + 3 * distinct),
            };
            let reference = case.expected.get(i).map_or(0, escaped_len);
            // A separator, and a wrong answer one level deeper than due.
            bytes = bytes.saturating_add(answer.max(reference) + 2);
            values = values.saturating_add(answer_values + 3);
        }
        ReplyBound {
            bytes,
            values,
            what: Answering::Case {
                ops: case.ops.len(),
            },
        }
    }

    /// The longest reply to an h32 request for `texts`: a 32-bit integer
    /// each, or for a wrong one any scalar or a text given back.
    pub fn for_hash(texts: &[String]) -> ReplyBound {
        let longest = texts.iter().map(String::len).max().unwrap_or(0);
        let each = (2 + ESCAPED * longest).max(SCALAR) + 2;
        ReplyBound {
            bytes: ENVELOPE + ERROR_ROOM + texts.len().saturating_mul(each),
            values: 64 + 2 * texts.len(),
            what: Answering::Hash { texts: texts.len() },
        }
    }
}

/// The strings in `arg`.
fn strings<'a>(arg: &'a Arg, out: &mut Vec<&'a str>) {
    match arg {
        Arg::Name(s) => out.push(s),
        Arg::Names(names) => out.extend(names.iter().map(String::as_str)),
        Arg::WeightedNames(pairs) => out.extend(pairs.iter().map(|(s, _)| s.as_str())),
        Arg::Count(_) | Arg::Weight(_) => {}
    }
}

/// `value`'s length in JSON with every string escaped at worst.
fn escaped_len(value: &Value) -> usize {
    match value {
        Value::String(s) => 2 + ESCAPED * s.len(),
        Value::Array(items) => 2 + items.iter().map(|v| escaped_len(v) + 2).sum::<usize>(),
        Value::Object(map) => {
            2 + map
                .iter()
                .map(|(k, v)| 2 + ESCAPED * k.len() + 2 + escaped_len(v) + 2)
                .sum::<usize>()
        }
        other => other.to_string().len().max(SCALAR),
    }
}

/// An upper bound on the JSON values (keys counted) in `line`, in one pass
/// over its bytes: every value but the first follows a comma, a colon or
/// an opening bracket outside a string.
pub fn values_in(line: &[u8]) -> usize {
    let (mut count, mut in_string, mut escaped) = (1, false, false);
    for &b in line {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b':' | b'[' | b'{' => count += 1,
                _ => {}
            }
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_counted_outside_strings_only() {
        let line = br#"{"id": 1, "output": ["a,b", [1, 2], "c\"[,"]}"#;
        let parsed: Value = serde_json::from_slice(line).unwrap();
        fn count(v: &Value) -> usize {
            match v {
                Value::Array(a) => 1 + a.iter().map(count).sum::<usize>(),
                Value::Object(m) => 1 + m.iter().map(|(_, v)| 1 + count(v)).sum::<usize>(),
                _ => 1,
            }
        }
        let real = count(&parsed);
        let bound = values_in(line);
        assert!(bound >= real, "{bound} < {real}");
        assert!(bound <= real + 3, "{bound} is loose for {real}");
    }
}
