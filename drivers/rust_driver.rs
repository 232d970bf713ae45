// rendezvous-grader's Rust driver, linked with a learner's crate
// (`--extern submission=...`), which it calls as `submission::Router`.
//
// The grader fills in the parts marked `@@...@@` from the challenge's
// operations: how to build the Router and how to call each operation. The
// rest speaks the protocol (see the project's docs/protocol.md): requests on
// descriptor 3, replies on 4, progress queries on 5. Standard output and
// error belong to the learner.

#![allow(unused_mut, dead_code, unused_imports)]

use std::fmt::Write as _;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::fd::FromRawFd;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Mutex;

/// The operation under way: -1 the constructor.
static CURRENT: AtomicI64 = AtomicI64::new(-1);
/// What the last panic said, where (file:line:column), and its line.
static PANIC: Mutex<Option<(String, String, Option<u32>)>> = Mutex::new(None);
static REPLIES: Mutex<Option<std::fs::File>> = Mutex::new(None);

#[derive(Clone, Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Json>),
    Obj(Vec<(String, Json)>),
}

impl Json {
    fn get(&self, key: &str) -> Option<&Json> {
        match self {
            Json::Obj(fields) => fields.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }
    fn write(&self, out: &mut String) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Num(n) => {
                if n.fract() == 0.0 && n.abs() < 9.0e15 {
                    let _ = write!(out, "{}", *n as i64);
                } else if n.is_finite() {
                    let _ = write!(out, "{n}");
                } else {
                    out.push_str("null");
                }
            }
            Json::Str(s) => {
                out.push('"');
                for c in s.chars() {
                    match c {
                        '"' => out.push_str("\\\""),
                        '\\' => out.push_str("\\\\"),
                        '\n' => out.push_str("\\n"),
                        '\r' => out.push_str("\\r"),
                        '\t' => out.push_str("\\t"),
                        c if (c as u32) < 0x20 => {
                            let _ = write!(out, "\\u{:04x}", c as u32);
                        }
                        c => out.push(c),
                    }
                }
                out.push('"');
            }
            Json::Arr(items) => {
                out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    item.write(out);
                }
                out.push(']');
            }
            Json::Obj(fields) => {
                out.push('{');
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    Json::Str(k.clone()).write(out);
                    out.push(':');
                    v.write(out);
                }
                out.push('}');
            }
        }
    }
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn ws(&mut self) {
        while self.at < self.bytes.len() && matches!(self.bytes[self.at], b' ' | b'\t' | b'\n' | b'\r') {
            self.at += 1;
        }
    }
    fn eat(&mut self, b: u8) -> Result<(), String> {
        self.ws();
        if self.bytes.get(self.at) == Some(&b) {
            self.at += 1;
            Ok(())
        } else {
            Err(format!("expected '{}' at byte {}", b as char, self.at))
        }
    }
    fn value(&mut self) -> Result<Json, String> {
        self.ws();
        match self.bytes.get(self.at) {
            Some(b'n') => self.word("null", Json::Null),
            Some(b't') => self.word("true", Json::Bool(true)),
            Some(b'f') => self.word("false", Json::Bool(false)),
            Some(b'"') => self.string().map(Json::Str),
            Some(b'[') => {
                self.at += 1;
                let mut items = Vec::new();
                self.ws();
                if self.bytes.get(self.at) == Some(&b']') {
                    self.at += 1;
                    return Ok(Json::Arr(items));
                }
                loop {
                    items.push(self.value()?);
                    self.ws();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b']') => {
                            self.at += 1;
                            return Ok(Json::Arr(items));
                        }
                        _ => return Err(format!("bad list at byte {}", self.at)),
                    }
                }
            }
            Some(b'{') => {
                self.at += 1;
                let mut fields = Vec::new();
                self.ws();
                if self.bytes.get(self.at) == Some(&b'}') {
                    self.at += 1;
                    return Ok(Json::Obj(fields));
                }
                loop {
                    self.ws();
                    let key = self.string()?;
                    self.eat(b':')?;
                    fields.push((key, self.value()?));
                    self.ws();
                    match self.bytes.get(self.at) {
                        Some(b',') => self.at += 1,
                        Some(b'}') => {
                            self.at += 1;
                            return Ok(Json::Obj(fields));
                        }
                        _ => return Err(format!("bad object at byte {}", self.at)),
                    }
                }
            }
            Some(_) => {
                let start = self.at;
                while self.at < self.bytes.len() && matches!(self.bytes[self.at], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9') {
                    self.at += 1;
                }
                let text = std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("");
                text.parse().map(Json::Num).map_err(|_| format!("bad number at byte {start}"))
            }
            None => Err("unexpected end".into()),
        }
    }
    fn word(&mut self, word: &str, value: Json) -> Result<Json, String> {
        if self.bytes[self.at..].starts_with(word.as_bytes()) {
            self.at += word.len();
            Ok(value)
        } else {
            Err(format!("bad literal at byte {}", self.at))
        }
    }
    fn hex4(&mut self) -> Result<u32, String> {
        let text = self.bytes.get(self.at..self.at + 4).ok_or("short \\u escape")?;
        self.at += 4;
        u32::from_str_radix(std::str::from_utf8(text).map_err(|e| e.to_string())?, 16).map_err(|e| e.to_string())
    }
    fn string(&mut self) -> Result<String, String> {
        self.eat(b'"')?;
        let mut out = Vec::new();
        loop {
            let b = *self.bytes.get(self.at).ok_or("unterminated string")?;
            self.at += 1;
            match b {
                b'"' => return String::from_utf8(out).map_err(|e| e.to_string()),
                b'\\' => {
                    let e = *self.bytes.get(self.at).ok_or("bad escape")?;
                    self.at += 1;
                    let c = match e {
                        b'n' => '\n',
                        b't' => '\t',
                        b'r' => '\r',
                        b'b' => '\u{8}',
                        b'f' => '\u{c}',
                        b'u' => {
                            let mut code = self.hex4()?;
                            if (0xd800..0xdc00).contains(&code) && self.bytes[self.at..].starts_with(b"\\u") {
                                self.at += 2;
                                let low = self.hex4()?;
                                code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                            }
                            char::from_u32(code).unwrap_or('\u{fffd}')
                        }
                        other => other as char,
                    };
                    let mut buf = [0u8; 4];
                    out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                }
                other => out.push(other),
            }
        }
    }
}

