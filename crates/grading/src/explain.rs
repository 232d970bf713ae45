//! Explain: why the expected answer is right, in pinned hash values. For the
//! first divergent decision the reference replays the case to that point
//! and shows every node's score, the rule that picked the winner, and where
//! the submission's answer ranked; when the submission exposes its own h32,
//! its values sit beside the pinned ones.

use crate::challenge::{Case, Challenge};
use crate::judge::DivergentOp;
use reference::Syntax;
use reference::explanation::{
    DecidedBy, Explanation, RingPoint, RingSize, RingView, ScoreTable, WeightedTerms,
};
use serde_json::Value;

/// Rows shown in a score table; the submission's answer is always shown too.
pub const MAX_ROWS_SHOWN: usize = 10;

/// The strings whose pinned values the spec publishes; a submission's h32 is
/// checked on these first.
pub const CHECK_VALUES: [&str; 4] = ["", "a", "hello", "A#0"];

/// Texts a learner's own h32 is also asked for, each isolating a step: the
/// empty text the finalizer (no byte enters the loop), single bytes the
/// loop, a byte of 0x80 or more signedness, two- and three-byte UTF-8
/// UTF-16 units against bytes, an astral character code points against
/// UTF-16 units, and a long text the precision of the products.
pub const PROBES: [&str; 6] = [
    "é",
    "ключ",
    "€",
    "🙂",
    "ab",
    "a text long enough for every product of the loop to exceed 2^53",
];

/// Texts a learner's own h32 is asked for besides [`PROBES`], so that each
/// two ways of computing the hash's three products (each a 32-bit integer
/// product, or a float of a signed or of an unsigned operand) give
/// different values on at least two texts: found by a search over the
/// decimal numbers, which a test repeats.
pub const ARITHMETIC_PROBES: [&str; 1] = ["1"];

/// Why the expected answer of a divergent operation is what it is.
#[derive(Debug, Clone, PartialEq)]
pub enum WhyExpected {
    /// A route: every node's score.
    Scores(RouteScores),
    /// A replica list: the expected ranking beside the submission's.
    Top(TopRanking),
    /// A ring lookup: the key's position and the points around it.
    Ring(RingLookup),
    /// A ring's size: k points for each of its nodes.
    Points(RingSize),
}

/// A route's score table, capped for display.
#[derive(Debug, Clone, PartialEq)]
pub struct RouteScores {
    pub key: String,
    /// How a node's score is computed, e.g. `h32(node + ":" + key)`.
    pub formula: String,
    /// The reference's answer.
    pub winner: Option<String>,
    pub rule: DecidedBy,
    /// The highest-ranked rows (at most [`MAX_ROWS_SHOWN`]), and the submission's
    /// answer's row if it ranked lower.
    pub rows: Vec<RankedNode>,
    /// How many nodes there were in all.
    pub total_nodes: usize,
    /// The submission's answer and its rank (`None` if it is not a node).
    pub answer: Option<RankedNode>,
}

/// One node's score with its rank (1 = highest).
#[derive(Debug, Clone, PartialEq)]
pub struct RankedNode {
    pub rank: usize,
    pub node: String,
    pub hashed: String,
    pub h32: u32,
    /// U, -ln(U) and the weighted score, in weighted challenges.
    pub weighted: Option<WeightedTerms>,
    /// The submission's own h32 of `hashed`, where it exposes one.
    pub yours: Option<Value>,
}

/// `top(key, n)`: the expected ranking beside the submission's, position
/// by position, from a little before the first place they part.
#[derive(Debug, Clone, PartialEq)]
pub struct TopRanking {
    pub key: String,
    pub formula: String,
    pub n: u64,
    pub total_nodes: usize,
    /// The first position (0-based) where the two lists differ.
    pub first_difference: usize,
    /// One line per position shown.
    pub lines: Vec<RankingPosition>,
}

/// One position of a ranking: the expected node and the submission's.
#[derive(Debug, Clone, PartialEq)]
pub struct RankingPosition {
    pub position: usize,
    pub expected: Option<RankedNode>,
    /// The submission's name at this position, with its row when it is a
    /// node.
    pub yours: Option<Value>,
    pub yours_row: Option<RankedNode>,
}

