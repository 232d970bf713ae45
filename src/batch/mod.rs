//! Grading a class: a folder with one entry (folder or file) per student,
//! graded in parallel, each result saved as it finishes so that an
//! interrupted batch resumes where it stopped; sharding over a CI matrix by
//! rendezvous hashing; merging shard reports; the gradebook.

pub mod rejudge;
mod results;

use crate::error::Error;
use crate::grade::Grading;
use crate::lang::Submission;
use crate::report::{Report, SubmissionReport};
use results::Results;
use std::collections::{BTreeMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// One student's submission in a batch.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The student's name in every format: their folder's or file's name,
    /// unique in the run ([`crate::report::names::student_names`]).
    pub name: String,
    /// The student's folder or file, as found.
    pub path: PathBuf,
    /// The file to grade, or why there is none.
    pub file: Result<PathBuf, String>,
    /// A file found among others in a class folder: its sessions are
    /// granted that file alone, never the folder (the other students'
    /// files, a roster, a `.git` with everyone's history).
    pub alone: bool,
}

/// What the command line's paths hold.
#[derive(Debug, Default)]
pub struct Found {
    /// The submissions, in the order given (a class folder's by name).
    pub entries: Vec<Entry>,
    /// Files of class folders that are no submission (a README, a roster):
    /// not graded.
    pub skipped: Vec<PathBuf>,
}

/// Expands the command line's paths: a file is one submission; a folder
/// holding an entry file (`router.*`) is one student's; any other folder
/// holds one entry per student (a subfolder, or a file a language is known
/// for), and its other files are skipped. A folder that yields no
/// submission is refused: a mis-mounted class folder must not pass.
pub fn entries(paths: &[PathBuf]) -> Result<Found, Error> {
    let mut found = Found::default();
    for path in paths {
        if !path.is_dir() {
            found.entries.push(Entry {
                name: String::new(),
                path: path.clone(),
                file: Ok(path.clone()),
                alone: false,
            });
        } else if holds_entry_file(path) {
            found.entries.push(Entry {
                name: String::new(),
                path: path.clone(),
                file: entry_file(path),
                alone: false,
            });
        } else {
            class(path, &mut found)?;
        }
    }
    // Files named on the command line that share a folder (`grade
    // class/*.py`) are a class of files too: none is granted the folder.
    let folder = |e: &Entry| {
        e.file
            .as_ref()
            .ok()
            .filter(|f| **f == e.path)
            .and_then(|f| std::path::absolute(f).ok())
            .and_then(|f| f.parent().and_then(|d| std::fs::canonicalize(d).ok()))
    };
    let folders: Vec<Option<PathBuf>> = found.entries.iter().map(folder).collect();
    for (i, entry) in found.entries.iter_mut().enumerate() {
        let shared = folders[i].as_ref().is_some_and(|mine| {
            folders
                .iter()
                .enumerate()
                .any(|(j, other)| j != i && other.as_ref() == Some(mine))
        });
        entry.alone |= shared;
    }
    // The same student found twice (a class and one of its folders, or
    // one path given twice) would be graded twice.
    let mut seen: BTreeMap<PathBuf, &Path> = BTreeMap::new();
    for e in &found.entries {
        let real = std::fs::canonicalize(&e.path).unwrap_or_else(|_| e.path.clone());
        if let Some(first) = seen.insert(real, &e.path) {
            return Err(Error::Usage(format!(
                "{} and {} are the same submission; give each student once",
                first.display(),
                e.path.display()
            )));
        }
    }
    let paths: Vec<&Path> = found.entries.iter().map(|e| e.path.as_path()).collect();
    let names = crate::report::names::student_names(&paths);
    for (entry, name) in found.entries.iter_mut().zip(names) {
        entry.name = name;
    }
    Ok(found)
}

