//! The contract's JSON Schema, generated from its types, so that it cannot
//! drift from what the grader writes: published as
//! `docs/report.schema.json` (`grader schema`), and every report the tests
//! write is checked against it.

use super::Report;
use serde_json::Value;

/// The JSON Schema (draft 2020-12) of `--format json`'s report.
pub fn report_schema() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
    let mut schema = generator.into_root_schema_for::<Report>();
    schema.insert(
        "title".into(),
        "rendezvous-grader report (grader grade --format json)".into(),
    );
    schema.to_value()
}

/// The schema as `docs/report.schema.json` holds it: pretty-printed, with
/// a final newline.
pub fn report_schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&report_schema()).expect("a schema is JSON");
    text.push('\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published schema is the one the types give: a change to the
    /// contract that is not published fails here.
    #[test]
    fn the_published_schema_is_the_contracts() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/report.schema.json");
        let published = std::fs::read_to_string(path).unwrap_or_default();
        assert!(
            published == report_schema_text(),
            "docs/report.schema.json is not the contract's schema: write it again with\n    cargo run --release -- schema > docs/report.schema.json\nand review the change"
        );
    }
}
