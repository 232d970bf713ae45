//! The mistakes more than one challenge can make: of the hash, of
//! comparing its values, of `remove`, of ranking and of answers kept
//! past a change.

use super::catalogue::Mistake;
use super::hash::{FINALIZER_FORMS, FINALIZERS, FLOAT_FORMS, FLOATS, Source};
use super::knobs::Knobs;
use crate::text::Text;

// The mistakes of the hash and of comparing its values, which every
// challenge can make: one text, a variant per challenge. Each hash
// mistake turns the knob of its own step, so two of different steps
// make one hash wrong in both, as learners' hashes are.

pub(crate) const SIGNED_COMPARISON: Mistake = Mistake {
    id: "signed-comparison",
    title: "compares h32 values as signed 32-bit numbers",
    explanation: Text::Plain(
        "Your code treats h32 values as signed 32-bit integers, so a value of 2^31 or more looks negative and sorts below smaller ones. h32 is unsigned.",
    ),
    hint: Text::Each {
        python: "Keep h32 unsigned: reduce with `h & 0xFFFFFFFF` and never turn the value into a signed one (`ctypes.c_int32`, `struct.unpack(\"i\", ...)`, `numpy.int32`).",
        javascript: "End h32 with `>>> 0`, not `| 0`, and compare those values: `| 0` and `^` leave a signed 32-bit number.",
        rust: "Keep h32 a u32 (no `as i32`) and compare the u32 values.",
        words: "Read and compare h32 values as unsigned 32-bit numbers, from 0 to 2^32 - 1: a value of 2^31 or more is larger than every smaller one, never negative.",
    },
    forms: &[""],
    tweak: |k, _| k.signed = true,
};

pub(crate) const FLOAT_MULTIPLY: Mistake = Mistake {
    id: "float-multiply",
    title: "multiplies in floating point, so the products lose their low bits",
    explanation: Text::Each {
        python: "Your products are floats (a float operand makes one): past 2^53 a float loses its low bits before the reduction modulo 2^32, so your hash drifts from the pinned one.",
        javascript: "`h * 16777619` is a floating-point product: past 2^53 it loses its low bits before `>>> 0` (or `% 2 ** 32`) reduces it, so your hash drifts from the pinned one. Which bits are lost depends on the operand's sign: a signed number, as `^` leaves it, or an unsigned one, after `>>> 0` (the form says which).",
        rust: "Your products are f64 values: past 2^53 they lose their low bits before the reduction modulo 2^32, so your hash drifts from the pinned one. Which bits are lost depends on the operand: an i32's value or a u32's (the form says which).",
        words: "Your products are floating-point numbers: past 2^53 they lose their low bits before the reduction modulo 2^32, so your hash drifts from the pinned one. Which bits are lost depends on the operand: the 32 bits read as a signed number or as an unsigned one (the form says which).",
    },
    hint: Text::Each {
        python: "Multiply integers and reduce: `h = ((h ^ b) * 16777619) & 0xFFFFFFFF`, and the same for the finalizer's two products (no float anywhere).",
        javascript: "Use `Math.imul(h ^ b, 16777619)` in the loop and `Math.imul` for the finalizer's two products.",
        rust: "Multiply u32 values with `wrapping_mul`: `h = (h ^ u32::from(b)).wrapping_mul(16777619)`, and the same for the finalizer's two products.",
        words: "Multiply 32-bit integers and keep the low 32 bits of each product, in the loop and in the finalizer's two products; never go through floating point.",
    },
    forms: &FLOAT_FORMS,
    tweak: |k, form| {
        k.hash.loop_product = FLOATS[form];
        k.hash.mix_products = [FLOATS[form]; 2];
    },
};

