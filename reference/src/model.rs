//! The shape every challenge shares: a constructor, named operations with
//! typed operands and results, and a model that replays them.
//!
//! A challenge is data (its [`ModelSpec`]) plus one [`Model`] implementation;
//! the grader's loader, runners and judge only ever see these types, so a new
//! challenge adds a spec and a model, not code paths in the grader.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::fmt;

/// The largest [`Kind::Size`].
pub const MAX_SIZE: u64 = 1_000_000;

/// The type of a constructor argument or an operand, as it appears in JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A node name or a key: a JSON string.
    Name,
    /// A non-negative integer.
    Count,
    /// A non-negative integer that sets how much work the reference does
    /// (a ring's points per node, a load's keys), at most [`MAX_SIZE`]: a
    /// case file asking for more is refused at load, not run for hours.
    Size,
    /// A positive finite number.
    Weight,
    /// A list of names.
    Names,
    /// A list of `[name, weight]` pairs.
    WeightedNames,
}

impl Kind {
    /// How the kind reads in an error message.
    pub fn describe(self) -> &'static str {
        match self {
            Kind::Name => "a string",
            Kind::Count => "a non-negative integer",
            Kind::Size => "an integer from 0 to 1000000",
            Kind::Weight => "a positive finite number",
            Kind::Names => "a list of strings",
            Kind::WeightedNames => "a list of [name, weight] pairs",
        }
    }

    /// Parses `value` as this kind. On failure, returns the path below
    /// `value` where it went wrong (empty for `value` itself) and what was
    /// expected there.
    pub fn parse(self, value: &Value) -> Result<Arg, (Vec<usize>, String)> {
        let expected = |what: &str| format!("expected {what}, found {}", describe_value(value));
        match self {
            Kind::Name => value
                .as_str()
                .map(|s| Arg::Name(s.to_owned()))
                .ok_or_else(|| (vec![], expected(self.describe()))),
            Kind::Count => value
                .as_u64()
                .map(Arg::Count)
                .ok_or_else(|| (vec![], expected(self.describe()))),
            Kind::Size => value
                .as_u64()
                .filter(|n| *n <= MAX_SIZE)
                .map(Arg::Count)
                .ok_or_else(|| (vec![], expected(self.describe()))),
            Kind::Weight => parse_weight(value)
                .map(Arg::Weight)
                .ok_or_else(|| (vec![], expected(self.describe()))),
            Kind::Names => {
                let items = value
                    .as_array()
                    .ok_or_else(|| (vec![], expected(self.describe())))?;
                let mut names = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item.as_str() {
                        Some(s) => names.push(s.to_owned()),
                        None => {
                            return Err((
                                vec![i],
                                format!("expected a string, found {}", describe_value(item)),
                            ));
                        }
                    }
                }
                Ok(Arg::Names(names))
            }
            Kind::WeightedNames => {
                let items = value
                    .as_array()
                    .ok_or_else(|| (vec![], expected(self.describe())))?;
                let mut pairs = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    let bad = || {
                        (
                            vec![i],
                            format!(
                                "expected a [name, weight] pair with a positive finite weight, found {}",
                                describe_value(item)
                            ),
                        )
                    };
                    match item.as_array().map(Vec::as_slice) {
                        Some([Value::String(name), w]) => {
                            pairs.push((name.clone(), parse_weight(w).ok_or_else(bad)?))
                        }
                        _ => return Err(bad()),
                    }
                }
                Ok(Arg::WeightedNames(pairs))
            }
        }
    }
}

fn parse_weight(value: &Value) -> Option<f64> {
    value.as_f64().filter(|w| w.is_finite() && *w > 0.0)
}

/// A short description of a JSON value for error messages.
pub fn describe_value(value: &Value) -> String {
    let text = value.to_string();
    let kind = match value {
        Value::Null => return "null".into(),
        Value::Number(_) => "the number",
        Value::String(_) => "the string",
        other => kind_of(other),
    };
    if text.chars().count() > 40 {
        let cut: String = text.chars().take(37).collect();
        format!("{kind} {cut}...")
    } else {
        format!("{kind} {text}")
    }
}

