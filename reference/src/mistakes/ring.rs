//! Mistakes of `vnode-ring`: a ring with one thing wrong.

use super::catalogue::{Catalogue, Mistake, Variant};
use super::knobs::{Knobs, PastEnd, PointText, Removal, Rule, Stale};
use super::shared::{
    ABSENT_REMOVES_LAST, CODE_POINTS, FLOAT_FINALIZER, FLOAT_LOOP, FLOAT_MULTIPLY, FNV1,
    MISSING_FINALIZER, REMOVE_ABSENT_RAISES, SIGNED_BYTES, UTF16_UNITS, stale_after_change,
};
use crate::operation::{Arg, Op};
use crate::text::Text;
use serde_json::Value;
use std::collections::HashMap;

/// A ring with the choices of its [`Knobs`].
#[derive(Debug, Clone)]
struct WrongRing {
    k: usize,
    /// Members, in insertion order.
    nodes: Vec<String>,
    /// (position, node), sorted.
    entries: Vec<(u32, String)>,
    /// Answers remembered, with [`Stale::Cached`].
    cache: HashMap<String, Option<String>>,
    knobs: Knobs,
}

fn build(args: &[Arg], knobs: Knobs) -> Box<dyn Variant> {
    Box::new(build_ring(args, knobs))
}

/// A ring with the initial nodes placed, in the order given: once each,
/// or, with [`Knobs::list`] but not [`Knobs::listed_once`], once per
/// time given.
fn build_ring(args: &[Arg], knobs: Knobs) -> WrongRing {
    let (given, k) = match args {
        [Arg::Names(nodes), Arg::Count(k)] => {
            (nodes.as_slice(), usize::try_from(*k).unwrap_or(usize::MAX))
        }
        _ => (&[][..], 0),
    };
    let mut ring = WrongRing {
        k,
        nodes: Vec::new(),
        entries: Vec::new(),
        cache: HashMap::new(),
        knobs,
    };
    let again = knobs.list && !knobs.listed_once;
    if knobs.by_position {
        for n in given {
            ring.add(n, again);
        }
    } else {
        // Each point inserted in its place, as `add` does, makes the same
        // sorted list as all of them sorted once (equal entries are the
        // same entry), without moving the list once per point: a
        // thousand-node case has a hundred thousand.
        for n in given {
            if ring.member(n, again) {
                let points = ring.points(n);
                ring.entries.extend(points);
            }
        }
        ring.entries.sort_unstable();
    }
    ring
}

impl WrongRing {
    /// Places `node`'s points, or, when it is there, places them `again`
    /// or does nothing.
    fn add(&mut self, node: &str, again: bool) {
        if !self.member(node, again) {
            return;
        }
        let mut points = self.points(node);
        if self.knobs.by_position {
            for entry in points {
                let at = self.entries.partition_point(|e| *e < entry);
                if let Some(taken) = self.entries.iter_mut().find(|e| e.0 == entry.0) {
                    taken.1 = entry.1;
                    continue;
                }
                self.entries.insert(at, entry);
            }
            return;
        }
        // Each point in its place, in one pass over the ring rather than a
        // move of it per point (equal entries are the same entry).
        points.sort_unstable();
        let kept = std::mem::take(&mut self.entries);
        let mut merged = Vec::with_capacity(kept.len() + points.len());
        let mut points = points.into_iter().peekable();
        for entry in kept {
            while let Some(point) = points.next_if(|p| *p <= entry) {
                merged.push(point);
            }
            merged.push(entry);
        }
        merged.extend(points);
        self.entries = merged;
    }

    /// Makes `node` a member, answering whether its points are placed:
    /// not when it is there already, unless placed `again`.
    fn member(&mut self, node: &str, again: bool) -> bool {
        if self.nodes.iter().any(|n| n == node) {
            again
        } else {
            self.nodes.push(node.to_owned());
            true
        }
    }

    /// `node`'s points, in the order of their index.
    fn points(&self, node: &str) -> Vec<(u32, String)> {
        (0..self.k)
            .map(|i| {
                (
                    self.knobs.hash.of(&[&self.knobs.point.of(node, i)]),
                    node.to_owned(),
                )
            })
            .collect()
    }

