//! Scores as exact points: every test's share of its group's weight is a
//! whole number of the suite's units (1/[`Suite::denominator`] of a
//! point), so a group passed in full scores its weight exactly and sums
//! never drift.
//!
//! [`Suite::denominator`]: grading::Suite

use super::Points;
use grading::Group;
use vocabulary::Scoring;

/// One test of `group`: its share of the group's weight, earned when
/// `accepted` (an all-or-nothing group takes it back later if another
/// test fails: [`take_back`]).
pub(crate) fn test_points(group: &Group, denominator: u64, accepted: bool) -> Points {
    let share = share(group, denominator);
    Points::new(if accepted { share } else { 0 }, share, denominator)
}

/// `group`'s points for `passed` of its tests accepted.
pub(crate) fn group_points(group: &Group, denominator: u64, passed: usize) -> Points {
    let total = group.weight * denominator;
    let earned = match group.scoring {
        _ if group.cases.is_empty() => 0,
        Scoring::AllOrNothing if passed < group.cases.len() => 0,
        _ => share(group, denominator) * passed as u64,
    };
    Points::new(earned, total, denominator)
}

/// A test's points with nothing earned (an all-or-nothing group failed).
pub(crate) fn take_back(points: Points) -> Points {
    Points::new(0, points.total, points.denominator)
}

/// A test's share of `group`'s weight in units: whole, as the
/// denominator is a multiple of every group's test count.
fn share(group: &Group, denominator: u64) -> u64 {
    match group.cases.len() as u64 {
        0 => 0,
        n => group.weight * denominator / n,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use grading::Case;
    use vocabulary::{ExpectedFrom, Visibility};

    fn group(weight: u64, scoring: Scoring, cases: usize) -> Group {
        let case = |i: usize| Case {
            name: format!("c{i}"),
            group: "g".into(),
            path: Default::default(),
            input: serde_json::Value::Null,
            args: Vec::new(),
            ops: Vec::new(),
            expected: Vec::new(),
            expected_from: ExpectedFrom::File,
        };
        Group {
            name: "g".into(),
            weight,
            scoring,
            visibility: Visibility::Visible,
            time_limit: std::time::Duration::from_secs(1),
            cases: (0..cases).map(case).collect(),
        }
    }

    #[test]
    fn a_group_passed_in_full_scores_its_weight_exactly() {
        // Nine tests of 30 points, counted in ninths: each is worth 30.
        let nine = group(30, Scoring::PerTest, 9);
        assert_eq!(test_points(&nine, 9, true), Points::new(30, 30, 9));
        assert_eq!(test_points(&nine, 9, false), Points::new(0, 30, 9));
        assert_eq!(group_points(&nine, 9, 9), Points::new(270, 270, 9));
        assert_eq!(group_points(&nine, 9, 9).score(), Some(30.0));
        // Four of nine: 40/3 points, exactly 120 ninths.
        assert_eq!(group_points(&nine, 9, 4), Points::new(120, 270, 9));
        // The nine shares summed are the group's weight, as floats were not.
        let shares: Vec<Points> = (0..9).map(|_| test_points(&nine, 9, true)).collect();
        assert_eq!(Points::sum(&shares, 9), group_points(&nine, 9, 9));
        assert_ne!((0..9).map(|_| 30.0 / 9.0).sum::<f64>(), 30.0);
    }

    #[test]
    fn all_or_nothing_and_empty_groups() {
        let five = group(20, Scoring::AllOrNothing, 5);
        assert_eq!(group_points(&five, 5, 4), Points::new(0, 100, 5));
        assert_eq!(group_points(&five, 5, 5), Points::new(100, 100, 5));
        assert_eq!(
            take_back(test_points(&five, 5, true)),
            Points::new(0, 20, 5)
        );
        let empty = group(10, Scoring::PerTest, 0);
        assert_eq!(group_points(&empty, 1, 0), Points::new(0, 10, 1));
    }
}
