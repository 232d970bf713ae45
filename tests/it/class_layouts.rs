//! Hostile layouts of a class folder: each is built in a temporary folder
//! and graded. A student is granted their own file (or folder) and nothing
//! beside it; a FIFO, a device, a socket, a sparse file, a symlink loop or
//! a name that is not UTF-8 is one student's failure or is graded, never a
//! stopped class or a grader fault; the grader's memory stays bounded; the
//! canaries planted beside the students (another's source, a roster's
//! e-mail, a `.env` token) appear in no report format.

use crate::rejudge::small_challenge;
use crate::support::{grader, output, output_with_peak, root, tempdir, text};
use serde_json::Value;
use std::collections::BTreeMap;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CORRECT: &str = "submissions/python/correct_class.py";
const BOB: &str = "CANARY-BOB-SOURCE-5d1e";
const EMAIL: &str = "canary.roster.ada@example.edu";
const TOKEN: &str = "CANARY-ENV-TOKEN-93ac";
const CANARIES: [&str; 3] = [BOB, EMAIL, TOKEN];
/// What the spy prints first, to prove its output reaches the reports.
const SPY_RAN: &str = "SPY-RAN-7a0c";

/// A Python router that answers wrong (so its output is shown) after
/// printing everything it can read of `class`, beside its own file and
/// beneath: every file, decompressed where it is a git object.
fn spy(class: &Path) -> String {
    format!(
        r#"import os, sys, zlib
print("{SPY_RAN}", file=sys.stderr)
seen = set()
for top in [{class:?}, os.path.dirname(os.path.abspath(__file__))]:
    for root, dirs, files in os.walk(top):
        for name in files:
            path = os.path.join(root, name)
            if path in seen:
                continue
            seen.add(path)
            try:
                data = open(path, "rb").read(1 << 16)
            except Exception as e:
                print("no", path, type(e).__name__, file=sys.stderr)
                continue
            try:
                data = zlib.decompress(data)
            except Exception:
                pass
            print("read", path, data[:400], file=sys.stderr)

class Router:
    def __init__(self, nodes):
        self.nodes = list(nodes)
    def route(self, key):
        return "nobody"
    def add(self, node):
        pass
    def remove(self, node):
        pass
"#,
        class = class.to_str().unwrap()
    )
}

/// A class of files in a git checkout: ada (the spy) and bob (correct,
/// committed, with a canary in a comment), a roster and a `.env`.
fn class_in_a_checkout(dir: &Path) -> PathBuf {
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::write(class.join("ada.py"), spy(&class)).unwrap();
    let correct = std::fs::read_to_string(root().join(CORRECT)).unwrap();
    std::fs::write(class.join("bob.py"), format!("# {BOB}\n{correct}")).unwrap();
    std::fs::write(
        class.join("roster.csv"),
        format!("name,email\nada,{EMAIL}\n"),
    )
    .unwrap();
    std::fs::write(class.join(".env"), format!("TOKEN={TOKEN}\n")).unwrap();
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.edu"])
            .args(args)
            .current_dir(&class)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", text(&out.stderr));
    };
    git(&["init", "-q", "."]);
    git(&["add", "bob.py", "roster.csv", ".env"]);
    git(&["commit", "-qm", "class"]);
    class
}

/// Every file beneath `dir` with its bytes: what must not change.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .flatten()
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_owned(), std::fs::read(e.path()).unwrap()))
        .collect()
}

/// `grader --challenges CHALLENGES grade ARGS`, run to its end.
fn grade(challenges: &Path, args: &[&std::ffi::OsStr]) -> std::process::Output {
    output(
        grader()
            .arg("--challenges")
            .arg(challenges)
            .args(["grade", "--jobs", "2"])
            .args(args),
    )
}

/// Each submission's verdict in a JSON report, by name.
fn verdicts(report: &Value) -> BTreeMap<String, String> {
    crate::support::verdicts(report).into_iter().collect()
}

