//! The HTML report: hostile learner text stays text, hidden cases stay
//! hidden from learners, and a class's page, opened from `file://` in a
//! real headless Chromium (driven over the DevTools protocol), loads
//! nothing, logs no error, draws, and shows the JSON report's numbers.

use crate::support::{grader, output, root, tempdir, text};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

mod browser;

use browser::Browser;

/// `grader grade` of `paths` in `format` on rendezvous-router's suite,
/// with `extra` arguments; its report as text (exit 0 or 1 required).
fn grade(format: &str, extra: &[&str], paths: &[&Path], cache: &Path) -> String {
    let out = output(
        grader()
            .args([
                "grade",
                "--challenge",
                "rendezvous-router",
                "--format",
                format,
            ])
            .arg("--cache-dir")
            .arg(cache)
            .args(extra)
            .args(paths),
    );
    assert!(
        matches!(out.status.code(), Some(0 | 1)),
        "{format}: exit {:?}\n{}",
        out.status.code(),
        text(&out.stderr)
    );
    text(&out.stdout)
}

/// One tag of a page: its name and its attributes, values unescaped of
/// nothing (the test looks at them as written).
#[derive(Debug)]
struct Tag {
    name: String,
    attributes: Vec<(String, String)>,
}

/// Every tag of `page` as a browser's tokenizer starts one: at a `<`
/// followed by a letter, `/` or `!`. Escaped text (`&lt;`) starts none.
fn tags(page: &str) -> Vec<Tag> {
    let mut found = Vec::new();
    let mut rest = page;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let end = rest.find('>').expect("every tag ends");
        let inside = &rest[..end];
        rest = &rest[end + 1..];
        let inside = inside.strip_prefix('/').unwrap_or(inside);
        if inside.starts_with('!') {
            found.push(Tag {
                name: inside.split(' ').next().unwrap().to_ascii_lowercase(),
                attributes: Vec::new(),
            });
            continue;
        }
        let name_end = inside
            .find(|c: char| c.is_whitespace() || c == '/')
            .unwrap_or(inside.len());
        let mut attributes = Vec::new();
        let mut attrs = &inside[name_end..];
        loop {
            attrs = attrs.trim_start_matches(|c: char| c.is_whitespace() || c == '/');
            if attrs.is_empty() {
                break;
            }
            let key_end = attrs
                .find(|c: char| c == '=' || c.is_whitespace())
                .unwrap_or(attrs.len());
            let key = attrs[..key_end].to_ascii_lowercase();
            attrs = &attrs[key_end..];
            let value = if let Some(quoted) = attrs.strip_prefix("=\"") {
                let close = quoted.find('"').expect("a quoted value ends");
                attrs = &quoted[close + 1..];
                quoted[..close].to_owned()
            } else if let Some(bare) = attrs.strip_prefix('=') {
                // The page quotes every value: an unquoted one is a leak.
                panic!("an unquoted attribute value: {key}={bare}");
            } else {
                String::new()
            };
            attributes.push((key, value));
        }
        found.push(Tag {
            name: inside[..name_end].to_ascii_lowercase(),
            attributes,
        });
    }
    found
}

/// The elements the page is made of; anything else came from elsewhere.
const ELEMENTS: &[&str] = &[
    "!doctype", "html", "head", "meta", "link", "title", "style", "body", "header", "main",
    "section", "h1", "h2", "h3", "p", "span", "strong", "code", "pre", "ul", "ol", "li", "br",
    "table", "caption", "thead", "tbody", "tr", "th", "td", "details", "summary", "div", "a",
    "button", "script", "del", "ins", "svg", "defs", "pattern", "line", "circle", "rect", "text",
    "g", "title", "desc",
];

