//! Generating cases: reproducible (the same seed gives the same bytes on any
//! machine, from a SplitMix64 generator), for any challenge whose first
//! constructor argument is its nodes, with operations drawn from the
//! challenge's signatures, streamed to disk with their expected output so
//! that a million operations never sit in memory at once. A query whose
//! answer would hang on a fragile floating-point gap is drawn again.

use crate::challenge::Challenge;
use crate::challenge::rules::Sizes;
use crate::error::Error;
use crate::fsutil::AtomicFile;
use reference::explanation::Explanation;
use reference::{Arg, Effect, Kind, Op, Returns, Signature};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The kinds of case `grader gen` makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GenProfile {
    /// Mostly questions (routes, lookups, ...), some adds and removes.
    Random,
    /// Heavy adding and removing between questions.
    Churn,
    /// Node pairs that tie, from the challenge's own finder (names whose
    /// FNV-1a states collide, pairs tying on a key, points at one
    /// position), the larger name first.
    Ties,
    /// Multi-byte node names and keys.
    Unicode,
    /// Keys whose winning score is at or above 2^31 (exposes signed
    /// comparison).
    HighScores,
    /// Thousands of nodes, up to a million operations.
    Large,
}

impl GenProfile {
    /// Default node and operation counts.
    fn defaults(self) -> (usize, usize) {
        match self {
            GenProfile::Random | GenProfile::Churn => (8, 200),
            GenProfile::Ties => (4, 120),
            GenProfile::Unicode => (6, 120),
            GenProfile::HighScores => (6, 120),
            GenProfile::Large => (10_000, 1_000_000),
        }
    }

    /// Percent of operations that ask (the rest add and remove).
    fn route_percent(self) -> u64 {
        match self {
            GenProfile::Churn => 20,
            GenProfile::Large => 10,
            GenProfile::Ties | GenProfile::HighScores | GenProfile::Unicode => 80,
            GenProfile::Random => 60,
        }
    }
}

/// SplitMix64: small, fast, and the same everywhere.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Where `gen` writes, and how much.
pub struct GenRequest<'a> {
    pub profile: GenProfile,
    pub seed: u64,
    pub nodes: Option<usize>,
    pub ops: Option<usize>,
    pub dir: &'a Path,
    pub name: &'a str,
}

/// Points per node for a ring's `k` when the constructor asks for a count.
const DEFAULT_COUNT: u64 = 8;

/// The weights drawn for weighted nodes.
const WEIGHTS: [f64; 8] = [0.5, 1.0, 1.0, 1.5, 2.0, 3.0, 5.0, 10.0];

/// What operations a challenge offers a generator, by their shapes.
pub(crate) struct Shapes {
    /// Changes membership: one name in, nothing out (`add`, `remove`);
    /// `add` may take a weight too.
    pub(crate) add: &'static Signature,
    pub(crate) remove: &'static Signature,
    /// Asks which node owns a key (`route`, `lookup`).
    pub(crate) owner: &'static Signature,
    /// The other questions (`top`, `points`, `load`).
    pub(crate) others: Vec<&'static Signature>,
}

impl Shapes {
    pub(crate) fn of(challenge: &Challenge) -> Result<Shapes, Error> {
        let find = |effect: Effect| {
            challenge
                .operations
                .iter()
                .copied()
                .find(|s| s.effect == effect)
        };
        let owner = challenge
            .operations
            .iter()
            .copied()
            .find(|s| s.returns == Returns::MaybeName && s.operands == [Kind::Name]);
        let (Some(add), Some(remove), Some(owner)) =
            (find(Effect::Adds), find(Effect::Removes), owner)
        else {
            return Err(Error::Usage(format!(
                "grader gen makes cases of add, remove and a lookup of one key; challenge `{}` lacks one of them",
                challenge.id
            )));
        };
        let others = challenge
            .operations
            .iter()
            .copied()
            .filter(|s| s.returns.is_query() && s.name != owner.name)
            .collect();
        Ok(Shapes {
            add,
            remove,
            owner,
            others,
        })
    }
}

