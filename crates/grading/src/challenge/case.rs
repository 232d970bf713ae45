//! Test cases: `NAME.json` holds `[args, ops]` exactly as a challenge page
//! shows it, `NAME.expected.json` the output list. Every problem is found
//! before anything runs, and each names its file, line and column.

use super::locate::position_of;
use crate::error::Problem;
use reference::operation::describe_value;
use reference::{Arg, ModelSpec, Op, Signature};
use serde_json::Value;
use std::path::{Path, PathBuf};

pub use vocabulary::ExpectedFrom;

/// A test's id, `group/name`, as every report, message and list of tests
/// writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TestId<'a> {
    pub group: &'a str,
    pub name: &'a str,
}

impl std::fmt::Display for TestId<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.group, self.name)
    }
}

/// One test case, parsed and checked against the challenge's operations.
#[derive(Debug, Clone)]
pub struct Case {
    /// The file name without `.json`.
    pub name: String,
    /// The group (folder) it belongs to.
    pub group: String,
    pub path: PathBuf,
    /// The case as written, `[args, ops]`: what submissions receive.
    pub input: Value,
    pub args: Vec<Arg>,
    pub ops: Vec<Op>,
    /// One result per operation.
    pub expected: Vec<Value>,
    pub expected_from: ExpectedFrom,
}

impl Case {
    /// Its id, `group/name`.
    pub fn id(&self) -> TestId<'_> {
        TestId {
            group: &self.group,
            name: &self.name,
        }
    }

    /// A case built in memory from `[args, ops]`, expecting `expected`, or
    /// the reference's output when `None`.
    pub fn in_memory(
        ops: &Operations<'_>,
        name: &str,
        group: &str,
        input: Value,
        expected: Option<Vec<Value>>,
    ) -> Result<Case, (Vec<usize>, String)> {
        let (args, parsed) = parse_input(ops, &input)?;
        let (expected, expected_from) = match expected {
            Some(values) => (values, ExpectedFrom::File),
            None => (ops.model.run(&args, &parsed), ExpectedFrom::Reference),
        };
        Ok(Case {
            name: name.to_owned(),
            group: group.to_owned(),
            path: PathBuf::from(format!("{name}.json")),
            input,
            args,
            ops: parsed,
            expected,
            expected_from,
        })
    }

    /// The operation at `index` as JSON, as the case file wrote it.
    pub fn op_json(&self, index: usize) -> Value {
        self.input[1][index].clone()
    }
}

/// What can be asked of a case's operations.
pub struct Operations<'a> {
    pub model: &'static ModelSpec,
    /// The operations the challenge allows (from `challenge.toml`).
    pub allowed: &'a [&'static Signature],
}

/// Reads and checks the case at `path` and its expected file, if any
/// (`expected_path`). Problems are appended to `problems`.
pub fn load_case(
    ops: &Operations<'_>,
    group: &str,
    path: &Path,
    expected_path: Option<&Path>,
    problems: &mut Vec<Problem>,
) -> Option<Case> {
    let name = file_stem(path, ".json");
    let (text, input) = read_json(path, problems)?;
    let at = |p: &[usize], message: String| Problem {
        path: path.to_owned(),
        position: position_of(&text, p),
        message,
    };
    let (args, parsed_ops) = match parse_input(ops, &input) {
        Ok(parsed) => parsed,
        Err((p, message)) => {
            problems.push(at(&p, message));
            return None;
        }
    };
    let (expected, expected_from) = match expected_path {
        Some(exp_path) => {
            let (exp_text, exp) = read_json(exp_path, problems)?;
            match check_expected(&parsed_ops, &exp, &name) {
                Ok(values) => (values, ExpectedFrom::File),
                Err((p, message)) => {
                    problems.push(Problem {
                        path: exp_path.to_owned(),
                        position: position_of(&exp_text, &p),
                        message,
                    });
                    return None;
                }
            }
        }
        None => (ops.model.run(&args, &parsed_ops), ExpectedFrom::Reference),
    };
    Some(Case {
        name,
        group: group.to_owned(),
        path: path.to_owned(),
        input,
        args,
        ops: parsed_ops,
        expected,
        expected_from,
    })
}

/// `name` without `suffix`, for a file named `NAME{suffix}`.
pub fn file_stem(path: &Path, suffix: &str) -> String {
    let file = path
        .file_name()
        .map(|f| f.to_string_lossy())
        .unwrap_or_default();
    file.strip_suffix(suffix).unwrap_or(&file).to_owned()
}

fn read_json(path: &Path, problems: &mut Vec<Problem>) -> Option<(String, Value)> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => {
            problems.push(Problem {
                path: path.to_owned(),
                position: None,
                message: format!("cannot read: {e}"),
            });
            return None;
        }
    };
    match serde_json::from_str(&text) {
        Ok(value) => Some((text, value)),
        Err(e) => {
            problems.push(Problem {
                path: path.to_owned(),
                position: (e.line() > 0).then(|| (e.line(), e.column().max(1))),
                message: format!("invalid JSON: {}", strip_position(&e.to_string())),
            });
            None
        }
    }
}

/// serde_json appends " at line L column C", which the problem already shows.
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |i| &message[..i])
}

type Located<T> = Result<T, (Vec<usize>, String)>;

fn nest(prefix: &[usize], (path, message): (Vec<usize>, String)) -> (Vec<usize>, String) {
    ([prefix, &path].concat(), message)
}

