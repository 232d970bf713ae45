//! The [`Model`] trait: a running reference, which replays and explains.

use crate::explanation::Explanation;
use crate::operation::Op;
use serde_json::Value;

/// A running instance of a challenge's reference.
pub trait Model {
    /// Applies one operation and returns its JSON result.
    fn apply(&mut self, op: &Op) -> Value;

    /// Explains the answer `op` would get in the current state, where the
    /// operation is a decision worth explaining.
    fn explain(&self, op: &Op) -> Option<Explanation> {
        let _ = op;
        None
    }

    /// Whether a tie decides the answer `op` would get in the current
    /// state ([`Explanation::tie_decides`]). Read from [`Model::explain`]
    /// by default; models whose explanation costs far more than the
    /// answer (a table of every node, its hashed texts spelled out) say
    /// it directly, and a test holds them to the default.
    fn tie_decides(&self, op: &Op) -> bool {
        self.explain(op).is_some_and(|e| e.tie_decides())
    }

    /// Why the answer `op` would get in the current state hangs on a
    /// floating-point gap too small to trust across languages, if it does.
    fn fragile(&self, op: &Op) -> Option<String> {
        let _ = op;
        None
    }
}
