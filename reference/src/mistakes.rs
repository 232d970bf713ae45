//! Known mistakes: the reference with one thing wrong, the way learners get
//! it wrong. The grader replays a failing submission's cases on each to
//! name the mistake, and authors audit a suite against them.
//!
//! A mistake is a change to the knobs, the choices a solution makes (which
//! hash, which score wins, which text is hashed...), and each challenge's
//! [`Catalogue`] builds a runnable variant from the knobs. Two mistakes that
//! turn different knobs can so be made together, as learners do.

//!
//! The children import one another from the leaf up and never this module:
//! `hash` (the wrong h32s) ← `knobs` ← `family` (the mistakes of one knob)
//! ← `catalogue` (mistakes and variants)
//! ← `shared` (the mistakes every challenge can make) ← one module of
//! variants and catalogues per kind of challenge.

mod catalogue;
mod family;
mod hash;
mod knobs;
mod ranking;
mod ring;
mod router;
mod shared;

use crate::text::Text;
pub use catalogue::{Catalogue, Made, Mistake, VariantRun};
pub use family::Family;
pub use hash::{
    ComposedHash, HASH_VARIANTS, HashVariant, MOST_STEPS, Product, SIGNED_RESULT, arithmetic_h32,
    hash_compositions,
};
pub(crate) use ranking::{HRW_TOP, WEIGHTED_HRW};
pub(crate) use ring::VNODE_RING;
pub(crate) use router::RENDEZVOUS;

/// Every text the catalogues may tell a learner, each with what it is:
/// every mistake's title, explanation and hint, every family's title and
/// hint, every wrong step of h32 and the signed result's. What the tests
/// of every report read to check that no learner is shown another
/// language's code.
pub fn learner_texts() -> Vec<(String, Text)> {
    let mut texts: Vec<(String, Text)> = Vec::new();
    for catalogue in [&RENDEZVOUS, &HRW_TOP, &WEIGHTED_HRW, &VNODE_RING] {
        for m in catalogue.mistakes {
            texts.push((format!("{} title", m.id), Text::Plain(m.title)));
            texts.push((format!("{} explanation", m.id), m.explanation));
            texts.push((format!("{} hint", m.id), m.hint));
        }
    }
    for f in family::KNOBS.iter().filter_map(|k| k.family()) {
        texts.push((format!("{} title", f.id), Text::Plain(f.title)));
        texts.push((format!("{} hint", f.id), f.hint));
    }
    for v in &HASH_VARIANTS {
        texts.push((format!("{} step", v.id), v.step));
    }
    texts.push(("signed result step".to_owned(), SIGNED_RESULT));
    texts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::{Syntax, foreign_in};

    /// Every text a learner may read of the catalogues, in every syntax,
    /// shows no other language's code: a Python learner reads no `>>> 0`,
    /// a program of any language no code at all.
    #[test]
    fn no_text_shows_another_languages_syntax() {
        let texts = learner_texts();
        let mut found = Vec::new();
        for syntax in Syntax::ALL {
            for (what, text) in &texts {
                let shown = foreign_in(text.get(syntax), syntax);
                if !shown.is_empty() {
                    found.push(format!("{what} for {syntax:?}: {shown:?}"));
                }
            }
        }
        assert!(found.is_empty(), "{}", found.join("\n"));
        // Each syntax's texts do show code of their own.
        let each = |syntax: Syntax| {
            texts
                .iter()
                .map(|(_, t)| t.get(syntax))
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert!(each(Syntax::JavaScript).contains("Math.imul"));
        assert!(each(Syntax::Python).contains("lambda"));
        assert!(each(Syntax::Rust).contains("wrapping_mul"));
    }

    /// Ways of turning one knob form its family; mistakes of two knobs,
    /// and a knob with one wrong setting, none.
    #[test]
    fn mistakes_of_one_knob_form_a_family() {
        let made = |catalogue: &Catalogue, id: &str, form: usize| {
            catalogue
                .each()
                .find(|m| m.mistake.id == id && m.form == form)
                .unwrap_or_else(|| panic!("{id} form {form}"))
        };
        let family = |catalogue: &Catalogue, ids: &[(&str, usize)]| {
            let made: Vec<Made> = ids.iter().map(|(id, f)| made(catalogue, id, *f)).collect();
            catalogue.family(&made).map(|f| f.id)
        };
        let r = &RENDEZVOUS;
        let ties = [("first-maximum", 0), ("ties-to-larger-name", 0)];
        assert_eq!(family(r, &ties), Some("ties-another-way"));
        let three = [ties[0], ties[1], ("last-maximum", 0)];
        assert_eq!(family(r, &three), Some("ties-another-way"));
        assert_eq!(
            family(r, &[("key-node-swapped", 0), ("no-separator", 0)]),
            Some("another-text-hashed")
        );
        assert_eq!(
            family(r, &[("utf16-units", 0), ("code-points", 0)]),
            Some("h32-another-way")
        );
        // Two knobs: nothing one fix puts right.
        assert_eq!(family(r, &[ties[0], ("lowest-score", 0)]), None);
        // The highest score made the lowest is the one way to turn it.
        assert_eq!(family(r, &[("lowest-score", 0)]), None);
        // Forms of one mistake are ways of one knob.
        assert_eq!(
            family(&VNODE_RING, &[("no-wrap", 1), ("no-wrap", 2)]),
            Some("past-the-end")
        );
        // Single precision is a way of making U: where the tests cannot
        // tell it from h32 / (2^32 - 1), U's knob is what they say.
        assert_eq!(
            family(
                &WEIGHTED_HRW,
                &[("wrong-unit-interval", 1), ("single-precision", 0)]
            ),
            Some("unit-another-way")
        );
        assert_eq!(
            family(
                &VNODE_RING,
                &[("wrong-point-text", 0), ("wrong-point-text", 1)]
            ),
            Some("another-point-text")
        );
        // No family takes a mistake's id: a report names one or the other.
        let ids: Vec<&str> = [&RENDEZVOUS, &HRW_TOP, &WEIGHTED_HRW, &VNODE_RING]
            .iter()
            .flat_map(|c| c.mistakes.iter().map(|m| m.id))
            .collect();
        for knob in family::KNOBS {
            if let Some(f) = knob.family() {
                assert!(!ids.contains(&f.id), "{} is a mistake's id", f.id);
            }
        }
    }

    /// Each wrong step the h32 check knows is the hash its catalogue
    /// mistake makes (the two are written apart: `hash` is the leaf).
    #[test]
    fn each_hash_variant_is_its_mistakes_hash() {
        let texts = [
            "",
            "a",
            "hello",
            "A#0",
            "é",
            "ключ",
            "🙂",
            "a longer text, past 2^53",
        ];
        for variant in &HASH_VARIANTS {
            let made = RENDEZVOUS
                .each()
                .find(|m| m.mistake.id == variant.id && m.form_label() == variant.form)
                .unwrap_or_else(|| panic!("{} is a rendezvous-router mistake", variant.id));
            let hash = RENDEZVOUS.knobs(&[made]).hash;
            for text in texts {
                assert_eq!(
                    hash.of(&[text]),
                    variant.h32(text),
                    "{} of {text:?}",
                    variant.id
                );
            }
        }
    }
}
