//! The api hint: a Router whose shape (its methods, and how many
//! arguments its constructor and each method take) is another challenge's,
//! superset or not, or that lacks operations of its own challenge.

use crate::challenge::Challenge;
use reference::{Effect, Kind, ModelSpec, Signature};

/// A Router that lacks some of the challenge's operations, or whose shape
/// is another challenge's.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiGap {
    /// The challenge's operations the Router has no method for.
    pub missing: Vec<String>,
    /// Another challenge whose every operation the Router has, with the
    /// arguments it takes where they are known; the first of those that
    /// fit it best.
    pub other_challenge: Option<String>,
    /// Every challenge that fits the Router best (`other_challenge` and
    /// those that fit it as well).
    pub looks_like: Vec<String>,
    /// What sets the Router apart from the graded challenge and makes it
    /// `other_challenge`'s.
    pub evidence: Vec<ApiEvidence>,
    /// Whether the graded challenge's catalogue (a known mistake, the h32
    /// check, a broken property) explains the answers too: the other
    /// challenge is then only a possibility, told beside what explains
    /// them.
    pub explained: bool,
}

/// One thing in a Router's shape that is another challenge's and not the
/// graded one's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiEvidence {
    /// Its constructor takes the other challenge's arguments, and not the
    /// graded one's: how many, and the other's constructor
    /// (`Router(nodes, k)`).
    Constructor { arguments: usize, call: String },
    /// It has operations of the other challenge the graded one has not,
    /// each as the other calls it (`top(key, n)`).
    Has(Vec<String>),
    /// An operation of both takes as many arguments as the other gives it:
    /// its name, how many, and the other's call (`add(node, weight)`).
    Takes {
        operation: String,
        arguments: usize,
        call: String,
    },
}

impl ApiEvidence {
    /// The evidence in words, of a Router that looks like another
    /// challenge's (`it has top`).
    pub fn words(&self) -> String {
        match self {
            ApiEvidence::Constructor { arguments, .. } => {
                format!("its constructor takes {}", counted_arguments(*arguments))
            }
            ApiEvidence::Has(calls) => {
                let names: Vec<&str> = calls
                    .iter()
                    .map(|c| c.split_once('(').map_or(c.as_str(), |(name, _)| name))
                    .collect();
                format!("it has {}", names.join(", "))
            }
            ApiEvidence::Takes {
                operation,
                arguments,
                ..
            } => format!("its {operation} takes {}", counted_arguments(*arguments)),
        }
    }

    /// The evidence in words, of a Router that may be meant for another
    /// challenge, as its calls show (`also has top(key, n)`): what follows
    /// "your Router".
    pub fn calls(&self) -> String {
        match self {
            ApiEvidence::Constructor { call, .. } => format!("is built as {call}"),
            ApiEvidence::Has(calls) => format!("also has {}", calls.join(", ")),
            ApiEvidence::Takes { call, .. } => format!("has {call}"),
        }
    }
}

fn counted_arguments(n: usize) -> String {
    format!("{n} argument{}", if n == 1 { "" } else { "s" })
}

pub use crate::protocol::Shape;

/// A challenge's shape: its constructor's arguments and its operations
/// with theirs.
struct Wanted<'a> {
    id: &'a str,
    constructor: &'a [Kind],
    operations: Vec<&'static Signature>,
}

impl Wanted<'_> {
    fn of_spec(spec: &'static ModelSpec) -> Wanted<'static> {
        Wanted {
            id: spec.id,
            constructor: spec.constructor,
            operations: spec.operations.iter().collect(),
        }
    }

    /// Whether `shape` has every operation, each taking as many arguments
    /// as it is given (where the shape knows), and a constructor taking
    /// the challenge's arguments (likewise).
    fn fits(&self, shape: &Shape) -> bool {
        shape
            .constructor
            .is_none_or(|a| a.takes(self.constructor.len()))
            && self.operations.iter().all(|s| {
                shape.methods.iter().any(|m| m == s.name)
                    && shape
                        .params
                        .get(s.name)
                        .is_none_or(|a| a.takes(s.operands.len()))
            })
    }

    /// The constructor as the spec writes it: `Router(nodes, k)`.
    fn constructor_call(&self) -> String {
        let names: Vec<&str> = self
            .constructor
            .iter()
            .map(|k| parameter(*k, None))
            .collect();
        format!("Router({})", names.join(", "))
    }
}

