//! Snapshots of every renderer of the report crate, from the committed
//! report fixtures in `tests/fixtures/reports/` at the workspace's root
//! (made through the binary by the script `regenerate.sh` beside them,
//! which says what each one covers), and of the JSON contract.
//! A snapshot per fixture and format, in `crates/report/tests/snapshots/`;
//! durations, paths, dates and the grader's version are redacted.
//!
//! After a deliberate change: `INSTA_UPDATE=always cargo test -p report
//! --test renderers` (or `cargo insta test -p report --review`), then read
//! every changed snapshot.
//!
//! The snapshots of what needs the `grader` binary (the authoring
//! commands, the schema it prints) stay in `tests/it/snapshots.rs`.

#[path = "support/common.rs"]
mod common;

use report::contract::Document;
use report::{
    Folded, Format, HumanOptions, Report, WatchScreen, WatchState, github_summary, render,
    render_human_with, render_watch,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The report fixtures, at the workspace's root.
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/reports");

/// The published schemas the JUnit and CTRF reports are checked against.
const SCHEMAS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/schemas");

/// The workspace's root, the checkout, as its path reads.
fn root() -> PathBuf {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .canonicalize()
        .expect("the workspace's root")
}

/// `xmllint` checking `xml` against the Jenkins JUnit schema.
fn xmllint(xml: &Path) -> Output {
    Command::new("xmllint")
        .arg("--noout")
        .arg("--schema")
        .arg(Path::new(SCHEMAS).join("junit-10.xsd"))
        .arg(xml)
        .output()
        .expect("xmllint is installed (Debian: libxml2-utils); .ci/run installs it")
}

/// Every format, with the name its snapshots carry.
const FORMATS: [(Format, &str); 9] = [
    (Format::Human, "human"),
    (Format::Json, "json"),
    (Format::Junit, "junit"),
    (Format::Gradescope, "gradescope"),
    (Format::Prairielearn, "prairielearn"),
    (Format::Codio, "codio"),
    (Format::Ctrf, "ctrf"),
    (Format::Github, "github"),
    (Format::Html, "html"),
];

/// Every fixture by name (its file stem), deserialised, in name order.
fn fixtures() -> Vec<(String, Report)> {
    let mut found: Vec<(String, Report)> = std::fs::read_dir(FIXTURES)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let name = p.file_stem().unwrap().to_str().unwrap().to_owned();
            let report = serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                .unwrap_or_else(|e| panic!("{}: not a report: {e}", p.display()));
            (name, report)
        })
        .collect();
    found.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(found.len() >= 10, "only {} report fixtures", found.len());
    found
}

/// `report` written in `format`, as text with its ANSI styles.
fn rendered(report: &Report, format: Format) -> String {
    let mut out = Vec::new();
    render(report, format, &mut out).unwrap_or_else(|e| panic!("{format:?}: {e}"));
    String::from_utf8(out).unwrap()
}

/// Text without its ANSI styles, as a terminal-less reader sees it.
fn plain(text: &str) -> String {
    anstream::adapter::strip_str(text).to_string()
}

/// Settings for every snapshot here ([`common::settings`]).
fn settings(description: &str) -> insta::Settings {
    common::settings(description, &root(), env!("CARGO_PKG_VERSION"))
}

