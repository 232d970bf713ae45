//! Learner text in every report format: nothing a learner's code raises or
//! prints, and no name of its file, becomes a line a CI runner executes,
//! and every format shows the text in one notation.

use crate::support::{grader, output, root, tempdir};

/// The formats, and the fields (for JSON) that carry learner text.
const FORMATS: [&str; 8] = [
    "human",
    "github",
    "junit",
    "ctrf",
    "gradescope",
    "prairielearn",
    "json",
    "html",
];

/// The lines of `text` as GitHub's runner splits them: on LF, CRLF and a
/// lone CR alike.
fn runner_lines(text: &str) -> Vec<&str> {
    text.split(['\n', '\r']).collect()
}

/// Whether the runner would read `line` as a command: `::` after leading
/// whitespace (a workflow command), or `##[` anywhere (the legacy form).
fn command(line: &str) -> bool {
    line.trim_start().starts_with("::") || line.contains("##[")
}

/// The commands the grader itself issues in the GitHub format: an
/// annotation of the submission at `path` (the path shown as every report
/// shows learner text, then escaped as a property, and its data escaped,
/// so learner text in it stays on its line) and the stop-commands pair
/// around the log.
fn ours(line: &str, path: &str) -> bool {
    let path = &report::visible(path);
    let hex = |s: &str| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(token) = line.strip_prefix("::stop-commands::") {
        return hex(token);
    }
    if let Some(token) = line.strip_prefix("::").and_then(|l| l.strip_suffix("::")) {
        return hex(token);
    }
    // The count of tests not annotated: the grader's words and numbers only.
    if line.starts_with("::notice title=More failing tests::") {
        return !line.contains("INJECTED");
    }
    let escaped = path
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
        .replace(':', "%3A")
        .replace(',', "%2C");
    line.starts_with(&format!("::error file={escaped},"))
}

#[test]
fn no_learner_text_becomes_a_ci_command_and_every_format_shows_it_alike() {
    let dir = tempdir();
    // The folder's name is the learner's too.
    let folder = dir.path().join("class\n::notice::INJECTED-NAME");
    std::fs::create_dir_all(&folder).unwrap();
    let submission = folder.join("router.py");
    std::fs::copy(
        root().join("tests/fixtures/injection/router.py"),
        &submission,
    )
    .unwrap();
    let cases = root().join("challenges/rendezvous-router/tests/sample");
    let cache = tempdir();
    for format in FORMATS {
        let out = output(grader().args([
            "grade".as_ref(),
            "--format".as_ref(),
            format.as_ref(),
            "--tests".as_ref(),
            cases.as_os_str(),
            "--cache-dir".as_ref(),
            cache.path().as_os_str(),
            submission.as_os_str(),
        ]));
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for (stream, bytes) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
            let text = String::from_utf8_lossy(bytes);
            for line in runner_lines(&text) {
                assert!(
                    !command(line) || ours(line, &submission.to_string_lossy()),
                    "{format} {stream}: a line the runner would execute: {line:?}"
                );
                // Nothing of the learner's moves the cursor or reorders text.
                assert!(
                    !line.contains(['\u{1b}', '\u{c}', '\u{202e}', '\u{7}']),
                    "{format} {stream}: a raw control character in {line:?}"
                );
            }
        }
        let text = String::from_utf8_lossy(&out.stdout);
        if format == "json" {
            // The machine report keeps the learner's text as it was.
            let report: serde_json::Value = serde_json::from_str(&text).unwrap();
            let message = report["submissions"][0]["tests"][0]["error"]["message"]
                .as_str()
                .unwrap();
            // Printed raw, it would be commands: the attack is a real one.
            assert!(
                runner_lines(message).iter().any(|l| command(l)),
                "{message:?}"
            );
            continue;
        }
        // One notation everywhere people read it: a lone CR, ESC, form
        // feed and the bidi override shown, not obeyed.
        for shown in [
            r"INJECTED-MASK\r::error file=forged.py",
            r"\u{001b}[2K\u{001b}[1Gaccepted",
            r"\u{000c}after-form-feed \u{202e}INJECTED-BIDI\u{202c} end",
        ] {
            let unescaped = text.replace("\\\\", "\\");
            assert!(
                text.contains(shown) || unescaped.contains(shown),
                "{format} does not show {shown:?}:\n{text}"
            );
        }
    }
}

/// Whether `c` is a character a terminal would obey or that shows nothing:
/// controls (C0 but the newline, DEL, C1), whitespace but the space,
/// Unicode's format characters (bidi controls, zero-width ones, tags, the
/// Mongolian vowel separator, deprecated format controls), Hangul fillers.
fn unseen(c: char) -> bool {
    (c.is_control() && c != '\n')
        || (c.is_whitespace() && !matches!(c, ' ' | '\n'))
        || matches!(c,
            '\u{ad}' | '\u{34f}' | '\u{600}'..='\u{605}' | '\u{180e}' | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{feff}'
            | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e0fff}')
}

