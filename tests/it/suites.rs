//! The rules of a suite and the commands that read suites, through the
//! real binary: every group is declared, in a `--tests` folder too; every
//! problem of challenge.toml is reported at once; `validate`, `audit` and
//! `bless` take `--all`; each command says what invalid files kept it
//! from doing.

use crate::support::{copy_tree, root, run, tempdir, text};
use std::path::{Path, PathBuf};

/// A key no report may show: it is in a case of a group nobody declared.
const CANARY: &str = "canary-undeclared-4d1e";

/// The groups a challenge.toml declares, read here with a TOML parser of
/// our own choosing rather than the grader's loader.
fn declared(challenge: &str) -> Vec<String> {
    let text = std::fs::read_to_string(
        root()
            .join("challenges")
            .join(challenge)
            .join("challenge.toml"),
    )
    .unwrap();
    let table: toml::Table = toml::from_str(&text).unwrap();
    table["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap().to_owned())
        .collect()
}

fn declared_list(challenge: &str) -> String {
    declared(challenge)
        .iter()
        .map(|g| format!("`{g}`"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn secret_case(folder: &Path) {
    std::fs::create_dir_all(folder).unwrap();
    std::fs::write(
        folder.join("secret.json"),
        format!(r#"[[["a", "b"]], [["route", "{CANARY}"]]]"#),
    )
    .unwrap();
}

fn grade_json(tests: &Path) -> std::process::Output {
    run(&[
        "grade",
        "--tests",
        tests.to_str().unwrap(),
        "--format",
        "json",
        "submissions/python/correct_class.py",
    ])
}

#[test]
fn a_group_no_challenge_toml_declares_is_refused_in_a_tests_folder() {
    let dir = tempdir();
    let tests = dir.path().join("hidden-tests");
    copy_tree(
        &root().join("challenges/rendezvous-router/tests/edge"),
        &tests.join("edge"),
        |_| true,
    );
    secret_case(&tests.join("extra"));
    let out = grade_json(&tests);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        out.stdout.is_empty(),
        "a report was written: {}",
        text(&out.stdout)
    );
    let folder = tests.join("extra");
    assert!(
        stderr.contains(&format!(
            "{}: group `extra` is not declared in the challenge.toml of `rendezvous-router` (declared: {})",
            folder.display(),
            declared_list("rendezvous-router")
        )),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was graded"), "{stderr}");
    assert!(!stderr.contains(CANARY), "{stderr}");

    // Case files directly in the folder are a group named after it.
    std::fs::remove_dir_all(tests.join("extra")).unwrap();
    secret_case(&tests);
    let out = grade_json(&tests);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: its cases form a group named after the folder, `hidden-tests`, which is not declared",
            tests.display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains(CANARY), "{stderr}");

    // In a declared group, the same case is graded, with that group's
    // settings.
    std::fs::remove_file(tests.join("secret.json")).unwrap();
    secret_case(&tests.join("churn"));
    let out = grade_json(&tests);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let groups: Vec<&str> = report["submissions"][0]["groups"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["name"].as_str().unwrap())
        .collect();
    assert_eq!(groups, ["edge", "churn"]);
}

#[test]
fn add_and_gen_refuse_an_undeclared_group_in_a_tests_folder() {
    let dir = tempdir();
    let tests = dir.path().to_str().unwrap();
    let case = root().join("challenges/rendezvous-router/tests/sample");
    let pasted = std::fs::read_dir(&case)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| !p.to_string_lossy().ends_with(".expected.json"))
        .unwrap();
    for args in [
        vec![
            "add",
            "--tests",
            tests,
            "--group",
            "nope",
            "one",
            pasted.to_str().unwrap(),
        ],
        vec![
            "gen",
            "--tests",
            tests,
            "--profile",
            "random",
            "--seed",
            "1",
            "--group",
            "nope",
            "one",
        ],
    ] {
        let out = run(&args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("group `nope` (--group) is not declared in challenge.toml")
                && stderr.contains(&declared_list("rendezvous-router"))
                && stderr.contains("nothing was written"),
            "{args:?}: {stderr}"
        );
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "{args:?} wrote something"
        );
    }
}

/// A copy of the shipped challenges, to damage.
fn copy_challenges(dir: &Path) -> PathBuf {
    let to = dir.join("challenges");
    copy_tree(&root().join("challenges"), &to, |_| true);
    to
}

/// The shipped challenges' ids: their folders with a challenge.toml.
fn ids() -> Vec<String> {
    let mut ids: Vec<String> = std::fs::read_dir(root().join("challenges"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("challenge.toml").is_file())
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    ids.sort();
    ids
}

/// Runs the grader on the challenges in `challenges`.
fn run_on(challenges: &Path, args: &[&str]) -> std::process::Output {
    let mut all = vec!["--challenges", challenges.to_str().unwrap()];
    all.extend(args);
    run(&all)
}

/// An expected file of challenge `id`'s edge group.
fn an_expected_file(challenges: &Path, id: &str) -> PathBuf {
    std::fs::read_dir(challenges.join(id).join("tests/edge"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.to_string_lossy().ends_with(".expected.json"))
        .unwrap()
}

#[test]
fn validate_audit_and_bless_take_every_challenge_with_all() {
    let dir = tempdir();
    let challenges = copy_challenges(dir.path());
    let on = |args: &[&str]| run_on(&challenges, args);
    let ids = ids();
    assert_eq!(ids.len(), 4, "{ids:?}");

    let validate = on(&["validate", "--all"]);
    assert_eq!(
        validate.status.code(),
        Some(0),
        "{}",
        text(&validate.stderr)
    );
    let stdout = text(&validate.stdout);
    for id in &ids {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("{id}: ")) && l.contains("all valid")),
            "{id}: {stdout}"
        );
    }

    let audit = on(&["audit", "--all", "--format", "json"]);
    assert_eq!(audit.status.code(), Some(0), "{}", text(&audit.stderr));
    let audits: serde_json::Map<String, serde_json::Value> =
        crate::support::document(crate::support::Document::Audits, &audit);
    assert_eq!(audits.keys().cloned().collect::<Vec<_>>(), ids);
    for (id, rows) in &audits {
        // Each as `audit --challenge ID` writes it alone.
        let alone = on(&["audit", "--challenge", id, "--format", "json"]);
        let alone: serde_json::Value =
            crate::support::document(crate::support::Document::Audit, &alone);
        assert_eq!(rows, &alone, "{id}");
    }
    let human = text(&on(&["audit", "--all"]).stdout);
    for id in &ids {
        assert!(
            human
                .lines()
                .any(|l| l.starts_with(&format!("{id}: ")) && l.contains("known mistakes against")),
            "{id}: {human}"
        );
    }

    // An expected file of the last challenge damaged: --check names it
    // under its challenge; bless writes it back.
    let last = ids.last().unwrap();
    let damaged = an_expected_file(&challenges, last);
    let original = std::fs::read(&damaged).unwrap();
    std::fs::write(&damaged, "[]").unwrap();
    let check = on(&["bless", "--check", "--all"]);
    let stdout = text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("{last}: 1 expected file would change")),
        "{stdout}"
    );
    for id in &ids[..ids.len() - 1] {
        assert!(
            stdout.contains(&format!(
                "{id}: every expected file agrees with the reference"
            )),
            "{stdout}"
        );
    }
    assert_eq!(std::fs::read(&damaged).unwrap(), b"[]", "--check wrote");
    let bless = on(&["bless", "--all"]);
    assert_eq!(bless.status.code(), Some(0), "{}", text(&bless.stderr));
    assert_eq!(std::fs::read(&damaged).unwrap(), original);

    // --all is every challenge: with one named, or other tests, it is a
    // mistake to say.
    for args in [
        &["validate", "--all", "--challenge", "hrw-top"][..],
        &["audit", "--all", "--tests", "x"],
        &["audit", "--all", "--limits", "x.py"],
        &["bless", "--all", "--challenge", "hrw-top"],
    ] {
        let out = on(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains("cannot be used with"),
            "{args:?}"
        );
    }
}

