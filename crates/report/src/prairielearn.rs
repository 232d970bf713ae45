//! PrairieLearn's external-grading `results.json` for one submission
//! (<https://prairielearn.readthedocs.io/en/latest/externalGrading/>,
//! "Grading results"): `gradable`, `score` in 0..1, `message`, `output`,
//! `format_errors` when not gradable, and `tests[]` with `name`,
//! `description`, `points`, `max_points`, `message` and `output`. The
//! whole file stays within PrairieLearn's 1 MB (see [`super::fit`]).

use super::fit::{LIMIT, LINE, Layout, Slot, TEST_OUTPUT, cut, fit, written};
use super::{Report, SubmissionReport};
use crate::contract::{Verdict, Visibility};
use grading::NothingToGrade;
use serde_json::{Value, json};
use std::io::{self, Write};

/// Writes the report of its single submission as PrairieLearn's results.
pub fn render_prairielearn(report: &Report, out: &mut dyn Write) -> io::Result<()> {
    let [submission] = report.submissions.as_slice() else {
        return Err(io::Error::other(format!(
            "the prairielearn format describes one submission, and this report has {}; grade them one at a time",
            report.submissions.len()
        )));
    };
    let human = super::fit::learner_text(report)?;
    let (value, layout) = results(submission, &human, LIMIT);
    out.write_all(&written(&value, layout)?)
}

