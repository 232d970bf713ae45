//! What changes between two gradings of a class: which students change
//! verdict or score, by how much, and the tests that flipped. The same
//! comparison serves `grader rejudge` (a results folder against grading it
//! again) and `grader compare` (two JSON reports).
//!
//! A submission the grader failed on (`grader-fault`) was not judged: it
//! is never a verdict change, but a student who "could not be judged".

mod render;

pub use crate::contract::tools::{ChangeKind, Changes, Standing, StudentChange};
pub use render::{render_changes, render_changes_json};

use super::{Points, SubmissionReport};
use crate::contract::Verdict;
use std::collections::{BTreeMap, BTreeSet};

impl Changes {
    /// Whether some student's verdict or score is other than it was, or a
    /// student comes or goes: what a run that applies the change would
    /// change in the gradebook.
    pub fn any(&self) -> bool {
        self.students.iter().any(|s| {
            matches!(
                s.kind,
                ChangeKind::Changed
                    | ChangeKind::Added
                    | ChangeKind::Removed
                    | ChangeKind::NowJudged
            )
        })
    }

    /// The students the later grading could not judge though the earlier
    /// one did: applying it would replace a real verdict with none.
    pub fn not_judged(&self) -> impl Iterator<Item = &StudentChange> {
        self.students
            .iter()
            .filter(|s| s.kind == ChangeKind::NotJudged)
    }
}

fn standing(s: &SubmissionReport) -> Standing {
    Standing {
        verdict: s.verdict,
        score: s.points.score(),
        max_score: s.points.max_score(),
        points: s.points,
        passed: s.passed,
        total: s.total,
    }
}

fn test_id(t: &super::TestReport) -> String {
    t.id().to_string()
}

/// Why the grader failed on `s`: its first test's message says it.
fn fault(s: &SubmissionReport) -> String {
    s.tests
        .first()
        .map_or_else(|| "the grader failed".to_owned(), |t| t.message.clone())
}

/// `a` and `b` as the same exact value: `earned/denominator` compared
/// across two runs, whose denominators may differ.
fn same_points(a: Points, b: Points) -> bool {
    let (ad, bd) = (u128::from(a.denominator), u128::from(b.denominator));
    a.earned.map(|e| u128::from(e) * bd) == b.earned.map(|e| u128::from(e) * ad)
        && u128::from(a.total) * bd == u128::from(b.total) * ad
}

fn by_name(reports: &[SubmissionReport]) -> BTreeMap<String, &SubmissionReport> {
    reports.iter().map(|s| (s.name.clone(), s)).collect()
}

fn fault_of(s: Option<&SubmissionReport>) -> Option<&SubmissionReport> {
    s.filter(|s| s.verdict == Verdict::GraderFault)
}

/// Compares the students of an earlier grading (`old`) with a later one
/// (`new`), matched by name.
pub fn compare(old: &[SubmissionReport], new: &[SubmissionReport]) -> Changes {
    let suite = |reports: &[SubmissionReport]| -> BTreeSet<String> {
        reports
            .iter()
            .flat_map(|s| s.tests.iter().map(test_id))
            .collect()
    };
    let (old_tests, new_tests) = (suite(old), suite(new));
    let (before, after) = (by_name(old), by_name(new));
    let names: BTreeSet<&String> = before.keys().chain(after.keys()).collect();
    let mut changes = Changes {
        students: Vec::new(),
        unchanged: 0,
        tests_added: new_tests.difference(&old_tests).cloned().collect(),
        tests_removed: old_tests.difference(&new_tests).cloned().collect(),
    };
    for name in names {
        let (o, n) = (before.get(name).copied(), after.get(name).copied());
        let mut change = StudentChange {
            name: name.clone(),
            kind: ChangeKind::Changed,
            old: o.map(standing),
            new: n.map(standing),
            score_change: None,
            now_failing: Vec::new(),
            now_passing: Vec::new(),
            failing_added: Vec::new(),
            not_judged: fault_of(n).or(fault_of(o)).map(fault),
        };
        change.kind = match (o, n) {
            (None, Some(_)) => ChangeKind::Added,
            (Some(_), None) => ChangeKind::Removed,
            (Some(o), Some(n)) => match (
                o.verdict == Verdict::GraderFault,
                n.verdict == Verdict::GraderFault,
            ) {
                (true, true) => ChangeKind::StillNotJudged,
                (false, true) => ChangeKind::NotJudged,
                (true, false) => ChangeKind::NowJudged,
                (false, false) => {
                    let passed = |s: &SubmissionReport| -> BTreeMap<String, bool> {
                        s.tests
                            .iter()
                            .map(|t| (test_id(t), t.verdict == Verdict::Accepted))
                            .collect()
                    };
                    let (was, is) = (passed(o), passed(n));
                    for (test, now) in &is {
                        match was.get(test) {
                            Some(true) if !now => change.now_failing.push(test.clone()),
                            Some(false) if *now => change.now_passing.push(test.clone()),
                            None if !now => change.failing_added.push(test.clone()),
                            _ => {}
                        }
                    }
                    change.score_change =
                        n.points.score().zip(o.points.score()).map(|(n, o)| n - o);
                    let same = o.verdict == n.verdict
                        && same_points(o.points, n.points)
                        && change.now_failing.is_empty()
                        && change.now_passing.is_empty();
                    if same {
                        changes.unchanged += 1;
                        continue;
                    }
                    ChangeKind::Changed
                }
            },
            (None, None) => continue,
        };
        if change.kind == ChangeKind::Added {
            change.failing_added = n
                .into_iter()
                .flat_map(|s| &s.tests)
                .filter(|t| t.verdict != Verdict::Accepted && !old_tests.contains(&test_id(t)))
                .map(test_id)
                .collect();
        }
        changes.students.push(change);
    }
    changes
}

