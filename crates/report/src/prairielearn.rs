//! PrairieLearn's external-grading `results.json` for one submission
//! (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>,
//! "Grading results"): `gradable`, `score` in 0..1, `message`, `output`,
//! `format_errors` when not gradable, and `tests[]` with `name`,
//! `description`, `points`, `max_points`, `message` and `output`. The
//! whole file stays within PrairieLearn's 1 MB, measured on the bytes
//! written, whatever the learner's code printed and however many tests
//! there are: every test is listed, and the texts share what room is left.

use super::{Report, SubmissionReport};
use crate::contract::{Verdict, Visibility};
use serde_json::{Value, json};
use std::io::{self, Write};

/// The most bytes results.json takes: under PrairieLearn's 1 MB however
/// a megabyte is counted, with a margin.
pub const LIMIT: usize = 1_000_000 - 1024;
/// The most output one test carries before the sharing out, so that one
/// chatty test cannot crowd out the others.
const TEST_OUTPUT: usize = 8 * 1024;
/// The most of one line of learner text (a test's message, the reason a
/// module did not load) carried before the sharing out.
const LINE: usize = 1024;

/// Writes the report of its single submission as PrairieLearn's results.
pub fn render_prairielearn(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let [submission] = report.submissions.as_slice() else {
        return Err(io::Error::other(format!(
            "the prairielearn format describes one submission, and this report has {}; grade them one at a time",
            report.submissions.len()
        )));
    };
    let mut human = Vec::new();
    super::render_human(report, &mut human)?;
    let human = anstream::adapter::strip_str(&String::from_utf8_lossy(&human)).to_string();
    let (value, layout) = results(submission, &human, LIMIT);
    out.write_all(&written(&value, layout)?)
}

/// Why a job gets results with no grading at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ungraded {
    /// The grader, or the course's set-up of it, failed (`why`): never the
    /// student's fault.
    Grader(String),
    /// The student's files hold no entry file: `found` are their names
    /// (empty when none was submitted), `expected` the names looked for.
    NoEntryFile {
        found: Vec<String>,
        expected: Vec<String>,
    },
}

/// Writes results.json for a job that was not graded: `gradable: false`,
/// so no score and no attempt charged, and a message saying whose the
/// problem is and what to do.
pub fn render_ungraded(ungraded: &Ungraded, out: &mut dyn Write) -> io::Result<()> {
    let (message, error) = match ungraded {
        Ungraded::Grader(why) => {
            let why = super::text::visible(&super::text::one_line(why));
            (
                format!(
                    "The grader could not grade this submission; this is not your code's fault, and no attempt was charged. Tell your instructor. ({why})"
                ),
                format!("the grader failed: {why}"),
            )
        }
        Ungraded::NoEntryFile { found, expected } => {
            let error = no_entry_file(found, expected);
            (
                format!(
                    "Your submission was not graded and no attempt was charged: {error}. Submit again with that file."
                ),
                error,
            )
        }
    };
    let value = json!({
        "gradable": false,
        "message": cut(&message, 4 * LINE, "the room of the message"),
        "format_errors": [cut(&error, 4 * LINE, "the room of the message")],
        "output": "",
        "tests": [],
    });
    out.write_all(&written(&value, Layout::Pretty)?)
}

/// What is wrong with a student's files that hold no entry file, and the
/// fix: the rename when one module of a known language is there.
pub(super) fn no_entry_file(found: &[String], expected: &[String]) -> String {
    let (modules, bare) = expected
        .split_last()
        .map_or((expected, ""), |(b, m)| (m, b.as_str()));
    let wanted = format!("{} (or an executable `{bare}`)", modules.join(", "));
    if found.is_empty() {
        return format!("no files were submitted; the grader runs one of {wanted}");
    }
    const SHOWN: usize = 20;
    let mut names: Vec<String> = found
        .iter()
        .take(SHOWN)
        .map(|n| super::text::visible(n))
        .collect();
    if found.len() > SHOWN {
        names.push(format!("and {} more", found.len() - SHOWN));
    }
    let extension = |name: &str| name.rsplit_once('.').map(|(_, e)| e.to_owned());
    // Which of the files would be the entry under its right name.
    let renames: Vec<(&String, &String)> = found
        .iter()
        .filter_map(|f| {
            let ext = extension(f)?;
            modules
                .iter()
                .find(|m| extension(m).as_deref() == Some(ext.as_str()))
                .map(|m| (f, m))
        })
        .collect();
    let fix = match renames.as_slice() {
        [(from, to)] => format!("rename {} to {to}", super::text::visible(from)),
        _ => "rename the file that defines your Router to one of these names".to_owned(),
    };
    format!(
        "no file is named {wanted} (found {}); {fix}",
        names.join(", ")
    )
}

/// How results.json is laid out: pretty for a person who opens it, unless
/// the layout itself would take the room the texts need.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    Pretty,
    Compact,
}