/// [`settings`] plus the durations and dates a report holds.
fn report_settings(description: &str) -> insta::Settings {
    let mut settings = settings(description);
    // JSON: the report's own fields, CTRF's and Gradescope's.
    settings.add_filter(
        r#""(time_ms|started_at_ms|finished_at_ms|start|stop|duration|execution_time)": \d+"#,
        r#""$1": "[time]""#,
    );
    // JUnit's seconds.
    settings.add_filter(r#" time="[0-9.]+""#, r#" time="[time]""#);
    // The human report's time of a passed test, at the end of its line
    // (dimmed in the styled snapshot).
    settings.add_filter(r"(?m)( |␛\[2m)\d+ ms(␛\[0m)?$", "${1}[time] ms${2}");
    // The GitHub format's fresh token that turns workflow commands off.
    settings.add_filter(
        r"(?m)^::stop-commands::[0-9a-f]{32}$",
        "::stop-commands::[token]",
    );
    settings.add_filter(r"(?m)^::[0-9a-f]{32}::$", "::[token]::");
    settings
}

#[test]
fn human_reports() {
    for (name, report) in fixtures() {
        let text = rendered(&report, Format::Human);
        // A report, not an error: it starts with the challenge's name.
        assert!(
            plain(&text).starts_with(&format!("{} · tests from ", report.challenge)),
            "{name}: {text}"
        );
        report_settings(&format!(
            "{name}.json rendered for people (styles stripped)"
        ))
        .bind(|| insta::assert_snapshot!(format!("{name}__human"), plain(&text)));
    }
}

#[test]
fn a_human_report_keeps_its_styles() {
    // With the escape character made visible, to read and diff.
    let (name, report) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "rendezvous-scores")
        .unwrap();
    let text = rendered(&report, Format::Human);
    assert!(text.contains('\u{1b}'), "no styles at all");
    let styled = text.replace('\u{1b}', "␛");
    report_settings(&format!(
        "{name}.json rendered for people, with its ANSI styles (ESC shown as ␛)"
    ))
    .bind(|| insta::assert_snapshot!(format!("{name}__human-styled"), styled));
}

/// How a terminal shows the human report without `--all`: the first
/// three failures of a submission in full, the rest in a line each.
fn folded() -> HumanOptions {
    HumanOptions {
        folded: Some(Folded {
            in_full: 3,
            all_command: "grader grade --all router.py".to_owned(),
        }),
        ..Default::default()
    }
}

#[test]
fn human_reports_folded_for_a_terminal() {
    for (name, report) in fixtures() {
        let mut out = Vec::new();
        render_human_with(&report, &folded(), &mut out).unwrap();
        let text = plain(&String::from_utf8(out).unwrap());
        let full = plain(&rendered(&report, Format::Human));
        // Folding only shortens, and says how to see everything.
        let pointer = "every one in full: grader grade --all router.py";
        if text != full {
            assert!(text.len() < full.len(), "{name}: folding lengthened it");
            assert!(text.contains(pointer), "{name}: {text}");
        }
        // Six different failures fold; seven tests failing alike (a
        // module that does not compile) are one failure, shown in full.
        match name.as_str() {
            "rendezvous-scores" => assert!(text.contains(pointer)),
            "compile-error" => assert_eq!(text, full),
            _ => {}
        }
        report_settings(&format!(
            "{name}.json rendered for a terminal without --all (styles stripped)"
        ))
        .bind(|| insta::assert_snapshot!(format!("{name}__human-folded"), text));
    }
}

/// The watch screen of `router.py` in `state`, keys on, styles stripped.
fn screen(state: WatchState<'_>) -> String {
    let mut out = Vec::new();
    render_watch(
        &WatchScreen {
            file: "router.py",
            again: &[
                "grader".to_owned(),
                "grade".to_owned(),
                "router.py".to_owned(),
            ],
            challenge: "rendezvous-router",
            explore: None,
            keys: true,
            state,
            notes: &[],
            size: None,
        },
        &mut out,
    )
    .unwrap();
    plain(&String::from_utf8(out).unwrap())
}

/// `grader watch`'s screen of each submission of every fixture, as graded,
/// and of the other states (grading, not graded, missing) once.
/// The headline names the test it shows with that test's own verdict,
/// not the submission's worst (a later test's, maybe a hidden one's).
#[test]
fn watch_headline_gives_the_shown_tests_verdict() {
    use report::contract::Verdict;
    let (_, report) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "rendezvous-scores")
        .unwrap();
    let mut submission = report.submissions[0].clone();
    let failing: Vec<usize> = (0..submission.tests.len())
        .filter(|&i| submission.tests[i].verdict != Verdict::Accepted)
        .collect();
    assert!(failing.len() > 1, "the fixture fails several tests");
    assert_eq!(submission.tests[failing[0]].verdict, Verdict::WrongAnswer);
    // A later test crashed: the submission's verdict is the worse one.
    submission.tests[*failing.last().unwrap()].verdict = Verdict::RuntimeError;
    submission.verdict = Verdict::RuntimeError;
    let shown = screen(WatchState::Graded {
        at: "10:21:03",
        submission: &submission,
    });
    let first = &submission.tests[failing[0]];
    let headline = format!(
        "wrong-answer in {}/{}, the first of",
        first.group, first.name
    );
    assert!(shown.contains(&headline), "{shown}");
    assert!(!shown.contains("runtime-error in"), "{shown}");
}

