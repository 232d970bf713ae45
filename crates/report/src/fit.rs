//! A platform's results file within its size limit, measured on the bytes
//! written, whatever the learner's code printed and however many tests
//! there are: every test is listed, and the texts (the human report, each
//! failing test's message and output) share what room is left.
//! PrairieLearn's and Gradescope's results are fitted here alike.

use serde_json::Value;
use std::io;

/// The most bytes a results file takes: under PrairieLearn's 1 MB however
/// a megabyte is counted, with a margin. Gradescope documents no limit,
/// and takes the same.
pub(crate) const LIMIT: usize = 1_000_000 - 1024;
/// The most output one test carries before the sharing out, so that one
/// chatty test cannot crowd out the others.
pub(crate) const TEST_OUTPUT: usize = 8 * 1024;
/// The most of one line of learner text (a test's message, the reason a
/// module did not load) carried before the sharing out.
pub(crate) const LINE: usize = 1024;

/// The human report of `report` as plain text: what the audience's
/// terminal would show (as `options` ask), without its colours.
/// The human report as a student reads it on a platform, in plain text:
/// without the set-up lines (the containment in force and the folders
/// the challenges and tests came from), which are the instructors'
/// business and in the results' other fields where the format has them.
pub(crate) fn learner_text(report: &super::Report) -> io::Result<String> {
    human_text(report, &learner_options())
}

/// The options of the human report a student reads on a platform.
pub fn learner_options() -> super::HumanOptions {
    super::HumanOptions {
        without_setup: true,
        ..Default::default()
    }
}

pub(crate) fn human_text(
    report: &super::Report,
    options: &super::HumanOptions,
) -> io::Result<String> {
    let mut human = Vec::new();
    super::render_human_with(report, options, &mut human)?;
    Ok(anstream::adapter::strip_str(&String::from_utf8_lossy(&human)).to_string())
}

/// How a results file is laid out: pretty for a person who opens it,
/// unless the layout itself would take the room the texts need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Pretty,
    Compact,
}

/// The bytes written for `value`, a line of safe JSON.
pub(crate) fn written(value: &Value, layout: Layout) -> io::Result<Vec<u8>> {
    let mut bytes = match layout {
        Layout::Pretty => {
            let mut bytes = Vec::new();
            super::text::safe_json(value, &mut bytes)?;
            bytes
        }
        Layout::Compact => super::text::safe_json_compact(value)?.into_bytes(),
    };
    bytes.push(b'\n');
    Ok(bytes)
}

