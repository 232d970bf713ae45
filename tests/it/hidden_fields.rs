//! Nothing in a learner's report is derived from hidden sessions: no time
//! that counts them, no mistake, hint or finding worked out from hidden
//! answers. Two submissions that behave alike on the visible cases of
//! `tests/fixtures/hidden-mistakes/hidden-mistake` and apart on its hidden
//! ones (wrong or right, slow or quick) get the same learner report, but
//! for the hidden tests' own verdicts and scores.

use crate::support::{grader, output, root, tempdir};
use clap::ValueEnum;
use report::Format;
use serde_json::Value;
use std::path::Path;
use std::time::{Duration, Instant};

/// A correct router: on the fixture's visible cases it answers as
/// `errs_and_sleeps_on_hidden.py` does; on its hidden ones, right and
/// quick.
const TWIN: &str = "from _router import Router, h32  # noqa: F401\n";

/// How long `errs_and_sleeps_on_hidden.py` sleeps in one grading at least:
/// 0.4 s on each of the six routes of the hidden cases.
const HIDDEN_SLEEP: Duration = Duration::from_millis(2400);

/// Grades `program` (as `dir/student/router.py`, beside the helper it
/// imports) for `audience`: the JSON report, the time the run took, and
/// the report rendered in every format.
fn graded(dir: &Path, program: &str, audience: &str) -> (Value, Duration, Vec<(String, String)>) {
    let student = dir.join("student");
    std::fs::create_dir_all(&student).unwrap();
    let hostile = root().join("submissions/hostile");
    std::fs::copy(hostile.join("_router.py"), student.join("_router.py")).unwrap();
    std::fs::write(student.join("router.py"), program).unwrap();
    let report = dir.join("report.json");
    let started = Instant::now();
    let out = output(
        grader()
            .args(["--challenges", "tests/fixtures/hidden-mistakes", "grade"])
            .args(["--challenge", "hidden-mistake", "--audience", audience])
            .args(["--format", "json", "--output"])
            .arg(&report)
            .arg(student.join("router.py")),
    );
    let took = started.elapsed();
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut rendered = Vec::new();
    for format in Format::value_variants() {
        let name = format.to_possible_value().unwrap().get_name().to_owned();
        let out = output(grader().args(["merge", "--format", &name]).arg(&report));
        assert!(matches!(out.status.code(), Some(0 | 1)), "{name}");
        rendered.push((name, String::from_utf8_lossy(&out.stdout).into_owned()));
    }
    let json = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
    (json, took, rendered)
}

/// `report` without what differs between two runs of the same code (the
/// run's times, the visible tests' times) and what is the hidden tests'
/// own (their verdicts and scores, and the totals they count in).
fn without_run_and_hidden_verdicts(mut report: Value) -> Value {
    let run = report.as_object_mut().unwrap();
    run.remove("started_at_ms");
    run.remove("finished_at_ms");
    for s in run["submissions"].as_array_mut().unwrap() {
        let s = s.as_object_mut().unwrap();
        for total in ["verdict", "points", "score", "passed"] {
            s.remove(total);
        }
        for g in s["groups"].as_array_mut().unwrap() {
            if g["name"] == "secret" {
                let g = g.as_object_mut().unwrap();
                for own in ["points", "score", "passed"] {
                    g.remove(own);
                }
            }
        }
        for t in s["tests"].as_array_mut().unwrap() {
            let hidden = t["group"] == "secret";
            let t = t.as_object_mut().unwrap();
            t.remove("time_ms");
            t.remove("cpu_ms");
            if hidden {
                for own in ["verdict", "points", "score", "message"] {
                    t.remove(own);
                }
            }
        }
    }
    report
}

/// The mistake a report names for its submission, and whether it is exact.
fn named_mistake(report: &Value) -> (Option<String>, Value) {
    let mistake = &report["submissions"][0]["mistake"];
    (
        mistake["id"].as_str().map(str::to_owned),
        mistake["exact"].clone(),
    )
}

#[test]
fn a_learners_report_is_the_same_whatever_the_code_does_on_hidden_cases() {
    let hostile =
        std::fs::read_to_string(root().join("submissions/hostile/errs_and_sleeps_on_hidden.py"))
            .unwrap();

    // The instructor sees what the hidden cases show: the mistake, and a
    // run as long as its sleeps.
    let dir = tempdir();
    let (instructor, _, instructors) = graded(dir.path(), &hostile, "instructor");
    assert_eq!(
        named_mistake(&instructor),
        (Some("lowest-score".to_owned()), Value::Bool(true)),
        "{instructor}"
    );
    let took = instructor["finished_at_ms"].as_u64().unwrap()
        - instructor["started_at_ms"].as_u64().unwrap();
    assert!(took >= HIDDEN_SLEEP.as_millis() as u64, "{instructor}");

    // The same folder for both, so that paths and names are alike.
    let dir = tempdir();
    let (twin, _, _) = graded(dir.path(), TWIN, "learner");
    let (learner, whole, rendered) = graded(dir.path(), &hostile, "learner");
    let hidden_verdicts = |r: &Value| -> Vec<Value> {
        r["submissions"][0]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|t| t["group"] == "secret")
            .map(|t| t["verdict"].clone())
            .collect()
    };
    assert_eq!(hidden_verdicts(&twin), ["accepted"; 3], "{twin}");
    assert_eq!(hidden_verdicts(&learner), ["wrong-answer"; 3], "{learner}");
    assert_eq!(
        without_run_and_hidden_verdicts(learner.clone()),
        without_run_and_hidden_verdicts(twin),
    );
    assert_eq!(named_mistake(&learner), (None, Value::Null), "{learner}");

    // The run's time in the report counts no hidden session: it is shorter
    // than the whole run by the sleeps at least, in JSON and in CTRF.
    let bound = whole.saturating_sub(HIDDEN_SLEEP).as_millis() as u64;
    let took =
        learner["finished_at_ms"].as_u64().unwrap() - learner["started_at_ms"].as_u64().unwrap();
    assert!(took <= bound, "{took} ms of a {whole:?} run: {learner}");
    let ctrf = &rendered.iter().find(|(f, _)| f == "ctrf").unwrap().1;
    let ctrf: Value = serde_json::from_str(ctrf).unwrap();
    let duration = ctrf["results"]["summary"]["duration"].as_u64().unwrap();
    assert!(
        duration <= bound,
        "{duration} ms of a {whole:?} run: {ctrf}"
    );

    // No format a learner reads names the mistake, nor its hint;
    // PrairieLearn's results carry the whole report, so the instructor's
    // name them. Gradescope's `output` is shown before the grades are
    // published, the hidden tests after: a mistake worked out from them
    // waits with them.
    let mistake = &instructor["submissions"][0]["mistake"];
    for (format, text) in &instructors {
        if format == "gradescope" || format == "prairielearn" {
            let output: Value = serde_json::from_str(text).unwrap();
            let output = output["output"].as_str().unwrap();
            for said in ["title", "hint"] {
                let said = mistake[said].as_str().unwrap();
                assert_eq!(
                    output.contains(said),
                    format == "prairielearn",
                    "{format} and {said:?}: {output}"
                );
            }
        }
    }
    for (format, text) in &rendered {
        for said in ["title", "hint"] {
            let said = mistake[said].as_str().unwrap();
            assert!(!text.contains(said), "{format} says {said:?}: {text}");
        }
    }
}
