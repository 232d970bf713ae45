//! The mistakes every challenge can make: of the hash, of comparing its
//! values, and of `remove`.

use super::catalogue::Mistake;
use super::hash::{FINALIZER_FORMS, FINALIZERS, Source};

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
