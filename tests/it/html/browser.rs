//! A headless Chromium driven over the DevTools protocol through a pipe
//! (`--remote-debugging-pipe`: JSON messages, each ended by a NUL, read on
//! the browser's fd 3 and written on its fd 4), so no port is opened and
//! no websocket is needed. The browser is closed, or killed, when the
//! value is dropped, and its every process is checked to be gone.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How long one answer of the browser may take on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(90);

pub struct Browser {
    child: Child,
    input: ChildStdin,
    messages: Receiver<Value>,
    next_id: u64,
    /// Every event received, in order.
    events: Vec<Value>,
    /// The profile folder: every process of this browser names it.
    profile: tempfile::TempDir,
    log: PathBuf,
}

/// Chromium on PATH, under either of its names.
fn chromium() -> PathBuf {
    let path = std::env::var_os("PATH").unwrap_or_default();
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser"] {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    panic!(
        "this test opens the HTML report in a real browser and needs Chromium on PATH \
         (as chromium or chromium-browser); install it (Debian: apt-get install chromium; \
         .ci/run does) and run the test again"
    );
}

/// Whether this process runs as root (Chromium's sandbox then needs
/// turning off).
fn root_user() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix("Uid:"))
        .and_then(|l| l.split_whitespace().nth(1))
        == Some("0")
}

