//! Discover and load: challenges under a root folder, and their test cases.
//!
//! A challenge is `challenges/<id>/` with `challenge.toml` and
//! `tests/<group>/NAME.json` (+ `NAME.expected.json`). Loading checks every
//! file before anything runs and reports all problems at once. The folder
//! comes of [`source`]: one on disk, or the challenges built into the
//! grader ([`embedded`]).

mod case;
mod config;
pub mod embedded;
pub mod limits;
pub mod locate;
pub mod rules;
pub mod source;

pub use case::{Case, ExpectedFrom, Operations, TestId, file_stem, parse_input};
pub use config::{Config, Scoring, Visibility};
pub use source::{Root, Source, default_cache_dir};

use crate::error::{Error, Problem};
use locate::TomlStep;
use reference::{ModelSpec, Signature};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;
use walkdir::WalkDir;

/// The challenge graded when none is named.
pub const DEFAULT_CHALLENGE: &str = "rendezvous-router";

/// How an expected file's name ends: `NAME.expected.json` beside `NAME.json`.
pub const EXPECTED_SUFFIX: &str = ".expected.json";

/// The expected file of case `name` in folder `dir`.
pub fn expected_path(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{name}{EXPECTED_SUFFIX}"))
}

impl Case {
    /// Where this case's expected file is (or would be).
    pub fn expected_path(&self) -> PathBuf {
        expected_path(self.path.parent().unwrap_or(Path::new("")), &self.name)
    }
}

/// A loaded challenge: its settings and its reference.
#[derive(Debug)]
pub struct Challenge {
    pub id: String,
    pub dir: PathBuf,
    pub config: Config,
    pub model: &'static ModelSpec,
    /// The operations cases may use, with their signatures.
    pub operations: Vec<&'static Signature>,
}

/// A set of test groups, from a challenge's `tests/` or a `--tests` folder,
/// with those of the `--add-tests` folders.
#[derive(Debug)]
pub struct Suite {
    pub dir: PathBuf,
    /// The folders whose groups were added to `dir`'s, in the order given.
    pub added: Vec<PathBuf>,
    /// The patterns the cases were selected by (`--only`); empty for the
    /// whole suite.
    pub only: Vec<String>,
    pub groups: Vec<Group>,
    /// The unit scores are counted in, as 1/`denominator` of a point: the
    /// least common multiple of the groups' test counts, so that every
    /// test's share of its group's weight is a whole number of units.
    pub denominator: u64,
}

/// One group of cases with its settings.
#[derive(Debug)]
pub struct Group {
    pub name: String,
    /// The group's points, shared by its tests.
    pub weight: u64,
    pub scoring: Scoring,
    pub visibility: Visibility,
    pub time_limit: Duration,
    pub cases: Vec<Case>,
}

