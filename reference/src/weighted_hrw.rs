//! `weighted-hrw`: rendezvous hashing with capacities. A node scores
//! weight / -ln(U) with U = (h32(node + ":" + key) + 0.5) / 2^32, so its
//! share of keys is proportional to its weight; `add(node, weight)` adds a
//! node or sets its weight.

use crate::model::{Kind, ModelSpec, Returns, Signature, Tie};
use crate::ranking::{self, Scheme};

pub use crate::ranking::{FRAGILE_GAP, Ranker, weighted_score};

static OPERATIONS: [Signature; 4] = [
    Signature {
        name: "route",
        operands: &[Kind::Name],
        returns: Returns::MaybeName,
    },
    Signature {
        name: "top",
        operands: &[Kind::Name, Kind::Count],
        returns: Returns::Names,
    },
    Signature {
        name: "add",
        operands: &[Kind::Name, Kind::Weight],
        returns: Returns::Nothing,
    },
    Signature {
        name: "remove",
        operands: &[Kind::Name],
        returns: Returns::Nothing,
    },
];

/// The weighted-hrw challenge.
pub static SPEC: ModelSpec = ModelSpec {
    id: "weighted-hrw",
    constructor: &[Kind::WeightedNames],
    operations: &OPERATIONS,
    build: |args| ranking::build(Scheme::Weighted, args),
    mistakes: &crate::mistakes::ranking::WEIGHTED_HRW,
    // Names whose FNV-1a states collide tie on every key at equal weights.
    ties: |prefix, start, _| Tie {
        nodes: crate::hash::fnv_collision(prefix, start),
        keys: Vec::new(),
    },
};

/// The reference ranker over `(name, weight)` pairs.
pub fn ranker<'a>(nodes: impl IntoIterator<Item = (&'a str, f64)>) -> Ranker {
    Ranker::with(Scheme::Weighted, nodes)
}
