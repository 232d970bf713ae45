//! Shrinking: a much smaller case that still fails, by delta debugging on
//! the submission itself (fewer operations, then fewer nodes, then shorter
//! keys, then shorter texts), and a snippet in the learner's language that builds the router
//! and asserts the expected answer, to paste into their own tests.

use crate::challenge::{Case, Challenge, Operations};
use crate::error::Error;
use crate::extra::Budget;
use crate::judge::first_divergence;
use crate::lang::Submission;
use crate::run::{CaseOutcome, Runner};
use reference::Kind;
use serde_json::Value;
use std::time::Duration;

/// Attempts (submission runs) one shrink may make.
const ATTEMPTS: usize = 200;

/// A small failing case and the snippet that shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct ShrunkCase {
    /// The case, `[args, ops]`, ending at the first wrong answer.
    pub case: Value,
    /// What the last operation should answer, and what the submission did.
    pub expected: Value,
    pub actual: Value,
    /// Code in the submission's language that fails with the wrong answer.
    pub snippet: String,
    /// The budget for extra runs, when it stopped shrinking before it was
    /// done: the case is then the smallest found so far.
    pub cut_short: Option<std::time::Duration>,
}

/// Where a candidate case first goes wrong: the index of the first op whose
/// answer differs from the reference's, with both answers.
fn first_wrong(
    challenge: &Challenge,
    runner: &mut Runner<'_>,
    input: &Value,
    limit: Duration,
) -> Result<Option<(usize, Value, Value)>, Error> {
    let ops = Operations {
        model: challenge.model,
        allowed: &challenge.operations,
    };
    let Ok(case) = Case::in_memory(&ops, "shrunk", "", input.clone(), None) else {
        return Ok(None);
    };
    let run = runner.run_input(input, crate::run::ReplyBound::for_case(&case), limit)?;
    let CaseOutcome::Output(actual) = run.outcome else {
        return Ok(None);
    };
    Ok(first_divergence(&case, &actual).map(|d| (d.op_index, d.expected, d.actual)))
}

/// Keys a shrunk case tries instead of longer ones, shortest first.
const SHORT_KEYS: [&str; 16] = [
    "a", "b", "c", "k", "x", "y", "z", "0", "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7",
];

/// The key `op` asks about: the first operand of a question (an operation
/// that returns something) when it is a name.
fn asked_key<'a>(challenge: &Challenge, op: &'a Value) -> Option<&'a str> {
    let signature = challenge.model.signature(op[0].as_str()?)?;
    (signature.returns.is_query() && signature.operands.first() == Some(&Kind::Name))
        .then(|| op[1].as_str())
        .flatten()
}

/// The texts of a case, in order of appearance: each node's name in the
/// constructor (a plain name, or the first of a name and a weight) and
/// every operand an operation takes as a name.
fn texts(challenge: &Challenge, nodes: &[Value], ops: &[Value]) -> Vec<String> {
    let mut texts: Vec<String> = Vec::new();
    let mut note = |v: &Value| {
        if let Some(t) = v.as_str().or_else(|| v[0].as_str())
            && !texts.iter().any(|s| s == t)
        {
            texts.push(t.to_owned());
        }
    };
    nodes.iter().for_each(&mut note);
    for op in ops {
        for at in name_operands(challenge, op) {
            note(&op[at]);
        }
    }
    texts
}

/// Where `op`'s operands that are names are, as indexes into `op`.
fn name_operands(challenge: &Challenge, op: &Value) -> Vec<usize> {
    let Some(signature) = op[0].as_str().and_then(|n| challenge.model.signature(n)) else {
        return Vec::new();
    };
    (signature.operands.iter().enumerate())
        .filter(|(_, kind)| **kind == Kind::Name)
        .map(|(i, _)| i + 1)
        .collect()
}

/// `nodes` and `ops` with the text `from`, wherever it is a name or a
/// key (see [`texts`]), replaced by `to`.
fn with_text(
    challenge: &Challenge,
    nodes: &[Value],
    ops: &[Value],
    from: &str,
    to: &str,
) -> (Vec<Value>, Vec<Value>) {
    let swap = |v: &mut Value| {
        if v.as_str() == Some(from) {
            *v = Value::from(to);
        }
    };
    let mut nodes = nodes.to_vec();
    for node in &mut nodes {
        match node {
            Value::Array(pair) => pair.first_mut().into_iter().for_each(swap),
            name => swap(name),
        }
    }
    let mut ops = ops.to_vec();
    for op in &mut ops {
        for at in name_operands(challenge, op) {
            swap(&mut op[at]);
        }
    }
    (nodes, ops)
}

/// `[args, ops]` with the constructor's list of nodes (argument `at`)
/// replaced by `nodes`: the shrinker drops nodes; the other arguments (a
/// ring's k) stay.
fn case_of(args: &[Value], at: usize, nodes: &[Value], ops: &[Value]) -> Value {
    let mut args = args.to_vec();
    args[at] = Value::from(nodes.to_vec());
    serde_json::json!([args, ops])
}

/// How far a shrink goes with the case's texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Texts {
    /// Node names stay as the author wrote them: a suite's case reads
    /// better with its own names, and only keys get shorter.
    Kept,
    /// Every text loses what it can (a generated case's texts are drawn
    /// to be odd; the shortest that still fails shows what matters).
    Shortened,
}

