//! Authoring through the real binary: add reproduces the shipped sample
//! byte for byte, bless and its check, validate on good and broken suites,
//! gen's reproducibility and its ties profile.

use crate::support::{copy_tree, root, run, run_with_stdin, tempdir, text, vectors};
use grading::Challenge;
use reference::explanation::{DecidedBy, Explanation};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Output;

/// A copy of the shipped suite to damage.
fn copy_suite(dir: &Path) -> PathBuf {
    let to = dir.join("tests");
    copy_tree(
        &root().join("challenges/rendezvous-router/tests"),
        &to,
        |_| true,
    );
    to
}

#[test]
fn pasting_the_pages_sample_reproduces_the_shipped_files() {
    let vectors = vectors();
    let name = "sample-1-keys-spread-over-three-nodes";
    let sample = &vectors["rendezvous-router"][name];
    // As the page shows it.
    let pasted = format!(
        "Input:  {}\nOutput: {}\n",
        sample["input"], sample["output"]
    );
    let dir = tempdir();
    let out = run_with_stdin(
        &[
            "add",
            "--tests",
            dir.path().to_str().unwrap(),
            "--group",
            "sample",
            name,
        ],
        &pasted,
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    for suffix in [".json", ".expected.json"] {
        let ours =
            std::fs::read(dir.path().join("sample").join(format!("{name}{suffix}"))).unwrap();
        let shipped = std::fs::read(
            root()
                .join("challenges/rendezvous-router/tests/sample")
                .join(format!("{name}{suffix}")),
        )
        .unwrap();
        assert_eq!(ours, shipped, "{suffix}");
    }
    // A pasted output that disagrees is refused, with the diff, and nothing written.
    let wrong = format!(
        "Input: {}\nOutput: {}\n",
        sample["input"],
        Value::from(vec!["cache-1"; 10])
    );
    let out = run_with_stdin(
        &[
            "add",
            "--tests",
            dir.path().to_str().unwrap(),
            "--group",
            "edge",
            "wrong",
        ],
        &wrong,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("disagrees with the reference"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("+    0: \"cache-3\""),
        "{}",
        text(&out.stderr)
    );
    assert!(!dir.path().join("edge/wrong.json").exists());
    // And an existing case is never overwritten.
    let again = run_with_stdin(
        &[
            "add",
            "--tests",
            dir.path().to_str().unwrap(),
            "--group",
            "sample",
            name,
        ],
        &pasted,
    );
    assert_eq!(again.status.code(), Some(2));
}

#[test]
fn bless_rewrites_what_disagrees_and_check_says_so() {
    let dir = tempdir();
    let tests = copy_suite(dir.path());
    let t = tests.to_str().unwrap();
    let clean = run(&["bless", "--check", "--tests", t]);
    assert_eq!(clean.status.code(), Some(0), "{}", text(&clean.stdout));
    let damaged = tests.join("edge/single-node.expected.json");
    let original = std::fs::read(&damaged).unwrap();
    std::fs::write(&damaged, "[\"nobody\", null").unwrap(); // wrong and truncated
    let check = run(&["bless", "--check", "--tests", t]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        text(&check.stdout).contains("would change"),
        "{}",
        text(&check.stdout)
    );
    assert_ne!(
        std::fs::read(&damaged).unwrap(),
        original,
        "--check changes nothing"
    );
    let bless = run(&["bless", "--tests", t]);
    assert_eq!(bless.status.code(), Some(0));
    assert_eq!(
        std::fs::read(&damaged).unwrap(),
        original,
        "blessed back to the reference's output"
    );
}

#[test]
fn validate_passes_the_shipped_suite_and_points_at_damage() {
    let ok = run(&["validate"]);
    assert_eq!(
        ok.status.code(),
        Some(0),
        "{}{}",
        text(&ok.stdout),
        text(&ok.stderr)
    );
    assert!(text(&ok.stdout).contains("all valid"));

    let cases: [(&str, &str, &str, &str); 3] = [
        // A corrupted expected file: the right type, the wrong answer.
        (
            "edge/single-node.expected.json",
            "[\"only\",\"only\",\"nobody\",\"only\"]\n",
            "single-node.expected.json:1:16",
            "the reference answers \"only\"",
        ),
        (
            "edge/single-node.json",
            "[[[\"only\"]],[[\"rout\",\"x\"]]]\n",
            "single-node.json:1:15",
            "unknown operation `rout`",
        ),
        (
            "edge/single-node.json",
            "[[[\"only\"]],[[\"route\",",
            "single-node.json:1:",
            "invalid JSON",
        ),
    ];
    for (file, content, position, message) in cases {
        let dir = tempdir();
        let tests = copy_suite(dir.path());
        std::fs::write(tests.join(file), content).unwrap();
        let out = run(&["validate", "--tests", tests.to_str().unwrap()]);
        let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
        assert_eq!(out.status.code(), Some(2), "{file}: {all}");
        assert!(
            all.contains(position) && all.contains(message),
            "{file}: {all}"
        );
        // Told once, in the list of problems, not also as a finding.
        assert_eq!(all.matches(position).count(), 1, "{file}: {all}");
    }
}

/// `grade` holds an expected file to what `validate` does: a wrong one
/// stops the run with exit 2, the file's place and both answers, before any
/// submission runs, so no correct student is failed by it.
#[test]
fn grade_refuses_an_expected_file_the_reference_contradicts() {
    let dir = tempdir();
    let tests = copy_suite(dir.path());
    std::fs::write(
        tests.join("edge/single-node.expected.json"),
        "[\"only\",\"only\",\"nobody\",\"only\"]\n",
    )
    .unwrap();
    let results = dir.path().join("results");
    let out = run(&[
        "grade",
        "--tests",
        tests.to_str().unwrap(),
        "--results",
        results.to_str().unwrap(),
        "submissions/python/correct_class.py",
    ]);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("single-node.expected.json:1:16")
            && stderr.contains("result 2 is \"nobody\", the reference answers \"only\""),
        "{stderr}"
    );
    assert!(
        text(&out.stdout).is_empty(),
        "no report: {}",
        text(&out.stdout)
    );
    let saved = std::fs::read_dir(&results).map_or(0, |d| d.count());
    assert_eq!(saved, 0, "nothing was graded");
}

/// `grader gen` of `profile` into group `g` of `dir`, the case named after
/// the profile.
fn generate(challenge: &str, dir: &Path, profile: &str, seed: &str, extra: &[&str]) -> Output {
    let dir = dir.to_str().unwrap();
    let mut args = vec![
        "gen",
        "--challenge",
        challenge,
        "--tests",
        dir,
        "--profile",
        profile,
        "--seed",
        seed,
        "--group",
        "edge",
        profile,
    ];
    args.extend(extra);
    run(&args)
}

#[test]
fn gen_is_reproducible_and_its_ties_are_decided_by_the_name_rule() {
    let a = tempdir();
    let b = tempdir();
    for dir in [a.path(), b.path()] {
        for profile in ["random", "churn", "ties", "unicode", "high-scores"] {
            let out = generate("rendezvous-router", dir, profile, "42", &[]);
            assert_eq!(
                out.status.code(),
                Some(0),
                "{profile}: {}",
                text(&out.stderr)
            );
        }
        let out = generate(
            "rendezvous-router",
            dir,
            "large",
            "42",
            &["--nodes", "1500", "--ops", "12000"],
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    for entry in std::fs::read_dir(a.path().join("edge")).unwrap().flatten() {
        let other = b.path().join("edge").join(entry.file_name());
        assert_eq!(
            std::fs::read(entry.path()).unwrap(),
            std::fs::read(other).unwrap(),
            "{:?}",
            entry.file_name()
        );
    }
    // Another seed, another case.
    let c = tempdir();
    generate("rendezvous-router", c.path(), "random", "43", &[]);
    assert_ne!(
        std::fs::read(a.path().join("edge/random.json")).unwrap(),
        std::fs::read(c.path().join("edge/random.json")).unwrap()
    );

    // Everything generated is valid, and the ties case has a route that
    // the reference decides by the name rule.
    let challenge = Challenge::load(&root().join("challenges"), "rendezvous-router").unwrap();
    let suite = challenge.load_suite(a.path(), false).unwrap();
    let ties = suite.cases().find(|c| c.name == "ties").unwrap();
    let by_name = (0..ties.ops.len()).any(|i| {
        matches!(challenge.model.explain_at(&ties.args, &ties.ops, i), Some(Explanation::Scores(t)) if t.rule == DecidedBy::TieSmallerName)
    });
    assert!(by_name, "no tie in the ties case");
    let large = suite.cases().find(|c| c.name == "large").unwrap();
    assert_eq!(large.ops.len(), 12000);
    assert_eq!(large.input[0][0].as_array().unwrap().len(), 1500);
    let valid = run(&["validate", "--tests", a.path().to_str().unwrap()]);
    assert_eq!(valid.status.code(), Some(0), "{}", text(&valid.stderr));
}

#[test]
fn gen_serves_every_challenge_with_valid_reproducible_ties() {
    for id in ["hrw-top", "vnode-ring", "weighted-hrw"] {
        let a = tempdir();
        let b = tempdir();
        for dir in [a.path(), b.path()] {
            for profile in ["random", "churn", "ties", "unicode", "high-scores"] {
                let out = generate(id, dir, profile, "5", &[]);
                assert_eq!(
                    out.status.code(),
                    Some(0),
                    "{id} {profile}: {}",
                    text(&out.stderr)
                );
            }
        }
        for entry in std::fs::read_dir(a.path().join("edge")).unwrap().flatten() {
            let other = b.path().join("edge").join(entry.file_name());
            assert_eq!(
                std::fs::read(entry.path()).unwrap(),
                std::fs::read(other).unwrap(),
                "{id}: {:?}",
                entry.file_name()
            );
        }
        // Valid (weighted: no decision on a hair), every operation of the
        // challenge used, and a tie decided by the name rule.
        let valid = run(&[
            "validate",
            "--challenge",
            id,
            "--tests",
            a.path().to_str().unwrap(),
        ]);
        assert_eq!(
            valid.status.code(),
            Some(0),
            "{id}: {}",
            text(&valid.stderr)
        );
        let challenge = Challenge::load(&root().join("challenges"), id).unwrap();
        let suite = challenge.load_suite(a.path(), false).unwrap();
        for signature in &challenge.operations {
            assert!(
                suite
                    .cases()
                    .any(|c| c.ops.iter().any(|o| o.name() == signature.name)),
                "{id}: no case uses {}",
                signature.name
            );
        }
        let ties = suite.cases().find(|c| c.name == "ties").unwrap();
        let by_name = (0..ties.ops.len()).any(|i| {
            match challenge.model.explain_at(&ties.args, &ties.ops, i) {
                Some(Explanation::Scores(t)) | Some(Explanation::Top { table: t, .. }) => {
                    t.rule == DecidedBy::TieSmallerName
                }
                Some(Explanation::Ring(v)) => {
                    v.after.len() > 1
                        && v.after[0].position == v.after[1].position
                        && v.after[0].position == v.position
                }
                Some(Explanation::Points(_)) | None => false,
            }
        });
        assert!(by_name, "{id}: no tie in the ties case");
    }
}

/// `--nodes 0` on every profile of every challenge: a valid case that
/// starts with no node (ties: its one tied pair), whose adds give later
/// questions an owner.
#[test]
fn gen_with_no_initial_node_writes_valid_cases_for_every_profile() {
    for id in ["rendezvous-router", "hrw-top", "vnode-ring", "weighted-hrw"] {
        let dir = tempdir();
        let profiles = ["random", "churn", "ties", "unicode", "high-scores", "large"];
        for profile in profiles {
            let out = generate(
                id,
                dir.path(),
                profile,
                "1",
                &["--nodes", "0", "--ops", "300"],
            );
            assert_eq!(
                out.status.code(),
                Some(0),
                "{id} {profile}: {}",
                text(&out.stderr)
            );
            let read = |name: &str| -> Value {
                let path = dir.path().join("edge").join(name);
                serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
            };
            let case = read(&format!("{profile}.json"));
            let initial = case[0][0].as_array().unwrap().len();
            if profile == "ties" {
                assert_eq!(initial, 2, "{id}: the ties profile's pair");
            } else {
                assert_eq!(initial, 0, "{id} {profile}: {case}");
            }
            assert_eq!(case[1].as_array().unwrap().len(), 300);
            let expected = read(&format!("{profile}.expected.json"));
            assert!(
                expected.as_array().unwrap().iter().any(Value::is_string),
                "{id} {profile}: no question has an owner: {expected}"
            );
        }
        let valid = run(&[
            "validate",
            "--challenge",
            id,
            "--tests",
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!(
            valid.status.code(),
            Some(0),
            "{id}: {}",
            text(&valid.stderr)
        );
    }
}

/// `audit --limits` measures correct submissions, leaves out one that is
/// not, proposes each group's limit by the documented rule (twice the
/// slowest correct case's CPU time, in whole seconds, at least 1 s), and
/// `--write` puts them in challenge.toml, keeping its comments.
#[test]
fn audit_proposes_limits_from_correct_submissions_and_writes_them() {
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    copy_tree(&root().join("challenges"), &challenges, |rel| {
        rel.starts_with("weighted-hrw")
    });
    let toml = challenges.join("weighted-hrw/challenge.toml");
    // A group with a limit of its own, far from what the work needs.
    let original = std::fs::read_to_string(&toml).unwrap().replacen(
        "name = \"shares\"\n",
        "name = \"shares\"\n# Far too long.\ntime_ms = 7000\n",
        1,
    );
    assert!(original.contains("time_ms = 7000"));
    std::fs::write(&toml, &original).unwrap();
    let c = challenges.to_str().unwrap();
    let correct = root().join("submissions/weighted-hrw/python/correct.py");
    let wrong = root().join("submissions/weighted-hrw/python/times_weight.py");
    let cache = dir.path().join("cache");
    let (correct, wrong, cache) = (
        correct.to_str().unwrap(),
        wrong.to_str().unwrap(),
        cache.to_str().unwrap(),
    );
    let base = ["--challenges", c, "audit", "-c", "weighted-hrw"];
    let both = run(&[
        &base[..],
        &[
            "--format",
            "json",
            "--cache-dir",
            cache,
            "--limits",
            correct,
            wrong,
        ],
    ]
    .concat());
    assert_eq!(both.status.code(), Some(1), "{}", text(&both.stderr));
    let found: Value = crate::support::document(crate::support::Document::Limits, &both);
    assert_eq!(found["measured"], 1);
    assert_eq!(found["left_out"][0]["submission"], wrong);
    assert_eq!(found["left_out"][0]["verdict"], "wrong-answer");
    assert_eq!(found["written"], Value::Null);
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        original,
        "nothing written"
    );
    let groups = found["groups"].as_array().unwrap();
    let names: Vec<&str> = groups
        .iter()
        .map(|g| g["group"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["sample", "edge", "weights", "ties", "shares", "churn"]
    );
    for group in groups {
        let slowest = group["slowest"].as_array().unwrap();
        assert_eq!(slowest.len(), 1, "one language measured: {group}");
        assert_eq!(slowest[0]["language"], "python");
        assert_eq!(
            slowest[0]["submission"], correct,
            "the wrong one is not measured"
        );
        let cpu = slowest[0]["cpu_ms"].as_u64().unwrap();
        let rule = (2 * cpu).div_ceil(1000).max(1) * 1000;
        assert_eq!(group["proposed_ms"].as_u64(), Some(rule), "{group}");
    }
    let shares = &groups[4];
    assert_eq!(shares["current_ms"], 7000);
    // Asked to write with a wrong submission among them: nothing written.
    let refused = run(&[
        &base[..],
        &["--cache-dir", cache, "--write", "--limits", correct, wrong],
    ]
    .concat());
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stdout).contains("nothing written"),
        "{}",
        text(&refused.stdout)
    );
    assert_eq!(
        std::fs::read_to_string(&toml).unwrap(),
        original,
        "nothing written"
    );
    // The file keeps its permissions when it is written.
    std::fs::set_permissions(&toml, std::os::unix::fs::PermissionsExt::from_mode(0o640)).unwrap();

    // Written: every group's limit is its proposal, and nothing else moved.
    let write = run(&[
        &base[..],
        &["--cache-dir", cache, "--write", "--limits", correct],
    ]
    .concat());
    assert_eq!(write.status.code(), Some(0), "{}", text(&write.stderr));
    let out = text(&write.stdout);
    assert!(
        out.contains(&format!("written to {}", toml.display())),
        "{out}"
    );
    assert!(out.contains("7 s now, "), "{out}");
    let written = std::fs::read_to_string(&toml).unwrap();
    assert!(
        !written.contains("Far too long") && !written.contains("7000"),
        "{written}"
    );
    let mode =
        std::os::unix::fs::PermissionsExt::mode(&std::fs::metadata(&toml).unwrap().permissions());
    assert_eq!(mode & 0o777, 0o640);
    let keep = |t: &str| -> Vec<String> {
        t.lines()
            .filter(|l| !l.contains("time_ms") && !l.contains("Far too long"))
            .map(str::to_owned)
            .collect()
    };
    assert_eq!(
        keep(&written),
        keep(&original),
        "comments and settings kept"
    );
    let challenge = Challenge::load(&challenges, "weighted-hrw").unwrap();
    let suite = challenge
        .load_suite(&challenges.join("weighted-hrw/tests"), true)
        .unwrap();
    for group in &suite.groups {
        let measured = groups.iter().find(|g| g["group"] == group.name.as_str());
        assert_eq!(
            Some(group.time_limit.as_millis() as u64),
            measured.and_then(|g| g["proposed_ms"].as_u64()),
            "{}",
            group.name
        );
    }
    // The rewritten file is a valid challenge.
    let validate = run(&["--challenges", c, "validate", "-c", "weighted-hrw"]);
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}",
        text(&validate.stdout)
    );

    // A fault of the grader's (an interpreter it cannot start) is no
    // measurement: exit 3, said so, nothing written.
    let before = std::fs::read_to_string(&toml).unwrap();
    let fault = crate::support::output(
        crate::support::grader()
            .env("GRADER_PYTHON", "/nonexistent/python3")
            .args(base)
            .args(["--cache-dir", cache, "--write", "--limits", correct]),
    );
    assert_eq!(fault.status.code(), Some(3), "{}", text(&fault.stderr));
    assert!(
        text(&fault.stderr).contains("nothing was written"),
        "{}",
        text(&fault.stderr)
    );
    assert_eq!(std::fs::read_to_string(&toml).unwrap(), before);

    // Cases of a --tests folder are not the challenge's groups.
    let tests = challenges.join("weighted-hrw/tests");
    let refused = run(&[
        &base[..],
        &[
            "--tests",
            tests.to_str().unwrap(),
            "--write",
            "--limits",
            correct,
        ],
    ]
    .concat());
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused.stderr));
    assert!(
        text(&refused.stderr).contains("--tests"),
        "{}",
        text(&refused.stderr)
    );
}
