//! `grader prairielearn` run the way PrairieLearn runs an external
//! grader: a job folder laid out as PrairieLearn mounts `/grade` (in a
//! temporary folder, given as `--root`), the entrypoint run, and
//! `results/results.json` checked field by field against PrairieLearn's
//! documented format.

use crate::support::{copy_tree, grader, output, root, tempdir, text, trimmed_challenges};
use serde_json::Value;
use std::path::Path;

/// A job folder for the student `files` (name, source), with the course's
/// challenges in serverFilesCourse/ (their large cases cut short, as in
/// [`trimmed_challenges`]) and the question's data.
fn job(dir: &Path, files: &[(&str, &str)]) {
    copy_tree(
        trimmed_challenges(),
        &dir.join("serverFilesCourse/challenges"),
        |_| true,
    );
    std::fs::create_dir_all(dir.join("student")).unwrap();
    std::fs::create_dir_all(dir.join("tests")).unwrap();
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(
        dir.join("data/data.json"),
        r#"{"params": {"challenge": "rendezvous-router"}, "submitted_answers": {}}"#,
    )
    .unwrap();
    for (name, source) in files {
        let to = dir.join("student").join(name);
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(root().join("submissions").join(source), &to).unwrap();
    }
}

/// Runs the entrypoint on `dir` and reads its results.json, checking
/// what every results.json must hold.
fn grade(dir: &Path) -> (Option<i32>, Value) {
    let out = output(grader().args(["prairielearn", "--root", dir.to_str().unwrap()]));
    let bytes = std::fs::read(dir.join("results/results.json"))
        .unwrap_or_else(|e| panic!("no results.json ({e}): {}", text(&out.stderr)));
    assert!(bytes.len() < 1_000_000, "within PrairieLearn's 1 MB");
    let results: Value = serde_json::from_slice(&bytes).unwrap();
    assert!(results["gradable"].is_boolean(), "{results}");
    assert!(results["message"].is_string());
    assert!(results["output"].is_string());
    for test in results["tests"].as_array().unwrap() {
        for key in ["name", "description", "message", "output"] {
            assert!(test[key].is_string(), "{key}: {test}");
        }
        let (points, max) = (
            test["points"].as_f64().unwrap(),
            test["max_points"].as_f64().unwrap(),
        );
        assert!((0.0..=max).contains(&points), "{test}");
    }
    (out.status.code(), results)
}

fn points(results: &Value) -> (f64, f64) {
    let tests = results["tests"].as_array().unwrap();
    (
        tests.iter().map(|t| t["points"].as_f64().unwrap()).sum(),
        tests
            .iter()
            .map(|t| t["max_points"].as_f64().unwrap())
            .sum(),
    )
}

#[test]
fn a_full_score_a_partial_score_and_a_compile_error() {
    // A full score.
    let full = tempdir();
    job(full.path(), &[("router.py", "python/correct_class.py")]);
    let (code, results) = grade(full.path());
    assert_eq!(code, Some(0));
    assert_eq!(results["gradable"], true);
    assert_eq!(results["score"], 1.0);
    let (earned, max) = points(&results);
    assert!(
        max > 0.0 && (earned - max).abs() < 1e-9,
        "{earned} of {max}"
    );
    assert!(
        results["tests"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| t["message"] == "passed")
    );

    // A partial score: the score is the tests' points over their maximum.
    let partial = tempdir();
    job(partial.path(), &[("router.py", "python/lowest_score.py")]);
    let (code, results) = grade(partial.path());
    assert_eq!(code, Some(0), "PrairieLearn reads the file, not the code");
    assert_eq!(results["gradable"], true);
    let score = results["score"].as_f64().unwrap();
    assert!(score > 0.0 && score < 1.0, "{score}");
    let (earned, max) = points(&results);
    assert!(
        (score - earned / max).abs() < 1e-9,
        "{score} against {earned}/{max}"
    );
    let failed = results["tests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["points"].as_f64() < t["max_points"].as_f64())
        .unwrap();
    assert!(
        failed["message"]
            .as_str()
            .unwrap()
            .starts_with("wrong-answer")
    );
    assert!(!failed["output"].as_str().unwrap().is_empty());
    assert!(
        results["output"]
            .as_str()
            .unwrap()
            .contains("likely mistake")
    );

    // A compile error: not gradable, so no attempt is charged, and why.
    let broken = tempdir();
    job(
        broken.path(),
        &[("router.ts", "typescript/syntax_error.ts")],
    );
    let (code, results) = grade(broken.path());
    assert_eq!(code, Some(0));
    assert_eq!(results["gradable"], false, "{results}");
    assert!(results.get("score").is_none());
    assert!(!results["format_errors"][0].as_str().unwrap().is_empty());
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("no attempt was charged")
    );
}

