//! Rankings of every node for a key: the shared core of `hrw-top` (h32 of
//! key + "|" + node) and `weighted-hrw` (weight / -ln(U) on h32 of node +
//! ":" + key). `route` is the first of the ranking, `top(key, n)` its first
//! n names; ties go to the smaller name.

use crate::explanation::{Explanation, ScoreRow, ScoreTable, WeightedTerms};
use crate::hash::{FNV_OFFSET, fmix32, fnv1a_extend};
use crate::model::Model;
use crate::operation::{Arg, Op};
use serde_json::Value;

/// Relative gap between two weighted scores below which the order may differ
/// between languages (their `ln` may differ in the last bit).
pub const FRAGILE_GAP: f64 = 1e-9;

/// How a ranking scores a node for a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Scheme {
    /// h32(key + "|" + node) (hrw-top).
    KeyPipeNode,
    /// weight / -ln((h32(node + ":" + key) + 0.5) / 2^32) (weighted-hrw).
    Weighted,
}

impl Scheme {
    fn formula(self) -> &'static str {
        match self {
            Scheme::KeyPipeNode => "h32(key + \"|\" + node)",
            Scheme::Weighted => "weight / -ln(U), U = (h32(node + \":\" + key) + 0.5) / 2^32",
        }
    }

    fn hashed(self, node: &str, key: &str) -> String {
        match self {
            Scheme::KeyPipeNode => format!("{key}|{node}"),
            Scheme::Weighted => format!("{node}:{key}"),
        }
    }
}

/// The weighted score of a node of `weight` whose h32 is `h`.
pub fn weighted_score(h: u32, weight: f64) -> WeightedTerms {
    let u = (f64::from(h) + 0.5) / 4_294_967_296.0;
    let neg_ln_u = -u.ln();
    WeightedTerms {
        weight,
        u,
        neg_ln_u,
        score: weight / neg_ln_u,
    }
}

#[derive(Debug, Clone)]
struct Node {
    name: String,
    weight: f64,
    /// The FNV-1a state of `name + ":"` (used by [`Scheme::Weighted`]).
    prefix: u32,
}

/// The reference ranker: nodes sorted by name, so a stable sort by
/// descending score keeps ties in name order, and a strict comparison in a
/// scan keeps the smaller name.
#[derive(Debug, Clone)]
pub struct Ranker {
    scheme: Scheme,
    nodes: Vec<Node>,
}

impl Ranker {
    /// An empty ranker.
    pub(crate) fn new(scheme: Scheme) -> Self {
        Ranker {
            scheme,
            nodes: Vec::new(),
        }
    }

    /// A ranker over `(name, weight)` pairs: a name given twice keeps its
    /// last weight, as adding it again would.
    pub(crate) fn with<'a>(
        scheme: Scheme,
        nodes: impl IntoIterator<Item = (&'a str, f64)>,
    ) -> Self {
        let mut r = Ranker::new(scheme);
        for (name, weight) in nodes {
            r.add(name, weight);
        }
        r
    }

    /// Every node's h32 and score for `key`, in name order. Hashes the
    /// shared part of the text once.
    fn scored<'s, 'k>(
        &'s self,
        key: &'k str,
    ) -> impl Iterator<Item = (&'s Node, u32, f64)> + use<'s, 'k> {
        let key_prefix = fnv1a_extend(fnv1a_extend(FNV_OFFSET, key.as_bytes()), b"|");
        let scheme = self.scheme;
        self.nodes.iter().map(move |n| match scheme {
            Scheme::KeyPipeNode => {
                let h = fmix32(fnv1a_extend(key_prefix, n.name.as_bytes()));
                (n, h, f64::from(h))
            }
            Scheme::Weighted => {
                let h = fmix32(fnv1a_extend(n.prefix, key.as_bytes()));
                (n, h, weighted_score(h, n.weight).score)
            }
        })
    }

