//! The hash mistakes: wrong h32 functions learners write, each a step of
//! FNV-1a or of the finalizer done another way (the catalogue entries every
//! challenge shares for them are in `shared`).

use crate::hash::fmix32;
#[cfg(test)]
use crate::hash::h32;
use crate::text::Text;

/// Which hash a mistaken router uses: the pinned hash's steps, each done
/// the right way or one of the ways learners get it wrong. The steps
/// compose: any wrong byte source with any loop order, either arithmetic
/// in the loop and in the finalizer, any finalizer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hash {
    /// The sum of the UTF-8 bytes instead of FNV-1a: no other step applies.
    pub(crate) byte_sum: bool,
    /// What the loop reads of the text.
    pub(crate) source: Source,
    /// FNV-1: multiply, then XOR (the other order of FNV-1a's step).
    pub(crate) fnv1: bool,
    /// The loop's products are JavaScript's `*`: doubles that lose bits
    /// past 2^53 before `>>> 0` (or `% 2 ** 32`) reduces them.
    pub(crate) float_loop: bool,
    pub(crate) finalizer: Finalizer,
    /// The finalizer's two products are JavaScript's `*`.
    pub(crate) float_finalizer: bool,
}

/// What the FNV loop reads of the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// The UTF-8 bytes: right.
    Utf8,
    /// UTF-16 code units (JavaScript's `charCodeAt`).
    Utf16,
    /// Unicode code points (Python's `ord(c)`).
    CodePoints,
    /// UTF-8 bytes read as signed (Java's `getBytes()`, C's `char`): a
    /// byte of 0x80 or more is sign-extended before the XOR.
    SignedBytes,
}

/// How much of the MurmurHash3 finalizer follows the loop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Finalizer {
    /// All five steps: right.
    Full,
    /// None: the value is FNV-1a's alone.
    Missing,
    /// All but the last `h ^= h >> 16`.
    LastShiftMissing,
}

impl Hash {
    /// The pinned hash: every step right.
    pub(crate) const PINNED: Hash = Hash {
        byte_sum: false,
        source: Source::Utf8,
        fnv1: false,
        float_loop: false,
        finalizer: Finalizer::Full,
        float_finalizer: false,
    };

    /// The steps that decide its values: a byte sum has no other step, and
    /// a missing finalizer no arithmetic of its own. Two hashes with the
    /// same steps that decide are one hash.
    fn deciding(self) -> Hash {
        match (self.byte_sum, self.finalizer) {
            (true, _) => Hash {
                byte_sum: true,
                ..Hash::PINNED
            },
            (false, Finalizer::Missing) => Hash {
                float_finalizer: false,
                ..self
            },
            (false, _) => self,
        }
    }

    /// This hash of the concatenation of `parts`, without building it.
    pub(crate) fn of(self, parts: &[&str]) -> u32 {
        let hash = self.deciding();
        if hash == Hash::PINNED {
            return crate::hash::h32_concat(parts);
        }
        let bytes = || parts.iter().flat_map(|p| p.bytes());
        if hash.byte_sum {
            return bytes().fold(0u32, |s, b| s.wrapping_add(u32::from(b)));
        }
        let chars = || parts.iter().flat_map(|p| p.chars());
        // Each source's units go straight into the loop: no boxed iterator
        // (a diagnosis hashes millions of texts).
        let state = |units: &mut dyn Iterator<Item = u32>| match hash.float_loop {
            true => js_fnv(units, hash.fnv1),
            false => fnv(units, hash.fnv1),
        };
        let state = match hash.source {
            Source::Utf8 => state(&mut bytes().map(u32::from)),
            Source::Utf16 => state(
                &mut chars()
                    .flat_map(|c| {
                        let mut units = [0u16; 2];
                        let n = c.encode_utf16(&mut units).len();
                        units.into_iter().take(n)
                    })
                    .map(u32::from),
            ),
            Source::CodePoints => state(&mut chars().map(u32::from)),
            Source::SignedBytes => state(&mut bytes().map(|b| b as i8 as i32 as u32)),
        };
        match (hash.finalizer, hash.float_finalizer) {
            (Finalizer::Missing, _) => state,
            (Finalizer::Full, false) => fmix32(state),
            (Finalizer::LastShiftMissing, false) => {
                let mut h = state;
                h ^= h >> 16;
                h = h.wrapping_mul(0x85eb_ca6b);
                h ^= h >> 13;
                h.wrapping_mul(0xc2b2_ae35)
            }
            (finalizer, true) => js_float_finalizer(state, finalizer == Finalizer::Full),
        }
    }
}

