//! Explain: why the expected answer is right, in pinned hash values. For the
//! first divergent decision the reference replays the case to that point
//! and shows every node's score, the rule that picked the winner, and where
//! the submission's answer ranked; when the submission exposes its own h32,
//! its values sit beside the pinned ones.

use crate::challenge::{Case, Challenge};
use crate::judge::Divergence;
use reference::model::{Explanation, WinRule};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Rows shown in a score table; the submission's answer is always shown too.
pub const MAX_ROWS: usize = 10;

/// The strings whose pinned values the spec publishes; a submission's h32 is
/// checked on these first.
pub const CHECK_VALUES: [&str; 4] = ["", "a", "hello", "A#0"];

/// Why the expected answer of a divergent operation is what it is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ExplanationReport {
    Scores(ScoreReport),
}

/// A route's score table, capped for display.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreReport {
    pub key: String,
    /// The reference's answer.
    pub winner: Option<String>,
    pub rule: WinRule,
    /// The highest-ranked rows (at most [`MAX_ROWS`]), and the submission's
    /// answer's row if it ranked lower.
    pub rows: Vec<RankedRow>,
    /// How many nodes there were in all.
    pub total_nodes: usize,
    /// The submission's answer and its rank (`None` if it is not a node).
    pub answer: Option<RankedRow>,
}

/// One node's score with its rank (1 = highest).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedRow {
    pub rank: usize,
    pub node: String,
    pub hashed: String,
    pub h32: u32,
    /// The submission's own h32 of `hashed`, where it exposes one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yours: Option<Value>,
}

/// The submission's h32 against the pinned one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HashCheck {
    /// How many strings were compared.
    pub checked: usize,
    /// The first string where the values differ (check values first, then
    /// the strings scored in the explanations), or `None` if all agree.
    pub first_mismatch: Option<HashMismatch>,
}

/// A string the submission hashes differently.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HashMismatch {
    pub text: String,
    pub pinned: u32,
    pub yours: Value,
}

/// Explains the divergent operation of `case`, if it is a decision the
/// reference can explain.
pub fn explain(
    challenge: &Challenge,
    case: &Case,
    divergence: &Divergence,
) -> Option<ExplanationReport> {
    let explanation = challenge
        .model
        .explain_at(&case.args, &case.ops, divergence.op_index)?;
    match explanation {
        Explanation::Scores(table) => {
            let total_nodes = table.rows.len();
            let ranked: Vec<RankedRow> = table
                .rows
                .into_iter()
                .enumerate()
                .map(|(i, r)| RankedRow {
                    rank: i + 1,
                    node: r.node,
                    hashed: r.hashed,
                    h32: r.h32,
                    yours: None,
                })
                .collect();
            let answer = divergence
                .actual
                .as_str()
                .and_then(|a| ranked.iter().find(|r| r.node == a))
                .cloned();
            let mut rows: Vec<RankedRow> = ranked.into_iter().take(MAX_ROWS).collect();
            if let Some(a) = &answer
                && a.rank > MAX_ROWS
            {
                rows.push(a.clone());
            }
            Some(ExplanationReport::Scores(ScoreReport {
                key: table.key,
                winner: table.winner,
                rule: table.rule,
                rows,
                total_nodes,
                answer,
            }))
        }
    }
}

/// The strings an h32 check should ask the submission about: the check
/// values, then every string hashed in `explanations`, without repeats.
pub fn hash_texts<'a>(
    explanations: impl IntoIterator<Item = &'a ExplanationReport>,
) -> Vec<String> {
    let mut texts: Vec<String> = CHECK_VALUES.iter().map(|s| s.to_string()).collect();
    for e in explanations {
        let ExplanationReport::Scores(s) = e;
        for r in &s.rows {
            if !texts.contains(&r.hashed) {
                texts.push(r.hashed.clone());
            }
        }
    }
    texts
}

/// Compares the submission's values for `texts` with the pinned h32.
pub fn check_hash(texts: &[String], yours: &[Value]) -> HashCheck {
    let first_mismatch = texts.iter().zip(yours).find_map(|(text, value)| {
        let pinned = reference::h32(text);
        (value.as_u64() != Some(u64::from(pinned))).then(|| HashMismatch {
            text: text.clone(),
            pinned,
            yours: value.clone(),
        })
    });
    HashCheck {
        checked: texts.len().min(yours.len()),
        first_mismatch,
    }
}

/// Puts the submission's own values beside the pinned ones in `report`.
pub fn annotate(report: &mut ExplanationReport, texts: &[String], yours: &[Value]) {
    let ExplanationReport::Scores(s) = report;
    let lookup = |hashed: &str| {
        texts
            .iter()
            .position(|t| t == hashed)
            .and_then(|i| yours.get(i).cloned())
    };
    for row in s.rows.iter_mut().chain(s.answer.iter_mut()) {
        row.yours = lookup(&row.hashed);
    }
}
