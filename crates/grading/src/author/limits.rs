//! Time limits that fit the work (`grader audit --limits`): each group's
//! limit proposed from the CPU time correct submissions take on its cases,
//! as Kattis's problemtools does (a multiple of the slowest correct one),
//! and written to challenge.toml on request.
//!
//! A limit is CPU time, so a loaded machine slows the wall clock but not
//! what is measured; the multiple leaves room for a slower machine or
//! interpreter and for a correct solution less tuned than the examples,
//! and the floor for the start of an interpreter on the smallest case.

use crate::challenge::{Challenge, Suite};
use crate::error::{Error, Problem};
use std::path::Path;
use std::time::Duration;

/// The proposed limit is this many times the slowest correct case.
pub const LIMIT_MULTIPLE: u32 = 2;

/// No group's limit is proposed below this.
pub const LIMIT_FLOOR: Duration = Duration::from_secs(1);

/// One case a correct submission passed, and the CPU time it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CaseTiming {
    pub group: String,
    pub case: String,
    /// The submission, as named on the command line.
    pub by: String,
    /// Its language, as reports name it (`python`, `rust`...).
    pub language: String,
    pub cpu: Duration,
}

/// A group's limit as it is and as proposed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GroupLimit {
    pub group: String,
    /// The limit the suite has now (challenge.toml's).
    pub current: Duration,
    /// The reference's slowest case of the group, run in-process.
    pub reference: Duration,
    /// Per language measured, its slowest case of the group, by language.
    pub slowest: Vec<CaseTiming>,
    /// [`LIMIT_MULTIPLE`] times the slowest of all, in whole seconds, at least
    /// [`LIMIT_FLOOR`]; `None` when no correct submission passed a case of it
    /// (the limit is not changed).
    pub proposed: Option<Duration>,
}

impl GroupLimit {
    /// The slowest correct case of the group, of every language.
    pub fn slowest(&self) -> Option<&CaseTiming> {
        self.slowest.iter().max_by_key(|t| t.cpu)
    }

    /// The limit the group gets: the proposed one, else the current one.
    pub fn limit(&self) -> Duration {
        self.proposed.unwrap_or(self.current)
    }
}

/// The limit proposed for a group whose slowest correct case took `cpu`.
pub fn propose(cpu: Duration) -> Duration {
    let wanted = cpu * LIMIT_MULTIPLE;
    // Whole seconds: a limit is a round number an author can reason about,
    // and the measurement is not finer than that across machines.
    let seconds = wanted.as_millis().div_ceil(1000) as u64;
    Duration::from_secs(seconds).max(LIMIT_FLOOR)
}

/// Each group of `suite` with its limit as it is, nothing measured or
/// proposed: what [`rewrite_limits`] is tried with before anything is measured.
pub fn unchanged_limits(suite: &Suite) -> Vec<GroupLimit> {
    suite
        .groups
        .iter()
        .map(|group| GroupLimit {
            group: group.name.clone(),
            current: group.time_limit,
            reference: Duration::ZERO,
            slowest: Vec::new(),
            proposed: None,
        })
        .collect()
}

/// Each group of `suite` with its limit proposed from `timings` (cases
/// correct submissions passed), and the reference timed on its cases.
pub fn proposed_limits(
    challenge: &Challenge,
    suite: &Suite,
    timings: &[CaseTiming],
) -> Vec<GroupLimit> {
    suite
        .groups
        .iter()
        .map(|group| {
            let reference = group
                .cases
                .iter()
                .map(|case| challenge.model.run_checked(&case.args, &case.ops).took)
                .max()
                .unwrap_or_default();
            let mut slowest: Vec<CaseTiming> = Vec::new();
            for timing in timings.iter().filter(|t| t.group == group.name) {
                match slowest.iter_mut().find(|s| s.language == timing.language) {
                    Some(s) if s.cpu >= timing.cpu => {}
                    Some(s) => *s = timing.clone(),
                    None => slowest.push(timing.clone()),
                }
            }
            slowest.sort_by(|a, b| a.language.cmp(&b.language));
            let proposed = slowest.iter().map(|t| t.cpu).max().map(propose);
            GroupLimit {
                group: group.name.clone(),
                current: group.time_limit,
                reference,
                slowest,
                proposed,
            }
        })
        .collect()
}

