//! The crate's modules import one another without a circle.
//!
//! Each file of `src/` is a module; it depends on every module a path in it
//! names (`crate::x::y`, `super::y`, a child's `y::`, doc links included),
//! and a parent on the children it declares. A path that names no module
//! file (`crate::h32`) is a dependency on the crate root, which declares
//! every module: so any use of a root re-export inside the crate is a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Every module file under `dir`, by module path (`""` for the root,
/// `mistakes::hash`), with its text.
fn modules(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            continue;
        }
        let stem = path.file_stem().unwrap().to_str().unwrap();
        let name = match (prefix, stem) {
            ("", "lib") => String::new(),
            ("", _) => stem.to_owned(),
            _ => format!("{prefix}::{stem}"),
        };
        let child_dir = dir.join(stem);
        if child_dir.is_dir() {
            modules(&child_dir, &name, out);
        }
        out.insert(name, std::fs::read_to_string(&path).unwrap());
    }
}

/// The text's tokens that matter to paths: identifiers, `::`, and a
/// placeholder for anything else.
fn tokens(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let len = if c.is_alphanumeric() || c == '_' {
            rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len())
        } else if rest.starts_with("::") {
            2
        } else {
            c.len_utf8()
        };
        let (token, tail) = rest.split_at(len);
        if !token.trim().is_empty() {
            out.push(token);
        }
        rest = tail;
    }
    out
}

fn parent(module: &str) -> &str {
    module.rsplit_once("::").map_or("", |(p, _)| p)
}

fn join(base: &str, name: &str) -> String {
    if base.is_empty() {
        name.to_owned()
    } else {
        format!("{base}::{name}")
    }
}

/// The modules `module` depends on.
fn dependencies(module: &str, text: &str, known: &BTreeSet<String>) -> BTreeSet<String> {
    // Inline modules (`mod tests { use super::*; }`) are part of the file.
    let inline = text.find("mod tests {").unwrap_or(text.len());
    let mut deps = BTreeSet::new();
    for (part, inline_part) in [(&text[..inline], false), (&text[inline..], true)] {
        let t = tokens(part);
        for (i, &tok) in t.iter().enumerate() {
            let after_path = i > 0 && t[i - 1] == "::";
            if after_path || t.get(i + 1) != Some(&"::") {
                continue;
            }
            let base = match tok {
                "crate" => String::new(),
                "super" if inline_part => module.to_owned(),
                "super" => parent(module).to_owned(),
                _ if known.contains(&join(module, tok)) => join(module, tok),
                _ => continue,
            };
            // The longest module the path names.
            let mut target = base.clone();
            let mut j = i + 1;
            while t.get(j) == Some(&"::") {
                let Some(next) = t.get(j + 1) else { break };
                let candidate = join(&target, next);
                if !known.contains(&candidate) {
                    break;
                }
                target = candidate;
                j += 2;
            }
            if target != module {
                deps.insert(target);
            }
        }
    }
    for child in known {
        if !child.is_empty() && parent(child) == module && child != module {
            deps.insert(child.clone());
        }
    }
    deps
}

/// A circle in `graph`, if it has one.
fn circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        at: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(start) = stack.iter().position(|m| m == at) {
            let mut found = stack[start..].to_vec();
            found.push(at.to_owned());
            return Some(found);
        }
        if done.contains(at) {
            return None;
        }
        stack.push(at.to_owned());
        for next in &graph[at] {
            if let Some(found) = visit(next, graph, done, stack) {
                return Some(found);
            }
        }
        stack.pop();
        done.insert(at.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

#[test]
fn module_imports_form_no_circle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = BTreeMap::new();
    modules(&src, "", &mut files);
    let known: BTreeSet<String> = files.keys().cloned().collect();
    assert!(known.contains("mistakes::knobs"), "{known:?}");
    let graph: BTreeMap<String, BTreeSet<String>> = files
        .iter()
        .map(|(m, text)| (m.clone(), dependencies(m, text, &known)))
        .collect();
    let name = |m: &str| if m.is_empty() { "crate" } else { m }.to_owned();
    if let Some(found) = circle(&graph) {
        let shown: Vec<String> = found.iter().map(|m| name(m)).collect();
        panic!("a circle of imports: {}", shown.join(" -> "));
    }
}

#[test]
fn a_circle_is_found() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("", &["a", "b"][..]),
        ("a", &["b"]),
        ("b", &["c"]),
        ("c", &["a"]),
    ]
    .into_iter()
    .map(|(m, deps)| (m.to_owned(), deps.iter().map(|d| d.to_string()).collect()))
    .collect();
    assert_eq!(circle(&graph).unwrap(), ["a", "b", "c", "a"]);
    let known: BTreeSet<String> = ["", "m", "m::k", "n"].map(str::to_owned).into();
    let deps = dependencies(
        "m::k",
        "use super::Item; use crate::n::X;\nmod tests {\n use super::*;\n}",
        &known,
    );
    assert_eq!(deps, ["m", "n"].map(str::to_owned).into());
}
