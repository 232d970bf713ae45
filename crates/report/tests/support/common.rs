//! What the report crate's renderer tests and the root package's
//! integration tests share, included by both (`#[path]`): insta's settings
//! and the strict check of a JSON document against its published schema.

use report::contract::Document;
use serde_json::Value;
use std::path::Path;

/// `text` as a regular expression that matches it literally.
pub fn literal(text: &str) -> String {
    let mut escaped = String::new();
    for c in text.chars() {
        if "\\.+*?()|[]{}^$#&-~".contains(c) {
            escaped.push('\\');
        }
        escaped.push(c);
    }
    escaped
}

/// Settings for every snapshot: plain names (the file is
/// `snapshots/NAME.snap`), no expression in the header, and the checkout's
/// path `root` and the grader's `version` redacted.
pub fn settings(description: &str, root: &Path, version: &str) -> insta::Settings {
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_description(description);
    settings.add_filter(&literal(&root.display().to_string()), "[root]");
    let version = literal(version);
    settings.add_filter(
        &format!("rendezvous-grader {version}"),
        "rendezvous-grader [version]",
    );
    settings.add_filter(
        &format!(r#""version": "{version}""#),
        r#""version": "[version]""#,
    );
    settings
}

/// Panics unless `value` follows `document`'s JSON Schema
/// (`Document::schema`, published in docs/schemas/), made strict: every
/// object the schema describes holds only the properties it names, so that
/// a field the grader writes and the schema leaves out fails too. (The
/// published schemas let consumers read the documents of later versions,
/// with more fields.)
pub fn check_document(document: Document, value: &Value) {
    static STRICT: std::sync::OnceLock<Vec<(Document, jsonschema::Validator)>> =
        std::sync::OnceLock::new();
    let validators = STRICT.get_or_init(|| {
        Document::ALL
            .iter()
            .map(|&document| {
                let mut schema = document.schema();
                let mut extended = Vec::new();
                extended_refs(&schema, &mut extended);
                strict(&mut schema, &extended);
                let validator = jsonschema::draft202012::new(&schema)
                    .unwrap_or_else(|e| panic!("{}'s schema: {e}", document.name()));
                (document, validator)
            })
            .collect()
    });
    let (_, validator) = validators.iter().find(|(d, _)| *d == document).unwrap();
    let errors: Vec<String> = validator
        .iter_errors(value)
        .map(|e| format!("{e} at {}", e.instance_path()))
        .collect();
    assert!(
        errors.is_empty(),
        "the {} does not follow docs/schemas/{}.schema.json: {errors:#?}",
        document.name(),
        document.name()
    );
}

/// Every object schema with properties in `schema` takes no others, but
/// the definitions in `extended`: a schema that adds properties to one of
/// them (a tag beside a `$ref`) is strict for both, and the definition on
/// its own would refuse the tag.
fn strict(schema: &mut Value, extended: &[String]) {
    if let Some(defs) = schema.get_mut("$defs").and_then(Value::as_object_mut) {
        for (name, def) in defs.iter_mut() {
            if extended.contains(&format!("#/$defs/{name}")) {
                if let Some(map) = def.as_object_mut() {
                    map.values_mut().for_each(strict_everywhere);
                }
                continue;
            }
            strict_everywhere(def);
        }
    }
    if let Some(map) = schema.as_object_mut() {
        for (key, value) in map.iter_mut() {
            if key != "$defs" {
                strict_everywhere(value);
            }
        }
        map.insert("unevaluatedProperties".into(), Value::Bool(false));
    }
}

fn strict_everywhere(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.contains_key("properties") {
                map.insert("unevaluatedProperties".into(), Value::Bool(false));
            }
            map.values_mut().for_each(strict_everywhere);
        }
        Value::Array(items) => items.iter_mut().for_each(strict_everywhere),
        _ => {}
    }
}

/// The `$ref`s in `schema` that sit beside properties of their own.
fn extended_refs(schema: &Value, found: &mut Vec<String>) {
    match schema {
        Value::Object(map) => {
            if let (Some(Value::String(target)), true) =
                (map.get("$ref"), map.contains_key("properties"))
            {
                found.push(target.clone());
            }
            map.values().for_each(|v| extended_refs(v, found));
        }
        Value::Array(items) => items.iter().for_each(|v| extended_refs(v, found)),
        _ => {}
    }
}
