//! Every vector level of the route loop against the scalar one: on random
//! node sets and keys of every length, on ties, and on every route of the
//! shipped rendezvous-router suite.

use reference::hash::{fnv_collision, fnv1a, fnv1a_extend};
use reference::lanes::{Level, first_maximum, first_maximum_at};
mod common;

/// The states the router keeps: FNV-1a of `name + ":"`.
fn states(names: &[String]) -> Vec<u32> {
    names
        .iter()
        .map(|n| fnv1a_extend(fnv1a(n.as_bytes()), b":"))
        .collect()
}

/// Every level agrees with the scalar loop on `states` and `key`.
fn agree(states: &[u32], key: &[u8]) {
    let oracle = first_maximum_at(Level::Scalar, states, key);
    for level in Level::available() {
        assert_eq!(
            first_maximum_at(level, states, key),
            oracle,
            "{level:?} on {} nodes, key {key:?}",
            states.len()
        );
    }
    assert_eq!(first_maximum(states, key), oracle);
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_nodes_and_keys_of_every_length() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let alphabet: Vec<char> = "abcXYZ09:-_/ é€ключ🙂".chars().collect();
    let text = |rng: &mut Rng, len: usize| -> String {
        (0..len)
            .map(|_| alphabet[rng.below(alphabet.len())])
            .collect()
    };
    for round in 0..400 {
        // Every count around the groups of 16 and 64, and some large ones.
        let count = match round % 4 {
            0 => round % 40,
            1 => 16 * (1 + rng.below(12)) + rng.below(3),
            2 => rng.below(200),
            _ => 1000 + rng.below(40),
        };
        let names: Vec<String> = (0..count)
            .map(|i| {
                let len = 1 + rng.below(12);
                format!("{}{i}", text(&mut rng, len))
            })
            .collect();
        let states = states(&names);
        for len in [0, 1, 2, 7, 15, 16, 17, 31, 64, 200] {
            let key = text(&mut rng, len);
            agree(&states, key.as_bytes());
        }
        // Raw bytes too: every value of a byte.
        let bytes: Vec<u8> = (0..rng.below(40)).map(|_| rng.next() as u8).collect();
        agree(&states, &bytes);
    }
}

/// Two names whose FNV-1a states collide tie for every key; placed in and
/// across groups of 16 and 64 nodes, every level keeps the first.
#[test]
fn ties_keep_the_first_node_in_every_level() {
    let (a, b) = fnv_collision("node-", 0);
    let mut rng = Rng(7);
    for count in [2, 15, 16, 17, 33, 63, 64, 65, 80, 100, 129, 1000] {
        for _ in 0..20 {
            let mut names: Vec<String> = (0..count).map(|i| format!("other-{i}")).collect();
            let (i, j) = (rng.below(count), rng.below(count));
            names[i] = a.clone();
            names[j] = b.clone();
            // Several copies of one state as well.
            let mut states = states(&names);
            let k = rng.below(count);
            states[k] = states[i];
            for key in ["", "k", "key-2", "user:1"] {
                agree(&states, key.as_bytes());
            }
        }
    }
    // The winner's state copied into every kind of group (of 64, of 16,
    // the tail one at a time) ties at the maximum across them.
    for count in [63, 64, 65, 80, 81, 127, 128, 129, 150, 1000] {
        let names: Vec<String> = (0..count).map(|i| format!("other-{i}")).collect();
        let mut states = states(&names);
        let (best, _) = first_maximum_at(Level::Scalar, &states, b"k").unwrap();
        for copy in [0, 63, 64, 79, 80, count - 1] {
            let mut tied = states.clone();
            if copy < count {
                tied[copy] = tied[best];
            }
            agree(&tied, b"k");
        }
        for at in (0..count).rev().step_by(7) {
            states[at] = states[best];
        }
        agree(&states, b"k");
    }
    // All states equal: the very first node wins.
    let same = vec![fnv1a(b"x:"); 129];
    assert_eq!(first_maximum(&same, b"k").unwrap().0, 0);
    for level in Level::available() {
        assert_eq!(first_maximum_at(level, &same, b"k").unwrap().0, 0);
    }
}

/// Every route of every shipped rendezvous-router case, at every level.
#[test]
fn every_route_of_the_shipped_suite() {
    let mut routes = 0;
    for (path, case) in common::shipped_cases("rendezvous-router") {
        let mut nodes: Vec<String> = case[0][0]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap().to_owned())
            .collect();
        nodes.sort();
        nodes.dedup();
        for op in case[1].as_array().unwrap() {
            let name = op[1].as_str().unwrap().to_owned();
            match op[0].as_str().unwrap() {
                "route" => {
                    agree(&states(&nodes), name.as_bytes());
                    routes += 1;
                }
                "add" => {
                    if let Err(at) = nodes.binary_search(&name) {
                        nodes.insert(at, name);
                    }
                }
                "remove" => nodes.retain(|n| *n != name),
                other => panic!("{}: no operation {other}", path.display()),
            }
        }
    }
    // The suite holds 2,957 routes.
    assert!(routes > 2_900, "{routes} routes");
}