/// The bytes written for `value`, a line of safe JSON.
fn written(value: &Value, layout: Layout) -> io::Result<Vec<u8>> {
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

/// Whether PrairieLearn should grade the attempt: a submission that does
/// not load or compile is the learner's, but charges no attempt; one the
/// grader failed on was never judged.
fn gradable(s: &SubmissionReport) -> bool {
    !matches!(s.verdict, Verdict::CompileError | Verdict::GraderFault) && !never_loaded(s)
}

/// Whether the module loaded in none of its tests: then none of its code
/// was judged, whatever the verdict's name.
fn never_loaded(s: &SubmissionReport) -> bool {
    !s.tests.is_empty() && s.tests.iter().all(|t| t.load_failed)
}

/// Where a text of the results sits in the value.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Output,
    /// A test's message, after its verdict (always kept).
    Message(usize, &'static str),
    /// A test's output.
    TestOutput(usize),
}

/// The results and their layout, the texts (the human output, each test's
/// message and output) cut so that the file written is at most `limit`
/// bytes.
fn results(s: &SubmissionReport, human: &str, limit: usize) -> (Value, Layout) {
    let (mut value, texts) = skeleton(s, human);
    let pretty = written(&value, Layout::Pretty).map_or(usize::MAX, |b| b.len());
    // The layout's indentation grows with the tests, not with the texts.
    let layout = if pretty > limit / 4 {
        Layout::Compact
    } else {
        Layout::Pretty
    };
    let mut bare = written(&value, layout).map_or(usize::MAX, |b| b.len());
    let mut texts = texts;
    if bare > limit {
        // Too many tests to list even without their texts: the score
        // stands, the list goes, and the message says so.
        let note = format!(
            " ({} tests, too many to list within PrairieLearn's 1 MB)",
            s.tests.len()
        );
        value["tests"] = Value::Array(Vec::new());
        if let Some(Value::String(message)) = value.get_mut("message") {
            message.push_str(&note);
        }
        texts.retain(|(slot, _)| matches!(slot, Slot::Output));
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
                // A message stays one line.
                let why = match slot {
                    Slot::Message(..) => None,
                    _ => Some("PrairieLearn's 1 MB limit"),
                };
                cut_escaped(text, share, why)
            };
            put(&mut value, *slot, text);
        }
        let size = written(&value, layout).map_or(usize::MAX, |b| b.len());
        // Sizes add up exactly, so this is a guard, not a search.
        if size <= limit || room == 0 {
            return (value, layout);
        }
        room = room.saturating_sub(size - limit + 64);
    }
}

