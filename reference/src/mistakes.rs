//! Known mistakes: the reference with one thing wrong, the way learners get
//! it wrong. The grader replays a failing submission's cases on each to
//! name the mistake, and authors audit a suite against them.
//!
//! A mistake is a change to the knobs, the choices a solution makes (which
//! hash, which score wins, which text is hashed...), and each challenge's
//! [`Catalogue`] builds a runnable variant from the knobs. Two mistakes that
//! turn different knobs can so be made together, as learners do.

mod hash;
pub mod ranking;
pub mod ring;
mod router;

pub(crate) use hash::{
    CODE_POINTS, FLOAT_FINALIZER, FLOAT_MULTIPLY, FNV1, Hash, MISSING_FINALIZER, SIGNED_BYTES,
    SIGNED_COMPARISON, UTF16_UNITS,
};
pub use hash::{HASH_VARIANTS, HashVariant, float_finalizer_h32, float_multiply_h32};
pub use router::RENDEZVOUS;

use crate::model::{Arg, Op};
use ranking::Rule;
use ring::{PastEnd, Removal};
use serde_json::Value;

/// A mistake a learner makes, as a change to a right solution's choices.
pub struct Mistake {
    /// A stable id, e.g. `lowest-score`.
    pub id: &'static str,
    /// One line, e.g. "keeps the lowest score".
    pub title: &'static str,
    /// What goes wrong, in words a learner understands.
    pub explanation: &'static str,
    /// How to fix it.
    pub hint: &'static str,
    /// Variations of the same mistake (the separator used, say); one empty
    /// label when there are none.
    pub forms: &'static [&'static str],
    /// Makes the mistake, in form `forms[form]`.
    pub(crate) tweak: fn(&mut Knobs, usize),
}

impl std::fmt::Debug for Mistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mistake")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// Raising on the removal of an absent node, which every challenge's
/// `remove` must ignore.
pub(crate) const REMOVE_ABSENT_RAISES: Mistake = Mistake {
    id: "remove-absent-raises",
    title: "fails when removing a node that is not there",
    explanation: "Removing an absent node must change nothing; your code raises an error instead.",
    hint: "Check membership first, or use a removal that ignores absent names (set.discard or dict.pop(name, None) in Python, a guard before splice in JavaScript).",
    forms: &[""],
    tweak: |k, _| k.raise_on_absent = true,
};

/// One mistake in one of its forms.
#[derive(Debug, Clone, Copy)]
pub struct Made {
    pub mistake: &'static Mistake,
    pub form: usize,
}

impl Made {
    /// The form's label, for a mistake with several.
    pub fn form_label(&self) -> Option<&'static str> {
        (self.mistake.forms.len() > 1).then(|| self.mistake.forms[self.form])
    }
}

/// Every choice a solution of some challenge makes that learners get
/// wrong. Each challenge's variant reads the knobs it has; a right
/// solution is its catalogue's `base`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Knobs {
    // The hash, and how its values compare.
    pub(crate) hash: Hash,
    /// h32 values compared as signed 32-bit integers.
    pub(crate) signed: bool,
    // Which score wins, and which of equal scores.
    pub(crate) order: Order,
    pub(crate) ties: Ties,
    // The text hashed for a node and a key.
    pub(crate) key_first: bool,
    pub(crate) separator: &'static str,
    // Membership and the operations' edges.
    /// Nodes kept in a list, not a set: duplicates kept, one copy removed
    /// at a time.
    pub(crate) list: bool,
    /// With `list`, the constructor still drops duplicates: only `add`
    /// keeps a node twice.
    pub(crate) listed_once: bool,
    pub(crate) raise_on_absent: bool,
    pub(crate) top_raises_past_count: bool,
    pub(crate) add_keeps_weight: bool,
    /// How a node's h32 and weight become the number ranked.
    pub(crate) rule: Rule,
    // The ring.
    /// The first point strictly after the key, not at or after.
    pub(crate) strict: bool,
    pub(crate) past_end: PastEnd,
    pub(crate) removal: Removal,
    /// A map from position to node: a later point at a taken position
    /// replaces the earlier one.
    pub(crate) by_position: bool,
}