#[test]
fn watch_screens() {
    for (name, report) in fixtures() {
        let mut text = String::new();
        for submission in &report.submissions {
            let shown = screen(WatchState::Graded {
                at: "10:21:03",
                submission,
            });
            // The progress line, as the issue asks for it.
            let progress = format!(
                "{}/{} tests pass · score ",
                submission.passed, submission.total
            );
            assert!(shown.contains(&progress), "{name}: {shown}");
            // One failing test explained, never two.
            assert!(shown.matches("\n--- ").count() <= 1, "{name}: {shown}");
            text.push_str(&format!("# {}\n{shown}", submission.name));
        }
        report_settings(&format!(
            "{name}.json on grader watch's screen (styles stripped)"
        ))
        .bind(|| insta::assert_snapshot!(format!("{name}__watch"), text));
    }
    let (_, report) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "rendezvous-scores")
        .unwrap();
    let previous = &report.submissions[0];
    let failing = previous
        .tests
        .iter()
        .find(|t| t.verdict != report::contract::Verdict::Accepted)
        .expect("the fixture has a failing test");
    let mut text = String::new();
    for state in [
        WatchState::Grading {
            saved_at: "10:21:09",
            previous: Some(previous),
            ran: None,
            failed: None,
        },
        WatchState::Grading {
            saved_at: "10:21:09",
            previous: None,
            ran: Some((4, 22)),
            failed: None,
        },
        // The first failure told before the rest is graded replaces the
        // older version's verdict.
        WatchState::Grading {
            saved_at: "10:21:09",
            previous: Some(previous),
            ran: Some((7, 22)),
            failed: Some(failing),
        },
        WatchState::Failed {
            at: "10:21:10",
            error: "error: cannot start python3; install Python 3.7 or newer",
        },
        WatchState::Missing,
    ] {
        text.push_str(&screen(state));
        text.push_str("=====\n");
    }
    // Without keys (standard input not a terminal), only Ctrl-C is offered.
    let mut out = Vec::new();
    render_watch(
        &WatchScreen {
            file: "my router.py",
            again: &[
                "grader".to_owned(),
                "grade".to_owned(),
                "--challenge".to_owned(),
                "hrw-top".to_owned(),
                "my router.py".to_owned(),
            ],
            challenge: "hrw-top",
            explore: None,
            keys: false,
            state: WatchState::Missing,
            notes: &["warning: the sandbox is incomplete on this machine".to_owned()],
            size: None,
        },
        &mut out,
    )
    .unwrap();
    text.push_str(&plain(&String::from_utf8(out).unwrap()));
    settings("grader watch's screen while grading, not graded, missing, and without keys")
        .bind(|| insta::assert_snapshot!("watch__states", text));
}

