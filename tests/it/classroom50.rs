//! `grader classroom50` run as Classroom 50's runner runs an autograder:
//! the student's checkout as the working folder, the runner's variables in
//! the environment, and `./result.json` checked field by field and type by
//! type against the `classroom50/result/v1` contract (foundation50/
//! classroom50: the wiki's "The result.json contract", the runner's
//! `validate_result` and `schemas/result-v1.schema.json`).

use crate::support::{copy_tree, grader, output, root, tempdir, text, trimmed_challenges};
use serde_json::{Map, Value};
use std::path::Path;
use std::process::Command;

/// The runner's variables for one submission.
const RUNNER: [(&str, &str); 6] = [
    ("CLASSROOM", "cs-principles"),
    ("ASSIGNMENT", "rendezvous"),
    ("SUBMISSION_TAG", "submit/2026-06-01T14-32-05Z-a1b2c3d"),
    (
        "COMMIT_URL",
        "https://github.com/org/cs-principles-rendezvous-alice/commit/a1b2c3d",
    ),
    (
        "RELEASE_URL",
        "https://github.com/org/cs-principles-rendezvous-alice/releases/tag/submit%2F2026",
    ),
    (
        "REVIEW_URL",
        "https://github.com/org/cs-principles-rendezvous-alice/compare/0f0f...a1b2c3d",
    ),
];

/// A checkout holding the student's `files` (name, source under
/// submissions/), beside what a repository holds that is not theirs.
fn checkout(dir: &Path, files: &[(&str, &str)]) {
    std::fs::create_dir_all(dir.join(".github/workflows")).unwrap();
    std::fs::write(dir.join(".github/workflows/autograde.yaml"), "on: push\n").unwrap();
    std::fs::write(dir.join(".classroom50.yaml"), "classroom: cs-principles\n").unwrap();
    std::fs::write(dir.join("README.md"), "# Rendezvous\n").unwrap();
    for (name, source) in files {
        std::fs::copy(root().join("submissions").join(source), dir.join(name)).unwrap();
    }
}

/// The command as the runner runs it: in the checkout, with its
/// variables and no others of the grader's.
fn in_checkout(dir: &Path, env: &[(&str, &str)]) -> Command {
    let mut command = grader();
    command
        .current_dir(dir)
        .env_remove("GRADER_CHALLENGES")
        .env_remove("CLASSROOM50_BUNDLE_DIR")
        .arg("classroom50");
    for (name, value) in env {
        command.env(name, value);
    }
    command
}

fn is_datetime(s: &str) -> bool {
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| r.into_iter().all(|i| b[i].is_ascii_digit());
    b.len() == 20
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b'T'
        && digits(11..13)
        && &s[11..13] <= "23"
        && b[13] == b':'
        && digits(14..16)
        && &s[14..16] <= "59"
        && b[16] == b':'
        && digits(17..19)
        && &s[17..19] <= "59"
        && b[19] == b'Z'
}

/// A non-negative integer as the contract takes one: not a float, not a
/// bool.
fn integer(v: &Value, what: &str) -> u64 {
    v.as_u64()
        .unwrap_or_else(|| panic!("{what} is {v}, not a non-negative integer"))
}

