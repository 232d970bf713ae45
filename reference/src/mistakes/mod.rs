//! Known mistakes: the reference with one thing wrong, the way learners get
//! it wrong. The grader replays a failing submission's cases on each to
//! name the mistake, and authors audit a suite against them.

pub mod ranking;
pub mod ring;

use crate::hash::fmix32;
#[cfg(test)]
use crate::hash::h32;
use crate::model::{Arg, Op};
use serde_json::Value;

/// A mistake a learner makes, as a runnable variant of the reference.
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
    /// Builds the variant in form `forms[form]` from the constructor's args.
    pub build: fn(&[Arg], usize) -> Box<dyn Variant>,
}

impl std::fmt::Debug for Mistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mistake")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
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

/// Replays `ops` on mistake `m` in form `form`.
pub fn run(m: &Mistake, form: usize, args: &[Arg], ops: &[Op]) -> VariantRun {
    let mut variant = (m.build)(args, form);
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

/// Which hash a mistaken router uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Hash {
    Pinned,
    /// JavaScript's `(h * 16777619) >>> 0`: a double product that loses
    /// bits past 2^53 before the reduction.
    FloatMultiply,
    /// The sum of the UTF-8 bytes.
    ByteSum,
    /// FNV-1a over UTF-16 code units (JavaScript's `charCodeAt`).
    Utf16,
    /// FNV-1a over Unicode code points (Python's `ord(c)`).
    CodePoints,
    /// FNV-1a over bytes read as signed (Java's `getBytes()`, C's `char`):
    /// a byte of 0x80 or more is sign-extended before the XOR.
    SignedBytes,
    /// FNV-1: multiply, then XOR (the other order of FNV-1a's step).
    Fnv1,
    /// FNV-1a with no finalizer at all.
    NoFinalizer,
    /// FNV-1a and the finalizer without its last `h ^= h >> 16`.
    LastShiftMissing,
    /// JavaScript with `Math.imul` in the loop but `*` in the finalizer:
    /// its two products are rounded doubles before `>>> 0`.
    FloatFinalizer,
}

/// How the winner is picked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Pick {
    Highest,
    Lowest,
    /// The first maximum in insertion order: ties go to the older node.
    FirstMaximum,
    /// Scores compared as signed 32-bit integers.
    SignedHighest,
    /// Ties go to the larger name (`max` over `(score, name)` pairs).
    LargerName,
    /// The last maximum in insertion order (Rust's `max_by_key`).
    LastMaximum,
}

/// A rendezvous router with one mistake switched on.
#[derive(Debug, Clone)]
struct WrongRouter {
    /// In insertion order (duplicates only with `list`).
    nodes: Vec<String>,
    hash: Hash,
    pick: Pick,
    /// Joins node and key (or key and node with `swapped`).
    separator: &'static str,
    swapped: bool,
    /// A list, not a set: duplicates kept, one copy removed at a time.
    list: bool,
    raise_on_absent: bool,
}

impl WrongRouter {
    fn new(args: &[Arg]) -> WrongRouter {
        WrongRouter {
            nodes: match args {
                [Arg::Names(names)] => names.clone(),
                _ => Vec::new(),
            },
            hash: Hash::Pinned,
            pick: Pick::Highest,
            separator: ":",
            swapped: false,
            list: false,
            raise_on_absent: false,
        }
    }

    fn finish(mut self) -> Box<dyn Variant> {
        if !self.list {
            let mut seen = Vec::new();
            self.nodes.retain(|n| {
                let first = !seen.contains(n);
                seen.push(n.clone());
                first
            });
        }
        Box::new(self)
    }

    fn score(&self, node: &str, key: &str) -> u32 {
        let (a, b) = if self.swapped {
            (key, node)
        } else {
            (node, key)
        };
        self.hash.of(&[a, self.separator, b])
    }

