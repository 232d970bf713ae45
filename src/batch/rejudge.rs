//! The files of rejudging a results folder: holding it while it is graded
//! again, reading what it holds, grading aside into a folder beside it,
//! and putting that folder in its place in one step.

use grading::Error;
use report::SubmissionReport;
use std::path::{Path, PathBuf};

/// A results folder held while it is rejudged: by a lock beside it,
/// which no exchange moves, against every other rejudge, and by the
/// folder's own lock against grading runs.
pub struct Held {
    dir: PathBuf,
    /// Closing them releases the locks.
    locks: Vec<std::fs::File>,
}

/// The file beside a results folder that a rejudge holds locked from its
/// start to its end. The folder's own lock moves with the folder when
/// `--apply` exchanges it, so it cannot keep a second rejudge out.
fn rejudge_lock(dir: &Path) -> PathBuf {
    sibling(dir, ".", "rejudge.lock")
}

/// Left in a results folder just before `--apply` exchanges it with the
/// new grading: a folder at the staging path holding it is the old
/// results of an interrupted apply, to keep, never staging to empty.
const REPLACED: &str = ".replaced";

/// Takes `lock` (created if need be), or says who holds it.
fn take(lock: &Path, dir: &Path) -> Result<std::fs::File, Error> {
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock)
        .map_err(|e| {
            Error::Usage(format!(
                "cannot take the results folder {} ({}: {e}); give --results a results folder the grader can write, in a folder it can write",
                dir.display(),
                lock.display()
            ))
        })?;
    if !sys::try_lock_within(&file, super::results::LOCK_PATIENCE)
        .map_err(Error::io(format!("cannot lock {}", lock.display())))?
    {
        return Err(Error::Usage(format!(
            "the results folder {} is in use by another grading run or rejudge (it holds {}); wait for it to end",
            dir.display(),
            lock.display()
        )));
    }
    Ok(file)
}

/// Takes the results folder `dir` for a rejudge: first the lock beside
/// it (no other rejudge, from now until this one ends), then the folder's
/// own, as a grading run does (no run writes it meanwhile).
pub fn hold(dir: &Path) -> Result<Held, Error> {
    let beside = take(&rejudge_lock(dir), dir)?;
    let own = take(&dir.join(super::results::LOCK), dir)?;
    // The folder in place is the live one: a mark left in it is that of
    // an apply stopped before its exchange.
    let _ = std::fs::remove_file(dir.join(REPLACED));
    Ok(Held {
        dir: dir.to_owned(),
        locks: vec![beside, own],
    })
}

/// The recorded grading command of the results folder `dir`, as its
/// grading run wrote it.
pub fn command(dir: &Path) -> Result<Vec<u8>, Error> {
    let path = dir.join(super::results::COMMAND);
    std::fs::read(&path).map_err(|e| {
        Error::Usage(format!(
            "{} has no record of the command that graded it ({}: {e}); it is no results folder, or one made by a grader before rejudging was recorded: grade the class again with --results",
            dir.display(),
            path.display()
        ))
    })
}

/// Every result saved in `dir`, in name order.
pub fn saved(dir: &Path) -> Result<Vec<SubmissionReport>, Error> {
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::Usage(format!("cannot read {}: {e}", dir.display())))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if !path
            .file_name()
            .is_some_and(|n| n.to_string_lossy().ends_with(".result.json"))
        {
            continue;
        }
        let bytes = std::fs::read(&path)
            .map_err(|e| Error::Usage(format!("cannot read {}: {e}", path.display())))?;
        let saved: super::results::Saved = serde_json::from_slice(&bytes).map_err(|e| {
            Error::Usage(format!(
                "{}:{}:{}: not a result the grader saved ({e}); remove it, or grade the class again",
                path.display(),
                e.line(),
                e.column()
            ))
        })?;
        found.push((path, saved.report));
    }
    found.sort_by(|a, b| a.1.name.cmp(&b.1.name).then_with(|| a.0.cmp(&b.0)));
    // Students are matched by name: a copy of a result under another
    // file name would be counted once and compared at random.
    if let Some(pair) = found.windows(2).find(|w| w[0].1.name == w[1].1.name) {
        return Err(Error::Usage(format!(
            "{} and {} both hold the result of {}; a results folder holds one result per student: remove the one the grader did not write",
            pair[0].0.display(),
            pair[1].0.display(),
            report::visible(&pair[0].1.name)
        )));
    }
    Ok(found.into_iter().map(|(_, report)| report).collect())
}