/// The change of a score, exactly, for people: signed, in points rounded
/// once to two decimals (`+20`, `-6.67`); none when either was never
/// judged.
pub fn score_change(old: Points, new: Points) -> String {
    let (od, nd) = (u128::from(old.denominator), u128::from(new.denominator));
    let (Some(new_earned), Some(old_earned)) = (new.earned, old.earned) else {
        return "not graded".to_owned();
    };
    let (a, b) = (u128::from(new_earned) * od, u128::from(old_earned) * nd);
    let (sign, units) = if a >= b { ("+", a - b) } else { ("-", b - a) };
    let denominator = od * nd;
    let hundredths = (units * 200 + denominator) / (2 * denominator);
    let magnitude = match hundredths % 100 {
        0 => format!("{}", hundredths / 100),
        cents => format!("{}.{cents:02}", hundredths / 100),
    };
    if hundredths == 0 {
        "±0".to_owned()
    } else {
        format!("{sign}{magnitude}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch() -> Vec<SubmissionReport> {
        let report: super::super::Report =
            serde_json::from_str(include_str!("../../../tests/fixtures/reports/batch.json"))
                .unwrap();
        report.submissions
    }

    #[test]
    fn score_changes_are_exact_across_denominators() {
        assert_eq!(
            score_change(Points::new(20, 80, 1), Points::new(80, 80, 1)),
            "+60"
        );
        assert_eq!(
            score_change(Points::new(60, 90, 3), Points::new(0, 90, 1)),
            "-20"
        );
        // 2/3 of a point less: from 20 to 58/3 (19.33...).
        assert_eq!(
            score_change(Points::new(20, 80, 1), Points::new(58, 240, 3)),
            "-0.67"
        );
        assert_eq!(
            score_change(Points::new(3, 9, 3), Points::new(1, 3, 1)),
            "±0"
        );
    }

    #[test]
    fn the_same_grading_changes_nothing() {
        let old = batch();
        let changes = compare(&old, &old);
        assert!(changes.students.is_empty() && !changes.any());
        assert_eq!(changes.unchanged, old.len());
    }

    #[test]
    fn a_flipped_test_a_new_student_a_gone_one_and_a_fault_are_told_apart() {
        let old = batch();
        let mut new = old.clone();
        let passing = new
            .iter()
            .position(|s| s.verdict == Verdict::Accepted)
            .unwrap();
        // A test that passed now fails.
        new[passing].tests[0].verdict = Verdict::WrongAnswer;
        let flipped = new[passing].tests[0].id().to_string();
        new[passing].verdict = Verdict::WrongAnswer;
        // One student gone, one new, one the grader failed on.
        let gone = new.pop().unwrap();
        let mut added = old[0].clone();
        added.name = "newcomer".into();
        new.push(added);
        let faulted = new
            .iter()
            .position(|s| {
                s.verdict != Verdict::Accepted
                    && s.name != "newcomer"
                    && s.name != old[passing].name
            })
            .unwrap();
        new[faulted].verdict = Verdict::GraderFault;
        let changes = compare(&old, &new);
        let kind = |name: &str| {
            changes
                .students
                .iter()
                .find(|s| s.name == name)
                .map(|s| s.kind)
        };
        assert_eq!(kind(&new[passing].name), Some(ChangeKind::Changed));
        let changed = changes
            .students
            .iter()
            .find(|s| s.name == new[passing].name)
            .unwrap();
        assert_eq!(changed.now_failing, vec![flipped]);
        assert_eq!(kind(&gone.name), Some(ChangeKind::Removed));
        assert_eq!(kind("newcomer"), Some(ChangeKind::Added));
        assert_eq!(kind(&new[faulted].name), Some(ChangeKind::NotJudged));
        assert_eq!(changes.not_judged().count(), 1);
        assert_eq!(changes.unchanged + changes.students.len(), old.len() + 1);
    }
}
