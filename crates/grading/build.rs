//! Embeds the shipped challenges (challenges/*: challenge.toml, the
//! statement, the starters and the visible cases) into the grader, so that
//! a copied or installed binary grades with no checkout beside it. Writes
//! `$OUT_DIR/embedded_challenges.rs`: a table of every file's path and
//! bytes (through `include_bytes!`, so nothing is copied here) and a
//! SHA-256 of the whole set, which names the folder they are unpacked to.

#[path = "src/challenge/embedded/select.rs"]
mod select;

use sha2::{Digest, Sha256};
use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    // The shipped challenges are the workspace's, two folders up.
    let root = Path::new(&manifest).join("../../challenges");
    // A folder is scanned whole: any file added, changed or removed in it
    // rebuilds the table.
    println!("cargo:rerun-if-changed=../../challenges");
    println!("cargo:rerun-if-changed=src/challenge/embedded/select.rs");
    let found = select::challenges(&root)
        .unwrap_or_else(|e| panic!("cannot read the challenges in {}: {e}", root.display()));
    let mut hasher = Sha256::new();
    let mut table = String::from(
        "/// Every embedded file: its path under the challenges' folder, and its bytes.\n",
    );
    table.push_str("pub static FILES: &[(&str, &[u8])] = &[\n");
    for (id, selection) in &found {
        for warning in &selection.warnings {
            println!("cargo:warning={warning}");
        }
        for file in &selection.files {
            let path = file.split('/').fold(root.join(id), |p, part| p.join(part));
            let bytes = std::fs::read(&path)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let name = format!("{id}/{file}");
            // Each part with its length, so that no two sets share a digest.
            for part in [name.as_bytes(), &bytes] {
                hasher.update((part.len() as u64).to_le_bytes());
                hasher.update(part);
            }
            let absolute = path
                .to_str()
                .unwrap_or_else(|| panic!("{}: the path is not UTF-8", path.display()));
            writeln!(table, "    ({name:?}, include_bytes!({absolute:?})),").expect("a String");
        }
    }
    table.push_str("];\n");
    let digest: String = hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    writeln!(
        table,
        "/// A SHA-256 of every embedded file's path and bytes.\npub const DIGEST: &str = {digest:?};"
    )
    .expect("a String");
    let out = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("embedded_challenges.rs");
    std::fs::write(&out, table).unwrap_or_else(|e| panic!("cannot write {}: {e}", out.display()));
}
