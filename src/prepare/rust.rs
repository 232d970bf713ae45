//! Rust: the learner's `router.rs` compiled with `rustc -O` together with
//! the grader's driver, whose glue (how to build the Router, how to call
//! each operation) is generated from the challenge's signatures.

use reference::{Kind, ModelSpec, Returns, Signature};
use std::fmt::Write as _;
use std::path::Path;

const TEMPLATE: &str = include_str!("../../drivers/rust_driver.rs");

/// Whether the learner's source exposes `pub fn h32`.
pub fn has_h32(source: &str) -> bool {
    source.split("pub fn").skip(1).any(|rest| {
        rest.trim_start()
            .strip_prefix("h32")
            .is_some_and(|r| r.trim_start().starts_with('('))
    })
}

/// The driver's source for `learner` (an absolute path), with the glue for
/// `model`'s constructor and the challenge's `operations`.
pub fn driver_source(
    model: &ModelSpec,
    operations: &[&'static Signature],
    learner: &Path,
    h32: bool,
    runtime: &str,
) -> String {
    let module = format!(
        "#[path = {:?}]\nmod submission;",
        learner.display().to_string()
    );
    let mut glue = String::new();
    let _ = writeln!(glue, "const RUNTIME: &str = {runtime:?};");
    if h32 {
        glue.push_str(
            "const H32: Option<fn(&str) -> u64> = Some(|t| submission::h32(t) as u64);\n",
        );
    } else {
        glue.push_str("const H32: Option<fn(&str) -> u64> = None;\n");
    }
    let args: Vec<String> = model
        .constructor
        .iter()
        .enumerate()
        .map(|(i, kind)| match kind {
            Kind::Name => format!("arg_str(args, {i}).to_owned()"),
            Kind::Count | Kind::Size => format!("arg_usize(args, {i})"),
            Kind::Weight => format!("arg_f64(args, {i})"),
            Kind::Names => format!("arg_names(&args[{i}])"),
            Kind::WeightedNames => format!("arg_pairs(&args[{i}])"),
        })
        .collect();
    let _ = writeln!(
        glue,
        "fn construct(args: &[Json]) -> submission::Router {{\n    submission::Router::new({})\n}}",
        args.join(", ")
    );
    glue.push_str("fn dispatch(router: &mut submission::Router, op: &[Json]) -> Json {\n    match arg_str(op, 0) {\n");
    for signature in operations {
        let operands: Vec<String> = signature
            .operands
            .iter()
            .enumerate()
            .map(|(k, kind)| match kind {
                Kind::Count | Kind::Size => format!("arg_usize(op, {})", k + 1),
                Kind::Weight => format!("arg_f64(op, {})", k + 1),
                _ => format!("arg_str(op, {})", k + 1),
            })
            .collect();
        let call = format!("router.{}({})", signature.name, operands.join(", "));
        let body = match signature.returns {
            Returns::Nothing => format!("{{ let _ = {call}; Json::Null }}"),
            _ => format!("{call}.to_json()"),
        };
        let _ = writeln!(glue, "        {:?} => {body},", signature.name);
    }
    glue.push_str(
        "        other => panic!(\"the grader's driver has no operation {other}\"),\n    }\n}\n",
    );
    TEMPLATE
        .replace("@@MODULE@@", &module)
        .replace("@@GLUE@@", &glue)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn h32_is_found_only_when_public() {
        assert!(has_h32("pub fn h32(text: &str) -> u32 { 0 }"));
        assert!(has_h32("pub fn  h32 (t: &str) -> u32 { 0 }"));
        assert!(!has_h32("fn h32(text: &str) -> u32 { 0 }"));
        assert!(!has_h32("pub fn h32_bytes(b: &[u8]) -> u32 { 0 }"));
    }

    #[test]
    fn the_glue_calls_every_operation_with_its_types() {
        let model = &reference::rendezvous::SPEC;
        let ops: Vec<&'static Signature> = model.operations.iter().collect();
        let source = driver_source(
            model,
            &ops,
            Path::new("/learner/router.rs"),
            true,
            "rustc 1.0",
        );
        assert!(source.contains("#[path = \"/learner/router.rs\"]"));
        assert!(source.contains("submission::Router::new(arg_names(&args[0]))"));
        assert!(source.contains("\"route\" => router.route(arg_str(op, 1)).to_json(),"));
        assert!(source.contains("\"add\" => { let _ = router.add(arg_str(op, 1)); Json::Null },"));
        assert!(source.contains("Some(|t| submission::h32(t) as u64)"));
        assert!(!source.contains("@@MODULE@@") && !source.contains("@@GLUE@@"));
    }
}
