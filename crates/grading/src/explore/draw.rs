//! Drawing small cases where bugs hide: node names and keys with the texts
//! suites rarely hold (empty, spaced, both cases, separators, digits only,
//! long, non-ASCII and beyond the BMP, prefixes of each other), duplicate
//! names, adds of present nodes and removes of absent ones, tiny and large
//! weights, counts from 0 past the node count. Each case comes from its own
//! seed alone, and is valid by the loader's rules: a drawn operation the
//! rules refuse, or whose answer would hang on a fragile floating-point
//! gap, is drawn again.

use crate::challenge::Challenge;
use crate::challenge::rules::Sizes;
use crate::generate::{Rng, Shapes};
use reference::{Arg, Kind, Op, Returns, Signature};
use serde_json::Value;

/// Short words texts are made from: lower and upper case, a digit.
const WORDS: [&str; 10] = ["a", "b", "k", "n", "node", "key", "x1", "A", "Node", "KEY"];

/// Separators a learner's code may split on or a library may join with.
const SEPARATORS: [&str; 6] = [":", "#", "|", "/", "-", " "];

/// Text beyond ASCII: accents, a letter that changes length when upper
/// cased, other scripts, characters beyond the BMP (surrogate pairs in
/// UTF-16, four bytes in UTF-8), and characters from U+E000 to U+FFFF,
/// which sort after those beyond the BMP by bytes and code points but
/// before them by UTF-16 code units (JavaScript's `<` on strings).
const WIDE: [&str; 11] = [
    "é",
    "Straße",
    "сервер",
    "ノード",
    "😀",
    "𝔘𝔫𝔦",
    "🖥\u{fe0f}",
    "a\u{301}",
    "ｎｏｄｅ",
    "\u{fb01}le",
    "\u{fffd}",
];

/// Weights from tiny to large, whole and not.
const WEIGHTS: [f64; 9] = [0.001, 0.25, 0.5, 1.0, 1.0, 2.0, 3.0, 7.5, 1000.0];

/// At most this many nodes in a drawn case's constructor...
const MAX_NODES: usize = 6;
/// ... and this many operations: a small case shrinks fast.
const MAX_OPS: usize = 12;

/// A text where bugs hide, or a plain word.
fn text(rng: &mut Rng) -> String {
    let word = |rng: &mut Rng| WORDS[rng.below(WORDS.len())];
    match rng.below(12) {
        0 => String::new(),
        1 => format!(" {}", word(rng)),
        2 => format!("{} ", word(rng)),
        3 => format!(" {} ", word(rng)),
        4 => format!(
            "{}{}{}",
            word(rng),
            SEPARATORS[rng.below(SEPARATORS.len())],
            word(rng)
        ),
        5 => match rng.below(3) {
            0 => format!("{}", rng.below(100)),
            1 => format!("0{}", rng.below(10)),
            _ => format!("{}", rng.next() % 10_000_000_000),
        },
        // Past 32 bytes (a fixed buffer), and past a few hundred.
        6 => {
            let len = [31, 32, 33, 40, 64, 300][rng.below(6)];
            let stem = word(rng);
            stem.repeat(len / stem.len() + 1)[..len].to_owned()
        }
        7 => WIDE[rng.below(WIDE.len())].to_owned(),
        8 => format!("{}{}", word(rng), WIDE[rng.below(WIDE.len())]),
        // Prefixes of each other.
        9 => "node-10"[..1 + rng.below(7)].to_owned(),
        _ => word(rng).to_owned(),
    }
}

/// The same text in another case, or with spaces around it: drawn where
/// a case already holds `seen`, so that a learner's tidying of texts
/// meets two that it makes one.
fn variant(rng: &mut Rng, seen: &str) -> String {
    match rng.below(4) {
        0 => seen.to_uppercase(),
        1 => seen.to_lowercase(),
        2 => format!(" {seen}"),
        _ => format!("{seen} "),
    }
}

/// A text for a case that holds `texts` already: often one of them, or
/// a variant of one, else a new one.
fn text_among(rng: &mut Rng, texts: &[String]) -> String {
    match (texts.is_empty(), rng.below(3)) {
        (false, 0) => texts[rng.below(texts.len())].clone(),
        (false, 1) => {
            let seen = rng.below(texts.len());
            variant(rng, &texts[seen])
        }
        _ => text(rng),
    }
}