/// The students of the class folder `dir`, added to `found`.
fn class(dir: &Path, found: &mut Found) -> Result<(), Error> {
    let mut children: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| {
            Error::Usage(format!(
                "cannot read the batch folder {}: {e}",
                dir.display()
            ))
        })?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    children.sort();
    let before = found.entries.len();
    let mut skipped = Vec::new();
    for child in children {
        let file = if child.is_dir() {
            entry_file(&child)
        } else if is_submission_file(&child) {
            Ok(child.clone())
        } else {
            skipped.push(child);
            continue;
        };
        found.entries.push(Entry {
            name: String::new(),
            alone: file.as_ref().is_ok_and(|f| *f == child),
            path: child.clone(),
            file,
        });
    }
    if found.entries.len() == before {
        let holds = if skipped.is_empty() {
            String::new()
        } else {
            format!(
                " (it holds only {})",
                skipped
                    .iter()
                    .map(|p| p.file_name().unwrap_or_default().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        return Err(Error::Usage(format!(
            "no submissions found in {}: expected folders holding router.* or entry files{holds}; check the path (a folder mounted empty?)",
            dir.display()
        )));
    }
    found.skipped.extend(skipped);
    Ok(())
}

/// Whether `dir` holds an entry file itself: then it is one student's
/// folder (their module beside its helpers), not a class.
pub fn holds_entry_file(dir: &Path) -> bool {
    crate::lang::entry_names()
        .iter()
        .any(|name| dir.join(name).is_file())
}

/// Whether a file in a class folder is a student's: a language is known
/// for its extension, or it is executable (it may speak the protocol). A
/// file that cannot be inspected is kept, so that its student hears why.
fn is_submission_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let known = crate::lang::entry_names().iter().any(|name| {
        name.split_once('.')
            .is_some_and(|(_, ext)| ext == extension)
    });
    known || std::fs::metadata(path).map_or(true, |m| m.permissions().mode() & 0o111 != 0)
}

/// A student folder's entry file: the one `router.<ext>` with a known
/// extension, or an executable `router` (see [`crate::lang::entry_names`]).
pub fn entry_file(dir: &Path) -> Result<PathBuf, String> {
    let names = crate::lang::entry_names();
    let found: Vec<PathBuf> = names
        .iter()
        .map(|name| dir.join(name))
        .filter(|p| p.is_file())
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => {
            let (bare, modules) = names.split_last().expect("entry names");
            Err(format!(
                "no entry file in {}: expected one of {}, or an executable `{bare}`",
                dir.display(),
                modules.join(", ")
            ))
        }
        many => Err(format!(
            "several entry files in {} ({}); keep exactly one router.*",
            dir.display(),
            many.iter()
                .map(|p| p
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// The shard (1-based, of `shards`) that grades submission `name`: the
/// highest h32("shard-K:" + name), by rendezvous hashing, so that changing
/// the number of shards moves as few submissions as possible.
pub fn shard_of(name: &str, shards: u32) -> u32 {
    (1..=shards)
        .max_by_key(|k| {
            (
                reference::h32(&format!("shard-{k}:{name}")),
                std::cmp::Reverse(*k),
            )
        })
        .unwrap_or(1)
}

// A report records its shard, so the type lives with reports.
pub use crate::report::Shard;

/// A results folder to grade into, and what to record in it.
pub struct ResultsFolder<'a> {
    /// The folder.
    pub dir: &'a Path,
    /// Whether this run adds to what the folder holds (`--resume`) rather
    /// than starting it over.
    pub resume: bool,
    /// The grading command of this run, as `grader rejudge` reads it.
    pub command: &'a [u8],
    /// The command to record when this run adds to a folder that records
    /// `earlier`: one describing every result the folder then holds.
    pub merged: &'a dyn Fn(&[u8]) -> Vec<u8>,
}

/// Grades `entries` with `jobs` threads. With `results`, each graded
/// submission is saved there as it finishes (atomically), and when
/// resuming the ones already saved, of the same run and the same files,
/// are loaded instead of graded again.
pub fn run(
    grading: &Grading<'_>,
    entries: &[Entry],
    jobs: usize,
    results: Option<ResultsFolder<'_>>,
) -> Result<Vec<SubmissionReport>, Error> {
    let resume = results.as_ref().is_some_and(|r| r.resume);
    let results = results
        .map(|folder| Results::open(&folder, grading, entries))
        .transpose()?;
    // Hashed before grading: a submission changed meanwhile is graded
    // again next time.
    let sources: BTreeMap<&str, String> = match &results {
        Some(_) => entries
            .iter()
            .map(|e| (e.name.as_str(), results::source_hash(e)))
            .collect(),
        None => BTreeMap::new(),
    };
    let mut done: Vec<SubmissionReport> = Vec::new();
    let mut todo: VecDeque<&Entry> = entries.iter().collect();
    if let Some(saved) = results.as_ref().filter(|_| resume) {
        todo.retain(|e| match saved.load(&e.name, &sources[e.name.as_str()]) {
            Some(report) => {
                done.push(report);
                false
            }
            None => true,
        });
    }
    let progress = crate::report::progress::Progress::new(entries.len() as u64, done.len() as u64);
    let queue = Mutex::new(todo);
    let finished = Mutex::new(done);
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    if failure.lock().unwrap().is_some() {
                        return;
                    }
                    let Some(entry) = queue.lock().unwrap().pop_front() else {
                        return;
                    };
                    let graded = grade_entry(grading, entry).and_then(|report| {
                        if let Some(saved) = &results {
                            saved.save(&report, &sources[entry.name.as_str()])?;
                        }
                        Ok(report)
                    });
                    match graded {
                        Ok(report) => {
                            progress.done(&report);
                            finished.lock().unwrap().push(report);
                        }
                        Err(e) => {
                            failure.lock().unwrap().get_or_insert(e);
                            return;
                        }
                    }
                }
            });
        }
    });
    progress.finish();
    if let Some(e) = failure.into_inner().unwrap() {
        return Err(e);
    }
    let mut reports = finished.into_inner().unwrap();
    let order: Vec<&str> = entries.iter().map(|e| e.name.as_str()).collect();
    reports.sort_by_key(|r| {
        order
            .iter()
            .position(|n| *n == r.name)
            .unwrap_or(usize::MAX)
    });
    Ok(reports)
}

