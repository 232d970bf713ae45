//! Writing files so that nothing half-written is ever seen, and nothing is
//! left behind when writing fails.

use crate::error::Error;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// A file being written beside `path` that replaces it whole on
/// [`AtomicFile::commit`]. Dropped without committing (an error, a panic),
/// the temporary file is removed.
pub struct AtomicFile {
    path: PathBuf,
    file: BufWriter<tempfile::NamedTempFile>,
}

impl AtomicFile {
    /// Starts writing what will become `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, Error> {
        let dir = match path.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        // The temporary name only says what it becomes: a legal name near
        // the 255-byte limit must not make it too long.
        let name = shortened(&name, 40);
        // The mode a plain write would give (0666 less the umask), not the
        // temporary file's 0600: the sandbox's uid reads transpiled modules
        // from the cache.
        use std::os::unix::fs::PermissionsExt;
        let file = tempfile::Builder::new()
            .permissions(std::fs::Permissions::from_mode(0o666))
            .prefix(&format!(".{name}."))
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(failed(path))?;
        Ok(AtomicFile {
            path: path.to_owned(),
            file: BufWriter::new(file),
        })
    }

    /// Writes `bytes` on.
    pub fn write(&mut self, bytes: &[u8]) -> Result<(), Error> {
        self.file.write_all(bytes).map_err(failed(&self.path))
    }

    /// Puts the file in place of `path`, flushed to disk.
    pub fn commit(self) -> Result<(), Error> {
        let path = self.path;
        let file = self
            .file
            .into_inner()
            .map_err(|e| failed(&path)(e.into_error()))?;
        file.as_file().sync_all().map_err(failed(&path))?;
        file.persist(&path).map_err(|e| failed(&path)(e.error))?;
        Ok(())
    }
}

/// `name` cut to at most `max` bytes at a character boundary.
fn shortened(name: &str, max: usize) -> &str {
    let mut end = name.len().min(max);
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    &name[..end]
}

/// Where writing `path` must go: the file itself, a link's regular file
/// (the link stays a link), or none of the rename's business: a device,
/// a pipe or a socket, written through (`--output /dev/null` must never
/// replace the device with a file).
enum Target {
    /// A regular file, or none yet: written beside and renamed over.
    File(PathBuf),
    /// Anything else that can be written: opened and written in place.
    Through(PathBuf),
}

fn target(path: &Path) -> Target {
    match std::fs::metadata(path) {
        // A link to a regular file: the file it names is replaced.
        Ok(meta) if meta.is_file() => {
            Target::File(std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned()))
        }
        Ok(meta) if !meta.is_dir() => Target::Through(path.to_owned()),
        // Nothing there (or a folder, refused by the rename as before); a
        // dangling link is written at the path it names.
        _ => match std::fs::read_link(path) {
            Ok(to) => Target::File(match path.parent() {
                Some(dir) => dir.join(to),
                None => to,
            }),
            Err(_) => Target::File(path.to_owned()),
        },
    }
}

fn failed(path: &Path) -> impl FnOnce(std::io::Error) -> Error {
    Error::io(format!("cannot write {}", path.display()))
}

/// Writes `bytes` to `path` so that a reader sees the old file or the new
/// one, never half of one.
///
/// A device, pipe or socket at `path` (or at the end of a link) is written
/// through instead, as a shell's `>` would; a link to a file keeps
/// naming the file, which is replaced.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let path = match target(path) {
        Target::File(path) => path,
        Target::Through(path) => {
            return std::fs::OpenOptions::new()
                .write(true)
                .open(&path)
                .and_then(|mut f| f.write_all(bytes).and_then(|()| f.flush()))
                .map_err(failed(&path));
        }
    };
    let path = path.as_path();
    let mut file = AtomicFile::create(path)?;
    file.write(bytes)?;
    file.commit()
}

/// [`write_atomically`] with exactly `mode`, whatever the umask: a cached
/// program must be executable by the sandbox's uid.
pub fn write_atomically_with_mode(path: &Path, bytes: &[u8], mode: u32) -> Result<(), Error> {
    use std::os::unix::fs::PermissionsExt;
    let mut file = AtomicFile::create(path)?;
    file.file
        .get_ref()
        .as_file()
        .set_permissions(std::fs::Permissions::from_mode(mode))
        .map_err(failed(path))?;
    file.write(bytes)?;
    file.commit()
}

/// Proves that `path` (given as `what`, e.g. `--output`) can be written
/// before any work that would be lost if it could not: a file is made and
/// removed beside it, and nothing is left behind either way.
pub fn check_writable(path: &Path, what: &str) -> Result<(), Error> {
    let refuse = |why: String| {
        Error::Usage(format!(
            "cannot write {what} {}: {why}; nothing was done",
            path.display()
        ))
    };
    if path.is_dir() {
        return Err(refuse("it is a folder; name a file in it".into()));
    }
    let path = &match target(path) {
        Target::File(path) => path,
        Target::Through(path) => {
            // Written through, not beside: only its own permission counts
            // (a temporary file tried in /dev would be a file in /dev).
            return sys::check_write_access(&path)
                .map_err(|e| refuse(format!("{e}; choose a path the grader can write")));
        }
    };
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    if !dir.exists() {
        return Err(refuse(format!(
            "the folder {} does not exist; create it first or choose another path",
            dir.display()
        )));
    }
    if !dir.is_dir() {
        return Err(refuse(format!(
            "{} is not a folder; choose another path",
            dir.display()
        )));
    }
    tempfile::tempfile_in(dir)
        .map(drop)
        .map_err(|e| refuse(format!("{e}; choose a path the grader can write")))
}

/// [`check_writable`] for a file that is appended to: an existing one must
/// open for appending (and is left as it was).
pub fn check_appendable(path: &Path, what: &str) -> Result<(), Error> {
    if !path.exists() || path.is_dir() {
        return check_writable(path, what);
    }
    std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .map(drop)
        .map_err(|e| {
            Error::Usage(format!(
                "cannot append to {what} {}: {e}; make it writable or point it elsewhere; nothing was done",
                path.display()
            ))
        })
}

/// Reads `path` if it is a regular file (following links): a pipe or a
/// device put in its place is refused, not read, since reading one could
/// wait forever. Opened without blocking, so that opening a pipe does
/// not wait for a writer either.
pub fn read_regular(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)?;
    if !file.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file",
        ));
    }
    let mut bytes = Vec::new();
    (&file).read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<std::ffi::OsString> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_file_is_replaced_whole_and_nothing_is_left_beside_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("result.json");
        write_atomically(&path, b"old").unwrap();
        write_atomically(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        let plain = dir.path().join("plain");
        std::fs::write(&plain, b"x").unwrap();
        assert_eq!(mode(&path), mode(&plain), "the mode a plain write gives");
        std::fs::remove_file(&plain).unwrap();
        assert_eq!(names(dir.path()), ["result.json"]);
        // A folder that does not exist fails and leaves nothing.
        assert!(write_atomically(&dir.path().join("no/such"), b"x").is_err());
    }

    #[test]
    fn a_file_given_up_leaves_the_old_one_and_nothing_else() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("case.json");
        write_atomically(&path, b"old").unwrap();
        let mut file = AtomicFile::create(&path).unwrap();
        file.write(b"half of a ne").unwrap();
        drop(file);
        assert_eq!(std::fs::read(&path).unwrap(), b"old");
        assert_eq!(names(dir.path()), ["case.json"]);
    }
}