impl Suite {
    /// Keeps the cases `patterns` select (`GROUP` or `GROUP/NAME`, each
    /// part a glob of `*` and `?`), and the groups holding any. A pattern
    /// that selects nothing is refused, naming what there is.
    pub fn select(&mut self, patterns: &[String]) -> Result<(), Error> {
        if patterns.is_empty() {
            return Ok(());
        }
        let selects = |pattern: &str, case: &Case| match pattern.split_once('/') {
            Some((group, name)) => glob(group, &case.group) && glob(name, &case.name),
            None => glob(pattern, &case.group),
        };
        for pattern in patterns {
            if !self.cases().any(|c| selects(pattern, c)) {
                let group = pattern.split_once('/').map_or(pattern.as_str(), |(g, _)| g);
                let there: Vec<String> = match self
                    .groups
                    .iter()
                    .filter(|g| glob(group, &g.name))
                    .collect::<Vec<_>>()
                {
                    groups if groups.is_empty() => vec![format!(
                        "the groups are {}",
                        self.groups
                            .iter()
                            .map(|g| g.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    )],
                    groups => groups
                        .iter()
                        .map(|g| {
                            format!(
                                "the tests of {} are {}",
                                g.name,
                                g.cases
                                    .iter()
                                    .map(|c| c.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            )
                        })
                        .collect(),
                };
                return Err(Error::Usage(format!(
                    "--only {pattern} selects no test ({}); give a group (edge), a group and a test (edge/single-node), or globs of them (edge/*-node)",
                    there.join("; ")
                )));
            }
        }
        for group in &mut self.groups {
            group
                .cases
                .retain(|c| patterns.iter().any(|p| selects(p, c)));
        }
        self.groups.retain(|g| !g.cases.is_empty());
        // Fewer tests in a group: each selected one carries more of its
        // weight, in a unit no larger than the whole suite's.
        self.denominator = denominator(&self.groups).unwrap_or(self.denominator);
        self.only = patterns.to_vec();
        Ok(())
    }

    /// Every case, group by group.
    pub fn cases(&self) -> impl Iterator<Item = &Case> {
        self.groups.iter().flat_map(|g| &g.cases)
    }
}

/// Every challenge under `root`, sorted by id.
pub fn list(root: &Path) -> Result<Vec<Challenge>, Error> {
    ids(root)?
        .iter()
        .map(|id| Challenge::load(root, id))
        .collect()
}

/// The ids of the challenges in `root` (its folders with a
/// `challenge.toml`), sorted, whether they load or not.
pub fn ids(root: &Path) -> Result<Vec<String>, Error> {
    let mut ids: Vec<String> = Vec::new();
    for entry in WalkDir::new(root)
        .min_depth(1)
        .max_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.map_err(|e| Error::Io {
            context: format!("cannot list {}", root.display()),
            source: e.into(),
        })?;
        if entry.file_type().is_dir() && entry.path().join("challenge.toml").is_file() {
            ids.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    Ok(ids)
}

impl Challenge {
    /// Loads challenge `id` from `root/<id>/challenge.toml`.
    pub fn load(root: &Path, id: &str) -> Result<Challenge, Error> {
        let dir = root.join(id);
        let toml_path = dir.join("challenge.toml");
        if !toml_path.is_file() {
            let known = list_ids(root);
            return Err(Error::Usage(format!(
                "no challenge `{id}` in {} (known: {})",
                root.display(),
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            )));
        }
        let config = Config::read(&toml_path).map_err(Error::invalid)?;
        let mut problems = Vec::new();
        let model_id = config.reference.as_deref().unwrap_or(id);
        let Some(model) = reference::challenge(model_id) else {
            let known: Vec<&str> = reference::challenges().iter().map(|s| s.id).collect();
            let (at, what) = match &config.reference {
                Some(_) => (vec![TomlStep::Key("reference")], "no reference named"),
                None => (
                    vec![],
                    "no `reference` is given and there is no reference named after the folder,",
                ),
            };
            problems.push(config.problem(
                &at,
                format!(
                    "{what} `{model_id}`; set reference = \"...\" to one the reference crate has: {}",
                    known.join(", ")
                ),
            ));
            return Err(Error::invalid(config.problems_with(problems)));
        };
        let mut operations = Vec::new();
        let known: Vec<&str> = model.operations.iter().map(|s| s.name).collect();
        if config.operations.is_empty() {
            problems.push(config.problem(
                &[TomlStep::Key("operations")],
                format!(
                    "`operations` is empty, so no case could use any; list those cases may use, of the reference's: {}",
                    known.join(", ")
                ),
            ));
        }
        for (i, name) in config.operations.iter().enumerate() {
            match model.signature(name) {
                Some(signature) => operations.push(signature),
                None => {
                    problems.push(config.problem(
                        &[TomlStep::Key("operations"), TomlStep::Index(i)],
                        format!(
                            "operation `{name}` is not implemented by the reference `{model_id}`; use some of: {}",
                            known.join(", ")
                        ),
                    ));
                }
            }
        }
        let problems = config.problems_with(problems);
        if !problems.is_empty() {
            return Err(Error::invalid(problems));
        }
        Ok(Challenge {
            id: id.to_owned(),
            dir,
            config,
            model,
            operations,
        })
    }

    /// Where `add` and `gen` write case `name` of `group`, once both names
    /// are safe and the group is declared: the rules `validate` and
    /// loading hold every case to.
    pub fn case_folder(&self, suite: &Path, group: &str, name: &str) -> Result<PathBuf, Error> {
        if let Some(why) = rules::group_name_problem(group) {
            return Err(Error::Usage(format!("--group: {why}")));
        }
        if let Some(why) = rules::case_name_problem(name) {
            return Err(Error::Usage(why));
        }
        // Every suite's groups are declared (see `load_suite_with`): a
        // case written into another could not be graded.
        self.config
            .check_declared(group, " (--group)")
            .map_err(|p| Error::Usage(format!("{p}; nothing was written")))?;
        Ok(suite.join(group))
    }

    /// The challenge's own test folder.
    pub fn tests_dir(&self) -> PathBuf {
        self.dir.join("tests")
    }

    /// The suite a command works on: the cases in `tests` when given, else
    /// the challenge's own; `true` for its own (whose groups must be
    /// declared).
    pub fn suite_dir(&self, tests: Option<&Path>) -> (PathBuf, bool) {
        match tests {
            Some(dir) => (dir.to_owned(), false),
            None => (self.tests_dir(), true),
        }
    }

    /// Loads the suite in `dir` (as [`Challenge::load_suite`]) with the
    /// groups of every folder in `added` graded besides its own, each
    /// folder read as a `--tests` folder is. A group is in one folder: one
    /// found in two is refused, naming both, since its weight would be
    /// shared with cases its author never counted, and cases added to a
    /// visible group would be shown as visible.
    pub fn load_suite_adding(
        &self,
        dir: &Path,
        own: bool,
        added: &[PathBuf],
    ) -> Result<Suite, Error> {
        let mut suite = self.load_suite(dir, own)?;
        let same = |a: &Path, b: &Path| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
            (Ok(a), Ok(b)) => a == b,
            _ => a == b,
        };
        for extra in added {
            if let Some(earlier) = std::iter::once(&suite.dir)
                .chain(&suite.added)
                .find(|d| same(d, extra))
            {
                return Err(Error::Usage(format!(
                    "--add-tests {}: this folder is already graded (as {}); give each tests folder once",
                    extra.display(),
                    earlier.display()
                )));
            }
            let more = self.load_suite(extra, false)?;
            for group in more.groups {
                if let Some(there) = suite.groups.iter().find(|g| g.name == group.name) {
                    let folder = |g: &Group| {
                        g.cases
                            .first()
                            .and_then(|c| c.path.parent())
                            .map_or_else(String::new, |p| p.display().to_string())
                    };
                    return Err(Error::Usage(format!(
                        "group `{}` is in two tests folders, {} and {}: a group's cases are kept in one folder (its weight is shared by all its cases, and its visibility is challenge.toml's, whatever folder they come from); move them into one, or into the folder of another declared group",
                        group.name,
                        folder(there),
                        folder(&group)
                    )));
                }
                suite.groups.push(group);
            }
            suite.added.push(extra.clone());
        }
        if added.is_empty() {
            return Ok(suite);
        }
        // Declared groups first, in challenge.toml's order, as in one folder.
        suite.groups.sort_by_key(|g| {
            (
                self.config
                    .groups
                    .iter()
                    .position(|c| c.name == g.name)
                    .unwrap_or(usize::MAX),
                g.name.clone(),
            )
        });
        suite.denominator = denominator(&suite.groups).ok_or_else(|| {
            Error::Usage(format!(
                "the groups of {} and the folders added to it hold test counts whose scores cannot be kept exact (their least common multiple times the total weight passes 2^53); split the cases into groups of fewer distinct sizes",
                dir.display()
            ))
        })?;
        Ok(suite)
    }

    /// Loads the suite in `dir`: subfolders are groups, and case files
    /// directly in `dir` form one group named after it. In the challenge's
    /// own folder (`own`), every group must be declared in challenge.toml.
    pub fn load_suite(&self, dir: &Path, own: bool) -> Result<Suite, Error> {
        self.load_suite_with(dir, own, true)
    }

    /// Like [`Challenge::load_suite`]; without `read_expected`, expected
    /// files are not read (they may be broken: `bless` rewrites them) and
    /// every case expects the reference's output.
    pub fn load_suite_with(
        &self,
        dir: &Path,
        own: bool,
        read_expected: bool,
    ) -> Result<Suite, Error> {
        if !dir.is_dir() {
            return Err(Error::Usage(format!(
                "tests folder {} does not exist",
                dir.display()
            )));
        }
        let mut problems = Vec::new();
        let mut files: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
        // `--tests .` or `edge/..` names its folder only once resolved.
        let top_group = dir
            .file_name()
            .filter(|_| !dir.ends_with(".."))
            .map(|n| n.to_owned())
            .or_else(|| {
                std::fs::canonicalize(dir)
                    .ok()?
                    .file_name()
                    .map(|n| n.to_owned())
            })
            .map_or_else(|| "tests".into(), |n| n.to_string_lossy().into_owned());
        let mut group_order: Vec<String> = Vec::new();
        for entry in WalkDir::new(dir)
            .min_depth(1)
            .max_depth(2)
            .sort_by_file_name()
        {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    problems.push(Problem {
                        path: e.path().unwrap_or(dir).to_owned(),
                        position: None,
                        message: format!("cannot read: {e}"),
                    });
                    continue;
                }
            };
            let name = entry.file_name().to_string_lossy();
            if name.starts_with('.') {
                continue;
            }
            // What would hold cases but is not read is said, not skipped:
            // hidden cases put there would never be graded, silently.
            if let Some(why) = unread(&entry) {
                problems.push(Problem {
                    path: entry.path().to_owned(),
                    position: None,
                    message: why,
                });
                continue;
            }
            if !entry.file_type().is_file() || !name.ends_with(".json") {
                continue;
            }
            let group = if entry.depth() == 1 {
                top_group.clone()
            } else {
                entry
                    .path()
                    .parent()
                    .and_then(Path::file_name)
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
            };
            if !group_order.contains(&group) {
                group_order.push(group.clone());
            }
            files.entry(group).or_default().push(entry.into_path());
        }
        // Declared groups first, in challenge.toml's order; the rest by name.
        group_order.sort_by_key(|g| {
            (
                self.config
                    .groups
                    .iter()
                    .position(|c| c.name == *g)
                    .unwrap_or(usize::MAX),
                g.clone(),
            )
        });
        let ops = Operations {
            model: self.model,
            allowed: &self.operations,
        };
        let mut groups = Vec::new();
        for name in group_order {
            let settings = self.config.group(&name);
            // A group gets its points and who may see its cases from
            // challenge.toml: an undeclared one would be graded as visible
            // with a guessed weight, and a folder of hidden cases shown in
            // full. In the challenge's own suite the declaration is what is
            // missing; in a --tests folder, more likely the folder is wrong.
            let top = name == top_group && files[&name].iter().all(|p| p.parent() == Some(dir));
            let folder = match top {
                true => format!("the cases directly in {}", dir.display()),
                false => format!("the folder {}", dir.join(&name).display()),
            };
            let origin = format!(
                " ({folder}, {})",
                crate::words::counted(files[&name].len(), "file")
            );
            // Its cases are still checked: every problem is told at once.
            if let Err(problem) = self.config.check_declared(&name, &origin) {
                problems.push(match own {
                    true => problem,
                    false => self.undeclared_in_tests(dir, &name, top),
                });
            }
            let paths = &files[&name];
            let mut cases = Vec::new();
            for path in paths {
                let file = path.file_name().unwrap_or_default().to_string_lossy();
                if let Some(stem) = file.strip_suffix(EXPECTED_SUFFIX) {
                    if !paths
                        .iter()
                        .any(|p| p.file_name().is_some_and(|f| *f == *format!("{stem}.json")))
                    {
                        problems.push(Problem {
                            path: path.clone(),
                            position: None,
                            message: format!(
                                "expected output without a case: there is no {stem}.json beside it; add the case or delete this file"
                            ),
                        });
                    }
                    continue;
                }
                let stem = file_stem(path, ".json");
                // A name every report shows: held to the rule `add` and
                // `gen` write by (a group's name is a declared one's,
                // held to it in challenge.toml).
                if let Some(why) = rules::case_name_problem(&stem) {
                    problems.push(Problem {
                        path: path.clone(),
                        position: None,
                        message: format!("{why}; rename the file and its expected file"),
                    });
                    continue;
                }
                let expected = expected_path(path.parent().unwrap_or(Path::new("")), &stem);
                let expected = (read_expected && expected.is_file()).then_some(expected);
                if let Some(case) =
                    case::load_case(&ops, &name, path, expected.as_deref(), &mut problems)
                {
                    cases.push(case);
                }
            }
            let time_ms = settings
                .and_then(|s| s.time_ms)
                .unwrap_or(self.config.limits.time_ms);
            groups.push(Group {
                // A whole number, checked when challenge.toml was read.
                weight: settings.map_or(1, |s| s.weight as u64),
                scoring: settings.map_or(Scoring::PerTest, |s| s.scoring),
                visibility: settings.map_or(Visibility::Visible, |s| s.visibility),
                time_limit: Duration::from_millis(time_ms),
                name,
                cases,
            });
        }
        if !problems.is_empty() {
            return Err(Error::invalid(problems));
        }
        if groups.iter().all(|g| g.cases.is_empty()) {
            return Err(Error::Usage(format!(
                "no test cases in {}: expected NAME.json files in it or in its subfolders",
                dir.display()
            )));
        }
        let Some(denominator) = denominator(&groups) else {
            return Err(Error::Usage(format!(
                "the groups of {} hold test counts whose scores cannot be kept exact (their least common multiple times the total weight passes 2^53); split the cases into groups of fewer distinct sizes",
                dir.display()
            )));
        };
        Ok(Suite {
            dir: dir.to_owned(),
            added: Vec::new(),
            only: Vec::new(),
            groups,
            denominator,
        })
    }

