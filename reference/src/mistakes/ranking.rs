//! Mistakes of the ranking challenges, `hrw-top` and `weighted-hrw`: a
//! ranker with one thing wrong.

use super::catalogue::{Catalogue, Mistake, Variant};
use super::knobs::{Cut, Knobs, Order, Precision, Rule, Stale, Ties, Unit};
use super::shared::{
    ABSENT_REMOVES_LAST, BOOLEAN_COMPARATOR, CODE_POINTS, DUPLICATE_MEMBERSHIP, FLOAT_FINALIZER,
    FLOAT_LOOP, FLOAT_MULTIPLY, FNV1, MISSING_FINALIZER, REMOVE_ABSENT_RAISES, SIGNED_BYTES,
    SIGNED_COMPARISON, TOP_ZERO_RETURNS_ALL, UTF16_UNITS, stale_after_change,
};
use crate::operation::{Arg, Op};
use crate::text::Text;
use serde_json::Value;
use std::collections::HashMap;

/// A ranker with the choices of its [`Knobs`].
#[derive(Debug, Clone)]
struct WrongRanker {
    /// The names, a set, in insertion order (a dict's, a Map's).
    nodes: Vec<String>,
    /// The names whose texts are hashed and the weights, beside `nodes`:
    /// the same, but for [`Stale::HashesBeside`] and
    /// [`Stale::WeightsBeside`], for which `remove` leaves them as they
    /// were.
    hashed: Vec<String>,
    weights: Vec<f64>,
    /// Rankings remembered, with [`Stale::Cached`].
    cache: HashMap<String, Vec<String>>,
    knobs: Knobs,
}

fn build(args: &[Arg], knobs: Knobs) -> Box<dyn Variant> {
    let mut r = WrongRanker {
        nodes: Vec::new(),
        hashed: Vec::new(),
        weights: Vec::new(),
        cache: HashMap::new(),
        knobs,
    };
    match args {
        [Arg::Names(names)] => names.iter().for_each(|n| r.set(n, 1.0, knobs.listed_once)),
        [Arg::WeightedNames(pairs)] => pairs
            .iter()
            .for_each(|(n, w)| r.set(n, *w, knobs.listed_once)),
        _ => {}
    }
    Box::new(r)
}

impl WrongRanker {
    /// Adds `node`, or sets its weight when it is there and kept `once`
    /// (always, but in a list: see [`Knobs::list`]).
    fn set(&mut self, node: &str, weight: f64, once: bool) {
        let present = self.nodes.iter().position(|n| n == node);
        match present.filter(|_| once || !self.knobs.list) {
            Some(at) => self.weights[at] = weight,
            None => {
                self.nodes.push(node.to_owned());
                self.hashed.push(node.to_owned());
                self.weights.push(weight);
            }
        }
    }

    fn remove_at(&mut self, at: usize) {
        self.nodes.remove(at);
        if self.knobs.stale != Stale::HashesBeside {
            self.hashed.remove(at);
        }
        if self.knobs.stale != Stale::WeightsBeside {
            self.weights.remove(at);
        }
    }

    /// The first `first` of `key`'s ranking (fewer when there are fewer
    /// nodes). With [`Stale::Cached`], the whole ranking is what is
    /// remembered, and so what is made.
    fn ranking(&mut self, key: &str, first: usize) -> Vec<String> {
        let all: Vec<usize> = (0..self.nodes.len()).collect();
        if self.knobs.stale == Stale::Cached && !self.cache.contains_key(key) {
            let whole = self.ranked_of(key, &all, usize::MAX);
            self.cache.insert(key.to_owned(), whole);
        }
        match self.cache.get(key) {
            Some(whole) => whole[..first.min(whole.len())].to_vec(),
            None => self.ranked_of(key, &all, first),
        }
    }

