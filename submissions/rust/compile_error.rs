//! Wrong: does not compile (line 14 returns a &str where an
//! Option<String> is due).

pub struct Router {
    nodes: Vec<String>,
}

impl Router {
    pub fn new(nodes: Vec<String>) -> Router {
        Router { nodes }
    }

    pub fn route(&self, key: &str) -> Option<String> {
        key
    }

    pub fn add(&mut self, node: &str) {
        self.nodes.push(node.to_owned());
    }

    pub fn remove(&mut self, node: &str) {
        self.nodes.retain(|n| n != node);
    }
}
