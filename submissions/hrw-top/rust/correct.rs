//! hrw-top in Rust, done right: descending score, then smaller name, and
//! at most as many names as there are nodes.

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
    nodes: std::collections::BTreeSet<String>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        Router {
            nodes: nodes.into_iter().collect(),
        }
    }

    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let mut ranked: Vec<(u32, &String)> = self
            .nodes
            .iter()
            .map(|node| (h32(&format!("{key}|{node}")), node))
            .collect();
        ranked.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
        ranked
            .into_iter()
            .take(n)
            .map(|(_, node)| node.clone())
            .collect()
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.top(key, 1).into_iter().next()
    }

    pub fn add(&mut self, node: &str) {
        self.nodes.insert(node.to_owned());
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.remove(node);
    }
}
