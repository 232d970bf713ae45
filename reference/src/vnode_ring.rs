//! `vnode-ring`: a consistent-hash ring with virtual nodes. Every node owns
//! k points at h32(name + "#" + i); a key goes to the first entry at or
//! after h32(key), wrapping past the end.

use crate::explanation::{Explanation, RingPoint, RingSize, RingView};
use crate::hash::h32;
use crate::mistakes::VNODE_RING;
use crate::model::Model;
use crate::operation::{ADD, Arg, Effect, Kind, Op, REMOVE, Returns, Signature};
use crate::spec::{ModelSpec, Tie};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

static OPERATIONS: [Signature; 5] = [
    Signature {
        name: "lookup",
        operands: &[Kind::Name],
        returns: Returns::MaybeName,
        effect: Effect::Query,
    },
    ADD,
    REMOVE,
    Signature {
        name: "points",
        operands: &[],
        returns: Returns::Count,
        effect: Effect::Query,
    },
    Signature {
        name: "load",
        operands: &[Kind::Size],
        returns: Returns::Loads,
        effect: Effect::Query,
    },
];

/// The vnode-ring challenge.
pub static SPEC: ModelSpec = ModelSpec {
    id: "vnode-ring",
    constructor: &[Kind::Names, Kind::Size],
    operations: &OPERATIONS,
    build: |args| match args {
        [Arg::Names(nodes), Arg::Count(k)] => Box::new(Ring::new(
            nodes.iter().map(String::as_str),
            usize::try_from(*k).unwrap_or(usize::MAX),
        )),
        other => panic!("vnode-ring takes [nodes, k], not {other:?}"),
    },
    catalogue: &VNODE_RING,
    // Two nodes with a point at one position; the key lands on it.
    ties: |prefix, start, args| {
        let k = match args {
            [_, Arg::Count(k)] => usize::try_from(*k).unwrap_or(usize::MAX).max(1),
            _ => 1,
        };
        let (a, b) = colliding_nodes(&format!("{prefix}{start}-"), k);
        let key = (0..k)
            .map(|i| format!("{a}#{i}"))
            .find(|label| (0..k).any(|j| h32(&format!("{b}#{j}")) == h32(label)))
            .expect("colliding nodes share a position");
        Tie {
            nodes: (a, b),
            keys: vec![key],
        }
    },
    before_name: None,
};

/// Entries shown on each side of a key in an explanation.
const NEIGHBOURS: usize = 3;

/// One entry: its position, its node, and which of the node's points it is.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    position: u32,
    node: String,
    replica: usize,
}

/// The reference ring: entries ordered by (position, node) in a B-tree, so
/// the first entry at or after a position is a range query, adding or
/// removing a node costs O(k log points), and two entries at one position
/// both stay, the smaller name first.
#[derive(Debug, Clone, Default)]
pub struct Ring {
    k: usize,
    /// Node names, sorted.
    nodes: BTreeSet<String>,
    entries: BTreeSet<Entry>,
}

impl Ring {
    /// A ring of `nodes` (duplicates count once) with `k` points each.
    pub fn new<'a>(nodes: impl IntoIterator<Item = &'a str>, k: usize) -> Self {
        let mut ring = Ring {
            k,
            ..Ring::default()
        };
        for n in nodes {
            ring.add(n);
        }
        ring
    }

    /// The entry `key` lands on, and whether it wrapped.
    fn landing(&self, key: &str) -> Option<(&Entry, bool)> {
        let at_or_after = self
            .entries
            .range(
                Entry {
                    position: h32(key),
                    node: String::new(),
                    replica: 0,
                }..,
            )
            .next();
        match at_or_after {
            Some(e) => Some((e, false)),
            None => self.entries.first().map(|e| (e, true)),
        }
    }

    /// The node owning `key`, or `None` on an empty ring. O(log points).
    pub fn lookup(&self, key: &str) -> Option<&str> {
        self.landing(key).map(|(e, _)| e.node.as_str())
    }

    /// Places `node`'s k points; a present node changes nothing.
    pub fn add(&mut self, node: &str) {
        if self.nodes.insert(node.to_owned()) {
            self.entries.extend(points_of(node, self.k));
        }
    }

    /// Takes all of `node`'s points away; an absent node changes nothing.
    pub fn remove(&mut self, node: &str) {
        if self.nodes.remove(node) {
            for entry in points_of(node, self.k) {
                self.entries.remove(&entry);
            }
        }
    }

    /// The number of entries on the ring.
    pub fn points(&self) -> usize {
        self.entries.len()
    }

    /// Looks up "key0" .. "key{n-1}" and counts the keys of every node,
    /// sorted by name, zero counts included.
    pub fn load(&self, n: u64) -> Vec<(String, u64)> {
        let mut counts: BTreeMap<&str, u64> = self.nodes.iter().map(|n| (n.as_str(), 0)).collect();
        for i in 0..n {
            if let Some(owner) = self.lookup(&format!("key{i}")) {
                *counts
                    .get_mut(owner)
                    .expect("every entry's node is a member") += 1;
            }
        }
        counts
            .into_iter()
            .map(|(node, count)| (node.to_owned(), count))
            .collect()
    }

    /// The key's position and the entries around it. O(points): for
    /// explanations only.
    pub fn view(&self, key: &str) -> RingView {
        let entries: Vec<&Entry> = self.entries.iter().collect();
        let len = entries.len();
        let point = |i: usize| {
            let e = entries[i % len];
            RingPoint {
                index: i % len,
                node: e.node.clone(),
                hashed: format!("{}#{}", e.node, e.replica),
                position: e.position,
            }
        };
        let (before, after, wrapped) = match self.landing(key) {
            None => (Vec::new(), Vec::new(), false),
            Some((landed, wrapped)) => {
                let at = entries.partition_point(|e| *e < landed);
                // Ring order, wrapping: the landing entry and a few after
                // it, and as many before it as are left over.
                let shown_after = (NEIGHBOURS + 1).min(len);
                let shown_before = NEIGHBOURS.min(len - shown_after);
                let before = (at + len - shown_before..at + len).map(point).collect();
                let after = (at..at + shown_after).map(point).collect();
                (before, after, wrapped)
            }
        };
        RingView {
            key: key.to_owned(),
            position: h32(key),
            points: len,
            before,
            after,
            wrapped,
        }
    }
}