/// Floating-point products in the FNV-1a loop alone: the widely copied
/// `hash = (hash * 16777619) >>> 0` beside a finalizer with `Math.imul`.
pub(crate) const FLOAT_LOOP: Mistake = Mistake {
    id: "float-loop",
    title: "multiplies in floating point in the FNV-1a loop",
    explanation: Text::Each {
        python: "Your loop's products are floats (a float operand makes one): `(h ^ b) * 16777619` exceeds 2^53, and as a float loses its low bits before the reduction modulo 2^32. Your finalizer is right, but the loop's state drifts from the first byte on: h32(\"\") is right, most other values are wrong.",
        javascript: "`(h ^ b) * 16777619` is a floating-point product: it exceeds 2^53 and loses its low bits before `>>> 0` (or `% 2 ** 32`) reduces it. Your finalizer is right, but the loop's state drifts from the first byte on: h32(\"\") is right, most other values are wrong. Which bits are lost depends on the operand's sign: a signed number, as `^` leaves it, or an unsigned one, after `>>> 0` (the form says which).",
        rust: "Your loop's products are f64 values: `(h ^ b) * 16777619` exceeds 2^53 and loses its low bits before the reduction modulo 2^32. Your finalizer is right, but the loop's state drifts from the first byte on: h32(\"\") is right, most other values are wrong. Which bits are lost depends on the operand: an i32's value or a u32's (the form says which).",
        words: "Your loop's products are floating-point numbers: (h XOR byte) times 16777619 exceeds 2^53 and loses its low bits before the reduction modulo 2^32. Your finalizer is right, but the loop's state drifts from the first byte on: h32(\"\") is right, most other values are wrong. Which bits are lost depends on the operand: the 32 bits read as a signed number or as an unsigned one (the form says which).",
    },
    hint: Text::Each {
        python: "Multiply integers in the loop: `h = ((h ^ b) * 16777619) & 0xFFFFFFFF`, with no float anywhere, as in your finalizer.",
        javascript: "Use `h = Math.imul(h ^ b, 16777619)` in the loop, as in your finalizer.",
        rust: "Multiply u32 values in the loop: `h = (h ^ u32::from(b)).wrapping_mul(16777619)`, as in your finalizer.",
        words: "Multiply 32-bit integers in the loop and keep the low 32 bits of each product, as in your finalizer; never go through floating point.",
    },
    forms: &FLOAT_FORMS,
    tweak: |k, form| k.hash.loop_product = FLOATS[form],
};

/// How to hash the UTF-8 bytes, in each language.
const HASH_UTF8: Text = Text::Each {
    python: "Hash `text.encode(\"utf-8\")` byte by byte.",
    javascript: "Hash the bytes of `new TextEncoder().encode(text)` (or `Buffer.from(text, \"utf8\")`).",
    rust: "Hash `text.as_bytes()` byte by byte.",
    words: "Hash the text's UTF-8 bytes, one byte at a time.",
};

pub(crate) const UTF16_UNITS: Mistake = Mistake {
    id: "utf16-units",
    title: "hashes UTF-16 code units instead of UTF-8 bytes",
    explanation: Text::Each {
        python: "Your hash feeds UTF-16 code units (from `text.encode(\"utf-16-le\")`, say) to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        javascript: "Your hash feeds `charCodeAt` values to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        rust: "Your hash feeds UTF-16 code units (`text.encode_utf16()`) to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        words: "Your hash feeds UTF-16 code units to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
    },
    hint: HASH_UTF8,
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::Utf16,
};

pub(crate) const CODE_POINTS: Mistake = Mistake {
    id: "code-points",
    title: "hashes code points instead of UTF-8 bytes",
    explanation: Text::Each {
        python: "Your hash feeds `ord(c)` of each character to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        javascript: "Your hash feeds each character's code point (`codePointAt`, or a `for...of` loop over the text) to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        rust: "Your hash feeds each char of `text.chars()` to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        words: "Your hash feeds each character's code point to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
    },
    hint: HASH_UTF8,
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::CodePoints,
};

pub(crate) const SIGNED_BYTES: Mistake = Mistake {
    id: "signed-bytes",
    title: "hashes bytes as signed numbers",
    explanation: Text::Plain(
        "Your hash reads the UTF-8 bytes as signed numbers, so a byte of 0x80 or more becomes negative and sets the high bits before the XOR. They agree on ASCII and part on other text.",
    ),
    hint: Text::Each {
        python: "XOR each byte of `text.encode(\"utf-8\")` as it is, 0 to 255: no `signed=True`, no subtracting 256.",
        javascript: "XOR each byte of `new TextEncoder().encode(text)`, a `Uint8Array` (0 to 255), not of an `Int8Array`.",
        rust: "XOR each byte as a u32, `u32::from(b)` for `b` in `text.as_bytes()`, not `b as i8 as u32`.",
        words: "XOR each byte's unsigned value, 0 to 255, into the hash.",
    },
    forms: &[""],
    tweak: |k, _| k.hash.source = Source::SignedBytes,
};

