//! Learner text in every report format: nothing a learner's code raises or
//! prints, and no name of its file, becomes a line a CI runner executes,
//! and every format shows the text in one notation.

use crate::support::{grader, output, root, tempdir};

/// The formats, and the fields (for JSON) that carry learner text.
const FORMATS: [&str; 6] = ["human", "github", "junit", "ctrf", "gradescope", "json"];

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
/// annotation of the submission at `path` (its data escaped, so learner
/// text in it stays on its line) and the stop-commands pair around the log.
fn ours(line: &str, path: &str) -> bool {
    let hex = |s: &str| s.len() == 32 && s.bytes().all(|b| b.is_ascii_hexdigit());
    if let Some(token) = line.strip_prefix("::stop-commands::") {
        return hex(token);
    }
    if let Some(token) = line.strip_prefix("::").and_then(|l| l.strip_suffix("::")) {
        return hex(token);
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