fn grade_entry(grading: &Grading<'_>, entry: &Entry) -> Result<SubmissionReport, Error> {
    let file = match &entry.file {
        Ok(file) => file,
        Err(why) => {
            let path = entry.path.display().to_string();
            return Ok(grading.unpreparable(&entry.name, &path, why));
        }
    };
    let path = file.display().to_string();
    match Submission::detect(file) {
        // The grader failing on one submission (a compiler it cannot
        // start, a file it cannot write) is recorded as that submission's
        // grader fault, and the rest of the class is graded: the run still
        // exits 3.
        Ok(submission) => Ok(grading
            .grade_named(&entry.name, &submission)
            .unwrap_or_else(|e| {
                let mut report = grading.faulted(&entry.name, &path, &e);
                report.language = submission.language;
                report
            })),
        // One student's unreadable or unknown file is that student's
        // problem, not the batch's.
        Err(Error::Usage(why)) => Ok(grading.unpreparable(&entry.name, &path, &why)),
        Err(e) => Ok(grading.faulted(&entry.name, &path, &e)),
    }
}

/// Combines shard reports into one: the same challenge, tests and
/// audience, every submission once, in name order.
pub fn merge(reports: Vec<(PathBuf, Report)>) -> Result<Report, Error> {
    check_shards(&reports)?;
    let mut iter = reports.into_iter();
    let Some((first_path, mut merged)) = iter.next() else {
        return Err(Error::Usage(
            "grader merge needs at least one report".into(),
        ));
    };
    for (path, report) in iter {
        for (what, a, b) in [
            ("challenge", &merged.challenge, &report.challenge),
            ("tests", &merged.tests_dir, &report.tests_dir),
            (
                "run settings (suite, limits, audience or grader version)",
                &merged.run_key,
                &report.run_key,
            ),
        ] {
            if a != b {
                return Err(Error::Usage(format!(
                    "{} and {} come from different runs: their {what} differ ({a} and {b}); merge the shards of one run",
                    first_path.display(),
                    path.display()
                )));
            }
        }
        if merged.audience != report.audience {
            return Err(Error::Usage(format!(
                "{} and {} are for different audiences",
                first_path.display(),
                path.display()
            )));
        }
        for layer in report.sandbox.missing {
            if !merged.sandbox.missing.contains(&layer) {
                merged.sandbox.missing.push(layer);
            }
        }
        merged.started_at_ms = merged.started_at_ms.min(report.started_at_ms);
        merged.finished_at_ms = merged.finished_at_ms.max(report.finished_at_ms);
        merged.submissions.extend(report.submissions);
    }
    // The shards together are the whole run.
    merged.shard = None;
    merged.submissions.sort_by(|a, b| a.name.cmp(&b.name));
    if let Some(w) = merged
        .submissions
        .windows(2)
        .find(|w| w[0].name == w[1].name)
    {
        return Err(Error::Usage(format!(
            "submission `{}` is in two of the reports; were the shards graded with the same --shard N?",
            w[0].name
        )));
    }
    Ok(merged)
}

