//! Codio's partial points as an assessment sends them: tools/codio/grade.py
//! run as an Advanced Code Test runs it, its request received by a local
//! server standing in for `$CODIO_PARTIAL_POINTS_V2_URL` (a POST of
//! `points`, `feedback` and `format`, form-encoded, as Codio's "Partial
//! Points" page documents), and the script's exit always 0.

use crate::support::{grader, output, root, tempdir, text, trimmed_challenges};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::Path;
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

/// One request as the server received it.
#[derive(Debug)]
struct Request {
    method: String,
    target: String,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// A server on a free local port answering one request with `status`;
/// the request arrives on the channel.
fn server(status: u16) -> (String, mpsc::Receiver<Request>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!(
        "http://{}/partial-points?token=abc",
        listener.local_addr().unwrap()
    );
    let (send, receive) = mpsc::channel();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let mut words = line.split_whitespace();
        let (method, target) = (
            words.next().unwrap_or_default().to_owned(),
            words.next().unwrap_or_default().to_owned(),
        );
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            let (name, value) = header.split_once(':').unwrap();
            headers.push((name.trim().to_ascii_lowercase(), value.trim().to_owned()));
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map_or(0, |(_, v)| v.parse().unwrap());
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let mut stream = stream;
        let _ = write!(
            stream,
            "HTTP/1.1 {status} Whatever\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok"
        );
        let _ = send.send(Request {
            method,
            target,
            headers,
            body,
        });
    });
    (url, receive)
}

/// `body` decoded as a form (`application/x-www-form-urlencoded`).
fn form(body: &[u8]) -> Vec<(String, String)> {
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' => {
                    out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                    i += 2;
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8(out).unwrap()
    };
    std::str::from_utf8(body)
        .unwrap()
        .split('&')
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap();
            (decode(k), decode(v))
        })
        .collect()
}

/// The script run as Codio runs it, on the student's folder `work`.
fn script(work: &Path, url: Option<&str>) -> Command {
    let mut command = Command::new("python3");
    command
        .arg(root().join("tools/codio/grade.py"))
        .current_dir(work)
        .env("GRADER", env!("CARGO_BIN_EXE_grader"))
        .env("CODIO_WORKSPACE", work)
        .env("CHALLENGES", trimmed_challenges())
        .env_remove("SUBMISSION")
        .env_remove("GRADER_CHALLENGES");
    match url {
        Some(url) => command.env("CODIO_PARTIAL_POINTS_V2_URL", url),
        None => command.env_remove("CODIO_PARTIAL_POINTS_V2_URL"),
    };
    command
}

fn student(dir: &Path, source: &str) {
    std::fs::copy(
        root().join("submissions").join(source),
        dir.join("router.py"),
    )
    .unwrap();
}

#[test]
fn the_request_carries_the_percentage_and_the_diagnosis() {
    let work = tempdir();
    student(work.path(), "python/lowest_score.py");
    let (url, received) = server(200);
    let out = output(&mut script(work.path(), Some(&url)));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let request = received
        .recv_timeout(Duration::from_secs(60))
        .expect("a request");
    assert_eq!(request.method, "POST");
    assert_eq!(request.target, "/partial-points?token=abc");
    assert!(
        request.headers.contains(&(
            "content-type".into(),
            "application/x-www-form-urlencoded".into()
        )),
        "{:?}",
        request.headers
    );
    assert!(request.body.len() < 1024 * 1024);
    let fields = form(&request.body);
    let get = |name: &str| {
        fields
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
    };
    // The percentage of the score the JSON report gives, rounded down,
    // graded on the challenges the script was given.
    let report: Value = serde_json::from_slice(
        &output(
            grader()
                .arg("--challenges")
                .arg(trimmed_challenges())
                .args([
                    "grade",
                    "--format",
                    "json",
                    "--audience",
                    "learner",
                    "--exit-zero",
                    "submissions/python/lowest_score.py",
                ]),
        )
        .stdout,
    )
    .unwrap();
    let s = &report["submissions"][0];
    let percent = (s["score"].as_f64().unwrap() * 100.0 / s["max_score"].as_f64().unwrap()).floor();
    assert!(percent > 0.0 && percent < 100.0);
    assert_eq!(get("points"), Some(format!("{percent}")));
    assert_eq!(get("format").as_deref(), Some("html"));
    let feedback = get("feedback").unwrap();
    assert!(feedback.starts_with("<pre>") && feedback.ends_with("</pre>"));
    assert!(feedback.contains("likely mistake: the lowest score wins instead of the highest"));
    assert!(feedback.contains("hint: "));
    assert!(text(&out.stdout).contains(&format!("Graded: {percent}% sent to Codio")));
}

