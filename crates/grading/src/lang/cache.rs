//! The cache of prepared submissions (compiled Rust programs, transpiled
//! TypeScript modules). Every artifact is the grader's own file, written by
//! the grader whatever built it, with its SHA-256 recorded beside it and
//! checked before every use: a file changed since (by anyone) is never run,
//! it is built again. A session is granted its own artifact only, never
//! the folder of everyone's.

use crate::error::Error;
use crate::words::hex;
use sandbox::Environment;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The cache key of `parts`: a SHA-256 over each part with its length, so
/// that no two lists of parts share a key.
pub(super) fn cache_key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hex(&hasher.finalize())
}

/// The cache's folder for artifacts of `kind`, created if needed: the
/// grader's, traversable but not listable by anyone else (a session is
/// granted the path of its own artifact, nothing beside it).
pub(super) fn cache_folder(env: &Environment, kind: &str) -> Result<PathBuf, Error> {
    use std::os::unix::fs::PermissionsExt;
    let dir = env.cache_dir().join(kind);
    std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o711)))
        .map_err(|source| Error::Io {
            context: format!(
                "cannot create the cache folder {} (choose another with --cache-dir)",
                dir.display()
            ),
            source,
        })?;
    Ok(dir)
}

/// Where the hash of `artifact` is recorded.
fn hash_path(artifact: &Path) -> PathBuf {
    let mut name = artifact.file_name().unwrap_or_default().to_owned();
    name.push(".sha256");
    artifact.with_file_name(name)
}

