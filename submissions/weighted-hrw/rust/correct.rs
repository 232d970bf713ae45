//! weighted-hrw in Rust, done right: score = weight / -ln(U), highest
//! first, ties to the smaller name.

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
    weights: std::collections::BTreeMap<String, f64>,
}

impl Router {
    pub fn new(pairs: Vec<(String, f64)>) -> Router {
        Router {
            weights: pairs.into_iter().collect(),
        }
    }

    fn score(&self, node: &str, weight: f64, key: &str) -> f64 {
        let u = (f64::from(h32(&format!("{node}:{key}"))) + 0.5) / 4_294_967_296.0;
        weight / -u.ln()
    }

    pub fn top(&self, key: &str, n: usize) -> Vec<String> {
        let mut ranked: Vec<(f64, &String)> = self
            .weights
            .iter()
            .map(|(node, &w)| (self.score(node, w, key), node))
            .collect();
        ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        ranked
            .into_iter()
            .take(n)
            .map(|(_, node)| node.clone())
            .collect()
    }

    pub fn route(&self, key: &str) -> Option<String> {
        self.top(key, 1).into_iter().next()
    }

    pub fn add(&mut self, node: &str, weight: f64) {
        self.weights.insert(node.to_owned(), weight);
    }

    pub fn remove(&mut self, node: &str) {
        self.weights.remove(node);
    }
}
