//! Families: the mistakes that turn one knob. When a suite's cases cannot
//! tell two ways of turning a knob apart (ties to the larger name, or to
//! the node added first, on cases where the larger name was always added
//! first), the knob is what the evidence says was turned, and naming one
//! of the ways would be a guess.

use super::knobs::Knobs;
use crate::text::Text;

/// A group of choices that one fix puts right: a family of mistakes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Knob {
    Hash,
    Signed,
    Order,
    Ties,
    /// The text hashed for a node and a key: which comes first, and what
    /// goes between them.
    Text,
    /// Whether and where a node can be kept twice.
    Membership,
    /// What removing an absent node does.
    Absent,
    /// What `top(key, n)` does at the edges of n.
    TopEdges,
    AddKeepsWeight,
    Rule,
    /// How U is made from h32, and in which precision it and the score
    /// are computed.
    Unit,
    Unsorted,
    Stale,
    Strict,
    PastEnd,
    Removal,
    ByPosition,
    /// Which nodes `top(key, n)` ranks.
    Cut,
    /// The text hashed for a node's point.
    PointText,
    LoadOwnersOnly,
}

/// Every knob.
pub(crate) const KNOBS: [Knob; 20] = [
    Knob::Hash,
    Knob::Signed,
    Knob::Order,
    Knob::Ties,
    Knob::Text,
    Knob::Membership,
    Knob::Absent,
    Knob::TopEdges,
    Knob::AddKeepsWeight,
    Knob::Rule,
    Knob::Unit,
    Knob::Unsorted,
    Knob::Stale,
    Knob::Strict,
    Knob::PastEnd,
    Knob::Removal,
    Knob::ByPosition,
    Knob::Cut,
    Knob::PointText,
    Knob::LoadOwnersOnly,
];

impl Knobs {
    /// The knobs these choices turn from `base`'s.
    pub(crate) fn turned(&self, base: &Knobs) -> Vec<Knob> {
        // Written out field by field, without `..`: a new choice does not
        // compile until it belongs to a knob.
        let Knobs {
            hash,
            signed,
            order,
            ties,
            key_first,
            separator,
            list,
            listed_once,
            added_once,
            raise_on_absent,
            absent_removes_last,
            top_raises_past_count,
            top_zero_all,
            add_keeps_weight,
            rule,
            unit,
            unsorted,
            stale,
            strict,
            past_end,
            removal,
            by_position,
            precision,
            cut,
            point,
            load_owners_only,
        } = *self;
        let turned = [
            (Knob::Hash, hash != base.hash),
            (Knob::Signed, signed != base.signed),
            (Knob::Order, order != base.order),
            (Knob::Ties, ties != base.ties),
            (
                Knob::Text,
                (key_first, separator) != (base.key_first, base.separator),
            ),
            (
                Knob::Membership,
                (list, listed_once, added_once) != (base.list, base.listed_once, base.added_once),
            ),
            (
                Knob::Absent,
                (raise_on_absent, absent_removes_last)
                    != (base.raise_on_absent, base.absent_removes_last),
            ),
            (
                Knob::TopEdges,
                (top_raises_past_count, top_zero_all)
                    != (base.top_raises_past_count, base.top_zero_all),
            ),
            (
                Knob::AddKeepsWeight,
                add_keeps_weight != base.add_keeps_weight,
            ),
            (Knob::Rule, rule != base.rule),
            (Knob::Unit, (unit, precision) != (base.unit, base.precision)),
            (Knob::Unsorted, unsorted != base.unsorted),
            (Knob::Stale, stale != base.stale),
            (Knob::Strict, strict != base.strict),
            (Knob::PastEnd, past_end != base.past_end),
            (Knob::Removal, removal != base.removal),
            (Knob::ByPosition, by_position != base.by_position),
            (Knob::Cut, cut != base.cut),
            (Knob::PointText, point != base.point),
            (
                Knob::LoadOwnersOnly,
                load_owners_only != base.load_owners_only,
            ),
        ];
        turned
            .into_iter()
            .filter(|&(_, turned)| turned)
            .map(|(knob, _)| knob)
            .collect()
    }
}