/// An operation as the spec writes it: `top(key, n)`, `add(node, weight)`.
fn call(signature: &Signature) -> String {
    let names: Vec<&str> = signature
        .operands
        .iter()
        .map(|k| parameter(*k, Some(signature.effect)))
        .collect();
    format!("{}({})", signature.name, names.join(", "))
}

/// The name the spec gives an argument of `kind`: of an operation with
/// `effect`, or of the constructor.
fn parameter(kind: Kind, effect: Option<Effect>) -> &'static str {
    match (kind, effect) {
        (Kind::Name, Some(Effect::Query)) => "key",
        (Kind::Name, _) => "node",
        (Kind::Size, None) => "k",
        (Kind::Count | Kind::Size, _) => "n",
        (Kind::Weight, _) => "weight",
        (Kind::Names, _) => "nodes",
        (Kind::WeightedNames, _) => "pairs",
    }
}

/// Compares the Router's `shape` with the challenge's and the other
/// challenges': a gap when it lacks operations of its challenge, or when
/// another challenge fits it better (one it fits wholly where its own
/// does not, or one with more operations, all of which it has). A
/// shape that fits its challenge and no larger one has none, whatever
/// else it has: the evidence must point away from the challenge.
pub(super) fn api_gap(challenge: &Challenge, shape: &Shape) -> Option<ApiGap> {
    let own = Wanted {
        id: &challenge.id,
        constructor: challenge.model.constructor,
        operations: challenge.operations.clone(),
    };
    let has = |name: &str| shape.methods.iter().any(|m| m == name);
    let missing: Vec<String> = own
        .operations
        .iter()
        .filter(|s| !has(s.name))
        .map(|s| s.name.to_owned())
        .collect();
    let own_fits = own.fits(shape);
    // The challenge's own reference is not another challenge, whatever
    // the challenge's id.
    let fitting: Vec<Wanted<'_>> = reference::challenges()
        .iter()
        .filter(|spec| spec.id != challenge.model.id && spec.id != challenge.id)
        .map(|spec| Wanted::of_spec(spec))
        .filter(|w| w.fits(shape))
        .filter(|w| !own_fits || w.operations.len() > own.operations.len())
        .collect();
    let most = fitting.iter().map(|w| w.operations.len()).max();
    let best: Vec<&Wanted<'_>> = fitting
        .iter()
        .filter(|w| Some(w.operations.len()) == most)
        .collect();
    if best.is_empty() && missing.is_empty() {
        return None;
    }
    let evidence = best
        .first()
        .map(|other| evidence(&own, other, shape))
        .unwrap_or_default();
    Some(ApiGap {
        missing,
        other_challenge: best.first().map(|w| w.id.to_owned()),
        looks_like: best.iter().map(|w| w.id.to_owned()).collect(),
        evidence,
        explained: false,
    })
}

