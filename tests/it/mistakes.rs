//! The known mistakes checked independently: the JavaScript `*` variant
//! against Node itself running the mistaken code, and `grader audit` on the
//! shipped suite and on one with a gap.

use crate::support::{copy_tree, grader, json, output, root, tempdir};
use reference::mistakes::Product::{self, FloatSigned, FloatUnsigned, Integer};
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// Texts of every kind: empty, ASCII, the spec's, Cyrillic, astral, long.
const TEXTS: [&str; 10] = [
    "",
    "a",
    "hello",
    "A#0",
    "cache-1:user:1",
    "ключ",
    "🙂 emoji",
    "node-522789:key-0",
    "a text long enough for every product of the loop to exceed 2^53",
    "9",
];

/// Node's values for [`TEXTS`] of the JavaScript function `h32` in `body`
/// (the learner's code, run by Node itself: the oracle).
fn node_h32(body: &str) -> Vec<u64> {
    let script = format!(
        "const texts = JSON.parse(process.argv[1]);\n{body}\nconsole.log(JSON.stringify(texts.map(h32)));"
    );
    let out = Command::new("node")
        .args(["-e", &script, &serde_json::to_string(&TEXTS).unwrap()])
        .output()
        .expect("node runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    json(&out)
}

/// The pinned hash with its three products (the loop's, the finalizer's
/// two) computed as `products` says, on every text of [`TEXTS`].
fn ours(products: [Product; 3]) -> Vec<u64> {
    TEXTS
        .iter()
        .map(|t| u64::from(reference::mistakes::arithmetic_h32(t, products)))
        .collect()
}

/// The learner's function, run by Node, gives the model's values for its
/// products, and those part from the pinned hash.
fn is_what_node_computes(body: &str, products: [Product; 3]) {
    let node = node_h32(body);
    assert_eq!(ours(products), node, "{products:?}");
    assert!(
        TEXTS
            .iter()
            .zip(&node)
            .any(|(t, &n)| n != u64::from(reference::h32(t))),
        "{products:?} is the pinned hash"
    );
}
#[test]
fn the_float_multiply_variant_is_what_node_computes() {
    is_what_node_computes(
        r#"function h32(text) {
          let h = 2166136261;
          for (const b of Buffer.from(text, 'utf8')) { h ^= b; h = (h * 16777619) >>> 0; }
          h ^= h >>> 16; h = (h * 0x85ebca6b) >>> 0;
          h ^= h >>> 13; h = (h * 0xc2b2ae35) >>> 0;
          h ^= h >>> 16; return h >>> 0;
        }"#,
        [FloatSigned; 3],
    );
}

/// `*` everywhere with every operand kept unsigned: other bits are lost
/// than of the signed operands `^` leaves.
#[test]
fn the_unsigned_float_variant_is_what_node_computes() {
    is_what_node_computes(
        r#"function h32(text) {
          let h = 2166136261;
          for (const b of Buffer.from(text, 'utf8')) { h = (h ^ b) >>> 0; h = (h * 16777619) % 4294967296; }
          h = (h ^ (h >>> 16)) >>> 0; h = (h * 0x85ebca6b) % 4294967296;
          h = (h ^ (h >>> 13)) >>> 0; h = (h * 0xc2b2ae35) % 4294967296;
          h = (h ^ (h >>> 16)) >>> 0; return h;
        }"#,
        [FloatUnsigned; 3],
    );
    assert_ne!(ours([FloatUnsigned; 3]), ours([FloatSigned; 3]));
}

/// `*` in the loop only, the widely copied line, beside a finalizer with
/// `Math.imul`; and the same loop over unsigned operands.
#[test]
fn the_float_loop_variants_are_what_node_computes() {
    let finalizer = r#"
          h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b);
          h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35);
          h ^= h >>> 16; return h >>> 0;
        }"#;
    is_what_node_computes(
        &format!(
            r#"function h32(text) {{
          let hash = 0x811c9dc5;
          for (const b of new TextEncoder().encode(text)) {{ hash ^= b; hash = (hash * 16777619) >>> 0; }}
          let h = hash; {finalizer}"#
        ),
        [FloatSigned, Integer, Integer],
    );
    is_what_node_computes(
        &format!(
            r#"function h32(text) {{
          let h = 0x811c9dc5;
          for (const b of new TextEncoder().encode(text)) h = (((h ^ b) >>> 0) * 16777619) % 2 ** 32; {finalizer}"#
        ),
        [FloatUnsigned, Integer, Integer],
    );
}

#[test]
fn the_float_finalizer_variants_are_what_node_computes() {
    is_what_node_computes(
        r#"function h32(text) {
          let h = 0x811c9dc5;
          for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619);
          h ^= h >>> 16; h = (h * 0x85ebca6b) % 4294967296;
          h ^= h >>> 13; h = (h * 0xc2b2ae35) % 4294967296;
          h ^= h >>> 16; return h >>> 0;
        }"#,
        [Integer, FloatSigned, FloatSigned],
    );
    is_what_node_computes(
        r#"function h32(text) {
          let h = 0x811c9dc5;
          for (const b of Buffer.from(text, 'utf8')) h = Math.imul(h ^ b, 16777619);
          h = (h ^ (h >>> 16)) >>> 0; h = (h * 0x85ebca6b) >>> 0;
          h = (h ^ (h >>> 13)) >>> 0; h = (h * 0xc2b2ae35) >>> 0;
          return (h ^ (h >>> 16)) >>> 0;
        }"#,
        [Integer, FloatUnsigned, FloatUnsigned],
    );
    // Wrong from the empty text on: the finalizer alone parts.
    assert_ne!(
        reference::mistakes::arithmetic_h32("", [Integer, FloatSigned, FloatSigned]),
        reference::h32("")
    );
}

