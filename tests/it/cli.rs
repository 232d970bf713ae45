//! The command line through the real binary: bad input gives exit 2 and a
//! message naming file and position; a missing runtime is the grader's
//! fault (exit 3); `hash` and `list` print facts checked independently.

use crate::support::{edge_suite, grader, json, output, root, run, tempdir, text, vectors};
use serde_json::Value;

#[test]
fn an_unknown_key_in_challenge_toml_is_pointed_at() {
    let out = run(&[
        "--challenges",
        "tests/fixtures/bad-challenges",
        "grade",
        "--challenge",
        "unknown-key",
        "submissions/python/correct_class.py",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains(
            "unknown-key/challenge.toml:7:1: unknown field `timeout`, expected one of `time_ms`"
        ),
        "{stderr}"
    );
}

#[test]
fn bad_usage_exits_2_with_a_hint() {
    let cases: [(&[&str], &str); 6] = [
        (
            &[
                "grade",
                "--challenge",
                "nope",
                "submissions/python/correct_class.py",
            ],
            "no challenge `nope`",
        ),
        (
            &["grade", "submissions/expected.toml"],
            "cannot tell the language of submissions/expected.toml",
        ),
        (
            &["grade", "submissions/missing.py"],
            "cannot read submission submissions/missing.py",
        ),
        (
            &["grade", "/dev/null"],
            "submission /dev/null is not a file; give the path of the module to grade",
        ),
        (
            &[
                "grade",
                "--tests",
                "no/such/dir",
                "submissions/python/correct_class.py",
            ],
            "no/such/dir does not exist",
        ),
        (
            &["grade", "--frobnicate", "x.py"],
            "unexpected argument '--frobnicate'",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

/// A grader that cannot start an interpreter fails on that submission
/// alone: it is recorded as a grader fault (no verdict on the learner's
/// code), the rest of the class is graded, the run exits 3 even with
/// --exit-zero, and resuming grades the faulted submission again.
#[test]
fn a_missing_interpreter_is_the_graders_fault_not_the_learners() {
    let dir = tempdir();
    let class = dir.path().join("class");
    for (student, file, example) in [
        (
            "a-python",
            "router.py",
            "submissions/python/correct_class.py",
        ),
        ("b-node", "router.cjs", "submissions/javascript/correct.cjs"),
    ] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(root().join(example), class.join(student).join(file)).unwrap();
    }
    let results = dir.path().join("results");
    let grade = |python: &str, resume: bool| {
        let mut command = grader();
        command
            .env("GRADER_PYTHON", python)
            .args(["grade", "--format", "json", "--exit-zero", "--results"])
            .arg(&results)
            .args(["--tests", "challenges/rendezvous-router/tests/sample"])
            .arg(&class);
        if resume {
            command.arg("--resume");
        }
        output(&mut command)
    };
    let out = grade("/nonexistent/python3", false);
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("the grader failed on 1 submission"),
        "{stderr}"
    );
    assert!(stderr.contains("a-python"), "{stderr}");
    let report: Value = json(&out);
    let python = &report["submissions"][0];
    assert_eq!(python["name"], "a-python");
    assert_eq!(
        python["verdict"], "grader-fault",
        "never a learner's verdict"
    );
    let message = python["tests"][0]["message"].as_str().unwrap();
    assert!(
        message.contains("the Python GRADER_PYTHON names (/nonexistent/python3)"),
        "{message}"
    );
    assert!(message.contains("GRADER_PYTHON"), "{message}");
    assert_eq!(report["submissions"][1]["verdict"], "accepted");

    // With the interpreter back, resuming grades the faulted one only.
    let out = grade("python3", true);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let report: Value = json(&out);
    let verdicts: Vec<&str> = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts, ["accepted", "accepted"]);
}

#[test]
fn hash_prints_the_spec_check_values() {
    let vectors = vectors();
    let checks = vectors["h32"].as_object().unwrap();
    let texts: Vec<&str> = checks.keys().map(String::as_str).collect();
    let mut args = vec!["hash"];
    args.extend(&texts);
    let out = run(&args);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), texts.len());
    for (line, text) in lines.iter().zip(&texts) {
        assert_eq!(*line, format!("{}\t{text}", checks[*text]));
    }
}