impl PartialEq for Hash {
    /// Equal when the steps that decide their values are.
    fn eq(&self, other: &Hash) -> bool {
        let (a, b) = (self.deciding(), other.deciding());
        (
            a.byte_sum,
            a.source,
            a.fnv1,
            a.float_loop,
            a.finalizer,
            a.float_finalizer,
        ) == (
            b.byte_sum,
            b.source,
            b.fnv1,
            b.float_loop,
            b.finalizer,
            b.float_finalizer,
        )
    }
}

impl Eq for Hash {}

/// The hashes one wrong step makes, for the tests.
#[cfg(test)]
impl Hash {
    pub(crate) const FLOAT_MULTIPLY: Hash = Hash {
        float_loop: true,
        float_finalizer: true,
        ..Hash::PINNED
    };
    pub(crate) const BYTE_SUM: Hash = Hash {
        byte_sum: true,
        ..Hash::PINNED
    };
    pub(crate) const UTF16: Hash = Hash {
        source: Source::Utf16,
        ..Hash::PINNED
    };
    pub(crate) const CODE_POINTS: Hash = Hash {
        source: Source::CodePoints,
        ..Hash::PINNED
    };
    pub(crate) const SIGNED_BYTES: Hash = Hash {
        source: Source::SignedBytes,
        ..Hash::PINNED
    };
    pub(crate) const FNV1: Hash = Hash {
        fnv1: true,
        ..Hash::PINNED
    };
    pub(crate) const NO_FINALIZER: Hash = Hash {
        finalizer: Finalizer::Missing,
        ..Hash::PINNED
    };
    pub(crate) const LAST_SHIFT_MISSING: Hash = Hash {
        finalizer: Finalizer::LastShiftMissing,
        ..Hash::PINNED
    };
    pub(crate) const FLOAT_FINALIZER: Hash = Hash {
        float_finalizer: true,
        ..Hash::PINNED
    };
}

/// A wrong step of h32 a learner makes: the catalogue mistake it is (by
/// id and form), and the step in words.
#[derive(Debug, Clone, Copy)]
pub struct HashVariant {
    /// The mistake's id in every challenge's catalogue.
    pub id: &'static str,
    /// Its form, for a mistake with several.
    pub form: Option<&'static str>,
    /// The step that is wrong, in words.
    pub step: Text,
    /// Makes the step wrong.
    set: fn(&mut Hash),
}

impl HashVariant {
    /// The hash wrong in this step alone, for `text`.
    pub fn h32(&self, text: &str) -> u32 {
        let mut hash = Hash::PINNED;
        (self.set)(&mut hash);
        hash.of(&[text])
    }
}