/// What in `shape` is `other`'s and not `own`'s.
fn evidence(own: &Wanted<'_>, other: &Wanted<'_>, shape: &Shape) -> Vec<ApiEvidence> {
    let mut found = Vec::new();
    if shape
        .constructor
        .is_some_and(|a| !a.takes(own.constructor.len()))
    {
        found.push(ApiEvidence::Constructor {
            arguments: other.constructor.len(),
            call: other.constructor_call(),
        });
    }
    let extra: Vec<String> = other
        .operations
        .iter()
        .filter(|s| !own.operations.iter().any(|o| o.name == s.name))
        .map(|s| call(s))
        .collect();
    if !extra.is_empty() {
        found.push(ApiEvidence::Has(extra));
    }
    for s in &other.operations {
        let operands = s.operands.len();
        let differs = own
            .operations
            .iter()
            .any(|o| o.name == s.name && o.operands.len() != operands);
        if differs && shape.params.get(s.name).is_some_and(|a| a.takes(operands)) {
            found.push(ApiEvidence::Takes {
                operation: s.name.to_owned(),
                arguments: operands,
                call: call(s),
            });
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Arity;

    fn exactly(n: usize) -> Arity {
        Arity {
            least: n as u64,
            most: Some(n as u64),
        }
    }

    fn shape(methods: &[&str], constructor: Option<usize>, params: &[(&str, usize)]) -> Shape {
        Shape {
            methods: methods.iter().map(|m| (*m).to_owned()).collect(),
            constructor: constructor.map(exactly),
            params: params
                .iter()
                .map(|(m, n)| ((*m).to_owned(), exactly(*n)))
                .collect(),
        }
    }

    fn challenge(id: &str) -> Challenge {
        let root =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        Challenge::load(&root, id).unwrap()
    }

    fn looks(id: &str, shape: &Shape) -> Vec<String> {
        api_gap(&challenge(id), shape).map_or_else(Vec::new, |g| g.looks_like)
    }

    #[test]
    fn a_superset_is_told_and_its_own_shape_is_not() {
        let top = shape(&["add", "remove", "route", "top"], Some(1), &[("add", 1)]);
        assert_eq!(looks("rendezvous-router", &top), ["hrw-top"]);
        assert_eq!(api_gap(&challenge("hrw-top"), &top), None);
        let plain = shape(&["add", "remove", "route"], Some(1), &[]);
        assert_eq!(api_gap(&challenge("rendezvous-router"), &plain), None);
        assert_eq!(looks("hrw-top", &plain), ["rendezvous-router"]);
    }

    #[test]
    fn arguments_tell_apart_what_names_do_not() {
        let weighted = shape(&["add", "remove", "route", "top"], Some(1), &[("add", 2)]);
        assert_eq!(looks("hrw-top", &weighted), ["weighted-hrw"]);
        assert_eq!(looks("rendezvous-router", &weighted), ["weighted-hrw"]);
        // Not knowing add's arguments, the names fit both: hrw-top, graded
        // as itself, is not told otherwise.
        let unknown = shape(&["add", "remove", "route", "top"], None, &[]);
        assert_eq!(api_gap(&challenge("hrw-top"), &unknown), None);
        assert_eq!(
            looks("rendezvous-router", &unknown),
            ["hrw-top", "weighted-hrw"]
        );
        let ring = shape(&["add", "load", "lookup", "points", "remove"], Some(2), &[]);
        let gap = api_gap(&challenge("rendezvous-router"), &ring).unwrap();
        assert_eq!(gap.looks_like, ["vnode-ring"]);
        let words: Vec<String> = gap.evidence.iter().map(ApiEvidence::words).collect();
        assert_eq!(
            words,
            [
                "its constructor takes 2 arguments",
                "it has lookup, points, load"
            ]
        );
        let calls: Vec<String> = gap.evidence.iter().map(ApiEvidence::calls).collect();
        assert_eq!(
            calls,
            [
                "is built as Router(nodes, k)",
                "also has lookup(key), points(), load(n)"
            ]
        );
        let weighted = api_gap(&challenge("hrw-top"), &weighted).unwrap();
        let calls: Vec<String> = weighted.evidence.iter().map(ApiEvidence::calls).collect();
        assert_eq!(calls, ["has add(node, weight)"]);
    }

    #[test]
    fn mixed_evidence_names_the_best_fit_or_nothing() {
        // Its own challenge's operations and a method of no other: none.
        let helper = shape(&["add", "remove", "route", "score"], Some(1), &[]);
        assert_eq!(api_gap(&challenge("rendezvous-router"), &helper), None);
        // A constructor of two arguments fits no challenge with route: the
        // gap names none, and nothing is missing.
        let odd = shape(&["add", "remove", "route"], Some(2), &[]);
        assert_eq!(api_gap(&challenge("rendezvous-router"), &odd), None);
        // A default makes a second argument optional: it fits.
        let mut seeded = odd.clone();
        seeded.constructor = Some(Arity {
            least: 1,
            most: Some(2),
        });
        assert_eq!(api_gap(&challenge("rendezvous-router"), &seeded), None);
        assert_eq!(looks("vnode-ring", &seeded), ["rendezvous-router"]);
    }
}