fn parse(text: &str) -> Result<Json, String> {
    Parser { bytes: text.as_bytes(), at: 0 }.value()
}

/// Results of the learner's methods, as JSON.
trait ToJson {
    fn to_json(&self) -> Json;
}
impl ToJson for () {
    fn to_json(&self) -> Json {
        Json::Null
    }
}
impl ToJson for String {
    fn to_json(&self) -> Json {
        Json::Str(self.clone())
    }
}
impl ToJson for &str {
    fn to_json(&self) -> Json {
        Json::Str((*self).to_owned())
    }
}
impl ToJson for usize {
    fn to_json(&self) -> Json {
        Json::Num(*self as f64)
    }
}
impl ToJson for u64 {
    fn to_json(&self) -> Json {
        Json::Num(*self as f64)
    }
}
impl ToJson for u32 {
    fn to_json(&self) -> Json {
        Json::Num(f64::from(*self))
    }
}
impl ToJson for f64 {
    fn to_json(&self) -> Json {
        Json::Num(*self)
    }
}
impl<T: ToJson> ToJson for Option<T> {
    fn to_json(&self) -> Json {
        self.as_ref().map_or(Json::Null, ToJson::to_json)
    }
}
impl<T: ToJson> ToJson for Vec<T> {
    fn to_json(&self) -> Json {
        Json::Arr(self.iter().map(ToJson::to_json).collect())
    }
}
impl<A: ToJson, B: ToJson> ToJson for (A, B) {
    fn to_json(&self) -> Json {
        Json::Arr(vec![self.0.to_json(), self.1.to_json()])
    }
}

fn arg_str(op: &[Json], i: usize) -> &str {
    match op.get(i) {
        Some(Json::Str(s)) => s,
        _ => "",
    }
}
fn arg_usize(op: &[Json], i: usize) -> usize {
    match op.get(i) {
        Some(Json::Num(n)) => *n as usize,
        _ => 0,
    }
}
fn arg_f64(op: &[Json], i: usize) -> f64 {
    match op.get(i) {
        Some(Json::Num(n)) => *n,
        _ => 0.0,
    }
}
fn arg_names(v: &Json) -> Vec<String> {
    match v {
        Json::Arr(items) => items.iter().map(|i| match i {
            Json::Str(s) => s.clone(),
            _ => String::new(),
        }).collect(),
        _ => Vec::new(),
    }
}
fn arg_pairs(v: &Json) -> Vec<(String, f64)> {
    match v {
        Json::Arr(items) => items.iter().map(|i| match i {
            Json::Arr(p) if p.len() == 2 => (arg_str(p, 0).to_owned(), arg_f64(p, 1)),
            _ => (String::new(), 0.0),
        }).collect(),
        _ => Vec::new(),
    }
}

@@GLUE@@

fn send(message: &Json) {
    let mut text = String::new();
    message.write(&mut text);
    text.push('\n');
    if let Some(out) = REPLIES.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
        let _ = out.write_all(text.as_bytes());
        let _ = out.flush();
    }
}