    fn remove(&mut self, node: &str) {
        let Some(at) = self.nodes.iter().position(|n| n == node) else {
            return;
        };
        self.nodes.remove(at);
        match self.knobs.removal {
            Removal::All => self.entries.retain(|e| e.1 != node),
            Removal::FirstPoint => {
                let first = (
                    self.knobs.hash.of(&[&self.knobs.point.of(node, 0)]),
                    node.to_owned(),
                );
                if let Some(i) = self.entries.iter().position(|e| *e == first) {
                    self.entries.remove(i);
                }
            }
            Removal::SkipsNext => {
                // The learner's loop removes at `i` and still steps past
                // it: the entry after each one removed is never looked at.
                let mut skip = false;
                self.entries.retain(|e| {
                    if std::mem::take(&mut skip) {
                        return true;
                    }
                    skip = e.1 == node;
                    !skip
                });
            }
        }
    }

    fn lookup(&mut self, key: &str) -> Result<Option<String>, String> {
        if let Some(answer) = self.cache.get(key) {
            return Ok(answer.clone());
        }
        let answer = self.owner(key)?.map(str::to_owned);
        if self.knobs.stale == Stale::Cached {
            self.cache.insert(key.to_owned(), answer.clone());
        }
        Ok(answer)
    }

    fn owner(&self, key: &str) -> Result<Option<&str>, String> {
        if self.entries.is_empty() {
            return Ok(None);
        }
        let h = self.knobs.hash.of(&[key]);
        let at = self
            .entries
            .partition_point(|e| if self.knobs.strict { e.0 <= h } else { e.0 < h });
        match (self.entries.get(at), self.knobs.past_end) {
            (Some(e), _) => Ok(Some(&e.1)),
            (None, PastEnd::Wraps) => Ok(Some(&self.entries[0].1)),
            (None, PastEnd::Null) => Ok(None),
            (None, PastEnd::Clamps) => Ok(self.entries.last().map(|e| e.1.as_str())),
            (None, PastEnd::Raises) => Err(format!("index {at} past the end of the ring")),
        }
    }
}

impl Variant for WrongRing {
    fn apply(&mut self, op: &Op) -> Result<Value, String> {
        match op.name() {
            "lookup" => Ok(self.lookup(op.name_at(0))?.map_or(Value::Null, Value::from)),
            "add" => {
                self.add(op.name_at(0), self.knobs.list && !self.knobs.added_once);
                Ok(Value::Null)
            }
            "remove" => {
                let name = op.name_at(0);
                if self.nodes.iter().any(|n| n == name) {
                    self.remove(name);
                } else if self.knobs.raise_on_absent {
                    return Err(format!("{name} is not a node"));
                } else if self.knobs.absent_removes_last
                    && let Some(last) = self.nodes.last().cloned()
                {
                    self.remove(&last);
                }
                Ok(Value::Null)
            }
            "points" => Ok(Value::from(self.entries.len())),
            "load" => {
                // Counted in a table of the members, as the statement's
                // "every node, zero counts included" invites: a leftover
                // point of a removed node is an owner the table lacks (a
                // KeyError in Python). Counted per owner met instead, a
                // node with no key is missing and a leftover owner shown.
                let mut counts: std::collections::BTreeMap<String, u64> =
                    if self.knobs.load_owners_only {
                        std::collections::BTreeMap::new()
                    } else {
                        self.nodes.iter().map(|n| (n.clone(), 0)).collect()
                    };
                for i in 0..op.count_at(0) {
                    if let Some(owner) = self.lookup(&format!("key{i}"))? {
                        if self.knobs.load_owners_only {
                            *counts.entry(owner).or_default() += 1;
                        } else {
                            *counts
                                .get_mut(&owner)
                                .ok_or_else(|| format!("{owner} is not a node"))? += 1;
                        }
                    }
                }
                Ok(Value::from(
                    counts
                        .into_iter()
                        .map(|(n, c)| serde_json::json!([n, c]))
                        .collect::<Vec<_>>(),
                ))
            }
            other => Err(format!("no operation {other}")),
        }
    }
}

