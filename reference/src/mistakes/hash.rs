//! The hash mistakes: wrong h32 functions learners write, each a step of
//! FNV-1a or of the finalizer done another way (the catalogue entries every
//! challenge shares for them are in `shared`).

#[cfg(test)]
use crate::hash::fmix32;
#[cfg(test)]
use crate::hash::h32;
use crate::text::Text;

/// Which hash a mistaken router uses: the pinned hash's steps, each done
/// the right way or one of the ways learners get it wrong. The steps
/// compose: any wrong byte source with any loop order, any arithmetic for
/// each of the three products, any finalizer.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Hash {
    /// The sum of the UTF-8 bytes instead of FNV-1a: no other step applies.
    pub(crate) byte_sum: bool,
    /// What the loop reads of the text.
    pub(crate) source: Source,
    /// FNV-1: multiply, then XOR (the other order of FNV-1a's step).
    pub(crate) fnv1: bool,
    /// The loop's product by the FNV prime.
    pub(crate) loop_product: Product,
    pub(crate) finalizer: Finalizer,
    /// The finalizer's products by 0x85ebca6b and by 0xc2b2ae35.
    pub(crate) mix_products: [Product; 2],
}

/// How one product of the hash is computed. A product in floating point
/// (JavaScript's `*`, an f64, a Python float) is rounded to a double's 53
/// bits before it is reduced modulo 2^32, and which bits are lost depends
/// on the operand's magnitude: the same 32 bits read as a signed number
/// (what JavaScript's `^` and `|` leave) or as an unsigned one (after
/// `>>> 0`; an f64 of a u32) give products in different binades, rounded
/// differently. The reduction after the product (`% 2 ** 32`, `>>> 0`,
/// `| 0`) changes no bit: every operand of the pinned hash's next step is
/// read modulo 2^32 (`^` and `>>>` convert it first), so it decides only
/// the sign of a value returned as it is (see `docs/diagnosis.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Product {
    /// A 32-bit integer product (`Math.imul`, `wrapping_mul`, an integer
    /// reduced modulo 2^32): right.
    Integer,
    /// A double's product of the operand read as a signed 32-bit number.
    FloatSigned,
    /// A double's product of the operand read as an unsigned 32-bit number.
    FloatUnsigned,
}

impl Product {
    /// Every way of computing a product, the right one first.
    pub const ALL: [Product; 3] = [
        Product::Integer,
        Product::FloatSigned,
        Product::FloatUnsigned,
    ];

    /// The low 32 bits of `operand` times `by` computed this way.
    #[inline]
    fn times(self, operand: u32, by: u32) -> u32 {
        match self {
            Product::Integer => operand.wrapping_mul(by),
            Product::FloatSigned => to_uint32(f64::from(operand as i32) * f64::from(by)),
            // Below 2^64 and never negative: the conversion to u64 is exact.
            Product::FloatUnsigned => (f64::from(operand) * f64::from(by)) as u64 as u32,
        }
    }

    /// This way of computing a product when the operand is a literal (FNV-1's
    /// first product is of the offset basis as written): a float's operand
    /// is then the unsigned number.
    fn of_literal(self) -> Product {
        match self {
            Product::FloatSigned => Product::FloatUnsigned,
            other => other,
        }
    }
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
        loop_product: Product::Integer,
        finalizer: Finalizer::Full,
        mix_products: [Product::Integer; 2],
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
                mix_products: Hash::PINNED.mix_products,
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
        let state = |units: &mut dyn Iterator<Item = u32>| fnv(units, hash.fnv1, hash.loop_product);
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
        finalize(state, hash.finalizer, hash.mix_products)
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
            a.loop_product,
            a.finalizer,
            a.mix_products,
        ) == (
            b.byte_sum,
            b.source,
            b.fnv1,
            b.loop_product,
            b.finalizer,
            b.mix_products,
        )
    }
}

impl Eq for Hash {}

