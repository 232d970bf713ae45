//! The pinned hash of every challenge: FNV-1a over UTF-8 bytes, then the
//! MurmurHash3 32-bit finalizer.
//!
//! FNV-1a is a streaming state, which the references exploit: the state after
//! `"node:"` is computed once per node and extended by each key, so a route
//! costs one pass over the key per node and no allocation.

/// FNV-1a's initial state (the offset basis).
pub(crate) const FNV_OFFSET: u32 = 2_166_136_261;
/// FNV-1a's 32-bit prime.
pub(crate) const FNV_PRIME: u32 = 16_777_619;

/// The FNV-1a state after `bytes`, continuing from `state`.
#[inline]
pub fn fnv1a_extend(mut state: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        state = (state ^ u32::from(b)).wrapping_mul(FNV_PRIME);
    }
    state
}

/// The FNV-1a state of `bytes` from the offset basis.
#[inline]
pub fn fnv1a(bytes: &[u8]) -> u32 {
    fnv1a_extend(FNV_OFFSET, bytes)
}

/// MurmurHash3's 32-bit finalizer (a bijection on `u32`).
#[inline]
pub(crate) fn fmix32(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

/// The pinned hash h32 of `text`.
#[inline]
pub fn h32(text: &str) -> u32 {
    fmix32(fnv1a(text.as_bytes()))
}

/// h32 of the concatenation of `parts`, without building the string.
#[inline]
pub(crate) fn h32_concat(parts: &[&str]) -> u32 {
    fmix32(
        parts
            .iter()
            .fold(FNV_OFFSET, |s, p| fnv1a_extend(s, p.as_bytes())),
    )
}

/// Finds two distinct names `prefix + i` whose FNV-1a states collide, so that
/// `h32(a + suffix) == h32(b + suffix)` for every suffix: the only way two
/// nodes can tie on every key. A birthday search: with 32-bit states about
/// 80,000 candidates are expected, and the search stops at the first pair
/// at or after `start`.
pub fn fnv_collision(prefix: &str, start: u64) -> (String, String) {
    fnv_collision_after("", prefix, start)
}

/// Like [`fnv_collision`], for names hashed after `context`: the states of
/// `context + a` and `context + b` collide, so `h32(context + a + suffix)
/// == h32(context + b + suffix)` (hrw-top's key + "|" + node ties on that
/// key).
pub(crate) fn fnv_collision_after(context: &str, prefix: &str, start: u64) -> (String, String) {
    let mut seen = std::collections::HashMap::<u32, u64>::new();
    let base = fnv1a_extend(fnv1a(context.as_bytes()), prefix.as_bytes());
    let mut digits = String::new();
    for i in start.. {
        digits.clear();
        use std::fmt::Write as _;
        let _ = write!(digits, "{i}");
        let state = fnv1a_extend(base, digits.as_bytes());
        if let Some(j) = seen.insert(state, i) {
            let (a, b) = (format!("{prefix}{j}"), format!("{prefix}{i}"));
            return if a < b { (a, b) } else { (b, a) };
        }
    }
    unreachable!("the pigeonhole principle guarantees a collision within 2^32 + 1 names")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_values_from_the_spec() {
        assert_eq!(h32(""), 2_872_998_923);
        assert_eq!(h32("a"), 444_641_715);
        assert_eq!(h32("hello"), 2_290_972_270);
        assert_eq!(h32("A#0"), 2_353_899_868);
    }

    #[test]
    fn concat_equals_hash_of_the_joined_text() {
        for parts in [
            &["cache-1", ":", "user:1"][..],
            &["", ""],
            &["é", "ü", "日本"],
        ] {
            assert_eq!(h32_concat(parts), h32(&parts.concat()));
        }
    }

    #[test]
    fn collision_pair_ties_on_every_suffix() {
        let (a, b) = fnv_collision("node-", 0);
        assert_ne!(a, b);
        assert!(a < b);
        for key in ["", "k", "user:1", "🙂", "a-much-longer-key-than-the-others"] {
            assert_eq!(h32(&format!("{a}:{key}")), h32(&format!("{b}:{key}")));
        }
    }
}
