//! hrw-top that takes n nodes from its set, then ranks them. Wrong: a
//! BTreeSet iterates in name order, so top(key, n) ranks the n smallest
//! names only, not every node. route scans every node and is right.

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

    fn score(key: &str, node: &str) -> u32 {
        h32(&format!("{key}|{node}"))
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.nodes
            .iter()
            .max_by(|a, b| Self::score(key, a).cmp(&Self::score(key, b)).then(b.cmp(a)))
            .cloned()
    }

    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let mut replicas: Vec<&String> = self.nodes.iter().take(n).collect();
        replicas.sort_by(|a, b| Self::score(key, b).cmp(&Self::score(key, a)).then(a.cmp(b)));
        replicas.into_iter().cloned().collect()
    }

    pub fn add(&mut self, node: &str) {
        self.nodes.insert(node.to_owned());
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.remove(node);
    }
}