/// `grader watch` explores once every test passes: while it does, the
/// screen says so; when it finds a case, the screen shows it under the
/// verdict, which stays accepted.
#[test]
fn watch_screens_of_exploring() {
    let (_, report) = fixtures().into_iter().find(|(n, _)| n == "batch").unwrap();
    let mut submission = report
        .submissions
        .iter()
        .find(|s| s.verdict == report::contract::Verdict::Accepted)
        .expect("the fixture has an accepted submission")
        .clone();
    let of = submission.total as u64;
    let render = |state: WatchState<'_>| {
        let mut out = Vec::new();
        render_watch(
            &WatchScreen {
                file: "router.py",
                again: &[
                    "grader".to_owned(),
                    "grade".to_owned(),
                    "router.py".to_owned(),
                ],
                challenge: "rendezvous-router",
                explore: Some(std::time::Duration::from_secs(3)),
                keys: true,
                state,
                notes: &[],
                size: None,
            },
            &mut out,
        )
        .unwrap();
        plain(&String::from_utf8(out).unwrap())
    };
    let mut text = render(WatchState::Grading {
        saved_at: "10:21:09",
        previous: None,
        ran: Some((of, of)),
        failed: None,
    });
    assert!(
        text.contains("exploring with generated cases for 3.0 s"),
        "{text}"
    );
    text.push_str("=====\n");
    submission.explore = Some(
        serde_json::from_value(serde_json::json!({
            "cases": 4,
            "seed": 1,
            "budget_ms": 3000,
            "counterexample": {
                "index": 3,
                "case": [[["no", "kC"]], [["route", " "]]],
                "expected": ["kC"],
                "actual": ["no"],
                "snippet": "from router import Router\n\nrouter = Router([\"no\", \"kC\"])\nassert router.route(\" \") == \"kC\"\n"
            }
        }))
        .unwrap(),
    );
    let shown = render(WatchState::Graded {
        at: "10:21:13",
        submission: &submission,
    });
    assert!(shown.contains("accepted: every test passes"), "{shown}");
    assert!(
        shown.contains("passes the suite; fails this generated case"),
        "{shown}"
    );
    assert!(
        shown.contains(r#"operation 0 ["route"," "]: expected "kC", yours "no""#),
        "{shown}"
    );
    text.push_str(&shown);
    text.push_str("=====\n");
    if let Some(e) = submission.explore.as_mut() {
        e.counterexample = None;
        e.cases = 7791;
    }
    text.push_str(&render(WatchState::Graded {
        at: "10:21:13",
        submission: &submission,
    }));
    settings("grader watch's screen while exploring, with a counterexample, and with none")
        .bind(|| insta::assert_snapshot!("watch__exploring", text));
}

#[test]
fn json_reports() {
    for (name, report) in fixtures() {
        // Re-serialised from the deserialised report: a renamed or dropped
        // field changes the snapshot.
        let text = rendered(&report, Format::Json);
        report_settings(&format!("{name}.json deserialised and written as JSON"))
            .bind(|| insta::assert_snapshot!(format!("{name}__json"), text));
    }
}

/// The JSON contract both ways: every fixture, made by the binary, reads
/// into a Report and writes back to the same value, field for field.
#[test]
fn the_json_report_round_trips_every_field() {
    for (name, report) in fixtures() {
        let file: Value = serde_json::from_str(
            &std::fs::read_to_string(Path::new(FIXTURES).join(format!("{name}.json"))).unwrap(),
        )
        .unwrap();
        let written: Value = serde_json::from_str(&rendered(&report, Format::Json)).unwrap();
        if let Some(place) = difference(&file, &written, String::new()) {
            panic!("{name}: the report does not write back what it read, at {place}");
        }
    }
}

/// Where `a` and `b` first differ (a JSON pointer, with both values there),
/// if they do.
fn difference(a: &Value, b: &Value, at: String) -> Option<String> {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (key, value) in x {
                match y.get(key) {
                    Some(other) => {
                        if let Some(place) = difference(value, other, format!("{at}/{key}")) {
                            return Some(place);
                        }
                    }
                    None => return Some(format!("{at}/{key}: read, not written")),
                }
            }
            y.keys()
                .find(|key| !x.contains_key(*key))
                .map(|key| format!("{at}/{key}: written, not read"))
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => x
            .iter()
            .zip(y)
            .enumerate()
            .find_map(|(i, (v, w))| difference(v, w, format!("{at}/{i}"))),
        _ if a == b => None,
        _ => Some(format!("{at}: read {a}, written {b}")),
    }
}

#[test]
fn junit_reports() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, report) in fixtures() {
        let text = rendered(&report, Format::Junit);
        // Each one valid against the Jenkins schema, too.
        let xml = dir.path().join(format!("{name}.xml"));
        std::fs::write(&xml, &text).unwrap();
        let check = xmllint(&xml);
        assert!(
            check.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&check.stderr)
        );
        report_settings(&format!("{name}.json as JUnit XML"))
            .bind(|| insta::assert_snapshot!(format!("{name}__junit"), text));
    }
}