/// The k entries of `node`.
fn points_of(node: &str, k: usize) -> impl Iterator<Item = Entry> + '_ {
    (0..k).map(move |i| Entry {
        position: h32(&format!("{node}#{i}")),
        node: node.to_owned(),
        replica: i,
    })
}

impl Model for Ring {
    fn apply(&mut self, op: &Op) -> Value {
        match op.name() {
            "lookup" => self.lookup(op.name_at(0)).map_or(Value::Null, Value::from),
            "add" => {
                self.add(op.name_at(0));
                Value::Null
            }
            "remove" => {
                self.remove(op.name_at(0));
                Value::Null
            }
            "points" => Value::from(self.points()),
            "load" => Value::from(
                self.load(op.count_at(0))
                    .into_iter()
                    .map(|(node, count)| serde_json::json!([node, count]))
                    .collect::<Vec<_>>(),
            ),
            other => panic!("vnode-ring has no operation {other}"),
        }
    }

    /// As the explanation's view says it (a test holds the two together):
    /// two entries at one position among those shown around the key. Read
    /// off the B-tree around the landing entry, in O(log points), where
    /// the view collects every entry: the second opinion asks this of
    /// every lookup of every case, ten thousand of them in the large one.
    fn tie_decides(&self, op: &Op) -> bool {
        if op.name() != "lookup" {
            return false;
        }
        let Some((landed, _)) = self.landing(op.name_at(0)) else {
            return false;
        };
        // The same counts as the view's, in ring order, wrapping.
        let len = self.entries.len();
        let shown_after = (NEIGHBOURS + 1).min(len);
        let shown_before = NEIGHBOURS.min(len - shown_after);
        let mut window: Vec<&Entry> = self
            .entries
            .range(..landed)
            .rev()
            .chain(self.entries.iter().rev())
            .take(shown_before)
            .collect();
        window.reverse();
        window.extend(
            self.entries
                .range(landed..)
                .chain(self.entries.iter())
                .take(shown_after),
        );
        window.windows(2).any(|w| w[0].position == w[1].position)
    }

    fn explain(&self, op: &Op) -> Option<Explanation> {
        match op.name() {
            "lookup" => Some(Explanation::Ring(self.view(op.name_at(0)))),
            "points" => Some(Explanation::Points(RingSize {
                k: self.k,
                nodes: self.nodes.iter().cloned().collect(),
                points: self.points(),
            })),
            _ => None,
        }
    }
}

/// Two node names, `prefix` followed by a number, one of whose k points
/// each share a position: the only way to test that colliding points both
/// stay on the ring. A birthday search over names in order, so the same
/// arguments give the same pair; about 2^16 points suffice.
pub fn colliding_nodes(prefix: &str, k: usize) -> (String, String) {
    assert!(k > 0, "nodes with no points never collide");
    let mut seen: std::collections::HashMap<u32, u64> = std::collections::HashMap::new();
    for m in 0u64.. {
        let name = format!("{prefix}{m}");
        for i in 0..k {
            let position = h32(&format!("{name}#{i}"));
            match seen.get(&position) {
                Some(&other) if other != m => {
                    let other = format!("{prefix}{other}");
                    return if other < name {
                        (other, name)
                    } else {
                        (name, other)
                    };
                }
                Some(_) => {}
                None => {
                    seen.insert(position, m);
                }
            }
        }
    }
    unreachable!("the search ends before 2^64 names")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shortcut agrees with the view on rings small enough that the
    /// entries shown around a key are most of the ring, so a colliding
    /// pair is sometimes just inside the window and sometimes just out of
    /// it, before the key and after it, wrapping or not.
    #[test]
    fn the_tie_shortcut_agrees_with_the_view_at_every_landing() {
        let mut compared = [0usize; 2];
        for k in 1..=4 {
            let (a, b) = colliding_nodes("t", k);
            for others in 0..=4 {
                let mut nodes = vec![a.clone(), b.clone()];
                nodes.extend((0..others).map(|i| format!("other-{i}")));
                let ring = Ring::new(nodes.iter().map(String::as_str), k);
                for i in 0..3000 {
                    let op = Op {
                        signature: &OPERATIONS[0],
                        operands: vec![Arg::Name(format!("key-{i}"))],
                    };
                    let viewed = ring.explain(&op).is_some_and(|e| e.tie_decides());
                    assert_eq!(ring.tie_decides(&op), viewed, "k {k}, {nodes:?}, key-{i}");
                    compared[usize::from(viewed)] += 1;
                }
            }
        }
        // Both answers were seen many times.
        assert!(compared.iter().all(|&n| n > 1000), "{compared:?}");
    }
}