/// Shard reports must be all of one run's shards, each once: `K/N` for
/// every K of one N. A report of a whole run merges only with others of
/// whole runs (of other submissions).
fn check_shards(reports: &[(PathBuf, Report)]) -> Result<(), Error> {
    let sharded: Vec<(&PathBuf, Shard)> = reports
        .iter()
        .filter_map(|(p, r)| Some((p, r.shard?)))
        .collect();
    if sharded.is_empty() {
        return Ok(());
    }
    if let Some((whole, _)) = reports.iter().find(|(_, r)| r.shard.is_none()) {
        return Err(Error::Usage(format!(
            "{} is the report of a whole run, and {} of shard {}/{}: merge the shards of one run only",
            whole.display(),
            sharded[0].0.display(),
            sharded[0].1.index,
            sharded[0].1.count
        )));
    }
    let count = sharded[0].1.count;
    if let Some((path, shard)) = sharded.iter().find(|(_, s)| s.count != count) {
        return Err(Error::Usage(format!(
            "{} is shard {}/{} and {} is of {count} shards: merge the shards of one run",
            path.display(),
            shard.index,
            shard.count,
            sharded[0].0.display()
        )));
    }
    let mut problems = Vec::new();
    for k in 1..=count {
        let given: Vec<&&PathBuf> = sharded
            .iter()
            .filter(|(_, s)| s.index == k)
            .map(|(p, _)| p)
            .collect();
        match given.as_slice() {
            [] => problems.push(format!("shard {k}/{count} is missing")),
            [_] => {}
            many => problems.push(format!(
                "shard {k}/{count} is given {} times ({})",
                many.len(),
                many.iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Error::Usage(format!(
            "the reports are not the {count} shards of one run: {}",
            problems.join("; ")
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_refuse_nonsense() {
        assert_eq!("2/4".parse::<Shard>(), Ok(Shard { index: 2, count: 4 }));
        for bad in ["0/4", "5/4", "2", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }

    #[test]
    fn shard_assignment_is_disjoint_complete_stable_and_balanced() {
        let names: Vec<String> = (0..20_000).map(|i| format!("student-{i:05}")).collect();
        for n in [1u32, 2, 3, 4, 7] {
            let mut counts = vec![0usize; n as usize];
            for name in &names {
                let k = shard_of(name, n);
                assert!((1..=n).contains(&k));
                // Stable: the same answer every time.
                assert_eq!(shard_of(name, n), k);
                counts[(k - 1) as usize] += 1;
            }
            // Complete and disjoint: each name in exactly one shard.
            assert_eq!(counts.iter().sum::<usize>(), names.len());
            let fair = names.len() as f64 / f64::from(n);
            for c in &counts {
                assert!((*c as f64 - fair).abs() / fair < 0.06, "n={n}: {counts:?}");
            }
        }
        // Going from 4 to 5 shards moves only what shard 5 takes.
        let moved = names
            .iter()
            .filter(|n| shard_of(n, 4) != shard_of(n, 5))
            .count();
        assert!(
            names
                .iter()
                .all(|n| shard_of(n, 4) == shard_of(n, 5) || shard_of(n, 5) == 5)
        );
        assert!(
            (moved as f64 / names.len() as f64 - 0.2).abs() < 0.03,
            "{moved}"
        );
    }
}