/// The composed hash of two wrong steps is what Node computes for the
/// code that makes both: UTF-16 units read by a loop of float products.
#[test]
fn a_hash_wrong_in_two_steps_is_what_node_computes() {
    let node = node_h32(
        r#"function h32(text) {
          let h = 2166136261;
          for (let i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = (h * 16777619) % 4294967296; }
          h ^= h >>> 16; h = (h * 0x85ebca6b) % 4294967296;
          h ^= h >>> 13; h = (h * 0xc2b2ae35) % 4294967296;
          h ^= h >>> 16; return h >>> 0;
        }"#,
    );
    let composed = reference::mistakes::hash_compositions()
        .iter()
        .find(|c| {
            c.steps.iter().map(|v| v.id).collect::<Vec<_>>() == ["float-multiply", "utf16-units"]
        })
        .expect("the two steps compose");
    let ours: Vec<u64> = TEXTS.iter().map(|t| u64::from(composed.h32(t))).collect();
    assert_eq!(ours, node);
    // Neither step alone gives those values.
    for step in ["float-multiply", "utf16-units"] {
        let alone = reference::mistakes::HASH_VARIANTS
            .iter()
            .find(|v| v.id == step)
            .unwrap();
        assert!(
            TEXTS.iter().any(
                |t| u64::from(alone.h32(t)) != node[TEXTS.iter().position(|x| x == t).unwrap()]
            )
        );
    }
}

fn audit(tests: Option<&Path>) -> (Option<i32>, Vec<Value>) {
    let mut command = grader();
    command.args(["audit", "--format", "json"]);
    if let Some(dir) = tests {
        command.arg("--tests").arg(dir);
    }
    let out = output(&mut command);
    let rows: Vec<Value> = crate::support::document(crate::support::Document::Audit, &out);
    (out.status.code(), rows)
}

#[test]
fn the_shipped_suite_catches_every_mistake_and_a_removed_test_shows_the_gap() {
    let (code, rows) = audit(None);
    assert_eq!(code, Some(0), "{rows:#?}");
    assert!(
        rows.iter()
            .all(|r| !r["caught_by"].as_array().unwrap().is_empty())
    );

    // A mistake caught by the fewest tests: remove them, and audit names it.
    let row = rows
        .iter()
        .min_by_key(|r| r["caught_by"].as_array().unwrap().len())
        .unwrap();
    let catching: Vec<&str> = row["caught_by"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect();
    let dir = tempdir();
    copy_tree(
        &root().join("challenges/rendezvous-router/tests"),
        dir.path(),
        |rel| {
            // Groups are folders of files: "group/stem.json" or
            // "group/stem.expected.json".
            let name = rel.to_str().unwrap();
            let stem = name.trim_end_matches(".json").trim_end_matches(".expected");
            !catching.contains(&stem)
        },
    );
    let (code, after) = audit(Some(dir.path()));
    assert_eq!(code, Some(1), "{after:#?}");
    let gaps: Vec<&Value> = after
        .iter()
        .filter(|r| r["caught_by"].as_array().unwrap().is_empty())
        .collect();
    assert!(
        gaps.iter()
            .any(|g| g["id"] == row["id"] && g["form"] == row["form"]),
        "{} is not named among the gaps {gaps:#?}",
        row["id"]
    );
}

/// A key that had no node (a null answer) is not said to move from a node
/// named null, nor null to have stayed: the property hint says it had none.
#[test]
fn a_property_hint_says_a_key_had_no_node_not_that_null_stayed() {
    let dir = crate::support::tempdir();
    let tests = dir.path().join("tests/edge");
    std::fs::create_dir_all(&tests).unwrap();
    std::fs::write(
        tests.join("c.json"),
        r#"[[["blue","red"]],[["route","page1"],["remove","red"],["route","page1"]]]"#,
    )
    .unwrap();
    // No node for any key until a node is removed.
    let router = crate::support::correct_class_with(
        dir.path(),
        "router.py",
        "_route = Router.route\n_remove = Router.remove\n\ndef _r(self, key):\n    return _route(self, key) if getattr(self, 'removed', False) else None\n\ndef _rm(self, node):\n    self.removed = True\n    return _remove(self, node)\n\nRouter.route = _r\nRouter.remove = _rm\n",
    );
    let out = crate::support::run(&[
        "grade",
        "--format",
        "json",
        "--tests",
        dir.path().join("tests").to_str().unwrap(),
        router.to_str().unwrap(),
    ]);
    let report: serde_json::Value = crate::support::json(&out);
    let hint = report["submissions"][0]["property"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("no property hint: {report:#}"))
        .to_owned();
    assert!(
        hint.contains(r#"key "page1" had no node, then "blue" when only "red" left"#),
        "{hint}"
    );
    assert!(!hint.contains("null"), "{hint}");
}