/// Why a job gets results with no grading at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ungraded {
    /// The grader, or the course's set-up of it, failed (`why`): never the
    /// student's fault.
    Grader(String),
    /// The student's upload has nothing to grade (no entry file, with
    /// its files listed): the student's to fix.
    NothingToGrade(NothingToGrade),
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
        Ungraded::NothingToGrade(why) => {
            let error = upload_words(why);
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

/// What is wrong with a platform's upload (or a checkout) that has
/// nothing to grade, and the fix: where its files were listed, the rename
/// when one module of a known language is there.
pub fn upload_words(why: &NothingToGrade) -> String {
    match why {
        NothingToGrade::NoEntryFile {
            found: Some(found),
            expected,
            ..
        } => no_entry_file(found, expected),
        _ => super::unbuilt::nothing_to_grade(why),
    }
}

/// What is wrong with a student's files that hold no entry file, and the
/// fix: the rename when one module of a known language is there.
fn no_entry_file(found: &[String], expected: &[String]) -> String {
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
    // A file of the right name that is not one (a folder, a pipe, a link)
    // cannot be renamed to itself; one in a folder is moved up.
    let unreadable = found.iter().find(|f| {
        let name = f.strip_suffix('/').unwrap_or(f);
        modules.iter().any(|m| m == name) || name == bare
    });
    let moved: Vec<&String> = found
        .iter()
        .filter(|f| {
            f.rsplit_once('/')
                .is_some_and(|(_, name)| modules.iter().any(|m| m == name) || name == bare)
        })
        .collect();
    let fix = match (unreadable, moved.as_slice(), renames.as_slice()) {
        (Some(name), _, _) => format!(
            "{0} is there but is not a regular file (a folder, a pipe or a link); submit {0} itself",
            super::text::visible(name)
        ),
        (None, [from], _) => {
            let to = from.rsplit_once('/').map_or(from.as_str(), |(_, n)| n);
            format!(
                "move {} to the top of your submission, as {to}",
                super::text::visible(from)
            )
        }
        (None, [], [(from, to)]) => format!("rename {} to {to}", super::text::visible(from)),
        _ => "rename the file that defines your Router to one of these names, at the top of your submission".to_owned(),
    };
    format!(
        "no file is named {wanted} (found {}); {fix}",
        names.join(", ")
    )
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

/// The results and their layout, the texts (the human output, each test's
/// message and output) cut so that the file written is at most `limit`
/// bytes.
fn results(s: &SubmissionReport, human: &str, limit: usize) -> (Value, Layout) {
    let (value, texts) = skeleton(s, human);
    fit(
        value,
        texts,
        limit,
        "PrairieLearn's 1 MB limit",
        |value, _, tests| {
            if let Some(Value::String(message)) = value.get_mut("message") {
                message.push_str(&format!(
                    " ({tests} tests, too many to list within PrairieLearn's 1 MB)"
                ));
            }
        },
    )
}

/// The results with every text empty, and the texts with their slots: the
/// human output first, then each failing test's message and output.
fn skeleton(s: &SubmissionReport, human: &str) -> (Value, Vec<(Slot, String)>) {
    let mut texts = vec![(Slot::Field("output"), human.to_owned())];
    let mut tests = Vec::new();
    let mut charts = IMAGES;
    for (i, t) in s.tests.iter().enumerate() {
        if t.verdict != Verdict::Accepted {
            let first = super::text::visible(super::text::first_line(&t.message));
            let message = format!(": {}", cut(&first, LINE, "the room of a line"));
            let output = cut(
                &super::failing::failure_text(t),
                TEST_OUTPUT,
                "the room of each test",
            );
            texts.push((
                Slot::TestLine(i, "message", t.verdict.as_str().to_owned()),
                message,
            ));
            texts.push((Slot::TestText(i, "output"), output));
        }
        let mut test = json!({
            "name": t.id().to_string(),
            "description": format!("group {}, {}", t.group, t.visibility_word()),
            "points": t.points.score(),
            "max_points": t.points.max_score(),
            "message": if t.verdict == Verdict::Accepted { "passed" } else { t.verdict.as_str() },
            "output": "",
        });
        let images = load_images(t, charts);
        if !images.is_empty() {
            charts -= images.len();
            test["images"] = Value::Array(images);
        }
        tests.push(test);
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
        // What exploring found is a line of the message under the
        // summary: it changes neither the score nor any test.
        let message = match &s.explore {
            Some(e) => format!("{summary}\n{}", super::text::explore_line(e)),
            None => summary,
        };
        json!({ "gradable": true, "score": score.clamp(0.0, 1.0), "message": message })
    };
    value["tests"] = Value::Array(tests);
    value["output"] = Value::String(String::new());
    debug_assert_eq!(value["gradable"] == true, gradable(s));
    (value, texts)
}

/// The most charts a results.json carries, so that a long session of
/// loads cannot crowd out the texts.
const IMAGES: usize = 4;

/// PrairieLearn's `images` of a failing test, at most `most`: a chart of
/// each `load(n)` around its first wrong answer (the keys' share of each
/// node, expected and the student's, against the fair share), an SVG
/// data URL. A hidden test has no window in a learner's report, so no
/// chart.
fn load_images(t: &super::TestReport, most: usize) -> Vec<Value> {
    let Some(window) = t.window.as_ref().filter(|_| t.verdict != Verdict::Accepted) else {
        return Vec::new();
    };
    let id = format!("test-{}-{}", t.group, t.name);
    let mut charts = super::html::load_charts(window, &id);
    // The loads answered wrong first.
    charts.sort_by_key(|c| {
        let i = c.op - window.first_op;
        window.actual.get(i).and_then(Option::as_ref) == window.expected.get(i)
    });
    charts
        .into_iter()
        .take(most)
        .map(|chart| {
            let svg = super::html::standalone_svg(&chart.svg);
            json!({
                "label": format!("load({}) at operation {} of {}", chart.keys, chart.op, t.id()),
                "url": format!("data:image/svg+xml;base64,{}", base64(svg.as_bytes())),
            })
        })
        .collect()
}

/// `bytes` in standard base64, padded (RFC 4648).
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(char::from(ALPHABET[(n >> (18 - 6 * i) & 63) as usize]));
            } else {
                out.push('=');
            }
        }
    }
    out
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
        let output = crate::fit::escaped(parsed["output"].as_str().unwrap());
        assert!(output >= (LIMIT - 600_000) / 2, "{output}");
    }

    #[test]
    fn tests_too_many_to_list_leave_the_score_and_say_so() {
        let mut report = report();
        let s = &mut report.submissions[0];
        crate::sample::too_many_to_list(s);
        let (value, layout) = results(s, "the human report", LIMIT);
        let bytes = written(&value, layout).unwrap();
        assert!(bytes.len() <= LIMIT, "{}", bytes.len());
        assert_eq!(value["tests"], Value::Array(Vec::new()));
        assert!(value["score"].is_number());
        let message = value["message"].as_str().unwrap();
        assert!(
            message.contains(&format!(
                "{} tests, too many to list",
                crate::sample::TOO_MANY
            )),
            "{message}"
        );
        assert_eq!(value["output"], "the human report");
    }

    #[test]
    fn base64_is_rfc_4648s() {
        // RFC 4648, section 10.
        for (text, encoded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(base64(text.as_bytes()), encoded, "{text}");
        }
    }

    #[test]
    fn files_without_an_entry_file_say_what_to_rename() {
        let expected: Vec<String> = grading::entry_names();
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

    #[test]
    fn exploring_is_a_line_of_the_message_and_changes_no_score_or_test() {
        use crate::sample::{accepted, explored, written};
        let plain: Value =
            serde_json::from_str(&written(&accepted(), render_prairielearn)).unwrap();
        for found in [true, false] {
            let value: Value =
                serde_json::from_str(&written(&explored(found), render_prairielearn)).unwrap();
            let line = crate::text::explore_line(&crate::sample::exploration(found));
            assert_eq!(
                value["message"],
                format!("{}\n{line}", plain["message"].as_str().unwrap())
            );
            let output = value["output"].as_str().unwrap();
            assert!(output.contains(&line), "{output}");
            if found {
                assert!(output.contains("passes the suite; fails this generated case"));
                assert!(
                    output.contains("  case: [[[\"a\",\"b\",\"c\"]]"),
                    "{output}"
                );
            }
            for field in ["gradable", "score", "tests"] {
                assert_eq!(value[field], plain[field], "{field}");
            }
        }
    }
}