/// Where a text of the results sits in the value.
#[derive(Debug, Clone)]
pub(crate) enum Slot {
    /// A field of the results themselves (their `output`).
    Field(&'static str),
    /// A one-line field of test `i`, after a prefix kept whole (its
    /// verdict); cut with an ellipsis.
    TestLine(usize, &'static str, String),
    /// A field of test `i` (its output).
    TestText(usize, &'static str),
}

/// `value` with the texts in their slots, cut so that the file written is
/// at most `limit` bytes, and its layout. `why` names the limit in the
/// note of a text cut for it. When the tests are too many to list even
/// without their texts, the list goes and `unlisted` is told how many
/// there were, to say so in the value or in its texts.
pub(crate) fn fit(
    mut value: Value,
    mut texts: Vec<(Slot, String)>,
    limit: usize,
    why: &str,
    unlisted: impl FnOnce(&mut Value, &mut [(Slot, String)], usize),
) -> (Value, Layout) {
    let pretty = written(&value, Layout::Pretty).map_or(usize::MAX, |b| b.len());
    // The layout's indentation grows with the tests, not with the texts.
    let layout = if pretty > limit / 4 {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    let mut bare = written(&value, layout).map_or(usize::MAX, |b| b.len());
    if bare > limit {
        // Too many tests to list even without their texts: the score
        // stands, the list goes, and the results say so.
        let tests = value["tests"].as_array().map_or(0, Vec::len);
        value["tests"] = Value::Array(Vec::new());
        texts.retain(|(slot, _)| matches!(slot, Slot::Field(_)));
        unlisted(&mut value, &mut texts, tests);
        bare = written(&value, layout).map_or(usize::MAX, |b| b.len());
    }
    let sizes: Vec<usize> = texts.iter().map(|(_, t)| escaped(t)).collect();
    let mut room = limit.saturating_sub(bare);
    loop {
        let shares = share(&sizes, room);
        for ((slot, text), (&size, &share)) in texts.iter().zip(sizes.iter().zip(&shares)) {
            let text = if size <= share {
                text.clone()
            } else {
                // A line stays one line.
                let why = match slot {
                    Slot::TestLine(..) => None,
                    _ => Some(why),
                };
                cut_escaped(text, share, why)
            };
            put(&mut value, slot, text);
        }
        let size = written(&value, layout).map_or(usize::MAX, |b| b.len());
        // Sizes add up exactly, so this is a guard, not a search.
        if size <= limit || room == 0 {
            return (value, layout);
        }
        room = room.saturating_sub(size - limit + 64);
    }
}

/// Puts `text` in its slot of `value`, a line after its prefix.
fn put(value: &mut Value, slot: &Slot, text: String) {
    match slot {
        Slot::Field(key) => value[*key] = Value::String(text),
        Slot::TestLine(i, key, prefix) => {
            value["tests"][*i][*key] = Value::String(format!("{prefix}{text}"));
        }
        Slot::TestText(i, key) => value["tests"][*i][*key] = Value::String(text),
    }
}

/// How `room` bytes are shared among texts of these escaped sizes: the
/// human output (the first) is promised half of it, the tests share the
/// rest alike (a text smaller than the share keeps all of it, and leaves
/// what it does not use to the others), and what the tests leave is the
/// human output's.
fn share(sizes: &[usize], room: usize) -> Vec<usize> {
    let Some((&human, tests)) = sizes.split_first() else {
        return Vec::new();
    };
    if sizes
        .iter()
        .fold(0usize, |sum, &size| sum.saturating_add(size))
        <= room
    {
        return sizes.to_vec();
    }
    let promised = human.min(room / 2);
    let cap = level(tests, room - promised);
    let used: usize = tests.iter().map(|&t| t.min(cap)).sum();
    let mut shares = vec![human.min(room - used)];
    shares.extend(tests.iter().map(|&t| t.min(cap)));
    shares
}

/// The largest `cap` with `sum(min(size, cap)) <= room`.
fn level(sizes: &[usize], room: usize) -> usize {
    let mut sorted = sizes.to_vec();
    sorted.sort_unstable();
    let mut left = room;
    for (i, &size) in sorted.iter().enumerate() {
        let rest = sorted.len() - i;
        if size.saturating_mul(rest) > left {
            return left / rest;
        }
        left -= size;
    }
    usize::MAX
}

/// The bytes `text` takes in the file, its quotes aside: escapes make it
/// longer than its UTF-8 (the layout does not change a string).
pub(crate) fn escaped(text: &str) -> usize {
    super::text::safe_json_compact(text).map_or(usize::MAX, |s| s.len() - 2)
}

/// `text` within `bytes` bytes of the file, cut at a character boundary
/// with a note saying how much was kept (`why` it was cut, or for a line,
/// an ellipsis); empty when not even an ellipsis fits.
fn cut_escaped(text: &str, bytes: usize, why: Option<&str>) -> String {
    let note = |end: usize| match why {
        Some(why) => format!("\n… (cut at {end} of {} bytes, for {why})\n", text.len()),
        None => "…".to_owned(),
    };
    let long = |end: usize| escaped(&text[..end]) + escaped(&note(end)) <= bytes;
    // In a small room, an ellipsis is the note.
    let short = |end: usize| escaped(&text[..end]) + escaped("…") <= bytes;
    let fits: &dyn Fn(usize) -> bool = if long(0) {
        &long
    } else if short(0) {
        &short
    } else {
        return String::new();
    };
    // The longest prefix that fits, by bisection over character
    // boundaries (a longer prefix never takes fewer bytes).
    let bounds: Vec<usize> = text
        .char_indices()
        .map(|(i, _)| i)
        .chain([text.len()])
        .collect();
    let low = bounds[bounds.partition_point(|&end| fits(end)) - 1];
    if long(0) {
        format!("{}{}", &text[..low], note(low))
    } else {
        format!("{}…", &text[..low])
    }
}

/// `text` within `bytes` bytes of UTF-8, cut at a character boundary with
/// a note saying so.
pub(crate) fn cut(text: &str, bytes: usize, why: &str) -> String {
    if text.len() <= bytes {
        return text.to_owned();
    }
    let note = format!("\n… (cut at {bytes} of {} bytes, for {why})\n", text.len());
    let mut end = bytes.saturating_sub(note.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}{note}", &text[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sharing_gives_small_texts_all_they_need() {
        assert_eq!(share(&[10, 5, 7], 100), [10, 5, 7]);
        // Half is promised to the first; the rest levelled, what the
        // small ones leave going to the large ones, and back to the first.
        assert_eq!(share(&[1000, 10, 1000, 1000], 100), [50, 10, 20, 20]);
        assert_eq!(share(&[10, 1000, 1000], 100), [10, 45, 45]);
    }

    #[test]
    fn a_cut_text_fits_its_room_in_the_file() {
        let text = "\u{1b}[31m🦀\"x".repeat(1000);
        for room in [0, 10, 80, 81, 500, 4096] {
            let cut = cut_escaped(&text, room, Some("a test"));
            assert!(escaped(&cut) <= room, "{room}: {}", escaped(&cut));
            assert!(
                cut.is_empty() || cut.ends_with('…') || cut.contains("(cut at "),
                "{cut}"
            );
        }
    }
}
