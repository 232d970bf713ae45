//! Generating cases: reproducible (the same seed gives the same bytes on any
//! machine, from a SplitMix64 generator), for the rendezvous-router family
//! of challenges, streamed to disk with their expected output so that a
//! million operations never sit in memory at once.

use crate::challenge::Challenge;
use crate::error::Error;
use reference::{Arg, Kind, Op};
use serde_json::Value;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// The kinds of case `grader gen` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Profile {
    /// Mostly routes, some adds and removes.
    Random,
    /// Heavy adding and removing between routes.
    Churn,
    /// Node pairs whose FNV-1a states collide, so they tie on every key.
    Ties,
    /// Multi-byte node names and keys.
    Unicode,
    /// Keys whose winning score is at or above 2^31 (exposes signed
    /// comparison).
    HighScores,
    /// Thousands of nodes, up to a million operations.
    Large,
}

impl Profile {
    /// Default node and operation counts.
    fn defaults(self) -> (usize, usize) {
        match self {
            Profile::Random | Profile::Churn => (8, 200),
            Profile::Ties => (4, 120),
            Profile::Unicode => (6, 120),
            Profile::HighScores => (6, 120),
            Profile::Large => (10_000, 1_000_000),
        }
    }

    /// Percent of operations that route (the rest add and remove).
    fn route_percent(self) -> u64 {
        match self {
            Profile::Churn => 20,
            Profile::Large => 10,
            Profile::Ties | Profile::HighScores | Profile::Unicode => 80,
            Profile::Random => 60,
        }
    }
}

/// SplitMix64: small, fast, and the same everywhere.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Where `gen` writes, and how much.
pub struct Request<'a> {
    pub profile: Profile,
    pub seed: u64,
    pub nodes: Option<usize>,
    pub ops: Option<usize>,
    pub dir: &'a Path,
    pub name: &'a str,
}

