//! Grading a class: a folder with one entry (folder or file) per student,
//! graded in parallel, each result saved as it finishes so that an
//! interrupted batch resumes where it stopped; sharding over a CI matrix by
//! rendezvous hashing; merging shard reports; the gradebook.

pub mod interrupt;
mod phases;
pub mod rejudge;
mod results;

use grading::Tested;
use grading::{Error, Starved};
use grading::{Graded, Grading, Hidden, SubmissionOutcome};
use grading::{NothingToGrade, Submission};
use phases::Step;
use report::Progress;
use report::{Report, SubmissionReport};
use results::Results;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

/// One student's submission in a batch.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The student's name in every format: their folder's or file's name,
    /// unique in the run ([`report::student_names`]).
    pub name: String,
    /// The student's folder or file, as found.
    pub path: PathBuf,
    /// The submission to grade, its language known, or why there is
    /// none: found once, when the command line's paths are expanded.
    pub submission: Result<Submission, Unready>,
    /// A file found among others in a class folder: its sessions are
    /// granted that file alone, never the folder (the other students'
    /// files, a roster, a `.git` with everyone's history).
    pub alone: bool,
}

impl Entry {
    /// The file found to grade, recognised or not.
    pub fn file(&self) -> Option<&Path> {
        match &self.submission {
            Ok(submission) => Some(&submission.path),
            Err(Unready::Unrecognised { file, .. } | Unready::Fault { file, .. }) => Some(file),
            Err(Unready::NoFile { .. }) => None,
        }
    }

    /// What a report names: the file found, else the student's folder.
    fn shown(&self) -> String {
        self.file().unwrap_or(&self.path).display().to_string()
    }
}

/// Why a student found in a class has nothing to grade.
#[derive(Debug, Clone)]
pub enum Unready {
    /// The student's own: no entry file in their folder, or several.
    NoFile { why: NothingToGrade },
    /// The student's own: the file found is of no known language, cannot
    /// be read, or is a link out of its folder.
    Unrecognised { file: PathBuf, why: NothingToGrade },
    /// The grader's: it could not resolve the file's path.
    Fault {
        file: PathBuf,
        error: std::sync::Arc<Error>,
    },
}