/// A ring lookup's neighbourhood.
#[derive(Debug, Clone, PartialEq)]
pub struct RingLookup {
    pub key: String,
    /// h32(key).
    pub position: u32,
    /// The submission's own h32 of the key, where it exposes one.
    pub position_yours: Option<Value>,
    pub points: usize,
    pub wrapped: bool,
    /// Entries just before the key's position, in ring order.
    pub before: Vec<RingNeighbour>,
    /// The entry the key lands on, then the next ones.
    pub after: Vec<RingNeighbour>,
}

/// One entry of a ring, for display.
#[derive(Debug, Clone, PartialEq)]
pub struct RingNeighbour {
    pub index: usize,
    pub node: String,
    pub hashed: String,
    pub position: u32,
    pub yours: Option<Value>,
}

/// The submission's h32 against the pinned one.
#[derive(Debug, Clone, PartialEq)]
pub struct H32Check {
    /// How many strings were compared.
    pub checked: usize,
    /// The first string where the values differ (check values first, then
    /// the strings scored in the explanations), or `None` if all agree.
    pub first_mismatch: Option<H32Mismatch>,
    /// The steps of the hash that are wrong, when known wrong steps made
    /// together give every value the submission's gave.
    pub step: Option<H32WrongSteps>,
    /// Each string asked with the 32 bits of the submission's value (a
    /// negative value read as a signed 32-bit one), `None` for a value no
    /// 32-bit integer is: what a named hash mistake must agree with.
    pub own: Vec<(String, Option<u32>)>,
}

impl H32Check {
    /// [`H32Check::own`], borrowed, as the diagnosis takes it.
    pub fn own(&self) -> Vec<(&str, Option<u32>)> {
        self.own.iter().map(|(t, b)| (t.as_str(), *b)).collect()
    }
}

/// The 32 bits of a learner's h32 value: an unsigned 32-bit integer, or a
/// negative signed one (`h | 0`, `as i32`); `None` for anything else.
fn bits_of(value: &Value) -> Option<u32> {
    match (value.as_u64(), value.as_i64()) {
        (Some(n), _) => u32::try_from(n).ok(),
        (None, Some(n)) => i32::try_from(n).ok().map(|n| n as u32),
        _ => None,
    }
}

/// The steps of a learner's h32 that are wrong, with the smallest text
/// that shows it: the first step, and the others wrong with it.
#[derive(Debug, Clone, PartialEq)]
pub struct H32WrongSteps {
    /// The catalogue mistake it is, and its form.
    pub mistake: String,
    pub form: Option<String>,
    /// The step, in words.
    pub step: String,
    /// The other steps wrong with it, in the order they are named: only
    /// all of them together give the submission's values.
    pub also: Vec<H32OtherStep>,
    pub text: String,
    pub pinned: u32,
    /// The submission's value, negative for a signed result.
    pub yours: i64,
}

/// One more wrong step of a learner's h32 ([`H32WrongSteps::also`]).
#[derive(Debug, Clone, PartialEq)]
pub struct H32OtherStep {
    pub mistake: String,
    pub form: Option<String>,
    pub step: String,
}

/// A string the submission hashes differently.
#[derive(Debug, Clone, PartialEq)]
pub struct H32Mismatch {
    pub text: String,
    pub pinned: u32,
    pub yours: Value,
}

/// Explains the divergent operation of `case`, if it is a decision the
/// reference can explain.
pub fn explain(
    challenge: &Challenge,
    case: &Case,
    divergence: &DivergentOp,
) -> Option<WhyExpected> {
    let explanation = challenge
        .model
        .explain_at(&case.args, &case.ops, divergence.op_index)?;
    Some(match explanation {
        Explanation::Scores(table) => WhyExpected::Scores(score_report(table, &divergence.actual)),
        Explanation::Top { table, n } => WhyExpected::Top(top_report(table, n, &divergence.actual)),
        Explanation::Ring(view) => WhyExpected::Ring(ring_report(view)),
        Explanation::Points(view) => WhyExpected::Points(view),
    })
}

/// The table's rows with their ranks.
fn ranked(table: ScoreTable) -> Vec<RankedNode> {
    table
        .rows
        .into_iter()
        .enumerate()
        .map(|(i, r)| RankedNode {
            rank: i + 1,
            node: r.node,
            hashed: r.hashed,
            h32: r.h32,
            weighted: r.weighted,
            yours: None,
        })
        .collect()
}

