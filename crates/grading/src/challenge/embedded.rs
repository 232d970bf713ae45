//! The challenges built into the grader (by `build.rs`, from the
//! checkout's `challenges/`): what a copied or installed `grader` grades
//! with when no challenge folder is given or found.
//!
//! They are unpacked once into a folder of the cache named after the
//! grader's version and the set's SHA-256, and from then on read from
//! there like any challenge folder: every command, error message and
//! report names real files a learner can open, and loading, the sandbox's
//! protection of the tests and `init`'s starters stay one code path.
//! Reading them from memory instead would have made every reader of
//! challenge files (loading, walking a suite, starters, the protected
//! paths) take a second, virtual form.
//!
//! The folder is checked against the embedded bytes on every use (every
//! file the same, nothing more, no links), and unpacked again when it is
//! not: an edited, added or removed file, or a half-made folder, never
//! changes what is graded. Unpacking writes a temporary folder beside it
//! and renames it into place, so two graders unpacking at once each see a
//! whole folder, theirs or the other's.

#[cfg(test)]
mod select;

use crate::error::Error;
use std::path::{Path, PathBuf};

mod table {
    include!(concat!(env!("OUT_DIR"), "/embedded_challenges.rs"));
}

/// The grader's version, which names the embedded set with its digest.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Every embedded file: its path under the challenges' folder
/// (`<id>/...`, `/`-separated) and its bytes.
pub fn files() -> &'static [(&'static str, &'static [u8])] {
    table::FILES
}

/// The SHA-256 (hex) of every embedded file's path and bytes.
pub fn digest() -> &'static str {
    table::DIGEST
}

/// The folder under `cache_dir` holding the embedded challenges, unpacked
/// now if it is missing or is not exactly what is embedded.
pub fn unpacked(cache_dir: &Path) -> Result<PathBuf, Error> {
    let parent = cache_dir.join("challenges");
    let target = parent.join(format!("{VERSION}-{}", &digest()[..16]));
    unpack_into(&parent, &target, files())?;
    Ok(target)
}

/// Makes `target` (in `parent`) hold exactly `files`, read-only.
fn unpack_into(parent: &Path, target: &Path, files: &[(&str, &[u8])]) -> Result<(), Error> {
    if matches(target, files) {
        return Ok(());
    }
    let fault = |what: &str| {
        Error::io(format!(
            "cannot {what} the challenges built into the grader in {} (set XDG_CACHE_HOME, or --cache-dir for grade, to a folder it can write, or pass --challenges DIR)",
            parent.display()
        ))
    };
    std::fs::create_dir_all(parent).map_err(fault("unpack"))?;
    // Another grader may replace a bad folder while this one does: a few
    // rounds let each settle on the whole folder one of them made.
    for _ in 0..4 {
        let fresh = tempfile::Builder::new()
            .prefix(".unpacking-")
            .tempdir_in(parent)
            .map_err(fault("unpack"))?;
        write_all(fresh.path(), files).map_err(fault("unpack"))?;
        match std::fs::rename(fresh.path(), target) {
            Ok(()) => {
                // In place: no longer the temporary folder's to remove.
                let _ = fresh.keep();
                return Ok(());
            }
            // Something is there: another grader's whole folder, or one
            // that is not what is embedded, moved aside to try again.
            Err(_) if std::fs::symlink_metadata(target).is_ok() => {
                if matches(target, files) {
                    return Ok(());
                }
                set_aside(parent, target).map_err(fault("replace"))?;
            }
            Err(e) => return Err(fault("unpack")(e)),
        }
    }
    Err(fault("settle")(std::io::Error::other(
        "it kept changing while the grader unpacked it",
    )))
}

/// Writes `files` beneath `dir`: files read-only (0400), folders the
/// owner's (0700, so that the cache can still be deleted whole).
fn write_all(dir: &Path, files: &[(&str, &[u8])]) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    for (name, bytes) in files {
        let path = beneath(dir, name);
        if let Some(folder) = path.parent() {
            std::fs::DirBuilder::new()
                .recursive(true)
                .mode(0o700)
                .create(folder)?;
        }
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o400)
            .open(&path)?;
        file.write_all(bytes)?;
        file.sync_all()?;
    }
    Ok(())
}