#[test]
fn learner_text_is_never_markup_in_the_feedback() {
    let work = tempdir();
    let mut source =
        std::fs::read_to_string(root().join("submissions/python/correct_class.py")).unwrap();
    source.push_str(
        "\n\n_Base = Router\n\n\nclass Router(_Base):\n    def route(self, key):\n        raise ValueError('<script>CANARY()</script><img src=x onerror=CANARY()>')\n",
    );
    std::fs::write(work.path().join("router.py"), source).unwrap();
    let (url, received) = server(200);
    let out = output(&mut script(work.path(), Some(&url)));
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let request = received.recv_timeout(Duration::from_secs(60)).unwrap();
    let fields = form(&request.body);
    let feedback = &fields.iter().find(|(k, _)| k == "feedback").unwrap().1;
    assert!(feedback.contains("&lt;script&gt;CANARY()"), "{feedback}");
    let inner = &feedback["<pre>".len()..feedback.len() - "</pre>".len()];
    assert!(!inner.contains('<') && !inner.contains('>'), "{inner}");
    assert_eq!(fields.iter().find(|(k, _)| k == "points").unwrap().1, "0");
}

#[test]
fn a_server_error_or_no_server_is_said_and_no_url_is_no_pass() {
    let work = tempdir();
    student(work.path(), "python/correct_class.py");
    let (url, received) = server(500);
    let out = output(&mut script(work.path(), Some(&url)));
    assert_eq!(out.status.code(), Some(0));
    received.recv_timeout(Duration::from_secs(60)).unwrap();
    let said = text(&out.stdout);
    assert!(
        said.contains("Graded (100%), but Codio refused the grade: HTTP 500"),
        "{said}"
    );

    // A port nothing listens on.
    let closed = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/x", closed.local_addr().unwrap());
    drop(closed);
    let out = output(&mut script(work.path(), Some(&url)));
    assert_eq!(out.status.code(), Some(0));
    let said = text(&out.stdout);
    assert!(said.contains("Codio could not be reached"), "{said}");

    // No URL at all: partial points are off in the assessment, and Codio
    // would take an exit of 0 for a pass with full marks.
    let out = output(&mut script(work.path(), None));
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains("Allow Partial Points"));
}

#[test]
fn a_grader_fault_sends_no_points() {
    let work = tempdir();
    student(work.path(), "python/correct_class.py");
    let (url, received) = server(200);
    let out =
        output(script(work.path(), Some(&url)).env("GRADER_PYTHON", work.path().join("no-python")));
    assert_eq!(
        out.status.code(),
        Some(0),
        "Codio takes any other exit for a 0"
    );
    assert!(
        received.recv_timeout(Duration::from_secs(2)).is_err(),
        "nothing sent"
    );
    let said = text(&out.stdout);
    assert!(
        said.contains("Not graded") && said.contains("not your"),
        "{said}"
    );
    assert!(said.contains("exited 3"), "{said}");
}

#[test]
fn a_folder_without_router_is_the_learners_zero_with_the_rename() {
    let work = tempdir();
    std::fs::copy(
        root().join("submissions/python/correct_class.py"),
        work.path().join("solution.py"),
    )
    .unwrap();
    let (url, received) = server(200);
    let out = output(&mut script(work.path(), Some(&url)));
    assert_eq!(out.status.code(), Some(0));
    let request = received.recv_timeout(Duration::from_secs(60)).unwrap();
    let fields = form(&request.body);
    assert_eq!(fields[0], ("points".into(), "0".into()));
    let feedback = &fields.iter().find(|(k, _)| k == "feedback").unwrap().1;
    assert!(
        feedback.contains("rename solution.py to router.py"),
        "{feedback}"
    );
}