/// The limit most groups get, the smaller on a tie: challenge.toml's
/// `[limits] time_ms`, which the other groups override.
pub fn common(limits: &[GroupLimit]) -> Option<Duration> {
    let mut counts: Vec<(Duration, usize)> = Vec::new();
    for limit in limits.iter().map(GroupLimit::limit) {
        match counts.iter_mut().find(|(d, _)| *d == limit) {
            Some((_, n)) => *n += 1,
            None => counts.push((limit, 1)),
        }
    }
    // Most groups first, then the smaller limit.
    counts
        .into_iter()
        .max_by(|(a, n), (b, m)| n.cmp(m).then(b.cmp(a)))
        .map(|(d, _)| d)
}

/// `text` (a challenge.toml) with `limits` written in: the common limit as
/// `[limits] time_ms`, every other group's as its own `time_ms` with a
/// comment naming what it was measured on. Every other line, comment and
/// setting is kept. A group `limits` names that the file does not declare
/// is an error: its limit can only be written with a `[[groups]]` table.
pub fn rewrite_limits(text: &str, file: &Path, limits: &[GroupLimit]) -> Result<String, Error> {
    let problem = |message: String| {
        Error::invalid(vec![Problem {
            path: file.to_owned(),
            position: None,
            message,
        }])
    };
    let mut doc: toml_edit::DocumentMut = text
        .parse()
        .map_err(|e: toml_edit::TomlError| problem(format!("{e}; fix the file first")))?;
    let Some(common) = common(limits) else {
        return Ok(text.to_owned());
    };
    let ms = |d: Duration| toml_edit::value(d.as_millis() as i64);
    // `[limits]`, or an inline `limits = { ... }`: its time_ms is the
    // common limit, the value's own trailing comment kept.
    let limits_item = doc
        .entry("limits")
        .or_insert_with(|| toml_edit::Item::Table(toml_edit::Table::new()));
    let table = limits_item.as_table_like_mut().ok_or_else(|| {
        problem("`limits` is not a table; make it `[limits]` and run again".into())
    })?;
    match table.get_mut("time_ms") {
        Some(item) => {
            let decor = item.as_value().map(|v| v.decor().clone());
            *item = ms(common);
            if let (Some(decor), Some(value)) = (decor, item.as_value_mut()) {
                *value.decor_mut() = decor;
            }
        }
        None => {
            table.insert("time_ms", ms(common));
        }
    }
    // The groups, as `[[groups]]` tables or an inline array of tables.
    let groups: Vec<&mut dyn toml_edit::TableLike> = match doc.get_mut("groups") {
        None => Vec::new(),
        Some(toml_edit::Item::ArrayOfTables(tables)) => tables
            .iter_mut()
            .map(|t| t as &mut dyn toml_edit::TableLike)
            .collect(),
        Some(toml_edit::Item::Value(toml_edit::Value::Array(array))) => array
            .iter_mut()
            .filter_map(|v| v.as_inline_table_mut())
            .map(|t| t as &mut dyn toml_edit::TableLike)
            .collect(),
        Some(_) => {
            return Err(problem(
                "`groups` is neither [[groups]] tables nor an array of tables; fix the file and run again".into(),
            ));
        }
    };
    let name_of = |g: &dyn toml_edit::TableLike| g.get("name")?.as_str().map(str::to_owned);
    let declared: Vec<String> = groups.iter().filter_map(|g| name_of(&**g)).collect();
    let undeclared: Vec<&str> = limits
        .iter()
        .filter(|l| l.limit() != common && !declared.contains(&l.group))
        .map(|l| l.group.as_str())
        .collect();
    if !undeclared.is_empty() {
        return Err(problem(format!(
            "no [[groups]] table for {} to hold its own limit; declare it (name, description, weight) and run again",
            undeclared
                .iter()
                .map(|g| format!("`{g}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    for group in groups {
        let Some(limit) = name_of(&*group).and_then(|n| limits.iter().find(|l| l.group == n))
        else {
            continue;
        };
        // The comment above a group's own limit says where it comes
        // from; an old one goes with the setting it described.
        group.remove("time_ms");
        if limit.limit() == common {
            continue;
        }
        group.insert("time_ms", ms(limit.limit()));
        if let Some(slowest) = limit.slowest()
            && let Some(mut key) = group.key_mut("time_ms")
        {
            // A comment is one line: the names in it are escaped, so that
            // a path with a newline cannot write settings of its own.
            key.leaf_decor_mut().set_prefix(format!(
                "# {LIMIT_MULTIPLE} times the slowest correct case: {} of CPU ({}, {}).\n",
                shown_duration(slowest.cpu),
                one_line(&slowest.by),
                one_line(&slowest.case)
            ));
        }
    }
    let written = doc.to_string();
    check_written(&written, file, common, limits)?;
    Ok(written)
}

/// `text` with every control character escaped (`\n` for a newline): fit
/// for one line of a comment.
fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| match c.is_control() {
            true => c.escape_default().collect::<Vec<_>>(),
            false => vec![c],
        })
        .collect()
}

/// That `written` reads back as TOML giving every group of `limits` its
/// limit: a last guard before a challenge.toml is replaced.
fn check_written(
    written: &str,
    file: &Path,
    common: Duration,
    limits: &[GroupLimit],
) -> Result<(), Error> {
    let wrong = |why: String| {
        Error::invalid(vec![Problem {
            path: file.to_owned(),
            position: None,
            message: format!("the limits would not be written right ({why}); nothing was written"),
        }])
    };
    let table: toml::Table = toml::from_str(written).map_err(|e| wrong(e.to_string()))?;
    let ms = |v: Option<&toml::Value>| v.and_then(toml::Value::as_integer);
    let default = ms(table.get("limits").and_then(|l| l.get("time_ms")));
    if default != Some(common.as_millis() as i64) {
        return Err(wrong("[limits] time_ms".into()));
    }
    let groups = table.get("groups").and_then(toml::Value::as_array);
    for limit in limits {
        let own = groups
            .into_iter()
            .flatten()
            .find(|g| g.get("name").and_then(toml::Value::as_str) == Some(limit.group.as_str()))
            .and_then(|g| ms(g.get("time_ms")));
        if own.or(default) != Some(limit.limit().as_millis() as i64) {
            return Err(wrong(format!("group `{}`", limit.group)));
        }
    }
    Ok(())
}

/// `d` as the comments and the audit show it: milliseconds under a
/// second, else seconds (whole ones as such).
pub fn shown_duration(d: Duration) -> String {
    match (d < Duration::from_secs(1), d.subsec_millis()) {
        (true, _) => format!("{} ms", d.as_millis()),
        (false, 0) => format!("{} s", d.as_secs()),
        (false, _) => format!("{:.1} s", d.as_secs_f64()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limit(group: &str, current: u64, proposed: Option<u64>) -> GroupLimit {
        GroupLimit {
            group: group.into(),
            current: Duration::from_millis(current),
            reference: Duration::ZERO,
            slowest: proposed
                .map(|ms| CaseTiming {
                    group: group.into(),
                    case: "c1".into(),
                    by: "python/slow.py".into(),
                    language: "python".into(),
                    cpu: Duration::from_millis(ms / 2),
                })
                .into_iter()
                .collect(),
            proposed: proposed.map(Duration::from_millis),
        }
    }

    #[test]
    fn a_proposal_is_twice_the_slowest_in_whole_seconds_and_at_least_one() {
        let ms = Duration::from_millis;
        assert_eq!(propose(ms(1)), ms(1000));
        assert_eq!(propose(ms(499)), ms(1000));
        assert_eq!(propose(ms(501)), ms(2000));
        assert_eq!(propose(ms(3000)), ms(6000));
        assert_eq!(propose(ms(3001)), ms(7000));
    }

    #[test]
    fn times_are_shown_in_milliseconds_under_a_second() {
        let ms = Duration::from_millis;
        assert_eq!(shown_duration(ms(0)), "0 ms");
        assert_eq!(shown_duration(ms(999)), "999 ms");
        assert_eq!(shown_duration(ms(1000)), "1 s");
        assert_eq!(shown_duration(ms(1250)), "1.2 s");
        assert_eq!(shown_duration(ms(6000)), "6 s");
    }

    #[test]
    fn the_common_limit_is_the_one_most_groups_get_and_the_smaller_on_a_tie() {
        let ms = Duration::from_millis;
        let limits = [
            limit("a", 5000, Some(1000)),
            limit("b", 5000, Some(6000)),
            limit("c", 5000, Some(1000)),
        ];
        assert_eq!(common(&limits), Some(ms(1000)));
        let tie = [limit("a", 5000, Some(3000)), limit("b", 5000, Some(2000))];
        assert_eq!(common(&tie), Some(ms(2000)));
        // A group nothing was measured on keeps its limit.
        let unmeasured = [limit("a", 4000, None), limit("b", 4000, None)];
        assert_eq!(common(&unmeasured), Some(ms(4000)));
        assert_eq!(common(&[]), None);
    }

    const TOML: &str = "\
# The challenge.
title = \"T\"

[limits]
# CPU time per case.
time_ms = 5000 # five seconds
memory_mb = 512

[[groups]]
name = \"small\"
weight = 1

[[groups]]
name = \"large\"
weight = 2
# An old reason.
time_ms = 30000
";

    #[test]
    fn rewriting_sets_the_common_limit_and_each_other_group_keeping_the_rest() {
        let limits = [
            limit("small", 5000, Some(1000)),
            limit("large", 30000, Some(6000)),
        ];
        let text = rewrite_limits(TOML, Path::new("challenge.toml"), &limits).unwrap();
        assert_eq!(
            text,
            "\
# The challenge.
title = \"T\"

[limits]
# CPU time per case.
time_ms = 1000 # five seconds
memory_mb = 512

[[groups]]
name = \"small\"
weight = 1

[[groups]]
name = \"large\"
weight = 2
# 2 times the slowest correct case: 3 s of CPU (python/slow.py, c1).
time_ms = 6000
"
        );
        // Written again with the same proposals, nothing changes.
        assert_eq!(
            rewrite_limits(&text, Path::new("challenge.toml"), &limits).unwrap(),
            text
        );
        // A group's limit equal to the common one goes back to it.
        let same = [
            limit("small", 5000, Some(1000)),
            limit("large", 30000, Some(1000)),
        ];
        let text = rewrite_limits(TOML, Path::new("challenge.toml"), &same).unwrap();
        assert!(
            !text.contains("30000") && !text.contains("An old reason"),
            "{text}"
        );
        assert!(text.contains("time_ms = 1000 # five seconds"), "{text}");
    }

    #[test]
    fn inline_limits_and_groups_are_written_too() {
        let inline = "\
limits = { time_ms = 5000, memory_mb = 512 }
groups = [
  { name = \"small\", weight = 1 },
  { name = \"large\", weight = 2, time_ms = 30000 },
]
";
        let limits = [
            limit("small", 5000, Some(1000)),
            limit("large", 30000, Some(6000)),
        ];
        let text = rewrite_limits(inline, Path::new("challenge.toml"), &limits).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(table["limits"]["time_ms"].as_integer(), Some(1000));
        assert_eq!(table["limits"]["memory_mb"].as_integer(), Some(512));
        assert_eq!(table["groups"][1]["time_ms"].as_integer(), Some(6000));
        assert!(table["groups"][0].get("time_ms").is_none());
        // Every group at the common limit: the old own limit goes.
        let same = [
            limit("small", 5000, Some(1000)),
            limit("large", 30000, Some(1000)),
        ];
        let text = rewrite_limits(inline, Path::new("challenge.toml"), &same).unwrap();
        assert!(!text.contains("30000"), "{text}");
    }

    #[test]
    fn a_name_with_a_newline_stays_in_its_comment() {
        let mut large = limit("large", 30000, Some(6000));
        large.slowest[0].by = "ok\nweight = 99\n#.py".into();
        let limits = [limit("small", 5000, Some(1000)), large];
        let text = rewrite_limits(TOML, Path::new("challenge.toml"), &limits).unwrap();
        let table: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(table["groups"][1]["weight"].as_integer(), Some(2), "{text}");
        assert!(text.contains("(ok\\nweight = 99\\n#.py, c1)"), "{text}");
    }

    #[test]
    fn a_group_without_a_table_cannot_hold_its_own_limit() {
        let limits = [
            limit("small", 5000, Some(1000)),
            limit("large", 30000, Some(6000)),
            limit("extra", 5000, Some(9000)),
        ];
        let e = rewrite_limits(TOML, Path::new("x/challenge.toml"), &limits).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("x/challenge.toml") && text.contains("`extra`"),
            "{text}"
        );
    }

    #[test]
    fn a_broken_file_is_named_and_not_rewritten() {
        let e = rewrite_limits(
            "[limits\n",
            Path::new("c.toml"),
            &[limit("a", 1, Some(1000))],
        )
        .unwrap_err();
        assert!(e.to_string().contains("c.toml"), "{e}");
    }
}
