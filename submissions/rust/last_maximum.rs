//! Wrong: `Iterator::max_by_key` returns the last of equal maxima, so a
//! tie goes to the node added later, not to the smaller name.

const FNV_OFFSET: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

pub fn h32(text: &str) -> u32 {
    let mut h = FNV_OFFSET;
    for &b in text.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(FNV_PRIME);
    }
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

pub struct Router {
    nodes: Vec<String>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        let mut router = Router { nodes: Vec::new() };
        for n in nodes {
            router.add(&n);
        }
        router
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.nodes
            .iter()
            .max_by_key(|n| h32(&format!("{n}:{key}")))
            .cloned()
    }

    pub fn add(&mut self, node: &str) {
        if !self.nodes.iter().any(|n| n == node) {
            self.nodes.push(node.to_owned());
        }
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.retain(|n| n != node);
    }
}