    fn route(&self, key: &str) -> Option<String> {
        let mut best: Option<(&String, i64)> = None;
        for node in &self.nodes {
            let raw = self.score(node, key);
            let score = match self.pick {
                Pick::SignedHighest => i64::from(raw as i32),
                _ => i64::from(raw),
            };
            let better = match best {
                None => true,
                Some((b, s)) => match self.pick {
                    Pick::Highest | Pick::SignedHighest => score > s || (score == s && node < b),
                    Pick::Lowest => score < s || (score == s && node < b),
                    Pick::FirstMaximum => score > s,
                    Pick::LargerName => score > s || (score == s && node > b),
                    Pick::LastMaximum => score >= s,
                },
            };
            if better {
                best = Some((node, score));
            }
        }
        best.map(|(n, _)| n.clone())
    }
}

impl Variant for WrongRouter {
    fn apply(&mut self, op: &Op) -> Result<Value, String> {
        let name = op.name_at(0);
        match op.name() {
            "route" => Ok(self.route(name).map_or(Value::Null, Value::from)),
            "add" => {
                if self.list || !self.nodes.iter().any(|n| n == name) {
                    self.nodes.push(name.to_owned());
                }
                Ok(Value::Null)
            }
            "remove" => match self.nodes.iter().position(|n| n == name) {
                Some(i) => {
                    self.nodes.remove(i);
                    Ok(Value::Null)
                }
                None if self.raise_on_absent => Err(format!("{name} is not a node")),
                None => Ok(Value::Null),
            },
            other => Err(format!("no operation {other}")),
        }
    }
}

impl Hash {
    /// This hash of the concatenation of `parts`, without building it.
    pub(crate) fn of(self, parts: &[&str]) -> u32 {
        let bytes = || parts.iter().flat_map(|p| p.bytes());
        let chars = || parts.iter().flat_map(|p| p.chars());
        match self {
            Hash::Pinned => crate::hash::h32_concat(parts),
            Hash::FloatMultiply => float_multiply_h32_bytes(bytes()),
            Hash::ByteSum => bytes().fold(0u32, |s, b| s.wrapping_add(u32::from(b))),
            Hash::Utf16 => fmix32(fnv_units(
                chars()
                    .flat_map(|c| {
                        let mut units = [0u16; 2];
                        let n = c.encode_utf16(&mut units).len();
                        units.into_iter().take(n)
                    })
                    .map(u32::from),
            )),
            Hash::CodePoints => fmix32(fnv_units(chars().map(u32::from))),
            Hash::SignedBytes => fmix32(fnv_units(bytes().map(|b| b as i8 as i32 as u32))),
            Hash::Fnv1 => fmix32(bytes().fold(crate::hash::FNV_OFFSET, |h, b| {
                h.wrapping_mul(crate::hash::FNV_PRIME) ^ u32::from(b)
            })),
            Hash::NoFinalizer => fnv_units(bytes().map(u32::from)),
            Hash::LastShiftMissing => {
                let mut h = fnv_units(bytes().map(u32::from));
                h ^= h >> 16;
                h = h.wrapping_mul(0x85eb_ca6b);
                h ^= h >> 13;
                h.wrapping_mul(0xc2b2_ae35)
            }
            Hash::FloatFinalizer => js_float_finalizer(fnv_units(bytes().map(u32::from))),
        }
    }
}

/// A wrong h32 a learner writes: which step of the hash it gets wrong, and
/// the catalogue mistake that is (by id and form).
#[derive(Debug, Clone, Copy)]
pub struct HashVariant {
    /// The mistake's id in every challenge's catalogue.
    pub id: &'static str,
    /// Its form, for a mistake with several.
    pub form: Option<&'static str>,
    /// The step that is wrong, in words.
    pub step: &'static str,
    hash: Hash,
}

impl HashVariant {
    /// This variant's value for `text`.
    pub fn h32(&self, text: &str) -> u32 {
        self.hash.of(&[text])
    }
}