    /// The score of the node at `i` for `key`, by the variant's rule.
    fn score(&self, i: usize, key: &str) -> f64 {
        let k = &self.knobs;
        let h = k.hash.of(&k.text(&self.hashed[i], key));
        let weight = self.weights[i];
        match k.rule {
            Rule::Plain if k.signed => f64::from(h as i32),
            Rule::Plain => f64::from(h),
            Rule::Log => k.precision.score(k.unit, h, weight),
            Rule::Times => f64::from(h) * weight,
            Rule::Over => f64::from(h) / weight,
        }
    }

    /// The first `first` of the ranking of the nodes at `among`, in the
    /// order they are kept. The audit and the diagnosis replay every
    /// variant over whole suites, thousand-node cases among them: only
    /// the `first` are ordered, and only their names copied.
    fn ranked_of(&self, key: &str, among: &[usize], first: usize) -> Vec<String> {
        let k = &self.knobs;
        if k.unsorted {
            // Sorted by a boolean comparator: nothing moves.
            return among
                .iter()
                .take(first)
                .map(|&i| self.nodes[i].clone())
                .collect();
        }
        let mut scored: Vec<(f64, &str, usize)> = among
            .iter()
            .enumerate()
            .map(|(at, &i)| (self.score(i, key), self.nodes[i].as_str(), at))
            .collect();
        let order = |a: &(f64, &str, usize), b: &(f64, &str, usize)| {
            let by_score = match k.order {
                Order::Lowest => a.0.total_cmp(&b.0),
                Order::Highest => b.0.total_cmp(&a.0),
            };
            // The learner's sort is stable: a sort by score alone keeps
            // tied nodes in the order `among` lists them (the order they
            // were added, or by name for `Cut::SmallestNames`). The
            // position in `among` last makes this order total, so an
            // unstable selection and sort give the stable sort's answer.
            by_score
                .then_with(|| match k.ties {
                    Ties::LargerName => b.1.cmp(a.1),
                    Ties::FirstSeen => std::cmp::Ordering::Equal,
                    Ties::SmallerName | Ties::LastSeen => a.1.cmp(b.1),
                })
                .then_with(|| a.2.cmp(&b.2))
        };
        if first < scored.len() {
            if first == 0 {
                return Vec::new();
            }
            scored.select_nth_unstable_by(first - 1, order);
            scored.truncate(first);
        }
        scored.sort_unstable_by(order);
        scored.into_iter().map(|(_, n, _)| n.to_owned()).collect()
    }
}

impl Variant for WrongRanker {
    fn apply(&mut self, op: &Op) -> Result<Value, String> {
        let name = op.name_at(0);
        match op.name() {
            "route" => Ok(self
                .ranking(name, 1)
                .into_iter()
                .next()
                .map_or(Value::Null, Value::from)),
            "top" => {
                let n = match usize::try_from(op.count_at(1)).unwrap_or(usize::MAX) {
                    0 if self.knobs.top_zero_all => usize::MAX,
                    n => n,
                };
                if self.knobs.top_raises_past_count && n > self.nodes.len() {
                    return Err(format!("top({n}) with {} nodes", self.nodes.len()));
                }
                // Each answers n at most.
                let ranking = match self.knobs.cut {
                    Cut::Whole => self.ranking(name, n),
                    Cut::FirstAdded => {
                        let first: Vec<usize> = (0..n.min(self.nodes.len())).collect();
                        self.ranked_of(name, &first, n)
                    }
                    Cut::SmallestNames => {
                        let mut by_name: Vec<usize> = (0..self.nodes.len()).collect();
                        by_name.sort_by(|&a, &b| self.nodes[a].cmp(&self.nodes[b]));
                        by_name.truncate(n);
                        self.ranked_of(name, &by_name, n)
                    }
                };
                Ok(Value::from(ranking))
            }
            "add" => {
                let present = self.nodes.iter().any(|n| n == name);
                let weight = if op.operands.len() > 1 {
                    op.weight_at(1)
                } else {
                    1.0
                };
                if !(present && self.knobs.add_keeps_weight) {
                    self.set(name, weight, self.knobs.added_once);
                }
                Ok(Value::Null)
            }
            "remove" => {
                match self.nodes.iter().position(|n| n == name) {
                    Some(at) => self.remove_at(at),
                    None if self.knobs.raise_on_absent => {
                        return Err(format!("{name} is not a node"));
                    }
                    None if self.knobs.absent_removes_last && !self.nodes.is_empty() => {
                        self.remove_at(self.nodes.len() - 1);
                    }
                    None => {}
                }
                Ok(Value::Null)
            }
            other => Err(format!("no operation {other}")),
        }
    }
}