/// Moves `target` out of the way (and removes it), unless another grader
/// already did.
fn set_aside(parent: &Path, target: &Path) -> std::io::Result<()> {
    let stale = tempfile::Builder::new()
        .prefix(".stale-")
        .tempdir_in(parent)?;
    let aside = stale.path().join("old");
    match std::fs::rename(target, &aside) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e),
    }
    // Read-only files in the owner's folders: removable as they are.
    drop(stale);
    Ok(())
}

/// `name` (`a/b/c`) beneath `dir`.
fn beneath(dir: &Path, name: &str) -> PathBuf {
    name.split('/').fold(dir.to_owned(), |p, part| p.join(part))
}

/// Whether `dir` is a real folder holding exactly `files`: each a regular
/// file (no link) with the same bytes, and nothing else but the folders
/// they are in.
fn matches(dir: &Path, files: &[(&str, &[u8])]) -> bool {
    if !std::fs::symlink_metadata(dir).is_ok_and(|m| m.is_dir()) {
        return false;
    }
    let mut seen = 0;
    for entry in walkdir::WalkDir::new(dir).min_depth(1) {
        let Ok(entry) = entry else { return false };
        let kind = entry.file_type();
        if kind.is_dir() {
            continue;
        }
        if !kind.is_file() {
            return false;
        }
        let Some(name) = entry
            .path()
            .strip_prefix(dir)
            .ok()
            .and_then(Path::to_str)
            .map(|n| n.replace(std::path::MAIN_SEPARATOR, "/"))
        else {
            return false;
        };
        let Some((_, bytes)) = files.iter().find(|(n, _)| *n == name) else {
            return false;
        };
        if !same_bytes(entry.path(), bytes) {
            return false;
        }
        seen += 1;
    }
    seen == files.len()
}