/// Every wrong h32 the catalogue knows, to compare with a learner's own.
pub static HASH_VARIANTS: [HashVariant; 9] = [
    HashVariant {
        id: "float-multiply",
        form: None,
        step: "every product is a floating-point `*` (JavaScript), not Math.imul",
        hash: Hash::FloatMultiply,
    },
    HashVariant {
        id: "float-finalizer",
        form: None,
        step: "the finalizer's two products are floating-point `*` (JavaScript), not Math.imul",
        hash: Hash::FloatFinalizer,
    },
    HashVariant {
        id: "fnv-1",
        form: None,
        step: "the loop multiplies before the XOR (FNV-1, not FNV-1a)",
        hash: Hash::Fnv1,
    },
    HashVariant {
        id: "missing-finalizer",
        form: Some(FINALIZER_FORMS[0]),
        step: "the finalizer is missing: the value is FNV-1a's alone",
        hash: Hash::NoFinalizer,
    },
    HashVariant {
        id: "missing-finalizer",
        form: Some(FINALIZER_FORMS[1]),
        step: "the finalizer lacks its last `h ^= h >> 16`",
        hash: Hash::LastShiftMissing,
    },
    HashVariant {
        id: "utf16-units",
        form: None,
        step: "the loop reads UTF-16 code units (charCodeAt), not UTF-8 bytes",
        hash: Hash::Utf16,
    },
    HashVariant {
        id: "code-points",
        form: None,
        step: "the loop reads code points (ord), not UTF-8 bytes",
        hash: Hash::CodePoints,
    },
    HashVariant {
        id: "signed-bytes",
        form: None,
        step: "the loop reads bytes as signed numbers",
        hash: Hash::SignedBytes,
    },
    HashVariant {
        id: "byte-sum",
        form: None,
        step: "the hash is a sum of the bytes, not FNV-1a with the finalizer",
        hash: Hash::ByteSum,
    },
];

/// How a mistake's variant is built from the constructor's arguments and a
/// form.
pub(crate) type Build = fn(&[Arg], usize) -> Box<dyn Variant>;

// The mistakes of the hash and of comparing its values, which every
// challenge can make: one text, a variant per challenge.

pub(crate) const fn signed_comparison(build: Build) -> Mistake {
    Mistake {
        id: "signed-comparison",
        title: "compares h32 values as signed 32-bit numbers",
        explanation: "Your code treats h32 values as signed 32-bit integers, so a value of 2^31 or more looks negative and sorts below smaller ones. h32 is unsigned.",
        hint: "Compare unsigned values: in JavaScript end with `>>> 0` (not `| 0`); in Rust keep u32 (no `as i32`); in Java use Integer.compareUnsigned.",
        forms: &[""],
        build,
    }
}

pub(crate) const fn float_multiply(build: Build) -> Mistake {
    Mistake {
        id: "float-multiply",
        title: "multiplies with `*` instead of Math.imul",
        explanation: "In JavaScript, h * 16777619 is a floating-point product: past 2^53 it loses its low bits before `>>> 0` reduces it, so your hash drifts from the pinned one.",
        hint: "Use Math.imul(h ^ b, 16777619) and Math.imul for the finalizer's products.",
        forms: &[""],
        build,
    }
}

pub(crate) const fn utf16_units(build: Build) -> Mistake {
    Mistake {
        id: "utf16-units",
        title: "hashes UTF-16 code units instead of UTF-8 bytes",
        explanation: "Your hash feeds charCodeAt values to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        hint: "Hash new TextEncoder().encode(text) (or Buffer.from(text, 'utf8')).",
        forms: &[""],
        build,
    }
}

pub(crate) const fn code_points(build: Build) -> Mistake {
    Mistake {
        id: "code-points",
        title: "hashes code points instead of UTF-8 bytes",
        explanation: "Your hash feeds ord(c) of each character to FNV-1a; h32 hashes the UTF-8 bytes. They agree on ASCII and part on other text.",
        hint: "Hash text.encode(\"utf-8\") byte by byte.",
        forms: &[""],
        build,
    }
}