/// Checks that every tag of `page` is one the grader writes, that no
/// attribute runs code or loads anything, and that the only scripts are
/// the summary's data and the copy buttons' code at the end.
fn assert_only_the_graders_markup(page: &str) {
    let tags = tags(page);
    let mut scripts = 0;
    for tag in &tags {
        assert!(
            ELEMENTS.contains(&tag.name.as_str()),
            "a tag the grader does not write: {tag:?}"
        );
        for (key, value) in &tag.attributes {
            assert!(!key.starts_with("on"), "an event handler: {tag:?}");
            assert!(
                !matches!(
                    key.as_str(),
                    "src" | "srcdoc" | "action" | "formaction" | "xlink:href"
                ),
                "an attribute that loads: {tag:?}"
            );
            if key == "href" {
                assert!(
                    value.starts_with('#') || value == "data:,",
                    "a link that leaves the page: {tag:?}"
                );
            }
            // (A data- attribute may hold any text: no browser follows it.)
            if matches!(
                key.as_str(),
                "href" | "action" | "formaction" | "poster" | "data"
            ) {
                assert!(
                    !value
                        .trim_start()
                        .to_ascii_lowercase()
                        .starts_with("javascript:"),
                    "a javascript: URL: {tag:?}"
                );
            }
        }
        if tag.name == "script" && !tag.attributes.is_empty() {
            assert_eq!(
                tag.attributes,
                [
                    ("type".to_owned(), "application/json".to_owned()),
                    ("id".to_owned(), "summary".to_owned())
                ]
            );
        }
        scripts += usize::from(tag.name == "script");
    }
    // Each opened and closed: the summary (in a class) and the code.
    assert!(matches!(scripts, 2 | 4), "{scripts} script tags");
    let policy = "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:;";
    assert!(
        page.contains(policy),
        "no policy that forbids every request"
    );
}

#[test]
fn hostile_learner_text_stays_text() {
    let dir = tempdir();
    // Names are the learner's too: a folder named as markup, and one named
    // as a javascript: URL, each a student of a class.
    let markup = dir.path().join("<img src=x onerror=alert('HOSTILE-NAME')>");
    let url = dir.path().join("javascript:alert('HOSTILE-NAME-URL')");
    for folder in [&markup, &url] {
        std::fs::create_dir_all(folder).unwrap();
        std::fs::copy(
            root().join("tests/fixtures/html/hostile_router.py"),
            folder.join("router.py"),
        )
        .unwrap();
    }
    let cache = tempdir();
    let page = grade("html", &[], &[dir.path()], cache.path());
    assert_only_the_graders_markup(&page);
    // The attacks are on the page, as text: the check above saw them.
    for shown in [
        "&lt;/script&gt;&lt;script&gt;alert(&#39;HOSTILE-SCRIPT&#39;)&lt;/script&gt;",
        "&lt;img src=x onerror=alert(&#39;HOSTILE-IMG&#39;)&gt;",
        "&lt;img src=x onerror=alert(&#39;HOSTILE-NAME&#39;)&gt;",
        "javascript:alert(&#39;HOSTILE-NAME-URL&#39;)",
        "javascript:alert(&#39;HOSTILE-URL&#39;)",
        "&quot;&gt;&lt;svg onload=alert(&#39;HOSTILE-ATTR&#39;)&gt;",
        "&lt;!--",
    ] {
        assert!(page.contains(shown), "{shown} is not shown:\n{page}");
    }
    // Nothing of it is markup, anywhere.
    for raw in ["<img", "<svg onload", "alert('", "<!--"] {
        assert!(!page.contains(raw), "{raw} unescaped");
    }
    // The summary's JSON reads back as the same names.
    let start = page
        .find("<script type=\"application/json\" id=\"summary\">")
        .unwrap();
    let json_text = &page[start..];
    let json_text =
        &json_text[json_text.find('>').unwrap() + 1..json_text.find("</script>").unwrap()];
    let summary: Value = serde_json::from_str(json_text).unwrap();
    assert_eq!(summary["submissions"], 2);
    assert!(!json_text.contains('<'), "{json_text}");
}

