//! What a submission's own h32 returned, shown as its language writes it
//! (`tests/fixtures/submissions/h32_values/`): an integer past 64 bits to
//! its last digit, never rounded to a float, and the right value in
//! another type (a BigInt, a float) told as such.

use crate::support::{grader, json, output, root, trimmed_challenges};
use serde_json::Value;
use std::path::Path;

/// The JSON report and the human one of grading `file` on the shipped
/// suite, its large cases [`trimmed_challenges`]' (a value is shown as
/// it is whatever the case's size).
fn reports(file: &Path) -> (Value, String) {
    let grade = || {
        let mut command = grader();
        command
            .arg("--challenges")
            .arg(trimmed_challenges())
            .arg("grade");
        command
    };
    let out = output(grade().args(["--format", "json"]).arg(file));
    let report: Value = json(&out);
    let human = output(grade().args(["--color", "never"]).arg(file));
    (report, String::from_utf8(human.stdout).unwrap())
}

/// The pinned hash with its finalizer's products left unmasked, as a
/// Python int grows: exact in 128 bits.
fn unmasked_finalizer(text: &str) -> u128 {
    let mut h: u128 = 2166136261;
    for b in text.bytes() {
        h = ((h ^ u128::from(b)) * 16777619) & 0xFFFF_FFFF;
    }
    h ^= h >> 16;
    h *= 0x85eb_ca6b;
    h ^= h >> 13;
    h *= 0xc2b2_ae35;
    h ^ (h >> 16)
}

#[test]
fn a_python_h32_past_64_bits_is_shown_to_its_last_digit() {
    let (report, human) = reports(&root().join("submissions/python/finalizer_unmasked.py"));
    let mismatch = &report["submissions"][0]["h32"]["first_mismatch"];
    let text = mismatch["text"].as_str().unwrap();
    let exact = unmasked_finalizer(text);
    assert!(exact > u128::from(u64::MAX), "{text:?} gives {exact}");
    assert_eq!(mismatch["yours"], Value::from(exact.to_string()));
    assert!(human.contains(&format!("yours gave {exact}\n")), "{human}");
    // The score tables show every digit too, in a column as wide as they.
    assert!(!human.contains("e+"), "{human}");
}

#[test]
fn the_right_value_as_a_bigint_or_a_float_is_told_apart_from_a_wrong_one() {
    let dir = root().join("tests/fixtures/submissions/h32_values");
    for (file, suffix) in [("bigint.js", "n"), ("float.py", ".0")] {
        let (report, human) = reports(&dir.join(file));
        let submission = &report["submissions"][0];
        // Its routes are right: only its h32's type is wrong.
        assert_eq!(submission["verdict"], "accepted", "{file}");
        let mismatch = &submission["h32"]["first_mismatch"];
        let text = mismatch["text"].as_str().unwrap();
        let pinned = reference::h32(text);
        assert_eq!(mismatch["pinned"], pinned, "{file}");
        assert_eq!(mismatch["yours"], format!("{pinned}{suffix}"), "{file}");
        assert!(
            human.contains(&format!(
                "yours gave {pinned}{suffix}: the right value, but not an integer"
            )),
            "{file}: {human}"
        );
    }
    // A wrong value in another type is no such thing.
    let (_, human) = reports(&root().join("submissions/python/finalizer_unmasked.py"));
    assert!(!human.contains("the right value"), "{human}");
}