pub(crate) const fn signed_bytes(build: Build) -> Mistake {
    Mistake {
        id: "signed-bytes",
        title: "hashes bytes as signed numbers",
        explanation: "Your hash reads UTF-8 bytes as signed (Java's byte, C's char), so a byte of 0x80 or more becomes negative and sets the high bits before the XOR. They agree on ASCII and part on other text.",
        hint: "XOR the byte's unsigned value: `b & 0xff` in Java, `(unsigned char)c` in C.",
        forms: &[""],
        build,
    }
}

pub(crate) const fn fnv1(build: Build) -> Mistake {
    Mistake {
        id: "fnv-1",
        title: "multiplies before the XOR (FNV-1, not FNV-1a)",
        explanation: "Each step of FNV-1a XORs the byte in, then multiplies: h = (h ^ b) * 16777619. Your loop multiplies first and XORs after, which is FNV-1, another hash.",
        hint: "Swap the two lines of the loop: XOR the byte first, then multiply (Math.imul in JavaScript, wrapping_mul in Rust, & 0xFFFFFFFF in Python).",
        forms: &[""],
        build,
    }
}

/// The forms of [`missing_finalizer`], in order.
const FINALIZER_FORMS: [&str; 2] = ["no finalizer", "without its last h ^= h >> 16"];

/// The [`Hash`] of each form of [`missing_finalizer`].
pub(crate) const FINALIZER_HASHES: [Hash; 2] = [Hash::NoFinalizer, Hash::LastShiftMissing];

pub(crate) const fn missing_finalizer(build: Build) -> Mistake {
    Mistake {
        id: "missing-finalizer",
        title: "leaves out all or part of the finalizer",
        explanation: "h32 is FNV-1a followed by the MurmurHash3 finalizer: h ^= h >> 16; h *= 0x85ebca6b; h ^= h >> 13; h *= 0xc2b2ae35; h ^= h >> 16. Your hash stops before its end. h32(\"\") shows it: the pinned value is 2872998923, FNV-1a alone gives 2166136261.",
        hint: "Apply all five steps of the finalizer after the loop, the last `h ^= h >> 16` included.",
        forms: &FINALIZER_FORMS,
        build,
    }
}

pub(crate) const fn float_finalizer(build: Build) -> Mistake {
    Mistake {
        id: "float-finalizer",
        title: "multiplies with `*` in the finalizer",
        explanation: "In JavaScript, h * 0x85ebca6b is a floating-point product: it exceeds 2^53 and loses its low bits before `>>> 0` (or % 2^32) reduces it. Your FNV-1a loop is right, but the finalizer drifts, so even h32(\"\") is wrong.",
        hint: "Use Math.imul(h, 0x85ebca6b) and Math.imul(h, 0xc2b2ae35), then `>>> 0` at the end.",
        forms: &[""],
        build,
    }
}

/// The pinned hash as JavaScript computes it with `Math.imul` in the FNV-1a
/// loop but `*` in the finalizer, in the usual shape:
///
/// ```js
/// h ^= h >>> 16; h = (h * 0x85ebca6b) % 4294967296;
/// h ^= h >>> 13; h = (h * 0xc2b2ae35) % 4294967296;
/// h ^= h >>> 16; return h >>> 0;
/// ```
pub fn float_finalizer_h32(bytes: &[u8]) -> u32 {
    js_float_finalizer(fnv_units(bytes.iter().map(|&b| u32::from(b))))
}

/// The finalizer of h32 as JavaScript computes it with `*` instead of
/// `Math.imul` (each product a rounded double before `>>> 0`), on an
/// FNV-1a state computed right.
fn js_float_finalizer(state: u32) -> u32 {
    let mut h = f64::from(state);
    h = js_xor(h, f64::from(to_uint32(h) >> 16));
    h = f64::from(to_uint32(h * f64::from(0x85eb_ca6bu32)));
    h = js_xor(h, f64::from(to_uint32(h) >> 13));
    h = f64::from(to_uint32(h * f64::from(0xc2b2_ae35u32)));
    h = js_xor(h, f64::from(to_uint32(h) >> 16));
    to_uint32(h)
}

