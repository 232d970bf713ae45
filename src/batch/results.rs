//! A batch's results folder: each submission's result saved as it
//! finishes, reused by `--resume` only when nothing that decides it has
//! changed, and the folder held by one run at a time.
//!
//! A result is reused when the run key (the grader's version, the
//! challenge, the tests and their expected answers, the audience and every
//! limit) is the one the folder was made with, and the submission's own
//! files hash as they did when it was graded.

use super::Entry;
use grading::Error;
use grading::Grading;
use grading::hex;
use grading::write_atomically;
use report::SubmissionReport;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The lock file a run holds (an exclusive `flock`) while it writes the
/// folder; the kernel releases it when the run ends, however it ends.
pub(super) const LOCK: &str = ".lock";

/// How long a results folder's lock is waited for before the folder is
/// said to be in use: long enough for the children of a run killed a
/// moment ago to let it go, short beside any real grading run.
pub(super) const LOCK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(2);

/// The grading command a results folder was made by, recorded so that
/// `grader rejudge` can grade it again.
pub(super) const COMMAND: &str = "command.json";

/// A saved result and the hash of the submission it is the result of.
#[derive(Serialize, Deserialize)]
pub(super) struct Saved {
    pub(super) source: String,
    pub(super) report: SubmissionReport,
}

/// A results folder this run holds: no other run writes it meanwhile.
pub(super) struct Results {
    dir: PathBuf,
    /// Holds the lock; closing it (at the end of the run) releases it.
    _lock: std::fs::File,
}

impl Results {
    /// Takes the folder for this run, which grades `entries`: created if
    /// need be, proved writable, locked, and checked to hold results of
    /// this same run. A fresh run (not resuming) starts it over, and is
    /// refused when that would delete the results of students it does
    /// not grade. The grading command is recorded beside the results,
    /// merged with the folder's when resuming.
    pub(super) fn open(
        folder: &super::ResultsFolder<'_>,
        grading: &Grading<'_>,
        entries: &[Entry],
    ) -> Result<Results, Error> {
        let (dir, resume) = (folder.dir, folder.resume);
        let unwritable = |e: std::io::Error| {
            Error::Usage(format!(
                "cannot write the results folder {} ({e}); give --results a folder the grader can create and write",
                dir.display()
            ))
        };
        std::fs::create_dir_all(dir).map_err(unwritable)?;
        // Proves that files can be made there, leaving none behind.
        tempfile::tempfile_in(dir).map_err(unwritable)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(LOCK))
            .map_err(unwritable)?;
        if !sys::try_lock_within(&lock, LOCK_PATIENCE).map_err(unwritable)? {
            return Err(Error::Usage(format!(
                "the results folder {} is in use by another grading run (it holds {}); wait for that run to end, or give this one another --results folder",
                dir.display(),
                dir.join(LOCK).display()
            )));
        }
        let key = grading.run_key();
        let key_path = dir.join("run.json");
        if let Ok(bytes) = std::fs::read(&key_path) {
            let existing: serde_json::Value =
                serde_json::from_slice(&bytes).unwrap_or(serde_json::Value::Null);
            let wanted = serde_json::to_value(key).unwrap_or_default();
            if existing != wanted {
                return Err(Error::Usage(format!(
                    "{} holds results of another grading run ({}); use another --results folder or empty this one",
                    dir.display(),
                    differences(&existing, &wanted)
                )));
            }
            if !resume {
                // A fresh run replaces what an earlier one left, but only
                // when it grades everyone that was: another student's
                // result would be lost without a word.
                let graded: BTreeSet<String> =
                    entries.iter().map(|e| result_file(&e.name)).collect();
                let saved: Vec<PathBuf> = std::fs::read_dir(dir)
                    .into_iter()
                    .flatten()
                    .flatten()
                    .map(|e| e.path())
                    .filter(|p| {
                        p.file_name()
                            .is_some_and(|n| n.to_string_lossy().ends_with(RESULT))
                    })
                    .collect();
                let others = others(&saved, &graded);
                if !others.is_empty() {
                    return Err(Error::Usage(format!(
                        "{} holds the results of {} this run does not grade ({}); grading into it afresh would delete them: add --resume to grade into it beside them, give another --results folder, or remove {} to start over",
                        dir.display(),
                        grading::counted(others.len(), "student"),
                        listed(&others),
                        dir.display()
                    )));
                }
                for path in saved {
                    let _ = std::fs::remove_file(path);
                }
            }
        }
        let command = match std::fs::read(dir.join(COMMAND)) {
            Ok(earlier) if resume => (folder.merged)(&earlier),
            _ => folder.command.to_vec(),
        };
        write_atomically(
            &key_path,
            &serde_json::to_vec_pretty(key).unwrap_or_default(),
        )?;
        write_atomically(&dir.join(COMMAND), &command)?;
        Ok(Results {
            dir: dir.to_owned(),
            _lock: lock,
        })
    }

    /// The saved result of `name`, if it is one of the submission whose
    /// files hash to `source` and no grader fault (resuming grades a fault
    /// again).
    pub(super) fn load(&self, name: &str, source: &str) -> Option<SubmissionReport> {
        let bytes = std::fs::read(self.path(name)).ok()?;
        serde_json::from_slice::<Saved>(&bytes)
            .ok()
            .filter(|s| s.source == source)
            .map(|s| s.report)
            .filter(|r| r.name == name && r.verdict != report::contract::Verdict::GraderFault)
    }

    /// Saves `report`, the result of the submission whose files hash to
    /// `source`.
    /// The file holds the learner's text as JSON escapes where a terminal
    /// or a CI runner would obey it (see [`report::safe_json`]).
    pub(super) fn save(&self, report: &SubmissionReport, source: &str) -> Result<(), Error> {
        let text = report::safe_json_compact(&serde_json::json!({
            "source": source,
            "report": report,
        }))
        .map_err(|e| Error::io("cannot encode a result")(e.into()))?;
        write_atomically(&self.path(&report.name), text.as_bytes())
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(result_file(name))
    }
}