/// Writes `NAME.json` and `NAME.expected.json`; returns their paths.
pub fn generate(
    challenge: &Challenge,
    request: &GenRequest<'_>,
) -> Result<(PathBuf, PathBuf), Error> {
    let shapes = Shapes::of(challenge)?;
    let constructor = challenge.model.constructor;
    let weighted = match constructor.first() {
        Some(Kind::Names) => false,
        Some(Kind::WeightedNames) => true,
        _ => {
            return Err(Error::Usage(format!(
                "grader gen needs a challenge built from its nodes first; `{}` is built otherwise",
                challenge.id
            )));
        }
    };
    let (default_nodes, default_ops) = request.profile.defaults();
    let (n, m) = (
        request.nodes.unwrap_or(default_nodes),
        request.ops.unwrap_or(default_ops),
    );
    let mut rng = Rng(request.seed);
    let profile = request.profile;
    let name_of = |i: usize| -> String {
        match profile {
            GenProfile::Unicode => {
                let stems = ["сервер", "サーバー", "nœud", "🖥️", "κόμβος", "ノード"];
                format!("{}-{i}", stems[i % stems.len()])
            }
            _ => format!("node-{i}"),
        }
    };
    // The other constructor arguments: a count (a ring's k), a weight, a name.
    let rest: Vec<Arg> = constructor[1..]
        .iter()
        .map(|kind| match kind {
            Kind::Count | Kind::Size => Arg::Count(DEFAULT_COUNT),
            Kind::Weight => Arg::Weight(1.0),
            _ => Arg::Name("x".into()),
        })
        .collect();
    let mut nodes: Vec<String> = (0..n).map(name_of).collect();
    // Adds and removes draw from twice the initial nodes; a case that starts
    // with none (`--nodes 0`, valid for every challenge) still needs names
    // to add, and two keep every larger count's bytes as they were.
    let mut pool: Vec<String> = (0..(n * 2).max(2)).map(name_of).collect();
    // Keys a profile wants asked about, besides random ones.
    let mut tie_keys: Vec<String> = Vec::new();
    if profile == GenProfile::Ties {
        // Pairs that tie; the larger name goes first, so insertion order
        // and the rule disagree.
        let mut probe = vec![Arg::Names(Vec::new())];
        probe.extend(rest.iter().cloned());
        let mut tied = Vec::new();
        for p in 0..(n / 2).max(1) {
            let tie = (challenge.model.ties)(&format!("tie{p}-"), request.seed % 1_000_000, &probe);
            tied.push(tie.nodes.1);
            tied.push(tie.nodes.0);
            tie_keys.extend(tie.keys);
        }
        nodes = tied.clone();
        pool = tied;
    }
    let weight_of = |rng: &mut Rng| {
        if profile == GenProfile::Ties {
            1.0 // tied pairs tie only at equal weights
        } else {
            WEIGHTS[rng.below(WEIGHTS.len())]
        }
    };
    let mut args = vec![if weighted {
        Arg::WeightedNames(
            nodes
                .iter()
                .map(|n| (n.clone(), weight_of(&mut rng)))
                .collect(),
        )
    } else {
        Arg::Names(nodes.clone())
    }];
    args.extend(rest);
    // The loader's bounds, checked before anything is written and as each
    // operation is drawn: nothing gen writes fails to load.
    let refuse = |why: String| {
        Error::Usage(format!(
            "grader gen --nodes {n} --ops {m}: {why}; nothing was written"
        ))
    };
    Sizes::operations_fit(m).map_err(refuse)?;
    let mut sizes = Sizes::new(challenge.model, &args).map_err(|(_, why)| refuse(why))?;
    std::fs::create_dir_all(request.dir).map_err(Error::io(format!(
        "cannot create {}",
        request.dir.display()
    )))?;
    let case_path = request.dir.join(format!("{}.json", request.name));
    let expected_path = crate::challenge::expected_path(request.dir, request.name);
    for p in [&case_path, &expected_path] {
        if p.exists() {
            return Err(Error::Usage(format!(
                "{} already exists; nothing was written",
                p.display()
            )));
        }
    }
    let mut case = AtomicFile::create(&case_path)?;
    let mut expected = AtomicFile::create(&expected_path)?;
    let mut model = (challenge.model.build)(&args);
    let args_json: Vec<Value> = args.iter().map(Arg::to_json).collect();
    case.write(format!("[{},[", Value::from(args_json)).as_bytes())?;
    expected.write(b"[")?;
    let mut members: std::collections::BTreeSet<String> = nodes.iter().cloned().collect();
    for i in 0..m {
        let roll = rng.next() % 100;
        let op = if roll < profile.route_percent() {
            // A question: mostly the owner of a key, else another one.
            let signature = match shapes.others.len() {
                0 => shapes.owner,
                k => {
                    let pick = rng.below(3 * k);
                    shapes.others.get(pick).copied().unwrap_or(shapes.owner)
                }
            };
            let mut op = question(signature, &mut rng, profile, m, members.len(), &tie_keys);
            // A high score, or a decision no language can get wrong.
            for _ in 0..64 {
                let hair = model.fragile(&op).is_some();
                let low = profile == GenProfile::HighScores && !high_scores(model.as_ref(), &op);
                if !hair && !low {
                    break;
                }
                op = question(signature, &mut rng, profile, m, members.len(), &tie_keys);
            }
            op
        } else {
            let node = pool[rng.below(pool.len())].clone();
            let (signature, operands) =
                if roll < profile.route_percent() + (100 - profile.route_percent()) / 2 {
                    members.insert(node.clone());
                    let mut operands = vec![Arg::Name(node)];
                    if shapes.add.operands.len() > 1 {
                        operands.push(Arg::Weight(weight_of(&mut rng)));
                    }
                    (shapes.add, operands)
                } else {
                    members.remove(&node);
                    (shapes.remove, vec![Arg::Name(node)])
                };
            Op {
                signature,
                operands,
            }
        };
        sizes
            .op(i, &op)
            .map_err(|(_, why)| refuse(format!("operation {i}: {why}")))?;
        let result = model.apply(&op);
        let mut json = vec![Value::from(op.name())];
        json.extend(op.operands.iter().map(Arg::to_json));
        let sep = if i == 0 { "" } else { "," };
        case.write(format!("{sep}{}", Value::from(json)).as_bytes())?;
        expected.write(format!("{sep}{result}").as_bytes())?;
    }
    case.write(b"]]\n")?;
    expected.write(b"]\n")?;
    case.commit()?;
    expected.commit()?;
    Ok((case_path, expected_path))
}