/// Writes `NAME.json` and `NAME.expected.json`; returns their paths.
pub fn generate(challenge: &Challenge, request: &Request<'_>) -> Result<(PathBuf, PathBuf), Error> {
    let signature = |name: &str| {
        challenge
            .operations
            .iter()
            .copied()
            .find(|s| s.name == name)
    };
    let (Some(route), Some(add), Some(remove)) =
        (signature("route"), signature("add"), signature("remove"))
    else {
        return Err(Error::Usage(format!(
            "grader gen makes route/add/remove cases; challenge `{}` has other operations",
            challenge.id
        )));
    };
    if challenge.model.constructor != [Kind::Names] {
        return Err(Error::Usage(format!(
            "grader gen makes cases for a Router(nodes); challenge `{}` is built otherwise",
            challenge.id
        )));
    }
    let (default_nodes, default_ops) = request.profile.defaults();
    let (n, m) = (
        request.nodes.unwrap_or(default_nodes),
        request.ops.unwrap_or(default_ops),
    );
    let mut rng = Rng(request.seed);
    let profile = request.profile;
    let name_of = |i: usize| -> String {
        match profile {
            Profile::Unicode => {
                let stems = ["сервер", "サーバー", "nœud", "🖥️", "κόμβος", "ノード"];
                format!("{}-{i}", stems[i % stems.len()])
            }
            _ => format!("node-{i}"),
        }
    };
    let mut nodes: Vec<String> = (0..n).map(name_of).collect();
    let mut pool: Vec<String> = (0..n * 2).map(name_of).collect();
    if profile == Profile::Ties {
        // Pairs whose FNV-1a states collide tie on every key; the larger
        // name goes first, so insertion order and the rule disagree.
        let pairs = (n / 2).max(1);
        let mut tied = Vec::new();
        for p in 0..pairs {
            let (a, b) =
                reference::hash::fnv_collision(&format!("tie{p}-"), request.seed % 1_000_000);
            tied.push(b);
            tied.push(a);
        }
        nodes = tied.clone();
        pool = tied;
    }
    std::fs::create_dir_all(request.dir).map_err(Error::io(format!(
        "cannot create {}",
        request.dir.display()
    )))?;
    let case_path = request.dir.join(format!("{}.json", request.name));
    let expected_path = request.dir.join(format!("{}.expected.json", request.name));
    for p in [&case_path, &expected_path] {
        if p.exists() {
            return Err(Error::Usage(format!(
                "{} already exists; nothing was written",
                p.display()
            )));
        }
    }
    let tmp = |p: &Path| p.with_extension(format!("gen-{}", std::process::id()));
    let (case_tmp, expected_tmp) = (tmp(&case_path), tmp(&expected_path));
    let io = |p: &Path| Error::io(format!("cannot write {}", p.display()));
    let mut case = BufWriter::new(std::fs::File::create(&case_tmp).map_err(io(&case_tmp))?);
    let mut expected =
        BufWriter::new(std::fs::File::create(&expected_tmp).map_err(io(&expected_tmp))?);
    let mut model = (challenge.model.build)(&[Arg::Names(nodes.clone())]);
    // A model to ask for scores, for the high-scores profile.
    let mut mirror = reference::rendezvous::Router::new(nodes.iter().map(String::as_str));
    let write = |w: &mut BufWriter<std::fs::File>, s: &str, p: &Path| {
        w.write_all(s.as_bytes()).map_err(io(p))
    };
    write(
        &mut case,
        &format!("[[{}],[", Value::from(nodes.clone())),
        &case_tmp,
    )?;
    write(&mut expected, "[", &expected_tmp)?;
    for i in 0..m {
        let roll = rng.next() % 100;
        let (signature, operand) = if roll < profile.route_percent() {
            let key = match profile {
                Profile::Unicode => format!("ключ-{}-🙂-{}", rng.below(1000), rng.below(10)),
                Profile::HighScores => high_score_key(&mirror, &mut rng),
                _ => format!("key-{}", rng.below(m.max(10) * 2)),
            };
            (route, key)
        } else if roll < profile.route_percent() + (100 - profile.route_percent()) / 2 {
            (add, pool[rng.below(pool.len())].clone())
        } else {
            (remove, pool[rng.below(pool.len())].clone())
        };
        match signature.name {
            "add" => mirror.add(&operand),
            "remove" => mirror.remove(&operand),
            _ => {}
        }
        let op = Op {
            signature,
            operands: vec![Arg::Name(operand.clone())],
        };
        let result = model.apply(&op);
        let sep = if i == 0 { "" } else { "," };
        write(
            &mut case,
            &format!("{sep}{}", serde_json::json!([signature.name, operand])),
            &case_tmp,
        )?;
        write(&mut expected, &format!("{sep}{result}"), &expected_tmp)?;
    }
    write(&mut case, "]]\n", &case_tmp)?;
    write(&mut expected, "]\n", &expected_tmp)?;
    for (w, tmp, path) in [
        (case, &case_tmp, &case_path),
        (expected, &expected_tmp, &expected_path),
    ] {
        w.into_inner()
            .map_err(|e| io(tmp)(e.into_error()))?
            .sync_all()
            .map_err(io(tmp))?;
        std::fs::rename(tmp, path).map_err(io(path))?;
    }
    Ok((case_path, expected_path))
}

/// A key whose winning score is at or above 2^31 while another node's is
/// below: signed comparison picks another winner. Falls back to any key
/// after a bounded search (with under two nodes no key can qualify).
fn high_score_key(router: &reference::rendezvous::Router, rng: &mut Rng) -> String {
    let mut key = String::new();
    for _ in 0..64 {
        key = format!("hi-{}", rng.next() % 1_000_000_000);
        let table = router.scores(&key);
        let top = table.rows.first().map_or(0, |r| r.h32);
        let low = table.rows.last().map_or(0, |r| r.h32);
        if top >= 1 << 31 && low < 1 << 31 {
            break;
        }
    }
    key
}
