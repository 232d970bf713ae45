//! Grades every example in `submissions/` through the real binary and checks
//! the verdicts listed in `submissions/expected.toml`, and the JSON report's
//! public fields along the way.

use crate::support::{copy_tree, edge_suite, grader, json, output, root, tempdir, text};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::Mutex;

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    example: Vec<Example>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Example {
    /// The challenge whose suite grades it.
    #[serde(default = "default_challenge")]
    challenge: String,
    path: String,
    verdict: String,
    #[serde(default)]
    failing: Option<Vec<String>>,
    #[serde(default)]
    message: Option<String>,
    /// Must appear in the first failing test's traceback.
    #[serde(default)]
    traceback: Option<String>,
    /// The known mistake the grader must name exactly, or "none" when it
    /// must name none, not even as the closest.
    #[serde(default)]
    mistake: Option<String>,
    /// The second mistake named beside `mistake`, when only the two made
    /// together explain the answers (and, for every other example, none).
    #[serde(default)]
    with: Option<String>,
    /// The third mistake named beside those two, when only the three made
    /// together explain the answers (and, for every other example, none).
    #[serde(default)]
    third: Option<String>,
    /// The form of `mistake` named, when it has several.
    #[serde(default)]
    form: Option<String>,
    /// Must appear in the named mistake's hint: the fix in the
    /// submission's own language.
    #[serde(default)]
    hint: Option<String>,
    /// The report must say that no known mistake explains the answers.
    #[serde(default)]
    unexplained: bool,
    /// The step of its own h32 the grader must name wrong (and, for every
    /// other example, none).
    #[serde(default)]
    h32_step: Option<String>,
    /// The other steps of its h32 named wrong with `h32_step`, in order
    /// (and, for every other example, none).
    #[serde(default)]
    h32_also: Vec<String>,
    /// The answers change between runs: the report must say so (and must
    /// not, for every other example).
    #[serde(default)]
    nondeterministic: bool,
    /// The consistent-hashing property the grader must show broken.
    #[serde(default)]
    property: Option<String>,
    /// A folder of tests (from the checkout's root) to grade against
    /// instead of the challenge's own.
    #[serde(default)]
    tests: Option<String>,
    /// The only groups graded (`--only`), for an example that loops or
    /// grows without end: past them its other groups only spend their own
    /// limits again, which the limits' own tests hold. The other fields
    /// describe this partial run.
    #[serde(default)]
    only: Vec<String>,
    /// The mistakes of the family named as `mistake` when the tests
    /// cannot tell which of them was made, in the catalogue's order (and,
    /// for every other example, none).
    #[serde(default)]
    candidates: Vec<String>,
    /// The first wrong answer one test must show, in the JSON report and
    /// in the text report.
    #[serde(default)]
    divergence: Option<Shown>,
}

/// The first wrong answer `test` (`group/name`) must show: at operation
/// `op`, with `message` in its one-line message; none when `op` is not
/// given.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct Shown {
    test: String,
    #[serde(default)]
    op: Option<u64>,
    #[serde(default)]
    message: Option<String>,
}

fn default_challenge() -> String {
    "rendezvous-router".into()
}

/// One cache for the whole test run, apart from the user's.
fn cache_dir() -> &'static Path {
    static DIR: std::sync::OnceLock<tempfile::TempDir> = std::sync::OnceLock::new();
    DIR.get_or_init(tempdir).path()
}

fn grade_json(path: &Path) -> (Option<i32>, Value, String) {
    grade_on("rendezvous-router", path, &[])
}

/// A CPU-time limit no example meant to finish comes near on any machine:
/// what such an example's verdict says is its answers, never how fast
/// this machine ran them (shipped limits are twice the slowest correct
/// example, and a slow wrong one may take more). The examples that never
/// end are graded under the shipped limits.
const UNHURRIED: [&str; 2] = ["--time-limit", "120000"];

/// How long each example is explored: about two thousand generated cases
/// each, some eighty thousand over the correct examples. (A second of
/// exploring is a second of a core: this test is a third of the suite's
/// CPU time, and `explore.rs` tests the exploration itself.)
const EXPLORE_MS: u64 = 1_000;

