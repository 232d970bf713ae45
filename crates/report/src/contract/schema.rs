//! The JSON Schemas of every JSON document the grader writes, generated
//! from their types so that they cannot drift from what it writes:
//! published in `docs/schemas/` (`grader schema NAME` prints one), and
//! every such document the tests read is checked against its schema.

use super::Report;
use super::tools::{AuditEntry, Audits, Changes, Exploration, LimitsProposal};
use serde_json::Value;

/// A JSON document the grader writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Document {
    /// The report: `grade --format json`, and what `merge` writes.
    Report,
    /// `audit --format json`: the mistakes, and the tests that catch each.
    Audit,
    /// `audit --all --format json`: each challenge's audit under its id.
    Audits,
    /// `audit --limits --format json`: the time limits proposed.
    Limits,
    /// `audit --submissions --format json`: the exploration, and the
    /// cases proposed.
    Exploration,
    /// `compare --format json` and `rejudge --format json`: the students
    /// whose results change.
    Changes,
}

impl Document {
    /// Every document, in the order `docs/schemas/` lists them.
    pub const ALL: [Document; 6] = [
        Document::Report,
        Document::Audit,
        Document::Audits,
        Document::Limits,
        Document::Exploration,
        Document::Changes,
    ];

    /// Its name, as `grader schema` takes it and `docs/schemas/NAME.schema.json`
    /// holds it.
    pub fn name(self) -> &'static str {
        match self {
            Document::Report => "report",
            Document::Audit => "audit",
            Document::Audits => "audits",
            Document::Limits => "limits",
            Document::Exploration => "exploration",
            Document::Changes => "changes",
        }
    }

    /// Its JSON Schema (draft 2020-12).
    pub fn schema(self) -> Value {
        let generator = schemars::generate::SchemaSettings::draft2020_12().into_generator();
        let (mut schema, title) = match self {
            Document::Report => (
                generator.into_root_schema_for::<Report>(),
                "rendezvous-grader report (grade --format json)",
            ),
            Document::Audit => (
                generator.into_root_schema_for::<Vec<AuditEntry>>(),
                "rendezvous-grader audit (audit --format json)",
            ),
            Document::Audits => (
                generator.into_root_schema_for::<Audits>(),
                "rendezvous-grader audits (audit --all --format json)",
            ),
            Document::Limits => (
                generator.into_root_schema_for::<LimitsProposal>(),
                "rendezvous-grader time limits (audit --limits --format json)",
            ),
            Document::Exploration => (
                generator.into_root_schema_for::<Exploration>(),
                "rendezvous-grader exploration (audit --submissions --format json)",
            ),
            Document::Changes => (
                generator.into_root_schema_for::<Changes>(),
                "rendezvous-grader changes (compare and rejudge --format json)",
            ),
        };
        schema.insert("title".into(), title.into());
        schema.to_value()
    }

    /// The schema as `docs/schemas/` holds it: pretty-printed, with a
    /// final newline.
    pub fn schema_text(self) -> String {
        let mut text = serde_json::to_string_pretty(&self.schema()).expect("a schema is JSON");
        text.push('\n');
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The published schemas are the ones the types give: a change to a
    /// document that is not published fails here.
    #[test]
    fn the_published_schemas_are_the_documents() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/schemas");
        for document in Document::ALL {
            let name = document.name();
            let published =
                std::fs::read_to_string(format!("{dir}/{name}.schema.json")).unwrap_or_default();
            assert!(
                published == document.schema_text(),
                "docs/schemas/{name}.schema.json is not the {name}'s schema: write it again with\n    cargo run --release -- schema {name} > docs/schemas/{name}.schema.json\nand review the change"
            );
        }
        let listed: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(listed.len(), Document::ALL.len(), "{listed:?}");
    }
}
