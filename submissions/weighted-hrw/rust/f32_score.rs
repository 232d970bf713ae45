//! weighted-hrw ported from a PHP router, its floats made f32. Wrong: U =
//! (h32 + 0.5) / 2^32 is computed as written, but in single precision,
//! which keeps 24 bits: from h32 = 2^32 - 128 up, U is 1.0 and the score
//! minus infinity, and close scores round to one.

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
    nodes: Vec<(String, f32)>,
}

impl Router {
    pub fn new(pairs: Vec<(String, f64)>) -> Router {
        let mut router = Router { nodes: Vec::new() };
        for (node, weight) in pairs {
            router.add(&node, weight);
        }
        router
    }

    fn score(node: &str, weight: f32, key: &str) -> f32 {
        let u = (h32(&format!("{node}:{key}")) as f32 + 0.5) / 4_294_967_296.0;
        weight / -u.ln()
    }

    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let mut ranked: Vec<(f32, &String)> = self
            .nodes
            .iter()
            .map(|(node, weight)| (Self::score(node, *weight, key), node))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        ranked.into_iter().take(n).map(|(_, node)| node.clone()).collect()
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.top(key, 1).into_iter().next()
    }

    pub fn add(&mut self, node: &str, weight: f64) {
        let weight = weight as f32;
        match self.nodes.iter_mut().find(|(n, _)| n == node) {
            Some(entry) => entry.1 = weight,
            None => self.nodes.push((node.to_owned(), weight)),
        }
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.retain(|(n, _)| n != node);
    }
}
