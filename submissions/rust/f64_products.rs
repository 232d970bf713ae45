//! Wrong: the products are computed in f64, as in a port of JavaScript's
//! `*`: past 2^53 an f64 loses the low bits before the modulo 2^32.

use std::collections::BTreeSet;

const FNV_OFFSET: u32 = 2_166_136_261;
const FNV_PRIME: f64 = 16_777_619.0;
const TWO_32: f64 = 4_294_967_296.0;

/// `h * by` modulo 2^32.
fn mul(h: u32, by: f64) -> u32 {
    (f64::from(h) * by % TWO_32) as u32
}

pub fn h32(text: &str) -> u32 {
    let mut h = FNV_OFFSET;
    for &b in text.as_bytes() {
        h = mul(h ^ u32::from(b), FNV_PRIME);
    }
    h ^= h >> 16;
    h = mul(h, 2_246_822_507.0);
    h ^= h >> 13;
    h = mul(h, 3_266_489_909.0);
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
        let mut best: Option<(&String, u32)> = None;
        for node in &self.nodes {
            let score = h32(&format!("{node}:{key}"));
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((node, score));
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