/// The submission in `file` (found, or why not), or why it has none.
fn detected(file: Result<PathBuf, NothingToGrade>) -> Result<Submission, Unready> {
    let file = file.map_err(|why| Unready::NoFile { why })?;
    Submission::detect(&file).map_err(|error| match error {
        Error::NothingToGrade(why) => Unready::Unrecognised { file, why },
        error => Unready::Fault {
            file,
            error: std::sync::Arc::new(error),
        },
    })
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
    // A file named on the command line that cannot be graded is bad
    // usage (a typo), told before any folder is read.
    let named = paths
        .iter()
        .map(|path| {
            (!path.is_dir())
                .then(|| Submission::detect(path))
                .transpose()
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut found = Found::default();
    // For each entry, the command line's path it was found in.
    let mut given: Vec<&Path> = Vec::new();
    for (path, named) in paths.iter().zip(named) {
        if let Some(submission) = named {
            found.entries.push(Entry {
                name: String::new(),
                path: path.clone(),
                submission: Ok(submission),
                alone: false,
            });
        } else if holds_entry_file(path) {
            found.entries.push(Entry {
                name: String::new(),
                path: path.clone(),
                submission: detected(entry_file(path)),
                alone: false,
            });
        } else {
            class(path, &mut found)?;
        }
        given.resize(found.entries.len(), path);
    }
    // Files named on the command line that share a folder (`grade
    // class/*.py`) are a class of files too: none is granted the folder.
    let folder = |e: &Entry| {
        e.file()
            .filter(|f| *f == e.path)
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
    let mut seen: BTreeMap<PathBuf, usize> = BTreeMap::new();
    for (i, e) in found.entries.iter().enumerate() {
        let real = std::fs::canonicalize(&e.path).unwrap_or_else(|_| e.path.clone());
        if let Some(first) = seen.insert(real, i) {
            let twice = twice(
                (&found.entries[first].path, given[first]),
                (&e.path, given[i]),
            );
            return Err(Error::Usage(format!("{twice}; give each student once")));
        }
    }
    let paths: Vec<&Path> = found.entries.iter().map(|e| e.path.as_path()).collect();
    let names = report::student_names(&paths);
    for (entry, name) in found.entries.iter_mut().zip(names) {
        entry.name = name;
    }
    Ok(found)
}

/// What is wrong with one submission found twice, as `(path, given)`
/// each: its path, and the command line's path it was found in (itself,
/// or a class folder holding it).
fn twice(a: (&Path, &Path), b: (&Path, &Path)) -> String {
    let shown = |p: &Path| report::visible(&p.display().to_string());
    let how = |(path, given): (&Path, &Path)| {
        if path == given {
            "as itself".to_owned()
        } else {
            format!("inside `{}`", shown(given))
        }
    };
    if a.0 != b.0 {
        format!(
            "`{}` ({}) and `{}` ({}) are the same submission",
            shown(a.0),
            how(a),
            shown(b.0),
            how(b)
        )
    } else if a.1 == b.1 {
        format!("`{}` is given twice", shown(a.0))
    } else {
        format!(
            "`{}` is given twice: once {} and once {}",
            shown(a.0),
            how(a),
            how(b)
        )
    }
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
            submission: detected(file),
            path: child,
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
    grading::entry_names()
        .iter()
        .any(|name| file_or_link(&dir.join(name)))
}

/// Why a platform's single upload `dir`, which holds no entry file, has
/// nothing to grade, with its files listed for the words to suggest the
/// rename.
pub fn no_entry_file(dir: &Path) -> Result<NothingToGrade, Error> {
    Ok(NothingToGrade::NoEntryFile {
        folder: dir.to_owned(),
        expected: grading::entry_names(),
        found: Some(listing(dir)?),
    })
}

/// The names in the student's folder, sorted, a folder's with a `/`;
/// hidden ones left out, as the grader leaves them. An entry file one
/// folder down (an upload of the folder that holds the work, `src/`) is
/// listed too, as `src/router.py`, so that the learner is told to move it.
fn listing(dir: &Path) -> Result<Vec<String>, Error> {
    let entries =
        std::fs::read_dir(dir).map_err(Error::io(format!("cannot read {}", dir.display())))?;
    let entry_names = grading::entry_names();
    let mut names: Vec<String> = Vec::new();
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') {
            continue;
        }
        // Never followed: a link is listed by its own name.
        if !e.file_type().is_ok_and(|t| t.is_dir()) {
            names.push(name);
            continue;
        }
        names.push(format!("{name}/"));
        names.extend(
            entry_names
                .iter()
                .filter(|entry| {
                    std::fs::symlink_metadata(e.path().join(entry)).is_ok_and(|m| m.is_file())
                })
                .map(|entry| format!("{name}/{entry}")),
        );
    }
    names.sort();
    Ok(names)
}

/// Whether `path` is a file or a symbolic link, the link never followed:
/// where a student's link leads is looked at only when their submission
/// is recognised ([`Submission::detect`]), through their folder alone, so
/// that whether its target exists (or is executable) outside the folder
/// changes nothing a report shows.
fn file_or_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file() || m.file_type().is_symlink())
}

/// Whether a file in a class folder is a student's: a language is known
/// for its extension, or it is executable (it may speak the protocol). A
/// file that cannot be inspected is kept, so that its student hears why.
fn is_submission_file(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let known = grading::entry_names().iter().any(|name| {
        name.split_once('.')
            .is_some_and(|(_, ext)| ext == extension)
    });
    known
        || std::fs::symlink_metadata(path).map_or(true, |m| {
            m.file_type().is_symlink() || m.permissions().mode() & 0o111 != 0
        })
}

/// A student folder's entry file: the one `router.<ext>` with a known
/// extension, or an executable `router` (see [`grading::entry_names`]).
pub fn entry_file(dir: &Path) -> Result<PathBuf, NothingToGrade> {
    let names = grading::entry_names();
    let found: Vec<PathBuf> = names
        .iter()
        .map(|name| dir.join(name))
        .filter(|p| file_or_link(p))
        .collect();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(NothingToGrade::NoEntryFile {
            folder: dir.to_owned(),
            expected: names.clone(),
            found: None,
        }),
        many => Err(NothingToGrade::SeveralEntryFiles {
            folder: dir.to_owned(),
            found: many
                .iter()
                .map(|p| {
                    p.file_name()
                        .unwrap_or_default()
                        .to_string_lossy()
                        .into_owned()
                })
                .collect(),
        }),
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
pub use report::Shard;

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
    /// The results the folder holds for this run, counted as each is
    /// saved and held while one is: a stopped run says how many
    /// ([`interrupt`]).
    pub saved: &'a Mutex<usize>,
}

