//! `hrw-top`: rendezvous hashing with replica ranking. The score is
//! h32(key + "|" + node) (key first); `top(key, n)` ranks the first n nodes
//! by descending score, ties by smaller name; `route` is the first of them.

use crate::hash::{FNV_OFFSET, fmix32, fnv1a_extend};
use crate::model::{Arg, Kind, Model, ModelSpec, Op, Returns, Signature};
use serde_json::Value;

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
        operands: &[Kind::Name],
        returns: Returns::Nothing,
    },
    Signature {
        name: "remove",
        operands: &[Kind::Name],
        returns: Returns::Nothing,
    },
];

/// The hrw-top challenge (its known mistakes are still to be written).
pub static SPEC: ModelSpec = ModelSpec {
    id: "hrw-top",
    constructor: &[Kind::Names],
    operations: &OPERATIONS,
    build: |args| match args {
        [Arg::Names(nodes)] => Box::new(Ranker::new(nodes.iter().map(String::as_str))),
        other => panic!("hrw-top takes [nodes], not {other:?}"),
    },
    mistakes: &[],
};

/// The reference: node names sorted, so a stable sort by descending score
/// keeps ties in name order.
#[derive(Debug, Clone, Default)]
pub struct Ranker {
    nodes: Vec<String>,
}

impl Ranker {
    /// A ranker over `nodes`; duplicates count once.
    pub fn new<'a>(nodes: impl IntoIterator<Item = &'a str>) -> Self {
        let mut r = Ranker::default();
        for n in nodes {
            r.add(n);
        }
        r
    }

    /// h32(key + "|" + node), hashing the key's prefix once.
    fn scores(&self, key: &str) -> Vec<(u32, &str)> {
        let prefix = fnv1a_extend(fnv1a_extend(FNV_OFFSET, key.as_bytes()), b"|");
        self.nodes
            .iter()
            .map(|n| (fmix32(fnv1a_extend(prefix, n.as_bytes())), n.as_str()))
            .collect()
    }

    /// The first `n` nodes by descending score, ties by smaller name.
    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let mut ranked = self.scores(key);
        ranked.sort_by_key(|(s, _)| std::cmp::Reverse(*s));
        ranked
            .into_iter()
            .take(n)
            .map(|(_, name)| name.to_owned())
            .collect()
    }

    /// The key's owner, or `None` with no nodes. O(nodes).
    pub fn route(&self, key: &str) -> Option<String> {
        let mut best: Option<(u32, &str)> = None;
        for (s, name) in self.scores(key) {
            if best.is_none_or(|(b, _)| s > b) {
                best = Some((s, name));
            }
        }
        best.map(|(_, n)| n.to_owned())
    }

    pub fn add(&mut self, node: &str) {
        if let Err(at) = self.nodes.binary_search_by(|n| n.as_str().cmp(node)) {
            self.nodes.insert(at, node.to_owned());
        }
    }

    pub fn remove(&mut self, node: &str) {
        if let Ok(at) = self.nodes.binary_search_by(|n| n.as_str().cmp(node)) {
            self.nodes.remove(at);
        }
    }
}

impl Model for Ranker {
    fn apply(&mut self, op: &Op) -> Value {
        let name = op.name_at(0);
        match op.name() {
            "route" => self.route(name).map_or(Value::Null, Value::from),
            "top" => {
                Value::from(self.top(name, usize::try_from(op.count_at(1)).unwrap_or(usize::MAX)))
            }
            "add" => {
                self.add(name);
                Value::Null
            }
            "remove" => {
                self.remove(name);
                Value::Null
            }
            other => panic!("hrw-top has no operation {other}"),
        }
    }
}
