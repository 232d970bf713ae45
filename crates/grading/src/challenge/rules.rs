//! The rules every case obeys, however it is made: pasted (`add`),
//! generated (`gen`), checked (`validate`) or loaded to grade. Each is
//! written once here and called from all of them.
//!
//! - A case's name is safe as a file name and in every report.
//! - A case is bounded: its operations, the ring it builds (nodes, times
//!   a ring's points per node), and the keys its loads hash. The bounds
//!   keep the reference (run at every load) and the grader's memory
//!   small, and are far above any case a course needs: the largest
//!   shipped cases have 10,000 operations, 12,800 ring points and 20,000
//!   load keys, and `gen --profile large` writes a million operations
//!   over 20,000 nodes (160,000 ring points) and about 9 million load
//!   keys.

use reference::{Arg, Effect, Kind, ModelSpec, Op};
use std::collections::BTreeSet;

/// The most operations one case may hold.
pub const MAX_OPERATIONS: usize = 1_000_000;

/// The most entries a case's ring may hold at once: its nodes, times a
/// ring's points per node (vnode-ring's k) where the constructor has one.
pub const MAX_RING: u64 = 1_000_000;

/// The most keys all of one case's loads (`load(n)`) may hash together.
pub const MAX_LOAD_KEYS: u64 = 50_000_000;

/// Why `name` cannot name a case, if it cannot: it becomes a file name
/// (`NAME.json`, `NAME.expected.json`) and is shown in every report, so it
/// is letters, digits, `-`, `_` and `.`, starting with a letter or a digit,
/// without `.json` at its end.
pub fn case_name_problem(name: &str) -> Option<String> {
    name_problem("case", name)
}

/// Why `name` cannot name a group, if it cannot: it is a folder of the
/// suite, under the same rule as a case's name.
pub fn group_name_problem(name: &str) -> Option<String> {
    name_problem("group", name)
}

fn name_problem(what: &str, name: &str) -> Option<String> {
    let fix = "use letters, digits, `-`, `_` and `.`, starting with a letter or a digit, without `.json` (e.g. `two-nodes-tie`)";
    let bad = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')));
    let shown = name.escape_debug();
    if name.is_empty() {
        Some(format!("a {what} needs a name: {fix}"))
    } else if let Some(c) = bad {
        Some(format!(
            "`{shown}` is not a {what} name: {c:?} cannot be in one; {fix}"
        ))
    } else if !name.starts_with(|c: char| c.is_ascii_alphanumeric()) {
        Some(format!(
            "`{shown}` is not a {what} name: it must start with a letter or a digit; {fix}"
        ))
    } else if name.ends_with(".json") {
        Some(format!(
            "`{shown}` is not a {what} name: `.json` is added to it; {fix}"
        ))
    } else {
        None
    }
}

/// A case's place where a bound is broken (indices into `[args, ops]`),
/// and what to do.
pub type Broken = (Vec<usize>, String);

/// The sizes of one case, checked as its operations are read, so that a
/// generator streaming a million operations checks them with the loader's
/// own rules.
pub struct Sizes {
    /// Ring entries per node: the product of the constructor's sizes.
    per_node: u64,
    /// The name of a ring's points per node, for messages (`k`).
    per_node_name: Option<&'static str>,
    members: BTreeSet<String>,
    operations: usize,
    load_keys: u64,
}

impl Sizes {
    /// Starts the sizes of a case built from `args`.
    pub fn new(model: &ModelSpec, args: &[Arg]) -> Result<Sizes, Broken> {
        let per_node = model
            .constructor
            .iter()
            .zip(args)
            .filter(|(kind, _)| **kind == Kind::Size)
            .map(|(_, a)| match a {
                Arg::Count(n) => *n,
                _ => 1,
            })
            .fold(1u64, u64::saturating_mul);
        let per_node_name = model.constructor.contains(&Kind::Size).then_some("k");
        let members = match model.nodes_arg().and_then(|i| args.get(i)) {
            Some(Arg::Names(names)) => names.iter().cloned().collect(),
            Some(Arg::WeightedNames(pairs)) => pairs.iter().map(|(n, _)| n.clone()).collect(),
            _ => BTreeSet::new(),
        };
        let sizes = Sizes {
            per_node,
            per_node_name,
            members,
            operations: 0,
            load_keys: 0,
        };
        sizes
            .ring_fits("with the constructor's nodes")
            .map_err(|m| {
                let at = model.nodes_arg().map_or(vec![0], |i| vec![0, i]);
                (at, m)
            })?;
        Ok(sizes)
    }

    fn ring(&self) -> u64 {
        (self.members.len() as u64).saturating_mul(self.per_node)
    }

    fn ring_fits(&self, what: &str) -> Result<(), String> {
        let ring = self.ring();
        if ring <= MAX_RING {
            return Ok(());
        }
        let nodes = crate::words::counted(self.members.len(), "node");
        Err(match self.per_node_name {
            Some(k) => format!(
                "{what}, the ring holds {ring} points ({nodes} × {k} = {}), past the bound of {MAX_RING}; \
                 use at most {} with this {k}, or a smaller {k}",
                self.per_node,
                crate::words::counted((MAX_RING / self.per_node.max(1)) as usize, "node")
            ),
            None => format!(
                "{what}, the case has {nodes}, past the bound of {MAX_RING}; use fewer nodes"
            ),
        })
    }

    /// Whether a case may hold `count` operations (checked before any is
    /// read or written).
    pub fn operations_fit(count: usize) -> Result<(), String> {
        if count > MAX_OPERATIONS {
            Err(format!(
                "{count} operations are past the bound of {MAX_OPERATIONS} per case; split them over several cases"
            ))
        } else {
            Ok(())
        }
    }

    /// Takes operation `index` of the case into account.
    pub fn op(&mut self, index: usize, op: &Op) -> Result<(), Broken> {
        let at = |message: String| (vec![1, index], message);
        self.operations += 1;
        if self.operations > MAX_OPERATIONS {
            return Err(at(format!(
                "this is operation {} of the case, past the bound of {MAX_OPERATIONS} per case; split the case in two",
                self.operations
            )));
        }
        match op.signature.effect {
            Effect::Adds => {
                if self.members.insert(op.name_at(0).to_owned()) {
                    self.ring_fits(&format!("once `{}` adds {:?}", op.name(), op.name_at(0)))
                        .map_err(at)?;
                }
            }
            Effect::Removes => {
                self.members.remove(op.name_at(0));
            }
            Effect::Query => {}
        }
        // A size operand is work the reference does: a load's keys.
        let keys: u64 = op
            .operands
            .iter()
            .zip(op.signature.operands)
            .filter(|(_, kind)| **kind == Kind::Size)
            .map(|(a, _)| match a {
                Arg::Count(n) => *n,
                _ => 0,
            })
            .sum();
        self.load_keys = self.load_keys.saturating_add(keys);
        if self.load_keys > MAX_LOAD_KEYS {
            return Err(at(format!(
                "the loads up to here ask for {} keys in all, past the bound of {MAX_LOAD_KEYS} per case; \
                 ask for fewer keys or split the case",
                self.load_keys
            )));
        }
        Ok(())
    }
}

/// Checks a parsed case against every bound, at the first place one is
/// broken.
pub fn check_sizes(model: &ModelSpec, args: &[Arg], ops: &[Op]) -> Result<(), Broken> {
    let mut sizes = Sizes::new(model, args)?;
    for (i, op) in ops.iter().enumerate() {
        sizes.op(i, op)?;
    }
    Ok(())
}