/// FNV-1a over arbitrary code units (each XORed whole), then the finalizer.
fn fnv_units(units: impl Iterator<Item = u32>) -> u32 {
    units.fold(crate::hash::FNV_OFFSET, |h, u| {
        (h ^ u).wrapping_mul(crate::hash::FNV_PRIME)
    })
}

/// JavaScript's `x >>> 0` of an integer-valued double.
fn to_uint32(x: f64) -> u32 {
    x.trunc().rem_euclid(4_294_967_296.0) as u32
}

/// JavaScript's `x ^ y` on two numbers: both to int32, the result int32.
fn js_xor(x: f64, y: f64) -> f64 {
    f64::from((to_uint32(x) as i32) ^ (to_uint32(y) as i32))
}

/// The pinned hash as JavaScript computes it with `*` instead of
/// `Math.imul`, in the usual shape:
///
/// ```js
/// let h = 2166136261;
/// for (const b of bytes) { h ^= b; h = (h * 16777619) >>> 0; }
/// h ^= h >>> 16; h = (h * 0x85ebca6b) >>> 0;
/// h ^= h >>> 13; h = (h * 0xc2b2ae35) >>> 0;
/// h ^= h >>> 16; return h >>> 0;
/// ```
///
/// Each product is rounded to a double's 53 bits before `>>> 0` reduces it,
/// exactly as JavaScript does.
pub fn float_multiply_h32(bytes: &[u8]) -> u32 {
    float_multiply_h32_bytes(bytes.iter().copied())
}

fn float_multiply_h32_bytes(bytes: impl Iterator<Item = u8>) -> u32 {
    let mut h: f64 = 2_166_136_261.0;
    for b in bytes {
        h = js_xor(h, f64::from(b));
        h = f64::from(to_uint32(h * 16_777_619.0));
    }
    js_float_finalizer(to_uint32(h))
}

/// Separators learners put between node and key instead of ":".
const WRONG_SEPARATORS: [&str; 9] = ["|", "-", "/", " ", ",", ";", "_", ".", "#"];