#[test]
fn challenges_a_student_can_plant_are_never_graded_against() {
    // Codio runs the test in the student's workspace merged with the
    // secure folder: a course that ships no .guides/secure/challenges
    // must not have the student's own folder at that path graded against.
    let work = tempdir();
    student(work.path(), "python/lowest_score.py");
    let planted = work
        .path()
        .join(".guides/secure/challenges/rendezvous-router");
    // Any code earns every point of this suite: one case, no operation.
    let plant = || {
        std::fs::create_dir_all(planted.join("tests/all")).unwrap();
        std::fs::write(
            planted.join("challenge.toml"),
            "title = \"PLANTED\"\nreference = \"rendezvous-router\"\noperations = [\"route\"]\n\n[[groups]]\nname = \"all\"\nweight = 100\n",
        )
        .unwrap();
        std::fs::write(planted.join("tests/all/t.json"), "[[[\"a\"]],[]]").unwrap();
        std::fs::write(planted.join("tests/all/t.expected.json"), "[]").unwrap();
    };

    // The course ships none and says nothing: the built-in ones are never
    // assumed (a folder planted there would be taken), nothing is sent.
    let (url, received) = server(200);
    let mut unset = script(work.path(), Some(&url));
    unset.env_remove("CHALLENGES");
    let out = output(&mut unset);
    assert_eq!(out.status.code(), Some(0));
    assert!(
        received.recv_timeout(Duration::from_secs(2)).is_err(),
        "nothing sent"
    );
    let said = text(&out.stdout);
    assert!(
        said.contains("Not graded") && said.contains("CHALLENGES="),
        "{said}"
    );

    // The built-in ones asked for (CHALLENGES=): the planted folder is not read.
    plant();
    let (url, received) = server(200);
    let out = output(script(work.path(), Some(&url)).env("CHALLENGES", ""));
    assert_eq!(out.status.code(), Some(0));
    let request = received.recv_timeout(Duration::from_secs(60)).unwrap();
    let fields = form(&request.body);
    let points = &fields.iter().find(|(k, _)| k == "points").unwrap().1;
    assert_ne!(points, "100");
    let feedback = &fields.iter().find(|(k, _)| k == "feedback").unwrap().1;
    assert!(!feedback.contains("PLANTED"), "{feedback}");
}

/// Whether this process runs as root (as CI does).
fn is_root() -> bool {
    text(&output(Command::new("id").arg("-u")).stdout).trim() == "0"
}

#[test]
fn the_url_stays_out_of_reach_of_the_students_user_and_the_sandbox_can_be_required() {
    // The student's code runs as the script's user: a grader stand-in
    // (as the student's code would, without the sandbox) reads the
    // script's environment through /proc, and tells what it was run with.
    let work = tempdir();
    student(work.path(), "python/correct_class.py");
    let evidence = tempdir();
    let mode = |path: &Path, mode: u32| {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    };
    mode(work.path(), 0o755);
    mode(evidence.path(), 0o777);
    let spy = evidence.path().join("grader");
    std::fs::write(
        &spy,
        format!(
            "#!/bin/sh\nout={}\necho \"$@\" > \"$out/args\"\nif tr '\\0' '\\n' < /proc/$PPID/environ > \"$out/environ\" 2>/dev/null; then echo read > \"$out/read\"; fi\nexit 3\n",
            evidence.path().display()
        ),
    )
    .unwrap();
    mode(&spy, 0o755);
    let canary = "http://127.0.0.1:9/canary-url-7f3a";
    let script = evidence.path().join("grade.py");
    std::fs::copy(root().join("tools/codio/grade.py"), &script).unwrap();
    mode(&script, 0o755);
    // As root every environment is readable: the script runs as nobody,
    // with the system's python3 (one under root's home is not theirs).
    let mut command = if is_root() {
        let mut c = Command::new("setpriv");
        c.args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "/usr/bin/python3",
        ]);
        c
    } else {
        Command::new("python3")
    };
    command
        .arg(&script)
        .current_dir(work.path())
        .env("GRADER", &spy)
        .env("CODIO_WORKSPACE", work.path())
        .env("CHALLENGES", root().join("challenges"))
        .env("REQUIRE_SANDBOX", "1")
        .env("CODIO_PARTIAL_POINTS_V2_URL", canary)
        .env_remove("SUBMISSION");
    let out = output(&mut command);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(said.contains("Not graded"), "{said}");
    let args = std::fs::read_to_string(evidence.path().join("args")).expect("the stand-in ran");
    assert!(args.contains("--require-sandbox"), "{args}");
    assert!(
        !evidence.path().join("read").exists(),
        "the script's environment was readable: {:?}",
        std::fs::read_to_string(evidence.path().join("environ"))
    );
    assert!(!said.contains("canary-url"), "{said}");
}
