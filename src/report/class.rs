//! A class's numbers, counted once from the report for every format that
//! shows them: how many students got each verdict, how their scores
//! spread, which named mistakes they made and which tests they fail.
//! Pure functions of the report: no format computes them again.

use super::{Points, Report, SubmissionReport};
use crate::judge::Verdict;

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
    s.verdict != Verdict::GraderFault
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
            (e + p.earned * k, t + p.total * k)
        });
        return Some(Points::new(earned, total, unit * count));
    }
    let sum = Points::sum(scored.iter().copied(), first.denominator);
    Some(Points::new(
        sum.earned,
        sum.total,
        first.denominator * count,
    ))
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
        if !scored(s) || s.points.total == 0 {
            continue;
        }
        let (earned, total) = (
            u128::from(s.points.earned.min(s.points.total)),
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

/// A known mistake and the students it was named for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MistakeCount {
    pub id: String,
    pub title: String,
    /// Indices into the report's submissions, in report order.
    pub students: Vec<usize>,
}

/// The class's named mistakes, most students first (then by id): a
/// mistake is named for a student when it reproduces every failure of
/// theirs (`exact`), alone or as one of two made together; the closest
/// mistake that does not is no diagnosis and is not counted.
pub fn named_mistakes(report: &Report) -> Vec<MistakeCount> {
    let mut counts: Vec<MistakeCount> = Vec::new();
    for (i, s) in report.submissions.iter().enumerate() {
        let Some(m) = s.mistake.as_ref().filter(|m| m.exact) else {
            continue;
        };
        for named in m.named() {
            match counts.iter_mut().find(|c| c.id == named.id) {
                Some(c) if !c.students.contains(&i) => c.students.push(i),
                Some(_) => {}
                None => counts.push(MistakeCount {
                    id: named.id,
                    title: named.title,
                    students: vec![i],
                }),
            }
        }
    }
    counts.sort_by(|a, b| {
        b.students
            .len()
            .cmp(&a.students.len())
            .then_with(|| a.id.cmp(&b.id))
    });
    counts
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
            env!("CARGO_MANIFEST_DIR")
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
        let mistakes = named_mistakes(&r);
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
        let all: u64 = r.submissions.iter().map(|s| s.points.earned).sum();
        let d = r.submissions[0].points.denominator;
        assert_eq!((mean.earned, mean.denominator), (all, d * 7));
        // A grader fault is no score of the learner's.
        r.submissions[0].verdict = Verdict::GraderFault;
        let earned = r.submissions[0].points.earned;
        let mean = mean_points(&r).unwrap();
        assert_eq!((mean.earned, mean.denominator), (all - earned, d * 6));
        assert_eq!(histogram(&r)[10].students.len(), 3);
        r.submissions.retain(|s| s.verdict == Verdict::GraderFault);
        assert_eq!(mean_points(&r), None);
    }

    #[test]
    fn a_pair_of_mistakes_counts_for_both_and_a_closest_one_for_neither() {
        // vnode-ring: bisect_right's strictly-after, remove_while_iterating's
        // partial-removal, and after_partial_removal's two together.
        let r = report("vnode-ring");
        let counted: Vec<(String, usize)> = named_mistakes(&r)
            .into_iter()
            .map(|m| (m.id, m.students.len()))
            .collect();
        assert_eq!(
            counted,
            // Two students each: by id.
            [("partial-removal".into(), 2), ("strictly-after".into(), 2)]
        );
        let mut r = r;
        for s in &mut r.submissions {
            if let Some(m) = &mut s.mistake {
                m.exact = false;
            }
        }
        assert!(named_mistakes(&r).is_empty());
    }
}