#[test]
fn a_class_of_files_in_a_checkout_grants_each_student_their_own_file_alone() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = class_in_a_checkout(dir.path());
    let before = snapshot(&class);
    let mut reports = Vec::new();
    for format in ["json", "human", "junit", "html", "ctrf"] {
        let file = dir.path().join(format!("report.{format}"));
        let out = grade(
            &challenges,
            &[
                "--format".as_ref(),
                format.as_ref(),
                "--output".as_ref(),
                file.as_os_str(),
                class.as_os_str(),
            ],
        );
        assert_eq!(
            out.status.code(),
            Some(1),
            "{format}: {}",
            text(&out.stderr)
        );
        let report = std::fs::read_to_string(&file).unwrap();
        reports.push((format, report + &text(&out.stdout) + &text(&out.stderr)));
    }
    let json: Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("report.json")).unwrap()).unwrap();
    let verdicts = verdicts(&json);
    assert_eq!(verdicts["bob.py"], "accepted", "{verdicts:?}");
    assert_eq!(verdicts["ada.py"], "wrong-answer", "{verdicts:?}");
    for (format, report) in &reports {
        assert!(
            report.contains(SPY_RAN),
            "{format}: the spy's output is reported, so a leak would show"
        );
        for canary in CANARIES {
            assert!(!report.contains(canary), "{format} shows {canary}");
        }
    }
    // Graded without a change to the class.
    assert_eq!(snapshot(&class), before);
}

#[test]
fn files_named_beside_each_other_are_a_class_of_files_too() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = class_in_a_checkout(dir.path());
    let out = grade(
        &challenges,
        &[
            "--format".as_ref(),
            "json".as_ref(),
            class.join("ada.py").as_os_str(),
            class.join("bob.py").as_os_str(),
        ],
    );
    let all = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{all}");
    assert!(all.contains(SPY_RAN), "{all}");
    for canary in CANARIES {
        assert!(!all.contains(canary), "the report shows {canary}");
    }
}

/// Runs `command`, its output to files in `dir`, for at most `limit`:
/// a grader that hangs is killed and the test fails.
fn within(command: &mut Command, dir: &Path, limit: Duration) -> (Option<i32>, String, String) {
    let _gate = crate::support::shared();
    let (out, err) = (dir.join("stdout"), dir.join("stderr"));
    let mut child = command
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap();
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "the grader did not end in {limit:?}: {}",
                std::fs::read_to_string(&err).unwrap_or_default()
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    (
        status.code(),
        std::fs::read_to_string(out).unwrap_or_default(),
        std::fs::read_to_string(err).unwrap_or_default(),
    )
}

/// Makes a FIFO at `path`, with mkfifo(1).
fn mkfifo(path: &Path) {
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

#[test]
fn a_fifo_entry_graded_into_a_results_folder_is_its_students_failure_and_the_class_is_graded() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(class.join("carol")).unwrap();
    std::fs::copy(root().join(CORRECT), class.join("a.py")).unwrap();
    mkfifo(&class.join("b_fifo.py"));
    // A FIFO inside a student's folder too, beside their entry.
    std::fs::copy(root().join(CORRECT), class.join("carol/router.py")).unwrap();
    mkfifo(&class.join("carol/data.txt"));
    let results = dir.path().join("results");
    let (code, stdout, stderr) = within(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--format", "json", "--results"])
            .arg(&results)
            .arg(&class),
        dir.path(),
        Duration::from_secs(120),
    );
    assert_eq!(code, Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let verdicts = verdicts(&report);
    assert_eq!(verdicts["a.py"], "accepted");
    assert_eq!(verdicts["carol"], "accepted");
    assert_eq!(verdicts["b_fifo.py"], "compile-error", "{verdicts:?}");
    let saved = std::fs::read_dir(&results)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".result.json"))
        .count();
    assert_eq!(saved, 3);
}