/// Texts learners hash instead of key + "|" + node.
/// As (key first, separator).
const WRONG_TEXTS: [(bool, &str); 3] = [(false, ":"), (true, ":"), (true, "")];

/// The hrw-top mistakes.
pub(crate) static HRW_TOP: Catalogue = Catalogue {
    mistakes: &HRW_TOP_MISTAKES,
    base: Knobs::right(true, "|", Rule::Plain),
    build,
};

/// How to rank by descending score, then ascending name, in each
/// language.
const BY_SCORE_THEN_NAME: Text = Text::Each {
    python: "Sort by (descending score, ascending name): `sorted(nodes, key=lambda n: (-score(n), n))`, not `reverse=True` on (score, name).",
    javascript: "Sort by descending score, then ascending name: `(a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)`, with no `reverse()` after.",
    rust: "Sort by descending score, then ascending name: `sort_by(|a, b| b.score.total_cmp(&a.score).then_with(|| a.name.cmp(&b.name)))` (`b.score.cmp(&a.score)` for u32 scores).",
    words: "Rank by descending score, then by ascending name: the smaller name first among equal scores.",
};

/// How to hash key + "|" + node, in each language.
const KEY_BAR_NODE: Text = Text::Each {
    python: "Hash `f\"{key}|{node}\"`: the key, a vertical bar, then the node.",
    javascript: "Hash `` `${key}|${node}` ``: the key, a vertical bar, then the node.",
    rust: "Hash `format!(\"{key}|{node}\")`: the key, a vertical bar, then the node.",
    words: "Hash the key, a vertical bar, then the node's name.",
};

/// Ties left in the order nodes were added (a ranking).
const TIES_IN_INSERTION_ORDER: Mistake = Mistake {
    id: "ties-in-insertion-order",
    title: "sorts by score alone, so tied nodes keep the order they were added in",
    explanation: Text::Each {
        python: "Your ranking sorts by score only (`sorted(..., key=score, reverse=True)`). The sort is stable, so two nodes with equal scores stay in the order they were added; they must be ranked by name, the smaller first.",
        javascript: "Your ranking sorts by score only (`sort((a, b) => b.score - a.score)`). The sort is stable, so two nodes with equal scores stay in the order they were added; they must be ranked by name, the smaller first.",
        rust: "Your ranking sorts by score only (`sort_by(|a, b| b.score.cmp(&a.score))`, or `sort_by_key` on the score). The sort is stable, so two nodes with equal scores stay in the order they were added; they must be ranked by name, the smaller first.",
        words: "Your ranking sorts by score only. The sort is stable, so two nodes with equal scores stay in the order they were added; they must be ranked by name, the smaller first.",
    },
    hint: BY_SCORE_THEN_NAME,
    forms: &[""],
    tweak: |k, _| k.ties = Ties::FirstSeen,
};

/// Which n nodes learners rank for top(key, n) instead of all of them.
const CUT_FORMS: [&str; 2] = ["the first n added", "the n smallest names"];
const CUTS: [Cut; 2] = [Cut::FirstAdded, Cut::SmallestNames];