#[test]
fn list_shows_every_challenge_and_counts_the_cases_on_disk() {
    let out = run(&["list"]);
    assert_eq!(out.status.code(), Some(0));
    let stdout = text(&out.stdout);
    // First where they came from: here, the checkout's folder.
    let (first, rest) = stdout.split_once('\n').unwrap();
    assert_eq!(
        first,
        format!(
            "challenges: {} (./challenges in the working folder)",
            root().join("challenges").display()
        )
    );
    // Sections: a challenge's line, then its groups' indented lines.
    let mut sections: Vec<(String, Vec<&str>)> = Vec::new();
    for line in rest.lines() {
        if line.starts_with(' ') {
            sections
                .last_mut()
                .expect("a group line after a challenge")
                .1
                .push(line);
        } else {
            let id = line.split_whitespace().next().unwrap().to_owned();
            sections.push((id, Vec::new()));
        }
    }
    let ids: Vec<&str> = sections.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(
        ids,
        ["hrw-top", "rendezvous-router", "vnode-ring", "weighted-hrw"],
        "{stdout}"
    );
    for (id, lines) in &sections {
        let tests = root().join("challenges").join(id).join("tests");
        let mut groups = 0;
        for group in std::fs::read_dir(&tests).unwrap() {
            let group = group.unwrap().file_name().into_string().unwrap();
            let cases = std::fs::read_dir(tests.join(&group))
                .unwrap()
                .filter(|e| {
                    let name = e.as_ref().unwrap().file_name().into_string().unwrap();
                    name.ends_with(".json") && !name.ends_with(".expected.json")
                })
                .count();
            let line = lines
                .iter()
                .find(|l| l.trim_start().starts_with(&format!("{group} ")))
                .unwrap_or_else(|| panic!("{id}: no line for {group}:\n{stdout}"));
            let counted = if cases == 1 {
                "1 case ".to_owned()
            } else {
                format!("{cases} cases")
            };
            assert!(line.contains(&counted), "{id}: {line}");
            groups += 1;
        }
        assert_eq!(lines.len(), groups, "{id}: a group without a folder");
    }
}

#[test]
fn a_case_without_expected_file_is_graded_against_the_reference() {
    let dir = tempdir();
    // Sample 1 of the challenge page without its output: the reference must
    // supply exactly the page's output, so the correct router passes and the
    // lowest-score one fails on its first route.
    let vectors = vectors();
    let sample = &vectors["rendezvous-router"]["sample-1-keys-spread-over-three-nodes"];
    let edge = edge_suite(dir.path());
    std::fs::write(edge.join("page.json"), sample["input"].to_string()).unwrap();
    let tests = edge.to_str().unwrap();
    let out = run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        tests,
        "submissions/python/correct_solve.py",
        "submissions/python/lowest_score.py",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = json(&out);
    let [good, bad] = report["submissions"].as_array().unwrap().as_slice() else {
        panic!("two submissions")
    };
    assert_eq!(good["verdict"], "accepted");
    assert_eq!(good["tests"][0]["expected_from"], "reference");
    assert_eq!(bad["verdict"], "wrong-answer");
    assert_eq!(
        bad["tests"][0]["divergence"]["expected"],
        sample["output"][0]
    );
    // Files directly in the folder form one group named after it.
    assert_eq!(good["tests"][0]["group"], "edge");
}