/// A knob told as a family of mistakes: what is wrong whichever way it was
/// turned, and the fix that puts every way right.
#[derive(Debug, Clone, Copy)]
pub struct Family {
    /// A stable id, e.g. `ties-another-way`, never a mistake's.
    pub id: &'static str,
    /// One line, e.g. "breaks ties another way than by the smaller name",
    /// in words for every language (as a mistake's title).
    pub title: &'static str,
    /// The fix, whichever way the knob was turned.
    pub hint: Text,
}

impl Knob {
    /// The family of mistakes that turn this knob. `None` for a knob with
    /// one wrong setting (a yes where no belongs): two mistakes that turn
    /// it alone turn it alike.
    pub(crate) fn family(self) -> Option<Family> {
        let family = |id, title, hint| {
            Some(Family {
                id,
                title,
                hint: Text::Plain(hint),
            })
        };
        match self {
            Knob::Hash => family(
                "h32-another-way",
                "computes h32 another way than the pinned hash",
                "Compare your h32 with the statement's check values, step by step: FNV-1a over the UTF-8 bytes in 32-bit arithmetic, then the finalizer.",
            ),
            Knob::Ties => family(
                "ties-another-way",
                "breaks ties another way than by the smaller name",
                "On equal scores the smaller name wins (and ranks first), whatever the order the nodes were added in.",
            ),
            Knob::Text => family(
                "another-text-hashed",
                "hashes another text for a node and a key than the statement's",
                "Hash exactly the text the statement gives: its parts in its order, with its separator between them.",
            ),
            Knob::Membership => family(
                "node-kept-twice",
                "keeps a node twice when it is listed or added again",
                "Keep the nodes as a set: a node listed twice, or added while present, is there once.",
            ),
            Knob::Absent => family(
                "absent-node-removal",
                "does something when asked to remove a node that is not there",
                "Removing a node that is not there changes nothing and raises nothing.",
            ),
            Knob::TopEdges => family(
                "top-count-edges",
                "answers top(key, n) wrongly when n is 0 or past the node count",
                "top(key, n) answers the first n names of the ranking: none for 0, all of them when n is more than there are.",
            ),
            Knob::Rule => family(
                "weighted-score-another-way",
                "scores a node another way than weight / -ln(U)",
                "Score each node weight / -ln(U), with U from its h32.",
            ),
            Knob::Unit => family(
                "unit-another-way",
                "makes U from h32 another way than (h32 + 0.5) / 2^32 in double precision",
                "Make U = (h32 + 0.5) / 2^32, in double precision.",
            ),
            Knob::Stale => family(
                "stale-state",
                "answers from state left over from before the nodes changed",
                "After an add or a remove, compute every answer from the nodes as they are now: keep nothing derived from the old ones.",
            ),
            Knob::PastEnd => family(
                "past-the-end",
                "does not wrap past the last point",
                "When no point is at or after the key's position, the key goes to the first point of the ring.",
            ),
            Knob::Removal => family(
                "points-left-behind",
                "removes only some of a node's points",
                "Removing a node takes all k of its points off the ring.",
            ),
            Knob::Cut => family(
                "top-ranks-too-few",
                "top(key, n) ranks n nodes taken before the ranking, not all of them",
                "Rank every node first, then take the first n names of that ranking.",
            ),
            Knob::PointText => family(
                "another-point-text",
                "hashes another text than node + \"#\" + i for a node's points",
                "Place a node's k points at h32(node + \"#\" + i) for i from 0 to k - 1: the name, then \"#\", then the index.",
            ),
            Knob::Signed
            | Knob::LoadOwnersOnly
            | Knob::Order
            | Knob::AddKeepsWeight
            | Knob::Unsorted
            | Knob::Strict
            | Knob::ByPosition => None,
        }
    }
}