/// Puts `text` in its slot of `value`, a message after its verdict.
fn put(value: &mut Value, slot: Slot, text: String) {
    match slot {
        Slot::Output => value["output"] = Value::String(text),
        Slot::Message(i, verdict) => {
            value["tests"][i]["message"] = Value::String(format!("{verdict}{text}"));
        }
        Slot::TestOutput(i) => value["tests"][i]["output"] = Value::String(text),
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
fn escaped(text: &str) -> usize {
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
pub fn cut(text: &str, bytes: usize, why: &str) -> String {
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

/// The results with every text empty, and the texts with their slots: the
/// human output first, then each failing test's message and output.
fn skeleton(s: &SubmissionReport, human: &str) -> (Value, Vec<(Slot, String)>) {
    let mut texts = vec![(Slot::Output, human.to_owned())];
    let mut tests = Vec::new();
    for (i, t) in s.tests.iter().enumerate() {
        if t.verdict != Verdict::Accepted {
            let first = super::text::visible(super::text::first_line(&t.message));
            let message = format!(": {}", cut(&first, LINE, "the room of a line"));
            let output = cut(
                &super::failing::failure_text(t),
                TEST_OUTPUT,
                "the room of each test",
            );
            texts.push((Slot::Message(i, t.verdict.as_str()), message));
            texts.push((Slot::TestOutput(i), output));
        }
        tests.push(json!({
            "name": format!("{}/{}", t.group, t.name),
            "description": format!("group {}, {}", t.group, t.visibility_word()),
            "points": t.points.score(),
            "max_points": t.points.max_score(),
            "message": if t.verdict == Verdict::Accepted { "passed" } else { t.verdict.as_str() },
            "output": "",
        }));
    }
    let summary = format!(
        "{}: {} of {} tests passed, {}",
        s.verdict,
        s.passed,
        s.total,
        super::text::score_of(&s.points)
    );
    let line = |t: &super::TestReport| {
        let first = super::text::visible(super::text::first_line(&t.message));
        cut(&first, LINE, "the room of a line")
    };
    let why = s.tests.first().map(line).unwrap_or_default();
    let mut value = if s.verdict == Verdict::GraderFault {
        json!({
            "gradable": false,
            "message": format!(
                "The grader failed on this submission; this is not your code's fault, and no attempt was charged. Submit again, or tell your instructor if it happens again. ({why})"
            ),
            "format_errors": [format!("the grader failed: {why}")],
        })
    } else if s.verdict == Verdict::CompileError {
        json!({
            "gradable": false,
            "message": format!("Your code does not compile or load, so it was not graded and no attempt was charged: {why}"),
            "format_errors": [why],
        })
    } else if never_loaded(s) {
        // A hidden test's message is withheld; the load failure is the
        // same in every test, so a visible one says it.
        let why = s
            .tests
            .iter()
            .find(|t| t.visibility == Visibility::Visible)
            .map(line)
            .unwrap_or_else(|| "the module failed to load".to_owned());
        json!({
            "gradable": false,
            "message": format!("Your code does not load, so it was not graded and no attempt was charged: {why}. Fix it so that the module loads, then submit again."),
            "format_errors": [format!("{why}; fix it so that the module loads")],
        })
    } else {
        let score = if s.points.total == 0 {
            f64::from(u8::from(s.verdict == Verdict::Accepted))
        } else {
            // Gradable: judged, so earned.
            s.points.earned.unwrap_or_default() as f64 / s.points.total as f64
        };
        json!({ "gradable": true, "score": score.clamp(0.0, 1.0), "message": summary })
    };
    value["tests"] = Value::Array(tests);
    value["output"] = Value::String(String::new());
    debug_assert_eq!(value["gradable"] == true, gradable(s));
    (value, texts)
}

impl super::TestReport {
    /// Who sees the test, as a word.
    fn visibility_word(&self) -> &'static str {
        match self.visibility {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report() -> Report {
        serde_json::from_str(include_str!(
            "../../../tests/fixtures/reports/rendezvous-scores.json"
        ))
        .unwrap()
    }

    #[test]
    fn output_is_cut_at_a_character_boundary_to_fit_the_bytes_written() {
        let report = report();
        let s = &report.submissions[0];
        // Four bytes a character, twelve in the file (a surrogate pair),
        // so a cut in the middle of one is easy.
        let huge = "🦀".repeat(400_000);
        let (value, layout) = results(s, &huge, LIMIT);
        assert_eq!(layout, Layout::Pretty);
        let bytes = written(&value, layout).unwrap();
        assert!(bytes.len() <= LIMIT, "{}", bytes.len());
        assert!(
            bytes.len() > LIMIT - 1000,
            "the room is used: {}",
            bytes.len()
        );
        let output = value["output"].as_str().unwrap();
        assert!(output.contains("(cut at "), "a note says it was cut");
        assert!(output.starts_with('🦀'));
        // Small output is kept whole.
        let (value, _) = results(s, "short", LIMIT);
        assert_eq!(value["output"], "short");
    }

    #[test]
    fn the_texts_of_many_tests_share_the_room_and_every_test_is_listed() {
        let mut report = report();
        let s = &mut report.submissions[0];
        let failing = s
            .tests
            .iter()
            .find(|t| t.verdict != Verdict::Accepted)
            .unwrap()
            .clone();
        let mut tests = Vec::new();
        for i in 0..3000 {
            let mut t = failing.clone();
            t.name = format!("case-{i}");
            t.message = "\u{202e}🦀".repeat(5000);
            tests.push(t);
        }
        s.tests = tests;
        let human = "\u{1b}".repeat(2_000_000);
        let (value, layout) = results(s, &human, LIMIT);
        let bytes = written(&value, layout).unwrap();
        assert!(bytes.len() <= LIMIT, "{}", bytes.len());
        let parsed: Value = serde_json::from_slice(&bytes).unwrap();
        let listed = parsed["tests"].as_array().unwrap();
        assert_eq!(listed.len(), 3000);
        // Alike tests get alike shares, and the human output its half.
        let first = listed[0]["message"].as_str().unwrap();
        assert!(first.starts_with(failing.verdict.as_str()), "{first}");
        assert!(first.len() > failing.verdict.as_str().len(), "{first}");
        assert!(listed.iter().all(|t| t["message"] == first));
        let output = escaped(parsed["output"].as_str().unwrap());
        assert!(output >= (LIMIT - 600_000) / 2, "{output}");
    }

    #[test]
    fn tests_too_many_to_list_leave_the_score_and_say_so() {
        let mut report = report();
        let s = &mut report.submissions[0];
        let one = s.tests[0].clone();
        s.tests = (0..10_000)
            .map(|i| {
                let mut t = one.clone();
                t.name = format!("a-case-with-a-long-descriptive-name-{i}");
                t
            })
            .collect();
        let (value, layout) = results(s, "the human report", LIMIT);
        let bytes = written(&value, layout).unwrap();
        assert!(bytes.len() <= LIMIT, "{}", bytes.len());
        assert_eq!(value["tests"], Value::Array(Vec::new()));
        assert!(value["score"].is_number());
        let message = value["message"].as_str().unwrap();
        assert!(
            message.contains("10000 tests, too many to list"),
            "{message}"
        );
        assert_eq!(value["output"], "the human report");
    }

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

    #[test]
    fn files_without_an_entry_file_say_what_to_rename() {
        let expected: Vec<String> = grading::lang::entry_names();
        let one = no_entry_file(&["solution.py".into()], &expected);
        assert!(one.contains("rename solution.py to router.py"), "{one}");
        let two = no_entry_file(&["a.py".into(), "b.py".into()], &expected);
        assert!(two.contains("found a.py, b.py"), "{two}");
        assert!(
            !two.contains("rename a.py") && !two.contains("rename b.py"),
            "{two}"
        );
        let none = no_entry_file(&[], &expected);
        assert!(none.contains("no files"), "{none}");
    }
}
