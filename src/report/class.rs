//! The class's mistakes: how many students each known mistake is named
//! for, counted once over a report's data, so that every renderer (the
//! human report, the step summary, an HTML page) shows the same counts.
//!
//! The rule: a student counts once for each mistake their report names
//! exactly, alone or as one of two made together; two made together also
//! count once for their pair. A closest mistake (`exact: false`) names
//! nothing, so it is counted with the wrong answers no known mistake
//! explains. The share is of the students judged: a submission the grader
//! failed on was never judged, and is in no count.

use super::{Report, SubmissionReport};
use crate::judge::Verdict;
use serde::Serialize;
use std::collections::BTreeMap;

/// The mistakes of a class, for its table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassMistakes {
    /// Students judged: every submission but those the grader failed on.
    pub judged: usize,
    /// Every mistake named, most students first (then by id).
    pub mistakes: Vec<MistakeCount>,
    /// Every pair of mistakes named together, most students first.
    pub pairs: Vec<PairCount>,
    /// Students with wrong answers no known mistake explains exactly (none
    /// named, or only a closest one).
    pub unexplained: usize,
    /// Students whose answers changed between runs (no mistake is named
    /// for them).
    pub nondeterministic: usize,
    /// Submissions the grader failed on: not judged, in no count.
    pub not_judged: usize,
}

/// One mistake and the students it is named for.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MistakeCount {
    pub id: String,
    pub title: String,
    /// Students it is named for, alone or with another.
    pub students: usize,
    /// Of those, the students for whom it is named with another.
    pub together: usize,
}

/// Two mistakes named together, in the order the reports name them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairCount {
    /// The ids of the two.
    pub ids: [String; 2],
    pub titles: [String; 2],
    pub students: usize,
}

impl ClassMistakes {
    /// Whether there is nothing to tabulate: no mistake, pair, unexplained
    /// or changing answer.
    pub fn is_empty(&self) -> bool {
        self.mistakes.is_empty()
            && self.pairs.is_empty()
            && self.unexplained == 0
            && self.nondeterministic == 0
    }
}

/// The ids of the mistakes a submission's report names exactly: one, two
/// made together, or none.
pub fn named_ids(s: &SubmissionReport) -> Vec<&str> {
    match &s.mistake {
        Some(m) if m.exact && s.verdict != Verdict::GraderFault => std::iter::once(m.id.as_str())
            .chain(m.with.as_ref().map(|w| w.id.as_str()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Counts the mistakes of `report`'s students by the rule of this module.
pub fn class_mistakes(report: &Report) -> ClassMistakes {
    let mut counts: BTreeMap<String, MistakeCount> = BTreeMap::new();
    let mut pairs: BTreeMap<[String; 2], PairCount> = BTreeMap::new();
    let mut summary = ClassMistakes {
        judged: 0,
        mistakes: Vec::new(),
        pairs: Vec::new(),
        unexplained: 0,
        nondeterministic: 0,
        not_judged: 0,
    };
    for s in &report.submissions {
        if s.verdict == Verdict::GraderFault {
            summary.not_judged += 1;
            continue;
        }
        summary.judged += 1;
        if s.nondeterministic.is_some() {
            summary.nondeterministic += 1;
        }
        let exact = s.mistake.as_ref().filter(|m| m.exact);
        let Some(m) = exact else {
            let wrong = s.unexplained || s.mistake.is_some();
            if wrong && s.nondeterministic.is_none() {
                summary.unexplained += 1;
            }
            continue;
        };
        for n in m.named() {
            let row = counts.entry(n.id.clone()).or_insert_with(|| MistakeCount {
                id: n.id.clone(),
                title: n.title.clone(),
                students: 0,
                together: 0,
            });
            row.students += 1;
            if m.with.is_some() {
                row.together += 1;
            }
        }
        if let Some(w) = &m.with {
            let pair = pairs
                .entry([m.id.clone(), w.id.clone()])
                .or_insert_with(|| PairCount {
                    ids: [m.id.clone(), w.id.clone()],
                    titles: [m.title.clone(), w.title.clone()],
                    students: 0,
                });
            pair.students += 1;
        }
    }
    summary.mistakes = counts.into_values().collect();
    summary
        .mistakes
        .sort_by(|a, b| b.students.cmp(&a.students).then_with(|| a.id.cmp(&b.id)));
    summary.pairs = pairs.into_values().collect();
    summary
        .pairs
        .sort_by(|a, b| b.students.cmp(&a.students).then_with(|| a.ids.cmp(&b.ids)));
    summary
}

/// `part` of `whole` as a percentage for people, to one decimal, rounded
/// half up from the exact value (`2` of `7` is `28.6%`).
pub fn share(part: usize, whole: usize) -> String {
    let whole = whole.max(1) as u128;
    let tenths = (part as u128 * 2000 + whole) / (2 * whole);
    match tenths % 10 {
        0 => format!("{}%", tenths / 10),
        d => format!("{}.{d}%", tenths / 10),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn class() -> Report {
        serde_json::from_str(include_str!("../../tests/fixtures/reports/vnode-ring.json")).unwrap()
    }

    #[test]
    fn shares_are_rounded_once() {
        assert_eq!(share(2, 7), "28.6%");
        assert_eq!(share(1, 3), "33.3%");
        assert_eq!(share(3, 3), "100%");
        assert_eq!(share(1, 8), "12.5%");
        assert_eq!(share(0, 0), "0%");
    }

    #[test]
    fn a_pair_counts_for_each_of_its_mistakes_and_for_itself() {
        let report = class();
        let summary = class_mistakes(&report);
        // Derived from the fixture's own submissions, one at a time.
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        let mut pairs = 0;
        for s in &report.submissions {
            let ids = named_ids(s);
            pairs += usize::from(ids.len() == 2);
            for id in ids {
                *expected.entry(id.to_owned()).or_default() += 1;
            }
        }
        assert!(pairs > 0, "the fixture has two mistakes made together");
        let counted: BTreeMap<String, usize> = summary
            .mistakes
            .iter()
            .map(|m| (m.id.clone(), m.students))
            .collect();
        assert_eq!(counted, expected);
        assert_eq!(
            summary.pairs.iter().map(|p| p.students).sum::<usize>(),
            pairs
        );
        assert_eq!(summary.judged, report.submissions.len());
    }

    #[test]
    fn a_grader_fault_is_in_no_count_and_a_closest_mistake_names_nothing() {
        let mut report = class();
        let n = report.submissions.len();
        let named = report
            .submissions
            .iter()
            .position(|s| s.mistake.as_ref().is_some_and(|m| m.exact))
            .unwrap();
        let before = class_mistakes(&report);
        report.submissions[named].verdict = Verdict::GraderFault;
        let faulted = class_mistakes(&report);
        assert_eq!((faulted.judged, faulted.not_judged), (n - 1, 1));
        let total = |c: &ClassMistakes| c.mistakes.iter().map(|m| m.students).sum::<usize>();
        assert!(total(&faulted) < total(&before));
        report.submissions[named].verdict = Verdict::WrongAnswer;
        report.submissions[named].mistake.as_mut().unwrap().exact = false;
        let closest = class_mistakes(&report);
        assert_eq!(closest.unexplained, before.unexplained + 1);
        assert!(total(&closest) < total(&before));
    }
}