pub(crate) const FNV1: Mistake = Mistake {
    id: "fnv-1",
    title: "multiplies before the XOR (FNV-1, not FNV-1a)",
    explanation: Text::Plain(
        "Each step of FNV-1a XORs the byte in, then multiplies by 16777619. Your loop multiplies first and XORs after, which is FNV-1, another hash.",
    ),
    hint: Text::Each {
        python: "Swap the two lines of the loop: `h ^= b` first, then `h = (h * 16777619) & 0xFFFFFFFF`.",
        javascript: "Swap the two lines of the loop: `h ^= b` first, then `h = Math.imul(h, 16777619)`.",
        rust: "Swap the two lines of the loop: `h ^= u32::from(b)` first, then `h = h.wrapping_mul(16777619)`.",
        words: "Swap the two steps of the loop: XOR the byte in first, then multiply by 16777619.",
    },
    forms: &[""],
    tweak: |k, _| k.hash.fnv1 = true,
};

pub(crate) const MISSING_FINALIZER: Mistake = Mistake {
    id: "missing-finalizer",
    title: "leaves out all or part of the finalizer",
    explanation: Text::Each {
        python: "h32 is FNV-1a followed by the MurmurHash3 finalizer: `h ^= h >> 16`, `h = (h * 0x85EBCA6B) & 0xFFFFFFFF`, `h ^= h >> 13`, `h = (h * 0xC2B2AE35) & 0xFFFFFFFF`, `h ^= h >> 16`. Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
        javascript: "h32 is FNV-1a followed by the MurmurHash3 finalizer: `h ^= h >>> 16`, `h = Math.imul(h, 0x85ebca6b)`, `h ^= h >>> 13`, `h = Math.imul(h, 0xc2b2ae35)`, `h ^= h >>> 16`, then `h >>> 0`. Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
        rust: "h32 is FNV-1a followed by the MurmurHash3 finalizer: `h ^= h >> 16`, `h = h.wrapping_mul(0x85eb_ca6b)`, `h ^= h >> 13`, `h = h.wrapping_mul(0xc2b2_ae35)`, `h ^= h >> 16`. Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
        words: "h32 is FNV-1a followed by the MurmurHash3 finalizer: XOR h with h shifted right by 16, multiply by 0x85ebca6b, XOR with h shifted right by 13, multiply by 0xc2b2ae35, XOR with h shifted right by 16 (each product kept to its low 32 bits). Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
    },
    hint: Text::Each {
        python: "Apply all five steps of the finalizer after the loop, the last `h ^= h >> 16` included.",
        javascript: "Apply all five steps of the finalizer after the loop, the last `h ^= h >>> 16` included.",
        rust: "Apply all five steps of the finalizer after the loop, the last `h ^= h >> 16` included.",
        words: "Apply all five steps of the finalizer after the loop, the last XOR with h shifted right by 16 included.",
    },
    forms: &FINALIZER_FORMS,
    tweak: |k, form| k.hash.finalizer = FINALIZERS[form],
};

pub(crate) const FLOAT_FINALIZER: Mistake = Mistake {
    id: "float-finalizer",
    title: "multiplies in floating point in the finalizer",
    explanation: Text::Each {
        python: "Your finalizer's products are floats: `h * 0x85EBCA6B` exceeds 2^53, and as a float loses its low bits before the reduction modulo 2^32. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong.",
        javascript: "`h * 0x85ebca6b` is a floating-point product: it exceeds 2^53 and loses its low bits before `>>> 0` (or `% 4294967296`) reduces it. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong. Which bits are lost depends on the operand's sign: a signed number, as `^` leaves it, or an unsigned one, after `>>> 0` (the form says which).",
        rust: "Your finalizer's products are f64 values: they exceed 2^53 and lose their low bits before the reduction modulo 2^32. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong. Which bits are lost depends on the operand: an i32's value or a u32's (the form says which).",
        words: "Your finalizer's products are floating-point numbers: they exceed 2^53 and lose their low bits before the reduction modulo 2^32. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong. Which bits are lost depends on the operand: the 32 bits read as a signed number or as an unsigned one (the form says which).",
    },
    hint: Text::Each {
        python: "Multiply integers: `h = (h * 0x85EBCA6B) & 0xFFFFFFFF` and `h = (h * 0xC2B2AE35) & 0xFFFFFFFF`.",
        javascript: "Use `Math.imul(h, 0x85ebca6b)` and `Math.imul(h, 0xc2b2ae35)`, then `>>> 0` at the end.",
        rust: "Multiply u32 values: `h = h.wrapping_mul(0x85eb_ca6b)` and `h = h.wrapping_mul(0xc2b2_ae35)`.",
        words: "Multiply 32-bit integers and keep the low 32 bits of each of the finalizer's two products; never go through floating point.",
    },
    forms: &FLOAT_FORMS,
    tweak: |k, form| k.hash.mix_products = [FLOATS[form]; 2],
};