fn grade_on(challenge: &str, path: &Path, extra: &[&str]) -> (Option<i32>, Value, String) {
    let out = output(
        grader()
            .args([
                "grade",
                "--challenge",
                challenge,
                "--format",
                "json",
                "--cache-dir",
            ])
            .arg(cache_dir())
            .args(extra)
            .arg(path),
    );
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let report = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{}: the JSON report does not parse: {e}\nstderr: {stderr}",
            path.display()
        )
    });
    (out.status.code(), report, stderr)
}

/// Checks the report fields docs/json-report.md promises.
fn check_contract(report: &Value, challenge: &str) {
    assert_eq!(report["challenge"], challenge);
    // Graded from the checkout's root: its folder, found there.
    assert_eq!(
        report["challenges"],
        serde_json::json!({
            "source": "folder",
            "path": root().join("challenges").to_str().unwrap(),
            "given_by": "./challenges",
        })
    );
    let submission = &report["submissions"][0];
    for field in ["path", "language", "verdict", "score", "max_score", "tests"] {
        assert!(
            submission.get(field).is_some(),
            "submission lacks `{field}`"
        );
    }
    for test in submission["tests"].as_array().unwrap() {
        for field in [
            "name",
            "group",
            "verdict",
            "divergence",
            "message",
            "score",
            "max_score",
            "time_ms",
        ] {
            assert!(test.get(field).is_some(), "test lacks `{field}`: {test}");
        }
        let divergence = &test["divergence"];
        if !divergence.is_null() {
            for field in ["op_index", "op", "expected", "actual"] {
                assert!(
                    divergence.get(field).is_some(),
                    "divergence lacks `{field}`"
                );
            }
        }
    }
}

#[test]
fn every_example_gets_its_verdict() {
    let manifest: Manifest =
        toml::from_str(&std::fs::read_to_string(root().join("submissions/expected.toml")).unwrap())
            .unwrap();
    // Every file in submissions/ is listed, so none goes unchecked.
    let listed: BTreeSet<String> = manifest.example.iter().map(|e| e.path.clone()).collect();
    // (The hostile corpus has its own manifest and test.)
    for entry in walkdir::WalkDir::new(root().join("submissions")).min_depth(2) {
        let entry = entry.unwrap();
        let rel = entry
            .path()
            .strip_prefix(root().join("submissions"))
            .unwrap();
        // A file named `_*` is a helper module examples import, not one;
        // a tsconfig.json is the project file of the examples beside it.
        let name = entry.file_name().to_string_lossy();
        let helper = name.starts_with('_') || name == "tsconfig.json";
        if entry.file_type().is_file() && !rel.starts_with("hostile") && !helper {
            assert!(
                listed.contains(&rel.to_string_lossy().into_owned()),
                "{} is not in expected.toml",
                rel.display()
            );
        }
    }

    // Three graders at a time: each runs one session, the machine has two
    // cores, and every grading also waits (on starting its sessions, on
    // its programs' pipes), so a third keeps both cores busy. The
    // examples that wait out a time limit go first (the queue is taken
    // from its end), so that none of them is left alone at the end.
    let mut queue = manifest.example.clone();
    queue.sort_by_key(|e| e.verdict == "time-limit");
    let queue = Mutex::new(queue);
    let failures = Mutex::new(Vec::new());
    let busy = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                while let Some(example) = { queue.lock().unwrap().pop() } {
                    match check_example(&example) {
                        Ok(()) => {}
                        Err(why) if why == TOO_BUSY => busy.lock().unwrap().push(example),
                        Err(why) => failures
                            .lock()
                            .unwrap()
                            .push(format!("{}: {why}", example.path)),
                    }
                }
            });
        }
    });
    // A grader that found the machine too busy to judge (the tests beside
    // this one load it) said so instead of a verdict, and said to grade
    // again when it is less loaded: that is done here, with the sandboxes
    // to this test alone, and the verdict must then be the expected one.
    let busy = busy.into_inner().unwrap();
    if !busy.is_empty() {
        let _alone = crate::support::exclusive();
        for example in &busy {
            eprintln!(
                "{}: too busy to judge beside the other tests; graded again alone",
                example.path
            );
            if let Err(why) = check_example(example) {
                failures
                    .lock()
                    .unwrap()
                    .push(format!("{} (graded again alone): {why}", example.path));
            }
        }
    }
    let failures = failures.into_inner().unwrap();
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// What [`check_example`] answers when the grader refused to judge on a
/// machine too busy, and did nothing else.
const TOO_BUSY: &str = "the machine was too busy to judge it";