#[test]
fn with_all_one_broken_challenge_stops_audit_and_bless_but_not_validate() {
    let dir = tempdir();
    let challenges = copy_challenges(dir.path());
    let on = |args: &[&str]| run_on(&challenges, args);
    let ids = ids();
    let (broken, rest) = ids.split_first().unwrap();
    let toml = challenges.join(broken).join("challenge.toml");
    let mut text_of = std::fs::read_to_string(&toml).unwrap();
    text_of.push_str("\n[rust]\nflags = \"-O\"\n");
    std::fs::write(&toml, &text_of).unwrap();
    // Another challenge's expected file, damaged: bless must not write it
    // while a suite it was asked for does not load.
    let other = rest.last().unwrap();
    let damaged = an_expected_file(&challenges, other);
    std::fs::write(&damaged, "[]").unwrap();

    let validate = on(&["validate", "--all"]);
    let (stdout, stderr) = (text(&validate.stdout), text(&validate.stderr));
    assert_eq!(validate.status.code(), Some(2), "{stdout}{stderr}");
    assert!(
        stderr.contains(&format!("{}:", toml.display()))
            && stderr.contains("unknown field `flags`"),
        "{stderr}"
    );
    assert!(stderr.contains(&damaged.display().to_string()), "{stderr}");
    assert!(!stderr.contains("nothing was"), "{stderr}");
    for id in &rest[..rest.len() - 1] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("{id}: ")) && l.contains("all valid")),
            "{id}: {stdout}"
        );
    }

    for (args, undone) in [
        (&["audit", "--all"][..], "nothing was audited"),
        (&["bless", "--all"], "nothing was written"),
    ] {
        let out = on(args);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: {}", text(&out.stdout));
        assert!(
            stderr.contains(&format!("in the challenge or test files; {undone}:"))
                && stderr.contains("unknown field `flags`"),
            "{args:?}: {stderr}"
        );
    }
    assert_eq!(std::fs::read(&damaged).unwrap(), b"[]", "bless wrote");

    // `list` names the problems of every challenge, not the first's.
    let extra = challenges.join(other).join("tests/extra");
    secret_case(&extra);
    let list = on(&["list"]);
    let stderr = text(&list.stderr);
    assert_eq!(list.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("; nothing was listed:")
            && stderr.contains("unknown field `flags`")
            && stderr.contains(&format!("{}", extra.display())),
        "{stderr}"
    );
}

