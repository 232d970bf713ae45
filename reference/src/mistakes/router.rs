//! Mistakes of `rendezvous-router`: a router with one thing (or two)
//! wrong.

use super::catalogue::{Catalogue, Mistake, Variant};
use super::knobs::{Knobs, Order, Rule, Stale, Ties};
use super::shared::{
    ABSENT_REMOVES_LAST, BOOLEAN_COMPARATOR, CODE_POINTS, DUPLICATE_MEMBERSHIP, FLOAT_FINALIZER,
    FLOAT_LOOP, FLOAT_MULTIPLY, FNV1, MISSING_FINALIZER, REMOVE_ABSENT_RAISES, SIGNED_BYTES,
    SIGNED_COMPARISON, UTF16_UNITS, stale_after_change,
};
use crate::operation::{Arg, Op};
use crate::text::Text;
use serde_json::Value;
use std::collections::HashMap;

/// A rendezvous router with the choices of its [`Knobs`].
#[derive(Debug, Clone)]
struct WrongRouter {
    /// In insertion order (duplicates only with `list`).
    nodes: Vec<String>,
    /// The names whose texts are hashed, beside `nodes`: the same list,
    /// but for [`Stale::HashesBeside`], which `remove` leaves as it was.
    hashed: Vec<String>,
    /// Answers remembered, with [`Stale::Cached`].
    cache: HashMap<String, Option<String>>,
    knobs: Knobs,
}

fn build(args: &[Arg], knobs: Knobs) -> Box<dyn Variant> {
    let mut nodes = match args {
        [Arg::Names(names)] => names.clone(),
        _ => Vec::new(),
    };
    if !knobs.list || knobs.listed_once {
        let mut seen = Vec::new();
        nodes.retain(|n| {
            let first = !seen.contains(n);
            seen.push(n.clone());
            first
        });
    }
    Box::new(WrongRouter {
        hashed: nodes.clone(),
        nodes,
        cache: HashMap::new(),
        knobs,
    })
}

impl WrongRouter {
    fn score(&self, hashed: &str, key: &str) -> i64 {
        let h = self.knobs.hash.of(&self.knobs.text(hashed, key));
        if self.knobs.signed {
            i64::from(h as i32)
        } else {
            i64::from(h)
        }
    }

    fn route(&mut self, key: &str) -> Option<String> {
        if let Some(answer) = self.cache.get(key) {
            return answer.clone();
        }
        let answer = self.best(key);
        if self.knobs.stale == Stale::Cached {
            self.cache.insert(key.to_owned(), answer.clone());
        }
        answer
    }

    fn best(&self, key: &str) -> Option<String> {
        if self.knobs.unsorted {
            // Sorted by a boolean comparator: the first node stays first.
            return self.nodes.first().cloned();
        }
        let mut best: Option<(&String, i64)> = None;
        for (node, hashed) in self.nodes.iter().zip(&self.hashed) {
            let score = self.score(hashed, key);
            let better = match best {
                None => true,
                Some((b, s)) if score == s => match self.knobs.ties {
                    Ties::SmallerName => node < b,
                    Ties::LargerName => node > b,
                    Ties::FirstSeen => false,
                    Ties::LastSeen => true,
                },
                Some((_, s)) => match self.knobs.order {
                    Order::Highest => score > s,
                    Order::Lowest => score < s,
                },
            };
            if better {
                best = Some((node, score));
            }
        }
        best.map(|(n, _)| n.clone())
    }

    fn remove_at(&mut self, at: usize) {
        self.nodes.remove(at);
        if self.knobs.stale != Stale::HashesBeside {
            self.hashed.remove(at);
        }
    }
}

