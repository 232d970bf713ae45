//! What the reference's test files share.

use reference::operation::Arg;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Every case of a challenge's shipped suite, `[args, ops]`, with its path.
#[allow(dead_code)] // each test file uses what it needs
pub fn shipped_cases(challenge: &str) -> Vec<(PathBuf, Value)> {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../challenges")
        .join(challenge)
        .join("tests");
    let mut cases = Vec::new();
    for group in std::fs::read_dir(&suite).unwrap() {
        for file in std::fs::read_dir(group.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            if name.ends_with(".json") && !name.ends_with(".expected.json") {
                let case = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                cases.push((path, case));
            }
        }
    }
    cases.sort_by(|a, b| a.0.cmp(&b.0));
    cases
}

#[allow(dead_code)]
/// A case `[args, ops]` as the model's arguments and operations.
pub fn parse_case(spec: &reference::ModelSpec, input: &Value) -> (Vec<Arg>, Vec<reference::Op>) {
    let [args, ops] = input.as_array().unwrap().as_slice() else {
        panic!("a case is [args, ops]")
    };
    let args: Vec<Arg> = spec
        .constructor
        .iter()
        .zip(args.as_array().unwrap())
        .map(|(k, v)| k.parse(v).unwrap())
        .collect();
    let ops = ops
        .as_array()
        .unwrap()
        .iter()
        .map(|op| {
            let op = op.as_array().unwrap();
            let sig = spec.signature(op[0].as_str().unwrap()).unwrap();
            let operands = sig
                .operands
                .iter()
                .zip(&op[1..])
                .map(|(k, v)| k.parse(v).unwrap())
                .collect();
            reference::Op {
                signature: sig,
                operands,
            }
        })
        .collect();
    (args, ops)
}
