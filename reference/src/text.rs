//! Texts a learner reads (a mistake's title, explanation and hint, a wrong
//! step of h32), in the syntax of the language their code is written in.
//!
//! A text is either plain words that hold for every language, or written
//! once per [`Syntax`]: a new text cannot be added without its words for
//! every language, and no text shows one language's code to another's
//! learner (`tests/it/syntax_markers.txt` lists what gives each away).

/// The syntax a learner's code is written in, as far as a text's code
/// fragments go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Syntax {
    Python,
    /// JavaScript and TypeScript, whose code the texts share (every
    /// fragment is valid in both).
    JavaScript,
    Rust,
    /// A program in any language: words and the statement's notation
    /// (`h32(node + ":" + key)`, `2^32`), no code of any language.
    Words,
}

impl Syntax {
    /// Every syntax, in the order texts are written.
    pub const ALL: [Syntax; 4] = [
        Syntax::Python,
        Syntax::JavaScript,
        Syntax::Rust,
        Syntax::Words,
    ];

    /// Its name, as the marker lists head their sections.
    pub fn name(self) -> &'static str {
        match self {
            Syntax::Python => "python",
            Syntax::JavaScript => "javascript",
            Syntax::Rust => "rust",
            Syntax::Words => "words",
        }
    }
}

/// A text for a learner.
#[derive(Debug, Clone, Copy)]
pub enum Text {
    /// The same for every language: words and the statement's notation
    /// only, no code of any language.
    Plain(&'static str),
    /// One text per syntax, each with code of that syntax alone.
    Each {
        python: &'static str,
        /// For JavaScript and TypeScript alike: names neither language.
        javascript: &'static str,
        rust: &'static str,
        /// For a program in any language (see [`Syntax::Words`]).
        words: &'static str,
    },
}

impl Text {
    /// The text for code of `syntax`.
    pub const fn get(self, syntax: Syntax) -> &'static str {
        match self {
            Text::Plain(text) => text,
            Text::Each {
                python,
                javascript,
                rust,
                words,
            } => match syntax {
                Syntax::Python => python,
                Syntax::JavaScript => javascript,
                Syntax::Rust => rust,
                Syntax::Words => words,
            },
        }
    }
}

/// The marker lists of `tests/it/syntax_markers.txt`, read as the reports'
/// tests read them.
#[cfg(test)]
#[path = "../../tests/it/markers.rs"]
mod markers;

/// The markers of other languages than `syntax`'s that `text` shows, by
/// the marker lists of `tests/it/syntax_markers.txt`: what gives a
/// language's code (or its name) away. A marker `syntax`'s language has
/// too is its own, and so is one inside its own (`len(` in Rust's
/// `.len()`); a plain text and a text in words may show none at all.
#[cfg(test)]
pub(crate) fn foreign_in(text: &str, syntax: Syntax) -> Vec<&'static str> {
    markers::foreign_in(&markers::sections(markers::FILE), text, syntax.name())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_syntax_gets_its_own_text_and_plain_is_everyones() {
        let each = Text::Each {
            python: "p",
            javascript: "j",
            rust: "r",
            words: "w",
        };
        let got: Vec<&str> = Syntax::ALL.iter().map(|s| each.get(*s)).collect();
        assert_eq!(got, ["p", "j", "r", "w"]);
        assert!(Syntax::ALL.iter().all(|s| Text::Plain("x").get(*s) == "x"));
    }

    #[test]
    fn the_marker_file_has_every_language_and_a_foreign_section() {
        let sections = markers::sections(markers::FILE);
        for syntax in [Syntax::Python, Syntax::JavaScript, Syntax::Rust] {
            assert!(
                sections
                    .iter()
                    .any(|(n, m)| *n == syntax.name() && m.len() > 10),
                "{syntax:?}"
            );
        }
        // Python's markers are foreign to Rust, and `const ` (both
        // JavaScript's and Rust's) to Python only; Rust's `.len()` is no
        // Python `len(`.
        assert_eq!(foreign_in("`lambda n: n`", Syntax::Rust), ["lambda"]);
        assert_eq!(foreign_in("`const X: u8 = 1;`", Syntax::Python), ["const "]);
        assert!(foreign_in("`const X: u8 = 1;`", Syntax::Rust).is_empty());
        assert_eq!(foreign_in("`const X: u8 = 1;`", Syntax::Words), ["const "]);
        assert!(foreign_in("`ring.len()`", Syntax::Rust).is_empty());
        assert_eq!(foreign_in("`len(ring)`", Syntax::Rust), ["len("]);
    }

    #[test]
    fn a_marker_of_letters_matches_only_as_a_word() {
        use markers::shown;
        assert_eq!(shown("`bisect_left`", &["bisect"]), ["bisect"]);
        assert!(shown("JavaScript", &["Java"]).is_empty());
        assert!(shown("a model of", &["del "]).is_empty());
        assert_eq!(shown("`del nodes[0]`", &["del "]), ["del "]);
        assert!(shown("Uint8Array", &["Int8Array"]).is_empty());
        assert_eq!(shown("x >>> 0", &[">>> "]), [">>> "]);
    }
}