fn obj(fields: Vec<(&str, Json)>) -> Json {
    Json::Obj(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// The grader reads an error's message up to 8192 characters
/// (docs/protocol.md): a longer one is cut here, so that an enormous panic
/// stays the learner's runtime error.
fn clip(text: String) -> String {
    const CLIP: usize = 8192;
    match text.char_indices().nth(CLIP) {
        Some((at, _)) => format!("{} ... ({} characters cut) ...", &text[..at], text[at..].chars().count()),
        None => text,
    }
}

fn error_json(kind: &str, message: String, place: String, line: Option<u32>, op_index: Option<i64>) -> Json {
    let message = clip(message);
    let place = clip(place);
    let traceback = if place.is_empty() { String::new() } else { format!("  panicked at {place}") };
    obj(vec![
        ("type", Json::Str(kind.to_owned())),
        ("message", Json::Str(message)),
        ("traceback", Json::Str(traceback)),
        ("line", line.map_or(Json::Null, |l| Json::Num(f64::from(l)))),
        ("op_index", op_index.map_or(Json::Null, |i| Json::Num(i as f64))),
    ])
}

fn take_panic() -> (String, String, Option<u32>) {
    PANIC
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()
        .unwrap_or_else(|| ("panic".into(), String::new(), None))
}

fn run_case(id: Json, case: &Json) -> Json {
    let (args, ops) = match case {
        Json::Arr(parts) if parts.len() == 2 => (parts[0].clone(), parts[1].clone()),
        _ => return obj(vec![("id", id), ("error", error_json("ProtocolError", "a case is [args, ops]".into(), String::new(), None, None)), ("output", Json::Arr(vec![]))]),
    };
    let args = match args {
        Json::Arr(a) => a,
        _ => Vec::new(),
    };
    let ops = match ops {
        Json::Arr(o) => o,
        _ => Vec::new(),
    };
    let mut output: Vec<Json> = Vec::with_capacity(ops.len());
    CURRENT.store(-1, Ordering::Relaxed);
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let mut router = construct(&args);
        for (i, op) in ops.iter().enumerate() {
            CURRENT.store(i as i64, Ordering::Relaxed);
            let op = match op {
                Json::Arr(op) => op.as_slice(),
                _ => &[],
            };
            output.push(dispatch(&mut router, op));
        }
    }));
    let _ = std::io::stdout().flush();
    match result {
        Ok(()) => obj(vec![("id", id), ("output", Json::Arr(output))]),
        Err(_) => {
            let (message, place, line) = take_panic();
            let op = CURRENT.load(Ordering::Relaxed);
            obj(vec![("id", id), ("output", Json::Arr(output)), ("error", error_json("panic", message, place, line, Some(op)))])
        }
    }
}

fn run_hash(id: Json, texts: &Json) -> Json {
    let Some(h32) = H32 else {
        return obj(vec![("id", id), ("unsupported", Json::Arr(vec![Json::Str("h32".into())]))]);
    };
    let texts = match texts {
        Json::Arr(t) => t.clone(),
        _ => Vec::new(),
    };
    let result = std::panic::catch_unwind(|| {
        texts.iter().map(|t| match t {
            Json::Str(s) => Json::Num(h32(s) as f64),
            _ => Json::Null,
        }).collect::<Vec<_>>()
    });
    match result {
        Ok(values) => obj(vec![("id", id), ("h32", Json::Arr(values))]),
        Err(_) => {
            let (message, place, line) = take_panic();
            obj(vec![("id", id), ("error", error_json("panic", message, place, line, None))])
        }
    }
}

fn main() {
    // SAFETY: descriptors 3 to 5 are set up by the grader for this process
    // alone (the protocol); nothing else in the process owns them.
    let (requests, replies, mut control) = unsafe {
        (std::fs::File::from_raw_fd(3), std::fs::File::from_raw_fd(4), std::fs::File::from_raw_fd(5))
    };
    *REPLIES.lock().unwrap() = Some(replies);
    std::panic::set_hook(Box::new(|info| {
        let message = if let Some(s) = info.payload().downcast_ref::<&str>() {
            (*s).to_owned()
        } else if let Some(s) = info.payload().downcast_ref::<String>() {
            s.clone()
        } else {
            "panic".to_owned()
        };
        let (place, line) = info
            .location()
            .map(|l| (format!("{}:{}:{}", l.file(), l.line(), l.column()), Some(l.line())))
            .unwrap_or_default();
        *PANIC.lock().unwrap_or_else(|e| e.into_inner()) = Some((message, place, line));
    }));
    // Progress queries: descriptor 5 is non-blocking, so poll it gently.
    std::thread::spawn(move || {
        let mut byte = [0u8; 64];
        loop {
            match control.read(&mut byte) {
                Ok(0) => return,
                Ok(_) => {
                    let op = CURRENT.load(Ordering::Relaxed);
                    send(&obj(vec![("progress", obj(vec![("op_index", Json::Num(op as f64))]))]));
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => std::thread::sleep(std::time::Duration::from_millis(20)),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return,
            }
        }
    });
    send(&obj(vec![(
        "hello",
        obj(vec![
            ("protocol", Json::Num(1.0)),
            ("api", Json::Str("class".into())),
            ("h32", Json::Bool(H32.is_some())),
            ("runtime", Json::Str(RUNTIME.into())),
        ]),
    )]));
    for line in BufReader::new(requests).lines() {
        let Ok(line) = line else { break };
        let request = match parse(&line) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("rendezvous-grader rust driver: bad request: {e}");
                std::process::exit(70);
            }
        };
        let id = request.get("id").cloned().unwrap_or(Json::Null);
        let reply = if let Some(case) = request.get("case") {
            run_case(id, case)
        } else if let Some(texts) = request.get("h32") {
            run_hash(id, texts)
        } else {
            obj(vec![("id", id), ("unsupported", Json::Arr(vec![]))])
        };
        send(&reply);
    }
}
