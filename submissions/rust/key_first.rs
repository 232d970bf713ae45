//! Wrong: scores `format!("{key}:{node}")`, the key first, where the
//! statement hashes the node's name first.

use std::collections::BTreeSet;

pub fn h32(text: &str) -> u32 {
    let mut h: u32 = 2_166_136_261;
    for &b in text.as_bytes() {
        h = (h ^ u32::from(b)).wrapping_mul(16_777_619);
    }
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

pub struct Router {
    nodes: BTreeSet<String>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        Router {
            nodes: nodes.into_iter().collect(),
        }
    }

    pub fn route(&self, key: &str) -> Option<String> {
        // Names in ascending order and a strict `>`: ties keep the smaller.
        let mut best: Option<(&String, u32)> = None;
        for n in &self.nodes {
            let score = h32(&format!("{key}:{n}"));
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((n, score));
            }
        }
        best.map(|(n, _)| n.clone())
    }

    pub fn add(&mut self, node: &str) {
        self.nodes.insert(node.to_owned());
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.remove(node);
    }
}