/// The bytes of `path`, not followed if it is a symbolic link.
pub(super) fn read_no_follow(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut file = open_no_follow(path)?;
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `path` opened for reading, unless it is a link.
pub(super) fn open_no_follow(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

/// Whether `artifact` is there with the bytes whose hash was recorded when
/// the grader stored it. Anything else (missing, changed, its record
/// missing or changed, a link put in its place) is not to be used.
pub(super) fn verified(artifact: &Path) -> bool {
    let Ok(recorded) = std::fs::read_to_string(hash_path(artifact)) else {
        return false;
    };
    let Ok(bytes) = read_no_follow(artifact) else {
        return false;
    };
    hex(&Sha256::digest(&bytes)) == recorded.trim()
}

/// Stores `bytes` as `artifact`, the grader's own file with exactly
/// `mode`, and records its hash beside it (after it: a reader between the
/// two sees a mismatch and builds again).
pub(super) fn store(artifact: &Path, bytes: &[u8], mode: u32) -> Result<(), Error> {
    crate::fsutil::write_atomically_with_mode(artifact, bytes, mode)?;
    let hash = hex(&Sha256::digest(bytes));
    crate::fsutil::write_atomically_with_mode(&hash_path(artifact), hash.as_bytes(), 0o644)
}

/// The most of a submission's folder [`folder_digest`] reads: far more
/// than any student's folder of source (the same bound as the copy a
/// sandbox may be given of it).
pub(super) const FOLDER_LIMIT_BYTES: u64 = 64 << 20;
/// The most entries [`folder_digest`] visits.
pub(super) const FOLDER_LIMIT_ENTRIES: usize = 10_000;

/// A digest of everything beneath `paths` (the files and folders a build
/// may read), each entry named relative to `root` so that two students'
/// identical folders share it: its kind, its name, and a file's bytes (a
/// link's target path). `None` when
/// they hold more than [`FOLDER_LIMIT_ENTRIES`] entries or
/// [`FOLDER_LIMIT_BYTES`] bytes: such a build is not cached at all.
pub(super) fn folder_digest(root: &Path, paths: &[PathBuf], hide: &[PathBuf]) -> Option<String> {
    let mut hasher = Sha256::new();
    let mut entries = FOLDER_LIMIT_ENTRIES;
    let mut bytes = FOLDER_LIMIT_BYTES;
    let part = |hasher: &mut Sha256, bytes: &[u8]| {
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    };
    let mut sorted = paths.to_vec();
    sorted.sort();
    for path in &sorted {
        // What the build may not see is no part of its key.
        let walk = walkdir::WalkDir::new(path)
            .follow_links(false)
            .sort_by_file_name()
            .into_iter()
            .filter_entry(|e| !hide.iter().any(|h| e.path().starts_with(h)));
        for entry in walk {
            entries = entries.checked_sub(1)?;
            let Ok(entry) = entry else {
                // Unreadable here: named by its error, read again next time.
                part(&mut hasher, b"unreadable");
                continue;
            };
            let name = entry.path().strip_prefix(root).unwrap_or(entry.path());
            let kind = entry.file_type();
            let tag: &[u8] = if kind.is_dir() {
                b"folder"
            } else if kind.is_file() {
                b"file"
            } else if kind.is_symlink() {
                b"link"
            } else {
                b"other"
            };
            part(&mut hasher, tag);
            part(&mut hasher, name.as_os_str().as_encoded_bytes());
            if kind.is_symlink() {
                let target = std::fs::read_link(entry.path()).unwrap_or_default();
                part(&mut hasher, target.as_os_str().as_encoded_bytes());
            }
            // A link's target is named, never read through: what it leads
            // to within the folder is hashed where it is, and what lies
            // outside is not the build's to read (the sandbox denies it,
            // and without the sandbox the build's own list of what it read
            // keeps it out of the cache).
            if kind.is_file() {
                let content = read_bounded(entry.path(), bytes)?;
                bytes -= content.len() as u64;
                part(&mut hasher, &Sha256::digest(&content));
            }
        }
    }
    Some(hex(&hasher.finalize()))
}

/// The bytes of the file at `path`, or `None` when it has
/// more than `most`; a file that cannot be read reads as empty.
fn read_bounded(path: &Path, most: u64) -> Option<Vec<u8>> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    // A FIFO or a link put in a file's place since it was listed must
    // neither hang the grader nor lead it elsewhere.
    let Ok(file) = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOFOLLOW)
        .open(path)
    else {
        return Some(b"unreadable".to_vec());
    };
    let mut content = Vec::new();
    if file.take(most + 1).read_to_end(&mut content).is_err() {
        return Some(b"unreadable".to_vec());
    }
    (content.len() as u64 <= most).then_some(content)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_digest_covers_every_file_and_name_within_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("student");
        std::fs::create_dir_all(root.join("solution")).unwrap();
        std::fs::write(root.join("router.rs"), "mod solution;").unwrap();
        std::fs::write(root.join("solution/mod.rs"), "pub struct Router;").unwrap();
        let digest = || folder_digest(&root, std::slice::from_ref(&root), &[]).unwrap();
        let first = digest();
        assert_eq!(first, digest(), "the same folder, the same digest");
        // Another student's identical folder shares it.
        let other = dir.path().join("other");
        std::fs::create_dir_all(other.join("solution")).unwrap();
        std::fs::write(other.join("router.rs"), "mod solution;").unwrap();
        std::fs::write(other.join("solution/mod.rs"), "pub struct Router;").unwrap();
        assert_eq!(
            first,
            folder_digest(&other, std::slice::from_ref(&other), &[]).unwrap()
        );
        // A nested file's bytes, a new file, a renamed one, a link's target.
        std::fs::write(root.join("solution/mod.rs"), "pub struct Router(u8);").unwrap();
        let changed = digest();
        assert_ne!(first, changed);
        std::fs::write(root.join("solution.rs"), "").unwrap();
        let added = digest();
        assert_ne!(changed, added);
        std::fs::rename(root.join("solution.rs"), root.join("data.rs")).unwrap();
        assert_ne!(added, digest());
        std::os::unix::fs::symlink(root.join("router.rs"), root.join("link.rs")).unwrap();
        let linked = digest();
        std::fs::remove_file(root.join("link.rs")).unwrap();
        std::os::unix::fs::symlink(root.join("data.rs"), root.join("link.rs")).unwrap();
        assert_ne!(linked, digest());
        // Beyond the bound: no digest, so nothing is cached.
        let big = dir.path().join("big");
        std::fs::create_dir_all(&big).unwrap();
        let file = std::fs::File::create(big.join("data.bin")).unwrap();
        file.set_len(FOLDER_LIMIT_BYTES + 1).unwrap();
        assert_eq!(folder_digest(&big, std::slice::from_ref(&big), &[]), None);
    }

    #[test]
    fn cache_keys_separate_their_parts() {
        assert_ne!(cache_key(&[b"ab", b"c"]), cache_key(&[b"a", b"bc"]));
        assert_eq!(cache_key(&[b"x"]).len(), 64);
    }

    #[test]
    fn an_artifact_changed_after_it_was_stored_is_not_verified() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let artifact = dir.path().join("key.router");
        assert!(!verified(&artifact), "nothing stored");
        store(&artifact, b"\x7fELF a program", 0o755).unwrap();
        assert!(verified(&artifact));
        let meta = std::fs::metadata(&artifact).unwrap();
        assert_eq!(meta.permissions().mode() & 0o7777, 0o755);
        std::fs::write(&artifact, b"#!/bin/sh\necho tampered\n").unwrap();
        assert!(!verified(&artifact), "changed bytes");
        store(&artifact, b"\x7fELF a program", 0o755).unwrap();
        std::fs::write(hash_path(&artifact), "0".repeat(64)).unwrap();
        assert!(!verified(&artifact), "a changed record");
        // A link in its place is not followed, even to the very bytes.
        let real = dir.path().join("elsewhere");
        store(&real, b"same", 0o755).unwrap();
        let link = dir.path().join("link.router");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        std::fs::copy(hash_path(&real), hash_path(&link)).unwrap();
        assert!(!verified(&link));
    }
}