/// The JSON type of a value, as an error message says it: "a list".
pub fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A parsed constructor argument or operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Arg {
    Name(String),
    Count(u64),
    Weight(f64),
    Names(Vec<String>),
    WeightedNames(Vec<(String, f64)>),
}

impl Arg {
    /// The argument as JSON, as a case file holds it.
    pub fn to_json(&self) -> Value {
        match self {
            Arg::Name(s) => Value::from(s.as_str()),
            Arg::Count(n) => Value::from(*n),
            Arg::Weight(w) => Value::from(*w),
            Arg::Names(names) => Value::from(names.clone()),
            Arg::WeightedNames(pairs) => Value::from(
                pairs
                    .iter()
                    .map(|(n, w)| serde_json::json!([n, w]))
                    .collect::<Vec<_>>(),
            ),
        }
    }
}

/// What an operation returns, used to check expected files and answers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Returns {
    /// Always `null`.
    Nothing,
    /// A name, or `null` when there is none.
    MaybeName,
    /// A list of names.
    Names,
    /// A non-negative integer.
    Count,
    /// A list of `[name, count]` pairs.
    Loads,
}

impl Returns {
    /// How the result type reads in an error message.
    pub fn describe(self) -> &'static str {
        match self {
            Returns::Nothing => "null",
            Returns::MaybeName => "a string or null",
            Returns::Names => "a list of strings",
            Returns::Count => "a non-negative integer",
            Returns::Loads => "a list of [name, count] pairs",
        }
    }

    /// Whether an operation returning this only asks (changes nothing).
    /// By the challenges' shape, operations that change state return
    /// nothing.
    pub fn is_query(self) -> bool {
        self != Returns::Nothing
    }

    /// Whether `value` has this result type.
    pub fn accepts(self, value: &Value) -> bool {
        match self {
            Returns::Nothing => value.is_null(),
            Returns::MaybeName => value.is_null() || value.is_string(),
            Returns::Names => value
                .as_array()
                .is_some_and(|items| items.iter().all(Value::is_string)),
            Returns::Count => value.is_u64(),
            Returns::Loads => value.as_array().is_some_and(|items| {
                items.iter().all(|p| {
                    matches!(p.as_array().map(Vec::as_slice), Some([Value::String(_), n]) if n.is_u64())
                })
            }),
        }
    }
}

/// The signature of one operation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Signature {
    pub name: &'static str,
    pub operands: &'static [Kind],
    pub returns: Returns,
    /// What the operation does to the node set.
    pub effect: Effect,
}

/// What an operation does to the node set: what property hints, the
/// generator and the shrinker need to know of it, whatever its name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Asks and changes nothing.
    Query,
    /// Its first operand, a node, joins (or, with more operands, changes).
    Adds,
    /// Its first operand, a node, leaves.
    Removes,
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[\"{}\"", self.name)?;
        for k in self.operands {
            let word = match k {
                Kind::Name => "name",
                Kind::Count | Kind::Size => "count",
                Kind::Weight => "weight",
                Kind::Names => "names",
                Kind::WeightedNames => "pairs",
            };
            write!(f, ", {word}")?;
        }
        write!(f, "]")
    }
}

/// `["route", key]`: the node owning a key, or null.
pub const ROUTE: Signature = Signature {
    name: "route",
    operands: &[Kind::Name],
    returns: Returns::MaybeName,
    effect: Effect::Query,
};

/// `["top", key, n]`: the key's first n nodes by rank.
pub const TOP: Signature = Signature {
    name: "top",
    operands: &[Kind::Name, Kind::Count],
    returns: Returns::Names,
    effect: Effect::Query,
};

/// `["add", node]`: a node joins (a present node changes nothing).
pub const ADD: Signature = Signature {
    name: "add",
    operands: &[Kind::Name],
    returns: Returns::Nothing,
    effect: Effect::Adds,
};