impl Variant for WrongRouter {
    fn apply(&mut self, op: &Op) -> Result<Value, String> {
        let name = op.name_at(0);
        match op.name() {
            "route" => Ok(self.route(name).map_or(Value::Null, Value::from)),
            "add" => {
                let twice = self.knobs.list && !self.knobs.added_once;
                if twice || !self.nodes.iter().any(|n| n == name) {
                    self.nodes.push(name.to_owned());
                    self.hashed.push(name.to_owned());
                }
                Ok(Value::Null)
            }
            "remove" => match self.nodes.iter().position(|n| n == name) {
                Some(i) => {
                    self.remove_at(i);
                    Ok(Value::Null)
                }
                None if self.knobs.raise_on_absent => Err(format!("{name} is not a node")),
                None if self.knobs.absent_removes_last && !self.nodes.is_empty() => {
                    self.remove_at(self.nodes.len() - 1);
                    Ok(Value::Null)
                }
                None => Ok(Value::Null),
            },
            other => Err(format!("no operation {other}")),
        }
    }
}

/// Separators learners put between node and key instead of ":".
const WRONG_SEPARATORS: [&str; 10] = ["|", "-", "/", " ", ",", ";", "_", ".", "#", "::"];

/// How a router's answers stay as they were before a change.
const STALE_FORMS: [&str; 2] = [
    "answers cached per key",
    "hash states in a list beside the names",
];
const STALE: [Stale; 2] = [Stale::Cached, Stale::HashesBeside];

/// The rendezvous-router mistakes.
pub(crate) static RENDEZVOUS: Catalogue = Catalogue {
    mistakes: &MISTAKES,
    base: Knobs::right(false, ":", Rule::Plain),
    build,
};

/// How to hash node + ":" + key, in each language.
const NODE_COLON_KEY: Text = Text::Each {
    python: "Hash `f\"{node}:{key}\"`: the node, a colon, then the key.",
    javascript: "Hash `` `${node}:${key}` ``: the node, a colon, then the key.",
    rust: "Hash `format!(\"{node}:{key}\")`: the node, a colon, then the key.",
    words: "Hash the node's name, a colon, then the key.",
};

/// How to keep the smaller name on equal scores, in each language.
const SMALLER_NAME_ON_TIES: Text = Text::Each {
    python: "On equal scores, keep the smaller name: `score > best or (score == best and node < best_node)`, or `min(nodes, key=lambda n: (-score(n), n))`.",
    javascript: "On equal scores, keep the smaller name: `score > best || (score === best && node < bestNode)`.",
    rust: "On equal scores, keep the smaller name: `score > best || (score == best && node < best_node)`, or `max_by(|a, b| score(a).cmp(&score(b)).then(b.cmp(a)))`.",
    words: "On equal scores, keep the smaller name, whatever the order the nodes were added in.",
};