/// Checks `result` as the runner does once it has stamped its own fields,
/// with the identity of `env`; answers the rows' (score, max-score).
fn check_contract(result: &Value, env: &[(&str, &str)]) -> (u64, u64) {
    let var = |name: &str| env.iter().find(|(n, _)| *n == name).map(|(_, v)| *v);
    let object: &Map<String, Value> = result.as_object().expect("a JSON object");
    let allowed = [
        "schema",
        "classroom",
        "assignment",
        "submission",
        "commit",
        "release",
        "review",
        "datetime",
        "score",
        "max-score",
        "tests",
        // Stamped by the runner over whatever is there.
        "owner",
        "assignment_type",
        "graded_at",
        "submitted_by",
    ];
    for key in object.keys() {
        assert!(
            allowed.contains(&key.as_str()),
            "not in the contract: {key}"
        );
    }
    assert_eq!(result["schema"], "classroom50/result/v1");
    assert_eq!(result["classroom"], var("CLASSROOM").unwrap());
    assert_eq!(result["assignment"], var("ASSIGNMENT").unwrap());
    let submission = result["submission"].as_str().expect("submission");
    assert!(submission.starts_with("submit/"));
    assert_eq!(submission, var("SUBMISSION_TAG").unwrap());
    assert_eq!(result["commit"], var("COMMIT_URL").unwrap());
    assert_eq!(result["release"], var("RELEASE_URL").unwrap());
    assert_eq!(
        result["review"],
        var("REVIEW_URL").or(var("COMMIT_URL")).unwrap(),
        "REVIEW_URL, else the commit"
    );
    let datetime = result["datetime"].as_str().expect("datetime a string");
    assert!(is_datetime(datetime), "{datetime}");
    let score = integer(&result["score"], "score");
    let max = integer(&result["max-score"], "max-score");
    assert!(score <= max);
    let tests = result["tests"].as_array().expect("tests an array");
    let (mut sum, mut sum_max) = (0, 0);
    for test in tests {
        let test = test.as_object().expect("a test is an object");
        let name = test["test-name"].as_str().expect("test-name a string");
        assert!(!name.is_empty() && name.len() <= 100 && !name.chars().any(char::is_control));
        assert!(test["passed"].is_boolean(), "{test:?}");
        let (s, m) = (
            integer(&test["score"], "a test's score"),
            integer(&test["max-score"], "a test's max-score"),
        );
        assert!(s <= m, "{test:?}");
        if test["passed"] == true {
            assert_eq!(s, m, "a passed row has its points: {test:?}");
        } else if m > 0 {
            assert!(s < m, "a failed row has not all its points: {test:?}");
        }
        sum += s;
        sum_max += m;
    }
    assert_eq!((score, max), (sum, sum_max), "the rows sum to the score");
    (score, max)
}

fn read_result(dir: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(dir.join("result.json")).expect("result.json")).unwrap()
}

