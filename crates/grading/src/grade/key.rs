//! The run key: everything a result depends on besides the submission
//! itself, which a results folder is made for and which reports record so
//! that `merge` can tell the shards of one run.

use super::Grading;
use crate::grade::Audience;
use crate::words::hex;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;

/// Everything a result depends on besides the submission itself. A
/// results folder is made for one key; another run's is refused.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunKey {
    /// The grader's name and version: the drivers, the reference and the
    /// judging are built into it.
    grader: String,
    challenge: String,
    /// The `--only` patterns (none in keys made before they existed).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    only: Vec<String>,
    audience: Audience,
    /// A hash of challenge.toml as loaded and of every case (its group,
    /// name, input and expected answers) with its group's weight, scoring
    /// and visibility. Where the folders are is no part of it: shards whose
    /// jobs check the same tests out at different paths (a CI runner that
    /// clones each job into a folder of its own, a cache folder of each
    /// job's) are one run.
    suite: String,
    time_limits_ms: BTreeMap<String, u64>,
    memory_bytes: u64,
    output_bytes: u64,
    processes: u64,
    open_files: u64,
    file_size_bytes: u64,
    scratch_bytes: u64,
    extra_run_ms: u64,
    extras_budget_ms: u64,
    sandbox: bool,
}

impl RunKey {
    /// The key as a hex SHA-256 of its fields: what reports record so that
    /// `merge` can tell the shards of one run.
    pub fn digest(&self) -> String {
        hex(&Sha256::digest(
            serde_json::to_vec(self).unwrap_or_default(),
        ))
    }

    pub(crate) fn of(grading: &Grading<'_>) -> RunKey {
        let limits = grading.env.limits();
        // The groups' time limits are left out: a `--time-limit` changes
        // them and not the suite, and they are a field of their own.
        let groups: Vec<_> = grading
            .suite
            .groups
            .iter()
            .map(|g| {
                let cases: Vec<_> = g
                    .cases
                    .iter()
                    .map(|c| (&c.group, &c.name, &c.input, &c.expected, c.expected_from))
                    .collect();
                (&g.name, g.weight, g.scoring, g.visibility, cases)
            })
            .collect();
        let suite = Sha256::digest(
            format!("{}\n{:?}", grading.challenge.config.settings(), groups).as_bytes(),
        );
        RunKey {
            grader: format!("rendezvous-grader {}", env!("CARGO_PKG_VERSION")),
            challenge: grading.challenge.id.clone(),
            only: grading.suite.only.clone(),
            audience: grading.audience,
            suite: hex(&suite),
            time_limits_ms: grading
                .suite
                .groups
                .iter()
                .map(|g| (g.name.clone(), g.time_limit.as_millis() as u64))
                .collect(),
            memory_bytes: limits.memory_bytes,
            output_bytes: limits.output_bytes,
            processes: limits.processes,
            open_files: limits.open_files,
            file_size_bytes: limits.file_size_bytes,
            scratch_bytes: limits.scratch_bytes,
            extra_run_ms: grading.extras.run_floor.as_millis() as u64,
            extras_budget_ms: grading.extras.budget_cap.as_millis() as u64,
            sandbox: grading.env.sandboxed(),
        }
    }
}