fn score_report(table: ScoreTable, actual: &Value) -> RouteScores {
    let (key, formula, winner, rule) = (
        table.key.clone(),
        table.formula.clone(),
        table.winner.clone(),
        table.rule,
    );
    let ranked = ranked(table);
    let total_nodes = ranked.len();
    let answer = actual
        .as_str()
        .and_then(|a| ranked.iter().find(|r| r.node == a))
        .cloned();
    let mut rows: Vec<RankedNode> = ranked.into_iter().take(MAX_ROWS_SHOWN).collect();
    if let Some(a) = &answer
        && a.rank > MAX_ROWS_SHOWN
    {
        rows.push(a.clone());
    }
    RouteScores {
        key,
        formula,
        winner,
        rule,
        rows,
        total_nodes,
        answer,
    }
}

fn top_report(table: ScoreTable, n: u64, actual: &Value) -> TopRanking {
    let (key, formula) = (table.key.clone(), table.formula.clone());
    let ranked = ranked(table);
    let total_nodes = ranked.len();
    let want = usize::try_from(n).unwrap_or(usize::MAX).min(total_nodes);
    let yours: &[Value] = actual.as_array().map_or(&[], Vec::as_slice);
    let length = want.max(yours.len());
    let first_difference = (0..length)
        .find(|&i| {
            yours.get(i).and_then(Value::as_str)
                != ranked.get(i).filter(|_| i < want).map(|r| r.node.as_str())
        })
        .unwrap_or(length);
    // A little context before the first difference, then MAX_ROWS_SHOWN lines.
    let first = first_difference.saturating_sub(2);
    let lines = (first..length.min(first + MAX_ROWS_SHOWN))
        .map(|i| {
            let your_name = yours.get(i).cloned();
            RankingPosition {
                position: i,
                expected: (i < want).then(|| ranked[i].clone()),
                yours_row: your_name
                    .as_ref()
                    .and_then(Value::as_str)
                    .and_then(|a| ranked.iter().find(|r| r.node == a))
                    .cloned(),
                yours: your_name,
            }
        })
        .collect();
    TopRanking {
        key,
        formula,
        n,
        total_nodes,
        first_difference,
        lines,
    }
}

fn ring_report(view: RingView) -> RingLookup {
    let shown = |points: Vec<RingPoint>| {
        points
            .into_iter()
            .map(|p| RingNeighbour {
                index: p.index,
                node: p.node,
                hashed: p.hashed,
                position: p.position,
                yours: None,
            })
            .collect()
    };
    RingLookup {
        key: view.key,
        position: view.position,
        position_yours: None,
        points: view.points,
        wrapped: view.wrapped,
        before: shown(view.before),
        after: shown(view.after),
    }
}

/// Every text hashed in `e` with the slot for the submission's value of it.
fn hashed_slots(e: &mut WhyExpected) -> Vec<(&str, &mut Option<Value>)> {
    match e {
        WhyExpected::Scores(s) => s
            .rows
            .iter_mut()
            .chain(s.answer.iter_mut())
            .map(|r| (r.hashed.as_str(), &mut r.yours))
            .collect(),
        WhyExpected::Top(t) => t
            .lines
            .iter_mut()
            .flat_map(|l| l.expected.iter_mut().chain(l.yours_row.iter_mut()))
            .map(|r| (r.hashed.as_str(), &mut r.yours))
            .collect(),
        WhyExpected::Ring(r) => std::iter::once((r.key.as_str(), &mut r.position_yours))
            .chain(
                r.before
                    .iter_mut()
                    .chain(r.after.iter_mut())
                    .map(|p| (p.hashed.as_str(), &mut p.yours)),
            )
            .collect(),
        WhyExpected::Points(_) => Vec::new(),
    }
}

/// The strings an h32 check should ask the submission about: the check
/// values, then every string hashed in `explanations`, without repeats.
/// (Mutable only because the texts are read through the same slots that
/// [`annotate`] fills.)
pub fn hash_texts<'a>(explanations: impl IntoIterator<Item = &'a mut WhyExpected>) -> Vec<String> {
    let mut texts: Vec<String> = CHECK_VALUES
        .iter()
        .chain(&PROBES)
        .chain(&ARITHMETIC_PROBES)
        .map(|s| s.to_string())
        .collect();
    for e in explanations {
        for (text, _) in hashed_slots(e) {
            if !texts.iter().any(|t| t == text) {
                texts.push(text.to_owned());
            }
        }
    }
    texts
}

