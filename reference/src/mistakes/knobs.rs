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
            raise_on_absent: false,
            absent_removes_last: false,
            top_raises_past_count: false,
            top_zero_all: false,
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