#[test]
fn human_output_has_no_colour_when_piped() {
    let out = run(&[
        "grade",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/python/lowest_score.py",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        !stdout.contains('\u{1b}'),
        "escape sequences in piped output"
    );
    assert!(
        stdout.contains("FAIL sample/sample-1-keys-spread-over-three-nodes"),
        "{stdout}"
    );
    assert!(
        stdout.contains("first wrong answer at operation 0: [\"route\",\"user:1\"]"),
        "{stdout}"
    );
    assert!(stdout.contains("<- your answer"), "{stdout}");
    assert!(
        stdout.contains("wrong-answer: 0 of 3 tests passed"),
        "{stdout}"
    );
}

/// Every usage mistake of another command exits 2 and says why; a reader
/// that closes the pipe early ends the grader quietly.
#[test]
fn each_command_refuses_what_it_cannot_do_with_exit_2() {
    let dir = tempdir();
    // A report of two submissions, to merge.
    let report = dir.path().join("two.json");
    let out = run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/python/correct_class.py",
        "submissions/python/lowest_score.py",
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    std::fs::write(&report, &out.stdout).unwrap();
    let report = report.to_string_lossy().into_owned();
    let existing = dir.path().join("starter");
    std::fs::create_dir(&existing).unwrap();
    std::fs::write(existing.join("router.py"), "# mine\n").unwrap();
    let existing = existing.to_string_lossy().into_owned();
    let cases: [(&[&str], &str); 5] = [
        (
            &["merge", "--format", "gradescope", &report],
            "--format gradescope describes one submission",
        ),
        (
            &["hash", "--challenges", "challenges", "abc"],
            "`grader hash` takes no --challenges",
        ),
        (
            &["merge", "--challenges", "challenges", &report],
            "`grader merge` takes no --challenges",
        ),
        (&["audit", "--format", "junit"], "invalid value 'junit'"),
        (
            &["init", "--lang", "python", &existing],
            "router.py already exists; nothing was written",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains(message),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // What init refused to overwrite is as it was.
    assert_eq!(
        std::fs::read_to_string(dir.path().join("starter/router.py")).unwrap(),
        "# mine\n"
    );
}

#[test]
fn a_closed_pipe_ends_the_grader_quietly_with_exit_0() {
    use std::io::Read;
    // `grader hash ... | head -c 1`: the reader takes one byte and leaves
    // while the grader still has far more than a pipe holds to write.
    let texts: Vec<String> = (0..20_000).map(|i| format!("text-{i}")).collect();
    let mut child = grader()
        .arg("hash")
        .args(&texts)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut first = [0u8; 1];
    stdout.read_exact(&mut first).unwrap();
    drop(stdout);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}

/// `--output` and `--gradebook` name where a report goes, not a file to
/// replace: a device, a pipe or a link to one is written through, as a
/// shell's `>` would, and a link to a file keeps naming that file (run as
/// root, renaming a file over /dev/null replaced the system's device).
#[test]
fn reports_to_a_device_a_pipe_or_a_link_are_written_through() {
    use std::os::unix::fs::FileTypeExt;
    let dir = tempdir();
    let file_type = |p: &std::path::Path| std::fs::symlink_metadata(p).unwrap().file_type();
    // The null device (1, 3) of our own, where only root may make one.
    let null = dir.path().join("null");
    let made = std::process::Command::new("mknod")
        .args(["-m", "666"])
        .arg(&null)
        .args(["c", "1", "3"])
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        made || crate::support::effective_uid() != 0,
        "root could not make a device node"
    );
    // A pipe with a reader, behind a link, as /dev/stdout is.
    let fifo = dir.path().join("fifo");
    assert!(
        std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let piped = dir.path().join("piped");
    std::os::unix::fs::symlink(&fifo, &piped).unwrap();
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    // A link to a file, and the file it names.
    let book = dir.path().join("book.csv");
    std::fs::write(&book, "old").unwrap();
    let linked = dir.path().join("linked.csv");
    std::os::unix::fs::symlink(&book, &linked).unwrap();
    let mut command = grader();
    command
        .args(["grade", "--format", "json", "--gradebook"])
        .arg(&linked)
        .arg("--output")
        .arg(if made { &null } else { &piped });
    let out = output(
        command
            .args(["--tests", "challenges/rendezvous-router/tests/sample"])
            .arg("submissions/python/correct_class.py"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    if made {
        assert!(file_type(&null).is_char_device(), "the device was replaced");
        // The pipe gets its report from a second run.
        let mut command = grader();
        let out = output(
            command
                .args(["grade", "--format", "json", "--output"])
                .arg(&piped)
                .args(["--tests", "challenges/rendezvous-router/tests/sample"])
                .arg("submissions/python/correct_class.py"),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    }
    let through: Value = serde_json::from_str(&reader.join().unwrap()).unwrap();
    assert_eq!(through["submissions"][0]["verdict"], "accepted");
    assert!(file_type(&piped).is_symlink() && file_type(&fifo).is_fifo());
    assert!(file_type(&linked).is_symlink(), "the link was replaced");
    let gradebook = std::fs::read_to_string(&book).unwrap();
    assert!(gradebook.contains("correct_class"), "{gradebook}");
}

/// The time limit is CPU time, with a wall-clock backstop for a case that
/// waits (docs/containment.md#limits): the help of every command that
/// takes it, and the shipped challenges, say so.
#[test]
fn the_time_limit_is_called_cpu_time_everywhere_it_is_set() {
    for command in ["grade", "watch"] {
        let out = run(&[command, "--help"]);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let help = text(&out.stdout)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            help.contains("--time-limit <MS> CPU time per case in milliseconds"),
            "{command}: {help}"
        );
        assert!(help.contains("wall clock"), "{command}: {help}");
        assert!(
            !help.contains("Wall-clock time per case"),
            "{command}: {help}"
        );
    }
    for entry in std::fs::read_dir(root().join("challenges")).unwrap() {
        let toml = entry.unwrap().path().join("challenge.toml");
        let text = std::fs::read_to_string(&toml).unwrap();
        let limits = &text[text.find("[limits]").unwrap()..];
        assert!(
            limits.starts_with("[limits]\n# CPU time per case"),
            "{}: {limits}",
            toml.display()
        );
    }
}

/// A rustc that cannot answer (rustup's proxy run with another HOME: no
/// default toolchain) is the grader's fault, and the error carries what it
/// said, trimmed to its lines.
#[test]
fn a_rustc_that_fails_is_a_fault_that_says_what_rustc_said() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempdir();
    let rustc = dir.path().join("rustc");
    std::fs::write(
        &rustc,
        "#!/bin/sh\necho \"error: rustup could not choose a version of rustc to run\" >&2\necho \"help: run 'rustup default stable'\" >&2\nexit 1\n",
    )
    .unwrap();
    std::fs::set_permissions(&rustc, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = output(grader().env("GRADER_RUSTC", &rustc).args([
        "grade",
        "--tests",
        "challenges/rendezvous-router/tests/sample",
        "submissions/rust/correct.rs",
    ]));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "`{} --print=sysroot` exited with code 1: error: rustup could not choose a version of rustc to run / help: run 'rustup default stable'",
            rustc.display()
        )) && stderr.contains("set GRADER_RUSTC"),
        "{stderr}"
    );
}

/// The samples alone: a suite that grades in a moment.
const SAMPLES: &str = "challenges/rendezvous-router/tests/sample";

/// The human report of a failing submission, with `args` before `grade`
/// and `env` set, colour variables cleared first: whether it is coloured
/// (standard output is a pipe here, never a terminal).
fn coloured(args: &[&str], env: &[(&str, &str)]) -> bool {
    let mut command = grader();
    for var in ["NO_COLOR", "FORCE_COLOR", "CLICOLOR_FORCE", "CLICOLOR"] {
        command.env_remove(var);
    }
    let out = output(
        command
            .args(args)
            .args(["grade", "--tests", SAMPLES])
            .arg("submissions/python/double_colon.py")
            .envs(env.iter().copied()),
    );
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    out.stdout.contains(&0x1b)
}

#[test]
fn colour_follows_the_flag_then_no_color_then_force_color() {
    assert!(!coloured(&[], &[]), "a pipe is not coloured");
    assert!(coloured(&["--color", "always"], &[]));
    assert!(coloured(&["--color=always"], &[("NO_COLOR", "1")]));
    assert!(!coloured(&["--color", "never"], &[("FORCE_COLOR", "1")]));
    assert!(coloured(&[], &[("FORCE_COLOR", "1")]));
    assert!(coloured(&[], &[("CLICOLOR_FORCE", "1")]));
    assert!(!coloured(&[], &[("NO_COLOR", "1"), ("FORCE_COLOR", "1")]));
    assert!(!coloured(&[], &[("FORCE_COLOR", "")]));
    assert!(
        !coloured(&[], &[("CLICOLOR_FORCE", "0")]),
        "0 forces nothing"
    );
    assert!(!coloured(&[], &[("CLICOLOR_FORCE", "")]));
}

#[test]
fn quiet_keeps_progress_and_notes_off_stderr_and_the_report_whole() {
    let dir = tempdir();
    let report = dir.path().join("report.json");
    let gradebook = dir.path().join("grades.csv");
    let run = |quiet: &[&str]| {
        let out = output(
            grader()
                .args(["grade", "--tests", SAMPLES])
                .args(["--format", "json", "--output"])
                .arg(&report)
                .arg("--gradebook")
                .arg(&gradebook)
                .args(quiet)
                .args([
                    "submissions/python/double_colon.py",
                    "submissions/python/correct_class.py",
                ]),
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let report: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&report).unwrap()).unwrap();
        (
            text(&out.stderr),
            report["submissions"].as_array().unwrap().len(),
        )
    };
    let (loud, graded) = run(&[]);
    assert!(
        loud.contains("[2/2] ") && loud.contains("wrote the gradebook"),
        "{loud}"
    );
    for quiet in [&["-q"][..], &["--quiet"]] {
        let (stderr, graded_quietly) = run(quiet);
        assert_eq!(stderr, "", "{quiet:?}");
        assert_eq!(graded_quietly, graded);
    }
    // A usage error is still told.
    let out = output(grader().args(["-q", "grade", "--shard", "5/4", "x.py"]));
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.is_empty());
}