fn check_example(example: &Example) -> Result<(), String> {
    let limits: &[&str] = match example.verdict.as_str() {
        "time-limit" => &[],
        _ => &UNHURRIED,
    };
    let mut extra = limits.to_vec();
    // Every example is explored too: an accepted one, correct, must get no
    // counterexample (and exploring must change no verdict).
    let explore = format!("--explore={EXPLORE_MS}ms");
    extra.push(&explore);
    if let Some(tests) = &example.tests {
        extra.extend(["--tests", tests.as_str()]);
    }
    for group in &example.only {
        extra.extend(["--only", group.as_str()]);
    }
    let (code, report, stderr) = grade_on(
        &example.challenge,
        &Path::new("submissions").join(&example.path),
        &extra,
    );
    check_contract(&report, &example.challenge);
    // A partial run says so, and ran those groups alone.
    if !example.only.is_empty() {
        if report["only"] != serde_json::json!(example.only) {
            return Err(format!(
                "graded as only {}, asked {:?}",
                report["only"], example.only
            ));
        }
        let Some(ran) = report["submissions"][0]["tests"].as_array() else {
            return Err(format!("no tests in the report: {report}"));
        };
        let outside = ran.iter().find(|t| {
            !example
                .only
                .iter()
                .any(|group| t["group"] == group.as_str())
        });
        if let Some(test) = outside {
            return Err(format!("graded outside {:?}: {test}", example.only));
        }
    }
    let submission = &report["submissions"][0];
    let verdict = submission["verdict"].as_str().unwrap();
    let busy = submission["tests"].as_array().is_some_and(|tests| {
        tests.iter().any(|t| {
            t["message"]
                .as_str()
                .is_some_and(|m| m.contains("the machine was too busy"))
        })
    });
    if verdict == "grader-fault" && busy && example.verdict != "grader-fault" {
        return Err(TOO_BUSY.to_owned());
    }
    if verdict != example.verdict {
        return Err(format!(
            "verdict {verdict}, expected {}; stderr: {stderr}",
            example.verdict
        ));
    }
    if verdict == "accepted" {
        let explore = &submission["explore"];
        if !explore["counterexample"].is_null() {
            return Err(format!("a correct example explored is wrong: {explore}"));
        }
        // However loaded the machine, an exploration runs a case, with
        // the time given.
        if explore["cases"].as_u64().unwrap_or(0) == 0 || explore["budget_ms"] != EXPLORE_MS {
            return Err(format!("explored otherwise than asked: {explore}"));
        }
    }
    let expected_code = if example.verdict == "accepted" { 0 } else { 1 };
    if code != Some(expected_code) {
        return Err(format!("exit code {code:?}, expected {expected_code}"));
    }
    let tests = submission["tests"].as_array().unwrap();
    let failing: Vec<&Value> = tests
        .iter()
        .filter(|t| t["verdict"] != "accepted")
        .collect();
    if let Some(want) = &example.failing {
        let got: BTreeSet<String> = failing
            .iter()
            .map(|t| {
                format!(
                    "{}/{}",
                    t["group"].as_str().unwrap(),
                    t["name"].as_str().unwrap()
                )
            })
            .collect();
        let want: BTreeSet<String> = want.iter().cloned().collect();
        if got != want {
            return Err(format!("failing tests {got:?}, expected {want:?}"));
        }
    }
    if let Some(message) = &example.message {
        let first = failing.first().ok_or("no failing test")?["message"]
            .as_str()
            .unwrap();
        if !first.contains(message.as_str()) {
            return Err(format!("message {first:?} lacks {message:?}"));
        }
    }
    if let Some(shown) = &example.divergence {
        check_divergence(&report, shown)?;
    }
    if let Some(traceback) = &example.traceback {
        let got = failing.first().ok_or("no failing test")?["error"]["traceback"]
            .as_str()
            .unwrap_or_default();
        if !got.contains(traceback.as_str()) {
            return Err(format!("traceback {got:?} lacks {traceback:?}"));
        }
    }
    let named = &submission["mistake"];
    match example.mistake.as_deref() {
        Some("none") if !named.is_null() => {
            return Err(format!("a mistake was named: {named}"));
        }
        Some("none") => {}
        Some(id) => {
            if named["id"] != id || named["exact"] != true {
                return Err(format!("mistake {named}, expected exactly {id}"));
            }
            let form = named["form"].as_str().map(|f| f.trim_matches('"'));
            if example.form.is_some() && form != example.form.as_deref() {
                return Err(format!(
                    "named in form {form:?}, expected {:?}",
                    example.form
                ));
            }
            let with = named["with"]["id"].as_str();
            if with != example.with.as_deref() {
                return Err(format!(
                    "named with {with:?}, expected with {:?}",
                    example.with
                ));
            }
            let third = named["third"]["id"].as_str();
            if third != example.third.as_deref() {
                return Err(format!(
                    "named third {third:?}, expected third {:?}",
                    example.third
                ));
            }
            if let Some(hint) = &example.hint
                && !named["hint"]
                    .as_str()
                    .unwrap_or_default()
                    .contains(hint.as_str())
            {
                return Err(format!("hint {} lacks {hint:?}", named["hint"]));
            }
            let candidates: Vec<&str> = named["candidates"]
                .as_array()
                .map(|a| a.iter().filter_map(|c| c["id"].as_str()).collect())
                .unwrap_or_default();
            if candidates != example.candidates {
                return Err(format!(
                    "candidates {candidates:?}, expected {:?}",
                    example.candidates
                ));
            }
            // Every failing test carries it too.
            if failing.iter().any(|t| t["mistake"] != *named) {
                return Err("a failing test lacks the mistake".into());
            }
        }
        None if example.verdict == "accepted" && !named.is_null() => {
            return Err(format!("a correct submission was diagnosed: {named}"));
        }
        None => {}
    }
    // Nor does a correct one get a broken property or an api hint.
    if example.verdict == "accepted" {
        for field in ["property", "api_hint", "hash_hint"] {
            let got = &submission[field];
            if !got.is_null() {
                return Err(format!("a correct submission got a {field}: {got}"));
            }
        }
    }
    if (submission["unexplained"] == true) != example.unexplained {
        return Err(format!(
            "unexplained is {}, expected {}",
            submission["unexplained"], example.unexplained
        ));
    }
    if example.unexplained && !named.is_null() {
        return Err(format!("unexplained, yet a mistake was named: {named}"));
    }
    let step = &submission["h32"]["step"]["mistake"];
    if step.as_str() != example.h32_step.as_deref() {
        return Err(format!(
            "the h32 step named is {step}, expected {:?}",
            example.h32_step
        ));
    }
    let also: Vec<&str> = submission["h32"]["step"]["also"]
        .as_array()
        .map(|a| a.iter().filter_map(|w| w["mistake"].as_str()).collect())
        .unwrap_or_default();
    if also != example.h32_also {
        return Err(format!(
            "the h32 steps named with it are {also:?}, expected {:?}",
            example.h32_also
        ));
    }
    let changing = &submission["nondeterministic"];
    if changing.is_null() == example.nondeterministic {
        return Err(format!(
            "nondeterministic is {changing}, expected {}",
            example.nondeterministic
        ));
    }
    if let Some(property) = &example.property {
        let shown = &submission["property"];
        if shown["property"] != property.as_str() {
            return Err(format!("property {shown}, expected {property}"));
        }
        if example.mistake.is_none() && submission["mistake"]["exact"] == true {
            return Err(format!(
                "an unknown mistake was named: {}",
                submission["mistake"]
            ));
        }
    }
    if example.verdict == "accepted" && submission["passed"] != submission["total"] {
        return Err("accepted but not every test passed".into());
    }
    // What the grader tells the learner shows no other language's code.
    let foreign = crate::syntax::foreign_texts(submission);
    if !foreign.is_empty() {
        return Err(foreign.join("; "));
    }
    // Whatever a report says, it speaks of the learner's files, never of
    // the grader's own (its drivers, its folders).
    let said = submission.to_string();
    for internal in [
        "grader-drivers-",
        "grader-scratch-",
        "python_driver",
        "node_driver",
        "rust_driver",
    ] {
        if said.contains(internal) {
            return Err(format!("the report names the grader's {internal}"));
        }
    }
    if example.verdict == "accepted" && submission.get("api_hint").is_some() {
        return Err(format!(
            "an accepted submission got an API hint: {}",
            submission["api_hint"]
        ));
    }
    Ok(())
}