/// Every line of `text` (split as the runner splits) that the runner would
/// execute, other than the grader's own commands (annotations of the
/// submissions at `paths`, and the notice of those left out), or that holds
/// a character a terminal would obey.
fn hostile_lines(text: &str, paths: &[String]) -> Vec<String> {
    let grader = |line: &str| {
        line.starts_with("::notice title=More failing tests::")
            || paths.iter().any(|path| ours(line, path))
    };
    text.split(['\n', '\r'])
        .filter(|line| (command(line) && !grader(line)) || line.contains(unseen))
        .map(|line| format!("{line:?}"))
        .collect()
}

#[test]
fn no_learner_value_name_or_reply_reaches_any_output_raw() {
    let dir = tempdir();
    // A class whose students' folder names are attacks too: a control
    // sequence and a bidi override, a legacy command, a workflow command
    // after a space, a formula after a tab, and a backslash before a pipe
    // (which would end a cell of the step summary's table early).
    let class = dir.path().join("class");
    let names = [
        "esc\u{1b}[2J\u{202e}\u{9b}\u{e0041}",
        "##[group]legacy",
        " ::warning::spaced",
        "\t=1+1",
        "x\\|accepted\\|",
    ];
    for name in names {
        let folder = class.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        let router = folder.join("router");
        std::fs::copy(root().join("tests/fixtures/injection/router"), &router).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&router, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let cases = root().join("challenges/rendezvous-router/tests/sample");
    let cache = tempdir();
    let summary = dir.path().join("summary.md");
    let results = dir.path().join("results");
    for (format, gradebook) in [("github", "gradebook.csv"), ("junit", "gradebook.json")] {
        let gradebook = dir.path().join(gradebook);
        let out = output(
            grader()
                .args([
                    "grade".as_ref(),
                    "--format".as_ref(),
                    format.as_ref(),
                    "--tests".as_ref(),
                    cases.as_os_str(),
                    "--cache-dir".as_ref(),
                    cache.path().as_os_str(),
                    "--gradebook".as_ref(),
                    gradebook.as_os_str(),
                    "--results".as_ref(),
                    results.as_os_str(),
                    class.as_os_str(),
                ])
                .env("GITHUB_STEP_SUMMARY", &summary),
        );
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let stdout = String::from_utf8_lossy(&out.stdout);
        if format == "github" {
            // The findings that quote the learner's values are there.
            for finding in [
                "your answers change between runs",
                "broken property",
                "your h32 differs",
            ] {
                assert!(stdout.contains(finding), "no {finding:?}:\n{stdout}");
            }
        }
        let mut written = vec![
            (format!("{format} stdout"), stdout.into_owned()),
            (
                format!("{format} stderr"),
                String::from_utf8_lossy(&out.stderr).into_owned(),
            ),
            (
                gradebook.display().to_string(),
                std::fs::read_to_string(&gradebook).unwrap(),
            ),
        ];
        for entry in std::fs::read_dir(&results).unwrap() {
            let path = entry.unwrap().path();
            written.push((
                path.display().to_string(),
                std::fs::read_to_string(&path).unwrap(),
            ));
        }
        let paths: Vec<String> = names
            .iter()
            .map(|name| class.join(name).join("router").display().to_string())
            .collect();
        for (what, text) in &written {
            let found = hostile_lines(text, &paths);
            assert!(found.is_empty(), "{what}: {found:#?}");
        }
    }
    let summary = std::fs::read_to_string(&summary).unwrap();
    let found = hostile_lines(&summary, &[]);
    assert!(found.is_empty(), "step summary: {found:#?}");
    // Each row has the table's six cell borders, as Markdown reads them
    // (a backslash escapes the character after it), whatever the name: a
    // learner's backslash escapes none of them.
    let rows: Vec<&str> = summary
        .lines()
        .filter(|l| l.contains("/router |"))
        .collect();
    assert_eq!(rows.len(), names.len(), "{summary}");
    for row in rows {
        let mut chars = row.chars();
        let mut borders = 0;
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    chars.next();
                }
                '|' => borders += 1,
                _ => {}
            }
        }
        assert_eq!(borders, 6, "{row}");
    }
    let csv = std::fs::read_to_string(dir.path().join("gradebook.csv")).unwrap();
    for line in csv.lines().skip(1) {
        let cell = line.trim_start_matches('"');
        assert!(!cell.starts_with(['=', '+', '-', '@', '\t']), "{line:?}");
    }
}