/// The hashes one wrong step makes, for the tests.
#[cfg(test)]
impl Hash {
    pub(crate) const FLOAT_MULTIPLY: Hash = Hash {
        loop_product: Product::FloatSigned,
        mix_products: [Product::FloatSigned; 2],
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
        mix_products: [Product::FloatSigned; 2],
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
pub static HASH_VARIANTS: [HashVariant; 13] = [
    HashVariant {
        id: "float-multiply",
        form: Some(FLOAT_FORMS[0]),
        step: Text::Each {
            python: "every product is a float of a signed operand, not an integer reduced modulo 2^32",
            javascript: "every product is a floating-point `*` of a signed operand (as `^` leaves it), not `Math.imul`",
            rust: "every product is an f64 of a signed operand (an i32), not a u32 `wrapping_mul`",
            words: "every product is a floating-point one of a signed operand, not a 32-bit integer's",
        },
        set: |h| {
            h.loop_product = Product::FloatSigned;
            h.mix_products = [Product::FloatSigned; 2];
        },
    },
    HashVariant {
        id: "float-multiply",
        form: Some(FLOAT_FORMS[1]),
        step: Text::Each {
            python: "every product is a float, not an integer reduced modulo 2^32",
            javascript: "every product is a floating-point `*` of an unsigned operand (after `>>> 0`), not `Math.imul`",
            rust: "every product is an f64 of a u32, not a u32 `wrapping_mul`",
            words: "every product is a floating-point one of an unsigned operand, not a 32-bit integer's",
        },
        set: |h| {
            h.loop_product = Product::FloatUnsigned;
            h.mix_products = [Product::FloatUnsigned; 2];
        },
    },
    HashVariant {
        id: "float-loop",
        form: Some(FLOAT_FORMS[0]),
        step: Text::Each {
            python: "the loop's product is a float of a signed operand, not an integer reduced modulo 2^32",
            javascript: "the loop's product is a floating-point `*` of a signed operand (as `^` leaves it), not `Math.imul`",
            rust: "the loop's product is an f64 of a signed operand (an i32), not a u32 `wrapping_mul`",
            words: "the loop's product is a floating-point one of a signed operand, not a 32-bit integer's",
        },
        set: |h| h.loop_product = Product::FloatSigned,
    },
    HashVariant {
        id: "float-loop",
        form: Some(FLOAT_FORMS[1]),
        step: Text::Each {
            python: "the loop's product is a float, not an integer reduced modulo 2^32",
            javascript: "the loop's product is a floating-point `*` of an unsigned operand (after `>>> 0`), not `Math.imul`",
            rust: "the loop's product is an f64 of a u32, not a u32 `wrapping_mul`",
            words: "the loop's product is a floating-point one of an unsigned operand, not a 32-bit integer's",
        },
        set: |h| h.loop_product = Product::FloatUnsigned,
    },
    HashVariant {
        id: "float-finalizer",
        form: Some(FLOAT_FORMS[0]),
        step: Text::Each {
            python: "the finalizer's two products are floats of signed operands, not integers reduced modulo 2^32",
            javascript: "the finalizer's two products are floating-point `*` of signed operands (as `^` leaves them), not `Math.imul`",
            rust: "the finalizer's two products are f64 values of signed operands (i32s), not a u32 `wrapping_mul`",
            words: "the finalizer's two products are floating-point ones of signed operands, not 32-bit integers'",
        },
        set: |h| h.mix_products = [Product::FloatSigned; 2],
    },
    HashVariant {
        id: "float-finalizer",
        form: Some(FLOAT_FORMS[1]),
        step: Text::Each {
            python: "the finalizer's two products are floats, not integers reduced modulo 2^32",
            javascript: "the finalizer's two products are floating-point `*` of unsigned operands (after `>>> 0`), not `Math.imul`",
            rust: "the finalizer's two products are f64 values of u32s, not a u32 `wrapping_mul`",
            words: "the finalizer's two products are floating-point ones of unsigned operands, not 32-bit integers'",
        },
        set: |h| h.mix_products = [Product::FloatUnsigned; 2],
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

/// The pinned hash of `text` with its three products computed as given:
/// the loop's, then the finalizer's by 0x85ebca6b and by 0xc2b2ae35.
pub fn arithmetic_h32(text: &str, products: [Product; 3]) -> u32 {
    let [loop_product, first, second] = products;
    Hash {
        loop_product,
        mix_products: [first, second],
        ..Hash::PINNED
    }
    .of(&[text])
}

/// The finalizer (as much of it as `finalizer` says) of an FNV state, its
/// two products computed as `products` say. Each product's operand is what
/// an XOR left, so a signed one where a float is of a signed operand.
#[inline]
fn finalize(state: u32, finalizer: Finalizer, products: [Product; 2]) -> u32 {
    if finalizer == Finalizer::Missing {
        return state;
    }
    let mut h = state;
    h ^= h >> 16;
    h = products[0].times(h, 0x85eb_ca6b);
    h ^= h >> 13;
    h = products[1].times(h, 0xc2b2_ae35);
    if finalizer == Finalizer::Full {
        h ^= h >> 16;
    }
    h
}

/// The FNV loop over arbitrary code units (each XORed whole): FNV-1a, or
/// FNV-1 (multiply first) when `fnv1`, each product computed as `product`
/// says. FNV-1a's product is of what the XOR left; FNV-1's of what the
/// previous XOR left, and first of the offset basis as written.
#[inline]
fn fnv(units: impl Iterator<Item = u32>, fnv1: bool, product: Product) -> u32 {
    let prime = crate::hash::FNV_PRIME;
    let mut h = crate::hash::FNV_OFFSET;
    if fnv1 {
        let mut units = units;
        if let Some(u) = units.next() {
            h = product.of_literal().times(h, prime) ^ u;
        }
        units.fold(h, |h, u| product.times(h, prime) ^ u)
    } else {
        units.fold(h, |h, u| product.times(h ^ u, prime))
    }
}

/// JavaScript's `x >>> 0` of an integer-valued double.
fn to_uint32(x: f64) -> u32 {
    // Every product of a signed operand is an integer below 2^63 in
    // magnitude, where the conversion to i64 is exact and wrapping to u32
    // is the modulo; the floating-point remainder (a software fmod) is
    // kept for the rest.
    if x.abs() < 9.2e18 {
        x as i64 as u32
    } else {
        x.trunc().rem_euclid(4_294_967_296.0) as u32
    }
}

/// The forms of the mistakes of floating-point products (`float-multiply`,
/// `float-loop`, `float-finalizer`), in order: the operand as a signed
/// 32-bit number or an unsigned one.
pub(crate) const FLOAT_FORMS: [&str; 2] = ["signed operands", "unsigned operands"];

/// The [`Product`] of each of [`FLOAT_FORMS`].
pub(crate) const FLOATS: [Product; 2] = [Product::FloatSigned, Product::FloatUnsigned];

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
            fmix32(fnv(
                ascii.encode_utf16().map(u32::from),
                false,
                Product::Integer
            )),
            h32(ascii)
        );
        assert_eq!(
            fmix32(fnv(ascii.chars().map(u32::from), false, Product::Integer)),
            h32(ascii)
        );
        assert_ne!(
            fmix32(fnv(
                "é".encode_utf16().map(u32::from),
                false,
                Product::Integer
            )),
            h32("é")
        );
        assert_eq!(fmix32(crate::hash::fnv1a("é".as_bytes())), h32("é"));
        // Signed bytes agree on ASCII only.
        let signed = |t: &str| {
            fmix32(fnv(
                t.bytes().map(|b| b as i8 as i32 as u32),
                false,
                Product::Integer,
            ))
        };
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
        // A float loop and a float finalizer: of one form, they are
        // float-multiply; of two, a hash of their own.
        let forms = |c: &ComposedHash| c.steps.iter().map(|v| v.form).collect::<Vec<_>>();
        let floats = all
            .iter()
            .filter(|c| ids(c) == ["float-loop", "float-finalizer"])
            .map(forms)
            .collect::<Vec<_>>();
        assert_eq!(
            floats,
            [
                [Some(FLOAT_FORMS[0]), Some(FLOAT_FORMS[1])],
                [Some(FLOAT_FORMS[1]), Some(FLOAT_FORMS[0])]
            ]
        );
        // No hash twice: a step another overrides adds nothing, and two
        // ways of one knob are no hash.
        assert!(!has(&["float-multiply", "float-finalizer"]));
        assert!(!has(&["float-multiply", "float-loop"]));
        assert!(!has(&["utf16-units", "code-points"]));
        assert!(
            !all.iter()
                .any(|c| c.steps.len() > 1 && ids(c).contains(&"byte-sum"))
        );
        // The h32 check holds a learner's values to each: a few hundred
        // at most keep it instant.
        assert!(all.len() < 300, "{} compositions", all.len());
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
            mix_products: [Product::FloatSigned, Product::FloatUnsigned],
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
        // An unsigned operand's products reach 2^64, past the fast path:
        // both ways of computing a float product are the remainder of the
        // double product.
        for operand in [0, 1, 2_166_136_261, 0x7fff_ffff, 0x8000_0000, u32::MAX] {
            for by in [16_777_619, 0x85eb_ca6b, 0xc2b2_ae35, u32::MAX] {
                let (signed, unsigned) = (f64::from(operand as i32), f64::from(operand));
                assert_eq!(
                    Product::FloatSigned.times(operand, by),
                    slow(signed * f64::from(by))
                );
                assert_eq!(
                    Product::FloatUnsigned.times(operand, by),
                    slow(unsigned * f64::from(by))
                );
            }
        }
    }

    /// JavaScript's numbers and the operators a learner's hash uses,
    /// written from the language's definition (ToInt32 and ToUint32, `%`
    /// the remainder with the dividend's sign, `*` a double's product),
    /// apart from the model above.
    mod js {
        const TWO_32: f64 = 4_294_967_296.0;

        /// ToUint32.
        pub(super) fn uint32(x: f64) -> f64 {
            if x.is_finite() {
                x.trunc().rem_euclid(TWO_32)
            } else {
                0.0
            }
        }

        /// ToInt32.
        pub(super) fn int32(x: f64) -> f64 {
            let u = uint32(x);
            if u >= TWO_32 / 2.0 { u - TWO_32 } else { u }
        }

        /// `a ^ b`.
        pub(super) fn xor(a: f64, b: f64) -> f64 {
            f64::from(int32(a) as i32 ^ int32(b) as i32)
        }

        /// `a >>> n`.
        pub(super) fn ushr(a: f64, n: u32) -> f64 {
            f64::from((uint32(a) as u32) >> n)
        }

        /// `Math.imul(a, b)`.
        pub(super) fn imul(a: f64, b: f64) -> f64 {
            f64::from((int32(a) as i32).wrapping_mul(int32(b) as i32))
        }

        /// `a % 2 ** 32`: Rust's `%` on doubles is C's `fmod`, which is
        /// JavaScript's `%` (exact, the dividend's sign).
        pub(super) fn rem32(a: f64) -> f64 {
            a % TWO_32
        }
    }

    /// How a JavaScript hash reduces a `*` product.
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Reduce {
        /// `>>> 0`
        Unsigned,
        /// `% 2 ** 32` (or `% 4294967296`)
        Remainder,
        /// `| 0`
        Signed,
    }

    /// How a JavaScript hash computes one product.
    #[derive(Debug, Clone, Copy)]
    enum Mul {
        /// `Math.imul(h, c)`
        Imul,
        /// `(h * c)` reduced, after `h >>> 0` when `unsigned_first`.
        Star {
            unsigned_first: bool,
            reduce: Reduce,
        },
    }

    impl Mul {
        fn all() -> Vec<Mul> {
            let mut all = vec![Mul::Imul];
            for unsigned_first in [false, true] {
                for reduce in [Reduce::Unsigned, Reduce::Remainder, Reduce::Signed] {
                    all.push(Mul::Star {
                        unsigned_first,
                        reduce,
                    });
                }
            }
            all
        }

        fn apply(self, h: f64, by: f64) -> f64 {
            match self {
                Mul::Imul => js::imul(h, by),
                Mul::Star {
                    unsigned_first,
                    reduce,
                } => {
                    let operand = if unsigned_first { js::ushr(h, 0) } else { h };
                    let product = operand * by;
                    match reduce {
                        Reduce::Unsigned => js::ushr(product, 0),
                        Reduce::Remainder => js::rem32(product),
                        Reduce::Signed => js::int32(product),
                    }
                }
            }
        }

        /// What the model calls this way of multiplying.
        fn product(self) -> Product {
            match self {
                Mul::Imul => Product::Integer,
                Mul::Star {
                    unsigned_first: false,
                    ..
                } => Product::FloatSigned,
                Mul::Star { .. } => Product::FloatUnsigned,
            }
        }
    }

    /// The hash as JavaScript runs it, statement by statement: `units`
    /// XORed in (FNV-1a, or FNV-1 when `fnv1`), the three products done as
    /// `muls` says, as much finalizer as `finalizer` says; the value as the
    /// function returns it, with no `>>> 0` at the end.
    fn javascript(units: &[f64], fnv1: bool, muls: [Mul; 3], finalizer: Finalizer) -> f64 {
        let mut h = 2_166_136_261.0;
        for &u in units {
            if fnv1 {
                h = muls[0].apply(h, 16_777_619.0);
                h = js::xor(h, u);
            } else {
                h = js::xor(h, u);
                h = muls[0].apply(h, 16_777_619.0);
            }
        }
        if finalizer == Finalizer::Missing {
            return h;
        }
        h = js::xor(h, js::ushr(h, 16));
        h = muls[1].apply(h, f64::from(0x85eb_ca6bu32));
        h = js::xor(h, js::ushr(h, 13));
        h = muls[2].apply(h, f64::from(0xc2b2_ae35u32));
        if finalizer == Finalizer::Full {
            h = js::xor(h, js::ushr(h, 16));
        }
        h
    }

    /// Every way of writing each product in JavaScript (`Math.imul`, or `*`
    /// of the operand as `^` left it or after `>>> 0`, reduced by `>>> 0`,
    /// `% 2 ** 32` or `| 0`), in either loop order, with each finalizer, on
    /// bytes read unsigned and signed: the model's hash is the value's
    /// low 32 bits, so of each product only the operand's sign matters.
    /// The reduction decides only the value returned as it is, where a
    /// product is the last step: `>>> 0` leaves the model's value, `| 0`
    /// and `Math.imul` its signed reading, and `% 2 ** 32` the model's
    /// value, less 2^32 when the operand (signed) was negative.
    #[test]
    fn the_model_is_javascript_written_every_way() {
        let texts = [
            "",
            "a",
            "A#0",
            "é",
            "ключ",
            "🙂",
            "node-7:user:1",
            "a text long enough for every product of the loop to exceed 2^53",
        ];
        let muls = Mul::all();
        let (mut checked, mut negative) = (0, 0);
        for text in texts {
            for signed_bytes in [false, true] {
                let units: Vec<f64> = match signed_bytes {
                    false => text.bytes().map(f64::from).collect(),
                    true => text.bytes().map(|b| f64::from(b as i8)).collect(),
                };
                let source = [Source::Utf8, Source::SignedBytes][usize::from(signed_bytes)];
                for fnv1 in [false, true] {
                    for finalizer in [
                        Finalizer::Full,
                        Finalizer::LastShiftMissing,
                        Finalizer::Missing,
                    ] {
                        for &a in &muls {
                            for &b in &muls {
                                for &c in &muls {
                                    let value = javascript(&units, fnv1, [a, b, c], finalizer);
                                    let hash = Hash {
                                        source,
                                        fnv1,
                                        loop_product: a.product(),
                                        finalizer,
                                        mix_products: [b.product(), c.product()],
                                        ..Hash::PINNED
                                    };
                                    let model = hash.of(&[text]);
                                    let why = format!(
                                        "{text:?} {source:?} fnv1 {fnv1} {finalizer:?} {a:?} {b:?} {c:?}"
                                    );
                                    assert_eq!(js::uint32(value), f64::from(model), "{why}");
                                    // The value as returned: where a
                                    // product is the last step, its
                                    // reduction decides the sign.
                                    let last = match finalizer {
                                        Finalizer::Full => None,
                                        Finalizer::LastShiftMissing => Some(c),
                                        Finalizer::Missing if units.is_empty() || fnv1 => None,
                                        Finalizer::Missing => Some(a),
                                    };
                                    let model = f64::from(model);
                                    match last {
                                        // The offset basis as written.
                                        None if units.is_empty()
                                            && finalizer == Finalizer::Missing =>
                                        {
                                            assert_eq!(value, model);
                                        }
                                        // An XOR's int32.
                                        None => assert_eq!(value, js::int32(model), "{why}"),
                                        Some(Mul::Star {
                                            reduce: Reduce::Unsigned,
                                            ..
                                        })
                                        | Some(Mul::Star {
                                            reduce: Reduce::Remainder,
                                            unsigned_first: true,
                                        }) => assert_eq!(value, model, "{why}"),
                                        Some(Mul::Imul)
                                        | Some(Mul::Star {
                                            reduce: Reduce::Signed,
                                            ..
                                        }) => assert_eq!(value, js::int32(model), "{why}"),
                                        // The sign of the operand `^` left.
                                        Some(Mul::Star {
                                            reduce: Reduce::Remainder,
                                            unsigned_first: false,
                                        }) => {
                                            assert!(
                                                value == model || value == model - 4_294_967_296.0,
                                                "{why}"
                                            );
                                            negative += usize::from(value < 0.0);
                                        }
                                    }
                                    checked += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(checked, 8 * 2 * 2 * 3 * 7 * 7 * 7);
        assert!(
            negative > 0,
            "a remainder of a negative product is negative"
        );
    }
}