#[test]
fn gradescope_reports() {
    for (name, report) in fixtures() {
        // Gradescope's results.json holds one submission: a report of
        // several is refused, and each of its submissions written alone.
        let text = if report.submissions.len() == 1 {
            rendered(&report, Format::Gradescope)
        } else {
            let mut out = Vec::new();
            let refused = render(&report, Format::Gradescope, &mut out).unwrap_err();
            assert!(refused.to_string().contains("one submission"), "{refused}");
            let count = report.submissions.len();
            let mut text = String::new();
            for (i, submission) in report.submissions.iter().enumerate() {
                let alone = Report {
                    submissions: vec![submission.clone()],
                    ..report.clone()
                };
                text.push_str(&format!(
                    "# submission {} of {count}: {}\n",
                    i + 1,
                    submission.name
                ));
                text.push_str(&rendered(&alone, Format::Gradescope));
            }
            text
        };
        report_settings(&format!("{name}.json as Gradescope's results.json"))
            .bind(|| insta::assert_snapshot!(format!("{name}__gradescope"), text));
    }
}

#[test]
fn prairielearn_reports() {
    for (name, report) in fixtures() {
        // One submission per results.json, as for Gradescope.
        let mut text = String::new();
        for (i, submission) in report.submissions.iter().enumerate() {
            let alone = Report {
                submissions: vec![submission.clone()],
                ..report.clone()
            };
            let written = rendered(&alone, Format::Prairielearn);
            let value: Value = serde_json::from_str(&written).unwrap();
            assert!(value["gradable"].is_boolean(), "{name}");
            if report.submissions.len() > 1 {
                text.push_str(&format!("# submission {}: {}\n", i + 1, submission.name));
            }
            text.push_str(&written);
        }
        report_settings(&format!("{name}.json as PrairieLearn's results.json"))
            .bind(|| insta::assert_snapshot!(format!("{name}__prairielearn"), text));
    }
}

#[test]
fn codio_reports() {
    // A request per submission, its fields decoded to be read.
    let decode = |s: &str| {
        let mut out = Vec::new();
        let mut bytes = s.bytes();
        while let Some(b) = bytes.next() {
            match b {
                b'+' => out.push(b' '),
                b'%' => {
                    let hex: String = [bytes.next().unwrap(), bytes.next().unwrap()]
                        .iter()
                        .map(|&b| b as char)
                        .collect();
                    out.push(u8::from_str_radix(&hex, 16).unwrap());
                }
                b => out.push(b),
            }
        }
        String::from_utf8(out).unwrap()
    };
    for (name, report) in fixtures() {
        let mut text = String::new();
        for (i, submission) in report.submissions.iter().enumerate() {
            let alone = Report {
                submissions: vec![submission.clone()],
                ..report.clone()
            };
            let body = rendered(&alone, Format::Codio);
            assert!(body.len() <= 1_000_000, "{name}");
            if report.submissions.len() > 1 {
                text.push_str(&format!("# submission {}: {}\n", i + 1, submission.name));
            }
            for field in body.split('&') {
                let (key, value) = field.split_once('=').unwrap();
                text.push_str(&format!("{key}: {}\n", decode(value)));
            }
        }
        report_settings(&format!("{name}.json as Codio's partial points request"))
            .bind(|| insta::assert_snapshot!(format!("{name}__codio"), text));
    }
}

#[test]
fn ctrf_reports() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(SCHEMAS).join("ctrf.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    for (name, report) in fixtures() {
        let text = rendered(&report, Format::Ctrf);
        let document: Value = serde_json::from_str(&text).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&document)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
        report_settings(&format!("{name}.json as CTRF JSON"))
            .bind(|| insta::assert_snapshot!(format!("{name}__ctrf"), text));
    }
}

