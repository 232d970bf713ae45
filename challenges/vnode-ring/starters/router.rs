//! Consistent-hash ring (vnode-ring): your solution goes here.
//! Check your work with:  grader grade --challenge vnode-ring router.rs

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
    // TODO: what does a ring need to remember?
}

impl Router {
    /// A ring of `nodes` (a name listed twice is one node), `k` points each
    /// at h32(node + "#" + i).
    pub fn new(nodes: Vec<String>, k: usize) -> Router {
        let _ = (nodes, k); // TODO
        Router {}
    }

    /// The node of the first entry at or after h32(key), wrapping past the
    /// end; None on an empty ring.
    pub fn lookup(&self, key: &str) -> Option<String> {
        let _ = key; // TODO
        None
    }

    /// Places the node's k points (a present node changes nothing).
    pub fn add(&mut self, node: &str) {
        let _ = node; // TODO
    }

    /// Takes all k points away (an absent node changes nothing).
    pub fn remove(&mut self, node: &str) {
        let _ = node; // TODO
    }

    /// The number of entries on the ring.
    pub fn points(&self) -> usize {
        0 // TODO
    }

    /// Looks up "key0" .. "key{n-1}": (node, count) for every node, sorted
    /// by name, zero counts included.
    pub fn load(&self, n: usize) -> Vec<(String, usize)> {
        let _ = n; // TODO
        Vec::new()
    }
}