/// The vnode-ring mistakes.
// Comparing positions as signed numbers is no mistake on a ring: it cuts
// the circle at 2^31 instead of 0, and "the first point at or after, with
// the wrap" does not depend on where the circle is cut.
pub(crate) static VNODE_RING: Catalogue = Catalogue {
    mistakes: &MISTAKES,
    base: Knobs::right(false, "", Rule::Plain),
    build,
};

/// Texts ring libraries hash for a node's point i instead of node + "#" +
/// i: `node:i` (Rust's hash_ring, many Python and JavaScript rings),
/// `node-i` (ketama, uhashring, Python's hash_ring), `node` + `i` with
/// nothing between (PHP's Flexihash, Go's buraksezer/consistent), `i` +
/// `node` (Go's groupcache and stathat/consistent), and the like.
const POINT_TEXT_FORMS: [&str; 8] = [
    "node + \":\" + i",
    "node + \"-\" + i",
    "node + i",
    "node + \"_\" + i",
    "node + \"&&\" + i",
    "i + node",
    "i + \"-\" + node",
    "node + \"#\" + (i + 1)",
];
const POINT_TEXTS: [PointText; 8] = [
    point(false, ":", 0),
    point(false, "-", 0),
    point(false, "", 0),
    point(false, "_", 0),
    point(false, "&&", 0),
    point(true, "", 0),
    point(true, "-", 0),
    point(false, "#", 1),
];

const fn point(index_first: bool, separator: &'static str, first: usize) -> PointText {
    PointText {
        index_first,
        separator,
        first,
    }
}

