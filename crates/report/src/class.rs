//! A class's numbers, counted once from the report for every format that
//! shows them (the human report, the step summary, the gradebook, the HTML
//! page): how many students got each verdict, how their scores spread,
//! which known mistakes they made and which tests they fail. Pure
//! functions of the report: no format computes them again.
//!
//! The mistakes' rule: a student counts once for each mistake their report
//! names exactly, alone or as one of two (or three) made together; those
//! made together also count once for their combination. A closest mistake (`exact: false`)
//! names nothing, so it is counted with the wrong answers no known mistake
//! explains. The share is of the students judged: a submission the grader
//! failed on was never judged, and is in no count.

use super::{Points, Report, SubmissionReport};
use crate::contract::Verdict;
use serde::Serialize;
use std::collections::BTreeMap;

/// Every verdict, in the order reports list them.
pub const VERDICTS: [Verdict; 9] = [
    Verdict::Accepted,
    Verdict::WrongAnswer,
    Verdict::RuntimeError,
    Verdict::TimeLimit,
    Verdict::MemoryLimit,
    Verdict::OutputLimit,
    Verdict::ProtocolError,
    Verdict::CompileError,
    Verdict::GraderFault,
];

/// How many submissions got each verdict, every verdict listed (zero
/// counts included), in [`VERDICTS`] order.
pub fn verdict_counts(report: &Report) -> Vec<(Verdict, usize)> {
    VERDICTS
        .iter()
        .map(|&v| {
            let n = report.submissions.iter().filter(|s| s.verdict == v).count();
            (v, n)
        })
        .collect()
}

/// Whether a submission has a score that says something about its code:
/// the grader's own fault on it is no score of the learner's.
pub fn scored(s: &SubmissionReport) -> bool {
    s.verdict != Verdict::GraderFault && s.points.graded()
}

/// The mean score of the scored submissions, exactly: the sum of their
/// points in units of 1/(denominator x count), so that it is rounded once
/// where it is shown. `None` when no submission was scored.
pub fn mean_points(report: &Report) -> Option<Points> {
    let scored: Vec<&Points> = report
        .submissions
        .iter()
        .filter(|s| scored(s))
        .map(|s| &s.points)
        .collect();
    let first = scored.first()?;
    let count = scored.len() as u64;
    if scored.iter().any(|p| p.denominator != first.denominator) {
        // Reports of one run share their unit; merged ones are refused
        // otherwise. Counted in a common unit all the same.
        let unit = scored.iter().fold(1u64, |a, p| lcm(a, p.denominator));
        let (earned, total) = scored.iter().fold((0, 0), |(e, t), p| {
            let k = unit / p.denominator;
            (e + p.earned.unwrap_or_default() * k, t + p.total * k)
        });
        return Some(Points::new(earned, total, unit * count));
    }
    let sum = Points::sum(scored.iter().copied(), first.denominator);
    Some(Points {
        denominator: first.denominator * count,
        ..sum
    })
}

fn lcm(a: u64, b: u64) -> u64 {
    let gcd = |mut x: u64, mut y: u64| {
        while y != 0 {
            (x, y) = (y, x % y);
        }
        x
    };
    a / gcd(a, b).max(1) * b
}

/// One bar of the score histogram: the scored submissions whose share of
/// the points is at least `from` percent and below `to` (the last bar,
/// 100, is full marks only).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bin {
    pub from: u32,
    pub to: u32,
    /// Indices into the report's submissions.
    pub students: Vec<usize>,
}

impl Bin {
    /// `0-9%`, ..., `90-99%`, `100%`.
    pub fn label(&self) -> String {
        if self.from == 100 {
            "100%".to_owned()
        } else {
            format!("{}-{}%", self.from, self.to - 1)
        }
    }
}

