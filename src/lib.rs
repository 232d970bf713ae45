//! rendezvous-grader: grades implementations of the course's consistent
//! hashing challenges against a reference and explains every difference.
//!
//! The pipeline, a module per stage, each importing only the stages before
//! it: [`challenge`] (discover, load), [`lang`] (detect and prepare a
//! submission), [`run`] (sessions, over the `sandbox` crate and
//! [`protocol`]), [`judge`], [`explain`], [`diagnose`], [`shrink`],
//! [`tested`] (each case's record, which those stages add to), [`report`]
//! (built once from the records). [`grade`] drives them for one submission
//! and [`batch`] for a class, and [`watch`] again on every save of one
//! file; [`author`] and [`generate`] serve test authors; `main.rs` only
//! parses arguments ([`cli`]) and maps the outcome of [`commands`] to an
//! exit code.

pub mod author;
pub mod batch;
pub mod challenge;
pub mod cli;
pub mod commands;
pub mod diagnose;
pub mod diff;
pub mod error;
pub mod explain;
pub mod extra;
pub mod fsutil;
pub mod generate;
pub mod grade;
pub mod judge;
pub mod lang;
pub mod protocol;
pub mod report;
pub mod run;
pub mod shrink;
pub mod tested;
pub mod watch;
pub mod words;

pub use error::{Error, Problem};

#[cfg(test)]
mod layering {
    //! Imports point down the pipeline only: no two modules of `src/`
    //! import each other, directly or around a circle. (A long file that
    //! is about one thing is fine; a file's length is not policed.)

    use std::collections::{BTreeMap, BTreeSet};
    use std::path::{Path, PathBuf};

    fn sources(dir: &Path, found: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                sources(&path, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
    }

    /// The top-level modules each top-level module of `src/` names with
    /// `crate::`, outside its unit tests and comments.
    fn imports() -> BTreeMap<String, BTreeSet<String>> {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = Vec::new();
        sources(&src, &mut files);
        let module = |p: &Path| {
            let rel = p.strip_prefix(&src).unwrap();
            let top = rel
                .components()
                .next()
                .unwrap()
                .as_os_str()
                .to_string_lossy();
            top.trim_end_matches(".rs").to_owned()
        };
        let modules: BTreeSet<String> = files.iter().map(|p| module(p)).collect();
        let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for file in &files {
            let from = module(file);
            if from == "lib" || from == "main" {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap();
            let code = text.split("#[cfg(test)]").next().unwrap_or_default();
            // Comments are not imports; a `use` group may span lines.
            let code: String = code
                .lines()
                .map(|l| l.split("//").next().unwrap_or_default())
                .collect::<Vec<_>>()
                .join(" ");
            let edges = graph.entry(from.clone()).or_default();
            {
                // `crate::x` anywhere, and the names in `use crate::{x, y::z}`.
                let mut rest = code.as_str();
                while let Some(at) = rest.find("crate::") {
                    rest = &rest[at + "crate::".len()..];
                    let names: Vec<&str> = match rest.strip_prefix('{') {
                        Some(group) => group
                            .split('}')
                            .next()
                            .unwrap_or_default()
                            .split(',')
                            .map(|n| n.trim().split("::").next().unwrap_or_default())
                            .collect(),
                        None => vec![
                            rest.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                                .next()
                                .unwrap_or_default(),
                        ],
                    };
                    for name in names {
                        if modules.contains(name) && name != from {
                            edges.insert(name.to_owned());
                        }
                    }
                }
            }
        }
        graph
    }

    #[test]
    fn no_module_imports_one_that_imports_it_back() {
        let graph = imports();
        assert!(graph["run"].contains("protocol"), "the scan finds imports");
        // A group over several lines is read whole: `author.rs` names
        // `challenge` before a group that spans lines, and
        // `report/authoring.rs` names `words` after a group.
        assert!(graph["author"].contains("challenge"));
        assert!(graph["report"].contains("words"));
        // A module reaches itself through its imports only in a circle.
        for start in graph.keys() {
            let mut seen = BTreeSet::new();
            let mut todo: Vec<(&String, Vec<&String>)> = vec![(start, vec![start])];
            while let Some((at, path)) = todo.pop() {
                for next in graph.get(at).into_iter().flatten() {
                    assert!(
                        next != start,
                        "import circle: {} -> {start}",
                        path.iter()
                            .map(|s| s.as_str())
                            .collect::<Vec<_>>()
                            .join(" -> ")
                    );
                    if seen.insert(next) {
                        let mut longer = path.clone();
                        longer.push(next);
                        todo.push((next, longer));
                    }
                }
            }
        }
    }

    #[test]
    fn the_pipeline_runs_one_way() {
        let graph = imports();
        // Each stage, and the later stages it must never import.
        let later = [
            "grade", "batch", "commands", "cli", "author", "generate", "watch",
        ];
        let mut forbidden: Vec<(&str, &str)> = Vec::new();
        // (What starts and contains programs is the `sandbox` crate, below
        // all of these: the compiler keeps that layer.)
        for module in ["protocol", "lang"] {
            for l in ["run", "judge", "explain", "diagnose", "shrink", "report"]
                .iter()
                .chain(&later)
            {
                forbidden.push((module, l));
            }
        }
        for l in ["judge", "explain", "diagnose", "shrink", "report"]
            .iter()
            .chain(&later)
        {
            forbidden.push(("run", l));
        }
        // The authoring commands' data (findings, blessings) is rendered
        // by report, as grading's is.
        for l in ["batch", "commands", "cli", "watch"] {
            forbidden.push(("report", l));
        }
        // The report is assembled from what grading found.
        for l in ["report", "batch", "commands", "cli", "watch"] {
            forbidden.push(("grade", l));
        }
        // Grading's records are what the report is built from.
        for l in ["report", "grade", "batch", "commands", "cli", "watch"] {
            forbidden.push(("tested", l));
        }
        for (module, forbidden) in forbidden {
            assert!(
                !graph[module].contains(forbidden),
                "{module} imports {forbidden}: {:?}",
                graph[module]
            );
        }
    }
}
