//! Operations and their operands: kinds, signatures, parsing and its errors.

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
pub(crate) const ROUTE: Signature = Signature {
    name: "route",
    operands: &[Kind::Name],
    returns: Returns::MaybeName,
    effect: Effect::Query,
};

/// `["top", key, n]`: the key's first n nodes by rank.
pub(crate) const TOP: Signature = Signature {
    name: "top",
    operands: &[Kind::Name, Kind::Count],
    returns: Returns::Names,
    effect: Effect::Query,
};

/// `["add", node]`: a node joins (a present node changes nothing).
pub(crate) const ADD: Signature = Signature {
    name: "add",
    operands: &[Kind::Name],
    returns: Returns::Nothing,
    effect: Effect::Adds,
};

/// `["remove", node]`: a node leaves (an absent node changes nothing).
pub(crate) const REMOVE: Signature = Signature {
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
    pub(crate) fn weight_at(&self, i: usize) -> f64 {
        match &self.operands[i] {
            Arg::Weight(w) => *w,
            other => panic!("operand {i} of {} is {other:?}, not a weight", self.name()),
        }
    }
}