/// `["remove", node]`: a node leaves (an absent node changes nothing).
pub const REMOVE: Signature = Signature {
    name: "remove",
    operands: &[Kind::Name],
    returns: Returns::Nothing,
    effect: Effect::Removes,
};

/// One operation of a case, parsed against its signature.
#[derive(Debug, Clone, PartialEq)]
pub struct Op {
    pub signature: &'static Signature,
    pub operands: Vec<Arg>,
}

impl Op {
    /// The operation's name.
    pub fn name(&self) -> &'static str {
        self.signature.name
    }

    /// Operand `i` as a name. Panics if the signature says otherwise, which
    /// would be a bug of the model, never of the case (cases are parsed
    /// against the signature).
    pub fn name_at(&self, i: usize) -> &str {
        match &self.operands[i] {
            Arg::Name(s) => s,
            other => panic!("operand {i} of {} is {other:?}, not a name", self.name()),
        }
    }

    /// Operand `i` as a count (see [`Op::name_at`] on panics).
    pub fn count_at(&self, i: usize) -> u64 {
        match &self.operands[i] {
            Arg::Count(n) => *n,
            other => panic!("operand {i} of {} is {other:?}, not a count", self.name()),
        }
    }

    /// Operand `i` as a weight (see [`Op::name_at`] on panics).
    pub fn weight_at(&self, i: usize) -> f64 {
        match &self.operands[i] {
            Arg::Weight(w) => *w,
            other => panic!("operand {i} of {} is {other:?}, not a weight", self.name()),
        }
    }
}

/// Why a reference answered a routing question as it did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Explanation {
    /// Every node's score for a key, highest first: why `route` answered.
    Scores(ScoreTable),
    /// The same table for `top(key, n)`: the expected ranking is its first
    /// `n` rows.
    Top { table: ScoreTable, n: u64 },
    /// Where a key falls on a ring and the points around it.
    Ring(RingView),
    /// How many entries a ring holds: k for each node.
    Points(PointsView),
}

impl Explanation {
    /// Whether a tie decides the answer explained: two nodes with one score
    /// among the rows it is made of (the top one of a route, the first `n`
    /// of a `top` and the one after them), or two ring entries at one
    /// position near the key. Such answers are the ones a salted hash or a
    /// set's order changes; a tie further down a ranking changes none, and
    /// a case of many nodes nearly always has one there.
    pub fn tie_decides(&self) -> bool {
        let tied_rows = |rows: &[ScoreRow], answered: usize| {
            rows[..rows.len().min(answered.saturating_add(1))]
                .windows(2)
                .any(|w| w[0].score() == w[1].score())
        };
        match self {
            Explanation::Scores(t) => tied_rows(&t.rows, 1),
            Explanation::Top { table: t, n } => {
                tied_rows(&t.rows, usize::try_from(*n).unwrap_or(usize::MAX))
            }
            Explanation::Ring(r) => r
                .before
                .iter()
                .chain(&r.after)
                .collect::<Vec<_>>()
                .windows(2)
                .any(|w| w[0].position == w[1].position),
            Explanation::Points(_) => false,
        }
    }
}

/// Why a ring holds the entries it does.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointsView {
    /// Points per node.
    pub k: usize,
    /// The nodes on the ring, sorted.
    pub nodes: Vec<String>,
    /// k times the number of nodes.
    pub points: usize,
}

/// The pinned scores that decided a rendezvous route.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreTable {
    /// The key routed.
    pub key: String,
    /// How a node's score is computed, e.g. `h32(node + ":" + key)`.
    pub formula: String,
    /// One row per node, highest score first, ties by smaller name.
    pub rows: Vec<ScoreRow>,
    /// The reference's choice (`None` with no nodes).
    pub winner: Option<String>,
    /// The rule that picked the winner.
    pub rule: WinRule,
}

