//! Replica ranking (hrw-top): your solution goes here.
//! Check your work with:  grader grade --challenge hrw-top router.rs

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
    /// A router over `nodes` (a name listed twice is one node).
    pub fn new(nodes: Vec<String>) -> Router {
        let _ = nodes; // TODO
        Router {}
    }

    /// The first min(n, number of nodes) names by descending
    /// h32(key + "|" + node); equal scores put the smaller name first.
    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let _ = (key, n); // TODO
        Vec::new()
    }

    /// The first name of `top`, or None with no nodes.
    pub fn route(&self, key: &str) -> Option<String> {
        let _ = key; // TODO
        None
    }

    /// Adds `node` (adding a present node changes nothing).
    pub fn add(&mut self, node: &str) {
        let _ = node; // TODO
    }

    /// Removes `node` (removing an absent node changes nothing).
    pub fn remove(&mut self, node: &str) {
        let _ = node; // TODO
    }
}