#[test]
fn each_command_says_what_invalid_files_kept_it_from_doing() {
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    copy_tree(
        &root().join("tests/fixtures/bad-challenges"),
        &challenges,
        |_| true,
    );
    let c = challenges.to_str().unwrap();
    let submission = "submissions/python/correct_class.py";
    for (args, said) in [
        (
            vec!["grade", "--challenge", "many-problems", submission],
            Some("nothing was graded"),
        ),
        (
            vec!["audit", "--challenge", "many-problems"],
            Some("nothing was audited"),
        ),
        (
            vec!["bless", "--challenge", "many-problems"],
            Some("nothing was written"),
        ),
        (
            vec![
                "gen",
                "--challenge",
                "many-problems",
                "--profile",
                "random",
                "--seed",
                "1",
                "--group",
                "edge",
                "x",
            ],
            Some("nothing was written"),
        ),
        (vec!["validate", "--challenge", "many-problems"], None),
    ] {
        let mut all = vec!["--challenges", c];
        all.extend(&args);
        let out = run(&all);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        let first = stderr.lines().next().unwrap_or_default();
        match said {
            Some(said) => assert_eq!(
                first,
                format!("error: 7 problems in the challenge or test files; {said}:"),
                "{args:?}"
            ),
            None => assert_eq!(
                first, "error: 7 problems in the challenge or test files:",
                "{args:?}"
            ),
        }
    }
}