/// Parses `[args, ops]` against the challenge's constructor and operations,
/// and holds it to the bounds of `challenge::rules`.
pub fn parse_input(ops: &Operations<'_>, input: &Value) -> Located<(Vec<Arg>, Vec<Op>)> {
    let model = ops.model;
    let form =
        "a case is [args, ops]: a list holding the constructor's arguments and the operations";
    let [args, op_list] = input.as_array().map(Vec::as_slice).unwrap_or_default() else {
        return Err((vec![], format!("{form}, found {}", describe_value(input))));
    };
    let args_list = args.as_array().ok_or_else(|| {
        (
            vec![0],
            format!(
                "the constructor's arguments must be a list, found {}",
                describe_value(args)
            ),
        )
    })?;
    if args_list.len() != model.constructor.len() {
        let wanted: Vec<&str> = model.constructor.iter().map(|k| k.describe()).collect();
        return Err((
            vec![0],
            format!(
                "the constructor takes {} argument(s) ({}), found {}",
                model.constructor.len(),
                wanted.join(", "),
                args_list.len()
            ),
        ));
    }
    let args = model
        .constructor
        .iter()
        .zip(args_list)
        .enumerate()
        .map(|(i, (kind, v))| kind.parse(v).map_err(|e| nest(&[0, i], e)))
        .collect::<Located<Vec<Arg>>>()?;
    let op_items = op_list.as_array().ok_or_else(|| {
        (
            vec![1],
            format!(
                "the operations must be a list, found {}",
                describe_value(op_list)
            ),
        )
    })?;
    super::rules::Sizes::operations_fit(op_items.len())
        .map_err(|m| (vec![1, super::rules::MAX_OPERATIONS], m))?;
    let parsed = op_items
        .iter()
        .enumerate()
        .map(|(j, op)| parse_op(ops, op).map_err(|e| nest(&[1, j], e)))
        .collect::<Located<Vec<Op>>>()?;
    super::rules::check_sizes(model, &args, &parsed)?;
    Ok((args, parsed))
}

fn parse_op(ops: &Operations<'_>, op: &Value) -> Located<Op> {
    let names = || {
        ops.allowed
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let Some([head, operands @ ..]) = op.as_array().map(Vec::as_slice) else {
        return Err((
            vec![],
            format!(
                "an operation is [name, operand...], found {}; this challenge's operations: {}",
                describe_value(op),
                names()
            ),
        ));
    };
    let Some(name) = head.as_str() else {
        return Err((
            vec![0],
            format!(
                "an operation's name must be a string, found {}",
                describe_value(head)
            ),
        ));
    };
    let Some(signature) = ops.allowed.iter().copied().find(|s| s.name == name) else {
        let suggestion = ops
            .allowed
            .iter()
            .min_by_key(|s| strsim::levenshtein(s.name, name))
            .filter(|s| strsim::levenshtein(s.name, name) <= 2)
            .map(|s| format!(" (did you mean `{}`?)", s.name))
            .unwrap_or_default();
        return Err((
            vec![0],
            format!(
                "unknown operation `{name}`{suggestion}; this challenge's operations: {}",
                names()
            ),
        ));
    };
    if operands.len() != signature.operands.len() {
        return Err((
            vec![],
            format!(
                "`{name}` takes {} operand(s), as in {signature}, found {}",
                signature.operands.len(),
                operands.len()
            ),
        ));
    }
    let operands = signature
        .operands
        .iter()
        .zip(operands)
        .enumerate()
        .map(|(k, (kind, v))| {
            kind.parse(v).map_err(|(p, m)| {
                nest(&[k + 1], (p, format!("operand {} of `{name}`: {m}", k + 1)))
            })
        })
        .collect::<Located<Vec<Arg>>>()?;
    Ok(Op {
        signature,
        operands,
    })
}

/// Checks an expected output list against the case's operations.
pub fn check_expected(ops: &[Op], expected: &Value, case_name: &str) -> Located<Vec<Value>> {
    let Some(items) = expected.as_array() else {
        return Err((
            vec![],
            format!(
                "an expected file is a list with one result per operation, found {}",
                describe_value(expected)
            ),
        ));
    };
    if items.len() != ops.len() {
        return Err((
            vec![],
            format!(
                "expected {} results, one per operation of {case_name}.json, found {}; \
                 regenerate it from the reference or fix the list",
                ops.len(),
                items.len()
            ),
        ));
    }
    for (i, (op, item)) in ops.iter().zip(items).enumerate() {
        let returns = op.signature.returns;
        if !returns.accepts(item) {
            return Err((
                vec![i],
                format!(
                    "result {i} answers `{}`, which returns {}, found {}",
                    op.name(),
                    returns.describe(),
                    describe_value(item)
                ),
            ));
        }
    }
    Ok(items.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_operation_is_named_with_the_closest_one() {
        let model = &reference::rendezvous::SPEC;
        let allowed: Vec<&'static reference::Signature> = model.operations.iter().collect();
        let ops = Operations {
            model,
            allowed: &allowed,
        };
        let input = serde_json::json!([[["a"]], [["rmeove", "a"]]]);
        let (_, message) = parse_input(&ops, &input).unwrap_err();
        assert!(message.contains("(did you mean `remove`?)"), "{message}");
        let far = serde_json::json!([[["a"]], [["lookup", "a"]]]);
        let (_, message) = parse_input(&ops, &far).unwrap_err();
        assert!(!message.contains("did you mean"), "{message}");
    }
}
