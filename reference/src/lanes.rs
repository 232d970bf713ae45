//! One key scored for many nodes at once.
//!
//! A rendezvous route hashes `node + ":" + key` for every node. With the
//! FNV-1a state of `node + ":"` cached per node, every node's work is the
//! same loop over the key's bytes from a different starting state: the
//! shape SIMD lanes want. [`first_maximum`] runs that loop on 64 or 16
//! nodes at a time, compiled for the widest vector unit the CPU has (AVX-512 or AVX2 on
//! x86-64, found at run time; NEON is the baseline on AArch64), and keeps
//! the scalar loop as the fallback and as the oracle the tests compare
//! every level against.
//!
//! Calling a function compiled for AVX2 or AVX-512 is `unsafe`: this is
//! the one module of the reference that may, each call right after the
//! check that the CPU has the feature.
#![allow(unsafe_code)]

use crate::hash::{FNV_PRIME, fmix32, fnv1a_extend};

/// Nodes scored side by side in the narrower groups: one AVX-512 register
/// or two AVX2 registers of 32-bit lanes.
const LANES: usize = 16;

/// A way to run the loop, from the plainest to the widest.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// One node at a time.
    Scalar,
    /// Many nodes at a time, with the target's baseline instructions only
    /// (SSE2 on x86-64, NEON on AArch64).
    Baseline,
    /// Many nodes at a time with AVX2.
    Avx2,
    /// Many nodes at a time with AVX-512.
    Avx512,
}

impl Level {
    /// Every level this CPU can run, the scalar one first.
    pub fn available() -> Vec<Level> {
        [Level::Scalar, Level::Baseline, Level::Avx2, Level::Avx512]
            .into_iter()
            .filter(|level| level.runs_here())
            .collect()
    }

    /// The widest level this CPU can run, found once.
    pub fn best() -> Level {
        static BEST: std::sync::OnceLock<Level> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| *Level::available().last().unwrap_or(&Level::Scalar))
    }

    fn runs_here(self) -> bool {
        match self {
            Level::Scalar | Level::Baseline => true,
            #[cfg(target_arch = "x86_64")]
            Level::Avx2 => std::arch::is_x86_feature_detected!("avx2"),
            #[cfg(target_arch = "x86_64")]
            Level::Avx512 => std::arch::is_x86_feature_detected!("avx512f"),
            #[cfg(not(target_arch = "x86_64"))]
            Level::Avx2 | Level::Avx512 => false,
        }
    }
}

/// The index and score of the first maximum of
/// `fmix32(fnv1a_extend(states[i], key))`, or `None` for no states; with
/// states in name order, the first maximum is the smaller name of a tie.
/// Runs at the widest level this CPU has.
#[inline]
pub fn first_maximum(states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    if states.len() < LANES {
        return scalar(states, key);
    }
    first_maximum_at(Level::best(), states, key)
}

/// [`first_maximum`] at `level`, which must run on this CPU
/// ([`Level::available`]); a level it cannot run falls back to the scalar
/// loop.
pub fn first_maximum_at(level: Level, states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    match level {
        Level::Scalar => scalar(states, key),
        Level::Baseline => lanes(states, key),
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX2, checked just now.
        Level::Avx2 if level.runs_here() => unsafe { lanes_avx2(states, key) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU has AVX-512F, checked just now.
        Level::Avx512 if level.runs_here() => unsafe { lanes_avx512(states, key) },
        Level::Avx2 | Level::Avx512 => scalar(states, key),
    }
}

/// The oracle: one node at a time.
fn scalar(states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    scalar_from(0, states, key, None)
}

/// The scalar loop over `states`, whose first is node `offset`, continuing
/// from `best`.
#[inline(always)]
fn scalar_from(
    offset: usize,
    states: &[u32],
    key: &[u8],
    mut best: Option<(usize, u32)>,
) -> Option<(usize, u32)> {
    for (i, &state) in states.iter().enumerate() {
        let score = fmix32(fnv1a_extend(state, key));
        // Strict: on a tie the earlier node stays.
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((offset + i, score));
        }
    }
    best
}

/// The loop on many nodes at a time, written so that the compiler turns
/// each line over a group into vector instructions at whatever level the
/// caller is compiled for. Groups of 64 first: a multiply takes about ten
/// cycles to give its result, and each byte of the key waits for the last,
/// so one vector of 16 would spend most of its time waiting; four vectors
/// side by side keep the multiplier busy. Then groups of 16, then the
/// nodes left one at a time.
#[inline(always)]
fn lanes(states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    let best = groups::<{ 4 * LANES }>(0, states, key, None);
    let wide = states.len() - states.len() % (4 * LANES);
    let best = groups::<LANES>(wide, &states[wide..], key, best);
    let narrow = states.len() - states.len() % LANES;
    scalar_from(narrow, &states[narrow..], key, best)
}

/// The whole groups of `W` nodes of `states`, whose first is node
/// `offset`, continuing from `best`.
#[inline(always)]
fn groups<const W: usize>(
    offset: usize,
    states: &[u32],
    key: &[u8],
    mut best: Option<(usize, u32)>,
) -> Option<(usize, u32)> {
    for (g, group) in states.chunks_exact(W).enumerate() {
        let mut h = [0u32; W];
        h.copy_from_slice(group);
        for &byte in key {
            let byte = u32::from(byte);
            for lane in &mut h {
                *lane = (*lane ^ byte).wrapping_mul(FNV_PRIME);
            }
        }
        for lane in &mut h {
            *lane = fmix32(*lane);
        }
        let top = h.iter().copied().fold(0, u32::max);
        // Strict across groups and the first lane within one: the first
        // maximum overall, as in the scalar loop.
        if best.is_none_or(|(_, s)| top > s) {
            let lane = h.iter().position(|&x| x == top).unwrap_or(0);
            best = Some((offset + g * W + lane, top));
        }
    }
    best
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn lanes_avx2(states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    lanes(states, key)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn lanes_avx512(states: &[u32], key: &[u8]) -> Option<(usize, u32)> {
    lanes(states, key)
}