#[test]
fn a_learners_page_holds_no_hidden_case() {
    // A hidden case whose every name is a canary: the instructor's page
    // shows it (the check can fail), the learner's never.
    let dir = tempdir();
    let challenges = dir.path().join("challenges");
    crate::support::copy_tree(
        &root().join("tests/fixtures/challenges/hidden-router"),
        &challenges.join("hidden-router"),
        |_| true,
    );
    std::fs::write(
        challenges.join("hidden-router/tests/secret/canary.json"),
        r#"[[["CANARY-NODE-x","CANARY-NODE-y"]],[["route","CANARY-KEY-1"],["route","CANARY-KEY-2"]]]"#,
    )
    .unwrap();
    let cache = tempdir();
    let page = |audience: &str| {
        let out = output(
            grader()
                .arg("--challenges")
                .arg(&challenges)
                .args(["grade", "--challenge", "hidden-router", "--format", "html"])
                .args(["--audience", audience, "--cache-dir"])
                .arg(cache.path())
                .arg("submissions/python/lowest_score.py"),
        );
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        text(&out.stdout)
    };
    let instructor = page("instructor");
    assert!(instructor.contains("CANARY-KEY"), "{instructor}");
    let learner = page("learner");
    assert!(!learner.contains("CANARY"), "{learner}");
    assert!(!learner.contains("SECRET"), "{learner}");
    // The hidden test is there, by name and verdict.
    assert!(learner.contains("secret/canary"), "{learner}");
}

/// A class of shipped examples with different verdicts and mistakes,
/// each in a folder named for a student, and the hostile router: the
/// students' folders.
fn class(dir: &Path) -> Vec<PathBuf> {
    let students = [
        ("ada", "submissions/python/correct_class.py", "router.py"),
        ("ben", "submissions/javascript/correct.cjs", "router.js"),
        ("cy", "submissions/python/lowest_score.py", "router.py"),
        ("dee", "submissions/python/lowest_score.py", "router.py"),
        (
            "eve",
            "submissions/python/lowest_no_separator.py",
            "router.py",
        ),
        (
            "fay",
            "submissions/python/remove_absent_raises.py",
            "router.py",
        ),
        ("gus", "submissions/python/key_node_swapped.py", "router.py"),
        (
            "<b>hal</b>",
            "tests/fixtures/html/hostile_router.py",
            "router.py",
        ),
    ];
    let mut paths = Vec::new();
    for (name, from, file) in students {
        let folder = dir.join(name);
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::copy(root().join(from), folder.join(file)).unwrap();
        paths.push(folder);
    }
    // A folder without code: a compile-error.
    let ivy = dir.join("ivy");
    std::fs::create_dir_all(&ivy).unwrap();
    std::fs::write(ivy.join("notes.txt"), "no code here\n").unwrap();
    paths.push(ivy);
    paths
}

/// The class numbers a page must show, counted here from the JSON report.
struct Expected {
    verdicts: Vec<(String, u64)>,
    mean: f64,
    bins: Vec<(u64, u64)>,
    mistakes: Vec<(String, u64)>,
}

fn expected(report: &Value) -> Expected {
    let submissions = report["submissions"].as_array().unwrap();
    let mut verdicts: Vec<(String, u64)> = Vec::new();
    let mut mistakes: Vec<(String, u64)> = Vec::new();
    let mut bins = vec![0u64; 11];
    let (mut sum, mut scored) = (0.0, 0.0);
    let bump =
        |list: &mut Vec<(String, u64)>, key: &str| match list.iter_mut().find(|(k, _)| k == key) {
            Some((_, n)) => *n += 1,
            None => list.push((key.to_owned(), 1)),
        };
    for s in submissions {
        bump(&mut verdicts, s["verdict"].as_str().unwrap());
        if s["verdict"] == "grader-fault" {
            continue;
        }
        sum += s["score"].as_f64().unwrap();
        scored += 1.0;
        let (earned, total) = (
            s["points"]["earned"].as_u64().unwrap(),
            s["points"]["total"].as_u64().unwrap(),
        );
        bins[if earned == total {
            10
        } else {
            (earned * 10 / total) as usize
        }] += 1;
        if s["mistake"]["exact"] == true {
            bump(&mut mistakes, s["mistake"]["id"].as_str().unwrap());
            if let Some(with) = s["mistake"]["with"]["id"].as_str() {
                bump(&mut mistakes, with);
            }
        }
    }
    verdicts.sort();
    mistakes.sort();
    Expected {
        verdicts,
        mean: sum / scored,
        bins: bins
            .into_iter()
            .enumerate()
            .map(|(i, n)| (i as u64 * 10, n))
            .collect(),
        mistakes,
    }
}