/// Every wrong step of h32 the catalogue knows, to compare with a
/// learner's own, in the order they are named.
pub static HASH_VARIANTS: [HashVariant; 9] = [
    HashVariant {
        id: "float-multiply",
        form: None,
        step: Text::Each {
            python: "every product is a float, not an integer reduced modulo 2^32",
            javascript: "every product is a floating-point `*`, not `Math.imul`",
            rust: "every product is an f64, not a u32 `wrapping_mul`",
            words: "every product is a floating-point one, not a 32-bit integer's",
        },
        set: |h| {
            h.float_loop = true;
            h.float_finalizer = true;
        },
    },
    HashVariant {
        id: "float-finalizer",
        form: None,
        step: Text::Each {
            python: "the finalizer's two products are floats, not integers reduced modulo 2^32",
            javascript: "the finalizer's two products are floating-point `*`, not `Math.imul`",
            rust: "the finalizer's two products are f64 values, not a u32 `wrapping_mul`",
            words: "the finalizer's two products are floating-point ones, not 32-bit integers'",
        },
        set: |h| h.float_finalizer = true,
    },
    HashVariant {
        id: "fnv-1",
        form: None,
        step: Text::Plain("the loop multiplies before the XOR (FNV-1, not FNV-1a)"),
        set: |h| h.fnv1 = true,
    },
    HashVariant {
        id: "missing-finalizer",
        form: Some(FINALIZER_FORMS[0]),
        step: Text::Plain("the finalizer is missing: the value is FNV-1a's alone"),
        set: |h| h.finalizer = Finalizer::Missing,
    },
    HashVariant {
        id: "missing-finalizer",
        form: Some(FINALIZER_FORMS[1]),
        step: Text::Each {
            python: "the finalizer lacks its last `h ^= h >> 16`",
            javascript: "the finalizer lacks its last `h ^= h >>> 16`",
            rust: "the finalizer lacks its last `h ^= h >> 16`",
            words: "the finalizer lacks its last XOR with h shifted right by 16",
        },
        set: |h| h.finalizer = Finalizer::LastShiftMissing,
    },
    HashVariant {
        id: "utf16-units",
        form: None,
        step: Text::Each {
            python: "the loop reads UTF-16 code units, not UTF-8 bytes",
            javascript: "the loop reads UTF-16 code units (`charCodeAt`), not UTF-8 bytes",
            rust: "the loop reads UTF-16 code units (`encode_utf16`), not UTF-8 bytes",
            words: "the loop reads UTF-16 code units, not UTF-8 bytes",
        },
        set: |h| h.source = Source::Utf16,
    },
    HashVariant {
        id: "code-points",
        form: None,
        step: Text::Each {
            python: "the loop reads code points (`ord`), not UTF-8 bytes",
            javascript: "the loop reads code points (`codePointAt`), not UTF-8 bytes",
            rust: "the loop reads chars (`chars()`), not UTF-8 bytes",
            words: "the loop reads code points, not UTF-8 bytes",
        },
        set: |h| h.source = Source::CodePoints,
    },
    HashVariant {
        id: "signed-bytes",
        form: None,
        step: Text::Plain("the loop reads bytes as signed numbers"),
        set: |h| h.source = Source::SignedBytes,
    },
    HashVariant {
        id: "byte-sum",
        form: None,
        step: Text::Plain("the hash is a sum of the bytes, not FNV-1a with the finalizer"),
        set: |h| h.byte_sum = true,
    },
];

/// The step of a learner's h32 whose values are signed (a step of the
/// `signed-comparison` mistake), in words.
pub const SIGNED_RESULT: Text = Text::Each {
    python: "the result is a signed 32-bit number, not an unsigned one (`h & 0xFFFFFFFF`)",
    javascript: "the result is a signed 32-bit number (`h | 0`), not an unsigned one (`h >>> 0`)",
    rust: "the result is a signed 32-bit number (`as i32`), not a u32",
    words: "the result is a signed 32-bit number, not an unsigned one",
};

/// A learner's h32 as wrong steps made together: each of [`HASH_VARIANTS`],
/// in their order.
#[derive(Debug, Clone)]
pub struct ComposedHash {
    pub steps: Vec<&'static HashVariant>,
    hash: Hash,
}

impl ComposedHash {
    /// This hash of `text`.
    pub fn h32(&self, text: &str) -> u32 {
        self.hash.of(&[text])
    }
}

/// The most wrong steps a composed hash is searched with: past three, so
/// many hashes are possible that a match says little.
pub const MOST_STEPS: usize = 3;