static MISTAKES: [Mistake; 22] = [
    Mistake {
        id: "lowest-score",
        title: "the lowest score wins instead of the highest",
        explanation: Text::Plain(
            "Your router keeps the node with the smallest h32(node + \":\" + key); the rule is the largest.",
        ),
        hint: Text::Plain("Keep the maximum: take the largest score, or flip the comparison."),
        forms: &[""],
        tweak: |k, _| k.order = Order::Lowest,
    },
    Mistake {
        id: "first-maximum",
        title: "ties go to the node seen first, not to the smaller name",
        explanation: Text::Plain(
            "Your router keeps the first maximum it meets, so when two nodes tie the one added earlier wins. Ties must go to the smaller name, whatever the order nodes were added in.",
        ),
        hint: SMALLER_NAME_ON_TIES,
        forms: &[""],
        tweak: |k, _| k.ties = Ties::FirstSeen,
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "ties go to the larger name",
        explanation: Text::Each {
            python: "When two nodes tie, your router picks the larger name; ties must go to the smaller one. `max(nodes, key=lambda n: (score(n), n))` does this: the larger name makes the larger pair.",
            javascript: "When two nodes tie, your router picks the larger name; ties must go to the smaller one (a comparison such as `node > bestNode` on equal scores does this).",
            rust: "When two nodes tie, your router picks the larger name; ties must go to the smaller one. `max_by_key(|n| (score(n), n))` does this: the larger name makes the larger pair.",
            words: "When two nodes tie, your router picks the larger name; ties must go to the smaller one. Taking the largest (score, name) pair does this: the larger name makes the larger pair.",
        },
        hint: SMALLER_NAME_ON_TIES,
        forms: &[""],
        tweak: |k, _| k.ties = Ties::LargerName,
    },
    Mistake {
        id: "last-maximum",
        title: "ties go to the node seen last, not to the smaller name",
        explanation: Text::Each {
            python: "Your router keeps the last maximum it meets (`>=` where `>` belongs), so when two nodes tie the one added later wins. Ties must go to the smaller name, whatever the order nodes were added in.",
            javascript: "Your router keeps the last maximum it meets (`>=` where `>` belongs), so when two nodes tie the one added later wins. Ties must go to the smaller name, whatever the order nodes were added in.",
            rust: "Your router keeps the last maximum it meets (`max_by_key` returns the last of equal maxima), so when two nodes tie the one added later wins. Ties must go to the smaller name, whatever the order nodes were added in.",
            words: "Your router keeps the last maximum it meets, so when two nodes tie the one added later wins. Ties must go to the smaller name, whatever the order nodes were added in.",
        },
        hint: SMALLER_NAME_ON_TIES,
        forms: &[""],
        tweak: |k, _| k.ties = Ties::LastSeen,
    },
    Mistake {
        id: "key-node-swapped",
        title: "hashes key + \":\" + node instead of node + \":\" + key",
        explanation: Text::Plain(
            "Your router scores the text key + \":\" + node; the pinned score hashes the node's name first.",
        ),
        hint: NODE_COLON_KEY,
        forms: &[""],
        tweak: |k, _| k.key_first = true,
    },
    Mistake {
        id: "no-separator",
        title: "hashes node + key with no \":\" between them",
        explanation: Text::Plain(
            "Your router scores node + key; the pinned score puts a colon between them, so \"a\" + \"bc\" and \"ab\" + \"c\" stay apart.",
        ),
        hint: NODE_COLON_KEY,
        forms: &[""],
        tweak: |k, _| k.separator = "",
    },
    Mistake {
        id: "wrong-separator",
        title: "joins node and key with another separator than \":\"",
        explanation: Text::Plain(
            "Your router puts another character between node and key; the pinned score uses a colon.",
        ),
        hint: NODE_COLON_KEY,
        forms: &WRONG_SEPARATORS,
        tweak: |k, form| k.separator = WRONG_SEPARATORS[form],
    },
    SIGNED_COMPARISON,
    FLOAT_MULTIPLY,
    Mistake {
        id: "byte-sum",
        title: "uses a toy hash (the sum of the bytes) instead of h32",
        explanation: Text::Plain(
            "A byte sum gives node + \":\" + key the node's sum plus the key's sum, so the same node wins every key.",
        ),
        hint: Text::Each {
            python: "Implement h32: FNV-1a over the UTF-8 bytes, then the finalizer (the starter has it done).",
            javascript: "Implement h32: FNV-1a over the UTF-8 bytes, then the finalizer (the starter has it done).",
            rust: "Implement h32: FNV-1a over the UTF-8 bytes, then the finalizer (the starter has it done).",
            words: "Implement h32: FNV-1a over the UTF-8 bytes, then the finalizer (the statement gives every step).",
        },
        forms: &[""],
        tweak: |k, _| k.hash.byte_sum = true,
    },
    UTF16_UNITS,
    CODE_POINTS,
    SIGNED_BYTES,
    FNV1,
    MISSING_FINALIZER,
    FLOAT_FINALIZER,
    FLOAT_LOOP,
    DUPLICATE_MEMBERSHIP,
    REMOVE_ABSENT_RAISES,
    ABSENT_REMOVES_LAST,
    BOOLEAN_COMPARATOR,
    stale_after_change(&STALE_FORMS, |k, form| k.stale = STALE[form]),
];