/// Two names that tie, with the constructor's other arguments they tie
/// under (a ring's k): from the challenge's own finder.
#[derive(Debug, Clone)]
pub struct Tied {
    tie: reference::spec::Tie,
    rest: Vec<Arg>,
}

/// Pairs of names that tie, for cases to hold now and then: two of
/// [`colliding_names`], one [`ordered_apart`], and one of the challenge's
/// own finder. The searches take a fraction of a second, once per
/// challenge in a run.
pub fn ties(challenge: &Challenge) -> Vec<Tied> {
    type Found = std::collections::HashMap<&'static str, Vec<Tied>>;
    static FOUND: std::sync::OnceLock<std::sync::Mutex<Found>> = std::sync::OnceLock::new();
    let found = FOUND.get_or_init(Default::default);
    let id = challenge.model.id;
    if let Some(ties) = found.lock().ok().and_then(|f| f.get(id).cloned()) {
        return ties;
    }
    let ties = search_ties(challenge);
    if let Ok(mut f) = found.lock() {
        f.insert(id, ties.clone());
    }
    ties
}

/// See [`ties`].
fn search_ties(challenge: &Challenge) -> Vec<Tied> {
    let rest: Vec<Arg> = challenge.model.constructor[1..]
        .iter()
        .map(|kind| match kind {
            Kind::Count | Kind::Size => Arg::Count(2),
            Kind::Weight => Arg::Weight(1.0),
            _ => Arg::Name("x".into()),
        })
        .collect();
    let mut probe = vec![Arg::Names(Vec::new())];
    probe.extend(rest.iter().cloned());
    let tied = |tie| Tied {
        tie,
        rest: rest.clone(),
    };
    // Where the key is hashed first, names tie on one key: the pairs are
    // searched for after it, and the key goes into the case.
    let keys = |key: &str| match challenge.model.before_name {
        Some(before_name) => (before_name(key), vec![key.to_owned()]),
        None => (String::new(), Vec::new()),
    };
    let mut ties: Vec<Tied> = [(0, "k", false), (1, "user:1", false), (0, "k", true)]
        .into_iter()
        .map(|(seed, key, apart)| {
            let (context, keys) = keys(key);
            let nodes = match apart {
                false => colliding_names_after(&context, seed),
                true => ordered_apart_after(&context, seed),
            };
            tied(reference::spec::Tie { nodes, keys })
        })
        .collect();
    ties.push(tied((challenge.model.ties)("t", 0, &probe)));
    ties
}

/// Two names whose FNV-1a states collide, the smaller first: every text
/// that starts with either name hashes alike, so they tie on every key
/// of every challenge (a score hashes the name then the key; a ring's
/// point the name then its index). Of 3 to 9 letters of both cases, so
/// that a tie rule other than the names' byte order (by length, by
/// locale, case-blind) meets a pair it orders otherwise. A birthday
/// search from `seed`: about 80,000 names.
#[cfg(test)]
fn colliding_names(seed: u64) -> (String, String) {
    colliding_names_after("", seed)
}

/// Like [`colliding_names`], for names hashed after `context`: they tie
/// on the one key that `context` is made from.
fn colliding_names_after(context: &str, seed: u64) -> (String, String) {
    collide(context, seed, &[""])
}

/// Two colliding names (see [`colliding_names`]) that UTF-16 code units
/// order otherwise than bytes: one starts with a character from U+E000
/// to U+FFFF, the other with one beyond the BMP. JavaScript's `<` on
/// strings puts the second first; the rule's byte order, the first.
#[cfg(test)]
fn ordered_apart(seed: u64) -> (String, String) {
    ordered_apart_after("", seed)
}

/// [`ordered_apart`] after `context` (see [`colliding_names_after`]).
fn ordered_apart_after(context: &str, seed: u64) -> (String, String) {
    collide(context, seed, &["\u{ff4e}", "\u{1f600}"])
}

