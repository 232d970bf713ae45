//! vnode-ring in Rust, done right: a sorted Vec of (position, node) and a
//! binary search for the first position at or after the key's.

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
    k: usize,
    nodes: std::collections::BTreeSet<String>,
    ring: Vec<(u32, String)>,
}

impl Router {
    pub fn new(nodes: Vec<String>, k: usize) -> Router {
        let mut router = Router {
            k,
            nodes: Default::default(),
            ring: Vec::new(),
        };
        for node in nodes {
            router.add(&node);
        }
        router
    }

    pub fn lookup(&self, key: &str) -> Option<String> {
        if self.ring.is_empty() {
            return None;
        }
        let h = h32(key);
        let i = self.ring.partition_point(|(p, _)| *p < h);
        Some(self.ring[i % self.ring.len()].1.clone())
    }

    pub fn add(&mut self, node: &str) {
        if self.nodes.insert(node.to_owned()) {
            for i in 0..self.k {
                self.ring.push((h32(&format!("{node}#{i}")), node.to_owned()));
            }
            self.ring.sort();
        }
    }

    pub fn remove(&mut self, node: &str) {
        if self.nodes.remove(node) {
            self.ring.retain(|(_, n)| n != node);
        }
    }

    pub fn points(&self) -> usize {
        self.ring.len()
    }

    pub fn load(&self, n: usize) -> Vec<(String, usize)> {
        let mut counts: std::collections::BTreeMap<String, usize> =
            self.nodes.iter().map(|n| (n.clone(), 0)).collect();
        for i in 0..n {
            if let Some(owner) = self.lookup(&format!("key{i}")) {
                *counts.entry(owner).or_default() += 1;
            }
        }
        counts.into_iter().collect()
    }
}
