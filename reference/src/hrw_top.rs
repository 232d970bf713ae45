//! `hrw-top`: rendezvous hashing with replica ranking. The score is
//! h32(key + "|" + node) (key first); `top(key, n)` ranks the first n nodes
//! by descending score, ties by smaller name; `route` is the first of them.

use crate::mistakes::HRW_TOP;
use crate::operation::{ADD, Kind, REMOVE, ROUTE, Signature, TOP};
use crate::ranking::{self, Scheme};
use crate::spec::{ModelSpec, Tie};

pub use crate::ranking::Ranker;

static OPERATIONS: [Signature; 4] = [ROUTE, TOP, ADD, REMOVE];

/// The hrw-top challenge.
pub static SPEC: ModelSpec = ModelSpec {
    id: "hrw-top",
    constructor: &[Kind::Names],
    operations: &OPERATIONS,
    build: |args| ranking::build(Scheme::KeyPipeNode, args),
    catalogue: &HRW_TOP,
    // The key comes first in the text hashed, so a pair ties on one key.
    ties: |prefix, start, _| {
        let key = format!("{prefix}key");
        Tie {
            nodes: crate::hash::fnv_collision_after(&before_name(&key), prefix, start),
            keys: vec![key],
        }
    },
    before_name: Some(before_name),
};

/// The text hashed before a node's name for `key`: `key + "|"`.
fn before_name(key: &str) -> String {
    format!("{key}|")
}

/// The reference ranker over `nodes` (duplicates count once).
pub fn ranker<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Ranker {
    Ranker::with(Scheme::KeyPipeNode, nodes.into_iter().map(|n| (n, 1.0)))
}