impl ScoreTable {
    /// The table of `rows`, given in name order: ranked by descending score
    /// (a stable sort, so ties stay in name order), with the winner and the
    /// rule that picked it.
    pub fn ranked(key: &str, formula: &str, mut rows: Vec<ScoreRow>) -> ScoreTable {
        rows.sort_by(|a, b| b.score().total_cmp(&a.score()));
        let rule = match rows.as_slice() {
            [] => WinRule::NoNodes,
            [first, second, ..] if first.score() == second.score() => WinRule::TieSmallerName,
            _ => WinRule::HighestScore,
        };
        ScoreTable {
            key: key.to_owned(),
            formula: formula.to_owned(),
            winner: rows.first().map(|r| r.node.clone()),
            rows,
            rule,
        }
    }
}

/// One node's score for a key.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoreRow {
    pub node: String,
    /// The exact text hashed, e.g. `"cache-1:user:1"`.
    pub hashed: String,
    pub h32: u32,
    /// The weighted score built on `h32`, in weighted challenges.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weighted: Option<WeightedScore>,
}

impl ScoreRow {
    /// The value rows are ranked by: the weighted score where there is one,
    /// else the h32.
    pub fn score(&self) -> f64 {
        self.weighted.map_or(f64::from(self.h32), |w| w.score)
    }
}

/// The steps from a node's h32 to its weighted score.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct WeightedScore {
    pub weight: f64,
    /// (h32 + 0.5) / 2^32, in (0, 1).
    pub u: f64,
    /// -ln(U), positive.
    pub neg_ln_u: f64,
    /// weight / -ln(U).
    pub score: f64,
}

/// A key's place on a consistent-hash ring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RingView {
    pub key: String,
    /// h32(key).
    pub position: u32,
    /// Entries on the ring in all.
    pub points: usize,
    /// A few entries just before the key's position (ring order, wrapping).
    pub before: Vec<RingPoint>,
    /// The entry the key lands on, then a few after it.
    pub after: Vec<RingPoint>,
    /// Whether no entry is at or after the key's position, so the lookup
    /// wrapped to the first entry.
    pub wrapped: bool,
}

/// One entry of a ring.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RingPoint {
    /// Its index in ring order.
    pub index: usize,
    pub node: String,
    /// The text hashed for its position, e.g. `"A#2"`.
    pub hashed: String,
    pub position: u32,
}

/// How the winner of a route was decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WinRule {
    /// No nodes: the answer is null.
    NoNodes,
    /// One node had the strictly highest score.
    HighestScore,
    /// Several nodes shared the highest score; the smallest name won.
    TieSmallerName,
}

/// A running instance of a challenge's reference.
pub trait Model {
    /// Applies one operation and returns its JSON result.
    fn apply(&mut self, op: &Op) -> Value;

    /// Explains the answer `op` would get in the current state, where the
    /// operation is a decision worth explaining.
    fn explain(&self, op: &Op) -> Option<Explanation> {
        let _ = op;
        None
    }

    /// Whether a tie decides the answer `op` would get in the current
    /// state ([`Explanation::tie_decides`]). Read from [`Model::explain`]
    /// by default; models whose explanation costs far more than the
    /// answer (a table of every node, its hashed texts spelled out) say
    /// it directly, and a test holds them to the default.
    fn tie_decides(&self, op: &Op) -> bool {
        self.explain(op).is_some_and(|e| e.tie_decides())
    }

    /// Why the answer `op` would get in the current state hangs on a
    /// floating-point gap too small to trust across languages, if it does.
    fn fragile(&self, op: &Op) -> Option<String> {
        let _ = op;
        None
    }
}

/// Everything the grader needs to know of a challenge's reference.
pub struct ModelSpec {
    /// The challenge id, e.g. `rendezvous-router`.
    pub id: &'static str,
    /// The types of the constructor's arguments, in order.
    pub constructor: &'static [Kind],
    /// Every operation the model implements.
    pub operations: &'static [Signature],
    /// Builds an instance from parsed constructor arguments.
    pub build: fn(&[Arg]) -> Box<dyn Model>,
    /// The known mistakes, for diagnosis and audit.
    pub catalogue: &'static crate::mistakes::Catalogue,
    /// Two node names that tie, found from a name prefix and a search
    /// start, given the constructor's arguments: how generators test the
    /// tie rule.
    pub ties: fn(&str, u64, &[Arg]) -> Tie,
}