/// Grades `entries` with `jobs` threads. With `results`, each graded
/// submission is saved there as it finishes (atomically), and when
/// resuming the ones already saved, of the same run and the same files,
/// are loaded instead of graded again.
pub fn run(
    grading: &Grading<'_>,
    entries: &[Entry],
    jobs: usize,
    progress: &Progress,
    results: Option<ResultsFolder<'_>>,
) -> Result<Vec<SubmissionReport>, Error> {
    let resume = results.as_ref().is_some_and(|r| r.resume);
    let saved_count = results.as_ref().map(|r| r.saved);
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
    let mut todo: Vec<&Entry> = entries.iter().collect();
    if let Some(saved) = results.as_ref().filter(|_| resume) {
        todo.retain(|e| match saved.load(&e.name, &sources[e.name.as_str()]) {
            Some(report) => {
                done.push(report);
                false
            }
            None => true,
        });
    }
    if let Some(count) = saved_count {
        *count.lock().unwrap_or_else(PoisonError::into_inner) = done.len();
    }
    progress.start(done.len() as u64);
    let finished = Mutex::new(done);
    // Saves and counts a submission graded to the end.
    let finish = |entry: &Entry, report: SubmissionReport| -> Result<(), Error> {
        if let (Some(saved), Some(count)) = (&results, saved_count) {
            let mut count = count.lock().unwrap_or_else(PoisonError::into_inner);
            saved.save(&report, &sources[entry.name.as_str()])?;
            *count += 1;
        }
        progress.done(&report);
        finished.lock().unwrap().push(report);
        Ok(())
    };
    phases::schedule(&Class(grading), jobs, todo, finish)?;
    progress.finish();
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

/// What the grading's threads are told as each test ends: the progress
/// line, and with `grade --events` the lines `grader watch` reads.
pub struct Told<'p> {
    pub progress: &'p Progress,
    pub events: Option<Events>,
}

impl grading::Observer for Told<'_> {
    fn ran(&self, name: &str, tested: &Tested<'_>) {
        self.progress.ran(name);
        if let Some(events) = &self.events {
            events.tell(tested);
        }
    }
}

/// The events of one submission's grading (`grade --events`), on standard
/// error: every test as it ends, the first failure the reader may see in
/// full.
pub struct Events {
    audience: report::Audience,
    denominator: u64,
    of: u64,
    /// Tests run so far, and whether a failure was told.
    told: Mutex<(u64, bool)>,
}

impl Events {
    pub fn new(audience: report::Audience, denominator: u64, of: u64) -> Events {
        Events {
            audience,
            denominator,
            of,
            told: Mutex::new((0, false)),
        }
    }

    fn tell(&self, tested: &Tested<'_>) {
        let mut told = self.told.lock().unwrap();
        told.0 += 1;
        // A test the reader may not see is not told as it ends: when each
        // ended would give its time, which a learner's report withholds.
        // The count catches up at the next test told, or with the report.
        if !self.audience.sees(tested.group.visibility) {
            return;
        }
        let failed = match told.1 {
            true => None,
            false => report::failed_early(tested, self.audience, self.denominator),
        };
        told.1 |= failed.is_some();
        let event = report::Event {
            ran: told.0,
            of: self.of,
            failed: failed.map(Box::new),
        };
        // Made safe as every JSON the grader prints: a learner's text in
        // the failure cannot steer a terminal that shows the line.
        if let Ok(line) = report::safe_json_compact(&event) {
            eprintln!("{}{line}", report::EVENT_PREFIX);
        }
    }
}

/// A class graded by `Grading`, phase by phase.
struct Class<'g, 'a>(&'g Grading<'a>);

impl<'a> phases::Phases for Class<'_, 'a> {
    type Pending = Box<grading::Pending<'a>>;
    type Report = SubmissionReport;

    fn visible(&self, entry: &Entry) -> Step<Self::Pending, SubmissionReport> {
        visible_phase(self.0, entry)
    }

    fn hidden(
        &self,
        entry: &Entry,
        pending: Self::Pending,
    ) -> Step<Self::Pending, SubmissionReport> {
        match self.0.grade_hidden_or_starved(*pending) {
            Hidden::Graded(graded) => Step::Graded(record(self.0, finished(entry, *graded))),
            Hidden::Starved(pending, _) => Step::Starved(Some(pending)),
        }
    }

    fn visible_alone(&self, entry: &Entry) -> Step<Self::Pending, SubmissionReport> {
        visible_or_starved(self.0, entry).unwrap_or_else(|why| {
            Step::Graded(record(self.0, fault(entry, Error::Busy(why.again_alone()))))
        })
    }

    fn hidden_alone(&self, entry: &Entry, pending: Self::Pending) -> SubmissionReport {
        let outcome = match self.0.grade_hidden_or_starved(*pending) {
            Hidden::Graded(graded) => finished(entry, *graded),
            Hidden::Starved(_, why) => fault(entry, Error::Busy(why.again_alone())),
        };
        *record(self.0, outcome)
    }
}