/// Checks the first wrong answer `shown` of one test, in the JSON `report`
/// of an example and in the text report made from it.
fn check_divergence(report: &Value, shown: &Shown) -> Result<(), String> {
    let test = report["submissions"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| {
            format!(
                "{}/{}",
                t["group"].as_str().unwrap(),
                t["name"].as_str().unwrap()
            ) == shown.test
        })
        .ok_or_else(|| format!("no test {}", shown.test))?;
    let divergence = &test["divergence"];
    if divergence["op_index"].as_u64() != shown.op {
        return Err(format!(
            "{}: divergence {divergence}, expected at operation {:?}",
            shown.test, shown.op
        ));
    }
    let message = test["message"].as_str().unwrap_or_default();
    if let Some(part) = &shown.message
        && !message.contains(part.as_str())
    {
        return Err(format!(
            "{}: message {message:?} lacks {part:?}",
            shown.test
        ));
    }
    // The text report of the same run shows it too, under the test's
    // heading.
    let dir = tempdir();
    let json = dir.path().join("report.json");
    std::fs::write(&json, report.to_string()).unwrap();
    let out = output(grader().args(["merge", "--format", "human"]).arg(&json));
    let report = text(&out.stdout);
    let heading = format!(
        "--- {} ({}) ---",
        shown.test,
        test["verdict"].as_str().unwrap()
    );
    let section = report
        .split_once(&heading)
        .map(|(_, rest)| rest.split("\n--- ").next().unwrap_or_default())
        .ok_or_else(|| format!("the text report has no {heading:?}:\n{report}"))?;
    let said = section.contains("first wrong answer at operation");
    match shown.op {
        Some(op) if !section.contains(&format!("first wrong answer at operation {op}:")) => Err(
            format!("the text report's {heading} lacks its first wrong answer:\n{section}"),
        ),
        None if said => Err(format!(
            "the text report's {heading} shows a wrong answer:\n{section}"
        )),
        _ => Ok(()),
    }
}