/// A birthday search from `seed` for two names whose FNV-1a states
/// collide after `context`: each one of `starts` followed by 3 to 9
/// letters, the two with different starts when there are several.
fn collide(context: &str, seed: u64, starts: &[&str]) -> (String, String) {
    let after = reference::hash::fnv1a(context.as_bytes());
    const LETTERS: &[u8; 52] = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
    let mut rng = Rng(seed);
    let mut seen: std::collections::HashMap<u32, (usize, String)> =
        std::collections::HashMap::new();
    loop {
        let start = rng.below(starts.len());
        let len = 3 + rng.below(7);
        let mut name = starts[start].to_owned();
        name.extend((0..len).map(|_| char::from(LETTERS[rng.below(LETTERS.len())])));
        let state = reference::hash::fnv1a_extend(after, name.as_bytes());
        match seen.insert(state, (start, name.clone())) {
            Some((other_start, other))
                if (starts.len() == 1 || other_start != start) && other != name =>
            {
                return match other < name {
                    true => (other, name),
                    false => (name, other),
                };
            }
            _ => {}
        }
    }
}

/// Draws a case of `challenge` from `seed` alone: `[args, ops]`, or `None`
/// for a challenge the generator cannot make cases of (one not built from
/// its nodes first). A third of the cases hold one of `ties`, the larger
/// name first, so that insertion order and the rule disagree.
pub fn case(challenge: &Challenge, seed: u64, ties: &[Tied]) -> Option<Value> {
    let shapes = Shapes::of(challenge).ok()?;
    let constructor = challenge.model.constructor;
    let weighted = match constructor.first() {
        Some(Kind::Names) => false,
        Some(Kind::WeightedNames) => true,
        _ => return None,
    };
    let mut rng = Rng(seed);
    let mut texts: Vec<String> = Vec::new();
    let count = rng.below(MAX_NODES + 1);
    let mut nodes: Vec<String> = Vec::new();
    for _ in 0..count {
        let name = text_among(&mut rng, &texts);
        texts.push(name.clone());
        nodes.push(name);
    }
    let weight = |rng: &mut Rng| WEIGHTS[rng.below(WEIGHTS.len())];
    let tied = match (ties.is_empty(), rng.below(3)) {
        (false, 0) => Some(&ties[rng.below(ties.len())]),
        _ => None,
    };
    let mut weights: Vec<f64> = nodes.iter().map(|_| weight(&mut rng)).collect();
    if let Some(Tied { tie, .. }) = tied {
        // Tied names tie at equal weights.
        for name in [&tie.nodes.1, &tie.nodes.0] {
            let at = rng.below(nodes.len() + 1);
            nodes.insert(at, name.clone());
            weights.insert(at, 1.0);
        }
        weights.iter_mut().for_each(|w| *w = 1.0);
        texts.extend(tie.keys.iter().cloned());
        texts.push(tie.nodes.0.clone());
    }
    let mut args = vec![if weighted {
        Arg::WeightedNames(nodes.iter().cloned().zip(weights).collect())
    } else {
        Arg::Names(nodes.clone())
    }];
    // A ring's points per node from 0 up; any other argument plain.
    match tied {
        Some(Tied { rest, .. }) => args.extend(rest.iter().cloned()),
        None => args.extend(constructor[1..].iter().map(|kind| match kind {
            Kind::Count | Kind::Size => Arg::Count(rng.below(5) as u64),
            Kind::Weight => Arg::Weight(weight(&mut rng)),
            _ => Arg::Name(text(&mut rng)),
        })),
    }
    let mut sizes = Sizes::new(challenge.model, &args).ok()?;
    let mut model = (challenge.model.build)(&args);
    let mut members: std::collections::BTreeSet<String> = nodes.iter().cloned().collect();
    let length = 1 + rng.below(MAX_OPS);
    let mut ops = Vec::with_capacity(length);
    while ops.len() < length {
        let op = match rng.below(10) {
            0..6 => {
                let signature = match shapes.others.len() {
                    0 => shapes.owner,
                    k => shapes
                        .others
                        .get(rng.below(2 * k))
                        .copied()
                        .unwrap_or(shapes.owner),
                };
                question(signature, &mut rng, &mut texts, members.len())
            }
            roll => {
                // An add or remove of a member, of a former member, or of a
                // text never seen.
                let node = match (members.is_empty(), rng.below(2)) {
                    (false, 0) => members.iter().nth(rng.below(members.len())).cloned(),
                    _ => None,
                }
                .unwrap_or_else(|| text_among(&mut rng, &texts));
                texts.push(node.clone());
                if roll < 8 {
                    let mut operands = vec![Arg::Name(node.clone())];
                    if shapes.add.operands.len() > 1 {
                        operands.push(Arg::Weight(weight(&mut rng)));
                    }
                    Op {
                        signature: shapes.add,
                        operands,
                    }
                } else {
                    Op {
                        signature: shapes.remove,
                        operands: vec![Arg::Name(node)],
                    }
                }
            }
        };
        // A question whose answer a last bit of floating point decides is
        // no evidence against anyone; an operation the loader refuses is
        // no case.
        if model.fragile(&op).is_some() || sizes.op(ops.len(), &op).is_err() {
            continue;
        }
        if let Some(Arg::Name(node)) = op.operands.first() {
            if op.signature.name == shapes.add.name {
                members.insert(node.clone());
            } else if op.signature.name == shapes.remove.name {
                members.remove(node);
            }
        }
        model.apply(&op);
        let mut json = vec![Value::from(op.name())];
        json.extend(op.operands.iter().map(Arg::to_json));
        ops.push(Value::from(json));
    }
    let args: Vec<Value> = args.iter().map(Arg::to_json).collect();
    Some(serde_json::json!([args, ops]))
}

