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
    /// In which floating-point width the weighted score is computed.
    pub(crate) precision: Precision,
    /// Which nodes `top(key, n)` ranks: all of them, or n of them taken
    /// before the ranking.
    pub(crate) cut: Cut,
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
    /// The text hashed for a node's point i.
    pub(crate) point: PointText,
    /// `load(n)` counts the owners it met only: a node with no key is
    /// left out (a `Counter`, a `Map` of owners).
    pub(crate) load_owners_only: bool,
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
            precision: Precision::Double,
            cut: Cut::Whole,
            unsorted: false,
            stale: Stale::Fresh,
            strict: false,
            past_end: PastEnd::Wraps,
            removal: Removal::All,
            by_position: false,
            point: PointText::RIGHT,
            load_owners_only: false,
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
        // Unsorted, the first n added are the first n of the ranking.
        if self.unsorted && self.cut == Cut::FirstAdded {
            self.cut = Cut::Whole;
        }
        // In single precision 2^32 - 1 rounds to 2^32: h32 / (2^32 - 1)
        // is h32 / 2^32.
        if self.precision != Precision::Double && self.unit == Unit::OverMax {
            self.unit = Unit::Floor;
        }
        self
    }

    /// Whether these knobs score like `other`'s: the same hash of the
    /// same text, its values compared alike, a weighted score's U made
    /// alike and computed in the same precision (U's mistakes change the
    /// answers of a few hashes only, but they are the hash's arithmetic,
    /// not what is done with the scores).
    pub(crate) fn scores_like(&self, other: &Knobs) -> bool {
        self.hash == other.hash
            && self.signed == other.signed
            && self.key_first == other.key_first
            && self.separator == other.separator
            && self.point == other.point
            && self.unit == other.unit
            && self.precision == other.precision
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

    /// This U computed in single precision, as the learner's code writes
    /// it: h32 made an f32 first (`h as f32`, which rounds it to 24 bits),
    /// then the sum and the quotient, each rounded. From 2^32 - 128 up,
    /// h32 rounds to 2^32 and U to 1.
    pub(crate) fn single(self, h: u32) -> f32 {
        let h = h as f32;
        match self {
            Unit::Half => (h + 0.5) / 4_294_967_296.0,
            Unit::Floor => h / 4_294_967_296.0,
            // 2^32 - 1 is no f32: it rounds to 2^32.
            Unit::OverMax => h / 4_294_967_295.0_f32,
        }
    }
}

/// In which floating-point width the weighted score is computed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Precision {
    /// Double precision throughout: right.
    Double,
    /// U in single precision (`f32`, `Math.fround`, `numpy.float32`), the
    /// logarithm and the score in double.
    UnitSingle,
    /// U, the logarithm, the weight and the score in single precision.
    Single,
}

impl Precision {
    /// weight / -ln(U) of `h`, with U made by `unit`, in this precision.
    pub(crate) fn score(self, unit: Unit, h: u32, weight: f64) -> f64 {
        match self {
            Precision::Double => weight / -unit.of(h).ln(),
            Precision::UnitSingle => weight / -f64::from(unit.single(h)).ln(),
            Precision::Single => f64::from(weight as f32 / -unit.single(h).ln()),
        }
    }
}

/// Which nodes `top(key, n)` ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Cut {
    /// All of them, then the first n of the ranking: right.
    Whole,
    /// The first n added (`nodes[:n]`), then ranked.
    FirstAdded,
    /// The n smallest names (the first n of a sorted set or map), then
    /// ranked.
    SmallestNames,
}

/// The text hashed for a node's point i: node + "#" + i is right.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct PointText {
    /// The index before the name (Go's `strconv.Itoa(i) + node`).
    pub(crate) index_first: bool,
    pub(crate) separator: &'static str,
    /// The index of the first point: 1 for a loop from 1 to k.
    pub(crate) first: usize,
}

impl PointText {
    pub(crate) const RIGHT: PointText = PointText {
        index_first: false,
        separator: "#",
        first: 0,
    };

    /// The text of `node`'s point `i` (0 to k - 1).
    pub(crate) fn of(&self, node: &str, i: usize) -> String {
        let index = (i + self.first).to_string();
        if self.index_first {
            format!("{index}{}{node}", self.separator)
        } else {
            format!("{node}{}{index}", self.separator)
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
