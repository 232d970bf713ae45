//! Mistakes of the ranking challenges, `hrw-top` and `weighted-hrw`: a
//! ranker with one thing wrong.

use super::{
    FINALIZER_HASHES, Hash, Mistake, Variant, code_points, float_finalizer, float_multiply, fnv1,
    missing_finalizer, signed_bytes, signed_comparison, utf16_units,
};
use crate::model::{Arg, Op};
use crate::ranking::weighted_score;
use serde_json::Value;

/// How a node's h32 becomes the number ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// The h32 itself (hrw-top).
    Plain,
    /// weight / -ln(U): right for weighted-hrw.
    Log,
    /// h32 * weight.
    Times,
    /// h32 / weight.
    Over,
}

/// A ranker with one mistake switched on.
#[derive(Debug, Clone)]
struct WrongRanker {
    /// (name, weight), a set, in name order.
    nodes: Vec<(String, f64)>,
    /// The text hashed: `[first, separator, second]` with "node" and "key"
    /// standing for themselves.
    text: [&'static str; 3],
    rule: Rule,
    hash: Hash,
    /// h32 values compared as signed 32-bit integers.
    signed: bool,
    ascending: bool,
    ties_to_larger: bool,
    top_raises_past_count: bool,
    add_keeps_weight: bool,
}

impl WrongRanker {
    fn new(args: &[Arg], text: [&'static str; 3], rule: Rule) -> WrongRanker {
        let mut r = WrongRanker {
            nodes: Vec::new(),
            text,
            rule,
            hash: Hash::Pinned,
            signed: false,
            ascending: false,
            ties_to_larger: false,
            top_raises_past_count: false,
            add_keeps_weight: false,
        };
        match args {
            [Arg::Names(names)] => names.iter().for_each(|n| r.set(n, 1.0)),
            [Arg::WeightedNames(pairs)] => pairs.iter().for_each(|(n, w)| r.set(n, *w)),
            _ => {}
        }
        r
    }

    fn hrw_top(args: &[Arg]) -> WrongRanker {
        WrongRanker::new(args, ["key", "|", "node"], Rule::Plain)
    }

    fn weighted(args: &[Arg]) -> WrongRanker {
        WrongRanker::new(args, ["node", ":", "key"], Rule::Log)
    }

    fn set(&mut self, node: &str, weight: f64) {
        match self.nodes.binary_search_by(|(n, _)| n.as_str().cmp(node)) {
            Ok(at) => self.nodes[at].1 = weight,
            Err(at) => self.nodes.insert(at, (node.to_owned(), weight)),
        }
    }

    fn ranking(&self, key: &str) -> Vec<&str> {
        let mut scored: Vec<(f64, &str)> = self
            .nodes
            .iter()
            .map(|(node, weight)| {
                let part = |p: &'static str| match p {
                    "node" => node.as_str(),
                    "key" => key,
                    sep => sep,
                };
                let h = self.hash.of(&self.text.map(part));
                let score = match self.rule {
                    Rule::Plain if self.signed => f64::from(h as i32),
                    Rule::Plain => f64::from(h),
                    Rule::Log => weighted_score(h, *weight).score,
                    Rule::Times => f64::from(h) * weight,
                    Rule::Over => f64::from(h) / weight,
                };
                (score, node.as_str())
            })
            .collect();
        scored.sort_by(|a, b| {
            let by_score = if self.ascending {
                a.0.total_cmp(&b.0)
            } else {
                b.0.total_cmp(&a.0)
            };
            let by_name = if self.ties_to_larger {
                b.1.cmp(a.1)
            } else {
                a.1.cmp(b.1)
            };
            by_score.then(by_name)
        });
        scored.into_iter().map(|(_, n)| n).collect()
    }