/// Compares the submission's values for `texts` with the pinned h32; the
/// wrong steps are told in the words for code of `syntax`.
pub fn check_hash(texts: &[String], yours: &[Value], syntax: Syntax) -> H32Check {
    let first_mismatch = texts.iter().zip(yours).find_map(|(text, value)| {
        let pinned = reference::h32(text);
        (value.as_u64() != Some(u64::from(pinned))).then(|| H32Mismatch {
            text: text.clone(),
            pinned,
            yours: value.clone(),
        })
    });
    let step = first_mismatch
        .as_ref()
        .and_then(|_| wrong_step(texts, yours, syntax));
    H32Check {
        checked: texts.len().min(yours.len()),
        first_mismatch,
        step,
        own: texts
            .iter()
            .zip(yours)
            .map(|(t, v)| (t.clone(), bits_of(v)))
            .collect(),
    }
}

/// The wrong steps of the submission's h32, by the values it gave on
/// `texts`: every hash of known wrong steps made together (up to
/// [`reference::mistakes::MOST_STEPS`] of them) that gives every value is
/// a possible explanation, and the steps all of those share are named (one
/// explanation: its steps), with the shortest text where the values part
/// from the pinned ones. None when no explanation fits, or they share no
/// step.
fn wrong_step(texts: &[String], yours: &[Value], syntax: Syntax) -> Option<H32WrongSteps> {
    // A negative value is a signed result (`h | 0`, `as i32`): its bits
    // are compared, and the sign is a step of its own.
    let signed = yours.iter().any(|v| v.as_i64().is_some_and(|n| n < 0));
    let values: Vec<(&String, i64, u32)> = texts
        .iter()
        .zip(yours)
        .map(|(t, v)| {
            let n = v.as_i64()?;
            // Signed values, all of them: none at 2^31 or more.
            let bits = bits_of(v).filter(|_| !signed || n < 1 << 31)?;
            Some((t, n, bits))
        })
        .collect::<Option<_>>()?;
    let pinned_bits = values.iter().all(|(t, _, y)| reference::h32(t) == *y);
    let matching: Vec<&reference::mistakes::ComposedHash> = if pinned_bits {
        Vec::new()
    } else {
        reference::mistakes::hash_compositions()
            .iter()
            .filter(|c| values.iter().all(|(t, _, y)| c.h32(t) == *y))
            .collect()
    };
    let as_step = |v: &reference::mistakes::HashVariant| H32OtherStep {
        mistake: v.id.to_owned(),
        form: v.form.map(str::to_owned),
        step: v.step.get(syntax).to_owned(),
    };
    let mut steps: Vec<H32OtherStep> = match matching.first() {
        Some(first) => {
            let shared = |v: &&reference::mistakes::HashVariant| {
                matching
                    .iter()
                    .all(|c| c.steps.iter().any(|w| std::ptr::eq(*w, *v)))
            };
            first
                .steps
                .iter()
                .copied()
                .filter(shared)
                .map(as_step)
                .collect()
        }
        None if pinned_bits => Vec::new(),
        None => return None,
    };
    if signed {
        steps.push(H32OtherStep {
            mistake: "signed-comparison".to_owned(),
            form: None,
            step: reference::mistakes::SIGNED_RESULT.get(syntax).to_owned(),
        });
    }
    let mut steps = steps.into_iter();
    let main = steps.next()?;
    let (text, yours) = values
        .iter()
        .filter(|(t, n, _)| i64::from(reference::h32(t)) != *n)
        .min_by_key(|(t, ..)| (t.chars().count(), t.len()))
        .map(|(t, n, _)| (t, *n))?;
    Some(H32WrongSteps {
        mistake: main.mistake,
        form: main.form,
        step: main.step,
        also: steps.collect(),
        text: (*text).clone(),
        pinned: reference::h32(text),
        yours,
    })
}

/// Puts the submission's own values beside the pinned ones in `report`.
pub fn annotate(report: &mut WhyExpected, texts: &[String], yours: &[Value]) {
    for (hashed, slot) in hashed_slots(report) {
        *slot = texts
            .iter()
            .position(|t| t == hashed)
            .and_then(|i| yours.get(i).cloned());
    }
}

#[cfg(test)]
mod hash_check_tests {
    use super::*;

    /// The check values and probes, as the grader asks a learner's h32.
    fn texts() -> Vec<String> {
        CHECK_VALUES
            .iter()
            .chain(&PROBES)
            .chain(&ARITHMETIC_PROBES)
            .map(|t| (*t).to_owned())
            .collect()
    }