/// GitLab's section markers, as a learner would forge them: a marker is
/// `section_start:<ts>:<name>` or `section_end:<ts>:<name>` followed by a
/// raw CR and `ESC[0K`.
const SECTION_START: &str = "section_start:1:x\r\u{1b}[0Kevil";
const SECTION_END: &str = "section_end:1:x\r\u{1b}[0K";

/// A router whose answers, exceptions and prints are GitLab section
/// markers, each at the start of a line of its own.
const SECTION_ROUTER: &str = r#"
import sys

START = "section_start:1:x\r\x1b[0Kevil"
END = "section_end:1:x\r\x1b[0K"
BOTH = START + "\n" + END + "\n" + START


class Router:
    def __init__(self, nodes):
        print(BOTH)
        print(BOTH, file=sys.stderr)
        self.nodes = set(nodes)

    def route(self, key):
        return BOTH

    def add(self, node):
        raise ValueError(BOTH)

    def remove(self, node):
        raise ValueError(END + "\n" + START)
"#;

/// Every line of `text` (GitLab splits its log on LF) that holds a raw CR
/// or ESC, or starts, after spaces, with a section marker's word.
fn forged_sections(text: &str) -> Vec<String> {
    text.split('\n')
        .filter(|line| {
            let start = line.trim_start();
            line.contains(['\r', '\u{1b}'])
                || start.starts_with("section_start:")
                || start.starts_with("section_end:")
        })
        .map(|line| format!("{line:?}"))
        .collect()
}