/// Shrinks a case whose output was wrong; `None` when the submission does
/// not fail the same way on the case itself (it is not deterministic), or
/// when `budget` leaves no time even for that. Each attempt gets the
/// budget's limit for a case that took `case_time`, at most `ceiling`.
pub fn shrink(
    challenge: &Challenge,
    runner: &mut Runner<'_>,
    submission: &Submission,
    (input, texts_of_case): (&Value, Texts),
    (case_time, ceiling): (Duration, Duration),
    budget: &Budget,
) -> Result<Option<ShrunkCase>, Error> {
    let (Some(args), Some(ops)) = (input[0].as_array(), input[1].as_array()) else {
        return Ok(None);
    };
    let Some(at) = challenge.model.nodes_arg() else {
        return Ok(None);
    };
    let Some(Value::Array(nodes)) = args.get(at) else {
        return Ok(None);
    };
    let (mut nodes, mut ops) = (nodes.clone(), ops.clone());
    let mut attempts = ATTEMPTS;
    let mut attempt = |nodes: &[Value],
                       ops: &[Value],
                       runner: &mut Runner<'_>|
     -> Result<Option<(usize, Value, Value)>, Error> {
        if attempts == 0 || ops.is_empty() {
            return Ok(None);
        }
        let Some(limit) = budget.attempt(case_time, ceiling) else {
            return Ok(None);
        };
        attempts -= 1;
        first_wrong(challenge, runner, &case_of(args, at, nodes, ops), limit)
    };
    let Some(mut wrong) = attempt(&nodes, &ops, runner)? else {
        return Ok(None);
    };
    ops.truncate(wrong.0 + 1);
    // Operations: drop chunks, halving their size, keeping the last one.
    let mut chunk = ops.len().div_ceil(2);
    while chunk >= 1 && !budget.ran_out() {
        let mut start = 0;
        while start + 1 < ops.len() && !budget.ran_out() {
            let end = (start + chunk).min(ops.len() - 1);
            let candidate: Vec<Value> = ops[..start].iter().chain(&ops[end..]).cloned().collect();
            match attempt(&nodes, &candidate, runner)? {
                Some(w) => {
                    ops = candidate;
                    ops.truncate(w.0 + 1);
                    wrong = w;
                }
                None => start = end,
            }
        }
        if chunk == 1 {
            break;
        }
        chunk = chunk.div_ceil(2);
    }
    // Nodes: drop them one at a time.
    let mut i = 0;
    while i < nodes.len() && !budget.ran_out() {
        let mut candidate = nodes.clone();
        candidate.remove(i);
        match attempt(&candidate, &ops, runner)? {
            Some(w) => {
                nodes = candidate;
                ops.truncate(w.0 + 1);
                wrong = w;
            }
            None => i += 1,
        }
    }
    // Keys: each question's key, everywhere it is asked, replaced by the
    // shortest candidate that still fails.
    let mut asked: Vec<String> = Vec::new();
    for op in &ops {
        if let Some(key) = asked_key(challenge, op)
            && !asked.iter().any(|k| k == key)
        {
            asked.push(key.to_owned());
        }
    }
    for key in asked.into_iter().take_while(|_| !budget.ran_out()) {
        for short in SHORT_KEYS.iter().filter(|s| {
            s.len() < key.len() && !ops.iter().any(|op| asked_key(challenge, op) == Some(**s))
        }) {
            let candidate: Vec<Value> = ops
                .iter()
                .map(|op| match asked_key(challenge, op) {
                    Some(k) if k == key => {
                        let mut op = op.clone();
                        op[1] = Value::from(*short);
                        op
                    }
                    _ => op.clone(),
                })
                .collect();
            if let Some(w) = attempt(&nodes, &candidate, runner)? {
                ops = candidate;
                ops.truncate(w.0 + 1);
                wrong = w;
                break;
            }
        }
    }
    // Texts: each name and key, everywhere it appears, loses characters
    // while the case still fails, in halving runs of them (so a long text
    // whose length matters keeps what it needs, and " k" may become " ").
    let mut tried: Vec<String> = Vec::new();
    while let Some(text) = (texts_of_case == Texts::Shortened)
        .then(|| texts(challenge, &nodes, &ops))
        .into_iter()
        .flatten()
        .into_iter()
        .find(|t| !t.is_empty() && !tried.contains(t))
    {
        if budget.ran_out() {
            break;
        }
        tried.push(text.clone());
        let mut current = text;
        let mut chunk = current.chars().count().div_ceil(2);
        while chunk >= 1 && !budget.ran_out() {
            let mut start = 0;
            while start < current.chars().count() && !budget.ran_out() {
                let shorter: String = current
                    .chars()
                    .enumerate()
                    .filter(|(i, _)| *i < start || *i >= start + chunk)
                    .map(|(_, c)| c)
                    .collect();
                let (n, o) = with_text(challenge, &nodes, &ops, &current, &shorter);
                // A text that becomes another is another case: fine, when
                // it still fails and loads.
                match attempt(&n, &o, runner)? {
                    Some(w) => {
                        (nodes, ops) = (n, o);
                        ops.truncate(w.0 + 1);
                        wrong = w;
                        tried.push(shorter.clone());
                        current = shorter;
                    }
                    None => start += chunk,
                }
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    let case = case_of(args, at, &nodes, &ops[..=wrong.0]);
    let snippet = crate::lang::snippet(challenge, submission, &case, &wrong.1);
    Ok(Some(ShrunkCase {
        case,
        expected: wrong.1,
        actual: wrong.2,
        snippet,
        cut_short: budget.ran_out().then(|| budget.total()),
    }))
}