/// A question of `signature`: a key among the case's texts or a new one,
/// a count from 0 to past the node count.
fn question(
    signature: &'static Signature,
    rng: &mut Rng,
    texts: &mut Vec<String>,
    members: usize,
) -> Op {
    let operands = signature
        .operands
        .iter()
        .map(|kind| match kind {
            Kind::Name => {
                let key = text_among(rng, texts);
                texts.push(key.clone());
                Arg::Name(key)
            }
            Kind::Count | Kind::Size if signature.returns == Returns::Loads => {
                Arg::Count(rng.below(40) as u64)
            }
            Kind::Count | Kind::Size => Arg::Count(rng.below(members + 3) as u64),
            Kind::Weight => Arg::Weight(WEIGHTS[rng.below(WEIGHTS.len())]),
            Kind::Names | Kind::WeightedNames => Arg::Names(Vec::new()),
        })
        .collect();
    Op {
        signature,
        operands,
    }
}

#[cfg(test)]
mod tests {
    use super::{case, ties};
    use crate::challenge::{Case, Challenge, Operations};
    use serde_json::Value;

    const CHALLENGES: [&str; 4] = ["rendezvous-router", "hrw-top", "vnode-ring", "weighted-hrw"];

    fn challenge(id: &str) -> Challenge {
        let root =
            std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        Challenge::load(&root, id).unwrap()
    }

    /// Every text of a drawn case, names and keys.
    fn texts(case: &Value, into: &mut Vec<String>) {
        match case {
            Value::String(s) => into.push(s.clone()),
            Value::Array(items) => items.iter().for_each(|i| texts(i, into)),
            _ => {}
        }
    }

    /// Colliding names hash alike whatever follows them, and the pinned
    /// hash says so on its own; the pair ordered apart is ordered apart.
    #[test]
    fn colliding_names_tie_on_every_key() {
        let units = |t: &str| t.encode_utf16().collect::<Vec<u16>>();
        let apart = (0..2).map(super::ordered_apart);
        for (a, b) in (0..3).map(super::colliding_names).chain(apart.clone()) {
            assert!(a.as_bytes() < b.as_bytes());
            for key in ["", "k", ":x", "#3"] {
                assert_eq!(
                    reference::h32(&format!("{a}{key}")),
                    reference::h32(&format!("{b}{key}")),
                    "{a} {b} {key:?}"
                );
            }
        }
        for (a, b) in apart {
            assert!(units(&a) > units(&b), "{a} {b}");
        }
    }

