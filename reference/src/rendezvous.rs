//! `rendezvous-router`: each key goes to the node with the highest
//! h32(node + ":" + key), ties to the smaller name.

use crate::explanation::{Explanation, ScoreRow, ScoreTable};
use crate::hash::{fmix32, fnv1a, fnv1a_extend};
use crate::model::Model;
use crate::operation::{ADD, Arg, Kind, Op, REMOVE, ROUTE, Signature};
use crate::spec::{ModelSpec, Tie};
use serde_json::Value;

static OPERATIONS: [Signature; 3] = [ROUTE, ADD, REMOVE];

/// How a node's score is computed.
const FORMULA: &str = "h32(node + \":\" + key)";

/// The rendezvous-router challenge.
pub static SPEC: ModelSpec = ModelSpec {
    id: "rendezvous-router",
    constructor: &[Kind::Names],
    operations: &OPERATIONS,
    build: |args| match args {
        [Arg::Names(nodes)] => Box::new(Router::new(nodes.iter().map(String::as_str))),
        other => panic!("rendezvous-router takes [nodes], not {other:?}"),
    },
    catalogue: &crate::mistakes::RENDEZVOUS,
    ties: |prefix, start, _| Tie {
        nodes: crate::hash::fnv_collision(prefix, start),
        keys: Vec::new(),
    },
    before_name: None,
};

/// The reference router: nodes kept sorted by name, which makes the tie rule
/// fall out of a strict comparison (the first maximum in name order is the
/// smallest name) and membership a binary search. Beside each name, the
/// FNV-1a state of `name + ":"`, so scoring a key only hashes the key; the
/// states are kept in one array of their own so that many nodes are scored
/// at once ([`crate::lanes`]).
#[derive(Debug, Clone, Default)]
pub struct Router {
    names: Vec<String>,
    states: Vec<u32>,
}

impl Router {
    /// A router over `nodes`; duplicate names count once.
    pub fn new<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Self {
        let mut router = Router::default();
        for node in nodes {
            router.add(node);
        }
        router
    }

    /// The node for `key`, or `None` with no nodes. O(nodes × key length).
    pub fn route(&self, key: &str) -> Option<&str> {
        let (at, _) = crate::lanes::first_maximum(&self.states, key.as_bytes())?;
        Some(&self.names[at])
    }

    /// Adds `node`; a present node changes nothing.
    pub fn add(&mut self, node: &str) {
        if let Err(at) = self.position(node) {
            self.names.insert(at, node.to_owned());
            self.states
                .insert(at, fnv1a_extend(fnv1a(node.as_bytes()), b":"));
        }
    }

    /// Removes `node`; an absent node changes nothing.
    pub fn remove(&mut self, node: &str) {
        if let Ok(at) = self.position(node) {
            self.names.remove(at);
            self.states.remove(at);
        }
    }

    /// The node names in byte order.
    pub fn nodes(&self) -> impl Iterator<Item = &str> {
        self.names.iter().map(String::as_str)
    }

    /// Every node's score for `key`, highest first, ties by smaller name.
    pub fn scores(&self, key: &str) -> ScoreTable {
        let rows = self
            .names
            .iter()
            .zip(&self.states)
            .map(|(name, &state)| ScoreRow {
                node: name.clone(),
                hashed: format!("{name}:{key}"),
                h32: fmix32(fnv1a_extend(state, key.as_bytes())),
                weighted: None,
            })
            .collect();
        ScoreTable::ranked(key, FORMULA, rows)
    }

    fn position(&self, node: &str) -> Result<usize, usize> {
        self.names.binary_search_by(|n| n.as_str().cmp(node))
    }
}

impl Model for Router {
    fn apply(&mut self, op: &Op) -> Value {
        let name = op.name_at(0);
        match op.name() {
            "route" => self.route(name).map_or(Value::Null, Value::from),
            "add" => {
                self.add(name);
                Value::Null
            }
            "remove" => {
                self.remove(name);
                Value::Null
            }
            other => panic!("rendezvous-router has no operation {other}"),
        }
    }

    fn explain(&self, op: &Op) -> Option<Explanation> {
        (op.name() == "route").then(|| Explanation::Scores(self.scores(op.name_at(0))))
    }

    /// Whether the best score is shared, without the score table.
    fn tie_decides(&self, op: &Op) -> bool {
        if op.name() != "route" {
            return false;
        }
        let key = op.name_at(0).as_bytes();
        let mut best: Option<(u32, bool)> = None;
        for &state in &self.states {
            let score = fmix32(fnv1a_extend(state, key));
            best = match best {
                Some((b, tied)) if score < b => Some((b, tied)),
                Some((b, _)) if score == b => Some((b, true)),
                _ => Some((score, false)),
            };
        }
        best.is_some_and(|(_, tied)| tied)
    }
}