/// How a saved result's file name ends.
const RESULT: &str = ".result.json";

/// The file name of student `name`'s result. A name may hold folders
/// (`a/ada`): one file per name, in the folder itself.
pub(super) fn result_file(name: &str) -> String {
    format!("{}{RESULT}", report::file_name(name))
}

/// The students of the results `saved` whose file is none of `graded`,
/// by the names their files give, in order.
fn others(saved: &[PathBuf], graded: &BTreeSet<String>) -> Vec<String> {
    let mut others: Vec<String> = saved
        .iter()
        .filter_map(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .filter(|n| !graded.contains(n))
        .map(|n| n.trim_end_matches(RESULT).to_owned())
        .collect();
    others.sort();
    others
}

/// The first few of `names`, shown as learner text, and how many more.
fn listed(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let mut text: Vec<String> = names
        .iter()
        .take(SHOWN)
        .map(|n| report::visible(n))
        .collect();
    if names.len() > SHOWN {
        text.push(format!("and {} more", names.len() - SHOWN));
    }
    text.join(", ")
}

/// What differs between the key a folder was made with and this run's,
/// named for the person who must decide.
fn differences(existing: &serde_json::Value, wanted: &serde_json::Value) -> String {
    let (Some(old), Some(new)) = (existing.as_object(), wanted.as_object()) else {
        return "its run.json is unreadable".into();
    };
    let changed: Vec<String> = new
        .iter()
        .filter(|(field, value)| old.get(*field) != Some(value))
        .map(|(field, value)| {
            let was = old.get(field).map_or("unset".into(), |v| v.to_string());
            match field.as_str() {
                "suite" => "the tests or challenge.toml changed".to_owned(),
                _ => format!("{} was {was}, now {value}", changed_by(field)),
            }
        })
        .collect();
    if changed.is_empty() {
        "its run.json is another grader's".into()
    } else {
        changed.join("; ")
    }
}

/// What sets the run key's `field`, as the one who changed it knows it: a
/// flag (or challenge.toml, for the limits it alone sets).
fn changed_by(field: &str) -> String {
    let by = match field {
        "grader" => "the grader's version",
        "challenge" => "--challenge",
        "only" => "--only",
        "audience" => "--audience",
        "time_limits_ms" => "--time-limit (or challenge.toml's time_ms), in ms per group,",
        "memory_bytes" => "--memory-limit (or challenge.toml's memory_mb), in bytes,",
        "output_bytes" => "--output-limit (or challenge.toml's output_mb), in bytes,",
        "extra_run_ms" => "--extra-run-limit (or challenge.toml's extra_run_ms)",
        "extras_budget_ms" => "--extras-budget (or challenge.toml's extras_budget_ms)",
        "sandbox" => "the sandbox (--no-sandbox)",
        "processes" => "challenge.toml's processes",
        "open_files" => "challenge.toml's open_files",
        "file_size_bytes" => "challenge.toml's file_size_mb, in bytes,",
        "scratch_bytes" => "challenge.toml's scratch_mb, in bytes,",
        other => other,
    };
    by.to_owned()
}

/// The most bytes of one submission's files the hash reads: what the
/// sandbox's copy of a submission may hold. A file beyond it is hashed by
/// its size and time of change, so that the grader's memory and time stay
/// bounded whatever a student's folder holds (a sparse file of gigabytes).
const HASHED_BYTES: u64 = 64 << 20;
/// The most entries of a student's folder the hash walks.
const HASHED_ENTRIES: usize = 10_000;

/// A hash of what grading `entry` reads of it: for a student's folder,
/// every file and link beneath it (a link by where it points, never
/// followed: what it reaches within the folder is hashed as itself); for a
/// file given alone, the file (a link out of its folder only by where it
/// points, as such an entry is refused unread). Only regular files are
/// opened, never blocking and never through a link (a FIFO would stop the
/// run), and at most [`HASHED_BYTES`] of them are read, a chunk at a time.
pub(super) fn source_hash(entry: &Entry) -> String {
    let mut hasher = Hashed {
        sha: Sha256::new(),
        budget: HASHED_BYTES,
    };
    let path = &entry.path;
    if path.is_dir() {
        // The root is followed when it is a link (a class of links to
        // checkouts); nothing beneath it is.
        let walk = walkdir::WalkDir::new(path)
            .follow_links(false)
            .sort_by_file_name()
            .min_depth(1);
        for (n, item) in walk.into_iter().enumerate() {
            if n == HASHED_ENTRIES {
                hasher.put("more", b"");
                break;
            }
            let item = match item {
                Ok(item) => item,
                Err(e) => {
                    hasher.put("error", e.to_string().as_bytes());
                    continue;
                }
            };
            let rel = item.path().strip_prefix(path).unwrap_or(item.path());
            let rel = rel.as_os_str().as_encoded_bytes();
            let kind = item.file_type();
            if kind.is_symlink() {
                hasher.put("link", rel);
                let target = std::fs::read_link(item.path()).unwrap_or_default();
                hasher.put("to", target.as_os_str().as_encoded_bytes());
            } else if kind.is_file() {
                hasher.put("file", rel);
                hasher.file(item.path());
            } else {
                hasher.put("other", rel);
            }
        }
    } else {
        let folder = std::path::absolute(path)
            .ok()
            .and_then(|p| p.parent().and_then(|f| std::fs::canonicalize(f).ok()));
        let real = std::fs::canonicalize(path).ok();
        match (folder, real) {
            (Some(folder), Some(real)) if real.starts_with(&folder) => hasher.file(&real),
            _ => {
                let target = std::fs::read_link(path).unwrap_or_default();
                hasher.put("to", target.as_os_str().as_encoded_bytes());
            }
        }
    }
    hex(&hasher.sha.finalize())
}

/// A submission's hash as it is taken, and how many more bytes it may read.
struct Hashed {
    sha: Sha256,
    budget: u64,
}

impl Hashed {
    fn put(&mut self, tag: &str, bytes: &[u8]) {
        self.sha.update(tag.as_bytes());
        self.sha.update((bytes.len() as u64).to_le_bytes());
        self.sha.update(bytes);
    }

    /// Hashes the regular file at `path` (not a link), by its bytes while
    /// the budget lasts, else by its size and time of change; anything
    /// else there (a FIFO, a device, a socket) by its kind alone.
    fn file(&mut self, path: &Path) {
        use std::io::Read;
        use std::os::unix::fs::{FileTypeExt, MetadataExt, OpenOptionsExt};
        let kind = match std::fs::symlink_metadata(path) {
            Ok(meta) => meta.file_type(),
            Err(e) => return self.put("error", e.to_string().as_bytes()),
        };
        if !kind.is_file() {
            let what = if kind.is_fifo() {
                "fifo"
            } else if kind.is_socket() {
                "socket"
            } else if kind.is_block_device() || kind.is_char_device() {
                "device"
            } else {
                "special"
            };
            return self.put(what, b"");
        }
        // Never blocks nor follows a link, should the file have been
        // replaced by one since it was looked at.
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
            .open(path);
        let mut file = match opened {
            Ok(file) => file,
            Err(e) => return self.put("error", e.to_string().as_bytes()),
        };
        let meta = match file.metadata() {
            Ok(meta) if meta.is_file() => meta,
            Ok(_) => return self.put("special", b""),
            Err(e) => return self.put("error", e.to_string().as_bytes()),
        };
        if meta.len() > self.budget {
            self.budget = 0;
            let stamp = [meta.len(), meta.ctime() as u64, meta.ctime_nsec() as u64];
            let bytes: Vec<u8> = stamp.iter().flat_map(|n| n.to_le_bytes()).collect();
            return self.put("large", &bytes);
        }
        self.sha.update(b"bytes");
        self.sha.update(meta.len().to_le_bytes());
        let mut chunk = vec![0u8; 64 << 10];
        let mut left = meta.len();
        while left > 0 {
            let want = chunk.len().min(left as usize);
            match file.read(&mut chunk[..want]) {
                Ok(0) => break,
                Ok(n) => {
                    self.sha.update(&chunk[..n]);
                    left -= n as u64;
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return self.put("error", e.to_string().as_bytes()),
            }
        }
        // A file that shrank as it was read hashes otherwise than whole.
        self.sha.update(left.to_le_bytes());
        self.budget -= meta.len() - left;
    }
}