    /// Group `name` of the `--tests` folder `dir` (its cases directly in
    /// it when `top`) is not one challenge.toml declares.
    fn undeclared_in_tests(&self, dir: &Path, name: &str, top: bool) -> Problem {
        let example = self
            .config
            .groups
            .iter()
            .find(|g| g.name != "sample")
            .or(self.config.groups.first())
            .map_or("GROUP", |g| g.name.as_str());
        let (path, what) = match top {
            true => (
                dir.to_owned(),
                format!("its cases form a group named after the folder, `{name}`, which is"),
            ),
            false => (dir.join(name), format!("group `{name}` is")),
        };
        Problem {
            path,
            position: None,
            message: format!(
                "{what} not declared in the challenge.toml of `{}` (declared: {}), so its points and who may see its cases would be guesses; move the cases into a folder named after a declared group ({}), or declare the group in challenge.toml (with --challenges DIR, in a copy of the challenge)",
                self.id,
                self.config.declared(),
                dir.join(example).display(),
            ),
        }
    }
}

/// Why the entry `entry` of a tests folder (at depth 1 or 2) would hold
/// cases that are not read, if it would: a link (a suite is read as files
/// and folders, and a link is not followed), a folder inside a group's
/// folder with a case in it, a case file whose `.json` is in capitals.
fn unread(entry: &walkdir::DirEntry) -> Option<String> {
    let name = entry.file_name().to_string_lossy();
    let kind = entry.file_type();
    let json = name.to_lowercase().ends_with(".json");
    // A link is refused unless it is plainly not a case: one to a file
    // not named as one (a README). A dangling link named like a group
    // would make the group vanish.
    if kind.is_symlink() && (json || !entry.path().is_file()) {
        let to = std::fs::read_link(entry.path())
            .map_or_else(|_| "?".into(), |to| to.display().to_string());
        return Some(format!(
            "a link (to {to}), which is not followed: a tests folder holds its cases as files, in it or in its group folders; put a copy here instead"
        ));
    }
    if json && !kind.is_file() && !kind.is_dir() && !kind.is_symlink() {
        return Some(
            "not a regular file (a pipe, a socket or a device), so not read: a case and its expected output are files".to_owned(),
        );
    }
    if kind.is_dir() && entry.depth() == 2 {
        // One that cannot be read may hold cases too.
        let holds_case = WalkDir::new(entry.path())
            .max_depth(4)
            .into_iter()
            .any(|e| {
                e.map_or(true, |e| {
                    e.file_name()
                        .to_string_lossy()
                        .to_lowercase()
                        .ends_with(".json")
                })
            });
        return holds_case.then(|| {
            "a folder inside a group's folder, whose cases would not be read: a group is one folder of case files; move them up into the group's folder, or make this a group of its own".to_owned()
        });
    }
    if kind.is_file() && !name.ends_with(".json") && json {
        return Some(format!(
            "`{name}` is not read as a case: a case file's name ends in `.json`, in small letters; rename it"
        ));
    }
    None
}

