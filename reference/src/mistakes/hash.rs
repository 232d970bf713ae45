//! The hash mistakes: wrong h32 functions learners write, each a step of
//! FNV-1a or of the finalizer done another way (the catalogue entries every
//! challenge shares for them are in `shared`).

use crate::hash::fmix32;
#[cfg(test)]
use crate::hash::h32;

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

/// The forms of the `missing-finalizer` mistake, in order.
pub(crate) const FINALIZER_FORMS: [&str; 2] = ["no finalizer", "without its last h ^= h >> 16"];

/// The [`Hash`] of each form of the `missing-finalizer` mistake.
pub(crate) const FINALIZER_HASHES: [Hash; 2] = [Hash::NoFinalizer, Hash::LastShiftMissing];

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