impl Knobs {
    /// A right solution that hashes `node + separator + key` (or the key
    /// first) and ranks by `rule`.
    pub(crate) const fn right(key_first: bool, separator: &'static str, rule: Rule) -> Knobs {
        Knobs {
            hash: Hash::Pinned,
            signed: false,
            order: Order::Highest,
            ties: Ties::SmallerName,
            key_first,
            separator,
            list: false,
            listed_once: false,
            raise_on_absent: false,
            top_raises_past_count: false,
            add_keeps_weight: false,
            rule,
            strict: false,
            past_end: PastEnd::Wraps,
            removal: Removal::All,
            by_position: false,
        }
    }

    /// The text hashed for `node` and `key`, in three parts.
    pub(crate) fn text<'a>(&self, node: &'a str, key: &'a str) -> [&'a str; 3] {
        if self.key_first {
            [key, self.separator, node]
        } else {
            [node, self.separator, key]
        }
    }
}

/// Which score wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Order {
    Highest,
    Lowest,
}

/// Which of equal scores wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ties {
    SmallerName,
    /// `max` over `(score, name)` pairs.
    LargerName,
    /// The first in insertion order: the older node.
    FirstSeen,
    /// The last in insertion order (Rust's `max_by_key`).
    LastSeen,
}

/// A running variant. `Err` is an exception the mistaken code would raise.
pub trait Variant {
    fn apply(&mut self, op: &Op) -> Result<Value, String>;
}

/// How a variant ran a case: its answers, and where it raised, if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantRun {
    pub output: Vec<Value>,
    pub raised_at: Option<usize>,
}

/// A challenge's known mistakes, and how a solution that makes some of
/// them is built.
pub struct Catalogue {
    pub mistakes: &'static [Mistake],
    /// The right solution's choices.
    pub(crate) base: Knobs,
    /// A variant with these choices, from the constructor's arguments.
    pub(crate) build: fn(&[Arg], Knobs) -> Box<dyn Variant>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.mistakes.iter().map(|m| m.id))
            .finish()
    }
}

impl Catalogue {
    /// Every mistake in every form, in the catalogue's order.
    pub fn each(&self) -> impl Iterator<Item = Made> + '_ {
        self.mistakes
            .iter()
            .flat_map(|mistake| (0..mistake.forms.len()).map(move |form| Made { mistake, form }))
    }

    /// Replays `ops` on a solution that makes every mistake of `made`.
    pub fn run(&self, made: &[Made], args: &[Arg], ops: &[Op]) -> VariantRun {
        let mut variant = (self.build)(args, self.knobs(made));
        let mut output = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            match variant.apply(op) {
                Ok(v) => output.push(v),
                Err(_) => {
                    return VariantRun {
                        output,
                        raised_at: Some(i),
                    };
                }
            }
        }
        VariantRun {
            output,
            raised_at: None,
        }
    }

    /// Every two mistakes a learner can make together, in the catalogue's
    /// order: forms of different mistakes, each of which changes the right
    /// solution, that turn different knobs (so they commute) and together
    /// give a solution no one mistake gives.
    pub fn pairs(&self) -> Vec<[Made; 2]> {
        let each: Vec<Made> = self
            .each()
            .filter(|m| self.knobs(&[*m]) != self.base)
            .collect();
        // A pair that is some one mistake is that mistake.
        let singles: Vec<Knobs> = each.iter().map(|m| self.knobs(&[*m])).collect();
        let mut pairs = Vec::new();
        for (i, a) in each.iter().enumerate() {
            for b in &each[i + 1..] {
                if a.mistake.id == b.mistake.id {
                    continue;
                }
                let both = self.knobs(&[*a, *b]);
                if both == self.knobs(&[*b, *a]) && !singles.contains(&both) {
                    pairs.push([*a, *b]);
                }
            }
        }
        pairs
    }

    /// Whether making the mistakes of `a` and those of `b` gives one
    /// solution.
    pub fn alike(&self, a: &[Made], b: &[Made]) -> bool {
        self.knobs(a) == self.knobs(b)
    }

    fn knobs(&self, made: &[Made]) -> Knobs {
        let mut knobs = self.base;
        for m in made {
            (m.mistake.tweak)(&mut knobs, m.form);
        }
        knobs
    }
}