/// The visible phase of `entry`'s grading.
fn visible_phase<'a>(
    grading: &Grading<'a>,
    entry: &Entry,
) -> Step<Box<grading::Pending<'a>>, SubmissionReport> {
    visible_or_starved(grading, entry).unwrap_or(Step::Starved(None))
}

/// The visible phase of `entry`'s grading, or why the machine starved it.
fn visible_or_starved<'a>(
    grading: &Grading<'a>,
    entry: &Entry,
) -> Result<Step<Box<grading::Pending<'a>>, SubmissionReport>, Starved> {
    let outcome = match &entry.submission {
        Ok(submission) => match grading.grade_visible(&entry.name, submission) {
            // Nothing waits for a hidden phase: the record is final now,
            // and saved as soon as it is (an interrupted class resumes
            // from there).
            Ok(pending) if !grading.has_hidden_phase() => match grading.grade_hidden(pending) {
                Err(Error::Busy(why)) => return Err(why),
                graded => finished(entry, graded),
            },
            Ok(pending) => return Ok(Step::Pending(Box::new(pending))),
            Err(Error::Busy(why)) => return Err(why),
            Err(e) => fault(entry, e),
        },
        // One student's missing, unreadable or unknown file is that
        // student's problem, not the batch's.
        Err(Unready::NoFile { why } | Unready::Unrecognised { why, .. }) => {
            SubmissionOutcome::Unpreparable {
                name: entry.name.clone(),
                path: entry.shown(),
                why: why.clone(),
            }
        }
        Err(Unready::Fault { error, .. }) => SubmissionOutcome::Faulted {
            name: entry.name.clone(),
            path: entry.shown(),
            language: None,
            error: error.clone(),
        },
    };
    Ok(Step::Graded(record(grading, outcome)))
}

/// The report of `outcome`: every student's record is made here.
fn record(grading: &Grading<'_>, outcome: SubmissionOutcome<'_>) -> Box<SubmissionReport> {
    Box::new(report::record(grading, outcome))
}

/// What `entry`'s last phase came to: graded, or the grader failed on it.
fn finished<'a>(entry: &Entry, graded: Result<Graded<'a>, Error>) -> SubmissionOutcome<'a> {
    match graded {
        Ok(graded) => SubmissionOutcome::Graded(Box::new(graded)),
        Err(e) => fault(entry, e),
    }
}

/// The grader failing on `entry` with `error` (a compiler it cannot start,
/// a file it cannot write, a machine too busy): that submission's grader
/// fault, and the rest of the class is graded (the run exits 3).
fn fault<'a>(entry: &Entry, error: Error) -> SubmissionOutcome<'a> {
    SubmissionOutcome::Faulted {
        name: entry.name.clone(),
        path: entry.shown(),
        language: entry.submission.as_ref().ok().map(|s| s.language),
        error: std::sync::Arc::new(error),
    }
}

/// Combines shard reports into one: the same challenge, suite (wherever
/// each shard read it from) and audience, every submission once, in name
/// order.
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

    /// A file named on the command line beside a class folder it is in
    /// shares that folder with the class's files, whether or not those
    /// can be graded (here a link out of the folder): its sessions are
    /// granted the file alone, and every file found is one another
    /// session must not reach.
    #[test]
    fn a_named_file_shares_its_folder_with_files_that_cannot_be_graded() {
        let dir = tempfile::tempdir().unwrap();
        let class = dir.path().join("class");
        std::fs::create_dir(&class).unwrap();
        std::fs::write(class.join(".late.py"), "").unwrap();
        std::fs::write(dir.path().join("outside.py"), "").unwrap();
        std::os::unix::fs::symlink("../outside.py", class.join("bob.py")).unwrap();
        let found = entries(&[class.join(".late.py"), class.clone()]).unwrap();
        let [late, bob] = found.entries.as_slice() else {
            panic!("{:?}", found.entries);
        };
        assert!(late.submission.is_ok(), "{late:?}");
        assert!(
            matches!(bob.submission, Err(Unready::Unrecognised { .. })),
            "{bob:?}"
        );
        assert_eq!(bob.file(), Some(class.join("bob.py").as_path()));
        assert!(late.alone, "{late:?}");
    }

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