/// Raising on the removal of an absent node, which every challenge's
/// `remove` must ignore.
pub(crate) const REMOVE_ABSENT_RAISES: Mistake = Mistake {
    id: "remove-absent-raises",
    title: "fails when removing a node that is not there",
    explanation: Text::Plain(
        "Removing an absent node must change nothing; your code fails with an error instead.",
    ),
    hint: Text::Each {
        python: "Check membership first, or remove with what ignores absent names: `nodes.discard(name)` on a set, `weights.pop(name, None)` on a dict.",
        javascript: "Check membership first: a `Set`'s or a `Map`'s `delete` ignores absent names; on an array, splice only when `indexOf` found the name.",
        rust: "Check membership first, or use a removal that ignores absent names: `remove` on a `BTreeSet` or `HashMap` returns what it removed, and `retain` removes nothing absent; no `unwrap()` on a lookup.",
        words: "Check whether the node is there first, and change nothing when it is not.",
    },
    forms: &[""],
    tweak: |k, _| k.raise_on_absent = true,
};

/// A node kept twice (rendezvous-router and hrw-top, whose members are
/// names alone).
pub(crate) const DUPLICATE_MEMBERSHIP: Mistake = Mistake {
    id: "duplicate-membership",
    title: "keeps nodes in a list, so a node can be there twice",
    explanation: Text::Plain(
        "A node given twice is kept twice (where, the form says: in the constructor's list and by add, by add only, or in the constructor's list only), and removing it takes one copy away, so it still gets keys (and a ranking can name it twice). Membership is a set.",
    ),
    hint: Text::Each {
        python: "Keep the nodes in a set (or a dict), or skip names already present.",
        javascript: "Keep the nodes in a `Set` (or a `Map`), or skip names already present.",
        rust: "Keep the nodes in a `BTreeSet` (or a `HashSet`), or skip names already present.",
        words: "Keep the nodes as a set, or skip names already present.",
    },
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
    explanation: Text::Each {
        python: "Removing a node that is not there must change nothing. Your remove takes the node's index, and for an absent node that is -1: `del nodes[-1]` removes the last node added instead, so its keys move for no reason.",
        javascript: "Removing a node that is not there must change nothing. Your remove takes the node's index, and for an absent node that is -1: `splice(-1, 1)` removes the last node added instead, so its keys move for no reason.",
        rust: "Removing a node that is not there must change nothing. Your remove falls back to the last index when the node is not found (`unwrap_or(nodes.len() - 1)`, say), so the last node added is removed instead and its keys move for no reason.",
        words: "Removing a node that is not there must change nothing. Your remove takes the node's index, and for an absent node it takes the last one: the last node added is removed instead, so its keys move for no reason.",
    },
    hint: Text::Each {
        python: "Only remove what is there: `if x in nodes: nodes.remove(x)`.",
        javascript: "Only remove what is there: `const i = nodes.indexOf(x); if (i !== -1) nodes.splice(i, 1);`.",
        rust: "Only remove what is there: `if let Some(i) = nodes.iter().position(|n| n == x) { nodes.remove(i); }`.",
        words: "Only remove what is there: look the node up, and remove nothing when it is not found.",
    },
    forms: &[""],
    tweak: |k, _| k.absent_removes_last = true,
};

