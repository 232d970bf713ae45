//! Weighted rendezvous hashing (weighted-hrw): your solution goes here.
//! Check your work with:  grader grade --challenge weighted-hrw router.rs

/// The pinned hash: FNV-1a over the UTF-8 bytes, then the MurmurHash3
/// finalizer, in wrapping 32-bit arithmetic. Done for you.
///
/// h32("") == 2872998923, h32("a") == 444641715,
/// h32("hello") == 2290972270, h32("A#0") == 2353899868
pub fn h32(text: &str) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in text.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^= h >> 16;
    h
}

pub struct Router {
    // TODO: what does a router need to remember?
}

impl Router {
    /// A router over (name, weight) pairs.
    pub fn new(pairs: Vec<(String, f64)>) -> Router {
        let _ = pairs; // TODO
        Router {}
    }

    /// The node with the highest weight / -ln(U), where
    /// U = (h32(node + ":" + key) + 0.5) / 2^32; equal scores go to the
    /// smaller name; None with no nodes.
    pub fn route(&self, key: &str) -> Option<String> {
        let _ = key; // TODO
        None
    }

    /// The first min(n, number of nodes) names by descending score, ties by
    /// smaller name.
    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let _ = (key, n); // TODO
        Vec::new()
    }

    /// Adds the node, or sets its new weight if it is present.
    pub fn add(&mut self, node: &str, weight: f64) {
        let _ = (node, weight); // TODO
    }

    /// Removes `node` (removing an absent node changes nothing).
    pub fn remove(&mut self, node: &str) {
        let _ = node; // TODO
    }
}
