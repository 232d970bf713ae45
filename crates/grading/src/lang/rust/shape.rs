//! The Router a Rust source declares: its inherent `impl Router` blocks'
//! public functions and their arguments, read from the source (the driver
//! is built from the challenge's signatures, so a Router of another
//! challenge does not build, and says nothing of itself).

use super::{code_and_depth, is_ident};
use crate::protocol::{Arity, Shape};
use std::path::Path;

/// The largest source read for its shape.
const SOURCE_CAP: u64 = 1 << 20;

/// The shape `path` declares; `None` when it is not a regular file of at
/// most [`SOURCE_CAP`] bytes (a pipe put in its place is never waited on),
/// or declares no inherent `impl Router` with public functions.
pub fn declared_shape(path: &Path) -> Option<Shape> {
    if std::fs::metadata(path).ok()?.len() > SOURCE_CAP {
        return None;
    }
    let bytes = crate::fsutil::read_regular(path).ok()?;
    shape(&String::from_utf8_lossy(&bytes))
}

/// The shape `source` declares.
fn shape(source: &str) -> Option<Shape> {
    let (text, depth) = code_and_depth(source);
    let mut shape = Shape::default();
    for (at, _) in text.match_indices("impl") {
        if depth[at] != 0 || !word_at(&text, at, "impl") {
            continue;
        }
        let Some(open) = text[at..].find('{').map(|o| at + o) else {
            continue;
        };
        if !is_router(&text[at + 4..open]) {
            continue;
        }
        let close = (open + 1..text.len())
            .find(|&i| depth[i] == 0)
            .unwrap_or(text.len());
        for (i, _) in text[open..close].match_indices("fn") {
            let i = open + i;
            if depth[i] == 1 && word_at(&text, i, "fn") && public(&text[open + 1..i]) {
                function(&text[i + 2..close], &mut shape);
            }
        }
    }
    (!shape.methods.is_empty() || shape.constructor.is_some()).then(|| {
        shape.methods.sort();
        shape.methods.dedup();
        shape
    })
}

/// Whether `word` stands at `at` in `text` as a word of its own.
fn word_at(text: &str, at: usize, word: &str) -> bool {
    (at == 0 || !is_ident(text[..at].chars().last()))
        && !is_ident(text[at + word.len()..].chars().next())
}

/// Whether an `impl` header (what stands between `impl` and `{`) is an
/// inherent impl of `Router`: `impl Router`, `impl<'a> Router<'a>`, with
/// or without a `where` clause.
fn is_router(header: &str) -> bool {
    let mut plain = String::new();
    let mut angle = 0u32;
    for c in header.chars() {
        match c {
            '<' => angle += 1,
            '>' => angle = angle.saturating_sub(1),
            _ if angle == 0 => plain.push(c),
            _ => {}
        }
    }
    let mut words = plain.split_whitespace();
    words.next() == Some("Router") && words.next().is_none_or(|w| w == "where")
}

/// Whether the item whose text before `fn` ends `before` is public:
/// `pub fn`, `pub(crate) const fn`, `pub async fn`.
fn public(before: &str) -> bool {
    let mut rest = before.trim_end();
    for qualifier in ["unsafe", "async", "const"] {
        if let Some(r) = rest.strip_suffix(qualifier) {
            rest = r.trim_end();
        }
    }
    rest.ends_with("pub")
        || rest
            .rfind("pub")
            .is_some_and(|p| rest[p + 3..].trim_start().starts_with('(') && rest.ends_with(')'))
}

/// Adds the function whose text (after `fn`) is `rest` to `shape`: a
/// method when it takes `self`, the constructor when it is `new`.
fn function(rest: &str, shape: &mut Shape) {
    let rest = rest.trim_start();
    let name: String = rest.chars().take_while(|&c| is_ident(Some(c))).collect();
    let Some(open) = rest.find('(') else {
        return;
    };
    let mut arguments = Vec::new();
    let (mut nested, mut current) = (0u32, String::new());
    let mut chars = rest[open + 1..].chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '-' if chars.peek() == Some(&'>') => {
                chars.next();
                current.push_str("->");
                continue;
            }
            '(' | '[' | '<' => nested += 1,
            ')' if nested == 0 => break,
            ')' | ']' | '>' => nested = nested.saturating_sub(1),
            ',' if nested == 0 => {
                arguments.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    arguments.push(current);
    arguments.retain(|a| !a.trim().is_empty());
    // `self`, `mut self`, `&self`, `&'a mut self`, `self: Box<Self>`.
    let takes_self = arguments.first().is_some_and(|a| {
        let mut a = a.trim().trim_start_matches('&').trim_start();
        if a.starts_with('\'') {
            a = a
                .split_once(char::is_whitespace)
                .map_or("", |(_, r)| r.trim_start());
        }
        let a = a.strip_prefix("mut ").map_or(a, str::trim_start);
        a.strip_prefix("self")
            .is_some_and(|r| !is_ident(r.chars().next()))
    });
    let count = arguments.len() - usize::from(takes_self);
    let arity = Arity {
        least: count as u64,
        most: Some(count as u64),
    };
    if takes_self {
        shape.methods.push(name.clone());
        shape.params.insert(name, arity);
    } else if name == "new" {
        shape.constructor = Some(arity);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_routers_public_functions_and_their_arguments_are_read() {
        let s = shape(
            r#"
            // pub fn top(&self, key: &str, n: usize) -> Vec<String>
            use std::collections::HashMap;
            pub struct Router { weights: HashMap<String, f64> }
            impl Default for Router { fn default() -> Self { Router::new(vec![]) } }
            impl Router {
                pub fn new(pairs: Vec<(String, f64)>) -> Router { todo!() }
                pub fn route(&self, key: &str) -> Option<String> { let s = "fn x(a, b)"; None }
                pub fn top(&self, key: &str, n: usize) -> Vec<String> { vec![] }
                pub fn add(&mut self, node: &str, weight: f64) {}
                pub fn remove(&mut self, node: &str,) {}
                fn score(&self, node: &str, key: &str) -> f64 { 0.0 }
                pub fn with(&self, f: fn(u32) -> u32, map: HashMap<String, u32>) {}
            }
            "#,
        )
        .unwrap();
        assert_eq!(s.methods, ["add", "remove", "route", "top", "with"]);
        let n = |m: &str| s.params[m].least;
        assert_eq!(
            (n("route"), n("top"), n("add"), n("remove"), n("with")),
            (1, 2, 2, 1, 2)
        );
        assert_eq!(s.constructor.map(|a| a.least), Some(1));
    }

    #[test]
    fn only_an_inherent_impl_of_router_counts() {
        assert_eq!(
            shape(
                "impl Other { pub fn top(&self) {} }\nimpl Trait for Router { fn top(&self) {} }"
            ),
            None
        );
        let s = shape(
            "impl<'a> Router<'a> { pub fn new(nodes: Vec<String>, k: usize) -> Self { todo!() } }",
        )
        .unwrap();
        assert_eq!(s.constructor.map(|a| a.least), Some(2));
    }
}