/// `top(key, 0)` taken for no count (hrw-top and weighted-hrw).
pub(crate) const TOP_ZERO_RETURNS_ALL: Mistake = Mistake {
    id: "top-zero-returns-all",
    title: "top(key, 0) returns every node instead of none",
    explanation: Text::Each {
        python: "A count of 0 asks for no node, so the answer is []. Your code takes 0 for no count at all (`n or len(nodes)`, `ranked[:n] if n else ranked`) and returns the whole ranking.",
        javascript: "A count of 0 asks for no node, so the answer is []. Your code takes 0 for no count at all (`n || nodes.length`) and returns the whole ranking.",
        rust: "A count of 0 asks for no node, so the answer is []. Your code takes 0 for no count at all (`if n == 0 { nodes.len() } else { n }`) and returns the whole ranking.",
        words: "A count of 0 asks for no node, so the answer is []. Your code takes 0 for no count at all and returns the whole ranking.",
    },
    hint: Text::Each {
        python: "Use the count as it is: `ranked[:n]` gives [] for 0.",
        javascript: "Use the count as it is: `ranked.slice(0, n)` gives [] for 0.",
        rust: "Use the count as it is: `ranked.into_iter().take(n)` gives nothing for 0.",
        words: "Use the count as it is: a count of 0 answers an empty list.",
    },
    forms: &[""],
    tweak: |k, _| k.top_zero_all = true,
};

/// A sort by a comparator that returns a boolean (every challenge that
/// ranks nodes by score).
pub(crate) const BOOLEAN_COMPARATOR: Mistake = Mistake {
    id: "boolean-comparator",
    title: "sorts with a comparator that returns a boolean, so nothing moves",
    explanation: Text::Each {
        python: "Your code sorts with `functools.cmp_to_key` and a comparison that returns True or False, like `lambda a, b: a.score < b.score`. A sort reads a comparison's result as negative, zero or positive; a bool is never negative, so every pair looks in order and the sort leaves the nodes as they were: the first node added comes first for every key.",
        javascript: "Your code sorts the nodes by score with a comparator that returns true or false, like `(a, b) => a.score < b.score`. A sort reads a comparator's result as negative, zero or positive; a boolean is never negative, so every pair looks in order and the sort leaves the nodes as they were: the first node added comes first for every key.",
        rust: "Your code sorts with a comparison that only says whether two nodes are in order (a bool made into an `Ordering` that is never `Less`), so every pair looks in order and the sort leaves the nodes as they were: the first node added comes first for every key.",
        words: "Your code sorts the nodes with a comparison that answers only true or false. A sort reads a comparison's result as negative, zero or positive; true or false is never negative, so every pair looks in order and the sort leaves the nodes as they were: the first node added comes first for every key.",
    },
    hint: Text::Each {
        python: "Sort with a key instead: `sorted(nodes, key=lambda n: (-score(n), n))`.",
        javascript: "Return a number: `(a, b) => b.score - a.score || (a.name < b.name ? -1 : 1)`.",
        rust: "Compare with an `Ordering`: `nodes.sort_by(|a, b| b.score.cmp(&a.score).then(a.name.cmp(&b.name)))`.",
        words: "Make the comparison say less, equal or greater (a negative number, zero or a positive one): the higher score first, then the smaller name.",
    },
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
        explanation: Text::Plain(
            "After a node is added or removed, some of your answers still come from before. Either each key's answer is remembered the first time and never forgotten when the nodes change, or something computed per node (its hash state, its weight) is kept in a list beside the names that `remove` does not update, so from the removed node on, each name is scored with another node's data. The form says which.",
        ),
        hint: Text::Each {
            python: "Forget remembered answers whenever a node is added or removed (or do not remember them: an answer is cheap to compute); keep what you compute per node with its name (a dict from name to data), or remove it from every list at once.",
            javascript: "Forget remembered answers whenever a node is added or removed (or do not remember them: an answer is cheap to compute); keep what you compute per node with its name (a `Map` from name to data), or remove it from every array at once.",
            rust: "Forget remembered answers whenever a node is added or removed (or do not remember them: an answer is cheap to compute); keep what you compute per node with its name (a `BTreeMap` from name to data), or remove it from every `Vec` at once.",
            words: "Forget remembered answers whenever a node is added or removed (or do not remember them: an answer is cheap to compute); keep what you compute per node with its name (a map from name to data), or remove it from every list at once.",
        },
        forms,
        tweak,
    }
}