#[test]
fn github_reports() {
    for (name, report) in fixtures() {
        let text = format!(
            "{}\n--- step summary ---\n{}",
            plain(&rendered(&report, Format::Github)),
            github_summary(&report)
        );
        report_settings(&format!(
            "{name}.json as GitHub annotations and log (styles stripped), then the step summary"
        ))
        .bind(|| insta::assert_snapshot!(format!("{name}__github"), text));
    }
}

#[test]
fn html_reports() {
    for (name, report) in fixtures() {
        let text = rendered(&report, Format::Html);
        assert!(text.starts_with("<!DOCTYPE html>\n"), "{name}");
        assert!(text.ends_with("</html>\n"), "{name}");
        // The same report, the same bytes.
        assert_eq!(text, rendered(&report, Format::Html), "{name}");
        // Every student has a section, linked from the overview in a class.
        for (i, s) in report.submissions.iter().enumerate() {
            let id = format!("id=\"student-{}\"", i + 1);
            assert_eq!(text.matches(&id).count(), 1, "{name}: {}", s.name);
            if report.submissions.len() > 1 {
                assert!(text.contains(&format!("href=\"#student-{}\"", i + 1)));
            }
        }
        // The style and the script are the same on every page: shown once,
        // in the first fixture's snapshot only.
        let mut settings = report_settings(&format!("{name}.json as an HTML page"));
        if name != "batch" {
            settings.add_filter(r"(?s)<style>.*?</style>", "<style>[style]</style>");
            settings.add_filter(r"(?s)<script>\n.*?</script>", "<script>[script]</script>");
        }
        settings.bind(|| insta::assert_snapshot!(format!("{name}__html"), text));
    }
}

#[test]
fn every_format_has_a_snapshot_test() {
    // A new Format must get its snapshots: the list above is complete.
    let names: Vec<&str> = FORMATS.iter().map(|(_, n)| *n).collect();
    for (format, name) in FORMATS {
        let value = clap::ValueEnum::to_possible_value(&format).unwrap();
        assert_eq!(value.get_name(), name);
    }
    let all: Vec<String> = <Format as clap::ValueEnum>::value_variants()
        .iter()
        .map(|f| {
            clap::ValueEnum::to_possible_value(f)
                .unwrap()
                .get_name()
                .to_owned()
        })
        .collect();
    assert_eq!(all, names);
}

/// The changes between two gradings, for people and as JSON: the batch
/// fixture against itself changed in every way a rejudge can see (a test
/// that flipped, a student gone, one new, one the grader failed on, one
/// judged now that it could not be before, a test renamed).
#[test]
fn changes_output() {
    use report::contract::Verdict;
    use report::{compare_results as compare, render_changes, render_changes_json};
    let (_, report) = fixtures().into_iter().find(|(n, _)| n == "batch").unwrap();
    let old = report.submissions.clone();
    let mut new = old.clone();
    let named = |new: &[report::SubmissionReport], name: &str| {
        new.iter().position(|s| s.name == name).unwrap()
    };
    // ada fails a test she passed; her score drops by its points.
    let ada = named(&new, "ada");
    let test = new[ada]
        .tests
        .iter()
        .position(|t| t.points.earned > Some(0))
        .unwrap();
    new[ada].tests[test].verdict = Verdict::WrongAnswer;
    let lost = new[ada].tests[test].points.earned;
    new[ada].points.earned = new[ada].points.earned.zip(lost).map(|(e, l)| e - l);
    new[ada].passed -= 1;
    new[ada].verdict = Verdict::WrongAnswer;
    // ben could not be judged now; gus could not be judged before.
    let ben = named(&new, "ben");
    new[ben].verdict = Verdict::GraderFault;
    new[ben].tests[0].message =
        "the grader failed on this submission: python3 was not found".into();
    let mut old = old;
    let gus = named(&old, "gus");
    old[gus].verdict = Verdict::GraderFault;
    // zed.py is gone, and a newcomer came.
    new.retain(|s| s.name != "zed.py");
    let mut newcomer = old[named(&old, "cy")].clone();
    newcomer.name = "newcomer".into();
    new.push(newcomer);
    // A test renamed for everyone.
    for s in &mut new {
        for t in &mut s.tests {
            if t.name == "remove-absent-node" {
                t.name = "remove-a-node-never-added".into();
            }
        }
    }
    let changes = compare(&old, &new);
    let mut human = Vec::new();
    render_changes(&changes, &mut human).unwrap();
    let mut machine = Vec::new();
    render_changes_json(&changes, &mut machine).unwrap();
    let human = plain(&String::from_utf8(human).unwrap());
    settings("grader compare: the batch fixture against a changed copy of itself").bind(|| {
        insta::assert_snapshot!("changes__human", human);
        insta::assert_snapshot!("changes__json", String::from_utf8(machine).unwrap());
    });
}