/// `top(key, n)` ranking n nodes taken before the ranking (hrw-top and
/// weighted-hrw).
const TOP_CUTS_BEFORE_RANKING: Mistake = Mistake {
    id: "top-cuts-before-ranking",
    title: "top(key, n) ranks only n of the nodes, taken before the ranking",
    explanation: Text::Each {
        python: "top(key, n) ranks every node and returns the first n of that ranking. Your code takes n nodes first (`self.nodes[:n]`, or the first n of `sorted(self.nodes)`: the form says which) and ranks only those, so a node outside them never makes the list, however high it scores.",
        javascript: "top(key, n) ranks every node and returns the first n of that ranking. Your code takes n nodes first (`[...this.nodes].slice(0, n)`, or the first n names in sorted order: the form says which) and ranks only those, so a node outside them never makes the list, however high it scores.",
        rust: "top(key, n) ranks every node and returns the first n of that ranking. Your code takes n nodes first (`self.nodes.iter().take(n)`, the first n added, or over a `BTreeMap` the n smallest names: the form says which) and ranks only those, so a node outside them never makes the list, however high it scores.",
        words: "top(key, n) ranks every node and returns the first n of that ranking. Your code takes n nodes first (the first n added, or the n smallest names: the form says which) and ranks only those, so a node outside them never makes the list, however high it scores.",
    },
    hint: Text::Each {
        python: "Rank all the nodes, then cut: `sorted(self.nodes, key=lambda n: (-score(n), n))[:n]`.",
        javascript: "Rank all the nodes, then cut: sort every node by score, then `.slice(0, n)`.",
        rust: "Rank all the nodes, then cut: sort every node by score, then `.take(n)`.",
        words: "Rank all the nodes by score first, then take the first n of that ranking.",
    },
    forms: &CUT_FORMS,
    tweak: |k, form| k.cut = CUTS[form],
};

static HRW_TOP_MISTAKES: [Mistake; 22] = [
    Mistake {
        id: "ascending-order",
        title: "ranks nodes from the lowest score up",
        explanation: Text::Plain(
            "Your ranking puts the smallest h32(key + \"|\" + node) first; the replica list starts with the highest score, and route is its first name.",
        ),
        hint: BY_SCORE_THEN_NAME,
        forms: &[""],
        tweak: |k, _| k.order = Order::Lowest,
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "breaks ties the wrong way (larger name first)",
        explanation: Text::Plain(
            "When two nodes have the same score, your ranking puts the larger name first; the smaller name must come first.",
        ),
        hint: BY_SCORE_THEN_NAME,
        forms: &[""],
        tweak: |k, _| k.ties = Ties::LargerName,
    },
    Mistake {
        id: "wrong-text",
        title: "hashes another text than key + \"|\" + node",
        explanation: Text::Plain(
            "hrw-top scores h32(key + \"|\" + node): the key first, a vertical bar, then the node. Your ranking hashes something else (rendezvous-router's node + \":\" + key is the usual one).",
        ),
        hint: KEY_BAR_NODE,
        forms: &["node + \":\" + key", "key + \":\" + node", "key + node"],
        tweak: |k, form| (k.key_first, k.separator) = WRONG_TEXTS[form],
    },
    Mistake {
        id: "node-key-order",
        title: "hashes node + \"|\" + key instead of key + \"|\" + node",
        explanation: Text::Plain(
            "hrw-top puts the key first: h32(key + \"|\" + node). Your ranking hashes the node's name first, as rendezvous-router does with its own separator.",
        ),
        hint: KEY_BAR_NODE,
        forms: &[""],
        tweak: |k, _| k.key_first = false,
    },
    Mistake {
        id: "top-fails-past-count",
        title: "fails when n is larger than the number of nodes",
        explanation: Text::Each {
            python: "top(key, n) with n above the node count must return every node, ranked; your code fails instead (reading `ranked[i]` for every i below n, say).",
            javascript: "top(key, n) with n above the node count must return every node, ranked; your code fails instead (reading a name of `ranked[i]` for every i below n, say).",
            rust: "top(key, n) with n above the node count must return every node, ranked; your code fails instead (slicing `ranked[..n]` past the end, say).",
            words: "top(key, n) with n above the node count must return every node, ranked; your code fails instead.",
        },
        hint: Text::Each {
            python: "Take at most n names: `ranked[:n]` stops at the end.",
            javascript: "Take at most n names: `ranked.slice(0, n)` stops at the end.",
            rust: "Take at most n names: `ranked.iter().take(n)` stops at the end, where `ranked[..n]` panics.",
            words: "Take at most n names: stop at the end of the ranking.",
        },
        forms: &[""],
        tweak: |k, _| k.top_raises_past_count = true,
    },
    TOP_ZERO_RETURNS_ALL,
    SIGNED_COMPARISON,
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
    BOOLEAN_COMPARATOR,
    stale_after_change(&["answers cached per key"], |k, _| k.stale = Stale::Cached),
    TIES_IN_INSERTION_ORDER,
    DUPLICATE_MEMBERSHIP,
    TOP_CUTS_BEFORE_RANKING,
];

