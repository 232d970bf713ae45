//! `challenge.toml`: what a challenge exposes and how it is graded.

use super::limits::{Limit, Limits};
use super::locate::{TomlStep, line_column, toml_key_position, toml_position};
use crate::error::Problem;
use serde::Deserialize;
use std::path::{Path, PathBuf};

pub use vocabulary::{Scoring, Visibility};

/// The parsed `challenge.toml`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// A human title, e.g. "Rendezvous router".
    pub title: String,
    /// The reference model's id; defaults to the challenge folder's name.
    #[serde(default)]
    pub reference: Option<String>,
    /// The operations this challenge's cases may use (a subset of the
    /// reference's).
    pub operations: Vec<String>,
    #[serde(default)]
    pub limits: Limits,
    /// How Rust submissions are compiled.
    #[serde(default)]
    pub rust: RustConfig,
    /// Test groups, in the order reports list them.
    #[serde(default)]
    pub groups: Vec<GroupConfig>,
    #[serde(skip)]
    source: Source,
}

/// `[rust]`: how Rust submissions are compiled.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RustConfig {
    /// The edition the learner's crate is compiled with.
    pub edition: Edition,
}

/// A Rust edition, written as a string in `challenge.toml`
/// (`edition = "2021"`), as in `Cargo.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
pub enum Edition {
    #[serde(rename = "2015")]
    E2015,
    #[serde(rename = "2018")]
    E2018,
    #[serde(rename = "2021")]
    E2021,
    /// What `cargo new` writes since Rust 1.85: learners' crates are
    /// written for it unless the challenge says otherwise.
    #[default]
    #[serde(rename = "2024")]
    E2024,
}

impl Edition {
    /// The year, as rustc's `--edition` takes it.
    pub fn year(self) -> &'static str {
        match self {
            Edition::E2015 => "2015",
            Edition::E2018 => "2018",
            Edition::E2021 => "2021",
            Edition::E2024 => "2024",
        }
    }
}

/// One test group's settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupConfig {
    pub name: String,
    /// The group's points, shared by its tests: a whole number (read as
    /// a number so that `2.5` gets a message saying so). Never guessed:
    /// a group without one is refused.
    pub weight: f64,
    #[serde(default)]
    pub scoring: Scoring,
    #[serde(default)]
    pub visibility: Visibility,
    /// Overrides `limits.time_ms` for this group's cases.
    #[serde(default)]
    pub time_ms: Option<u64>,
    #[serde(default)]
    pub description: Option<String>,
}

/// The most points a group may weigh: scores stay exact integers in JSON
/// (below 2^53) whatever the groups' test counts.
pub const MAX_WEIGHT: u64 = 1_000_000;

/// Where a `Config` was read from, to point at its lines.
#[derive(Debug, Clone, Default)]
struct Source {
    path: PathBuf,
    text: String,
    /// Its problems of form, found while reading it.
    form: Vec<Problem>,
}

impl Config {
    /// What the challenge.toml says, as a text that changes with every
    /// setting and with nothing else: not with where the file is.
    pub fn settings(&self) -> String {
        let Config {
            title,
            reference,
            operations,
            limits,
            rust,
            groups,
            source: _,
        } = self;
        format!("{title:?} {reference:?} {operations:?} {limits:?} {rust:?} {groups:?}")
    }

    /// Reads and parses `path` and checks what can be checked without the
    /// reference: every problem, each at its line and column.
    pub fn load(path: &Path) -> Result<Config, Vec<Problem>> {
        let config = Config::read(path)?;
        let problems = config.problems();
        if problems.is_empty() {
            Ok(config)
        } else {
            Err(problems)
        }
    }