    /// Each challenge's crafted pairs tie by its own reference: a route of
    /// their key (of any key, when they tie on every key) is decided by
    /// the tie rule. A ring ties on points, not keys, and is left out.
    #[test]
    fn crafted_pairs_tie_by_the_reference() {
        use reference::{Arg, Op};
        for id in ["rendezvous-router", "hrw-top", "weighted-hrw"] {
            let challenge = challenge(id);
            let route = challenge
                .model
                .operations
                .iter()
                .find(|s| s.name == "route")
                .unwrap();
            for tied in ties(&challenge).iter().take(3) {
                let (a, b) = &tied.tie.nodes;
                let mut args = vec![match id {
                    "weighted-hrw" => Arg::WeightedNames(vec![(b.clone(), 1.0), (a.clone(), 1.0)]),
                    _ => Arg::Names(vec![b.clone(), a.clone()]),
                }];
                args.extend(tied.rest.iter().cloned());
                let keys = match tied.tie.keys.as_slice() {
                    [] => vec!["k".to_owned(), "".to_owned(), "user:42".to_owned()],
                    keys => keys.to_vec(),
                };
                for key in keys {
                    let op = Op {
                        signature: route,
                        operands: vec![Arg::Name(key.clone())],
                    };
                    assert!(
                        challenge.model.tie_decides(&args, &[op]),
                        "{id}: {a} {b} on {key:?}"
                    );
                }
            }
        }
    }

    /// A thousand cases of each challenge: every one loads by the
    /// loader's rules, the same seed draws the same bytes, and the texts
    /// where bugs hide are all among them.
    #[test]
    fn drawn_cases_are_valid_reproducible_and_hold_the_texts_bugs_hide_in() {
        for id in CHALLENGES {
            let challenge = challenge(id);
            let ops = Operations {
                model: challenge.model,
                allowed: &challenge.operations,
            };
            let mut all = Vec::new();
            let mut names = std::collections::BTreeSet::new();
            let ties = ties(&challenge);
            for seed in 0..1000 {
                let drawn =
                    case(&challenge, seed, &ties).expect("every challenge is built from its nodes");
                assert_eq!(
                    case(&challenge, seed, &ties),
                    Some(drawn.clone()),
                    "{id} seed {seed}"
                );
                if let Err((at, why)) = Case::in_memory(&ops, "drawn", "", drawn.clone(), None) {
                    panic!("{id} seed {seed}: {drawn} at {at:?}: {why}");
                }
                for op in drawn[1].as_array().unwrap() {
                    names.insert(op[0].as_str().unwrap().to_owned());
                }
                texts(&drawn, &mut all);
            }
            // Every operation the challenge has is asked.
            let offered: std::collections::BTreeSet<String> = challenge
                .operations
                .iter()
                .map(|s| s.name.to_owned())
                .collect();
            assert_eq!(names, offered, "{id}");
            let any = |what: &str, test: &dyn Fn(&str) -> bool| {
                assert!(all.iter().any(|t| test(t)), "{id}: no {what}");
            };
            any("empty text", &|t| t.is_empty());
            any("text with a space around it", &|t| {
                !t.is_empty() && t.trim() != t
            });
            any("text upper-cased", &|t| t.chars().any(char::is_uppercase));
            any("separator #", &|t| t.len() > 1 && t.contains('#'));
            any("separator :", &|t| t.len() > 1 && t.contains(':'));
            any("digits only", &|t| {
                !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit())
            });
            any("text of 33 bytes or more", &|t| t.len() > 32);
            any("text past the BMP", &|t| {
                t.chars().any(|c| u32::from(c) > 0xFFFF)
            });
            any("text beyond ASCII", &|t| !t.is_ascii());
            // Two texts UTF-16 code units order otherwise than bytes.
            let units = |t: &str| t.encode_utf16().collect::<Vec<u16>>();
            any("two texts ordered otherwise by UTF-16 code units", &|t| {
                all.iter()
                    .any(|u| (t < u.as_str()) != (units(t) < units(u)))
            });
            // Texts that differ only in case, or in spaces, in one case.
            any("two texts a case or spaces apart", &|t| {
                all.iter().any(|u| {
                    u != t
                        && (u.to_lowercase() == t.to_lowercase() || u.trim() == t.trim())
                        && !t.is_empty()
                })
            });
        }
    }
}