/// The snapshots of the changes between two gradings ([`changes_output`]).
const CHANGES_SNAPSHOTS: [&str; 2] = ["changes__human", "changes__json"];

#[test]
fn no_snapshot_is_left_over() {
    // A renamed or removed fixture leaves its snapshots behind, which insta
    // would keep silently.
    let mut expected: Vec<String> = CHANGES_SNAPSHOTS.iter().map(|s| s.to_string()).collect();
    expected.push("rendezvous-scores__human-styled".into());
    expected.push("watch__states".into());
    expected.push("watch__exploring".into());
    for (name, _) in fixtures() {
        expected.extend(FORMATS.iter().map(|(_, f)| format!("{name}__{f}")));
        expected.push(format!("{name}__human-folded"));
        expected.push(format!("{name}__watch"));
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    // (Pending `.snap.new` files of a failed comparison are insta's own.)
    let mut stray: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .filter_map(|e| {
            let file = e.file_name().into_string().unwrap();
            let stem = file.strip_suffix(".snap")?;
            (!expected.iter().any(|e| e == stem)).then(|| file.clone())
        })
        .collect();
    stray.sort();
    assert!(
        stray.is_empty(),
        "no test writes {stray:?} in {}",
        dir.display()
    );
}

/// Every report fixture, as stored and as the grader writes it again,
/// follows the published schema strictly.
#[test]
fn every_report_follows_the_published_schema() {
    for (name, report) in fixtures() {
        let stored: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{FIXTURES}/{name}.json")).unwrap(),
        )
        .unwrap();
        common::check_document(Document::Report, &stored);
        let written: Value = serde_json::from_str(&rendered(&report, Format::Json)).unwrap();
        common::check_document(Document::Report, &written);
        assert_eq!(written["schema_version"], 1, "{name}");
    }
    // The check is strict: a field the schema does not name, at any
    // depth, a tagged explanation's included, fails it; so does a wrong type.
    let (_, report) = fixtures()
        .into_iter()
        .find(|(n, _)| n == "rendezvous-scores")
        .unwrap();
    let written: Value = serde_json::from_str(&rendered(&report, Format::Json)).unwrap();
    let explained = written["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["tests"].as_array().unwrap())
        .position(|t| t["explanation"].is_object())
        .expect("the rendezvous-scores fixture explains a test");
    for damage in [
        "/surprise",
        "/submissions/0/surprise",
        "/submissions/0/points/surprise",
        "explanation/surprise",
        "/submissions/0/verdict=",
    ] {
        let mut damaged = written.clone();
        if let Some(path) = damage.strip_prefix("explanation/") {
            let test = damaged["submissions"]
                .as_array_mut()
                .unwrap()
                .iter_mut()
                .flat_map(|s| s["tests"].as_array_mut().unwrap())
                .nth(explained)
                .unwrap();
            test["explanation"][path] = 1.into();
        } else if let Some(pointer) = damage.strip_suffix('=') {
            *damaged.pointer_mut(pointer).unwrap() = "almost-accepted".into();
        } else {
            let (parent, key) = damage.rsplit_once('/').unwrap();
            damaged.pointer_mut(parent).unwrap()[key] = 1.into();
        }
        let refused =
            std::panic::catch_unwind(|| common::check_document(Document::Report, &damaged));
        assert!(refused.is_err(), "{damage} passed the check");
    }
}
