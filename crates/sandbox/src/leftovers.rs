//! The run's temporary folders outlive a grader that is killed (`kill -9`,
//! a CI runner's time-out): nothing of it runs to remove them. Each run
//! holds a lock in each of its folders for as long as it lives, and every
//! run starts by removing the folders of runs whose lock nobody holds. A
//! lock, not a pid, tells: a pid may be reused or belong to another PID
//! namespace sharing /tmp, while a lock is released only by its owner's end.

use std::fs::File;
use std::path::Path;

/// The lock file in each of a run's folders.
const LOCK: &str = ".owner.lock";
/// The prefixes of the folders a run makes in the temporary folder.
pub(super) const PREFIXES: [&str; 2] = ["grader-drivers-", "grader-scratch-"];

/// Locks `dir` as the live run's. The lock is taken on a file under
/// another name and then renamed into place, so a sweeper never finds the
/// lock file unlocked before its owner holds it.
pub(super) fn claim(dir: &Path) -> Result<File, crate::Error> {
    take(dir).map_err(crate::Error::io(format!("cannot lock {}", dir.display())))
}

fn take(dir: &Path) -> std::io::Result<File> {
    let staged = dir.join(format!("{LOCK}.new"));
    let file = File::create(&staged)?;
    if !sys::try_lock(&file)? {
        return Err(std::io::Error::other("a fresh lock file is already locked"));
    }
    std::fs::rename(&staged, dir.join(LOCK))?;
    Ok(file)
}

/// Removes the folders in `temp` left by runs that are gone. A folder
/// without a lock file (a run starting, or an older version's) is left.
pub(super) fn sweep(temp: &Path) {
    let Ok(entries) = std::fs::read_dir(temp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if !PREFIXES.iter().any(|p| name.starts_with(p))
            || !entry.file_type().is_ok_and(|t| t.is_dir())
        {
            continue;
        }
        let Ok(lock) = File::open(entry.path().join(LOCK)) else {
            continue;
        };
        // Held by us now: its owner is gone, and no one else can claim it.
        if sys::try_lock(&lock).unwrap_or(false) {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}