/// Whether `text` matches `pattern`, whose `*` stands for any run of
/// characters and `?` for one.
fn glob(pattern: &str, text: &str) -> bool {
    let (p, t): (Vec<char>, Vec<char>) = (pattern.chars().collect(), text.chars().collect());
    // The classic two-pointer match, backtracking to the last `*`.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < t.len() {
        if i < p.len() && (p[i] == '?' || p[i] == t[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|&c| c == '*')
}

/// The least common multiple of the non-empty groups' test counts, if the
/// whole suite's points counted in its units stay below 2^53 (exact in
/// every JSON reader).
fn denominator(groups: &[Group]) -> Option<u64> {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 { a } else { gcd(b, a % b) }
    }
    let mut lcm: u64 = 1;
    for n in groups
        .iter()
        .map(|g| g.cases.len() as u64)
        .filter(|&n| n > 0)
    {
        lcm = (lcm / gcd(lcm, n)).checked_mul(n)?;
    }
    let weight: u64 = groups.iter().map(|g| g.weight).sum();
    weight
        .max(1)
        .checked_mul(lcm)
        .filter(|&units| units < 1 << 53)
        .map(|_| lcm)
}

fn list_ids(root: &Path) -> Vec<String> {
    ids(root).unwrap_or_default()
}

#[cfg(test)]
mod glob_tests {
    use super::glob;

    #[test]
    fn globs_match_whole_names() {
        assert!(glob("edge", "edge") && !glob("edge", "edges") && !glob("edg", "edge"));
        assert!(glob("*-node", "single-node") && glob("*", "") && glob("e?ge", "edge"));
        assert!(glob("a*b*c", "aXbYbZc") && !glob("a*b*c", "aXbYbZ"));
        assert!(glob("non-*-keys", "non-ascii-keys") && glob("**", "x"));
    }
}
