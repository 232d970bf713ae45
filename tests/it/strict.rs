//! One set of rules for `add`, `gen`, `validate` and loading to grade:
//! declared groups, safe names, bounded cases and limits a correct
//! submission can meet, each error at its file, line and column. The
//! fixtures are in tests/fixtures/strict/.

use crate::support::{run, run_with_stdin, tempdir, text};
use std::path::Path;

const FIXTURES: &str = "tests/fixtures/strict";

/// The exit code and stderr of `grader` with `args`.
fn fails(args: &[&str]) -> (Option<i32>, String) {
    let out = run(args);
    (out.status.code(), text(&out.stderr))
}

/// Asserts that `stderr` holds every line of `wanted` (each a problem's
/// `path:line:col: message`, or its start) in that order.
fn holds_in_order(stderr: &str, wanted: &[&str]) {
    let mut rest = stderr;
    for line in wanted {
        match rest.find(line) {
            Some(at) => rest = &rest[at + line.len()..],
            None => panic!("stderr lacks {line:?} (in this order):\n{stderr}"),
        }
    }
}

#[test]
fn limits_no_submission_can_meet_are_refused_at_their_line() {
    let challenges = format!("{FIXTURES}/limits");
    let file = "limits/rendezvous-router/challenge.toml";
    let wanted = [
        format!("{file}:5:11: time_ms = 0 would fail every submission"),
        "use 100 or more".into(),
        format!("{file}:6:13: memory_mb = 16 would fail every submission"),
        "use 256 or more".into(),
        format!("{file}:7:13: processes = 1 would fail every submission"),
        "use 32 or more".into(),
        format!("{file}:8:14: open_files = 4 would fail every submission"),
        "use 64 or more".into(),
        format!("{file}:12:11: group `sample`: time_ms = 5 would fail"),
    ];
    let wanted: Vec<&str> = wanted.iter().map(String::as_str).collect();
    // Grading and validating load the challenge the same way.
    for args in [
        vec!["--challenges", &challenges, "validate"],
        vec![
            "--challenges",
            &challenges,
            "grade",
            "submissions/python/correct_class.py",
        ],
    ] {
        let (code, stderr) = fails(&args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        holds_in_order(&stderr, &wanted);
        assert!(stderr.contains("5 problems"), "{stderr}");
    }
}

/// The command line's limits are held to the least values of the
/// languages graded: Node.js needs more memory than Python.
#[test]
fn the_command_lines_limits_are_held_to_the_same_least_values() {
    let js = "submissions/javascript/correct.mjs";
    let py = "submissions/python/correct_class.py";
    for (flag, value, paths, least) in [
        ("--memory-limit", "128", vec![js], "use 256 or more"),
        ("--memory-limit", "128", vec![py, js], "use 256 or more"),
        ("--memory-limit", "32", vec![py], "use 64 or more"),
        ("--time-limit", "5", vec![py], "use 100 or more"),
    ] {
        let mut args = vec!["grade", flag, value];
        args.extend(&paths);
        let (code, stderr) = fails(&args);
        assert_eq!(code, Some(2), "{paths:?}: {stderr}");
        assert!(
            stderr.contains(&format!("{flag} {value}: ")) && stderr.contains(least),
            "{paths:?}: {stderr}"
        );
    }
    let (_, stderr) = fails(&["grade", "--memory-limit", "32", py]);
    assert!(stderr.contains("(Python alone needs about"), "{stderr}");
    // A class of Python files passes with less memory than Node.js needs,
    // as little as Python's least.
    let dir = tempdir();
    for student in ["ada", "ben"] {
        std::fs::create_dir_all(dir.path().join(student)).unwrap();
        std::fs::copy(
            crate::support::root().join(py),
            dir.path().join(student).join("router.py"),
        )
        .unwrap();
    }
    for memory in ["128", "64"] {
        let out = run(&[
            "grade",
            "--memory-limit",
            memory,
            "--tests",
            "challenges/rendezvous-router/tests/sample",
            dir.path().to_str().unwrap(),
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{memory}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn the_least_limits_let_every_language_pass() {
    // The least values the loader accepts, with a margin, fail no correct
    // example: so they are not too strict to be the floor.
    let dir = tempdir();
    let challenge = dir.path().join("rendezvous-router");
    std::fs::create_dir_all(&challenge).unwrap();
    std::fs::write(
        challenge.join("challenge.toml"),
        "title = \"t\"\noperations = [\"route\", \"add\", \"remove\"]\n\n[limits]\n\
         time_ms = 100\nmemory_mb = 256\nprocesses = 32\nopen_files = 64\n\n\
         [[groups]]\nname = \"sample\"\nweight = 0\n",
    )
    .unwrap();
    let root = dir.path().to_str().unwrap();
    for submission in [
        "submissions/python/correct_class.py",
        "submissions/javascript/correct.mjs",
    ] {
        let out = run(&[
            "--challenges",
            root,
            "grade",
            "--tests",
            "challenges/rendezvous-router/tests/sample",
            submission,
        ]);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{submission}: {}{}",
            text(&out.stdout),
            text(&out.stderr)
        );
    }
}

#[test]
fn challenge_toml_is_blamed_for_its_own_operations() {
    let cases = [
        (
            "operations",
            "operations/vnode-ring/challenge.toml:3:14: `operations` is empty, so no case could use any; list those cases may use, of the reference's: lookup, add, remove, points, load",
        ),
        (
            "typo",
            "typo/vnode-ring/challenge.toml:4:15: operation `pionts` is not implemented by the reference `vnode-ring`",
        ),
        (
            "wrong-type",
            "wrong-type/vnode-ring/challenge.toml:3:14: invalid type: string \"lookup\", expected a sequence",
        ),
    ];
    for (fixture, wanted) in cases {
        let challenges = format!("{FIXTURES}/{fixture}");
        let (code, stderr) = fails(&[
            "--challenges",
            &challenges,
            "validate",
            "--challenge",
            "vnode-ring",
        ]);
        assert_eq!(code, Some(2), "{fixture}: {stderr}");
        assert!(stderr.contains(wanted), "{fixture}: {stderr}");
        assert!(!stderr.contains(".json"), "no case is blamed: {stderr}");
    }
}

#[test]
fn an_undeclared_group_is_blamed_on_challenge_toml_by_every_command() {
    let challenges = format!("{FIXTURES}/undeclared");
    let toml = "undeclared/rendezvous-router/challenge.toml:7:1: group ";
    let declared = "is not declared in challenge.toml (declared: `sample`, `edge`); add [[groups]] with name = \"";
    // Loading (validate, grade): the folder on disk.
    for args in [
        vec!["--challenges", &challenges, "validate"],
        vec![
            "--challenges",
            &challenges,
            "grade",
            "submissions/python/correct_class.py",
        ],
    ] {
        let (code, stderr) = fails(&args);
        assert_eq!(code, Some(2), "{stderr}");
        holds_in_order(
            &stderr,
            &[
                toml,
                "`extra` (the folder ",
                "tests/extra, 2 files) ",
                declared,
            ],
        );
    }
    // Writing (gen, add): the group asked for; nothing is written.
    let gen_args = [
        "--challenges",
        &challenges,
        "gen",
        "--profile",
        "random",
        "--seed",
        "1",
        "--group",
        "nope",
        "c",
    ];
    let (code, stderr) = fails(&gen_args);
    assert_eq!(code, Some(2), "{stderr}");
    holds_in_order(
        &stderr,
        &[toml, "`nope` (--group) ", declared, "nothing was written"],
    );
    let out = run_with_stdin(
        &["--challenges", &challenges, "add", "--group", "nope", "c"],
        "[[[\"a\"]],[[\"route\",\"x\"]]]",
    );
    assert_eq!(out.status.code(), Some(2));
    holds_in_order(&text(&out.stderr), &[toml, "`nope` (--group) ", declared]);
    let written = Path::new(&challenges).join("rendezvous-router/tests/nope");
    assert!(!written.exists(), "nothing was written");
}

#[test]
fn unsafe_names_are_refused_by_add_gen_and_validate() {
    let dir = tempdir();
    let tests = dir.path().to_str().unwrap();
    let generate = |group: &str, name: &str| {
        fails(&[
            "gen",
            "--tests",
            tests,
            "--profile",
            "random",
            "--seed",
            "1",
            "--group",
            group,
            name,
        ])
    };
    for (group, name, wanted) in [
        (
            "edge",
            "../up",
            "`../up` is not a case name: '/' cannot be in one",
        ),
        (
            "edge",
            "two nodes",
            "`two nodes` is not a case name: ' ' cannot be in one",
        ),
        (
            "edge",
            "x.json",
            "`x.json` is not a case name: `.json` is added to it",
        ),
        (
            "edge",
            "_x",
            "`_x` is not a case name: it must start with a letter or a digit",
        ),
        (
            "../g",
            "x",
            "--group: `../g` is not a group name: '/' cannot be in one",
        ),
    ] {
        let (code, stderr) = generate(group, name);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains(wanted), "{name}: {stderr}");
        let out = run_with_stdin(
            &["add", "--tests", tests, "--group", group, name],
            "[[[\"a\"]],[[\"route\",\"x\"]]]",
        );
        assert_eq!(out.status.code(), Some(2));
        assert!(text(&out.stderr).contains(wanted), "{}", text(&out.stderr));
    }
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    // A file already on disk under such a name fails validate.
    let names = format!("{FIXTURES}/names");
    let (code, stderr) = fails(&["validate", "--tests", &names]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "names/edge/two nodes.json: `two nodes` is not a case name: ' ' cannot be in one"
        ) && stderr.contains("1 problem"),
        "{stderr}"
    );
}

#[test]
fn oversized_cases_are_refused_at_load_at_their_place() {
    let tests = format!("{FIXTURES}/oversized");
    let wanted = [
        "oversized/edge/grows.json:10:3: once `add` adds \"k\", the ring holds 1100000 points (11 nodes × k = 100000), past the bound of 1000000; use at most 10 nodes with this k",
        "oversized/edge/loads.json:52:2: the loads up to here ask for 51000000 keys in all, past the bound of 50000000 per case",
        "oversized/edge/ring.json:1:3: with the constructor's nodes, the ring holds 1200000 points (2 nodes × k = 600000), past the bound of 1000000; use at most 1 node with this k",
    ];
    for command in ["validate", "grade"] {
        let mut args = vec!["--challenge", "vnode-ring", "--tests", &tests];
        args.insert(0, command);
        if command == "grade" {
            args.push("submissions/vnode-ring/python/correct.py");
        }
        let (code, stderr) = fails(&args);
        assert_eq!(code, Some(2), "{command}: {stderr}");
        holds_in_order(&stderr, &wanted);
    }
}

#[test]
fn too_many_operations_are_refused_at_the_first_one_past_the_bound() {
    let dir = tempdir();
    let group = dir.path().join("edge");
    std::fs::create_dir_all(&group).unwrap();
    // One per line, so the first past the bound is on line 1,000,002.
    let mut case = String::from("[[[\"a\"]],\n[");
    for i in 0..1_000_001 {
        case.push_str(if i == 0 {
            "[\"route\",\"k\"]"
        } else {
            ",\n[\"route\",\"k\"]"
        });
    }
    case.push_str("]]\n");
    std::fs::write(group.join("many.json"), case).unwrap();
    let (code, stderr) = fails(&["validate", "--tests", dir.path().to_str().unwrap()]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("edge/many.json:1000002:1: 1000001 operations are past the bound of 1000000 per case; split them over several cases"),
        "{stderr}"
    );
}

#[test]
fn gen_refuses_what_the_loader_would_refuse_and_writes_nothing() {
    let dir = tempdir();
    let tests = dir.path().to_str().unwrap();
    let generate = |extra: &[&str]| {
        let mut args = vec![
            "gen",
            "--tests",
            tests,
            "--profile",
            "random",
            "--seed",
            "1",
            "--group",
            "edge",
            "c",
        ];
        args.extend(extra);
        fails(&args)
    };
    let (code, stderr) = generate(&[
        "--challenge",
        "vnode-ring",
        "--nodes",
        "125001",
        "--ops",
        "1",
    ]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("grader gen --nodes 125001 --ops 1: with the constructor's nodes, the ring holds 1000008 points (125001 nodes × k = 8), past the bound of 1000000; use at most 125000 nodes with this k")
            && stderr.contains("nothing was written"),
        "{stderr}"
    );
    let (code, stderr) = generate(&["--ops", "1000001"]);
    assert_eq!(code, Some(2), "{stderr}");
    assert!(
        stderr.contains("1000001 operations are past the bound of 1000000 per case"),
        "{stderr}"
    );
    assert!(!dir.path().join("edge/c.json").exists());
    // Within the bounds, what gen writes loads.
    let (code, stderr) = generate(&[
        "--challenge",
        "vnode-ring",
        "--nodes",
        "1000",
        "--ops",
        "20",
    ]);
    assert_eq!(code, Some(0), "{stderr}");
    let (code, stderr) = fails(&["validate", "--challenge", "vnode-ring", "--tests", tests]);
    assert_eq!(code, Some(0), "{stderr}");
}
