//! What the reference's test files share.

use reference::model::Arg;
use serde_json::Value;

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