static MISTAKES: [Mistake; 18] = [
    Mistake {
        id: "strictly-after",
        title: "takes the first point strictly after the key, not at or after",
        explanation: Text::Plain(
            "A key whose h32 equals a point's position belongs to that point. Your lookup skips it and answers the next point's node (with k = 4 and nodes A, B, C, the key \"A#2\" must go to A).",
        ),
        hint: Text::Each {
            python: "Find the first position >= h32(key): `bisect_left`, not `bisect_right`.",
            javascript: "Find the first position >= h32(key): in your binary search, stop where the position is `>=` the key's, not `>`.",
            rust: "Find the first position >= h32(key): `partition_point(|&(p, _)| p < h)`.",
            words: "Find the first point at or after h32(key), not strictly after it.",
        },
        forms: &[""],
        tweak: |k, _| k.strict = true,
    },
    Mistake {
        id: "no-wrap",
        title: "does not wrap past the last point",
        explanation: Text::Plain(
            "A key whose h32 is past the last point on the ring goes to the first point: the ring wraps around. Your lookup runs off the end instead.",
        ),
        hint: Text::Each {
            python: "When the search returns `len(ring)`, use index 0: `ring[i % len(ring)]` (not `ring[min(i, len(ring) - 1)]`, which keeps the key on the last point).",
            javascript: "When the search returns `ring.length`, use index 0: `ring[i % ring.length]` (not `ring[Math.min(i, ring.length - 1)]`, which keeps the key on the last point).",
            rust: "When the search returns `ring.len()`, use index 0: `ring[i % ring.len()]` (not `ring[i.min(ring.len() - 1)]`, which keeps the key on the last point).",
            words: "When no point is at or after the key's position, take the first point of the ring (not the last one): the ring wraps around.",
        },
        forms: &["fails", "answers null", "answers the last point's node"],
        tweak: |k, form| {
            k.past_end = [PastEnd::Raises, PastEnd::Null, PastEnd::Clamps][form];
        },
    },
    Mistake {
        id: "partial-removal",
        title: "removes only some of a node's points",
        explanation: Text::Plain(
            "Removing a node must take all k of its points off the ring; some of yours stay behind, so the removed node still gets keys and `points` counts too many.",
        ),
        hint: Text::Each {
            python: "Rebuild the list without the node: `ring = [(p, n) for p, n in ring if n != node]`; never delete from a list while looping over it.",
            javascript: "Rebuild the array without the node: `ring = ring.filter(([, n]) => n !== node)`; never splice an array while looping over it.",
            rust: "Keep the other nodes' points: `ring.retain(|(_, n)| n != node)`; never remove from a `Vec` while looping over its indices.",
            words: "Rebuild the ring without any of the node's points; never delete from a list while walking through it.",
        },
        forms: &[
            "only its point #0",
            "skips the point after each one removed",
        ],
        tweak: |k, form| {
            k.removal = if form == 0 {
                Removal::FirstPoint
            } else {
                Removal::SkipsNext
            }
        },
    },
    Mistake {
        id: "map-by-position",
        title: "keeps the ring in a map keyed by position, so colliding points vanish",
        explanation: Text::Plain(
            "Two points can share a position; both stay on the ring, the smaller name first. Keyed by position, the later point overwrites the earlier one.",
        ),
        hint: Text::Each {
            python: "Keep a sorted list of (position, node) tuples, not a dict from position to node.",
            javascript: "Keep a sorted array of [position, node] pairs, not a `Map` or an object keyed by position.",
            rust: "Keep a sorted `Vec<(u32, String)>`, not a `BTreeMap` or `HashMap` keyed by position.",
            words: "Keep a sorted list of (position, node) pairs, not a map keyed by position.",
        },
        forms: &[""],
        tweak: |k, _| k.by_position = true,
    },
    Mistake {
        id: "wrong-point-text",
        title: "hashes another text than node + \"#\" + i for a node's points",
        explanation: Text::Plain(
            "A node's k points sit at h32(node + \"#\" + i) for i from 0 to k - 1: the name, a hash sign, then the index in decimal. Your points hash another text (the form says which: ring libraries each have their own, node + \"-\" + i in ketama, i + node in Go's groupcache), so every point sits elsewhere on the ring and keys go to other nodes.",
        ),
        hint: Text::Each {
            python: "Hash `f\"{node}#{i}\"` for `i in range(k)`: the name, a hash sign, then the index from 0.",
            javascript: "Hash `` `${node}#${i}` `` for `i` from 0 to k - 1: the name, a hash sign, then the index.",
            rust: "Hash `format!(\"{node}#{i}\")` for `i in 0..k`: the name, a hash sign, then the index from 0.",
            words: "Hash the node's name, a hash sign, then the index in decimal, for each index from 0 to k - 1.",
        },
        forms: &POINT_TEXT_FORMS,
        tweak: |k, form| k.point = POINT_TEXTS[form],
    },
    Mistake {
        id: "points-placed-again",
        title: "places a node's points again when it is given twice",
        explanation: Text::Plain(
            "Adding a node already on the ring changes nothing, and a node listed twice is one node. Your code places its k points again (where, the form says: by add and in the constructor's list, by add only, or in the constructor's list only), so the ring holds each of them twice and `points` counts too many; a removal that takes only some points off then leaves copies behind.",
        ),
        hint: Text::Each {
            python: "Keep the members in a set and return from `add` when the node is in it: `if node in self.nodes: return`.",
            javascript: "Keep the members in a `Set` and return from `add` when `this.nodes.has(node)`.",
            rust: "Keep the members in a `BTreeSet` and return from `add` when `!self.nodes.insert(node.to_string())`.",
            words: "Keep the members as a set, and place a node's points only when it is not there yet.",
        },
        forms: &["listed or added twice", "added twice", "listed twice"],
        tweak: |k, form| {
            k.list = true;
            k.listed_once = form == 1;
            k.added_once = form == 2;
        },
    },
    Mistake {
        id: "load-leaves-out-idle-nodes",
        title: "load(n) leaves out the nodes that got no key",
        explanation: Text::Each {
            python: "load(n) lists every node, sorted by name, zero counts included. Your counts come from the owners met (a `Counter` of the lookups, say), so a node that got no key is missing from the answer.",
            javascript: "load(n) lists every node, sorted by name, zero counts included. Your counts come from the owners met (a `Map` filled from the lookups, say), so a node that got no key is missing from the answer.",
            rust: "load(n) lists every node, sorted by name, zero counts included. Your counts come from the owners met (`*counts.entry(owner).or_insert(0) += 1`, say), so a node that got no key is missing from the answer.",
            words: "load(n) lists every node, sorted by name, zero counts included. Your counts come from the owners met, so a node that got no key is missing from the answer.",
        },
        hint: Text::Each {
            python: "Start from every member at zero, `counts = {node: 0 for node in self.nodes}`, then count the lookups.",
            javascript: "Start from every member at zero, `const counts = new Map([...this.nodes].map((n) => [n, 0]))`, then count the lookups.",
            rust: "Start from every member at zero, `let mut counts: BTreeMap<String, usize> = self.nodes.iter().map(|n| (n.clone(), 0)).collect();`, then count the lookups.",
            words: "Start with every member at a count of zero, then count the lookups.",
        },
        forms: &[""],
        tweak: |k, _| k.load_owners_only = true,
    },
    FLOAT_MULTIPLY,
    UTF16_UNITS,
    CODE_POINTS,
    SIGNED_BYTES,
    FNV1,
    MISSING_FINALIZER,
    FLOAT_FINALIZER,
    FLOAT_LOOP,
    REMOVE_ABSENT_RAISES,
    ABSENT_REMOVES_LAST,
    stale_after_change(&["answers cached per key"], |k, _| k.stale = Stale::Cached),
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring as a learner's code keeps it, the oracle: each point
    /// inserted in its place, one at a time.
    fn one_at_a_time(entries: &mut Vec<(u32, String)>, points: Vec<(u32, String)>) {
        for entry in points {
            let at = entries.partition_point(|e| *e < entry);
            entries.insert(at, entry);
        }
    }

    fn ring(knobs: Knobs, k: usize) -> WrongRing {
        WrongRing {
            k,
            nodes: Vec::new(),
            entries: Vec::new(),
            cache: HashMap::new(),
            knobs,
        }
    }

    /// Every variant that places points by sorting (not by position):
    /// the ring built at once, and nodes added to it (one of them again),
    /// are the ring its points inserted one at a time make; and removing
    /// a node as the skipping loop does skips what that loop skips.
    #[test]
    fn rings_built_merged_and_skipped_are_the_ones_a_point_at_a_time_makes() {
        let given = ["a", "b", "node-1", "1-edon", "c", "a"];
        let added = ["d", "b", "node-1"];
        let mut checked = 0;
        for made in VNODE_RING.each() {
            let knobs = VNODE_RING.knobs(&[made]);
            if knobs.by_position {
                continue;
            }
            let again = knobs.list && !knobs.listed_once;
            // One point per node, a few, and many. Equal entries come only
            // from a node placed again, and are the same entry: the order
            // of (position, name) is total, so the sorted ring is one.
            for k in [1, 3, 40] {
                let mut oracle = ring(knobs, k);
                for n in given {
                    if oracle.member(n, again) {
                        let points = oracle.points(n);
                        one_at_a_time(&mut oracle.entries, points);
                    }
                }
                let args = [
                    Arg::Names(given.map(str::to_owned).to_vec()),
                    Arg::Count(k as u64),
                ];
                let built = build_ring(&args, knobs);
                assert_eq!(built.entries, oracle.entries, "{} k={k}", made.mistake.id);

                let mut merged = built;
                for n in added {
                    merged.add(n, again);
                    if oracle.member(n, again) {
                        let points = oracle.points(n);
                        one_at_a_time(&mut oracle.entries, points);
                    }
                    assert_eq!(merged.entries, oracle.entries, "{} +{n}", made.mistake.id);
                }

                // The learner's loop: remove at i, then step past it.
                let mut skipped = oracle.entries.clone();
                let mut i = 0;
                while i < skipped.len() {
                    if skipped[i].1 == "a" {
                        skipped.remove(i);
                    }
                    i += 1;
                }
                let mut skipping = merged.clone();
                skipping.knobs.removal = Removal::SkipsNext;
                skipping.remove("a");
                assert_eq!(skipping.entries, skipped, "{} k={k}", made.mistake.id);
                checked += 1;
            }
        }
        assert!(checked > 30, "{checked}");
    }
}
