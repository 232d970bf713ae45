//! The mistakes more than one challenge can make: of the hash, of
//! comparing its values, of `remove`, of ranking and of answers kept
//! past a change.

use super::catalogue::Mistake;
use super::hash::{FINALIZER_FORMS, FINALIZERS, Source};
use super::knobs::Knobs;

// The mistakes of the hash and of comparing its values, which every
// challenge can make: one text, a variant per challenge. Each hash
// mistake turns the knob of its own step, so two of different steps
// make one hash wrong in both, as learners' hashes are.

pub(crate) const SIGNED_COMPARISON: Mistake = Mistake {
    id: "signed-comparison",
    title: "compares h32 values as signed 32-bit numbers",
    explanation: "Your code treats h32 values as signed 32-bit integers, so a value of 2^31 or more looks negative and sorts below smaller ones. h32 is unsigned.",
    hint: "Compare unsigned values: in JavaScript end with `>>> 0` (not `| 0`); in Rust keep u32 (no `as i32`); in Java use Integer.compareUnsigned.",
    forms: &[""],
    tweak: |k, _| k.signed = true,
};

pub(crate) const FLOAT_MULTIPLY: Mistake = Mistake {
    id: "float-multiply",
    title: "multiplies with `*` instead of Math.imul",
    explanation: "In JavaScript, h * 16777619 is a floating-point product: past 2^53 it loses its low bits before `>>> 0` reduces it, so your hash drifts from the pinned one.",
    hint: "Use Math.imul(h ^ b, 16777619) and Math.imul for the finalizer's products.",
    forms: &[""],
    tweak: |k, _| {
        k.hash.float_loop = true;
        k.hash.float_finalizer = true;
    },
};

pub(crate) const UTF16_UNITS: Mistake = Mistake {
    id: "utf16-units",
    title: "hashes UTF-16 code units instead of UTF-8 bytes",
    explanation: "Your hash feeds charCodeAt values to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
    hint: "Hash new TextEncoder().encode(text) (or Buffer.from(text, 'utf8')).",
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::Utf16,
};

pub(crate) const CODE_POINTS: Mistake = Mistake {
    id: "code-points",
    title: "hashes code points instead of UTF-8 bytes",
    explanation: "Your hash feeds ord(c) of each character to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
    hint: "Hash text.encode(\"utf-8\") byte by byte.",
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::CodePoints,
};

pub(crate) const SIGNED_BYTES: Mistake = Mistake {
    id: "signed-bytes",
    title: "hashes bytes as signed numbers",
    explanation: "Your hash reads UTF-8 bytes as signed (Java's byte, C's char), so a byte of 0x80 or more becomes negative and sets the high bits before the XOR. They agree on ASCII and part on other text.",
    hint: "XOR the byte's unsigned value: `b & 0xff` in Java, `(unsigned char)c` in C.",
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::SignedBytes,
};

pub(crate) const FNV1: Mistake = Mistake {
    id: "fnv-1",
    title: "multiplies before the XOR (FNV-1, not FNV-1a)",
    explanation: "Each step of FNV-1a XORs the byte in, then multiplies: h = (h ^ b) * 16777619. Your loop multiplies first and XORs after, which is FNV-1, another hash.",
    hint: "Swap the two lines of the loop: XOR the byte first, then multiply (Math.imul in JavaScript, wrapping_mul in Rust, & 0xFFFFFFFF in Python).",
    forms: &[""],
    tweak: |k, _| k.hash.fnv1 = true,
};

pub(crate) const MISSING_FINALIZER: Mistake = Mistake {
    id: "missing-finalizer",
    title: "leaves out all or part of the finalizer",
    explanation: "h32 is FNV-1a followed by the MurmurHash3 finalizer: h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16. Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
    hint: "Apply all five steps of the finalizer after the loop, the last `h ^= h >> 16` included.",
    forms: &FINALIZER_FORMS,
    tweak: |k, form| k.hash.finalizer = FINALIZERS[form],
};