/// How a weighted ranker's answers stay as they were before a change.
const WEIGHTED_STALE_FORMS: [&str; 3] = [
    "answers cached per key",
    "hash states in a list beside the names",
    "weights in a list beside the names",
];
const WEIGHTED_STALE: [Stale; 3] = [Stale::Cached, Stale::HashesBeside, Stale::WeightsBeside];

/// The U learners make instead of (h32 + 0.5) / 2^32.
const UNIT_FORMS: [&str; 2] = ["h32 / 2^32", "h32 / (2^32 - 1) or (h32 + 1) / 2^32"];
const UNITS: [Unit; 2] = [Unit::Floor, Unit::OverMax];

/// The weighted-hrw mistakes.
pub(crate) static WEIGHTED_HRW: Catalogue = Catalogue {
    mistakes: &WEIGHTED_HRW_MISTAKES,
    base: Knobs::right(false, ":", Rule::Log),
    build,
};

/// How to score a weighted node, in each language.
const WEIGHTED_SCORE: Text = Text::Each {
    python: "Score `weight / -math.log(u)` with `u = (h32(f\"{node}:{key}\") + 0.5) / 2**32`.",
    javascript: "Score `weight / -Math.log(u)` with `u = (h32(node + \":\" + key) + 0.5) / 2 ** 32`.",
    rust: "Score `weight / -u.ln()` with `u = (f64::from(h32(&format!(\"{node}:{key}\"))) + 0.5) / 4294967296.0`.",
    words: "Score weight / -ln(U) with U = (h32(node + \":\" + key) + 0.5) / 2^32, the natural logarithm.",
};

/// What learners compute in single precision.
const PRECISION_FORMS: [&str; 2] = [
    "U in single precision",
    "U, the logarithm and the score in single precision",
];
const PRECISIONS: [Precision; 2] = [Precision::UnitSingle, Precision::Single];