#[test]
fn no_learner_text_forges_a_gitlab_section() {
    let dir = tempdir();
    // The student's folder name is a marker too.
    let class = dir.path().join("class");
    let folder = class.join(SECTION_START);
    std::fs::create_dir_all(&folder).unwrap();
    std::fs::write(folder.join("router.py"), SECTION_ROUTER).unwrap();
    // A wrong answer (route), a raised error (add, remove) and what the
    // code printed, each failing test's.
    let cases = dir.path().join("cases/edge");
    std::fs::create_dir_all(&cases).unwrap();
    for (name, case) in [
        ("answer", r#"[[["a","b"]],[["route","k"]]]"#),
        ("error", r#"[[["a"]],[["add","b"],["route","k"]]]"#),
        ("removed", r#"[[["a"]],[["remove","a"],["route","k"]]]"#),
    ] {
        std::fs::write(cases.join(format!("{name}.json")), case).unwrap();
    }
    let cases = cases.parent().unwrap();
    let cache = tempdir();
    let summary = dir.path().join("summary.md");
    let mut written: Vec<(String, String)> = Vec::new();
    for format in FORMATS {
        // Gradescope's and PrairieLearn's are a learner's report: a results
        // folder of their own.
        let results = dir.path().join(format!("results-{format}"));
        let gradebooks = [
            dir.path().join(format!("{format}.csv")),
            dir.path().join(format!("{format}.json")),
        ];
        for (i, gradebook) in gradebooks.iter().enumerate() {
            // Gradescope and PrairieLearn take one submission: the
            // student's folder.
            let target = if ["gradescope", "prairielearn"].contains(&format) {
                &folder
            } else {
                &class
            };
            let out = output(
                grader()
                    .args([
                        "grade".as_ref(),
                        "--format".as_ref(),
                        format.as_ref(),
                        "--tests".as_ref(),
                        cases.as_os_str(),
                        "--cache-dir".as_ref(),
                        cache.path().as_os_str(),
                        "--results".as_ref(),
                        results.as_os_str(),
                        "--gradebook".as_ref(),
                        gradebook.as_os_str(),
                        target.as_os_str(),
                    ])
                    .env("GITHUB_STEP_SUMMARY", &summary),
            );
            assert_eq!(
                out.status.code(),
                Some(1),
                "{format}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            if i == 0 {
                let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
                if format == "human" {
                    // The attack reached the report: the answer, the
                    // error and the printed output are all shown.
                    for shown in [
                        "got \"section_start:1:x\\r",
                        "ValueError: section_start:1:x\\r\\u{001b}[0Kevil",
                        "\\u{0073}ection_end:1:x\\r\\u{001b}[0K",
                    ] {
                        assert!(stdout.contains(shown), "no {shown:?} in\n{stdout}");
                    }
                }
                written.push((format!("{format} stdout"), stdout));
                written.push((
                    format!("{format} stderr"),
                    String::from_utf8_lossy(&out.stderr).into_owned(),
                ));
            }
            written.push((
                gradebook.display().to_string(),
                std::fs::read_to_string(gradebook).unwrap(),
            ));
        }
        for entry in std::fs::read_dir(&results).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                written.push((
                    path.display().to_string(),
                    std::fs::read_to_string(&path).unwrap(),
                ));
            }
        }
    }
    written.push((
        "step summary".into(),
        std::fs::read_to_string(&summary).unwrap(),
    ));
    for (what, text) in &written {
        // The one raw CR and ESC allowed: none. The path of the student's
        // folder, where the grader names it as a file (an annotation's
        // `file=`), is escaped like any learner text.
        let found = forged_sections(text);
        assert!(found.is_empty(), "{what}: {found:#?}");
    }
    // A JSON report keeps the learner's text as it was, as data.
    let json = &written
        .iter()
        .find(|(what, _)| what == "json stdout")
        .unwrap()
        .1;
    let report: serde_json::Value = serde_json::from_str(json).unwrap();
    let message = report["submissions"][0]["tests"][1]["error"]["message"]
        .as_str()
        .unwrap();
    assert!(
        message.contains(SECTION_START) && message.contains(SECTION_END),
        "{message:?}"
    );
}

/// Runs tools/gradescope/run_autograder on a submission of `files` (name,
/// contents), with `env` set, and answers its results.json.
fn run_autograder(files: &[(&str, String)], env: &[(&str, &std::ffi::OsStr)]) -> serde_json::Value {
    let dir = tempdir();
    let autograder = dir.path().join("autograder");
    crate::support::copy_tree(
        &root().join("challenges/rendezvous-router"),
        &autograder.join("source/challenges/rendezvous-router"),
        |_| true,
    );
    std::fs::create_dir_all(autograder.join("submission")).unwrap();
    for (name, contents) in files {
        std::fs::write(autograder.join("submission").join(name), contents).unwrap();
    }
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_grader"));
    let mut command = std::process::Command::new("sh");
    command
        .arg(root().join("tools/gradescope/run_autograder"))
        .env("AUTOGRADER_ROOT", &autograder)
        .env("PATH", {
            let mut path = bin.parent().unwrap().as_os_str().to_owned();
            path.push(":/usr/local/bin:/usr/bin:/bin");
            path
        })
        .current_dir(dir.path());
    for (key, value) in env {
        command.env(key, value);
    }
    output(&mut command);
    serde_json::from_slice(&std::fs::read(autograder.join("results/results.json")).unwrap())
        .unwrap()
}

/// Every `*_format` of a results.json, at the top and in each test.
fn formats(results: &serde_json::Value) -> Vec<(String, serde_json::Value)> {
    let mut found = Vec::new();
    let objects = std::iter::once(results).chain(results["tests"].as_array().into_iter().flatten());
    for object in objects {
        for (key, value) in object.as_object().unwrap() {
            if key.ends_with("_format") {
                found.push((key.clone(), value.clone()));
            }
        }
    }
    found
}

/// Gradescope renders `output` as HTML unless told otherwise: a learner's
/// live HTML (answers and what it printed) reaches results.json, and
/// every output and name there is declared plain text.
#[test]
fn gradescope_shows_a_learners_html_as_text() {
    let hostile = root().join("submissions/hostile");
    let read = |name: &str| std::fs::read_to_string(hostile.join(name)).unwrap();
    let results = run_autograder(
        &[
            ("router.py", read("prints_html.py")),
            ("_router.py", read("_router.py")),
        ],
        &[],
    );
    let tests = results["tests"].as_array().unwrap();
    assert!(
        tests.iter().any(|t| t["output"]
            .as_str()
            .unwrap()
            .contains("<img src=x onerror=alert(1)>")),
        "the learner's text is there, so its format matters: {results}"
    );
    for key in ["output_format", "test_output_format", "test_name_format"] {
        assert_eq!(results[key], "text", "{key}");
    }
    for t in tests {
        assert_eq!(
            (&t["output_format"], &t["name_format"]),
            (&"text".into(), &"text".into()),
            "{t}"
        );
    }
    let formats = formats(&results);
    assert!(formats.iter().all(|(_, v)| v == "text"), "{formats:?}");
}

/// A grader that cannot start Python gives Gradescope no score at all
/// (never a 0), an output that says so, and plain text.
#[test]
fn gradescope_records_no_score_when_the_grader_fails() {
    let correct =
        std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    let results = run_autograder(
        &[("router.py", correct)],
        &[(
            "GRADER_PYTHON",
            std::ffi::OsStr::new("/nonexistent/python3"),
        )],
    );
    assert!(results.get("score").is_none(), "{results}");
    assert!(
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t.get("score").is_none())
    );
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .starts_with("not graded"),
        "{results}"
    );
    assert_eq!(results["output_format"], "text");
}
