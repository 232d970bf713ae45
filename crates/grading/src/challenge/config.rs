//! `challenge.toml`: what a challenge exposes and how it is graded.

use super::limits::{Limit, Limits};
use super::locate::{At, line_column, toml_position};
use crate::error::Problem;
use serde::Deserialize;
use std::path::{Path, PathBuf};

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

/// How a group's points are earned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Each accepted test earns its share of the group's weight.
    #[default]
    PerTest,
    /// The group's weight, only when every test in it is accepted.
    AllOrNothing,
}

/// Who sees a group's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Visibility {
    /// Learners see the case, the divergence and the diff.
    #[default]
    Visible,
    /// Learners see the test's name and verdict only.
    Hidden,
}

/// One test group's settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GroupConfig {
    pub name: String,
    /// The group's points, shared by its tests: a whole number (read as
    /// a number so that `2.5` gets a message saying so).
    #[serde(default = "default_weight")]
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

fn default_weight() -> f64 {
    1.0
}

/// The most points a group may weigh: scores stay exact integers in JSON
/// (below 2^53) whatever the groups' test counts.
pub const MAX_WEIGHT: u64 = 1_000_000;

/// Where a `Config` was read from, to point at its lines.
#[derive(Debug, Clone, Default)]
struct Source {
    path: PathBuf,
    text: String,
}

impl Config {
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

    /// Reads and parses `path`, unchecked but for its form.
    pub fn read(path: &Path) -> Result<Config, Vec<Problem>> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            vec![Problem {
                path: path.to_owned(),
                position: None,
                message: format!("cannot read: {e}"),
            }]
        })?;
        let mut config: Config = toml::from_str(&text).map_err(|e| {
            vec![Problem {
                path: path.to_owned(),
                position: Some(e.span().map_or((1, 1), |s| line_column(&text, s.start))),
                message: e.message().trim().to_owned(),
            }]
        })?;
        config.source = Source {
            path: path.to_owned(),
            text,
        };
        Ok(config)
    }

    /// The file this was read from.
    pub fn path(&self) -> &Path {
        &self.source.path
    }

    /// A problem of `challenge.toml` at `at` (or the nearest part of it
    /// that is written: a missing key points at its table).
    pub fn problem(&self, at: &[At<'_>], message: String) -> Problem {
        Problem {
            path: self.source.path.clone(),
            position: Some(toml_position(&self.source.text, at)),
            message,
        }
    }

    /// What is wrong in it that the reference need not be asked about,
    /// in the file's order.
    pub fn problems(&self) -> Vec<Problem> {
        let mut problems = Vec::new();
        for (i, name) in self.operations.iter().enumerate() {
            if self.operations[..i].contains(name) {
                problems.push(self.problem(
                    &[At::Key("operations"), At::Index(i)],
                    format!("operation `{name}` is listed twice; remove one"),
                ));
            }
        }
        for (i, g) in self.groups.iter().enumerate() {
            let at = |key| [At::Key("groups"), At::Index(i), At::Key(key)];
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
                problems.push(self.problem(&[At::Key("limits"), At::Key(limit.key())], why));
            }
        }
        problems.sort_by_key(|p| p.position);
        problems
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
        let declared: Vec<String> = self
            .groups
            .iter()
            .map(|g| format!("`{}`", g.name))
            .collect();
        let at = match self.groups.len() {
            0 => vec![],
            n => vec![At::Key("groups"), At::Index(n - 1)],
        };
        Err(self.problem(
            &at,
            format!(
                "group `{name}`{origin} is not declared in challenge.toml (declared: {}); add [[groups]] with name = \"{name}\", or use a declared group",
                if declared.is_empty() {
                    "none".into()
                } else {
                    declared.join(", ")
                }
            ),
        ))
    }
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
