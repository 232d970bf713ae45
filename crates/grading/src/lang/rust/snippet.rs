//! A Rust reproducer: the failing case as a program of the learner's
//! own language, to paste and run.

use super::super::Replay;
use reference::{Kind, Returns};
use serde_json::Value;

pub(in crate::lang) fn snippet(r: &Replay<'_>) -> String {
    let constructor: Vec<String> = r
        .model
        .constructor
        .iter()
        .zip(r.args)
        .map(|(kind, v)| argument(*kind, v))
        .collect();
    let operand = |v: &Value| match v {
        Value::Number(n) if n.is_f64() => float(v),
        other => other.to_string(),
    };
    // `mut` only when an operation before the last changes it.
    let changes = r.before.iter().any(|op| {
        op[0]
            .as_str()
            .and_then(|name| r.model.signature(name))
            .is_some_and(|sig| !sig.returns.is_query())
    });
    let mut s = format!(
        "// Add to the end of {}, run `cargo test` (or rustc --test): it fails until the bug is fixed.\n#[test]\nfn shrunk_case() {{\n    let {}router = Router::new({});\n",
        r.file,
        if changes { "mut " } else { "" },
        constructor.join(", ")
    );
    for op in r.before {
        s.push_str(&format!("    {};\n", r.call(op, &operand)));
    }
    s.push_str(&format!(
        "    assert_eq!({}, {});\n}}\n",
        r.call(r.last, &operand),
        result(r.returns, r.expected)
    ));
    s
}

/// A number as a Rust `f64` literal (always with a point or exponent).
fn float(v: &Value) -> String {
    let x = v.as_f64().unwrap_or(0.0);
    format!("{x:?}")
}

fn string(v: &Value) -> String {
    format!("{v}.to_string()")
}

/// A constructor argument of `kind` as a Rust expression.
fn argument(kind: Kind, v: &Value) -> String {
    let items = || v.as_array().cloned().unwrap_or_default();
    match kind {
        Kind::Name => string(v),
        Kind::Count | Kind::Size => v.to_string(),
        Kind::Weight => float(v),
        Kind::Names => format!(
            "vec![{}]",
            items().iter().map(string).collect::<Vec<_>>().join(", ")
        ),
        Kind::WeightedNames => format!(
            "vec![{}]",
            items()
                .iter()
                .map(|p| format!("({}, {})", string(&p[0]), float(&p[1])))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// An operation's expected result as the Rust value it returns.
fn result(returns: Returns, v: &Value) -> String {
    let items = || v.as_array().cloned().unwrap_or_default();
    match (returns, v) {
        (_, Value::Null) => "None".to_owned(),
        (Returns::MaybeName, _) => format!("Some({})", string(v)),
        (Returns::Names, _) => format!(
            "Vec::<String>::from([{}])",
            items().iter().map(string).collect::<Vec<_>>().join(", ")
        ),
        (Returns::Loads, _) => format!(
            "Vec::<(String, usize)>::from([{}])",
            items()
                .iter()
                .map(|p| format!("({}, {})", string(&p[0]), p[1]))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        _ => v.to_string(),
    }
}