    /// The key's owner, or `None` with no nodes. O(nodes).
    pub fn route(&self, key: &str) -> Option<&str> {
        let mut best: Option<(&Node, f64)> = None;
        for (node, _, score) in self.scored(key) {
            // Strict: on a tie the earlier, smaller name stays.
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((node, score));
            }
        }
        best.map(|(n, _)| n.name.as_str())
    }

    /// The first `n` names by descending score, ties by smaller name.
    pub fn top(&self, key: &str, n: u64) -> Vec<String> {
        let mut ranked: Vec<(&Node, f64)> = self.scored(key).map(|(n, _, s)| (n, s)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
            .into_iter()
            .take(usize::try_from(n).unwrap_or(usize::MAX))
            .map(|(node, _)| node.name.clone())
            .collect()
    }

    /// Every node's score for `key`, highest first.
    pub fn scores(&self, key: &str) -> ScoreTable {
        let rows = self
            .scored(key)
            .map(|(node, h, _)| ScoreRow {
                node: node.name.clone(),
                hashed: self.scheme.hashed(&node.name, key),
                h32: h,
                weighted: (self.scheme == Scheme::Weighted).then(|| weighted_score(h, node.weight)),
            })
            .collect();
        ScoreTable::ranked(key, self.scheme.formula(), rows)
    }

    /// The first `decided + 1` scores for `key` in rank order, with their
    /// names, without the strings of a full score table: generators and
    /// the grader ask this of every question.
    fn leading(&self, key: &str, decided: usize) -> Vec<(f64, &str)> {
        let mut scored: Vec<(f64, &str)> = self
            .scored(key)
            .map(|(n, _, s)| (s, n.name.as_str()))
            .collect();
        let by_rank = |a: &(f64, &str), b: &(f64, &str)| b.0.total_cmp(&a.0).then(a.1.cmp(b.1));
        let shown = decided.saturating_add(1).min(scored.len());
        if shown < scored.len() {
            scored.select_nth_unstable_by(shown, by_rank);
            scored.truncate(shown);
        }
        scored.sort_by(by_rank);
        scored
    }

    /// Adds `node`, or sets its weight if present.
    pub fn add(&mut self, node: &str, weight: f64) {
        match self.position(node) {
            Ok(at) => self.nodes[at].weight = weight,
            Err(at) => self.nodes.insert(
                at,
                Node {
                    name: node.to_owned(),
                    weight,
                    prefix: fnv1a_extend(fnv1a_extend(FNV_OFFSET, node.as_bytes()), b":"),
                },
            ),
        }
    }

    /// Removes `node`; an absent node changes nothing.
    pub fn remove(&mut self, node: &str) {
        if let Ok(at) = self.position(node) {
            self.nodes.remove(at);
        }
    }

    fn position(&self, node: &str) -> Result<usize, usize> {
        self.nodes.binary_search_by(|n| n.name.as_str().cmp(node))
    }
}

/// Builds a ranker from a challenge's constructor arguments: `[names]`
/// (every weight 1) or `[[name, weight], ...]`.
pub(crate) fn build(scheme: Scheme, args: &[Arg]) -> Box<dyn Model> {
    match args {
        [Arg::Names(nodes)] => Box::new(Ranker::with(
            scheme,
            nodes.iter().map(|n| (n.as_str(), 1.0)),
        )),
        [Arg::WeightedNames(pairs)] => Box::new(Ranker::with(
            scheme,
            pairs.iter().map(|(n, w)| (n.as_str(), *w)),
        )),
        other => panic!("a ranking challenge takes [nodes] or [pairs], not {other:?}"),
    }
}

impl Model for Ranker {
    fn apply(&mut self, op: &Op) -> Value {
        let name = op.name_at(0);
        match op.name() {
            "route" => self.route(name).map_or(Value::Null, Value::from),
            "top" => Value::from(self.top(name, op.count_at(1))),
            "add" => {
                let weight = if op.operands.len() > 1 {
                    op.weight_at(1)
                } else {
                    1.0
                };
                self.add(name, weight);
                Value::Null
            }
            "remove" => {
                self.remove(name);
                Value::Null
            }
            other => panic!("a ranking challenge has no operation {other}"),
        }
    }

    fn explain(&self, op: &Op) -> Option<Explanation> {
        match op.name() {
            "route" => Some(Explanation::Scores(self.scores(op.name_at(0)))),
            "top" => Some(Explanation::Top {
                table: self.scores(op.name_at(0)),
                n: op.count_at(1),
            }),
            _ => None,
        }
    }

    /// Whether two of the scores an answer is made of are equal, without
    /// the score table.
    fn tie_decides(&self, op: &Op) -> bool {
        let decided = match op.name() {
            "route" => 1,
            "top" => usize::try_from(op.count_at(1)).unwrap_or(usize::MAX),
            _ => return false,
        };
        self.leading(op.name_at(0), decided)
            .windows(2)
            .any(|w| w[0].0 == w[1].0)
    }

    /// A route or top whose order hangs on two weighted scores closer than
    /// [`FRAGILE_GAP`] (relative) but not equal: equal scores come from
    /// equal h32 and weights and are exact in every language.
    fn fragile(&self, op: &Op) -> Option<String> {
        if self.scheme != Scheme::Weighted {
            return None;
        }
        let key = op.name_at(0);
        let decided = match op.name() {
            "route" => 1,
            "top" => usize::try_from(op.count_at(1)).unwrap_or(usize::MAX),
            _ => return None,
        };
        self.leading(key, decided).windows(2).take(decided).find_map(|pair| {
            let ((a, x), (b, y)) = (pair[0], pair[1]);
            let gap = (a - b) / a;
            (gap > 0.0 && gap < FRAGILE_GAP).then(|| {
                format!(
                    "the order of {x} ({a:e}) and {y} ({b:e}) for key {key:?} hangs on a relative gap of {gap:.1e}, below {FRAGILE_GAP:e}: ln may differ in the last bit between languages"
                )
            })
        })
    }
}