#[test]
fn only_runs_the_tests_it_selects_and_says_the_run_is_partial() {
    let names = |args: &[&str]| -> (Value, Vec<String>) {
        let out = output(
            grader()
                .args(["grade", "--format", "json"])
                .args(args)
                .arg("submissions/python/correct_class.py"),
        );
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let tests = report["submissions"][0]["tests"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| {
                format!(
                    "{}/{}",
                    t["group"].as_str().unwrap(),
                    t["name"].as_str().unwrap()
                )
            })
            .collect();
        (report, tests)
    };
    let (report, tests) = names(&["--only", "sample/*-2-*", "--only", "edge/single-n?de"]);
    assert_eq!(
        tests,
        [
            "sample/sample-2-removing-a-node-only-moves-its-keys",
            "edge/single-node"
        ]
    );
    assert_eq!(
        report["only"],
        serde_json::json!(["sample/*-2-*", "edge/single-n?de"])
    );
    let (_, edge) = names(&["--only", "edge"]);
    let on_disk = std::fs::read_dir(root().join("challenges/rendezvous-router/tests/edge"))
        .unwrap()
        .filter(|e| {
            !e.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".expected.json")
        })
        .count();
    assert_eq!(edge.len(), on_disk);
    assert!(edge.iter().all(|t| t.starts_with("edge/")));
    // The human report says the run is partial.
    let out = output(grader().args([
        "grade",
        "--only",
        "edge",
        "submissions/python/correct_class.py",
    ]));
    assert!(
        text(&out.stdout).contains("only edge: a partial run"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn only_refuses_a_selection_of_nothing_and_a_partial_grade() {
    let dir = tempdir();
    let refused = |args: &[&str]| -> String {
        let out = output(
            grader()
                .current_dir(root())
                .arg("grade")
                .args(args)
                .arg("submissions/python/correct_class.py"),
        );
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        text(&out.stderr)
    };
    let none = refused(&["--only", "nosuch"]);
    assert!(
        none.contains("--only nosuch selects no test") && none.contains("edge"),
        "{none}"
    );
    let test = refused(&["--only", "edge/nosuch"]);
    assert!(
        test.contains("the tests of edge are") && test.contains("single-node"),
        "{test}"
    );
    let gradebook = dir.path().join("grades.csv");
    let results = dir.path().join("results");
    for (flag, value) in [
        ("--gradebook", gradebook.to_str().unwrap()),
        ("--results", results.to_str().unwrap()),
        ("--format", "gradescope"),
        ("--format", "prairielearn"),
    ] {
        let why = refused(&["--only", "edge", flag, value]);
        assert!(why.contains("--only grades part of the suite"), "{why}");
    }
    assert!(!gradebook.exists() && !results.exists());
    // Nor does merging partial reports make a gradebook of them.
    let partial = dir.path().join("partial.json");
    let out = output(
        grader()
            .args(["grade", "--only", "edge", "--format", "json", "--output"])
            .arg(&partial)
            .arg("submissions/python/correct_class.py"),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let out = output(
        grader()
            .arg("merge")
            .arg("--gradebook")
            .arg(&gradebook)
            .arg(&partial),
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--only grades part of the suite"));
    assert!(!gradebook.exists());
}
