//! The api hint: a Router that lacks operations of its challenge, and the
//! challenge whose operations it has.

use crate::challenge::Challenge;

/// A Router that lacks some of the challenge's operations.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiGap {
    /// The challenge's operations the Router has no method for.
    pub missing: Vec<String>,
    /// Another challenge whose every operation the Router has.
    pub other_challenge: Option<String>,
}

/// Compares the Router's public `methods` (empty when the driver cannot
/// list them) with the challenge's operations.
pub(super) fn api_gap(challenge: &Challenge, methods: &[String]) -> Option<ApiGap> {
    if methods.is_empty() {
        return None;
    }
    let has = |name: &str| methods.iter().any(|m| m == name);
    let missing: Vec<String> = challenge
        .operations
        .iter()
        .filter(|s| !has(s.name))
        .map(|s| s.name.to_owned())
        .collect();
    if missing.is_empty() {
        return None;
    }
    // The other challenge with the most operations, all present.
    let other = reference::challenges()
        .iter()
        .filter(|spec| spec.id != challenge.id)
        .filter(|spec| spec.operations.iter().all(|s| has(s.name)))
        .max_by_key(|spec| spec.operations.len())
        .map(|spec| spec.id.to_owned());
    Some(ApiGap {
        missing,
        other_challenge: other,
    })
}