#[test]
fn a_tests_folder_named_by_dot_is_the_group_of_its_own_name() {
    let dir = tempdir();
    let edge = crate::support::edge_suite(dir.path());
    std::fs::write(edge.join("one.json"), r#"[[["a", "b"]], [["route", "k"]]]"#).unwrap();
    let out = crate::support::output(
        crate::support::grader()
            .current_dir(&edge)
            .args(["grade", "--format", "json", "--tests", "."])
            .arg(root().join("submissions/python/correct_class.py")),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["submissions"][0]["tests"][0]["group"], "edge");
}

#[test]
fn cases_a_suite_would_not_read_are_named_not_skipped() {
    let dir = tempdir();
    let elsewhere = dir.path().join("elsewhere");
    secret_case(&elsewhere);
    let tests = dir.path().join("tests");
    let edge = tests.join("edge");
    secret_case(&edge.join("more"));
    std::fs::write(edge.join("ok.json"), r#"[[["a"]], [["route", "k"]]]"#).unwrap();
    std::fs::write(edge.join("shout.JSON"), r#"[[["a"]], [["route", "k"]]]"#).unwrap();
    std::os::unix::fs::symlink(&elsewhere, tests.join("ties")).unwrap();
    std::os::unix::fs::symlink(elsewhere.join("secret.json"), edge.join("linked.json")).unwrap();
    // A link to nowhere, named as a declared group: the group would vanish.
    std::os::unix::fs::symlink(dir.path().join("gone"), tests.join("churn")).unwrap();
    // A pipe named as an expected file: the case would be graded against
    // the reference instead, or a read would wait forever.
    mkfifo(&edge.join("ok.expected.json"));
    // A name no report should show.
    std::fs::write(edge.join("a b.json"), r#"[[["a"]], [["route", "k"]]]"#).unwrap();
    // Not cases: left alone.
    std::fs::write(edge.join("notes.txt"), "x").unwrap();
    std::fs::create_dir_all(edge.join("empty")).unwrap();
    std::os::unix::fs::symlink(edge.join("notes.txt"), edge.join("README")).unwrap();
    let out = grade_json(&tests);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
    assert!(stderr.contains("7 problems"), "{stderr}");
    for (path, why) in [
        (tests.join("ties"), "a link (to "),
        (tests.join("churn"), "a link (to "),
        (edge.join("ok.expected.json"), "not a regular file"),
        (edge.join("a b.json"), "`a b` is not a case name"),
        (edge.join("linked.json"), "a link (to "),
        (edge.join("more"), "a folder inside a group's folder"),
        (
            edge.join("shout.JSON"),
            "`shout.JSON` is not read as a case",
        ),
    ] {
        assert!(
            stderr.contains(&format!("{}: {why}", path.display())),
            "{}: {stderr}",
            path.display()
        );
    }
    assert!(!stderr.contains(CANARY), "{stderr}");
}

/// A named pipe at `path`.
fn mkfifo(path: &Path) {
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(made.success());
}

#[test]
fn a_pipe_in_place_of_a_statement_or_a_starter_is_refused_not_waited_on() {
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    copy_tree(
        &root().join("challenges/hrw-top"),
        &challenges.join("hrw-top"),
        |_| true,
    );
    let own = challenges.join("hrw-top");
    std::fs::remove_file(own.join("README.md")).unwrap();
    mkfifo(&own.join("README.md"));
    let starter = std::fs::read_dir(own.join("starters"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|e| e == "py"))
        .unwrap();
    std::fs::remove_file(&starter).unwrap();
    mkfifo(&starter);
    let work = dir.path().join("work");
    std::fs::create_dir_all(&work).unwrap();
    for args in [
        vec!["show", "hrw-top"],
        vec!["init", "--challenge", "hrw-top", "--lang", "python"],
    ] {
        let mut child = crate::support::grader()
            .current_dir(&work)
            .arg("--challenges")
            .arg(&challenges)
            .args(&args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if std::time::Instant::now() > deadline {
                let _ = child.kill();
                panic!("{args:?} waits on the pipe");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let out = child.wait_with_output().unwrap();
        assert_eq!(status.code(), Some(2), "{args:?}: {}", text(&out.stderr));
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}
