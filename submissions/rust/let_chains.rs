//! Correct: written for edition 2024, the default (`if let ... && ...`).

#![allow(dead_code)]

use crate::hashing::h32;

mod hashing {
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
}

pub struct Router {
    nodes: Vec<String>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        let mut router = Router { nodes: Vec::new() };
        for node in nodes {
            router.add(&node);
        }
        router
    }

    pub fn route(&self, key: &str) -> Option<String> {
        let score = |node: &String| (h32(&format!("{node}:{key}")), std::cmp::Reverse(node.clone()));
        self.nodes.iter().max_by_key(|n| score(n)).cloned()
    }

    pub fn add(&mut self, node: &str) {
        // A let chain: edition 2024 only.
        if let Some(last) = self.nodes.last()
            && last == node
        {
            return;
        }
        if !self.nodes.iter().any(|n| n == node) {
            self.nodes.push(node.to_owned());
        }
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.retain(|n| n != node);
    }
}