/// A case replayed by [`ModelSpec::run_checked`].
#[derive(Debug, Clone, PartialEq)]
pub struct Checked {
    /// One result per operation.
    pub output: Vec<Value>,
    /// Operations whose answers hang on a fragile gap, and why.
    pub fragile: Vec<(usize, String)>,
    /// The time spent answering.
    pub took: std::time::Duration,
}

/// Two node names whose decisions tie, and the keys on which they do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tie {
    /// The smaller name first.
    pub nodes: (String, String),
    /// Keys on which they tie; empty when they tie on every key.
    pub keys: Vec<String>,
}

impl fmt::Debug for ModelSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ModelSpec")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

impl ModelSpec {
    /// Which constructor argument is the list of nodes (names or pairs):
    /// what the shrinker drops from and the order check reverses.
    pub fn nodes_arg(&self) -> Option<usize> {
        self.constructor
            .iter()
            .position(|k| matches!(k, Kind::Names | Kind::WeightedNames))
    }

    /// The operations with `effect`.
    pub fn with_effect(&self, effect: Effect) -> impl Iterator<Item = &'static Signature> + '_ {
        self.operations.iter().filter(move |s| s.effect == effect)
    }

    /// The signature of operation `name`.
    pub fn signature(&self, name: &str) -> Option<&'static Signature> {
        self.operations.iter().find(|s| s.name == name)
    }

    /// Replays `ops` on a fresh instance built from `args` and returns one
    /// result per operation.
    pub fn run(&self, args: &[Arg], ops: &[Op]) -> Vec<Value> {
        let mut model = (self.build)(args);
        ops.iter().map(|op| model.apply(op)).collect()
    }

    /// Replays `ops` once, as [`ModelSpec::run`], and also finds the
    /// operations whose answers hang on a fragile floating-point decision
    /// (with why), and times the answering alone (the checks excluded), for
    /// the authoring tools.
    pub fn run_checked(&self, args: &[Arg], ops: &[Op]) -> Checked {
        let mut model = (self.build)(args);
        let mut checked = Checked {
            output: Vec::with_capacity(ops.len()),
            fragile: Vec::new(),
            took: std::time::Duration::ZERO,
        };
        for (i, op) in ops.iter().enumerate() {
            if let Some(why) = model.fragile(op) {
                checked.fragile.push((i, why));
            }
            let started = std::time::Instant::now();
            checked.output.push(model.apply(op));
            checked.took += started.elapsed();
        }
        checked
    }

    /// The explanation of every operation of `ops`, in one replay (where
    /// [`ModelSpec::explain_at`] replays up to its one operation).
    pub fn explanations(&self, args: &[Arg], ops: &[Op]) -> Vec<Option<Explanation>> {
        let mut model = (self.build)(args);
        ops.iter()
            .map(|op| {
                let explanation = model.explain(op);
                model.apply(op);
                explanation
            })
            .collect()
    }

    /// Whether a tie decides any answer of `ops` ([`Model::tie_decides`]),
    /// in one replay that stops at the first.
    pub fn tie_decides(&self, args: &[Arg], ops: &[Op]) -> bool {
        let mut model = (self.build)(args);
        ops.iter().any(|op| {
            let tied = model.tie_decides(op);
            model.apply(op);
            tied
        })
    }

    /// Replays `ops[..index]`, then explains `ops[index]`.
    pub fn explain_at(&self, args: &[Arg], ops: &[Op], index: usize) -> Option<Explanation> {
        let mut model = (self.build)(args);
        for op in &ops[..index] {
            model.apply(op);
        }
        model.explain(ops.get(index)?)
    }
}