static WEIGHTED_HRW_MISTAKES: [Mistake; 22] = [
    Mistake {
        id: "h32-times-weight",
        title: "scores h32 * weight instead of weight / -ln(U)",
        explanation: Text::Plain(
            "Multiplying the hash by the weight does not make shares proportional: a node of weight 2 beats a node of weight 1 far more than twice as often. The score is weight / -ln(U) with U = (h32 + 0.5) / 2^32.",
        ),
        hint: WEIGHTED_SCORE,
        forms: &[""],
        tweak: |k, _| k.rule = Rule::Times,
    },
    Mistake {
        id: "h32-over-weight",
        title: "scores h32 / weight, which starves heavy nodes",
        explanation: Text::Plain(
            "Dividing the hash by the weight makes heavier nodes score lower, so they get fewer keys, not more. The score is weight / -ln(U) with U = (h32 + 0.5) / 2^32.",
        ),
        hint: WEIGHTED_SCORE,
        forms: &[""],
        tweak: |k, _| k.rule = Rule::Over,
    },
    Mistake {
        id: "weights-ignored",
        title: "ignores the weights",
        explanation: Text::Plain(
            "Your router ranks by the hash alone, so every node gets the same share whatever its weight.",
        ),
        hint: WEIGHTED_SCORE,
        forms: &[""],
        tweak: |k, _| k.rule = Rule::Plain,
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "ties go to the larger name",
        explanation: Text::Plain(
            "Two nodes of one weight whose h32 values are equal have equal scores; the smaller name must win (and rank first). Your code picks the larger one, as taking the largest (score, name) pair does.",
        ),
        hint: BY_SCORE_THEN_NAME,
        forms: &[""],
        tweak: |k, _| k.ties = Ties::LargerName,
    },
    Mistake {
        id: "add-keeps-old-weight",
        title: "adding a present node does not change its weight",
        explanation: Text::Plain(
            "add(node, weight) on a node already there must set its new weight; your router keeps the old one.",
        ),
        hint: Text::Each {
            python: "Store the weight whether or not the node is present: `weights[node] = weight`.",
            javascript: "Store the weight whether or not the node is present: `weights.set(node, weight)`.",
            rust: "Store the weight whether or not the node is present: `weights.insert(node.to_string(), weight)`.",
            words: "Store the new weight whether or not the node is present.",
        },
        forms: &[""],
        tweak: |k, _| k.add_keeps_weight = true,
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
    BOOLEAN_COMPARATOR,
    TOP_ZERO_RETURNS_ALL,
    stale_after_change(&WEIGHTED_STALE_FORMS, |k, form| {
        k.stale = WEIGHTED_STALE[form];
    }),
    Mistake {
        id: "wrong-unit-interval",
        title: "makes U from h32 another way than (h32 + 0.5) / 2^32",
        explanation: Text::Plain(
            "The score is weight / -ln(U) with U = (h32 + 0.5) / 2^32, which is never 0 nor 1. Your U differs by a hair, which changes nothing for most hashes, but near the ends -ln(U) is tiny (U near 1) or infinite (U = 0): there a node's score is far off, infinite or zero, and it wins or loses keys it should not.",
        ),
        hint: Text::Each {
            python: "Compute `u = (h32(f\"{node}:{key}\") + 0.5) / 2**32` exactly (4294967296, not 4294967295), then `weight / -math.log(u)`.",
            javascript: "Compute `u = (h32(node + \":\" + key) + 0.5) / 2 ** 32` exactly (4294967296, not 4294967295), then `weight / -Math.log(u)`.",
            rust: "Compute `u = (f64::from(h32(&format!(\"{node}:{key}\"))) + 0.5) / 4294967296.0` exactly (not 4294967295.0), then `weight / -u.ln()`.",
            words: "Compute U = (h32(node + \":\" + key) + 0.5) / 2^32 exactly (4294967296, not 4294967295), then weight / -ln(U).",
        },
        forms: &UNIT_FORMS,
        tweak: |k, form| k.unit = UNITS[form],
    },
    TIES_IN_INSERTION_ORDER,
    TOP_CUTS_BEFORE_RANKING,
    Mistake {
        id: "single-precision",
        title: "computes U in single precision, which cannot hold it",
        explanation: Text::Each {
            python: "(h32 + 0.5) / 2^32 is right as written, but a single-precision float (`numpy.float32`, or a value packed as a C float) keeps 24 bits: from h32 = 2^32 - 128 up, U rounds to 1.0, -ln(U) to -0.0, and the node that should score highest of all scores minus infinity (or divides by zero). Elsewhere the rounding moves scores by about one part in ten million, enough to swap two close ones. The form says what is single: U alone, or the logarithm and the score too.",
            javascript: "(h32 + 0.5) / 2^32 is right as written, but `Math.fround` rounds it to single precision, 24 bits: from h32 = 2^32 - 128 up, U rounds to 1, `-Math.log(u)` is -0, and the node that should score highest of all scores `-Infinity`. Elsewhere the rounding moves scores by about one part in ten million, enough to swap two close ones. The form says what is single: U alone, or the logarithm and the score too.",
            rust: "(h32 + 0.5) / 2^32 is right as written, but an `f32` keeps 24 bits: from h32 = 2^32 - 128 up, `h as f32` rounds to 4294967296.0, U to 1.0 and `-u.ln()` to -0.0, and the node that should score highest of all scores minus infinity. Elsewhere the rounding moves scores by about one part in ten million, enough to swap two close ones. The form says what is `f32`: U alone, or the logarithm and the score too.",
            words: "(h32 + 0.5) / 2^32 is right as written, but single precision keeps 24 bits: from h32 = 2^32 - 128 up, U rounds to 1, -ln(U) to -0, and the node that should score highest of all scores minus infinity. Elsewhere the rounding moves scores by about one part in ten million, enough to swap two close ones. The form says what is single: U alone, or the logarithm and the score too.",
        },
        hint: Text::Each {
            python: "Compute with Python's own floats, which are double precision: `u = (h + 0.5) / 2**32`, then `weight / -math.log(u)`; no `numpy.float32`, no packing to a C float.",
            javascript: "Drop `Math.fround`: numbers are double precision as they are, `u = (h + 0.5) / 2 ** 32`, then `weight / -Math.log(u)`.",
            rust: "Compute in `f64`: `let u = (f64::from(h) + 0.5) / 4294967296.0;`, then `weight / -u.ln()` with an `f64` weight; no `f32` anywhere.",
            words: "Compute U, the logarithm and the score in double precision (64-bit floating point): single precision cannot hold (h32 + 0.5) / 2^32.",
        },
        forms: &PRECISION_FORMS,
        tweak: |k, form| k.precision = PRECISIONS[form],
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// The ranking as the learner's code makes it, the oracle: every node
    /// scored (by the variant's own rule, which this does not test), a
    /// stable sort by score (and name, but for first-seen ties), every
    /// name copied.
    fn stable_sorted(r: &WrongRanker, key: &str, among: &[usize]) -> Vec<String> {
        let k = &r.knobs;
        if k.unsorted {
            return among.iter().map(|&i| r.nodes[i].clone()).collect();
        }
        let mut scored: Vec<(f64, &str)> = among
            .iter()
            .map(|&i| (r.score(i, key), r.nodes[i].as_str()))
            .collect();
        scored.sort_by(|a, b| {
            let by_score = match k.order {
                Order::Lowest => a.0.total_cmp(&b.0),
                Order::Highest => b.0.total_cmp(&a.0),
            };
            let by_name = match k.ties {
                Ties::LargerName => b.1.cmp(a.1),
                Ties::FirstSeen => std::cmp::Ordering::Equal,
                Ties::SmallerName | Ties::LastSeen => a.1.cmp(b.1),
            };
            by_score.then(by_name)
        });
        scored.into_iter().map(|(_, n)| n.to_owned()).collect()
    }

    /// Three hundred nodes and, spread among them, pairs of distinct names
    /// that tie on `key` under the pinned hash: FNV leaves each pair in
    /// one state, after nothing (weighted-hrw hashes the node first, so
    /// they tie on every key) or after `key|` (hrw-top hashes the key
    /// first). The larger of a pair is added first, so that first-seen
    /// order and name order part; one name is there twice, as a list
    /// keeps it.
    fn tied_nodes(key: &str) -> Vec<String> {
        let mut nodes: Vec<String> = (0..300).map(|i| format!("n-{i}")).collect();
        let after_key = format!("{key}|");
        for (i, context) in ["", "", "", &after_key, &after_key, &after_key]
            .into_iter()
            .enumerate()
        {
            let (smaller, larger) = crate::hash::fnv_collision_after(context, &format!("t{i}-"), 0);
            nodes.insert(40 * i + 7, larger);
            nodes.insert(40 * i + 29, smaller);
        }
        nodes.push("n-3".to_owned());
        nodes
    }

    /// Every variant of both ranking challenges, on [`tied_nodes`] with
    /// weights that tie too (and some that do not): the first n selected
    /// are the stable sort's first n, for n at the ends and in the middle,
    /// of every node and of a part of them. Enough nodes that the
    /// selection and the sort take their general paths, not the insertion
    /// sort of a few elements, which keeps equal ones in order anyway.
    #[test]
    fn the_first_n_selected_are_the_first_n_of_the_stable_sort() {
        let key = "k";
        let nodes = tied_nodes(key);
        let weights: Vec<f64> = (0..nodes.len())
            .map(|i| {
                if i % 17 == 5 {
                    0.5 + i as f64 / 100.0
                } else {
                    1.0
                }
            })
            .collect();
        let all: Vec<usize> = (0..nodes.len()).collect();
        let part: Vec<usize> = all.iter().copied().filter(|i| i % 3 != 1).rev().collect();
        let mut checked = 0;
        for catalogue in [&HRW_TOP, &WEIGHTED_HRW] {
            for made in catalogue.each() {
                let r = WrongRanker {
                    nodes: nodes.clone(),
                    hashed: nodes.clone(),
                    weights: weights.clone(),
                    cache: HashMap::new(),
                    knobs: catalogue.knobs(&[made]),
                };
                for among in [&all[..], &part[..]] {
                    let whole = stable_sorted(&r, key, among);
                    let len = among.len();
                    for first in [0, 1, 2, 3, 7, 16, 21, 50, len / 2, len - 1, len, len + 1] {
                        let want = &whole[..first.min(whole.len())];
                        assert_eq!(
                            r.ranked_of(key, among, first),
                            want,
                            "{} {:?}, first {first} of {len}",
                            made.mistake.id,
                            made.form_label()
                        );
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 1000, "{checked}");
    }

    fn op(signature: &'static crate::operation::Signature, operands: Vec<Arg>) -> Op {
        Op {
            signature,
            operands,
        }
    }

    /// Through `apply`, as a replay runs a case: a route, then tops of
    /// several sizes of the same key, which a ranking remembered whole
    /// ([`Stale::Cached`]) must answer as every other variant does. Every
    /// variant that ranks all the nodes and raises for no n.
    #[test]
    fn routes_then_tops_of_one_key_are_the_stable_sorts_first_n_cached_or_not() {
        use crate::operation::{ROUTE, TOP};
        let key = "k";
        let nodes = tied_nodes(key);
        let mut checked = 0;
        for catalogue in [&HRW_TOP, &WEIGHTED_HRW] {
            for made in catalogue.each() {
                let knobs = catalogue.knobs(&[made]);
                if knobs.cut != Cut::Whole || knobs.top_raises_past_count {
                    continue;
                }
                // The members as `build` keeps them (a name given twice
                // once, but in a list).
                let mut fresh = WrongRanker {
                    nodes: Vec::new(),
                    hashed: Vec::new(),
                    weights: Vec::new(),
                    cache: HashMap::new(),
                    knobs,
                };
                nodes
                    .iter()
                    .for_each(|n| fresh.set(n, 1.0, knobs.listed_once));
                let all: Vec<usize> = (0..fresh.nodes.len()).collect();
                let whole = stable_sorted(&fresh, key, &all);
                let mut variant = build(&[Arg::Names(nodes.clone())], knobs);
                let route = variant.apply(&op(&ROUTE, vec![Arg::Name(key.into())]));
                assert_eq!(
                    route,
                    Ok(Value::from(whole[0].clone())),
                    "{}",
                    made.mistake.id
                );
                for n in [3, 1, 40, nodes.len() as u64 + 5] {
                    let top = variant.apply(&op(&TOP, vec![Arg::Name(key.into()), Arg::Count(n)]));
                    let want = &whole[..whole.len().min(n as usize)];
                    assert_eq!(
                        top,
                        Ok(Value::from(want.to_vec())),
                        "{} top {n}",
                        made.mistake.id
                    );
                    checked += 1;
                }
            }
        }
        assert!(checked > 20, "{checked}");
    }
}