/// A question of `signature` with drawn operands: a key (one the profile
/// wants asked about a third of the time), a count (a replica list's n up to
/// a little past the node count; a load's n in the hundreds).
fn question(
    signature: &'static Signature,
    rng: &mut Rng,
    profile: GenProfile,
    ops: usize,
    nodes: usize,
    tie_keys: &[String],
) -> Op {
    let operands = signature
        .operands
        .iter()
        .map(|kind| match kind {
            Kind::Name if !tie_keys.is_empty() && rng.below(3) == 0 => {
                Arg::Name(tie_keys[rng.below(tie_keys.len())].clone())
            }
            Kind::Name => Arg::Name(match profile {
                GenProfile::Unicode => format!("ключ-{}-🙂-{}", rng.below(1000), rng.below(10)),
                GenProfile::HighScores => format!("hi-{}", rng.next() % 1_000_000_000),
                _ => format!("key-{}", rng.below(ops.max(10) * 2)),
            }),
            Kind::Count | Kind::Size if signature.returns == Returns::Loads => {
                Arg::Count(100 + rng.below(900) as u64)
            }
            Kind::Count | Kind::Size => Arg::Count(rng.below(nodes + 3) as u64),
            Kind::Weight => Arg::Weight(WEIGHTS[rng.below(WEIGHTS.len())]),
            Kind::Names | Kind::WeightedNames => Arg::Names(Vec::new()),
        })
        .collect();
    Op {
        signature,
        operands,
    }
}

/// Whether `op` is decided by an h32 score at or above 2^31 over another
/// below it: signed comparison would pick another winner. Questions the
/// model does not explain with plain h32 scores qualify as they are.
fn high_scores(model: &dyn reference::Model, op: &Op) -> bool {
    match model.explain(op) {
        Some(Explanation::Scores(t)) | Some(Explanation::Top { table: t, .. }) => {
            let top = t.rows.first().map_or(0, |r| r.h32);
            let low = t.rows.last().map_or(0, |r| r.h32);
            t.rows.len() < 2 || (top >= 1 << 31 && low < 1 << 31)
        }
        _ => true,
    }
}