pub(crate) const FLOAT_FINALIZER: Mistake = Mistake {
    id: "float-finalizer",
    title: "multiplies with `*` in the finalizer",
    explanation: "In JavaScript, h * 0x85ebca6b is a floating-point product: it exceeds 2^53 and loses its low bits before `>>> 0` (or % 2^32) reduces it. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong.",
    hint: "Use Math.imul(h, 0x85ebca6b) and Math.imul(h, 0xc2b2ae35), then `>>> 0` at the end.",
    forms: &[""],
    tweak: |k, _| k.hash.float_finalizer = true,
};

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

/// A node kept twice (rendezvous-router and hrw-top, whose members are
/// names alone).
pub(crate) const DUPLICATE_MEMBERSHIP: Mistake = Mistake {
    id: "duplicate-membership",
    title: "keeps nodes in a list, so a node can be there twice",
    explanation: "A node given twice is kept twice (where, the form says: in the constructor's list and by add, by add only, or in the constructor's list only), and removing it takes one copy away, so it still gets keys (and a ranking can name it twice). Membership is a set.",
    hint: "Keep the nodes in a set (or skip names already present).",
    forms: &["listed or added twice", "added twice", "listed twice"],
    tweak: |k, form| {
        k.list = true;
        k.listed_once = form == 1;
        k.added_once = form == 2;
    },
};

/// Removing the last node when the one asked for is absent.
pub(crate) const ABSENT_REMOVES_LAST: Mistake = Mistake {
    id: "absent-removes-last",
    title: "removing an absent node removes the last node added",
    explanation: "Removing a node that is not there must change nothing. Your remove takes the node's index, and for an absent node that is -1: `splice(-1, 1)` (or `del nodes[-1]`) removes the last node added instead, so its keys move for no reason.",
    hint: "Only remove what is there: `const i = nodes.indexOf(x); if (i !== -1) nodes.splice(i, 1);` (in Python, `if x in nodes: nodes.remove(x)`).",
    forms: &[""],
    tweak: |k, _| k.absent_removes_last = true,
};

/// `top(key, 0)` taken for no count (hrw-top and weighted-hrw).
pub(crate) const TOP_ZERO_RETURNS_ALL: Mistake = Mistake {
    id: "top-zero-returns-all",
    title: "top(key, 0) returns every node instead of none",
    explanation: "A count of 0 asks for no node, so the answer is []. Your code takes 0 for no count at all (`n || nodes.length` in JavaScript, `ranked[:n] if n else ranked` in Python) and returns the whole ranking.",
    hint: "Use the count as it is: `ranked[:n]` in Python, `slice(0, n)` in JavaScript, `take(n)` in Rust all give [] for 0.",
    forms: &[""],
    tweak: |k, _| k.top_zero_all = true,
};

/// A sort by a comparator that returns a boolean (every challenge that
/// ranks nodes by score).
pub(crate) const BOOLEAN_COMPARATOR: Mistake = Mistake {
    id: "boolean-comparator",
    title: "sorts with a comparator that returns a boolean, so nothing moves",
    explanation: "Your code sorts the nodes by score with a comparator that returns true or false, like `(a, b) => a.score < b.score`. A sort reads a comparator's result as negative, zero or positive; a boolean is never negative, so every pair looks in order and the sort (JavaScript's, or Python's with cmp_to_key) leaves the nodes as they were: the first node added comes first for every key.",
    hint: "Return a number: `(a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)`; in Python sort with a key: `sorted(nodes, key=lambda n: (-score(n), n))`.",
    forms: &[""],
    tweak: |k, _| k.unsorted = true,
};

/// Answers computed from the nodes as they were before a change: each
/// challenge lists the forms its code can take (`forms[form]` is made by
/// `tweak`).
pub(crate) const fn stale_after_change(
    forms: &'static [&'static str],
    tweak: fn(&mut Knobs, usize),
) -> Mistake {
    Mistake {
        id: "stale-after-change",
        title: "answers from the nodes as they were before add or remove",
        explanation: "After a node is added or removed, some of your answers still come from before. Either each key's answer is remembered the first time and never forgotten when the nodes change, or something computed per node (its hash state, its weight) is kept in a list beside the names that `remove` does not update, so from the removed node on, each name is scored with another node's data. The form says which.",
        hint: "Forget remembered answers whenever a node is added or removed (or do not remember them: an answer is cheap to compute); keep what you compute per node with its name (a dict or Map from name to data), or remove it from every list at once.",
        forms,
        tweak,
    }
}