    /// Reads and parses `path`, unchecked but for its form. A syntax error
    /// stops the reading (the parser cannot go past it); past that, every
    /// problem of form is found at once (unknown keys, values of the wrong
    /// type, missing keys) and kept for [`Config::problems`], with the
    /// rest of the file read around them.
    pub fn read(path: &Path) -> Result<Config, Vec<Problem>> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            vec![Problem {
                path: path.to_owned(),
                position: None,
                message: format!("cannot read: {e}"),
            }]
        })?;
        let table: toml::Table = toml::from_str(&text).map_err(|e| {
            let mut message = e.message().trim().to_owned();
            // toml says "duplicate key" without the key; the span has it.
            if let Some(key) = e.span().and_then(|s| text.get(s)).map(str::trim)
                && message == "duplicate key"
                && !key.is_empty()
                && !key.contains('\n')
            {
                message = format!("duplicate key `{key}`; remove one of the two");
            }
            vec![Problem {
                path: path.to_owned(),
                position: Some(e.span().map_or((1, 1), |s| line_column(&text, s.start))),
                message,
            }]
        })?;
        let (mut config, form) = read_around_problems(table, path, &text)?;
        config.source = Source {
            path: path.to_owned(),
            text,
            form,
        };
        Ok(config)
    }

    /// The file this was read from.
    pub fn path(&self) -> &Path {
        &self.source.path
    }

    /// A problem of `challenge.toml` at `at` (or the nearest part of it
    /// that is written: a missing key points at its table).
    pub fn problem(&self, at: &[TomlStep<'_>], message: String) -> Problem {
        Problem {
            path: self.source.path.clone(),
            position: Some(toml_position(&self.source.text, at)),
            message,
        }
    }

    /// What is wrong in it that the reference need not be asked about,
    /// in the file's order: its problems of form and of sense.
    pub fn problems(&self) -> Vec<Problem> {
        self.problems_with(Vec::new())
    }

    /// [`Config::problems`] with `problems` found by others (what the
    /// reference says of it), in the file's order. A value of the wrong
    /// type was read as a stand-in (an empty list, an empty name) so that
    /// the rest could be checked: a problem found at its place is the
    /// stand-in's, not the file's, and is dropped.
    pub fn problems_with(&self, mut problems: Vec<Problem>) -> Vec<Problem> {
        for (i, name) in self.operations.iter().enumerate() {
            if self.operations[..i].contains(name) {
                problems.push(self.problem(
                    &[TomlStep::Key("operations"), TomlStep::Index(i)],
                    format!("operation `{name}` is listed twice; remove one"),
                ));
            }
        }
        for (i, g) in self.groups.iter().enumerate() {
            let at = |key| {
                [
                    TomlStep::Key("groups"),
                    TomlStep::Index(i),
                    TomlStep::Key(key),
                ]
            };
            if let Some(reason) = super::rules::group_name_problem(&g.name) {
                problems.push(self.problem(&at("name"), reason));
            }
            if self.groups[..i].iter().any(|h| h.name == g.name) {
                problems.push(self.problem(
                    &at("name"),
                    format!("group `{}` is declared twice; remove or rename one", g.name),
                ));
            }
            if !(g.weight.fract() == 0.0 && (0.0..=MAX_WEIGHT as f64).contains(&g.weight)) {
                problems.push(self.problem(
                    &at("weight"),
                    format!(
                        "group `{}` has weight {}; a weight is a whole number of points from 0 to {MAX_WEIGHT}, so that every score is exact",
                        g.name, g.weight
                    ),
                ));
            }
            if let Some(ms) = g.time_ms
                && let Err(why) = Limit::Time.check(ms)
            {
                problems.push(self.problem(&at("time_ms"), format!("group `{}`: {why}", g.name)));
            }
        }
        for limit in Limit::ALL {
            if let Err(why) = limit.check(self.limits.get(limit)) {
                problems.push(
                    self.problem(&[TomlStep::Key("limits"), TomlStep::Key(limit.key())], why),
                );
            }
        }
        let form = &self.source.form;
        let mut all = form.clone();
        all.extend(
            problems
                .into_iter()
                .filter(|p| !form.iter().any(|f| f.position == p.position)),
        );
        all.sort_by_key(|p| p.position);
        all
    }

    /// The settings of group `name`, if declared.
    pub fn group(&self, name: &str) -> Option<&GroupConfig> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Whether a case may be in group `name` of the challenge's own suite:
    /// only if `challenge.toml` declares it, which gives it its points.
    /// `origin` says where the name came from, e.g. ` (the folder tests/x)`.
    pub fn check_declared(&self, name: &str, origin: &str) -> Result<(), Problem> {
        if self.group(name).is_some() {
            return Ok(());
        }
        let at = match self.groups.len() {
            0 => vec![],
            n => vec![TomlStep::Key("groups"), TomlStep::Index(n - 1)],
        };
        Err(self.problem(
            &at,
            format!(
                "group `{name}`{origin} is not declared in challenge.toml (declared: {}); add [[groups]] with name = \"{name}\", or use a declared group",
                self.declared()
            ),
        ))
    }

    /// The declared groups as a message lists them: "`sample`, `edge`",
    /// or "none".
    pub fn declared(&self) -> String {
        match self.groups.is_empty() {
            true => "none".to_owned(),
            false => self
                .groups
                .iter()
                .map(|g| format!("`{}`", g.name))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// At most this many problems of form are gathered from one file (each
/// costs a reading of the file); past them, the list says there may be
/// more.
const MOST_FORM_PROBLEMS: usize = 1000;

/// One step of a path serde reports, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Step {
    Key(String),
    Index(usize),
}

fn steps_of(path: &serde_path_to_error::Path) -> Vec<Step> {
    path.iter()
        .filter_map(|segment| match segment {
            serde_path_to_error::Segment::Map { key } => Some(Step::Key(key.clone())),
            serde_path_to_error::Segment::Seq { index } => Some(Step::Index(*index)),
            _ => None,
        })
        .collect()
}

fn at(steps: &[Step]) -> Vec<TomlStep<'_>> {
    steps
        .iter()
        .map(|s| match s {
            Step::Key(key) => TomlStep::Key(key),
            Step::Index(i) => TomlStep::Index(*i),
        })
        .collect()
}

/// Deserializes `table` as a [`Config`], setting aside what stops it: an
/// unknown key or a value of the wrong type is blamed and set aside (see
/// [`repair`]), a missing key is blamed and given a stand-in, and the
/// reading starts again, until it goes through. serde
/// stops at the first problem; an author fixing one at a time would need
/// as many runs as problems.
fn read_around_problems(
    mut table: toml::Table,
    path: &Path,
    text: &str,
) -> Result<(Config, Vec<Problem>), Vec<Problem>> {
    let mut form: Vec<Problem> = Vec::new();
    // Where a wrong value was taken out or stood in for: a key found
    // missing there or beneath is the repair's doing, not blamed twice.
    let mut taken: Vec<Vec<Step>> = Vec::new();
    let blame = |position, message: String| Problem {
        path: path.to_owned(),
        position: Some(position),
        message,
    };
    // serde reads a struct from an array too, by position (`limits = [5,
    // 1]` would be time_ms = 5 and memory_mb = 1): what is not a table
    // where one is meant is blamed and set aside first.
    for place in tables_meant(&table) {
        let found = value_at(&mut table, &place).map_or("nothing", |v| v.type_str());
        form.push(blame(
            toml_position(text, &at(&place)),
            format!("invalid type: {found}, expected a table"),
        ));
        // An empty table in its place: its keys are then found missing
        // (and stood in for, unblamed), and the elements after it keep
        // their places.
        match value_at(&mut table, &place) {
            Some(value) if matches!(place.last(), Some(Step::Index(_))) => {
                *value = toml::Value::Table(toml::Table::new());
            }
            _ => {
                repair(&mut table, &place);
            }
        }
        taken.push(place);
    }
    loop {
        let error = match serde_path_to_error::deserialize::<_, Config>(table.clone()) {
            Ok(config) => return Ok((config, form)),
            Err(error) => error,
        };
        let place = steps_of(error.path());
        // toml adds "in `a.b`" on a line of its own; the position says it.
        let inner = error.inner().to_string();
        let message = in_toml_words(inner.lines().next().unwrap_or_default().trim());
        let progressed = if let Some(field) = missing_field(&message) {
            let mut full = place.clone();
            full.push(Step::Key(field.to_owned()));
            if !taken.iter().any(|t| full.starts_with(t)) {
                form.push(blame(toml_position(text, &at(&place)), message));
            }
            stand_in(&mut table, &full)
        } else {
            let position = if message.starts_with("unknown field") {
                toml_key_position(text, &at(&place))
            } else {
                toml_position(text, &at(&place))
            };
            form.push(blame(position, message));
            taken.push(place.clone());
            repair(&mut table, &place)
        };
        if form.len() >= MOST_FORM_PROBLEMS {
            form.push(blame(
                (1, 1),
                format!(
                    "{MOST_FORM_PROBLEMS} problems of form were found, and the file was not read past them; fix these and validate again"
                ),
            ));
            return Err(form);
        }
        if !progressed {
            return Err(form);
        }
    }
}

/// The places in `table` where `challenge.toml` means a table and has
/// something else: `limits`, `rust` and each of `groups`.
fn tables_meant(table: &toml::Table) -> Vec<Vec<Step>> {
    let mut places = Vec::new();
    for key in ["limits", "rust"] {
        if table.get(key).is_some_and(|v| !v.is_table()) {
            places.push(vec![Step::Key(key.to_owned())]);
        }
    }
    if let Some(toml::Value::Array(groups)) = table.get("groups") {
        for (i, group) in groups.iter().enumerate() {
            if !group.is_table() {
                places.push(vec![Step::Key("groups".to_owned()), Step::Index(i)]);
            }
        }
    }
    places
}

/// serde's message with TOML's names for what was expected, not Rust's
/// (`expected struct RustConfig` is `expected a table`).
fn in_toml_words(message: &str) -> String {
    let Some((found, expected)) = message.split_once(", expected ") else {
        return message.to_owned();
    };
    let expected = if expected.starts_with("struct ") || expected.starts_with("a map") {
        "a table"
    } else if expected.starts_with("u64") || expected.starts_with("u32") {
        "a whole number, 0 or more"
    } else if expected.starts_with("f64") {
        "a number"
    } else {
        expected
    };
    // An enum's value (`scoring`, `visibility`, `edition`) that is not
    // a string: serde speaks of variants.
    if expected == "string only" {
        return "invalid type, expected one of its names, as a string".to_owned();
    }
    let found = match found {
        "invalid type: sequence" => "invalid type: array",
        "invalid type: map" => "invalid type: table",
        other => other,
    };
    format!("{found}, expected {expected}")
}

/// The field a serde "missing field `x`" message names.
fn missing_field(message: &str) -> Option<&str> {
    message.strip_prefix("missing field `")?.split('`').next()
}

/// The value at `steps` in `table`, mutably.
fn value_at<'t>(table: &'t mut toml::Table, steps: &[Step]) -> Option<&'t mut toml::Value> {
    let (Step::Key(first), rest) = steps.split_first()? else {
        return None;
    };
    let mut value = table.get_mut(first)?;
    for step in rest {
        value = match (step, value) {
            (Step::Key(key), toml::Value::Table(t)) => t.get_mut(key)?,
            (Step::Index(i), toml::Value::Array(a)) => a.get_mut(*i)?,
            _ => return None,
        };
    }
    Some(value)
}

