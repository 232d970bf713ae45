//! The knobs: every choice a solution makes that learners get wrong.

use super::hash::Hash;

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
    /// With `list`, `add` still skips a node already there: only the
    /// constructor keeps a node twice.
    pub(crate) added_once: bool,
    pub(crate) raise_on_absent: bool,
    /// Removing an absent node removes the last one in insertion order
    /// instead (JavaScript's `splice(indexOf(x), 1)`: -1 is the last).
    pub(crate) absent_removes_last: bool,
    pub(crate) top_raises_past_count: bool,
    /// `top(key, 0)` answers the whole ranking: 0 taken for no count.
    pub(crate) top_zero_all: bool,
    pub(crate) add_keeps_weight: bool,
    /// How a node's h32 and weight become the number ranked.
    pub(crate) rule: Rule,
    /// How the weighted score's U is made from h32.
    pub(crate) unit: Unit,
    /// The scored nodes taken in the order they are kept, never sorted: a
    /// comparator that returns a boolean (`(a, b) => a.score < b.score`)
    /// is never negative, so JavaScript's and Python's sorts move nothing.
    pub(crate) unsorted: bool,
    /// What an answer is computed from once the nodes have changed.
    pub(crate) stale: Stale,
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
            hash: Hash::PINNED,
            signed: false,
            order: Order::Highest,
            ties: Ties::SmallerName,
            key_first,
            separator,
            list: false,
            listed_once: false,
            added_once: false,
            raise_on_absent: false,
            absent_removes_last: false,
            top_raises_past_count: false,
            top_zero_all: false,
            add_keeps_weight: false,
            rule,
            unit: Unit::Half,
            unsorted: false,
            stale: Stale::Fresh,
            strict: false,
            past_end: PastEnd::Wraps,
            removal: Removal::All,
            by_position: false,
        }
    }

    /// These knobs with those that decide no answer set as a right
    /// solution has them, so two sets of knobs that answer alike compare
    /// equal: scores decide nothing in a ranking that is never sorted, and
    /// an absent node's removal that raises removes nothing.
    pub(crate) fn deciding(mut self) -> Knobs {
        if self.unsorted {
            let right = Knobs::right(false, "", Rule::Plain);
            self.hash = right.hash;
            self.signed = right.signed;
            self.order = right.order;
            self.ties = right.ties;
            self.key_first = right.key_first;
            self.separator = right.separator;
            self.rule = right.rule;
            self.unit = right.unit;
            if self.stale != Stale::Cached {
                self.stale = Stale::Fresh;
            }
        }
        if self.raise_on_absent {
            self.absent_removes_last = false;
        }
        self
    }

    /// Whether these knobs score like `other`'s: the same hash of the
    /// same text, its values compared alike.
    pub(crate) fn scores_like(&self, other: &Knobs) -> bool {
        self.hash == other.hash
            && self.signed == other.signed
            && self.key_first == other.key_first
            && self.separator == other.separator
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

/// How a node's h32 becomes the number ranked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Rule {
    /// The h32 itself (hrw-top, rendezvous-router).
    Plain,
    /// weight / -ln(U): right for weighted-hrw.
    Log,
    /// h32 * weight.
    Times,
    /// h32 / weight.
    Over,
}

/// How the weighted score's U, in (0, 1), is made from h32.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// (h32 + 0.5) / 2^32: right.
    Half,
    /// h32 / 2^32: a hash of 0 gives U = 0, a score of 0.
    Floor,
    /// h32 / (2^32 - 1): the largest hash gives U = 1, -ln(U) = -0, and a
    /// score of minus infinity. (h32 + 1) / 2^32 is the same mistake: it
    /// differs from this U by a factor of 1 + 2^-32 at most, which no
    /// ranking can show.
    OverMax,
}

impl Unit {
    pub(crate) fn of(self, h: u32) -> f64 {
        let h = f64::from(h);
        match self {
            Unit::Half => (h + 0.5) / 4_294_967_296.0,
            Unit::Floor => h / 4_294_967_296.0,
            Unit::OverMax => h / 4_294_967_295.0,
        }
    }
}

/// What an answer is computed from once the nodes have changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stale {
    /// The members as they are now.
    Fresh,
    /// Each key's answer (its whole ranking) remembered the first time it
    /// is asked and never forgotten when nodes are added or removed.
    Cached,
    /// Each node's hashed name kept in a list beside the names (to hash
    /// `node + ":"` once), which `remove` leaves as it was: from the
    /// removed one on, each name is scored with another node's text.
    HashesBeside,
    /// Each node's weight kept in a list beside the names, which `remove`
    /// leaves as it was: from the removed one on, each name has another
    /// node's weight.
    WeightsBeside,
}

/// What a lookup past the last point does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum PastEnd {
    Wraps,
    /// Indexes past the end of the list (an IndexError, a panic).
    Raises,
    /// Answers null (JavaScript's `ring[i]?.node`).
    Null,
    /// Answers the last point's node (`ring[min(i, len(ring) - 1)]`).
    Clamps,
}

/// How `remove` takes a node's points away.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Removal {
    All,
    /// Only the point "node#0".
    FirstPoint,
    /// Deleting from the list while iterating over it: the entry after each
    /// one removed is skipped.
    SkipsNext,
}
