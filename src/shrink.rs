//! Shrinking: a much smaller case that still fails, by delta debugging on
//! the submission itself (fewer operations, then fewer nodes, then shorter
//! keys), and a snippet in the learner's language that builds the router
//! and asserts the expected answer, to paste into their own tests.

use crate::challenge::{Case, Challenge, Operations};
use crate::error::Error;
use crate::judge::first_divergence;
use crate::run::{Language, Outcome, Runner, Submission};
use reference::{Kind, Returns};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::time::Duration;

/// Attempts (submission runs) one shrink may make.
const BUDGET: usize = 200;

/// A small failing case and the snippet that shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reproducer {
    /// The case, `[args, ops]`, ending at the first wrong answer.
    pub case: Value,
    /// What the last operation should answer, and what the submission did.
    pub expected: Value,
    pub actual: Value,
    /// Code in the submission's language that fails with the wrong answer.
    pub snippet: String,
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
    let run = runner.run_input(input, limit)?;
    let Outcome::Output(actual) = run.outcome else {
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

/// `[[nodes, rest...], ops]`: the constructor's first argument is the list
/// of nodes the shrinker drops from; the others (a ring's k) stay.
fn case_of(nodes: &[Value], rest: &[Value], ops: &[Value]) -> Value {
    let mut args = vec![Value::from(nodes.to_vec())];
    args.extend_from_slice(rest);
    serde_json::json!([args, ops])
}

/// Shrinks a case whose output was wrong; `None` when the submission does
/// not fail the same way on the case itself (it is not deterministic).
pub fn shrink(
    challenge: &Challenge,
    runner: &mut Runner<'_>,
    submission: &Submission,
    input: &Value,
    limit: Duration,
) -> Result<Option<Reproducer>, Error> {
    // Every challenge's first argument is its nodes (names or pairs).
    let (Some(args), Some(ops)) = (input[0].as_array(), input[1].as_array()) else {
        return Ok(None);
    };
    let Some((Value::Array(nodes), rest)) = args.split_first() else {
        return Ok(None);
    };
    let (mut nodes, mut ops) = (nodes.clone(), ops.clone());
    let mut budget = BUDGET;
    let mut attempt = |nodes: &[Value],
                       ops: &[Value],
                       runner: &mut Runner<'_>|
     -> Result<Option<(usize, Value, Value)>, Error> {
        if budget == 0 || ops.is_empty() {
            return Ok(None);
        }
        budget -= 1;
        first_wrong(challenge, runner, &case_of(nodes, rest, ops), limit)
    };
    let Some(mut wrong) = attempt(&nodes, &ops, runner)? else {
        return Ok(None);
    };
    ops.truncate(wrong.0 + 1);
    // Operations: drop chunks, halving their size, keeping the last one.
    let mut chunk = ops.len().div_ceil(2);
    while chunk >= 1 {
        let mut start = 0;
        while start + 1 < ops.len() {
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
    while i < nodes.len() {
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
    for key in asked {
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
    let case = case_of(&nodes, rest, &ops[..=wrong.0]);
    let snippet = snippet(challenge, submission, &case, &wrong.1);
    Ok(Some(Reproducer {
        case,
        expected: wrong.1,
        actual: wrong.2,
        snippet,
    }))
}

/// Code that replays `case` in the submission's language and asserts that
/// its last operation answers `expected`.
pub fn snippet(
    challenge: &Challenge,
    submission: &Submission,
    case: &Value,
    expected: &Value,
) -> String {
    let args = case[0].as_array().cloned().unwrap_or_default();
    let ops = case[1].as_array().cloned().unwrap_or_default();
    let Some((last, before)) = ops.split_last() else {
        return String::new();
    };
    let returns = last[0]
        .as_str()
        .and_then(|name| challenge.model.signature(name))
        .map_or(Returns::MaybeName, |s| s.returns);
    let file = submission
        .path
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let stem = submission
        .path
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    // JSON literals are valid JavaScript and Rust string literals here.
    let call = |op: &Value, literal: &dyn Fn(&Value) -> String| -> String {
        let name = op[0].as_str().unwrap_or_default();
        let operands: Vec<String> = op
            .as_array()
            .map_or(&[][..], |a| &a[1..])
            .iter()
            .map(literal)
            .collect();
        format!("router.{name}({})", operands.join(", "))
    };
    let joined = |literal: &dyn Fn(&Value) -> String| {
        args.iter().map(literal).collect::<Vec<_>>().join(", ")
    };
    match submission.language {
        Language::Python => {
            let mut s = format!(
                "# Run beside {file}: it fails until the bug is fixed.\nfrom {stem} import Router\n\nrouter = Router({})\n",
                joined(&python)
            );
            for op in before {
                s.push_str(&format!("{}\n", call(op, &python)));
            }
            // Pairs may come back as tuples: compare them as lists.
            let answer = match returns {
                Returns::Loads => format!("[list(p) for p in {}]", call(last, &python)),
                _ => call(last, &python),
            };
            s.push_str(&format!(
                "assert {answer} == {}, {}\n",
                python(expected),
                call(last, &python)
            ));
            s
        }
        Language::JavaScript | Language::TypeScript => {
            let header = if submission.language == Language::TypeScript {
                format!(
                    "// Save as check.ts beside {file} and run it with your TypeScript runner (tsx, deno): it fails until the bug is fixed.\nimport assert from 'node:assert';\nimport {{ Router }} from './{stem}';\n"
                )
            } else {
                format!(
                    "// Save as check.mjs beside {file} and run `node check.mjs`: it fails until the bug is fixed.\nimport assert from 'node:assert';\nimport * as m from './{file}';\nconst Router = m.Router ?? m.default?.Router;\n"
                )
            };
            let json = |v: &Value| v.to_string();
            let mut s = format!("{header}\nconst router = new Router({});\n", joined(&json));
            for op in before {
                s.push_str(&format!("{};\n", call(op, &json)));
            }
            s.push_str(&format!(
                "assert.deepStrictEqual({}, {expected});\n",
                call(last, &json)
            ));
            s
        }
        Language::Rust => {
            let constructor: Vec<String> = challenge
                .model
                .constructor
                .iter()
                .zip(&args)
                .map(|(kind, v)| rust_arg(*kind, v))
                .collect();
            let operand = |v: &Value| match v {
                Value::Number(n) if n.is_f64() => rust_f64(v),
                other => other.to_string(),
            };
            // `mut` only when an operation before the last changes it.
            let changes = before.iter().any(|op| {
                op[0]
                    .as_str()
                    .and_then(|name| challenge.model.signature(name))
                    .is_some_and(|sig| !sig.returns.is_query())
            });
            let mut s = format!(
                "// Add to the end of {file}, run `cargo test` (or rustc --test): it fails until the bug is fixed.\n#[test]\nfn shrunk_case() {{\n    let {}router = Router::new({});\n",
                if changes { "mut " } else { "" },
                constructor.join(", ")
            );
            for op in before {
                s.push_str(&format!("    {};\n", call(op, &operand)));
            }
            s.push_str(&format!(
                "    assert_eq!({}, {});\n}}\n",
                call(last, &operand),
                rust_result(returns, expected)
            ));
            s
        }
        Language::Executable | Language::Unknown => {
            format!(
                "Send this case to your program: {case}\nThe last operation should answer {expected}.\n"
            )
        }
    }
}

/// A number as a Rust `f64` literal (always with a point or exponent).
fn rust_f64(v: &Value) -> String {
    let x = v.as_f64().unwrap_or(0.0);
    format!("{x:?}")
}

fn rust_string(v: &Value) -> String {
    format!("{v}.to_string()")
}

/// A constructor argument of `kind` as a Rust expression.
fn rust_arg(kind: Kind, v: &Value) -> String {
    let items = || v.as_array().cloned().unwrap_or_default();
    match kind {
        Kind::Name => rust_string(v),
        Kind::Count | Kind::Size => v.to_string(),
        Kind::Weight => rust_f64(v),
        Kind::Names => format!(
            "vec![{}]",
            items()
                .iter()
                .map(rust_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Kind::WeightedNames => format!(
            "vec![{}]",
            items()
                .iter()
                .map(|p| format!("({}, {})", rust_string(&p[0]), rust_f64(&p[1])))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// An operation's expected result as the Rust value it returns.
fn rust_result(returns: Returns, v: &Value) -> String {
    let items = || v.as_array().cloned().unwrap_or_default();
    match (returns, v) {
        (_, Value::Null) => "None".to_owned(),
        (Returns::MaybeName, _) => format!("Some({})", rust_string(v)),
        (Returns::Names, _) => format!(
            "Vec::<String>::from([{}])",
            items()
                .iter()
                .map(rust_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        (Returns::Loads, _) => format!(
            "Vec::<(String, usize)>::from([{}])",
            items()
                .iter()
                .map(|p| format!("({}, {})", rust_string(&p[0]), p[1]))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => v.to_string(),
    }
}

/// A JSON value as a Python literal.
fn python(v: &Value) -> String {
    match v {
        Value::Null => "None".into(),
        Value::Bool(b) => {
            if *b {
                "True".into()
            } else {
                "False".into()
            }
        }
        Value::Array(items) => format!(
            "[{}]",
            items.iter().map(python).collect::<Vec<_>>().join(", ")
        ),
        other => other.to_string(),
    }
}
