//! A challenge's catalogue of mistakes, and the variants it runs.

use super::family::Family;
use super::knobs::Knobs;
use crate::operation::{Arg, Op};
use crate::text::Text;
use serde_json::Value;

/// A mistake a learner makes, as a change to a right solution's choices.
pub struct Mistake {
    /// A stable id, e.g. `lowest-score`.
    pub id: &'static str,
    /// One line, e.g. "keeps the lowest score", in words that hold for
    /// every language (no code): a class's table shows one title for the
    /// mistake, whatever its students wrote in.
    pub title: &'static str,
    /// What goes wrong, in words a learner understands.
    pub explanation: Text,
    /// How to fix it.
    pub hint: Text,
    /// Variations of the same mistake (the separator used, say); one empty
    /// label when there are none.
    pub forms: &'static [&'static str],
    /// Makes the mistake, in form `forms[form]`.
    pub(crate) tweak: fn(&mut Knobs, usize),
}

impl std::fmt::Debug for Mistake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Mistake")
            .field("id", &self.id)
            .finish_non_exhaustive()
    }
}

/// One mistake in one of its forms.
#[derive(Debug, Clone, Copy)]
pub struct Made {
    pub mistake: &'static Mistake,
    pub form: usize,
}

impl Made {
    /// The form's label, for a mistake with several.
    pub fn form_label(&self) -> Option<&'static str> {
        (self.mistake.forms.len() > 1).then(|| self.mistake.forms[self.form])
    }
}

/// A running variant. `Err` is an exception the mistaken code would raise.
pub(crate) trait Variant {
    fn apply(&mut self, op: &Op) -> Result<Value, String>;
}

/// How a variant ran a case: its answers, and where it raised, if it did.
#[derive(Debug, Clone, PartialEq)]
pub struct VariantRun {
    pub output: Vec<Value>,
    pub raised_at: Option<usize>,
}

/// A challenge's known mistakes, and how a solution that makes some of
/// them is built.
pub struct Catalogue {
    pub mistakes: &'static [Mistake],
    /// The right solution's choices.
    pub(crate) base: Knobs,
    /// A variant with these choices, from the constructor's arguments.
    pub(crate) build: fn(&[Arg], Knobs) -> Box<dyn Variant>,
}

impl std::fmt::Debug for Catalogue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.mistakes.iter().map(|m| m.id))
            .finish()
    }
}