/// Every hash one to [`MOST_STEPS`] wrong steps make together, each hash
/// once, by its fewest steps: steps that turn one knob two ways (two byte
/// sources) are no hash, and a step another one overrides (the finalizer's
/// arithmetic beside no finalizer, anything beside a byte sum) adds none.
pub fn hash_compositions() -> &'static [ComposedHash] {
    static FOUND: std::sync::LazyLock<Vec<ComposedHash>> = std::sync::LazyLock::new(compose);
    &FOUND
}

/// What [`hash_compositions`] holds, found once.
fn compose() -> Vec<ComposedHash> {
    let mut found: Vec<ComposedHash> = Vec::new();
    let n = HASH_VARIANTS.len();
    let mut add = |chosen: &[usize]| {
        let made = |order: &mut dyn Iterator<Item = &usize>| {
            let mut hash = Hash::PINNED;
            for &i in order {
                (HASH_VARIANTS[i].set)(&mut hash);
            }
            hash
        };
        let hash = made(&mut chosen.iter());
        // Steps that commute, and a hash fewer steps do not make.
        if hash != made(&mut chosen.iter().rev())
            || hash == Hash::PINNED
            || found.iter().any(|f| f.hash == hash)
        {
            return;
        }
        found.push(ComposedHash {
            steps: chosen.iter().map(|&i| &HASH_VARIANTS[i]).collect(),
            hash,
        });
    };
    for a in 0..n {
        add(&[a]);
    }
    for a in 0..n {
        for b in a + 1..n {
            add(&[a, b]);
        }
    }
    for a in 0..n {
        for b in a + 1..n {
            for c in b + 1..n {
                add(&[a, b, c]);
            }
        }
    }
    found
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
    js_float_finalizer(fnv(bytes.iter().map(|&b| u32::from(b)), false), true)
}

/// The finalizer of h32 as JavaScript computes it with `*` instead of
/// `Math.imul` (each product a rounded double before `>>> 0`), on an
/// FNV state computed right; without its last `h ^= h >>> 16` unless
/// `last_shift`.
fn js_float_finalizer(state: u32, last_shift: bool) -> u32 {
    let mut h = f64::from(state);
    h = js_xor(h, f64::from(to_uint32(h) >> 16));
    h = f64::from(to_uint32(h * f64::from(0x85eb_ca6bu32)));
    h = js_xor(h, f64::from(to_uint32(h) >> 13));
    h = f64::from(to_uint32(h * f64::from(0xc2b2_ae35u32)));
    if last_shift {
        h = js_xor(h, f64::from(to_uint32(h) >> 16));
    }
    to_uint32(h)
}

/// The FNV loop over arbitrary code units (each XORed whole) in 32-bit
/// arithmetic: FNV-1a, or FNV-1 (multiply first) when `fnv1`.
fn fnv(units: impl Iterator<Item = u32>, fnv1: bool) -> u32 {
    let prime = crate::hash::FNV_PRIME;
    units.fold(crate::hash::FNV_OFFSET, |h, u| match fnv1 {
        false => (h ^ u).wrapping_mul(prime),
        true => h.wrapping_mul(prime) ^ u,
    })
}

/// The FNV loop as JavaScript computes it with `*` instead of
/// `Math.imul`: each product a double rounded to 53 bits before `>>> 0`
/// (or `% 2 ** 32`, which gives the same value modulo 2^32) reduces it,
/// and each XOR a signed 32-bit result.
fn js_fnv(units: impl Iterator<Item = u32>, fnv1: bool) -> u32 {
    let prime = f64::from(crate::hash::FNV_PRIME);
    let mut h = f64::from(crate::hash::FNV_OFFSET);
    for u in units {
        // A unit past 2^31 (a sign-extended byte) is that int32 in JavaScript.
        let u = f64::from(u as i32);
        h = match fnv1 {
            false => f64::from(to_uint32(js_xor(h, u) * prime)),
            true => js_xor(f64::from(to_uint32(h * prime)), u),
        };
    }
    to_uint32(h)
}