#[test]
fn a_full_score_and_a_named_mistake_in_the_contract() {
    let full = tempdir();
    checkout(full.path(), &[("router.py", "python/correct_class.py")]);
    let out = output(&mut in_checkout(full.path(), &RUNNER));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let result = read_result(full.path());
    let (score, max) = check_contract(&result, &RUNNER);
    assert_eq!(score, max);
    assert!(max > 0);
    // A row per group of challenge.toml, worth its weight, each passed.
    let toml: toml::Table =
        std::fs::read_to_string(root().join("challenges/rendezvous-router/challenge.toml"))
            .unwrap()
            .parse()
            .unwrap();
    let groups: Vec<(String, u64)> = toml["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["name"].as_str().unwrap().to_owned(),
                g["weight"].as_integer().unwrap() as u64,
            )
        })
        .collect();
    let rows: Vec<(String, u64)> = result["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["test-name"].as_str().unwrap().to_owned(),
                t["max-score"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(rows, groups);
    assert!(
        result["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["passed"] == true)
    );
    assert!(
        text(&out.stdout).contains("accepted"),
        "{}",
        text(&out.stdout)
    );

    // A failing student: still exit 0, the file written, the mistake told
    // in the log and on the Release.
    let wrong = tempdir();
    checkout(wrong.path(), &[("router.py", "python/lowest_score.py")]);
    let without_review: Vec<(&str, &str)> = RUNNER
        .iter()
        .copied()
        .filter(|(n, _)| *n != "REVIEW_URL")
        .collect();
    let out = output(&mut in_checkout(wrong.path(), &without_review));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let result = read_result(wrong.path());
    let (score, wrong_max) = check_contract(&result, &without_review);
    assert!(score < wrong_max, "{result}");
    assert_eq!(wrong_max, max);
    assert!(
        result["tests"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["passed"] == false)
    );
    let log = text(&out.stdout);
    let named = "likely mistake: the lowest score wins instead of the highest";
    assert!(log.contains(named), "{log}");
    assert!(log.contains("hint: "), "{log}");
    let body = std::fs::read_to_string(wrong.path().join("release-body.md")).unwrap();
    assert!(body.contains(named) && body.contains("hint: "), "{body}");
    assert!(body.contains(&format!("{score} of {max} points")), "{body}");
}

#[test]
fn a_grader_fault_leaves_no_result_and_is_no_score() {
    let dir = tempdir();
    checkout(dir.path(), &[("router.py", "python/correct_class.py")]);
    // A stale result of an earlier run must not be taken for this one's.
    std::fs::write(dir.path().join("result.json"), r#"{"score": 0}"#).unwrap();
    std::fs::write(dir.path().join("release-body.md"), "stale").unwrap();
    // No interpreter: the grader's fault on this submission.
    let out =
        output(in_checkout(dir.path(), &RUNNER).env("GRADER_PYTHON", dir.path().join("no-python")));
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    assert!(
        !dir.path().join("result.json").exists(),
        "no score for the student"
    );
    assert!(!dir.path().join("release-body.md").exists());
    let log = text(&out.stdout);
    assert!(log.contains("::error::Not graded"), "{log}");
    assert!(log.contains("not your code"), "{log}");

    // Without the runner's variables nothing runs: exit 2, naming them.
    let out = output(
        in_checkout(dir.path(), &RUNNER[..2])
            .env_remove("SUBMISSION_TAG")
            .env_remove("COMMIT_URL")
            .env_remove("RELEASE_URL"),
    );
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(
        said.contains("SUBMISSION_TAG, COMMIT_URL, RELEASE_URL not set"),
        "{said}"
    );
    assert!(!dir.path().join("result.json").exists());
}

#[test]
fn whatever_the_student_left_at_the_result_names_is_replaced() {
    // result.json and release-body.md are the runner's names: a folder the
    // student committed there must not turn their grade into the
    // runner's error (no score), nor a link write outside the checkout.
    let dir = tempdir();
    checkout(dir.path(), &[("router.py", "python/lowest_score.py")]);
    std::fs::create_dir_all(dir.path().join("result.json/inner")).unwrap();
    std::fs::write(dir.path().join("result.json/inner/score"), "100").unwrap();
    let outside = tempdir();
    let victim = outside.path().join("victim.md");
    std::fs::write(&victim, "untouched").unwrap();
    std::os::unix::fs::symlink(&victim, dir.path().join("release-body.md")).unwrap();
    let out = output(&mut in_checkout(dir.path(), &RUNNER));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let (score, max) = check_contract(&read_result(dir.path()), &RUNNER);
    assert!(score < max);
    let body = dir.path().join("release-body.md");
    assert!(std::fs::symlink_metadata(&body).unwrap().is_file());
    assert!(
        std::fs::read_to_string(&body)
            .unwrap()
            .contains("likely mistake")
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "untouched");

    // The same for a checkout without a router.
    let dir = tempdir();
    checkout(dir.path(), &[("solution.py", "python/correct_class.py")]);
    std::fs::create_dir_all(dir.path().join("release-body.md")).unwrap();
    let out = output(&mut in_checkout(dir.path(), &RUNNER));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(check_contract(&read_result(dir.path()), &RUNNER).0, 0);
}

#[test]
fn a_checkout_without_router_scores_zero_and_says_the_rename() {
    let dir = tempdir();
    checkout(dir.path(), &[("solution.py", "python/correct_class.py")]);
    let out = output(&mut in_checkout(dir.path(), &RUNNER));
    assert_eq!(
        out.status.code(),
        Some(0),
        "the student's mistake: {}",
        text(&out.stderr)
    );
    let result = read_result(dir.path());
    let (score, max) = check_contract(&result, &RUNNER);
    assert_eq!(score, 0);
    assert!(max > 0, "every group is there, at 0: {result}");
    let log = text(&out.stdout);
    assert!(log.contains("rename solution.py to router.py"), "{log}");
}

#[test]
fn challenges_in_the_checkout_are_never_graded_against() {
    // The student plants a challenge folder where the grader would look by
    // default (./challenges), its groups worth a canary of points.
    let dir = tempdir();
    checkout(dir.path(), &[("router.py", "python/lowest_score.py")]);
    let planted = dir.path().join("challenges");
    copy_tree(&root().join("challenges"), &planted, |_| true);
    let toml = planted.join("rendezvous-router/challenge.toml");
    let text_of = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(
        &toml,
        text_of
            .replace("weight = 30", "weight = 7777")
            .replace("Rendezvous router", "PLANTED-CANARY"),
    )
    .unwrap();
    let out = output(&mut in_checkout(dir.path(), &RUNNER));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let result = read_result(dir.path());
    let (score, max) = check_contract(&result, &RUNNER);
    assert!(max < 7777 && score < max, "{result}");
    let body = std::fs::read_to_string(dir.path().join("release-body.md")).unwrap();
    for shown in [
        text(&out.stdout),
        text(&out.stderr),
        result.to_string(),
        body,
    ] {
        assert!(
            !shown.contains("PLANTED-CANARY") && !shown.contains("7777"),
            "{shown}"
        );
    }
    // Named outright, or as the bundle, they are refused.
    for how in ["--challenges", "CLASSROOM50_BUNDLE_DIR"] {
        let mut command = in_checkout(dir.path(), &RUNNER);
        if how == "--challenges" {
            command.args(["--challenges", "challenges"]);
        } else {
            command.env(how, dir.path());
        }
        let out = output(&mut command);
        assert_eq!(out.status.code(), Some(2), "{how}: {}", text(&out.stderr));
        assert!(text(&out.stderr).contains("inside the student's checkout"));
        assert!(!dir.path().join("result.json").exists());
    }
}

/// A wheel standing in for the course's: its `grader` script runs the
/// grader under test.
fn stand_in_wheel(dir: &Path) -> std::path::PathBuf {
    let script = format!(
        "#!/bin/sh\nexec '{}' \"$@\"\n",
        env!("CARGO_BIN_EXE_grader")
    );
    let wheel = dir.join("rendezvous_grader-0.1.0-py3-none-any.whl");
    let made = Command::new("python3")
        .args([
            "-c",
            r#"
import base64, hashlib, sys, zipfile
wheel, script = sys.argv[1], sys.argv[2].encode()
files = {
    "rendezvous_grader-0.1.0.data/scripts/grader": script,
    "rendezvous_grader-0.1.0.dist-info/METADATA":
        b"Metadata-Version: 2.1\nName: rendezvous-grader\nVersion: 0.1.0\n",
    "rendezvous_grader-0.1.0.dist-info/WHEEL":
        b"Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: false\nTag: py3-none-any\n",
}
record = "".join(
    "%s,sha256=%s,%d\n" % (name, base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode(), len(data))
    for name, data in files.items()
) + "rendezvous_grader-0.1.0.dist-info/RECORD,,\n"
with zipfile.ZipFile(wheel, "w") as z:
    for name, data in files.items():
        info = zipfile.ZipInfo(name)
        info.external_attr = 0o100755 << 16
        z.writestr(info, data)
    z.writestr("rendezvous_grader-0.1.0.dist-info/RECORD", record)
"#,
        ])
        .arg(&wheel)
        .arg(script)
        .output()
        .unwrap();
    assert!(made.status.success(), "{}", text(&made.stderr));
    wheel
}

#[test]
fn the_autograder_template_runs_as_the_runner_runs_it() {
    let scratch = tempdir();
    // The assignment's bundle: the template with the course's wheel set,
    // beside the wheel and the course's challenges.
    let bundle = scratch.path().join("bundle");
    std::fs::create_dir_all(&bundle).unwrap();
    stand_in_wheel(&bundle);
    let template = std::fs::read_to_string(root().join("tools/classroom50/autograder.py")).unwrap();
    let line = template
        .lines()
        .find(|l| l.starts_with("GRADER_WHEEL = "))
        .expect("the course's setting at the top");
    let set = template.replace(
        line,
        "GRADER_WHEEL = \"rendezvous_grader-0.1.0-py3-none-any.whl\"",
    );
    std::fs::write(bundle.join("autograder.py"), set).unwrap();
    // The course's challenges, their large cases cut short.
    copy_tree(trimmed_challenges(), &bundle.join("challenges"), |_| true);
    let work = scratch.path().join("work");
    checkout(&work, &[("router.py", "python/lowest_score.py")]);
    let temp = scratch.path().join("runner-temp");
    std::fs::create_dir_all(&temp).unwrap();
    // As runner.py runs it: `python autograder.py` in the checkout.
    let mut command = Command::new("python3");
    command
        .arg(bundle.join("autograder.py"))
        .current_dir(&work)
        .env("CLASSROOM50_BUNDLE_DIR", &bundle)
        .env("RUNNER_TEMP", &temp)
        .env("PIP_NO_INDEX", "1")
        .env_remove("GRADER_CHALLENGES");
    for (name, value) in RUNNER {
        command.env(name, value);
    }
    let out = output(&mut command);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let result = read_result(&work);
    let (score, max) = check_contract(&result, &RUNNER);
    assert!(score < max);
    assert!(text(&out.stdout).contains("likely mistake: the lowest score wins"));
}