    fn values(h: impl Fn(&str) -> u32) -> Vec<Value> {
        texts().iter().map(|t| Value::from(h(t))).collect()
    }

    fn composed(ids: &[&str]) -> &'static reference::mistakes::ComposedHash {
        reference::mistakes::hash_compositions()
            .iter()
            .find(|c| c.steps.iter().map(|v| v.id).collect::<Vec<_>>() == ids)
            .unwrap()
    }

    #[test]
    fn steps_wrong_together_are_named_together() {
        for ids in [
            &["fnv-1", "code-points"][..],
            &["float-multiply", "utf16-units"],
            &["fnv-1"],
        ] {
            let hash = composed(ids);
            let check = check_hash(&texts(), &values(|t| hash.h32(t)), Syntax::JavaScript);
            let step = check.step.expect("named");
            let mut named = vec![step.mistake.as_str()];
            named.extend(step.also.iter().map(|w| w.mistake.as_str()));
            assert_eq!(named, ids);
            assert_ne!(i64::from(step.pinned), step.yours);
        }
    }

    #[test]
    fn no_step_is_named_for_the_pinned_hash_or_another_hash() {
        let right = check_hash(&texts(), &values(reference::h32), Syntax::Python);
        assert!(right.first_mismatch.is_none() && right.step.is_none());
        // A hash that is no composition of known steps (a multiplier of its
        // own): a mismatch, and no step.
        let other = check_hash(
            &texts(),
            &values(|t| {
                t.bytes()
                    .fold(7u32, |h, b| h.wrapping_mul(31) ^ u32::from(b))
            }),
            Syntax::Rust,
        );
        assert!(other.first_mismatch.is_some());
        assert!(other.step.is_none(), "{:?}", other.step);
    }

    #[test]
    fn a_signed_result_is_a_step_alone_or_beside_others() {
        let signed = |h: fn(&str) -> u32| -> Vec<Value> {
            texts()
                .iter()
                .map(|t| Value::from(i64::from(h(t) as i32)))
                .collect()
        };
        // The pinned bits, read as signed: that step alone, shown on the
        // shortest text whose h32 is 2^31 or more.
        let step = check_hash(&texts(), &signed(reference::h32), Syntax::Words)
            .step
            .unwrap();
        assert_eq!(step.mistake, "signed-comparison");
        assert!(step.also.is_empty());
        assert!(step.yours < 0 && i64::from(step.pinned) == step.yours + (1 << 32));
        // FNV-1 made signed: both steps.
        let fnv1 = composed(&["fnv-1"]);
        let values: Vec<Value> = texts()
            .iter()
            .map(|t| Value::from(i64::from(fnv1.h32(t) as i32)))
            .collect();
        let step = check_hash(&texts(), &values, Syntax::Rust).step.unwrap();
        assert_eq!(
            (step.mistake.as_str(), step.also[0].mistake.as_str()),
            ("fnv-1", "signed-comparison")
        );
    }

    /// Every arithmetic of the pinned hash's three products (the loop's,
    /// the finalizer's two).
    fn arithmetics() -> Vec<[reference::mistakes::Product; 3]> {
        use reference::mistakes::Product;
        let mut all = Vec::new();
        for a in Product::ALL {
            for b in Product::ALL {
                for c in Product::ALL {
                    all.push([a, b, c]);
                }
            }
        }
        all
    }

    /// How many texts must tell two arithmetics apart.
    const APART_ON: usize = 2;

    /// The probes a search finds: after the check values and the probes
    /// that isolate a step, each text in turn of the decimal numbers that
    /// tells apart two arithmetics fewer than [`APART_ON`] texts before it
    /// do, until every two are told apart on that many.
    fn separating_probes() -> Vec<String> {
        let arithmetics = arithmetics();
        let values = |t: &str| {
            arithmetics
                .iter()
                .map(|&a| reference::mistakes::arithmetic_h32(t, a))
                .collect::<Vec<u32>>()
        };
        let pairs: Vec<(usize, usize)> = (0..arithmetics.len())
            .flat_map(|i| (i + 1..arithmetics.len()).map(move |j| (i, j)))
            .collect();
        let mut apart = vec![0; pairs.len()];
        // Counts the pairs `t` tells apart; whether one was short of
        // APART_ON texts.
        let count = |t: &str, apart: &mut [usize]| {
            let v = values(t);
            let mut more = false;
            for (n, &(i, j)) in apart.iter_mut().zip(&pairs) {
                if v[i] != v[j] {
                    more |= *n < APART_ON;
                    *n += 1;
                }
            }
            more
        };
        for t in CHECK_VALUES.iter().chain(&PROBES) {
            count(t, &mut apart);
        }
        let mut found = Vec::new();
        for n in 0..1_000_000u32 {
            if apart.iter().all(|&n| n >= APART_ON) {
                break;
            }
            let text = n.to_string();
            let mut next = apart.clone();
            if count(&text, &mut next) {
                apart = next;
                found.push(text);
            }
        }
        found
    }

    /// The arithmetic probes are what the search finds, and with them
    /// every two ways of computing the products are told apart on two
    /// texts or more; every two hashes the check knows, on one or more.
    #[test]
    fn the_probes_tell_every_two_arithmetics_and_hashes_apart() {
        assert_eq!(separating_probes(), ARITHMETIC_PROBES);
        let texts = texts();
        for (i, a) in arithmetics().iter().enumerate() {
            for b in &arithmetics()[i + 1..] {
                let on = texts
                    .iter()
                    .filter(|t| {
                        reference::mistakes::arithmetic_h32(t, *a)
                            != reference::mistakes::arithmetic_h32(t, *b)
                    })
                    .count();
                assert!(on >= APART_ON, "{a:?} and {b:?} apart on {on} texts");
            }
        }
        let all = reference::mistakes::hash_compositions();
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!(
                    texts.iter().any(|t| a.h32(t) != b.h32(t)),
                    "{:?} and {:?}",
                    a.steps,
                    b.steps
                );
            }
        }
    }

    /// Every product of a float made alone (with the loop and the finalizer
    /// otherwise right) is named in its form, and told from the others: an
    /// operand kept unsigned, the loop's product alone.
    #[test]
    fn each_float_arithmetic_is_named_in_its_form() {
        use reference::mistakes::Product::{FloatSigned, FloatUnsigned, Integer};
        for (products, id, form) in [
            ([FloatSigned; 3], "float-multiply", "signed operands"),
            ([FloatUnsigned; 3], "float-multiply", "unsigned operands"),
            (
                [FloatSigned, Integer, Integer],
                "float-loop",
                "signed operands",
            ),
            (
                [FloatUnsigned, Integer, Integer],
                "float-loop",
                "unsigned operands",
            ),
            (
                [Integer, FloatSigned, FloatSigned],
                "float-finalizer",
                "signed operands",
            ),
            (
                [Integer, FloatUnsigned, FloatUnsigned],
                "float-finalizer",
                "unsigned operands",
            ),
        ] {
            let values = values(|t| reference::mistakes::arithmetic_h32(t, products));
            let step = check_hash(&texts(), &values, Syntax::JavaScript)
                .step
                .unwrap_or_else(|| panic!("{products:?} named"));
            assert_eq!(
                (step.mistake.as_str(), step.form.as_deref(), step.also.len()),
                (id, Some(form), 0),
                "{products:?}"
            );
        }
        // Floats in the finalizer's first product only: no step names it,
        // and none is named.
        let values =
            values(|t| reference::mistakes::arithmetic_h32(t, [Integer, FloatUnsigned, Integer]));
        assert!(check_hash(&texts(), &values, Syntax::Python).step.is_none());
    }

    /// When the values cannot tell two explanations apart, no step of one
    /// is named: on the empty text the loop's arithmetic is never at work,
    /// so floats everywhere and floats in the finalizer alone give one
    /// value; on "1" the loop's one product rounds alike from a signed
    /// operand and an unsigned one. The probes tell them apart.
    #[test]
    fn steps_the_values_cannot_tell_apart_are_not_named() {
        use reference::mistakes::Product::FloatSigned;
        let floats = |t: &str| reference::mistakes::arithmetic_h32(t, [FloatSigned; 3]);
        let check = |texts: &[&str]| {
            let texts: Vec<String> = texts.iter().map(|t| (*t).to_owned()).collect();
            let values: Vec<Value> = texts.iter().map(|t| Value::from(floats(t))).collect();
            check_hash(&texts, &values, Syntax::JavaScript).step
        };
        assert!(check(&[""]).is_none());
        assert!(check(&["", "1"]).is_none());
        let all = texts();
        let step = check(&all.iter().map(String::as_str).collect::<Vec<_>>()).expect("named");
        assert_eq!(
            (step.mistake.as_str(), step.form.as_deref()),
            ("float-multiply", Some("signed operands"))
        );
    }
}
