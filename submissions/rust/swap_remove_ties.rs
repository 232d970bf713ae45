//! Wrong: a strict `>` keeps the first of equal maxima in the vector's
//! order, and `swap_remove` changes that order, so a removal can flip a tie
//! between two nodes it does not touch.

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
        let mut best: Option<(&String, u32)> = None;
        for n in &self.nodes {
            let score = h32(&format!("{n}:{key}"));
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((n, score));
            }
        }
        best.map(|(n, _)| n.clone())
    }

    pub fn add(&mut self, node: &str) {
        if !self.nodes.iter().any(|n| n == node) {
            self.nodes.push(node.to_owned());
        }
    }

    pub fn remove(&mut self, node: &str) {
        if let Some(i) = self.nodes.iter().position(|n| n == node) {
            self.nodes.swap_remove(i);
        }
    }
}
