//! What the grader knows of a challenge: its [`ModelSpec`].
//!
//! Every challenge has one shape: a constructor, named operations with
//! typed operands and results, and a model that replays them. A challenge
//! is data (its [`ModelSpec`]) plus one [`Model`] implementation; the
//! grader's loader, runners and judge only ever see these types, so a new
//! challenge adds a spec and a model, not code paths in the grader.

use crate::explanation::Explanation;
use crate::mistakes::Catalogue;
use crate::model::Model;
use crate::operation::{Arg, Effect, Kind, Op, Signature};
use serde_json::Value;
use std::fmt;

/// Everything the grader needs to know of a challenge's reference.
pub struct ModelSpec {
    /// The challenge id, e.g. `rendezvous-router`.
    pub id: &'static str,
    /// The types of the constructor's arguments, in order.
    pub constructor: &'static [Kind],
    /// Every operation the model implements.
    pub operations: &'static [Signature],
    /// Builds an instance from parsed constructor arguments.
    pub build: fn(&[Arg]) -> Box<dyn Model>,
    /// The known mistakes, for diagnosis and audit.
    pub catalogue: &'static Catalogue,
    /// Two node names that tie, found from a name prefix and a search
    /// start, given the constructor's arguments: how generators test the
    /// tie rule.
    pub ties: fn(&str, u64, &[Arg]) -> Tie,
    /// For a challenge that hashes a key before a node's name: the text
    /// hashed before the name for `key`. Two names whose FNV-1a states
    /// collide after it tie on that key alone (and `None`, names that
    /// collide from the start tie on every key).
    pub before_name: Option<fn(&str) -> String>,
}

/// A case replayed by [`ModelSpec::run_checked`].
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// One result per operation.
    pub output: Vec<Value>,
    /// Operations whose answers hang on a fragile gap, and why.
    pub fragile: Vec<(usize, String)>,
    /// The time spent answering.
    pub took: std::time::Duration,
}

/// Two node names whose decisions tie, and the keys on which they do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    /// The smaller name first.
    pub nodes: (String, String),
    /// Keys on which they tie; empty when they tie on every key.
    pub keys: Vec<String>,
}

impl fmt::Debug for ModelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelSpec")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl ModelSpec {
    /// Which constructor argument is the list of nodes (names or pairs):
    /// what the shrinker drops from and the order check reverses.
    pub fn nodes_arg(&self) -> Option<usize> {
        self.constructor
            .iter()
            .position(|k| matches!(k, Kind::Names | Kind::WeightedNames))
    }

    /// The operations with `effect`.
    pub fn with_effect(&self, effect: Effect) -> impl Iterator<Item = &'static Signature> + '_ {
        self.operations.iter().filter(move |s| s.effect == effect)
    }

    /// The signature of operation `name`.
    pub fn signature(&self, name: &str) -> Option<&'static Signature> {
        self.operations.iter().find(|s| s.name == name)
    }

    /// Replays `ops` on a fresh instance built from `args` and returns one
    /// result per operation.
    pub fn run(&self, args: &[Arg], ops: &[Op]) -> Vec<Value> {
        let mut model = (self.build)(args);
        ops.iter().map(|op| model.apply(op)).collect()
    }

    /// Replays `ops` once, as [`ModelSpec::run`], and also finds the
    /// operations whose answers hang on a fragile floating-point decision
    /// (with why), and times the answering alone (the checks excluded), for
    /// the authoring tools.
    pub fn run_checked(&self, args: &[Arg], ops: &[Op]) -> Checked {
        let mut model = (self.build)(args);
        let mut checked = Checked {
            output: Vec::with_capacity(ops.len()),
            fragile: Vec::new(),
            took: std::time::Duration::ZERO,
        };
        for (i, op) in ops.iter().enumerate() {
            if let Some(why) = model.fragile(op) {
                checked.fragile.push((i, why));
            }
            let started = std::time::Instant::now();
            checked.output.push(model.apply(op));
            checked.took += started.elapsed();
        }
        checked
    }

    /// The explanation of every operation of `ops`, in one replay (where
    /// [`ModelSpec::explain_at`] replays up to its one operation).
    pub fn explanations(&self, args: &[Arg], ops: &[Op]) -> Vec<Option<Explanation>> {
        let mut model = (self.build)(args);
        ops.iter()
            .map(|op| {
                let explanation = model.explain(op);
                model.apply(op);
                explanation
            })
            .collect()
    }

    /// For each operation of `ops`, the tie that decides its answer
    /// ([`Model::tie_decides`]): `Some` with the tied nodes
    /// ([`Explanation::tied_nodes`], empty where the explanation does not
    /// name them), `None` where no tie decides it.
    pub fn ties(&self, args: &[Arg], ops: &[Op]) -> Vec<Option<Vec<String>>> {
        let mut model = (self.build)(args);
        ops.iter()
            .map(|op| {
                let tie = model.tie_decides(op).then(|| {
                    model
                        .explain(op)
                        .map(|e| e.tied_nodes())
                        .unwrap_or_default()
                });
                model.apply(op);
                tie
            })
            .collect()
    }

    /// Whether a tie decides any answer of `ops` ([`Model::tie_decides`]),
    /// in one replay that stops at the first.
    pub fn tie_decides(&self, args: &[Arg], ops: &[Op]) -> bool {
        let mut model = (self.build)(args);
        ops.iter().any(|op| {
            let tied = model.tie_decides(op);
            model.apply(op);
            tied
        })
    }

    /// Replays `ops[..index]`, then explains `ops[index]`.
    pub fn explain_at(&self, args: &[Arg], ops: &[Op], index: usize) -> Option<Explanation> {
        let mut model = (self.build)(args);
        for op in &ops[..index] {
            model.apply(op);
        }
        model.explain(ops.get(index)?)
    }
}