/// What the page shows, read from its DOM: the visible text of each
/// number, beside the `data-` attribute of the element showing it.
const READ_NUMBERS: &str = r##"({
  verdicts: [...document.querySelectorAll("#verdicts [data-verdict]")].map(e =>
    [e.dataset.verdict, Number(e.querySelector(".count").textContent), Number(e.dataset.count)]),
  mean: document.querySelector("#mean .mean").textContent,
  bins: [...document.querySelectorAll("#histogram tr[data-bin]")].map(e =>
    [Number(e.dataset.bin), Number(e.cells[1].textContent), Number(e.dataset.count)]),
  bars: [...document.querySelectorAll("svg.histogram g[data-bin]")].map(e =>
    [Number(e.dataset.bin), Number(e.querySelector("text").textContent)]),
  mistakes: [...document.querySelectorAll("#mistakes tr[data-mistake]")].map(e =>
    [e.dataset.mistake, Number(e.cells[1].textContent), Number(e.dataset.count)]),
  links: [...document.querySelectorAll("#mistakes a")].map(a => document.querySelector(a.getAttribute("href")) !== null),
  summary: JSON.parse(document.getElementById("summary").textContent),
  students: document.querySelectorAll("section.student").length,
})"##;

#[test]
fn a_class_page_in_a_real_browser_loads_nothing_and_shows_the_json_reports_numbers() {
    let dir = tempdir();
    let students = dir.path().join("class");
    let names = class(&students);
    let paths = [students.as_path()];
    let cache = tempdir();
    // Graded once: the page is rendered from the very report whose
    // numbers it must show (`merge` of that one report).
    let json_text = grade("json", &[], &paths, cache.path());
    let report: Value = serde_json::from_str(&json_text).unwrap();
    let report_file = dir.path().join("class.json");
    std::fs::write(&report_file, &json_text).unwrap();
    let rendered = output(
        grader()
            .args(["merge", "--format", "html"])
            .arg(&report_file),
    );
    assert!(
        matches!(rendered.status.code(), Some(0 | 1)),
        "merge: exit {:?}\n{}",
        rendered.status.code(),
        text(&rendered.stderr)
    );
    let html = text(&rendered.stdout);
    assert_only_the_graders_markup(&html);
    let page = dir.path().join("class.html");
    std::fs::write(&page, &html).unwrap();
    let want = expected(&report);
    // The class is what it should be for the checks to mean something.
    let verdict_names: Vec<&str> = want.verdicts.iter().map(|(v, _)| v.as_str()).collect();
    for v in ["accepted", "wrong-answer", "runtime-error", "compile-error"] {
        assert!(verdict_names.contains(&v), "{:?}", want.verdicts);
    }
    assert!(
        want.mistakes
            .iter()
            .any(|(id, n)| id == "lowest-score" && *n == 3),
        "{:?}",
        want.mistakes
    );

    let mut browser = Browser::start(dir.path());
    let url = format!("file://{}", page.display());
    // First without scripts: every number is the page's own text.
    let session = browser.open_page();
    browser.call(
        "Emulation.setScriptExecutionDisabled",
        json!({"value": true}),
        Some(&session),
    );
    browser.navigate(&url, &session);
    let without_scripts: Value = browser.evaluate(READ_NUMBERS, &session);
    browser.call(
        "Emulation.setScriptExecutionDisabled",
        json!({"value": false}),
        Some(&session),
    );
    browser.navigate(&url, &session);
    let shown: Value = browser.evaluate(READ_NUMBERS, &session);
    assert_eq!(shown, without_scripts);

    let mut verdicts: Vec<(String, u64)> = shown["verdicts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            assert_eq!(v[1], v[2], "{v}");
            (v[0].as_str().unwrap().to_owned(), v[1].as_u64().unwrap())
        })
        .collect();
    verdicts.sort();
    assert_eq!(verdicts, want.verdicts);
    let mean: f64 = shown["mean"].as_str().unwrap().parse().unwrap();
    assert!(
        (mean - want.mean).abs() <= 0.005,
        "{mean} against {}",
        want.mean
    );
    let bins: Vec<(u64, u64)> = shown["bins"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| {
            assert_eq!(b[1], b[2], "{b}");
            (b[0].as_u64().unwrap(), b[1].as_u64().unwrap())
        })
        .collect();
    assert_eq!(bins, want.bins);
    let bars: Vec<(u64, u64)> = shown["bars"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b[0].as_u64().unwrap(), b[1].as_u64().unwrap()))
        .collect();
    assert_eq!(bars, want.bins);
    let mut mistakes: Vec<(String, u64)> = shown["mistakes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            assert_eq!(m[1], m[2], "{m}");
            (m[0].as_str().unwrap().to_owned(), m[1].as_u64().unwrap())
        })
        .collect();
    mistakes.sort();
    assert_eq!(mistakes, want.mistakes);
    // Every link to a student finds their section.
    let links = shown["links"].as_array().unwrap();
    assert!(
        !links.is_empty() && links.iter().all(|l| l == true),
        "{links:?}"
    );
    assert_eq!(
        shown["students"],
        report["submissions"].as_array().unwrap().len()
    );
    assert_eq!(shown["students"], names.len());
    // The summary block says the same.
    assert_eq!(shown["summary"]["submissions"], shown["students"]);
    assert!((shown["summary"]["mean_score"].as_f64().unwrap() - want.mean).abs() < 1e-9);

    // The copy button of a reproducer answers the reader.
    let status = browser.evaluate(
        r#"new Promise(done => {
          const button = document.querySelector("button[data-copy]");
          button.closest("details").open = true;
          button.click();
          setTimeout(() => done(button.parentNode.querySelector(".copy-status").textContent), 1000);
        })"#,
        &session,
    );
    assert!(
        !status.as_str().unwrap().is_empty(),
        "the copy button said nothing"
    );

    let png = browser.screenshot(&session);
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
    let (width, height) = (
        u32::from_be_bytes(png[16..20].try_into().unwrap()),
        u32::from_be_bytes(png[20..24].try_into().unwrap()),
    );
    assert!(
        width >= 800 && height >= 600 && png.len() > 20_000,
        "{width}x{height}, {} bytes",
        png.len()
    );
    std::fs::write(dir.path().join("class.png"), &png).unwrap();

    let events = browser.close();
    let page_url = url.replace(' ', "%20");
    for event in &events {
        let method = event["method"].as_str().unwrap_or("");
        let params = &event["params"];
        match method {
            "Network.requestWillBeSent" => {
                let asked = params["request"]["url"].as_str().unwrap();
                assert!(
                    asked == page_url || asked.starts_with("data:"),
                    "the page asked for {asked}"
                );
            }
            "Runtime.exceptionThrown" => panic!("an exception: {params}"),
            "Runtime.consoleAPICalled" => assert!(
                !matches!(
                    params["type"].as_str(),
                    Some("error" | "warning" | "assert")
                ),
                "the console: {params}"
            ),
            "Log.entryAdded" => assert!(
                !matches!(params["entry"]["level"].as_str(), Some("error" | "warning")),
                "the browser's log: {params}"
            ),
            "Page.javascriptDialogOpening" => panic!("a dialog opened: {params}"),
            _ => {}
        }
    }
    assert!(
        events
            .iter()
            .any(|e| e["method"] == "Network.requestWillBeSent"),
        "no request seen at all: the check did not watch"
    );
}