/// The scored submissions by share of the points, in eleven bins: ten of
/// ten percent each, then full marks, counted exactly from the points.
pub fn histogram(report: &Report) -> Vec<Bin> {
    let mut bins: Vec<Bin> = (0..=10)
        .map(|i| Bin {
            from: i * 10,
            to: if i == 10 { 101 } else { i * 10 + 10 },
            students: Vec::new(),
        })
        .collect();
    for (i, s) in report.submissions.iter().enumerate() {
        let Some(earned) = s.points.earned.filter(|_| scored(s)) else {
            continue;
        };
        if s.points.total == 0 {
            continue;
        }
        let (earned, total) = (
            u128::from(earned.min(s.points.total)),
            u128::from(s.points.total),
        );
        let bin = if earned == total {
            10
        } else {
            (earned * 10 / total) as usize
        };
        bins[bin].students.push(i);
    }
    bins
}

/// The mistakes of a class, for its table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ClassMistakes {
    /// Students judged: every submission but those the grader failed on.
    pub judged: usize,
    /// Every mistake named, most students first (then by id).
    pub mistakes: Vec<MistakeCount>,
    /// Every two (or three) mistakes named together, most students first.
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
    /// The students it is named for, alone or with another: indices into
    /// the report's submissions, in report order.
    pub students: Vec<usize>,
    /// Of those, the students for whom it is named with another.
    pub together: usize,
}

/// Two or three mistakes named together, in the order the reports name
/// them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PairCount {
    /// The ids of the two (or three).
    pub ids: Vec<String>,
    pub titles: Vec<String>,
    /// Indices into the report's submissions, in report order.
    pub students: Vec<usize>,
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
/// or three made together, or none.
pub fn named_ids(s: &SubmissionReport) -> Vec<&str> {
    match &s.mistake {
        Some(m) if m.exact && s.verdict != Verdict::GraderFault => std::iter::once(m.id.as_str())
            .chain(m.with.as_ref().map(|w| w.id.as_str()))
            .chain(m.third.as_ref().map(|w| w.id.as_str()))
            .collect(),
        _ => Vec::new(),
    }
}

/// Counts the mistakes of `report`'s students by the rule of this module.
pub fn class_mistakes(report: &Report) -> ClassMistakes {
    let mut counts: BTreeMap<String, MistakeCount> = BTreeMap::new();
    let mut pairs: BTreeMap<Vec<String>, PairCount> = BTreeMap::new();
    let mut summary = ClassMistakes {
        judged: 0,
        mistakes: Vec::new(),
        pairs: Vec::new(),
        unexplained: 0,
        nondeterministic: 0,
        not_judged: 0,
    };
    for (i, s) in report.submissions.iter().enumerate() {
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
        let named = m.named();
        for n in &named {
            let row = counts.entry(n.id.clone()).or_insert_with(|| MistakeCount {
                id: n.id.clone(),
                title: n.title.clone(),
                students: Vec::new(),
                together: 0,
            });
            row.students.push(i);
            if named.len() > 1 {
                row.together += 1;
            }
        }
        if named.len() > 1 {
            let ids: Vec<String> = named.iter().map(|n| n.id.clone()).collect();
            let pair = pairs.entry(ids.clone()).or_insert_with(|| PairCount {
                ids,
                titles: named.iter().map(|n| n.title.clone()).collect(),
                students: Vec::new(),
            });
            pair.students.push(i);
        }
    }
    summary.mistakes = counts.into_values().collect();
    summary
        .mistakes
        .sort_by(|a, b| (b.students.len().cmp(&a.students.len())).then_with(|| a.id.cmp(&b.id)));
    summary.pairs = pairs.into_values().collect();
    summary
        .pairs
        .sort_by(|a, b| (b.students.len().cmp(&a.students.len())).then_with(|| a.ids.cmp(&b.ids)));
    summary
}

/// The lines under a class's mistake table, for every renderer that
/// writes them as sentences: the students with wrong answers no known
/// mistake explains, and those whose answers change between runs, each
/// with its share (none when there are none).
pub fn other_students(c: &ClassMistakes) -> Vec<String> {
    let students = |n: usize| grading::counted(n, "student");
    let mut lines = Vec::new();
    if c.unexplained > 0 {
        lines.push(format!(
            "{} with wrong answers no known mistake explains ({})",
            students(c.unexplained),
            share(c.unexplained, c.judged)
        ));
    }
    if c.nondeterministic > 0 {
        lines.push(format!(
            "{} whose answers change between runs ({}; no mistake is named for them)",
            students(c.nondeterministic),
            share(c.nondeterministic, c.judged)
        ));
    }
    lines
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

/// A test and the scored students who fail it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestFailures {
    pub group: String,
    pub name: String,
    /// Indices into the report's submissions, in report order.
    pub students: Vec<usize>,
    /// How many scored submissions ran it.
    pub graded: usize,
}