impl Browser {
    /// Starts a headless Chromium with a fresh profile; its log goes to a
    /// file in `dir`.
    pub fn start(dir: &Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let log = dir.join("chromium.log");
        let mut command = Command::new("sh");
        // fd 3 and 4 are the protocol's pipe: the child's stdin and stdout
        // moved there, and exec keeps the pid Chromium's.
        command
            .arg("-c")
            .arg("exec \"$0\" \"$@\" 3<&0 4>&1 0</dev/null 1>&2")
            .arg(chromium())
            .args([
                "--headless",
                "--remote-debugging-pipe",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-extensions",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--window-size=1280,1800",
                "--enable-logging=stderr",
                "--v=0",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()));
        if root_user() {
            command.arg("--no-sandbox");
        }
        command.arg("about:blank");
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .expect("chromium starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (send, messages) = channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(output);
            let mut message = Vec::new();
            while reader.read_until(0, &mut message).unwrap_or(0) > 0 {
                if message.last() == Some(&0) {
                    message.pop();
                }
                let Ok(value) = serde_json::from_slice::<Value>(&message) else {
                    break;
                };
                if send.send(value).is_err() {
                    break;
                }
                message.clear();
            }
        });
        Browser {
            child,
            input,
            messages,
            next_id: 0,
            events: Vec::new(),
            profile,
            log,
        }
    }

    fn log(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// The next message, or a failure that shows the browser's log.
    fn receive(&mut self, deadline: Instant, waiting_for: &str) -> Value {
        let left = deadline.saturating_duration_since(Instant::now());
        match self.messages.recv_timeout(left) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => {
                panic!(
                    "no {waiting_for} from chromium in {PATIENCE:?}\n{}",
                    self.log()
                )
            }
            Err(RecvTimeoutError::Disconnected) => {
                panic!(
                    "chromium closed the pipe waiting for {waiting_for}\n{}",
                    self.log()
                )
            }
        }
    }

    /// Calls `method` (in the page's `session`, if one) and answers its
    /// result; events that arrive meanwhile are kept.
    pub fn call(&mut self, method: &str, params: Value, session: Option<&str>) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({"id": id, "method": method, "params": params});
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        let mut bytes = serde_json::to_vec(&message).unwrap();
        bytes.push(0);
        self.input.write_all(&bytes).expect("the pipe to chromium");
        let deadline = Instant::now() + PATIENCE;
        loop {
            let message = self.receive(deadline, method);
            if message["id"] == id {
                assert!(message.get("error").is_none(), "{method}: {message}");
                return message["result"].clone();
            }
            self.events.push(message);
        }
    }

    /// A new tab, attached, with what the test watches enabled: its
    /// session id.
    pub fn open_page(&mut self) -> String {
        let target = self.call("Target.createTarget", json!({"url": "about:blank"}), None);
        let attached = self.call(
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
            None,
        );
        let session = attached["sessionId"].as_str().unwrap().to_owned();
        for domain in ["Page", "Runtime", "Log", "Network"] {
            self.call(&format!("{domain}.enable"), json!({}), Some(&session));
        }
        session
    }

    /// Goes to `url` and waits for its load event.
    pub fn navigate(&mut self, url: &str, session: &str) {
        let seen = self.events.len();
        let result = self.call("Page.navigate", json!({"url": url}), Some(session));
        assert!(result.get("errorText").is_none(), "{url}: {result}");
        let loaded = |e: &Value| e["method"] == "Page.loadEventFired" && e["sessionId"] == session;
        if self.events[seen..].iter().any(loaded) {
            return;
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let message = self.receive(deadline, "Page.loadEventFired");
            let done = loaded(&message);
            self.events.push(message);
            if done {
                return;
            }
        }
    }

    /// The value of a JavaScript expression in the page (a promise's, once
    /// settled).
    pub fn evaluate(&mut self, expression: &str, session: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({"expression": expression, "returnByValue": true, "awaitPromise": true}),
            Some(session),
        );
        assert!(
            result.get("exceptionDetails").is_none(),
            "{expression}: {result}"
        );
        result["result"]["value"].clone()
    }

    /// A PNG of the page as shown.
    pub fn screenshot(&mut self, session: &str) -> Vec<u8> {
        let shot = self.call(
            "Page.captureScreenshot",
            json!({"format": "png"}),
            Some(session),
        );
        base64(shot["data"].as_str().unwrap())
    }

    /// The pids of this browser's processes: the child and everything
    /// below it, and whatever names its profile folder (a helper that
    /// left its parent).
    fn processes(&self) -> Vec<u32> {
        let root = self.child.id();
        let profile = self.profile.path().display().to_string();
        let mut table: Vec<(u32, u32, String)> = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
            let Some(ppid) = stat
                .rsplit_once(')')
                .and_then(|(_, rest)| rest.split_whitespace().nth(1))
                .and_then(|p| p.parse().ok())
            else {
                continue;
            };
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            table.push((pid, ppid, String::from_utf8_lossy(&cmdline).into_owned()));
        }
        let mut found = vec![root];
        let mut i = 0;
        while i < found.len() {
            let parent = found[i];
            for (pid, ppid, _) in &table {
                if *ppid == parent && !found.contains(pid) {
                    found.push(*pid);
                }
            }
            i += 1;
        }
        for (pid, _, cmdline) in &table {
            if cmdline.contains(&profile) && !found.contains(pid) {
                found.push(*pid);
            }
        }
        found
    }

    /// Closes the browser, checks that none of its processes is left, and
    /// answers every event it sent.
    pub fn close(mut self) -> Vec<Value> {
        let processes = self.processes();
        assert!(processes.len() > 1, "chromium runs as one process only?");
        let mut bytes = serde_json::to_vec(&json!({"id": 0, "method": "Browser.close"})).unwrap();
        bytes.push(0);
        let _ = self.input.write_all(&bytes);
        let deadline = Instant::now() + PATIENCE;
        while self.child.try_wait().unwrap().is_none() {
            assert!(
                Instant::now() < deadline,
                "chromium did not close\n{}",
                self.log()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        while let Ok(message) = self.messages.try_recv() {
            self.events.push(message);
        }
        // Its helpers follow it out; a zombie is no process left running.
        let running = |pid: &u32| {
            std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|s| {
                    s.rsplit_once(')')
                        .map(|(_, r)| r.trim_start().starts_with('Z'))
                })
                .is_some_and(|zombie| !zombie)
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let left: Vec<u32> = processes.iter().copied().filter(running).collect();
            if left.is_empty() {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "chromium's processes {left:?} are left"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::mem::take(&mut self.events)
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // A test that failed half-way leaves no browser behind.
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Standard base64 (what the protocol's binary data is) decoded.
fn base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text.bytes().filter(|&c| c != b'=').map(value).collect();
    let mut bytes = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        bytes.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    bytes
}

#[test]
fn base64_decodes_as_the_standard_says() {
    // RFC 4648's test vectors.
    for (text, bytes) in [
        ("", ""),
        ("Zg==", "f"),
        ("Zm8=", "fo"),
        ("Zm9v", "foo"),
        ("Zm9vYg==", "foob"),
        ("Zm9vYmE=", "fooba"),
        ("Zm9vYmFy", "foobar"),
    ] {
        assert_eq!(base64(text), bytes.as_bytes());
    }
}
