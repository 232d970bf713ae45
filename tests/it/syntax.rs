//! A report speaks the learner's language: its hints, the steps of its
//! h32 check and every other text it writes for the learner show no other
//! language's code, in every format. `syntax_markers.txt` lists what gives
//! each language's code (or its name) away, written from the languages.

use crate::support::{grader, output, root, tempdir, text, trimmed_challenges};
use serde_json::Value;

/// The section of markers a report's `language` writes in: TypeScript
/// JavaScript's, a program of its own none.
fn section(language: &str) -> &str {
    match language {
        "typescript" => "javascript",
        "python" | "javascript" | "rust" => language,
        _ => "words",
    }
}

/// The markers of other languages than `language`'s that `text` shows
/// ([`crate::markers::foreign_in`]).
pub fn foreign_in(text: &str, language: &str) -> Vec<&'static str> {
    let sections = crate::markers::sections(crate::markers::FILE);
    crate::markers::foreign_in(&sections, text, section(language))
}

/// Every text a JSON report's `submission` writes for its learner in
/// words of the grader's (not the learner's answers or output), by where
/// it is.
pub fn learner_texts(submission: &Value) -> Vec<(String, String)> {
    let mut texts = Vec::new();
    let mut add = |at: String, value: &Value| {
        if let Some(text) = value.as_str() {
            texts.push((at, text.to_owned()));
        }
    };
    let mistake = |at: &str, m: &Value, add: &mut dyn FnMut(String, &Value)| {
        for field in ["title", "explanation", "hint"] {
            add(format!("{at}.{field}"), &m[field]);
        }
    };
    for (at, m) in [
        ("mistake", &submission["mistake"]),
        ("mistake.with", &submission["mistake"]["with"]),
        ("mistake.third", &submission["mistake"]["third"]),
    ] {
        mistake(at, m, &mut add);
    }
    for (i, t) in submission["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        mistake(&format!("tests[{i}].mistake"), &t["mistake"], &mut add);
    }
    add("h32.step.step".into(), &submission["h32"]["step"]["step"]);
    for (i, w) in submission["h32"]["step"]["also"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
    {
        add(format!("h32.step.also[{i}].step"), &w["step"]);
    }
    for field in ["hash_hint", "property", "api_hint"] {
        add(format!("{field}.message"), &submission[field]["message"]);
    }
    add(
        "nondeterministic.explanation".into(),
        &submission["nondeterministic"]["explanation"],
    );
    texts
}

/// The texts of `learner_texts(submission)` that show another language's
/// syntax than the submission's, with the markers they show.
pub fn foreign_texts(submission: &Value) -> Vec<String> {
    let language = submission["language"].as_str().unwrap_or("unknown");
    learner_texts(submission)
        .into_iter()
        .filter_map(|(at, text)| {
            let foreign = foreign_in(&text, language);
            (!foreign.is_empty()).then(|| format!("{at} shows {foreign:?} to {language}: {text}"))
        })
        .collect()
}

#[test]
fn markers_match_as_words_and_a_languages_own_are_allowed() {
    assert!(foreign_in("`ring.len()`", "rust").is_empty());
    assert_eq!(foreign_in("`len(ring)`", "rust"), ["len("]);
    assert_eq!(foreign_in("`h >>> 0`", "python"), [">>> "]);
    assert!(foreign_in("`h >>> 0`", "typescript").is_empty());
    assert_eq!(foreign_in("`const x`", "executable"), ["const "]);
    assert!(
        foreign_in("JavaScript", "javascript")
            .iter()
            .all(|m| *m != "Java")
    );
    assert!(foreign_in("a model of it", "python").is_empty());
}

/// Every format of the report of a submission in each language that
/// makes a mistake with a hint of code (and one whose own h32 is wrong in
/// named steps) shows the hint of the submission's language, and no
/// other language's code anywhere in the grader's words: the report is
/// written as JSON once, then in every other format by `grader merge`.
#[test]
fn every_format_tells_each_learner_in_their_own_language() {
    let cache = tempdir();
    let dir = tempdir();
    // (submission, a fragment of its hint in its own language)
    let submissions = [
        ("python/signed_compare.py", "h & 0xFFFFFFFF"),
        ("javascript/signed_compare.js", "`>>> 0`, not `| 0`"),
        ("typescript/key_first.ts", "`${node}:${key}`"),
        ("rust/key_first.rs", "format!(\"{node}:{key}\")"),
        (
            "executable/key_first",
            "Hash the node's name, a colon, then the key.",
        ),
        ("javascript/utf16_float.js", ""),
    ];
    let mut found = Vec::new();
    for (path, hint) in submissions {
        let json = dir.path().join(path.replace('/', "_") + ".json");
        let out = output(
            grader()
                .args([
                    "grade",
                    "--challenge",
                    "rendezvous-router",
                    "--format",
                    "json",
                ])
                .arg("--challenges")
                .arg(trimmed_challenges())
                .args(["--time-limit", "120000", "--cache-dir"])
                .arg(cache.path())
                .arg("--output")
                .arg(&json)
                .arg(root().join("submissions").join(path)),
        );
        assert_eq!(out.status.code(), Some(1), "{path}: {}", text(&out.stderr));
        let report: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
        let submission = &report["submissions"][0];
        let language = submission["language"].as_str().unwrap().to_owned();
        // The JSON's own texts, field by field.
        found.extend(
            foreign_texts(submission)
                .into_iter()
                .map(|f| format!("{path}: {f}")),
        );
        let said = learner_texts(submission);
        assert!(!said.is_empty(), "{path}: nothing named");
        if !hint.is_empty() {
            assert!(
                submission["mistake"]["hint"]
                    .as_str()
                    .unwrap()
                    .contains(hint),
                "{path}: {}",
                submission["mistake"]["hint"]
            );
        }
        // Every other language's text of what was named is in no format.
        for format in [
            "human",
            "junit",
            "gradescope",
            "prairielearn",
            "codio",
            "ctrf",
            "github",
            "html",
        ] {
            let out = output(grader().args(["merge", "--format", format]).arg(&json));
            assert!(out.status.code().is_some_and(|c| c <= 1), "{path} {format}");
            let rendered = match format {
                "codio" => form_decoded(&text(&out.stdout)),
                _ => text(&out.stdout),
            };
            for (at, said) in &said {
                for other in others(said, &language) {
                    assert!(
                        !rendered.contains(&other),
                        "{path} in {format}: {at} in another language: {other}"
                    );
                }
            }
            // JUnit and CTRF carry each test's failure, not the mistake.
            if !hint.is_empty() && !["junit", "ctrf"].contains(&format) {
                let unescaped = html_unescaped(&rendered);
                assert!(
                    unescaped.contains(hint) || rendered.contains(&json_escaped(hint)),
                    "{path} in {format}: no {hint:?}"
                );
            }
        }
    }
    assert!(found.is_empty(), "\n{}", found.join("\n"));
}

/// The catalogue's texts for other languages than `language` of the entry
/// whose text for `language` is `said` (a mistake's title, explanation or
/// hint, a step of h32), those that differ from it.
fn others(said: &str, language: &str) -> Vec<String> {
    use reference::Syntax;
    let own = Syntax::ALL
        .into_iter()
        .find(|s| s.name() == section(language))
        .expect("every section is a syntax's");
    reference::mistakes::learner_texts()
        .into_iter()
        .map(|(_, t)| t)
        .filter(|t| t.get(own) == said)
        .flat_map(|t| Syntax::ALL.map(|s| t.get(s)))
        .filter(|other| *other != said && !said.contains(other))
        .map(str::to_owned)
        .collect()
}

/// `text` with HTML's character references for `&`, `<`, `>`, `"` and
/// `'` read back.
fn html_unescaped(text: &str) -> String {
    text.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&#x27;", "'")
        .replace("&amp;", "&")
}

/// A form-encoded body read back: `+` a space, `%XX` its byte.
fn form_decoded(body: &str) -> String {
    let bytes = body.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("");
                match u8::from_str_radix(hex, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// `text` as it stands inside a JSON string.
fn json_escaped(text: &str) -> String {
    let quoted = Value::from(text).to_string();
    quoted[1..quoted.len() - 1].to_owned()
}