impl TestFailures {
    /// The test's id, `group/name`.
    pub fn id(&self) -> grading::TestId<'_> {
        grading::TestId {
            group: &self.group,
            name: &self.name,
        }
    }
}

/// Every test at least one scored student fails, most students first
/// (then in the suite's order).
pub fn failing_tests(report: &Report) -> Vec<TestFailures> {
    let mut tests: Vec<TestFailures> = Vec::new();
    for (i, s) in report.submissions.iter().enumerate() {
        if !scored(s) {
            continue;
        }
        for t in &s.tests {
            let index = match tests
                .iter()
                .position(|u| u.group == t.group && u.name == t.name)
            {
                Some(index) => index,
                None => {
                    tests.push(TestFailures {
                        group: t.group.clone(),
                        name: t.name.clone(),
                        students: Vec::new(),
                        graded: 0,
                    });
                    tests.len() - 1
                }
            };
            tests[index].graded += 1;
            if t.verdict != Verdict::Accepted {
                tests[index].students.push(i);
            }
        }
    }
    tests.retain(|t| !t.students.is_empty());
    // A stable sort keeps the suite's order among equal counts.
    tests.sort_by_key(|t| std::cmp::Reverse(t.students.len()));
    tests
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(fixture: &str) -> Report {
        let path = format!(
            "{}/tests/fixtures/reports/{fixture}.json",
            concat!(env!("CARGO_MANIFEST_DIR"), "/../..")
        );
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
    }

    #[test]
    fn the_batch_fixture_counts_as_its_students_were_graded() {
        // The class of regenerate.sh: ada, ada.py, ben and zed.py correct;
        // cy and dee ünï with the lowest score; gus without code.
        let r = report("batch");
        let counts = verdict_counts(&r);
        let count = |v| counts.iter().find(|(w, _)| *w == v).unwrap().1;
        assert_eq!(count(Verdict::Accepted), 4);
        assert_eq!(count(Verdict::WrongAnswer), 2);
        assert_eq!(count(Verdict::CompileError), 1);
        assert_eq!(counts.iter().map(|(_, n)| n).sum::<usize>(), 7);

        let names = |students: &[usize]| -> Vec<&str> {
            students
                .iter()
                .map(|&i| r.submissions[i].name.as_str())
                .collect()
        };
        let mistakes = class_mistakes(&r).mistakes;
        assert_eq!(mistakes.len(), 1);
        assert_eq!(mistakes[0].id, "lowest-score");
        assert_eq!(names(&mistakes[0].students), ["cy", "dee ünï"]);

        let bins = histogram(&r);
        assert_eq!(bins.len(), 11);
        assert_eq!(
            names(&bins[10].students),
            ["ada", "ada.py", "ben", "zed.py"]
        );
        // 120 of 480 points: 25%.
        assert_eq!(names(&bins[2].students), ["cy", "dee ünï"]);
        assert_eq!(names(&bins[0].students), ["gus"]);
        assert_eq!(bins.iter().map(|b| b.students.len()).sum::<usize>(), 7);
        assert_eq!(
            (bins[0].label(), bins[10].label()),
            ("0-9%".into(), "100%".into())
        );

        // The lowest score passes the tie alone (its two nodes tie), gus
        // passes nothing: six tests fail for three, one for gus only,
        // in the suite's order.
        let failing = failing_tests(&r);
        assert_eq!(failing.len(), 7);
        for t in &failing[..6] {
            assert_eq!(names(&t.students), ["cy", "dee ünï", "gus"], "{t:?}");
            assert_eq!(t.graded, 7);
        }
        assert_eq!(failing[0].name, "sample-1-keys-spread-over-three-nodes");
        assert_eq!(failing[5].name, "grow-and-shrink");
        assert_eq!(
            (failing[6].name.as_str(), names(&failing[6].students)),
            ("tied-pair-alone", vec!["gus"])
        );
    }

    #[test]
    fn the_mean_is_exact_and_leaves_out_the_graders_faults() {
        let mut r = report("batch");
        let mean = mean_points(&r).unwrap();
        let all: u64 = r.submissions.iter().filter_map(|s| s.points.earned).sum();
        let d = r.submissions[0].points.denominator;
        assert_eq!((mean.earned, mean.denominator), (Some(all), d * 7));
        // A grader fault is no score of the learner's.
        r.submissions[0].verdict = Verdict::GraderFault;
        let earned = r.submissions[0].points.earned.unwrap();
        let mean = mean_points(&r).unwrap();
        assert_eq!((mean.earned, mean.denominator), (Some(all - earned), d * 6));
        // Nor are points never judged, whatever the verdict says.
        r.submissions[0].verdict = Verdict::WrongAnswer;
        r.submissions[0].points = r.submissions[0].points.not_graded();
        let mean = mean_points(&r).unwrap();
        assert_eq!((mean.earned, mean.denominator), (Some(all - earned), d * 6));
        assert_eq!(histogram(&r)[10].students.len(), 3);
        r.submissions.retain(|s| s.verdict == Verdict::GraderFault);
        assert_eq!(mean_points(&r), None);
    }

    #[test]
    fn a_pair_of_mistakes_counts_for_both_and_a_closest_one_for_neither() {
        // vnode-ring: bisect_right's strictly-after, remove_while_iterating's
        // partial-removal, after_partial_removal's two together, and
        // three_slips's three (those two and no-wrap).
        let r = report("vnode-ring");
        let counted: Vec<(String, usize)> = class_mistakes(&r)
            .mistakes
            .into_iter()
            .map(|m| (m.id, m.students.len()))
            .collect();
        assert_eq!(
            counted,
            // Most students first, then by id.
            [
                ("partial-removal".into(), 3),
                ("strictly-after".into(), 3),
                ("no-wrap".into(), 1)
            ]
        );
        let mut r = r;
        for s in &mut r.submissions {
            if let Some(m) = &mut s.mistake {
                m.exact = false;
            }
        }
        assert!(class_mistakes(&r).mistakes.is_empty());
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
    fn a_combination_counts_for_each_of_its_mistakes_and_for_itself() {
        let report = report("vnode-ring");
        let summary = class_mistakes(&report);
        // Derived from the fixture's own submissions, one at a time.
        let mut expected: BTreeMap<String, usize> = BTreeMap::new();
        let mut pairs = 0;
        for s in &report.submissions {
            let ids = named_ids(s);
            pairs += usize::from(ids.len() > 1);
            for id in ids {
                *expected.entry(id.to_owned()).or_default() += 1;
            }
        }
        assert!(
            pairs > 1,
            "the fixture has two and three mistakes made together"
        );
        let counted: BTreeMap<String, usize> = summary
            .mistakes
            .iter()
            .map(|m| (m.id.clone(), m.students.len()))
            .collect();
        assert_eq!(counted, expected);
        assert_eq!(
            summary
                .pairs
                .iter()
                .map(|p| p.students.len())
                .sum::<usize>(),
            pairs
        );
        let sizes: Vec<usize> = summary.pairs.iter().map(|p| p.ids.len()).collect();
        assert!(sizes.contains(&2) && sizes.contains(&3), "{sizes:?}");
        assert_eq!(summary.judged, report.submissions.len());
    }

    #[test]
    fn a_grader_fault_is_in_no_count_and_a_closest_mistake_names_nothing() {
        let mut report = report("vnode-ring");
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
        let total = |c: &ClassMistakes| c.mistakes.iter().map(|m| m.students.len()).sum::<usize>();
        assert!(total(&faulted) < total(&before));
        report.submissions[named].verdict = Verdict::WrongAnswer;
        report.submissions[named].mistake.as_mut().unwrap().exact = false;
        let closest = class_mistakes(&report);
        assert_eq!(closest.unexplained, before.unexplained + 1);
        assert!(total(&closest) < total(&before));
    }
}
