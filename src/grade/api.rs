//! The api hint: a Router that lacks operations of its challenge, and the
//! challenge whose operations it has.

use crate::challenge::Challenge;
use crate::report::ApiHint;

/// Compares the Router's public `methods` (empty when the driver cannot
/// list them) with the challenge's operations.
pub(super) fn api_hint(challenge: &Challenge, methods: &[String]) -> Option<ApiHint> {
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
    let wanted: Vec<&str> = challenge.operations.iter().map(|s| s.name).collect();
    let message = match &other {
        Some(id) => format!(
            "your Router has no {} but has every operation of {id}: is it that challenge? Grade it with --challenge {id}",
            missing.join(", ")
        ),
        None => format!(
            "your Router has no {}; the {} challenge calls {}",
            missing.join(", "),
            challenge.id,
            wanted.join(", ")
        ),
    };
    Some(ApiHint {
        missing,
        other_challenge: other,
        message,
    })
}
