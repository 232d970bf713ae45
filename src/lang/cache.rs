//! The cache of prepared submissions (compiled Rust programs, transpiled
//! TypeScript modules). Every artifact is the grader's own file, written by
//! the grader whatever built it, with its SHA-256 recorded beside it and
//! checked before every use: a file changed since (by anyone) is never run,
//! it is built again. A session is granted its own artifact only, never
//! the folder of everyone's.

use crate::error::Error;
use crate::exec::Environment;
use crate::words::hex;
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

#[cfg(test)]
mod tests {
    use super::*;

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