/// Sets aside the wrong value at `steps`: a key is removed (its setting
/// takes its default, or is found missing and stood in for); an element
/// of an array is stood in for in place, so that the elements after it
/// keep their places (and their positions in the file). `false` if it is
/// not there.
fn repair(table: &mut toml::Table, steps: &[Step]) -> bool {
    let Some((last, parent)) = steps.split_last() else {
        return false;
    };
    if let Step::Index(i) = last {
        return stand_in(table, steps)
            || match value_at(table, parent) {
                // Nothing reads there: out with it, the last resort.
                Some(toml::Value::Array(a)) if *i < a.len() => {
                    a.remove(*i);
                    true
                }
                _ => false,
            };
    }
    let Step::Key(key) = last else {
        return false;
    };
    if parent.is_empty() {
        return table.remove(key).is_some();
    }
    match value_at(table, parent) {
        Some(toml::Value::Table(t)) => t.remove(key).is_some(),
        _ => false,
    }
}

/// Puts at `steps` (a missing key, or an element of an array) the first
/// stand-in of a type that reads there: which type a place has is
/// serde's to know, not a list kept here.
fn stand_in(table: &mut toml::Table, steps: &[Step]) -> bool {
    let Some((last, parent)) = steps.split_last() else {
        return false;
    };
    let candidates = [
        toml::Value::String(String::new()),
        toml::Value::Array(Vec::new()),
        toml::Value::Integer(0),
        toml::Value::Boolean(false),
        toml::Value::Table(toml::Table::new()),
    ];
    for candidate in candidates {
        let mut tried = table.clone();
        let container = if parent.is_empty() {
            None
        } else {
            match value_at(&mut tried, parent) {
                Some(value) => Some(value),
                None => return false,
            }
        };
        let placed = match (last, container) {
            (Step::Key(key), None) => {
                tried.insert(key.clone(), candidate);
                true
            }
            (Step::Key(key), Some(toml::Value::Table(t))) => {
                t.insert(key.clone(), candidate);
                true
            }
            (Step::Index(i), Some(toml::Value::Array(a))) if *i < a.len() => {
                a[*i] = candidate;
                true
            }
            _ => false,
        };
        if !placed {
            return false;
        }
        let reads = match serde_path_to_error::deserialize::<_, Config>(tried.clone()) {
            Ok(_) => true,
            Err(error) => !steps_of(error.path()).starts_with(steps),
        };
        if reads {
            *table = tried;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, Vec<Problem>> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("challenge.toml");
        std::fs::write(
            &path,
            format!("title = \"t\"\noperations = [\"route\"]\n{text}"),
        )
        .unwrap();
        Config::load(&path)
    }

    /// Every problem's line and column and the start of its message,
    /// in the file's order.
    fn found(text: &str) -> Vec<(usize, usize, String)> {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("challenge.toml");
        std::fs::write(&path, text).unwrap();
        let problems = match Config::read(&path) {
            Ok(config) => config.problems(),
            Err(problems) => problems,
        };
        problems
            .into_iter()
            .map(|p| {
                let (line, column) = p.position.unwrap();
                let head: String = p.message.split([',', ';']).next().unwrap().to_owned();
                (line, column, head)
            })
            .collect()
    }

    /// The problems of `text` are `wanted` (line, column, message up to
    /// its first `,` or `;`), in this order and no other.
    fn assert_found(text: &str, wanted: &[(usize, usize, &str)]) {
        let problems = found(text);
        let got: Vec<(usize, usize, &str)> = problems
            .iter()
            .map(|(l, c, m)| (*l, *c, m.as_str()))
            .collect();
        assert_eq!(got, wanted, "{text}");
    }

    #[test]
    fn every_problem_of_form_and_sense_is_found_at_once() {
        let text = "\
operations = [\"route\", 3]
colour = \"red\"

[limits]
open_files = 4
time_ms = \"fast\"

[[groups]]
name = \"edge\"
weight = 2.5

[[groups]]
weight = 1
scoring = \"sometimes\"
";
        assert_found(
            text,
            &[
                (1, 1, "missing field `title`"),
                (1, 24, "invalid type: integer `3`"),
                (2, 1, "unknown field `colour`"),
                (5, 14, "open_files = 4 would fail every submission"),
                (6, 11, "invalid type: string \"fast\""),
                (10, 10, "group `edge` has weight 2.5"),
                (12, 1, "missing field `name`"),
                (14, 11, "unknown variant `sometimes`"),
            ],
        );
    }

    #[test]
    fn a_value_of_the_wrong_type_is_blamed_once_not_again_as_missing() {
        // `title` is required: taken out for its type, it is not also
        // "missing"; `name` neither, nor is its stand-in an empty name.
        let problems =
            found("title = 3\noperations = [\"route\"]\n[[groups]]\nname = []\nweight = 1\n");
        let heads: Vec<&str> = problems.iter().map(|p| p.2.as_str()).collect();
        assert_eq!(
            heads,
            ["invalid type: integer `3`", "invalid type: array"],
            "{problems:?}"
        );
        assert_eq!((problems[1].0, problems[1].1), (4, 8));
    }

    #[test]
    fn a_table_written_otherwise_is_blamed_and_array_elements_keep_their_places() {
        // serde alone would read `limits = [5, 1]` as time_ms = 5 and
        // memory_mb = 1, and the first group as name "sample", weight 0.
        let text = "\
title = \"t\"
operations = [1, 2, \"route\", 4]
limits = [5, 1]
rust = \"2021\"
groups = [[\"sample\", 0], { name = \"edge\", weight = \"w\" }, { name = \"ties\", weight = 3.5 }]
";
        assert_found(
            text,
            &[
                (2, 15, "invalid type: integer `1`"),
                (2, 18, "invalid type: integer `2`"),
                (2, 30, "invalid type: integer `4`"),
                (3, 10, "invalid type: array"),
                (4, 8, "invalid type: string"),
                (5, 11, "invalid type: array"),
                (5, 52, "invalid type: string \"w\""),
                (5, 85, "group `ties` has weight 3.5"),
            ],
        );
    }

    #[test]
    fn a_group_without_a_weight_is_refused_not_given_one() {
        assert_found(
            "title = \"t\"\noperations = [\"route\"]\n[[groups]]\nname = \"edge\"\n",
            &[(3, 1, "missing field `weight`")],
        );
    }

    #[test]
    fn a_syntax_error_is_told_alone() {
        let problems = found("title = \"t\nbogus = 1\n");
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert_eq!(problems[0].0, 1);
        assert_found(
            "title = \"a\"\ntitle = \"b\"\n",
            &[(2, 1, "duplicate key `title`")],
        );
    }

    #[test]
    fn the_rust_edition_defaults_to_2024_and_is_checked() {
        assert_eq!(load("").unwrap().rust.edition, Edition::E2024);
        let chosen = load("[rust]\nedition = \"2021\"\n").unwrap();
        assert_eq!(chosen.rust.edition.year(), "2021");
        let unknown = load("[rust]\nedition = \"2023\"\n").unwrap_err().remove(0);
        assert!(unknown.message.contains("2023"), "{}", unknown.message);
        assert_eq!(unknown.position.map(|p| p.0), Some(4), "{unknown:?}");
        let key = load("[rust]\nflags = \"-O\"\n").unwrap_err().remove(0);
        assert!(
            key.message.contains("unknown field `flags`"),
            "{}",
            key.message
        );
    }
}