impl Catalogue {
    /// Every mistake in every form, in the catalogue's order.
    pub fn each(&self) -> impl Iterator<Item = Made> + '_ {
        self.mistakes
            .iter()
            .flat_map(|mistake| (0..mistake.forms.len()).map(move |form| Made { mistake, form }))
    }

    /// Replays `ops` on a solution that makes every mistake of `made`.
    pub fn run(&self, made: &[Made], args: &[Arg], ops: &[Op]) -> VariantRun {
        let mut variant = (self.build)(args, self.knobs(made));
        let mut output = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            match variant.apply(op) {
                Ok(v) => output.push(v),
                Err(_) => {
                    return VariantRun {
                        output,
                        raised_at: Some(i),
                    };
                }
            }
        }
        VariantRun {
            output,
            raised_at: None,
        }
    }

    /// Every mistake in every form that changes the right solution.
    fn changes(&self) -> Vec<Made> {
        self.each()
            .filter(|m| self.solution(&[*m]) != self.solution(&[]))
            .collect()
    }

    /// Every two mistakes a learner can make together, in the catalogue's
    /// order: forms of different mistakes, each of which changes the right
    /// solution, that turn different knobs (so they commute) and together
    /// give a solution no one mistake gives.
    pub fn pairs(&self) -> Vec<[Made; 2]> {
        self.pairs_of(&self.changes())
    }

    /// [`Catalogue::pairs`] of `each`, the mistakes that change the right
    /// solution.
    fn pairs_of(&self, each: &[Made]) -> Vec<[Made; 2]> {
        // A pair that is some one mistake is that mistake.
        let singles: Vec<Knobs> = each.iter().map(|m| self.solution(&[*m])).collect();
        let mut pairs = Vec::new();
        for (i, &a) in each.iter().enumerate() {
            for &b in &each[i + 1..] {
                if self.commute(a, b) && !singles.contains(&self.solution(&[a, b])) {
                    pairs.push([a, b]);
                }
            }
        }
        pairs
    }

    /// Every three mistakes of what a solution does with its scores and
    /// nodes (not of the hash or the text it hashes), made together, in
    /// the catalogue's order: as for [`Catalogue::pairs`], each two
    /// commute, and together they give a solution no one or two mistakes
    /// give. The hash's and the text's mistakes stay out: each changes
    /// nearly every answer, so they show alone or in pairs, and with them
    /// in there would be thousands of triples to try.
    pub fn triples(&self) -> Vec<[Made; 3]> {
        let changes = self.changes();
        let mut fewer: Vec<Knobs> = changes.iter().map(|m| self.solution(&[*m])).collect();
        fewer.extend(
            self.pairs_of(&changes)
                .iter()
                .map(|pair| self.solution(pair)),
        );
        let each: Vec<Made> = changes
            .into_iter()
            .filter(|m| self.knobs(&[*m]).scores_like(&self.base))
            .collect();
        let mut triples = Vec::new();
        for (i, &a) in each.iter().enumerate() {
            for (j, &b) in each.iter().enumerate().skip(i + 1) {
                if !self.commute(a, b) {
                    continue;
                }
                for &c in &each[j + 1..] {
                    if self.commute(a, c)
                        && self.commute(b, c)
                        && !fewer.contains(&self.solution(&[a, b, c]))
                    {
                        triples.push([a, b, c]);
                    }
                }
            }
        }
        triples
    }

    /// Whether two forms of different mistakes turn different knobs, so
    /// either order of making them gives one solution.
    fn commute(&self, a: Made, b: Made) -> bool {
        a.mistake.id != b.mistake.id && self.knobs(&[a, b]) == self.knobs(&[b, a])
    }

    /// The family the mistakes of `candidates` belong to, when each alone
    /// turns one knob, the same one, and it has a family: what can be said
    /// when a suite's cases cannot tell which of them was made.
    pub fn family(&self, candidates: &[Made]) -> Option<Family> {
        let mut knobs = candidates
            .iter()
            .map(|m| self.solution(&[*m]).turned(&self.base));
        let first = knobs.next()?;
        let [knob] = first.as_slice() else {
            return None;
        };
        knobs.all(|turned| turned == first).then_some(())?;
        knob.family()
    }

    /// Whether a solution that makes the mistakes of `made` would give
    /// the values `own` of a learner's own h32: `own` holds each text
    /// asked with the value's 32 bits (`None` for a value no 32-bit
    /// integer is). Mistakes that leave the hash as pinned always would:
    /// a router can score with another function than the h32 it exports,
    /// and a wrong h32 is told by the h32 check. A hash mistake that
    /// would not is ruled out by the learner's own values.
    pub fn hash_fits(&self, made: &[Made], own: &[(&str, Option<u32>)]) -> bool {
        let hash = self.knobs(made).deciding().hash;
        hash == self.base.hash
            || own
                .iter()
                .all(|(text, bits)| *bits == Some(hash.of(&[text])))
    }

    /// Whether making the mistakes of `a` and those of `b` gives one
    /// solution.
    pub fn alike(&self, a: &[Made], b: &[Made]) -> bool {
        self.solution(a) == self.solution(b)
    }

    /// The solution that makes the mistakes of `made`: its knobs, those
    /// that then decide nothing set as a right solution has them.
    fn solution(&self, made: &[Made]) -> Knobs {
        self.knobs(made).deciding()
    }

    pub(crate) fn knobs(&self, made: &[Made]) -> Knobs {
        let mut knobs = self.base;
        for m in made {
            (m.mistake.tweak)(&mut knobs, m.form);
        }
        knobs
    }
}