/// JavaScript's `x >>> 0` of an integer-valued double.
fn to_uint32(x: f64) -> u32 {
    // Every value here is an integer below 2^58 in magnitude, where the
    // conversion to i64 is exact and wrapping to u32 is the modulo; the
    // floating-point remainder (a software fmod) is kept for the rest.
    if x.abs() < 9.2e18 {
        x as i64 as u32
    } else {
        x.trunc().rem_euclid(4_294_967_296.0) as u32
    }
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
    js_float_finalizer(js_fnv(bytes.iter().map(|&b| u32::from(b)), false), true)
}

/// The forms of the `missing-finalizer` mistake, in order.
pub(crate) const FINALIZER_FORMS: [&str; 2] = ["no finalizer", "without its last h ^= h >> 16"];

/// The [`Finalizer`] of each form of the `missing-finalizer` mistake.
pub(crate) const FINALIZERS: [Finalizer; 2] = [Finalizer::Missing, Finalizer::LastShiftMissing];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_units_match_utf8_on_ascii_only() {
        let ascii = "cache-1:user:1";
        assert_eq!(
            fmix32(fnv(ascii.encode_utf16().map(u32::from), false)),
            h32(ascii)
        );
        assert_eq!(fmix32(fnv(ascii.chars().map(u32::from), false)), h32(ascii));
        assert_ne!(
            fmix32(fnv("é".encode_utf16().map(u32::from), false)),
            h32("é")
        );
        assert_eq!(fmix32(crate::hash::fnv1a("é".as_bytes())), h32("é"));
        // Signed bytes agree on ASCII only.
        let signed = |t: &str| fmix32(fnv(t.bytes().map(|b| b as i8 as i32 as u32), false));
        assert_eq!(signed(ascii), h32(ascii));
        assert_ne!(signed("é"), h32("é"));
    }

    /// Each one-step-wrong hash against the step written out plainly.
    #[test]
    fn each_wrong_step_is_that_step_alone() {
        let plain = |bytes: &[u32], fnv1: bool, finalizer: u8| -> u32 {
            let mut h: u32 = 2_166_136_261;
            for &b in bytes {
                if fnv1 {
                    h = h.wrapping_mul(16_777_619) ^ b;
                } else {
                    h = (h ^ b).wrapping_mul(16_777_619);
                }
            }
            if finalizer == 0 {
                return h;
            }
            h ^= h >> 16;
            h = h.wrapping_mul(0x85eb_ca6b);
            h ^= h >> 13;
            h = h.wrapping_mul(0xc2b2_ae35);
            if finalizer == 2 {
                h ^= h >> 16;
            }
            h
        };
        for text in [
            "",
            "a",
            "hello",
            "A#0",
            "é",
            "ключ",
            "€",
            "🙂",
            "node-7:user:1",
        ] {
            let utf8: Vec<u32> = text.bytes().map(u32::from).collect();
            let utf16: Vec<u32> = text.encode_utf16().map(u32::from).collect();
            let points: Vec<u32> = text.chars().map(u32::from).collect();
            let signed: Vec<u32> = text.bytes().map(|b| b as i8 as i32 as u32).collect();
            let sum = text.bytes().map(u32::from).sum::<u32>();
            let cases = [
                (Hash::PINNED, plain(&utf8, false, 2)),
                (Hash::FNV1, plain(&utf8, true, 2)),
                (Hash::NO_FINALIZER, plain(&utf8, false, 0)),
                (Hash::LAST_SHIFT_MISSING, plain(&utf8, false, 1)),
                (Hash::UTF16, plain(&utf16, false, 2)),
                (Hash::CODE_POINTS, plain(&points, false, 2)),
                (Hash::SIGNED_BYTES, plain(&signed, false, 2)),
                (Hash::BYTE_SUM, sum),
            ];
            for (hash, expected) in cases {
                assert_eq!(hash.of(&[text]), expected, "{hash:?} of {text:?}");
            }
            assert_eq!(Hash::PINNED.of(&[text]), h32(text));
            assert_eq!(
                Hash::FLOAT_MULTIPLY.of(&[text]),
                float_multiply_h32(text.as_bytes())
            );
            assert_eq!(
                Hash::FLOAT_FINALIZER.of(&[text]),
                float_finalizer_h32(text.as_bytes())
            );
        }
    }

    #[test]
    fn compositions_are_the_hashes_steps_of_different_knobs_make() {
        let all = hash_compositions();
        let ids = |c: &ComposedHash| c.steps.iter().map(|v| v.id).collect::<Vec<_>>();
        let has = |wanted: &[&str]| all.iter().any(|c| ids(c) == wanted);
        // Every step alone, and two steps of different knobs together.
        assert!(HASH_VARIANTS.iter().all(|v| has(&[v.id])));
        assert!(has(&["float-multiply", "utf16-units"]));
        assert!(has(&["fnv-1", "code-points"]));
        assert!(
            has(&["float-finalizer", "missing-finalizer"]),
            "float, no last shift"
        );
        // No hash twice: a step another overrides adds nothing, and two
        // ways of one knob are no hash.
        assert!(!has(&["float-multiply", "float-finalizer"]));
        assert!(!has(&["utf16-units", "code-points"]));
        assert!(
            !all.iter()
                .any(|c| c.steps.len() > 1 && ids(c).contains(&"byte-sum"))
        );
        for (i, a) in all.iter().enumerate() {
            assert!(a.steps.len() <= MOST_STEPS);
            for b in &all[i + 1..] {
                assert!(a.hash != b.hash, "{:?} and {:?}", ids(a), ids(b));
            }
        }
        // The composed hash is each step made: float products over UTF-16
        // units, as the most common JavaScript mistake computes it.
        let both = all
            .iter()
            .find(|c| ids(c) == ["float-multiply", "utf16-units"])
            .unwrap();
        let utf16_float = Hash {
            source: Source::Utf16,
            ..Hash::FLOAT_MULTIPLY
        };
        assert_eq!(both.h32("ключ"), utf16_float.of(&["ключ"]));
        assert_ne!(both.h32("ключ"), Hash::FLOAT_MULTIPLY.of(&["ключ"]));
        assert_ne!(both.h32("ключ"), Hash::UTF16.of(&["ключ"]));
    }

    #[test]
    fn hashes_with_the_same_deciding_steps_are_one() {
        let no_finalizer_float = Hash {
            float_finalizer: true,
            ..Hash::NO_FINALIZER
        };
        assert_eq!(no_finalizer_float, Hash::NO_FINALIZER);
        let sum_of_code_points = Hash {
            source: Source::CodePoints,
            ..Hash::BYTE_SUM
        };
        assert_eq!(sum_of_code_points, Hash::BYTE_SUM);
        assert_ne!(Hash::FLOAT_FINALIZER, Hash::FLOAT_MULTIPLY);
        assert_ne!(Hash::UTF16, Hash::CODE_POINTS);
    }

    #[test]
    fn the_fast_uint32_is_the_remainder_definition() {
        let slow = |x: f64| x.trunc().rem_euclid(4_294_967_296.0) as u32;
        let mut values = vec![0.0, -0.0, 1.0, -1.0, 2_147_483_648.0, -2_147_483_649.0];
        values.extend([
            4_294_967_295.0,
            4_294_967_296.0,
            2f64.powi(53) + 2.0,
            2f64.powi(57),
        ]);
        values.extend([
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            1e300,
            -1e300,
            0.5,
            -7.75,
        ]);
        // Products of the kind the float mistakes make, every sign.
        let mut h = 2_166_136_261.0f64;
        for i in 0..10_000u32 {
            h = f64::from(to_uint32(h * 16_777_619.0 + f64::from(i)));
            values.extend([
                h * 16_777_619.0,
                -(h * 2_246_822_507.0),
                h * 3_266_489_909.0,
            ]);
        }
        for x in values {
            assert_eq!(to_uint32(x), slow(x), "{x}");
        }
    }
}