#[test]
fn a_sparse_file_of_gigabytes_costs_the_grader_no_memory() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    for student in ["ada", "bob"] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(root().join(CORRECT), class.join(student).join("router.py")).unwrap();
    }
    let sparse = std::fs::File::create(class.join("ada/data.bin")).unwrap();
    sparse.set_len(3 << 30).unwrap();
    let results = dir.path().join("results");
    let (out, peak_kib) = output_with_peak(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--format", "json", "--results"])
            .arg(&results)
            .arg(&class),
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(peak_kib > 0);
    assert!(
        peak_kib < 200 * 1024,
        "the grader peaked at {peak_kib} KiB beside a 3 GiB sparse file"
    );
    // Resuming reuses both results: the sparse file hashed the same.
    let again = output(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--format", "json", "--resume", "--results"])
            .arg(&results)
            .arg(&class),
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
}

#[test]
fn hidden_tests_checked_out_in_the_students_folder_beside_links_and_odd_names_are_graded() {
    let dir = tempdir();
    let student = dir.path().join("student");
    std::fs::create_dir_all(&student).unwrap();
    std::fs::copy(root().join(CORRECT), student.join("router.py")).unwrap();
    std::os::unix::fs::symlink("router.py", student.join("main.py")).unwrap();
    let odd = std::ffi::OsStr::from_bytes(b"helper-\xff.py");
    std::fs::write(student.join(odd), "X = 1\n").unwrap();
    std::fs::write(student.join(".env"), format!("TOKEN={TOKEN}\n")).unwrap();
    let hidden = student.join("hidden");
    crate::support::copy_tree(
        &root().join("challenges/rendezvous-router/tests/sample"),
        &hidden.join("sample"),
        |_| true,
    );
    let out = output(
        grader()
            .args(["grade", "--format", "json", "--tests"])
            .arg(&hidden)
            .arg(&student),
    );
    let all = text(&out.stdout) + &text(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{all}");
    assert!(!all.contains(TOKEN));
}

/// A Unix socket at `path`, left in place once its listener is dropped.
fn socket(path: &Path) {
    drop(std::os::unix::net::UnixListener::bind(path).unwrap());
}

#[test]
fn hostile_class_layouts_are_each_one_students_outcome_and_nothing_stops_the_class() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(root().join(CORRECT), class.join("ok.py")).unwrap();
    // A student folder that is a link to itself.
    std::os::unix::fs::symlink("loop", class.join("loop")).unwrap();
    socket(&class.join("sock.py"));
    // A device node (the null device's numbers); a container may refuse it.
    let made_device = Command::new("mknod")
        .arg(class.join("dev.py"))
        .args(["c", "1", "3"])
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    std::fs::write(class.join("zero.py"), "").unwrap();
    std::fs::create_dir_all(class.join("folder.py")).unwrap();
    std::fs::write(
        class.join("line\nbreak.py"),
        std::fs::read(root().join(CORRECT)).unwrap(),
    )
    .unwrap();
    let many = class.join("many");
    std::fs::create_dir_all(&many).unwrap();
    std::fs::copy(root().join(CORRECT), many.join("router.py")).unwrap();
    for i in 0..10_000 {
        std::fs::write(many.join(format!("f{i:05}.txt")), b"x").unwrap();
    }
    // Names the sandbox's policy cannot carry as they are: a student's
    // file, and a student's folder.
    let odd_file = class.join(std::ffi::OsStr::from_bytes(b"\xffodd.py"));
    std::fs::copy(root().join(CORRECT), odd_file).unwrap();
    let odd_folder = class.join(std::ffi::OsStr::from_bytes(b"\xfeodd"));
    std::fs::create_dir_all(&odd_folder).unwrap();
    std::fs::copy(root().join(CORRECT), odd_folder.join("router.py")).unwrap();
    std::fs::write(class.join("roster.csv"), format!("ada,{EMAIL}\n")).unwrap();
    let before = snapshot(&class);
    let results = dir.path().join("results");
    let (code, stdout, stderr) = within(
        grader()
            .arg("--challenges")
            .arg(&challenges)
            .args(["grade", "--jobs", "2", "--format", "json", "--results"])
            .arg(&results)
            .arg(&class),
        dir.path(),
        Duration::from_secs(300),
    );
    assert_eq!(code, Some(1), "{stderr}");
    let report: Value = serde_json::from_str(&stdout).unwrap();
    let verdicts = verdicts(&report);
    let mut expected: BTreeMap<&str, &str> = [
        ("ok.py", "accepted"),
        ("many", "accepted"),
        // Named as every report shows it, the newline escaped.
        ("line\\nbreak.py", "accepted"),
        ("loop", "compile-error"),
        ("sock.py", "compile-error"),
        ("folder.py", "compile-error"),
    ]
    .into();
    if made_device {
        expected.insert("dev.py", "compile-error");
    }
    for (name, verdict) in &expected {
        assert_eq!(
            verdicts.get(*name).map(String::as_str),
            Some(*verdict),
            "{name}: {verdicts:?}"
        );
    }
    // The empty module is judged as the learner's, whatever it lacks.
    assert!(
        !matches!(
            verdicts.get("zero.py").map(String::as_str),
            None | Some("grader-fault")
        ),
        "{verdicts:?}"
    );
    assert!(
        !verdicts.values().any(|v| v == "grader-fault"),
        "{verdicts:?}"
    );
    // The two odd names, and the three others above, are graded.
    let accepted = verdicts.values().filter(|v| *v == "accepted").count();
    assert_eq!(accepted, 5, "{verdicts:?}");
    // A student's file that is no regular file is told so in a learner's
    // words on every test, never in the command line's ("give the path of
    // the module to grade" is for whoever runs the grader).
    let socket = report["submissions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "sock.py")
        .unwrap();
    let said = format!(
        "{} is not a file; submit the module itself, as a plain file",
        class.join("sock.py").display()
    );
    for test in socket["tests"].as_array().unwrap() {
        assert_eq!(test["message"], said.as_str(), "{test}");
    }
    assert!(!stdout.contains("give the path"), "{stdout}");
    assert!(!(stdout.clone() + &stderr).contains(EMAIL));
    assert_eq!(snapshot(&class), before);
}

#[test]
fn a_gradescope_upload_always_gets_a_results_file_that_says_what_went_wrong() {
    let dir = tempdir();
    let upload = dir.path().join("submission");
    std::fs::create_dir_all(&upload).unwrap();
    std::fs::copy(root().join(CORRECT), upload.join("solution.py")).unwrap();
    std::fs::write(upload.join("helper.py"), "X = 1\n").unwrap();
    let results = dir.path().join("results.json");
    let gradescope = |tests: Option<&Path>| {
        let _ = std::fs::remove_file(&results);
        let mut command = grader();
        command.arg("grade");
        if let Some(tests) = tests {
            command.arg("--tests").arg(tests);
        }
        let out = output(
            command
                .args(["--format", "gradescope", "--exit-zero", "--output"])
                .arg(&results)
                .arg(&upload),
        );
        let written: Value = serde_json::from_slice(
            &std::fs::read(&results)
                .unwrap_or_else(|e| panic!("no results.json ({e}): {}", text(&out.stderr))),
        )
        .unwrap();
        (out, written)
    };
    // No router.*: the student hears which file to rename.
    let (out, written) = gradescope(None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(written["score"], 0);
    let said = written["output"].as_str().unwrap();
    assert!(
        said.contains("router.py") && said.contains("found helper.py, solution.py"),
        "{said}"
    );
    // The course's set-up failing: still a results file, saying whose.
    std::fs::rename(upload.join("solution.py"), upload.join("router.py")).unwrap();
    let (out, written) = gradescope(Some(&dir.path().join("no-tests")));
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    // No score at all: a zero would be recorded as the student's.
    assert_eq!(written.get("score"), None, "{written}");
    let said = written["output"].as_str().unwrap();
    assert!(said.contains("not your code's fault"), "{said}");
    // And graded when all is well.
    let (out, written) = gradescope(None);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(written["score"].as_f64().unwrap() > 0.0, "{written}");
}

/// A student's folder nested thousands of folders deep, in a class folder
/// the sandbox's uid may not enter (so each student is given a private
/// copy): the copy keeps its own stack, never the grader's, and leaves out
/// what is past the system's path length; both students are graded.
#[test]
fn a_folder_nested_thousands_deep_is_copied_without_the_graders_stack() {
    let dir = tempdir();
    let challenges = small_challenge(dir.path());
    let class = dir.path().join("class");
    for student in ["alice", "zoe"] {
        std::fs::create_dir_all(class.join(student)).unwrap();
        std::fs::copy(root().join(CORRECT), class.join(student).join("router.py")).unwrap();
    }
    // Made a level at a time from within: the whole path is longer than
    // the system takes at once.
    let made = Command::new("python3")
        .args([
            "-c",
            "import os\nfor _ in range(3000):\n    os.mkdir('d')\n    os.chdir('d')\n",
        ])
        .current_dir(class.join("zoe"))
        .status()
        .unwrap();
    assert!(made.success());
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&class, std::fs::Permissions::from_mode(0o700)).unwrap();
    let out = grade(
        &challenges,
        &["--format".as_ref(), "json".as_ref(), class.as_os_str()],
    );
    let report: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)));
    assert_eq!(
        verdicts(&report),
        BTreeMap::from([
            ("alice".to_owned(), "accepted".to_owned()),
            ("zoe".to_owned(), "accepted".to_owned())
        ]),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(0));
    // A tree this deep cannot be removed by path either: from within.
    let _ = Command::new("rm").arg("-rf").arg(&class).status();
}