#[test]
fn a_wrong_route_is_explained_with_the_pinned_scores() {
    let (_, report, _) = grade_json(Path::new("submissions/python/lowest_score.py"));
    let test = report["submissions"][0]["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["name"] == "sample-1-keys-spread-over-three-nodes")
        .unwrap()
        .clone();
    let d = &test["divergence"];
    assert_eq!(d["op_index"], 0);
    assert_eq!(d["op"], serde_json::json!(["route", "user:1"]));
    let e = &test["explanation"];
    assert_eq!(e["kind"], "scores");
    assert_eq!(e["key"], "user:1");
    assert_eq!(e["winner"], "cache-3");
    assert_eq!(e["rule"], "highest-score");
    // Each row's score is the pinned hash of its text, highest first.
    let rows = e["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    let mut last = u64::MAX;
    for row in rows {
        let text = row["hashed"].as_str().unwrap();
        assert_eq!(text, format!("{}:user:1", row["node"].as_str().unwrap()));
        let h = row["h32"].as_u64().unwrap();
        assert_eq!(h, u64::from(reference::h32(text)));
        assert!(h <= last);
        last = h;
        // The submission exposes h32, and it is the right one.
        assert_eq!(row["yours"], row["h32"]);
    }
    // The submission's answer is the lowest-ranked node.
    assert_eq!(e["answer"]["node"], d["actual"]);
    assert_eq!(e["answer"]["rank"], 3);
}

#[test]
fn a_wrong_h32_is_shown_where_it_parts_from_the_pinned_one() {
    let (_, report, _) = grade_json(Path::new("submissions/javascript/float_multiply.js"));
    let check = &report["submissions"][0]["h32"];
    let mismatch = &check["first_mismatch"];
    let text = mismatch["text"].as_str().expect("a mismatch is named");
    assert_eq!(
        mismatch["pinned"].as_u64(),
        Some(u64::from(reference::h32(text)))
    );
    assert_ne!(mismatch["yours"], mismatch["pinned"]);
}

#[test]
fn a_chatty_learner_is_accepted_and_its_prints_are_shown_when_it_fails() {
    // Prints that look like protocol messages do not confuse the grader...
    let (code, report, _) = grade_json(Path::new("submissions/python/chatty_correct.py"));
    assert_eq!(code, Some(0));
    assert_eq!(report["submissions"][0]["verdict"], "accepted");
    // ...and a failing test shows what the learner printed during it: the
    // same learner, whose route prints as before and then answers wrong.
    let dir = tempdir();
    let tests = edge_suite(dir.path());
    std::fs::write(tests.join("wrong.json"), r#"[[["a","b"]],[["route","k"]]]"#).unwrap();
    let chatty =
        std::fs::read_to_string(root().join("submissions/python/chatty_correct.py")).unwrap();
    // In a folder of its own, beside the module it imports.
    let folder = tempdir();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        folder.path().join("correct_class.py"),
    )
    .unwrap();
    let wrong = folder.path().join("chatty_wrong.py");
    std::fs::write(
        &wrong,
        format!(
            "{chatty}\n\n_route = Router.route\n\n\ndef _wrong(self, key):\n    _route(self, key)\n    return \"nobody\"\n\n\nRouter.route = _wrong\n"
        ),
    )
    .unwrap();
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--tests"])
            .arg(&tests)
            .arg(&wrong),
    );
    assert_eq!(out.status.code(), Some(1));
    let report: Value = json(&out);
    let test = &report["submissions"][0]["tests"][0];
    assert_eq!(test["verdict"], "wrong-answer");
    let captured = &test["captured"];
    assert!(
        captured["stdout"]
            .as_str()
            .unwrap()
            .contains("route('k') -> "),
        "{captured}"
    );
    assert!(
        captured["stdout"]
            .as_str()
            .unwrap()
            .contains("loading chatty router")
    );
    assert!(
        captured["stderr"]
            .as_str()
            .unwrap()
            .contains("debug: routing k")
    );
}

#[test]
fn a_rust_file_is_compiled_once() {
    let cache = tempdir();
    let grade = || {
        let out = output(
            grader()
                .args([
                    "grade",
                    "--format",
                    "json",
                    "--tests",
                    "challenges/rendezvous-router/tests/sample",
                    "--cache-dir",
                ])
                .arg(cache.path())
                .arg("submissions/rust/correct.rs"),
        );
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let report: Value = json(&out);
        report["submissions"][0]["build"].clone()
    };
    let binaries = || -> Vec<(std::path::PathBuf, std::time::SystemTime)> {
        walkdir::WalkDir::new(cache.path())
            .into_iter()
            .flatten()
            .filter(|e| e.file_name().to_string_lossy().ends_with(".router"))
            .map(|e| {
                (
                    e.path().to_owned(),
                    e.metadata().unwrap().modified().unwrap(),
                )
            })
            .collect()
    };
    let first = grade();
    assert_eq!(first["cached"], false, "{first}");
    let built = binaries();
    assert_eq!(built.len(), 1, "one binary in the cache: {built:?}");
    let second = grade();
    assert_eq!(second["cached"], true, "{second}");
    // The same binary, untouched, and no second one. (The build times are
    // in the report for people; the test checks facts, not timings.)
    assert_eq!(binaries(), built);
}

/// A submission without h32 whose two-node routes go against the pinned
/// scores is told its hash is not the pinned one; a correct one without
/// h32 is told nothing.
#[test]
fn a_hash_without_h32_is_blamed_on_two_node_routes() {
    let (_, report, _) = grade_json(Path::new("submissions/python/crc32_hash.py"));
    let s = &report["submissions"][0];
    let hint = &s["hash_hint"];
    let against = hint["against"].as_u64().expect("a hash hint");
    assert!(
        against >= 3 && against <= hint["asked"].as_u64().unwrap(),
        "{hint}"
    );
    // How to give the grader its h32, in Python's terms.
    assert!(
        hint["message"]
            .as_str()
            .unwrap()
            .contains("define `h32(text)` beside your Router"),
        "{hint}"
    );
    // At least one failing test shows such a route: two nodes, and the
    // answer is the one the pinned scores rank second.
    let shown = s["tests"].as_array().unwrap().iter().any(|t| {
        let rows = t["explanation"]["rows"].as_array();
        rows.is_some_and(|r| {
            r.len() == 2
                && r[0]["h32"].as_u64().unwrap() > r[1]["h32"].as_u64().unwrap()
                && t["divergence"]["actual"] == r[1]["node"]
        })
    });
    assert!(shown, "no two-node route against the scores is shown");

    let dir = tempdir();
    let text = std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    let without = dir.path().join("router.py");
    // The same router, its h32 made private: nothing to compare.
    assert_eq!(
        text.matches("h32(").count(),
        1,
        "h32 is defined, not called"
    );
    std::fs::write(&without, text.replace("def h32(", "def _h32(")).unwrap();
    let (_, report, _) = grade_json(&without);
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "accepted", "{s}");
    assert!(s.get("hash_hint").is_none(), "{s}");

    // Routes against the pinned scores that the closest mistake answers
    // alike are that mistake, not another hash.
    let (_, report, _) =
        grade_json(&root().join("tests/fixtures/submissions/lowest_no_h32_empty_for_none.py"));
    let s = &report["submissions"][0];
    assert_eq!(
        (&s["mistake"]["id"], &s["mistake"]["exact"]),
        (
            &serde_json::json!("lowest-score"),
            &serde_json::json!(false)
        ),
        "{s}"
    );
    assert!(s.get("hash_hint").is_none(), "{s}");
}