/// The rendezvous-router mistakes.
pub static RENDEZVOUS: [Mistake; 18] = [
    Mistake {
        id: "lowest-score",
        title: "the lowest score wins instead of the highest",
        explanation: "Your router keeps the node with the smallest h32(node + \":\" + key); the rule is the largest.",
        hint: "Keep the maximum: replace min with max, or flip the comparison.",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                pick: Pick::Lowest,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "first-maximum",
        title: "ties go to the node seen first, not to the smaller name",
        explanation: "Your router keeps the first maximum it meets, so when two nodes tie the one added earlier wins. Ties must go to the smaller name, whatever the order nodes were added in.",
        hint: "On equal scores, compare the names: `score > best or (score == best and node < best_node)`.",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                pick: Pick::FirstMaximum,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "ties-to-larger-name",
        title: "ties go to the larger name",
        explanation: "When two nodes tie, your router picks the larger name; ties must go to the smaller one. `max(nodes, key=lambda n: (score(n), n))` does this: the larger name makes the larger pair.",
        hint: "Break ties towards the smaller name: `min(nodes, key=lambda n: (-score(n), n))`, or compare explicitly: `score > best or (score == best and node < best_node)`.",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                pick: Pick::LargerName,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "last-maximum",
        title: "ties go to the node seen last, not to the smaller name",
        explanation: "Your router keeps the last maximum it meets, so when two nodes tie the one added later wins (Rust's `max_by_key` returns the last of equal maxima). Ties must go to the smaller name, whatever the order nodes were added in.",
        hint: "Compare (score, Reverse(name)) in Rust: `max_by(|a, b| score(a).cmp(&score(b)).then(b.cmp(a)))`; elsewhere, on equal scores keep the smaller name.",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                pick: Pick::LastMaximum,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "key-node-swapped",
        title: "hashes key + \":\" + node instead of node + \":\" + key",
        explanation: "Your router scores the text key + \":\" + node; the pinned score hashes the node's name first.",
        hint: "Hash f\"{node}:{key}\" (node first).",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                swapped: true,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "no-separator",
        title: "hashes node + key with no \":\" between them",
        explanation: "Your router scores node + key; the pinned score puts a colon between them, so \"a\" + \"bc\" and \"ab\" + \"c\" stay apart.",
        hint: "Hash node + \":\" + key.",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                separator: "",
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "wrong-separator",
        title: "joins node and key with another separator than \":\"",
        explanation: "Your router puts another character between node and key; the pinned score uses a colon.",
        hint: "Hash node + \":\" + key.",
        forms: &WRONG_SEPARATORS,
        build: |args, form| {
            WrongRouter {
                separator: WRONG_SEPARATORS[form],
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    signed_comparison(|args, _| {
        WrongRouter {
            pick: Pick::SignedHighest,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    float_multiply(|args, _| {
        WrongRouter {
            hash: Hash::FloatMultiply,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    Mistake {
        id: "byte-sum",
        title: "uses a toy hash (the sum of the bytes) instead of h32",
        explanation: "A byte sum gives node + \":\" + key the node's sum plus the key's sum, so the same node wins every key.",
        hint: "Implement h32: FNV-1a over the bytes, then the finalizer (see the starter).",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                hash: Hash::ByteSum,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    utf16_units(|args, _| {
        WrongRouter {
            hash: Hash::Utf16,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    code_points(|args, _| {
        WrongRouter {
            hash: Hash::CodePoints,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    signed_bytes(|args, _| {
        WrongRouter {
            hash: Hash::SignedBytes,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    fnv1(|args, _| {
        WrongRouter {
            hash: Hash::Fnv1,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    missing_finalizer(|args, form| {
        WrongRouter {
            hash: FINALIZER_HASHES[form],
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    float_finalizer(|args, _| {
        WrongRouter {
            hash: Hash::FloatFinalizer,
            ..WrongRouter::new(args)
        }
        .finish()
    }),
    Mistake {
        id: "duplicate-membership",
        title: "keeps nodes in a list, so a node can be there twice",
        explanation: "A node listed twice (or added twice) is kept twice, and removing it takes one copy away, so it still gets keys. Membership is a set.",
        hint: "Keep the nodes in a set (or skip names already present).",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                list: true,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
    Mistake {
        id: "remove-absent-raises",
        title: "fails when removing a node that is not there",
        explanation: "Removing an absent node must change nothing; your router raises an error instead.",
        hint: "Check membership first, or use a removal that ignores absent names (set.discard in Python).",
        forms: &[""],
        build: |args, _| {
            WrongRouter {
                raise_on_absent: true,
                ..WrongRouter::new(args)
            }
            .finish()
        },
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_units_match_utf8_on_ascii_only() {
        let ascii = "cache-1:user:1";
        assert_eq!(
            fmix32(fnv_units(ascii.encode_utf16().map(u32::from))),
            h32(ascii)
        );
        assert_eq!(fmix32(fnv_units(ascii.chars().map(u32::from))), h32(ascii));
        assert_ne!(
            fmix32(fnv_units("é".encode_utf16().map(u32::from))),
            h32("é")
        );
        assert_eq!(fmix32(crate::hash::fnv1a("é".as_bytes())), h32("é"));
        // Signed bytes agree on ASCII only.
        let signed = |t: &str| fmix32(fnv_units(t.bytes().map(|b| b as i8 as i32 as u32)));
        assert_eq!(signed(ascii), h32(ascii));
        assert_ne!(signed("é"), h32("é"));
    }
}
