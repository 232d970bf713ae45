//! A correct rendezvous router in Rust: names kept sorted with each one's
//! FNV-1a state of "name:" cached, so a route only hashes the key.

const FNV_OFFSET: u32 = 2_166_136_261;
const FNV_PRIME: u32 = 16_777_619;

fn fnv(mut h: u32, bytes: &[u8]) -> u32 {
    for &b in bytes {
        h = (h ^ u32::from(b)).wrapping_mul(FNV_PRIME);
    }
    h
}

fn fmix(mut h: u32) -> u32 {
    h ^= h >> 16;
    h = h.wrapping_mul(0x85eb_ca6b);
    h ^= h >> 13;
    h = h.wrapping_mul(0xc2b2_ae35);
    h ^ (h >> 16)
}

pub fn h32(text: &str) -> u32 {
    fmix(fnv(FNV_OFFSET, text.as_bytes()))
}

pub struct Router {
    nodes: Vec<(String, u32)>,
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
        let mut best: Option<(&str, u32)> = None;
        for (name, state) in &self.nodes {
            let score = fmix(fnv(*state, key.as_bytes()));
            // Sorted names: a strict `>` keeps the smaller name on ties.
            if best.is_none_or(|(_, s)| score > s) {
                best = Some((name, score));
            }
        }
        best.map(|(n, _)| n.to_owned())
    }

    pub fn add(&mut self, node: &str) {
        if let Err(at) = self.nodes.binary_search_by(|(n, _)| n.as_str().cmp(node)) {
            let state = fnv(fnv(FNV_OFFSET, node.as_bytes()), b":");
            self.nodes.insert(at, (node.to_owned(), state));
        }
    }

    pub fn remove(&mut self, node: &str) {
        if let Ok(at) = self.nodes.binary_search_by(|(n, _)| n.as_str().cmp(node)) {
            self.nodes.remove(at);
        }
    }
}

// Reads a test's expected output at compile time, through the link beside

// the corpus that leads out of its folder to the tests: the compiler is

// granted the submission's own folder only, so this does not compile.

pub const STOLEN: &str =

    include_str!("../linked-tests/sample-1-keys-spread-over-three-nodes.expected.json");
