//! Wrong: panics when removing a node that is absent (an `unwrap` on the
//! search), on line 38.

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
    nodes: Vec<String>,
}

impl Router {
    pub fn new(mut nodes: Vec<String>) -> Router {
        nodes.sort();
        nodes.dedup();
        Router { nodes }
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.nodes.iter().max_by_key(|n| (h32(&format!("{n}:{key}")), std::cmp::Reverse((*n).clone()))).cloned()
    }

    pub fn add(&mut self, node: &str) {
        if let Err(at) = self.nodes.binary_search_by(|n| n.as_str().cmp(node)) {
            self.nodes.insert(at, node.to_owned());
        }
    }

    pub fn remove(&mut self, node: &str) {
        let at = self.nodes.binary_search_by(|n| n.as_str().cmp(node)).unwrap();
        self.nodes.remove(at);
    }
}