/// Puts the results `dir` holds of the students `names` into `staged`,
/// over what the grading there saved of them: a student the grader could
/// not judge again keeps their previous result when the others' new ones
/// are applied.
pub fn keep_previous(dir: &Path, staged: &Path, names: &[String]) -> Result<(), Error> {
    for name in names {
        let file = super::results::result_file(name);
        let bytes = std::fs::read(dir.join(&file)).map_err(Error::io(format!(
            "cannot read {}",
            dir.join(&file).display()
        )))?;
        grading::write_atomically(&staged.join(&file), &bytes)?;
    }
    Ok(())
}

/// `dir`'s sibling named `.NAME.SUFFIX`: on the same file system, so that
/// it can take `dir`'s place by a rename.
fn sibling(dir: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    dir.with_file_name(format!("{prefix}{name}.{suffix}"))
}

/// Where a rejudge grades aside, and what an interrupted one left there.
pub struct Staging {
    /// The folder to grade into, beside the results folder (so that it can
    /// take its place by a rename) and empty.
    pub dir: PathBuf,
    /// Where the old results of an `--apply` interrupted after its
    /// exchange were found and are now kept ([`previous`]), if they were.
    pub recovered: Option<PathBuf>,
}

impl Held {
    /// A fresh folder beside the results folder to grade into. What an
    /// interrupted rejudge left there is emptied, unless it is the old
    /// results of an apply stopped between its exchange and keeping them:
    /// those are kept as [`previous`].
    pub fn staging(&self) -> Result<Staging, Error> {
        let staged = sibling(&self.dir, ".", "rejudge");
        let mut recovered = None;
        if staged.join(REPLACED).exists() {
            recovered = Some(keep(&self.dir, &staged)?);
        } else if staged.exists() {
            std::fs::remove_dir_all(&staged)
                .map_err(Error::io(format!("cannot empty {}", staged.display())))?;
        }
        Ok(Staging {
            dir: staged,
            recovered,
        })
    }

    /// Puts the folder `staged` in the place of the results folder in one
    /// step (the two are exchanged), and keeps what it held as
    /// [`previous`] (replacing the one an earlier rejudge kept). Answers
    /// where the old results are.
    ///
    /// Killed at any instant, no result is lost: before the exchange the
    /// folder still holds the old results (the next rejudge removes the
    /// mark it got); after it, they sit at the staging path, marked, and
    /// the next rejudge keeps them as [`previous`].
    pub fn replace(&mut self, staged: &Path) -> Result<PathBuf, Error> {
        let dir = &self.dir;
        // The new folder's lock, held before it takes the folder's place:
        // no grading run gets in between the exchange and the end.
        self.locks
            .push(take(&staged.join(super::results::LOCK), dir)?);
        std::fs::write(dir.join(REPLACED), b"")
            .map_err(Error::io(format!("cannot mark {}", dir.display())))?;
        match sys::exchange(staged, dir) {
            Ok(()) => keep(dir, staged),
            // A file system without the exchange: two renames, with a
            // moment when `dir` is missing but never one when it is half
            // written, or when the old results are anywhere but `dir` or
            // `DIR.previous`.
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
                let kept = previous(dir);
                remove_kept(&kept)?;
                std::fs::rename(dir, &kept).map_err(Error::io(format!(
                    "cannot move {} to {}",
                    dir.display(),
                    kept.display()
                )))?;
                let _ = std::fs::remove_file(kept.join(REPLACED));
                std::fs::rename(staged, dir).map_err(Error::io(format!(
                    "cannot move {} to {}",
                    staged.display(),
                    dir.display()
                )))?;
                Ok(kept)
            }
            Err(e) => {
                let _ = std::fs::remove_file(dir.join(REPLACED));
                Err(Error::io(format!(
                    "cannot put {} in the place of {}",
                    staged.display(),
                    dir.display()
                ))(e))
            }
        }
    }
}

/// The folder where the results a rejudge replaced are kept.
pub fn previous(dir: &Path) -> PathBuf {
    sibling(dir, "", "previous")
}

/// Removes the results an earlier rejudge kept, to keep newer ones.
fn remove_kept(kept: &Path) -> Result<(), Error> {
    if kept.symlink_metadata().is_ok() {
        std::fs::remove_dir_all(kept)
            .map_err(Error::io(format!("cannot remove {}", kept.display())))?;
    }
    Ok(())
}

/// Keeps `old`, the results `dir` held until an exchange, as [`previous`].
fn keep(dir: &Path, old: &Path) -> Result<PathBuf, Error> {
    let kept = previous(dir);
    remove_kept(&kept)?;
    std::fs::rename(old, &kept).map_err(Error::io(format!(
        "cannot move {} to {}",
        old.display(),
        kept.display()
    )))?;
    let _ = std::fs::remove_file(kept.join(REPLACED));
    Ok(kept)
}