/// Whether the file at `path` (not followed if a link) holds `bytes`.
fn same_bytes(path: &Path, bytes: &[u8]) -> bool {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    else {
        return false;
    };
    if file
        .metadata()
        .map_or(true, |m| m.len() != bytes.len() as u64)
    {
        return false;
    }
    let mut read = Vec::with_capacity(bytes.len());
    file.take(bytes.len() as u64 + 1)
        .read_to_end(&mut read)
        .is_ok_and(|_| read == bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ids of the embedded challenges, sorted.
    fn ids() -> Vec<&'static str> {
        let mut ids: Vec<&str> = files()
            .iter()
            .filter_map(|(path, _)| path.strip_suffix("/challenge.toml"))
            .collect();
        ids.sort_unstable();
        ids
    }
    use std::os::unix::fs::PermissionsExt;

    const FILES: &[(&str, &[u8])] = &[
        ("a/challenge.toml", b"title = \"A\"\n"),
        ("a/tests/g/one.json", b"[[[\"n\"]], [[\"route\", \"k\"]]]"),
        ("b/README.md", b"# B\n"),
    ];

    fn unpack(parent: &Path) -> PathBuf {
        let target = parent.join("set");
        unpack_into(parent, &target, FILES).unwrap();
        target
    }

    /// What is beneath `dir` besides the unpacked set: no leftovers.
    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn files_are_unpacked_read_only_and_nothing_is_left_beside_them() {
        let dir = tempfile::tempdir().unwrap();
        let target = unpack(dir.path());
        assert!(matches(&target, FILES));
        let toml = target.join("a/challenge.toml");
        assert_eq!(std::fs::read(&toml).unwrap(), FILES[0].1);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&toml), 0o400);
        assert_eq!(mode(&target.join("a/tests")), 0o700);
        assert_eq!(mode(&target), 0o700);
        assert_eq!(entries(dir.path()), ["set"]);
        // Used again as it is: the same folder, the same file.
        let inode = |p: &Path| std::os::unix::fs::MetadataExt::ino(&std::fs::metadata(p).unwrap());
        let before = inode(&toml);
        unpack(dir.path());
        assert_eq!(inode(&toml), before);
    }

    #[test]
    fn a_changed_added_removed_or_linked_file_is_unpacked_again() {
        let dir = tempfile::tempdir().unwrap();
        let target = unpack(dir.path());
        let toml = target.join("a/challenge.toml");
        let tamper: [&dyn Fn(); 5] = [
            &|| {
                std::fs::set_permissions(&toml, std::fs::Permissions::from_mode(0o600)).unwrap();
                std::fs::write(&toml, "title = \"edited\"\n").unwrap();
            },
            &|| std::fs::write(target.join("a/tests/g/extra.json"), "[]").unwrap(),
            &|| std::fs::remove_file(target.join("b/README.md")).unwrap(),
            &|| {
                let real = dir.path().join("real.md");
                std::fs::write(&real, FILES[2].1).unwrap();
                std::fs::remove_file(target.join("b/README.md")).unwrap();
                std::os::unix::fs::symlink(&real, target.join("b/README.md")).unwrap();
            },
            &|| {
                // A half-made folder (a grader stopped while writing).
                std::fs::remove_dir_all(&target).unwrap();
                std::fs::create_dir_all(target.join("a")).unwrap();
            },
        ];
        for (i, tamper) in tamper.iter().enumerate() {
            tamper();
            assert!(!matches(&target, FILES), "tampering {i} goes unseen");
            unpack(dir.path());
            assert!(matches(&target, FILES), "tampering {i} is not undone");
            let mut left = entries(dir.path());
            left.retain(|n| n != "real.md");
            assert_eq!(left, ["set"], "tampering {i} left something behind");
        }
        // A file where the folder should be.
        std::fs::remove_dir_all(&target).unwrap();
        std::fs::write(&target, "not a folder").unwrap();
        unpack(dir.path());
        assert!(matches(&target, FILES));
    }

    #[test]
    fn graders_unpacking_at_once_each_get_a_whole_folder() {
        let dir = tempfile::tempdir().unwrap();
        let parent = dir.path().to_owned();
        let threads: Vec<_> = (0..8)
            .map(|_| {
                let parent = parent.clone();
                std::thread::spawn(move || {
                    let target = parent.join("set");
                    unpack_into(&parent, &target, FILES).unwrap();
                    // Whatever the others do, what this one returned is whole.
                    assert!(matches(&target, FILES));
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        assert_eq!(entries(&parent), ["set"]);
    }

    #[test]
    fn a_cache_that_cannot_be_written_is_the_graders_fault_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("file");
        std::fs::write(&blocked, "a file, not a folder").unwrap();
        let error = unpack_into(
            &blocked.join("challenges"),
            &blocked.join("challenges/set"),
            FILES,
        )
        .unwrap_err();
        let text = error.to_string();
        assert!(matches!(error, Error::Io { .. }), "{text}");
        assert!(text.contains(&blocked.display().to_string()), "{text}");
        assert!(text.contains("--challenges DIR"), "{text}");
    }

    #[test]
    fn the_embedded_set_is_every_shipped_challenge_with_its_visible_files() {
        let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../..")).join("challenges");
        let mut expected = Vec::new();
        for (id, selection) in select::challenges(&root).unwrap() {
            for file in selection.files {
                let bytes = std::fs::read(beneath(&root.join(&id), &file)).unwrap();
                expected.push((format!("{id}/{file}"), bytes));
            }
        }
        let embedded: Vec<(String, Vec<u8>)> = files()
            .iter()
            .map(|(n, b)| ((*n).to_owned(), b.to_vec()))
            .collect();
        assert_eq!(embedded, expected);
        assert_eq!(
            ids(),
            ["hrw-top", "rendezvous-router", "vnode-ring", "weighted-hrw"]
        );
        for id in ids() {
            for part in ["README.md", "starters/router.py", "tests/sample/"] {
                assert!(
                    files()
                        .iter()
                        .any(|(n, _)| n.starts_with(&format!("{id}/{part}"))),
                    "{id} carries no {part}"
                );
            }
        }
        assert_eq!(digest().len(), 64);
    }
}
