//! `weighted-hrw`: rendezvous hashing with capacities. A node scores
//! weight / -ln(U) with U = (h32(node + ":" + key) + 0.5) / 2^32, so its
//! share of keys is proportional to its weight; `add(node, weight)` adds a
//! node or sets its weight.

use crate::mistakes::WEIGHTED_HRW;
use crate::operation::{Effect, Kind, REMOVE, ROUTE, Returns, Signature, TOP};
use crate::ranking::{self, Scheme};
use crate::spec::{ModelSpec, Tie};

pub use crate::ranking::{FRAGILE_GAP, Ranker, weighted_score};

static OPERATIONS: [Signature; 4] = [
    ROUTE,
    TOP,
    // Adds a node or sets its weight.
    Signature {
        name: "add",
        operands: &[Kind::Name, Kind::Weight],
        returns: Returns::Nothing,
        effect: Effect::Adds,
    },
    REMOVE,
];

/// The weighted-hrw challenge.
pub static SPEC: ModelSpec = ModelSpec {
    id: "weighted-hrw",
    constructor: &[Kind::WeightedNames],
    operations: &OPERATIONS,
    build: |args| ranking::build(Scheme::Weighted, args),
    catalogue: &WEIGHTED_HRW,
    // Names whose FNV-1a states collide tie on every key at equal weights.
    ties: |prefix, start, _| Tie {
        nodes: crate::hash::fnv_collision(prefix, start),
        keys: Vec::new(),
    },
    before_name: None,
};

/// The reference ranker over `(name, weight)` pairs.
pub fn ranker<'a>(nodes: impl IntoIterator<Item = (&'a str, f64)>) -> Ranker {
    Ranker::with(Scheme::Weighted, nodes)
}