#[test]
fn a_grader_that_fails_is_not_gradable_and_never_a_zero() {
    let job_dir = tempdir();
    job(job_dir.path(), &[("router.py", "python/correct_class.py")]);
    // No interpreter: the grader's fault on this submission.
    let out = output(
        grader()
            .args(["prairielearn", "--root", job_dir.path().to_str().unwrap()])
            .env("GRADER_PYTHON", job_dir.path().join("no-python")),
    );
    assert_eq!(out.status.code(), Some(3), "{}", text(&out.stderr));
    let results: Value = serde_json::from_slice(
        &std::fs::read(job_dir.path().join("results/results.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(results["gradable"], false, "{results}");
    assert!(results.get("score").is_none());
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("not your code's fault")
    );

    // A job without the course's challenges: still a results.json.
    let bare = tempdir();
    std::fs::create_dir_all(bare.path().join("student")).unwrap();
    let out = output(grader().args(["prairielearn", "--root", bare.path().to_str().unwrap()]));
    assert_eq!(out.status.code(), Some(2));
    let results: Value =
        serde_json::from_slice(&std::fs::read(bare.path().join("results/results.json")).unwrap())
            .unwrap();
    assert_eq!(results["gradable"], false);
    assert!(
        results["message"]
            .as_str()
            .unwrap()
            .contains("serverFilesCourse/challenges")
    );

    // A course whose suite has two problems: both in the message, on one
    // line (PrairieLearn shows it as written; a `\n` escaped would be
    // shown as such).
    let broken = tempdir();
    job(broken.path(), &[("router.py", "python/correct_class.py")]);
    let tests = broken
        .path()
        .join("serverFilesCourse/challenges/rendezvous-router/tests");
    std::fs::write(
        tests.join("edge/bad.json"),
        "[[[\"a\"]], [[\"rout\", \"k\"]]]",
    )
    .unwrap();
    std::fs::create_dir_all(tests.join("extra")).unwrap();
    std::fs::write(
        tests.join("extra/x.json"),
        "[[[\"a\"]], [[\"route\", \"k\"]]]",
    )
    .unwrap();
    let out = output(grader().args(["prairielearn", "--root", broken.path().to_str().unwrap()]));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let results: Value =
        serde_json::from_slice(&std::fs::read(broken.path().join("results/results.json")).unwrap())
            .unwrap();
    let message = results["message"].as_str().unwrap();
    assert!(
        message.contains("2 problems in the challenge or test files; nothing was graded: ")
            && message.contains("bad.json")
            && message.contains("; ")
            && message.contains("extra"),
        "{message}"
    );
    assert!(
        !message.contains('\n') && !message.contains("\\n"),
        "{message}"
    );
}

/// A rendezvous-router challenge folder in `dir` whose one group `many`
/// holds `cases` copies of the first sample case (the reference's answers
/// as expected files).
pub(crate) fn many_cases(dir: &Path, cases: usize) {
    let copy = dir.join("rendezvous-router");
    copy_tree(&root().join("challenges/rendezvous-router"), &copy, |rel| {
        !rel.starts_with("tests")
    });
    std::fs::write(
        copy.join("challenge.toml"),
        "title = \"many cases\"\nreference = \"rendezvous-router\"\noperations = [\"route\", \"add\", \"remove\"]\n[limits]\ntime_ms = 5000\n[[groups]]\nname = \"many\"\nweight = 100\n",
    )
    .unwrap();
    let group = copy.join("tests/many");
    std::fs::create_dir_all(&group).unwrap();
    let sample = root()
        .join("challenges/rendezvous-router/tests/sample/sample-1-keys-spread-over-three-nodes");
    for i in 0..cases {
        for ext in ["json", "expected.json"] {
            std::fs::copy(
                sample.with_extension(ext),
                group.join(format!("case-{i:03}.{ext}")),
            )
            .unwrap();
        }
    }
}

/// A wrong router that prints hostile text on every route: controls, bidi
/// overrides and characters beyond the BMP, each written as a longer
/// escape in JSON.
pub(crate) const CHATTY_WRONG: &str = r#"import sys
class Router:
    def __init__(self, nodes):
        self.nodes = list(nodes)
    def add(self, node):
        self.nodes.append(node)
    def remove(self, node):
        if node in self.nodes:
            self.nodes.remove(node)
    def route(self, key):
        sys.stdout.write(("\u202e\x1b[31m\"\\<\U0001F980>" * 40 + "\n") * 10)
        raise ValueError("\u202e\U0001F980" * 3000)
"#;

/// The entrypoint on `dir`: its exit code and results.json as written.
fn results_bytes(dir: &Path) -> (Option<i32>, Vec<u8>) {
    let out = output(grader().args(["prairielearn", "--root", dir.to_str().unwrap()]));
    let bytes = std::fs::read(dir.join("results/results.json"))
        .unwrap_or_else(|e| panic!("no results.json ({e}): {}", text(&out.stderr)));
    (out.status.code(), bytes)
}

#[test]
fn results_stay_within_one_megabyte_however_many_tests_print() {
    // 99 tests once passed a limit measured on compact JSON but written
    // pretty; 200 passed it by the sum of their outputs.
    for cases in [99, 200] {
        let dir = tempdir();
        many_cases(&dir.path().join("serverFilesCourse/challenges"), cases);
        std::fs::create_dir_all(dir.path().join("student")).unwrap();
        std::fs::write(dir.path().join("student/router.py"), CHATTY_WRONG).unwrap();
        let (code, bytes) = results_bytes(dir.path());
        assert_eq!(code, Some(0));
        assert!(
            bytes.len() < 1_000_000,
            "{cases} failing tests that print: results.json is {} bytes",
            bytes.len()
        );
        let results: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(results["gradable"], true);
        let tests = results["tests"].as_array().unwrap();
        assert_eq!(tests.len(), cases, "every test is listed");
        let cut = |s: &Value| s.as_str().unwrap().contains("(cut at ");
        assert!(
            cut(&results["output"]) || tests.iter().any(|t| cut(&t["output"])),
            "what was cut says so"
        );
        for t in tests {
            assert!(
                t["message"].as_str().unwrap().starts_with("runtime-error"),
                "{t}"
            );
            assert!(
                !t["output"].as_str().unwrap().is_empty(),
                "each test keeps some of its output"
            );
        }
    }
}

#[test]
fn a_module_that_does_not_load_charges_no_attempt_in_any_language() {
    for (name, source, says) in [
        ("router.py", "python/syntax_error.py", "SyntaxError"),
        ("router.py", "python/no_router.py", "Router"),
        ("router.mjs", "javascript/syntax_error.mjs", "SyntaxError"),
    ] {
        let dir = tempdir();
        job(dir.path(), &[(name, source)]);
        let (code, results) = grade(dir.path());
        assert_eq!(code, Some(0), "{source}");
        assert_eq!(results["gradable"], false, "{source}: {results}");
        assert!(results.get("score").is_none(), "{source}");
        let message = results["message"].as_str().unwrap();
        assert!(message.contains("no attempt was charged"), "{message}");
        assert!(message.contains(says), "{source}: {message}");
        let errors = results["format_errors"].as_array().unwrap();
        assert!(
            errors.iter().any(|e| e.as_str().unwrap().contains(says)),
            "{source}: {errors:?}"
        );
    }
    // A module that loads and then raises in every test is graded.
    let dir = tempdir();
    job(dir.path(), &[("router.py", "python/constructor_raises.py")]);
    let (_, results) = grade(dir.path());
    assert_eq!(results["gradable"], true, "{results}");
}

/// The job of `dir` with `data` as its data.json, or none.
fn job_with_data(dir: &Path, data: Option<&[u8]>) {
    job(dir, &[("router.py", "python/correct_class.py")]);
    std::fs::remove_file(dir.join("data/data.json")).unwrap();
    if let Some(data) = data {
        std::fs::write(dir.join("data/data.json"), data).unwrap();
    }
}

#[test]
fn a_data_json_that_cannot_be_used_is_not_gradable_and_names_the_problem() {
    for (data, problem) in [
        (
            &b"{\"params\": {\"challenge\": \"vnode-ring\xff\"}}"[..],
            "UTF-8",
        ),
        (&b"{\"params\": "[..], "JSON"),
        (&b"{\"params\": {\"challenge\": 5}}"[..], "params.challenge"),
        (&b"[1, 2]"[..], "object"),
        (&b"{\"params\": \"vnode-ring\"}"[..], "object params"),
    ] {
        let dir = tempdir();
        job_with_data(dir.path(), Some(data));
        let (code, results) = grade(dir.path());
        assert_eq!(code, Some(2), "{problem}: {results}");
        assert_eq!(results["gradable"], false, "{problem}: {results}");
        assert!(results.get("score").is_none());
        let message = results["message"].as_str().unwrap();
        assert!(message.contains("data.json"), "{message}");
        assert!(message.contains(problem), "{message}");
        assert!(message.contains("not your code's fault"), "{message}");
    }
    // A folder where the file should be cannot be read.
    let dir = tempdir();
    job_with_data(dir.path(), None);
    std::fs::create_dir(dir.path().join("data/data.json")).unwrap();
    let (code, results) = grade(dir.path());
    assert_eq!(code, Some(2), "{results}");
    assert_eq!(results["gradable"], false);
    assert!(results["message"].as_str().unwrap().contains("data.json"));

    // Only a missing data.json means none: the default challenge.
    let dir = tempdir();
    job_with_data(dir.path(), None);
    let (code, results) = grade(dir.path());
    assert_eq!(code, Some(0));
    assert_eq!(results["score"], 1.0, "{results}");
}

#[test]
fn a_student_folder_without_router_is_the_students_format_error() {
    for (files, named) in [
        (
            &[("solution.py", "python/lowest_score.py")][..],
            "rename solution.py to router.py",
        ),
        (
            &[
                ("main.py", "python/lowest_score.py"),
                ("helper.py", "python/lowest_score.py"),
            ][..],
            "helper.py, main.py",
        ),
        (&[][..], "no files"),
        // The folder that holds the work, uploaded whole.
        (
            &[("src/router.py", "python/lowest_score.py")][..],
            "move src/router.py to the top of your submission, as router.py",
        ),
        // A folder where the file should be.
        (
            &[("router.py/router.py", "python/lowest_score.py")][..],
            "router.py/ is there but is not a regular file",
        ),
    ] {
        let dir = tempdir();
        job(dir.path(), files);
        let (code, results) = grade(dir.path());
        assert_eq!(code, Some(0), "the student's mistake: {results}");
        assert_eq!(results["gradable"], false, "{results}");
        assert!(results.get("score").is_none());
        assert_eq!(results["tests"], Value::Array(Vec::new()), "never graded");
        let message = results["message"].as_str().unwrap();
        assert!(
            message.contains("router.py"),
            "the name expected: {message}"
        );
        assert!(message.contains(named), "{message}");
        assert!(message.contains("no attempt was charged"), "{message}");
        assert!(!message.contains("Tell your instructor"), "{message}");
        assert!(!results["format_errors"][0].as_str().unwrap().is_empty());
    }
    // Two entry files are the student's too, said by the grading itself.
    let dir = tempdir();
    job(
        dir.path(),
        &[
            ("router.py", "python/correct_class.py"),
            ("router.mjs", "javascript/correct.mjs"),
        ],
    );
    let (code, results) = grade(dir.path());
    assert_eq!(code, Some(0), "{results}");
    assert_eq!(results["gradable"], false, "{results}");
    let message = results["message"].as_str().unwrap();
    assert!(message.contains("several entry files"), "{message}");
    assert!(!message.contains("Tell your instructor"), "{message}");
}

/// PrairieLearn's image without Docker: packaging/check-prairielearn.sh
/// takes every step of tools/prairielearn/Dockerfile in a scratch root
/// (pip installing a wheel of this build's grader into a virtual
/// environment), then runs info.json's entrypoint on a known mistake in
/// /grade's layout there; CI runs it with the real wheel.
#[test]
fn the_images_steps_install_the_grader_and_its_entrypoint_grades() {
    let dir = tempdir();
    let wheel = crate::gradescope::shim_wheel(dir.path());
    let out = output(
        std::process::Command::new("bash")
            .arg(root().join("packaging/check-prairielearn.sh"))
            .arg(&wheel),
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    let said = text(&out.stdout);
    // Every step but FROM and apt-get ran.
    for step in [
        "RUN bash install-node.sh",
        "RUN python3 -m pip install",
        "RUN grader --version",
    ] {
        assert!(said.contains(step), "{step}: {said}");
    }
}

/// The info.json the docs show is the one in tools/prairielearn, whose
/// entrypoint is among the course files it copies into the job.
#[test]
fn the_docs_show_the_info_json_in_the_repository() {
    let docs = std::fs::read_to_string(root().join("docs/ci-and-instructors.md")).unwrap();
    let shown: Vec<Value> = docs
        .split("```json\n")
        .skip(1)
        .filter_map(|block| block.split_once("```").map(|(json, _)| json))
        .filter(|json| json.contains("externalGradingOptions"))
        .map(|json| serde_json::from_str(json).unwrap())
        .collect();
    let file: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tools/prairielearn/info.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(shown, std::slice::from_ref(&file));
    let options = &file["externalGradingOptions"];
    let entrypoint = options["entrypoint"].as_str().unwrap();
    let copied = entrypoint
        .strip_prefix("/grade/serverFilesCourse/")
        .unwrap();
    assert!(
        options["serverFilesCourse"]
            .as_array()
            .unwrap()
            .iter()
            .any(|f| f == copied),
        "{options}"
    );
}

/// Standard base64 decoded (the test's own, RFC 4648).
fn unbase64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let mut bytes = Vec::new();
    for chunk in text.as_bytes().chunks(4) {
        let digits: Vec<u8> = chunk
            .iter()
            .filter(|&&c| c != b'=')
            .map(|&c| value(c))
            .collect();
        let n = digits
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        bytes.extend(n.to_be_bytes()[1..digits.len()].iter());
    }
    bytes
}

/// A vnode-ring router whose load answers name a node with markup: the
/// learner's text in a chart.
const MARKUP_LOAD: &str = r#"
_load = Router.load
def load(self, n):
    return [["n</text><script>alert(1)</script>", c] for _, c in _load(self, n)]
Router.load = load
"#;

/// A wrong `load` gets a chart of each node's share against the fair
/// share in the test's `images`: an SVG data URL PrairieLearn shows, the
/// learner's node names escaped in it.
#[test]
fn a_wrong_load_is_charted_in_the_tests_images() {
    let dir = tempdir();
    job(dir.path(), &[]);
    std::fs::write(
        dir.path().join("data/data.json"),
        r#"{"params": {"challenge": "vnode-ring"}}"#,
    )
    .unwrap();
    let correct =
        std::fs::read_to_string(root().join("submissions/vnode-ring/python/correct.py")).unwrap();
    std::fs::write(
        dir.path().join("student/router.py"),
        format!("{correct}\n{MARKUP_LOAD}"),
    )
    .unwrap();
    let (code, results) = grade(dir.path());
    assert_eq!(code, Some(0));
    let tests = results["tests"].as_array().unwrap();
    let images: Vec<&Value> = tests
        .iter()
        .flat_map(|t| t["images"].as_array().into_iter().flatten())
        .collect();
    assert!(!images.is_empty(), "{results}");
    for image in &images {
        let label = image["label"].as_str().unwrap();
        assert!(label.starts_with("load("), "{label}");
        let url = image["url"].as_str().unwrap();
        let svg = url
            .strip_prefix("data:image/svg+xml;base64,")
            .unwrap_or_else(|| panic!("{url}"));
        let svg = String::from_utf8(unbase64(svg)).unwrap();
        assert!(
            svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
            "{svg}"
        );
        assert!(svg.ends_with("</svg>"), "{svg}");
        assert!(svg.contains("fair share"), "{svg}");
        // The student's node, as text: never markup.
        assert!(svg.contains("n&lt;/text&gt;&lt;script&gt;"), "{svg}");
        assert!(!svg.contains("<script"), "{svg}");
    }
    // Only tests that failed carry charts.
    for t in tests {
        if t["message"] == "passed" {
            assert!(t.get("images").is_none(), "{t}");
        }
    }
}

#[test]
fn run_sh_requires_the_sandbox_when_the_course_says_so() {
    // The grader run.sh starts tells what it was run with.
    let dir = tempdir();
    let (spy, said) = crate::support::grader_telling_its_args(&dir.path().join("bin"));
    for (require, passed) in [(None, false), (Some("0"), false), (Some("1"), true)] {
        let job_dir = dir.path().join(format!("job-{require:?}"));
        job(&job_dir, &[("router.py", "python/correct_class.py")]);
        let mut command = std::process::Command::new(root().join("tools/prairielearn/run.sh"));
        command
            .env("GRADE_ROOT", &job_dir)
            .env("GRADER", &spy)
            .env_remove("REQUIRE_SANDBOX");
        if let Some(value) = require {
            command.env("REQUIRE_SANDBOX", value);
        }
        let out = output(&mut command);
        assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
        let args = std::fs::read_to_string(&said).unwrap();
        assert_eq!(
            args.contains("--require-sandbox"),
            passed,
            "{require:?}: {args}"
        );
        // This machine has every layer: graded either way.
        let results: Value =
            serde_json::from_slice(&std::fs::read(job_dir.join("results/results.json")).unwrap())
                .unwrap();
        assert_eq!(results["score"], 1.0, "{results}");
    }
}
