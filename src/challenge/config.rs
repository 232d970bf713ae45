//! `challenge.toml`: what a challenge exposes and how it is graded.

use super::locate::line_column;
use crate::error::Problem;
use serde::Deserialize;
use std::path::Path;

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
}

/// Limits of every session; a group may override the time.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// Wall-clock time per case, in milliseconds.
    pub time_ms: u64,
    /// Memory (RLIMIT_DATA) per session, in MiB.
    pub memory_mb: u64,
    /// Output a case may print (stdout and stderr together), in MiB.
    pub output_mb: u64,
    /// Processes and threads per session.
    pub processes: u64,
    pub open_files: u64,
    /// The largest file a session may write, in MiB.
    pub file_size_mb: u64,
    /// The session's scratch folder, in MiB.
    pub scratch_mb: u64,
    /// The least time one extra run (a shrinking attempt, the order or
    /// h32 check) gets, in milliseconds; it gets ten times its case's
    /// measured time when that is more, never more than its group's limit.
    pub extra_run_ms: u64,
    /// The most all extra runs of one submission take together, in
    /// milliseconds; less when the failing case is fast (20 times its
    /// time plus 5 s).
    pub extras_budget_ms: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            time_ms: 2000,
            memory_mb: 512,
            output_mb: 8,
            processes: 128,
            open_files: 256,
            file_size_mb: 16,
            scratch_mb: 64,
            extra_run_ms: 250,
            extras_budget_ms: 20_000,
        }
    }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scoring {
    /// Each accepted test earns its share of the group's weight.
    #[default]
    PerTest,
    /// The group's weight, only when every test in it is accepted.
    AllOrNothing,
}

/// Who sees a group's cases.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, serde::Serialize)]
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

impl Config {
    /// Reads and parses `path`, pointing at the line and column of any error.
    pub fn load(path: &Path) -> Result<Config, Problem> {
        let text = std::fs::read_to_string(path).map_err(|e| Problem {
            path: path.to_owned(),
            position: None,
            message: format!("cannot read: {e}"),
        })?;
        let config: Config = toml::from_str(&text).map_err(|e| Problem {
            path: path.to_owned(),
            position: e.span().map(|s| line_column(&text, s.start)),
            message: e.message().trim().to_owned(),
        })?;
        let problem = |message: String| Problem {
            path: path.to_owned(),
            position: None,
            message,
        };
        for (i, g) in config.groups.iter().enumerate() {
            if config.groups[..i].iter().any(|h| h.name == g.name) {
                return Err(problem(format!("group `{}` is declared twice", g.name)));
            }
            if !(g.weight.fract() == 0.0 && (0.0..=MAX_WEIGHT as f64).contains(&g.weight)) {
                return Err(problem(format!(
                    "group `{}` has weight {}; a weight is a whole number of points from 0 to {MAX_WEIGHT}, so that every score is exact",
                    g.name, g.weight
                )));
            }
        }
        if config.limits.time_ms == 0 || config.groups.iter().any(|g| g.time_ms == Some(0)) {
            return Err(problem("a time limit of 0 ms can never be met".into()));
        }
        let l = &config.limits;
        if [
            l.memory_mb,
            l.output_mb,
            l.processes,
            l.open_files,
            l.file_size_mb,
            l.scratch_mb,
            l.extra_run_ms,
            l.extras_budget_ms,
        ]
        .contains(&0)
        {
            return Err(problem("[limits]: every limit must be at least 1".into()));
        }
        Ok(config)
    }

    /// The settings of group `name`, if declared.
    pub fn group(&self, name: &str) -> Option<&GroupConfig> {
        self.groups.iter().find(|g| g.name == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<Config, Problem> {
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
        let unknown = load("[rust]\nedition = \"2023\"\n").unwrap_err();
        assert!(unknown.message.contains("2023"), "{}", unknown.message);
        assert_eq!(unknown.position.map(|p| p.0), Some(4), "{unknown:?}");
        let key = load("[rust]\nflags = \"-O\"\n").unwrap_err();
        assert!(
            key.message.contains("unknown field `flags`"),
            "{}",
            key.message
        );
    }
}