    fn finish(self) -> Box<dyn Variant> {
        Box::new(self)
    }
}

impl Variant for WrongRanker {
    fn apply(&mut self, op: &Op) -> Result<Value, String> {
        let name = op.name_at(0);
        match op.name() {
            "route" => Ok(self
                .ranking(name)
                .first()
                .map_or(Value::Null, |n| Value::from(*n))),
            "top" => {
                let n = usize::try_from(op.count_at(1)).unwrap_or(usize::MAX);
                if self.top_raises_past_count && n > self.nodes.len() {
                    return Err(format!("top({n}) with {} nodes", self.nodes.len()));
                }
                Ok(Value::from(
                    self.ranking(name)
                        .into_iter()
                        .take(n)
                        .map(str::to_owned)
                        .collect::<Vec<_>>(),
                ))
            }
            "add" => {
                let present = self.nodes.iter().any(|(n, _)| n == name);
                let weight = if op.operands.len() > 1 {
                    op.weight_at(1)
                } else {
                    1.0
                };
                if !(present && self.add_keeps_weight) {
                    self.set(name, weight);
                }
                Ok(Value::Null)
            }
            "remove" => {
                self.nodes.retain(|(n, _)| n != name);
                Ok(Value::Null)
            }
            other => Err(format!("no operation {other}")),
        }
    }
}

/// Texts learners hash instead of key + "|" + node.
const WRONG_TEXTS: [[&str; 3]; 3] = [
    ["node", ":", "key"],
    ["key", ":", "node"],
    ["key", "", "node"],
];

/// The hrw-top mistakes.
pub static HRW_TOP: [Mistake; 13] = [
    Mistake {
        id: "ascending-order",
        title: "ranks nodes from the lowest score up",
        explanation: "Your ranking puts the smallest h32(key + \"|\" + node) first; the replica list starts with the highest score, and route is its first name.",
        hint: "Sort by descending score, then ascending name: in Python `sorted(nodes, key=lambda n: (-score(n), n))`, in JavaScript `(a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)`.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                ascending: true,
                ..WrongRanker::hrw_top(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "breaks ties the wrong way (larger name first)",
        explanation: "When two nodes have the same score, your ranking puts the larger name first; the smaller name must come first.",
        hint: "Sort by (descending score, ascending name): in Python `key=lambda n: (-score(n), n)`, not reverse=True on (score, name); in JavaScript compare names ascending after scores descending, without a final reverse().",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                ties_to_larger: true,
                ..WrongRanker::hrw_top(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "wrong-text",
        title: "hashes another text than key + \"|\" + node",
        explanation: "hrw-top scores h32(key + \"|\" + node): the key first, a vertical bar, then the node. Your ranking hashes something else (rendezvous-router's node + \":\" + key is the usual one).",
        hint: "Hash key + \"|\" + node.",
        forms: &["node + \":\" + key", "key + \":\" + node", "key + node"],
        build: |args, form| {
            WrongRanker {
                text: WRONG_TEXTS[form],
                ..WrongRanker::hrw_top(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "node-key-order",
        title: "hashes node + \"|\" + key instead of key + \"|\" + node",
        explanation: "hrw-top puts the key first: h32(key + \"|\" + node). Your ranking hashes the node's name first, as rendezvous-router does with its own separator.",
        hint: "Hash key + \"|\" + node (the key first).",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                text: ["node", "|", "key"],
                ..WrongRanker::hrw_top(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "top-fails-past-count",
        title: "fails when n is larger than the number of nodes",
        explanation: "top(key, n) with n above the node count must return every node, ranked; your code fails instead (slicing past the end in Rust, say).",
        hint: "Take min(n, number of nodes) names: `ranked[:n]` in Python and `slice(0, n)` in JavaScript do; in Rust use `ranked.iter().take(n)`, not `ranked[..n]`.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                top_raises_past_count: true,
                ..WrongRanker::hrw_top(args)
            }
            .finish()
        },
    },
    signed_comparison(|args, _| {
        WrongRanker {
            signed: true,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    float_multiply(|args, _| {
        WrongRanker {
            hash: Hash::FloatMultiply,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    utf16_units(|args, _| {
        WrongRanker {
            hash: Hash::Utf16,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    code_points(|args, _| {
        WrongRanker {
            hash: Hash::CodePoints,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    signed_bytes(|args, _| {
        WrongRanker {
            hash: Hash::SignedBytes,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    fnv1(|args, _| {
        WrongRanker {
            hash: Hash::Fnv1,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    missing_finalizer(|args, form| {
        WrongRanker {
            hash: FINALIZER_HASHES[form],
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
    float_finalizer(|args, _| {
        WrongRanker {
            hash: Hash::FloatFinalizer,
            ..WrongRanker::hrw_top(args)
        }
        .finish()
    }),
];

/// The weighted-hrw mistakes.
pub static WEIGHTED_HRW: [Mistake; 12] = [
    Mistake {
        id: "h32-times-weight",
        title: "scores h32 * weight instead of weight / -ln(U)",
        explanation: "Multiplying the hash by the weight does not make shares proportional: a node of weight 2 beats a node of weight 1 far more than twice as often. The score is weight / -ln(U) with U = (h32 + 0.5) / 2^32.",
        hint: "u = (h32(node + \":\" + key) + 0.5) / 2^32; score = weight / -ln(u): math.log in Python, Math.log in JavaScript, f64::ln in Rust.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                rule: Rule::Times,
                ..WrongRanker::weighted(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "h32-over-weight",
        title: "scores h32 / weight, which starves heavy nodes",
        explanation: "Dividing the hash by the weight makes heavier nodes score lower, so they get fewer keys, not more. The score is weight / -ln(U) with U = (h32 + 0.5) / 2^32.",
        hint: "u = (h32(node + \":\" + key) + 0.5) / 2^32; score = weight / -ln(u): math.log in Python, Math.log in JavaScript, f64::ln in Rust.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                rule: Rule::Over,
                ..WrongRanker::weighted(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "weights-ignored",
        title: "ignores the weights",
        explanation: "Your router ranks by the hash alone, so every node gets the same share whatever its weight.",
        hint: "Score weight / -ln(U) with U = (h32(node + \":\" + key) + 0.5) / 2^32.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                rule: Rule::Plain,
                ..WrongRanker::weighted(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "ties go to the larger name",
        explanation: "Two nodes of one weight whose h32 values are equal have equal scores; the smaller name must win (and rank first). Your code picks the larger one, as `max` over (score, name) pairs does.",
        hint: "Rank by (descending score, ascending name): in Python `sorted(nodes, key=lambda n: (-score(n), n))`; in JavaScript `(a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)`.",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                ties_to_larger: true,
                ..WrongRanker::weighted(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "add-keeps-old-weight",
        title: "adding a present node does not change its weight",
        explanation: "add(node, weight) on a node already there must set its new weight; your router keeps the old one.",
        hint: "Store the weight whether or not the node is present: `weights[node] = weight` (a dict), `weights.set(node, weight)` (a Map), `insert` (a HashMap).",
        forms: &[""],
        build: |args, _| {
            WrongRanker {
                add_keeps_weight: true,
                ..WrongRanker::weighted(args)
            }
            .finish()
        },
    },
    float_multiply(|args, _| {
        WrongRanker {
            hash: Hash::FloatMultiply,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    utf16_units(|args, _| {
        WrongRanker {
            hash: Hash::Utf16,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    code_points(|args, _| {
        WrongRanker {
            hash: Hash::CodePoints,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    signed_bytes(|args, _| {
        WrongRanker {
            hash: Hash::SignedBytes,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    fnv1(|args, _| {
        WrongRanker {
            hash: Hash::Fnv1,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    missing_finalizer(|args, form| {
        WrongRanker {
            hash: FINALIZER_HASHES[form],
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
    float_finalizer(|args, _| {
        WrongRanker {
            hash: Hash::FloatFinalizer,
            ..WrongRanker::weighted(args)
        }
        .finish()
    }),
];
