//! The files of rejudging a results folder: holding it while it is graded
//! again, reading what it holds, grading aside into a folder beside it,
//! and putting that folder in its place in one step.

use crate::error::Error;
use crate::report::SubmissionReport;
use std::path::{Path, PathBuf};

/// A results folder held (its lock taken) while it is rejudged.
pub struct Held {
    /// Closing it releases the lock.
    _lock: std::fs::File,
}

/// Takes the lock of the results folder `dir`, as a grading run does:
/// no run writes it while it is rejudged.
pub fn hold(dir: &Path) -> Result<Held, Error> {
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(super::results::LOCK))
        .map_err(|e| {
            Error::Usage(format!(
                "cannot take the results folder {} ({e}); give --results a results folder the grader can write",
                dir.display()
            ))
        })?;
    if !crate::os::try_lock(&lock).map_err(Error::io(format!("cannot lock {}", dir.display())))? {
        return Err(Error::Usage(format!(
            "the results folder {} is in use by another grading run; wait for it to end",
            dir.display()
        )));
    }
    Ok(Held { _lock: lock })
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
            crate::report::text::visible(&pair[0].1.name)
        )));
    }
    Ok(found.into_iter().map(|(_, report)| report).collect())
}

/// `dir`'s sibling named `.NAME.SUFFIX`: on the same file system, so that
/// it can take `dir`'s place by a rename.
fn sibling(dir: &Path, prefix: &str, suffix: &str) -> PathBuf {
    let name = dir.file_name().unwrap_or_default().to_string_lossy();
    dir.with_file_name(format!("{prefix}{name}.{suffix}"))
}

/// A fresh folder beside `dir` to grade into, emptied of whatever an
/// interrupted rejudge left there.
pub fn staging(dir: &Path) -> Result<PathBuf, Error> {
    let staged = sibling(dir, ".", "rejudge");
    if staged.exists() {
        std::fs::remove_dir_all(&staged)
            .map_err(Error::io(format!("cannot empty {}", staged.display())))?;
    }
    Ok(staged)
}

/// The folder where the results a rejudge replaced are kept.
pub fn previous(dir: &Path) -> PathBuf {
    sibling(dir, "", "previous")
}

/// Puts the folder `staged` in the place of `dir` in one step (the two
/// are exchanged), and keeps what `dir` held as [`previous`] (replacing
/// the one an earlier rejudge kept). Answers where the old results are.
pub fn replace(dir: &Path, staged: &Path) -> Result<PathBuf, Error> {
    let kept = previous(dir);
    if kept.exists() {
        std::fs::remove_dir_all(&kept)
            .map_err(Error::io(format!("cannot remove {}", kept.display())))?;
    }
    match crate::os::exchange(staged, dir) {
        Ok(()) => std::fs::rename(staged, &kept).map_err(Error::io(format!(
            "cannot move {} to {}",
            staged.display(),
            kept.display()
        )))?,
        // A file system without the exchange: two renames, with a moment
        // when `dir` is missing but never one when it is half written.
        Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOSYS)) => {
            std::fs::rename(dir, &kept).map_err(Error::io(format!(
                "cannot move {} to {}",
                dir.display(),
                kept.display()
            )))?;
            std::fs::rename(staged, dir).map_err(Error::io(format!(
                "cannot move {} to {}",
                staged.display(),
                dir.display()
            )))?;
        }
        Err(e) => {
            return Err(Error::io(format!(
                "cannot put {} in the place of {}",
                staged.display(),
                dir.display()
            ))(e));
        }
    }
    Ok(kept)
}