/// Every hint the evidence supports, in the order to fix them: a router
/// scored by another hash (MurmurHash3, no h32 exported) that also keeps a
/// removed node is told both, the hash first.
#[test]
fn another_hash_is_told_before_a_broken_property_and_both_are() {
    let dir = tempdir();
    // The shipped suite but its large group, which this pure-Python hash
    // would run to its limit.
    let tests = dir.path().join("tests");
    copy_tree(
        &root().join("challenges/rendezvous-router/tests"),
        &tests,
        |rel| !rel.starts_with("large"),
    );
    let file = root().join("submissions/python/murmur3_list.py");
    let grade = |format: &str| {
        output(
            grader()
                .args(["grade", "--format", format, "--tests"])
                .arg(&tests)
                .arg("--cache-dir")
                .arg(cache_dir())
                // Its pure-Python hash takes about 1 s on churn/heavy: what
                // is checked here is what its answers are told.
                .args(UNHURRIED)
                .arg(&file),
        )
    };
    let json_out = grade("json");
    let report: Value = serde_json::from_slice(&json_out.stdout).unwrap();
    let s = &report["submissions"][0];
    assert_eq!(s["verdict"], "wrong-answer", "{s}");
    assert!(
        s["mistake"].is_null(),
        "no known mistake is this: {}",
        s["mistake"]
    );
    assert!(s["hash_hint"]["against"].as_u64().unwrap() >= 3, "{s}");
    assert_eq!(s["property"]["property"], "removed-nodes-are-gone", "{s}");
    let human = text(&grade("human").stdout);
    let hash = human.find("your hash: ").expect("the hash hint");
    let property = human.find("broken property").expect("the property");
    assert!(hash < property, "{human}");
    // Before any failure in full, too: it is the first thing to fix.
    assert!(hash < human.find("\n--- ").unwrap(), "{human}");
}

#[test]
fn a_module_that_does_not_load_is_recorded_so_in_every_test() {
    let load_failed = |path: &str| -> Vec<bool> {
        let (_, report, _) = grade_json(Path::new(path));
        report["submissions"][0]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["load_failed"] == true)
            .collect()
    };
    for path in [
        "submissions/python/syntax_error.py",
        "submissions/python/no_router.py",
        "submissions/javascript/syntax_error.mjs",
    ] {
        let tests = load_failed(path);
        assert!(
            !tests.is_empty() && tests.iter().all(|&f| f),
            "{path}: {tests:?}"
        );
    }
    // A module that loads and raises, or does not compile, is no load
    // failure: the field is absent.
    for path in [
        "submissions/python/constructor_raises.py",
        "submissions/typescript/syntax_error.ts",
    ] {
        assert!(load_failed(path).iter().all(|&f| !f), "{path}");
    }
}
