//! Interpreters already asked: the real binary behind a program name,
//! remembered in the cache folder so that a run does not start a process
//! only to learn it.
//!
//! The answer is kept under a key of everything that chooses the binary:
//! the program as named and where PATH finds it (the file, and the link if
//! it is one: its inode, size and modification time), PATH itself, every
//! variable of a version manager or environment (pyenv, asdf, nodenv, nvm,
//! volta, mise, conda, virtualenv) and HOME, the version files a manager
//! reads (`.python-version`, `.node-version`, `.nvmrc`, `.tool-versions`,
//! `mise.toml` from the working folder up, and the managers' global
//! `version` files), and the oldest version the driver accepts. A PATH
//! with a relative folder is never cached.
//! The answer is used only while the real binary is still the file it was
//! (same inode, size and modification time); anything else asks again.

use crate::lang::cache::{cache_folder, cache_key};
use sandbox::Environment;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// The files version managers read to choose a version, in any folder.
const VERSION_FILES: [&str; 4] = [
    ".python-version",
    ".node-version",
    ".nvmrc",
    ".tool-versions",
];

/// Variables of version managers and environments, by a part of their name.
const MANAGERS: [&str; 7] = [
    "PYENV",
    "ASDF",
    "NODENV",
    "NVM",
    "VOLTA",
    "CONDA",
    "VIRTUAL_ENV",
];

/// The key of what `program` would answer to `probe` now, or `None` when
/// PATH does not find it (asking will then say why).
/// `minimum` is the oldest version the driver runs on: an answer checked
/// against another minimum is not this one's.
pub(super) fn key(probe: (&str, &str), minimum: (u32, u32), program: &OsStr) -> Option<String> {
    let found = on_path(program)?;
    let mut parts: Vec<Vec<u8>> = vec![
        probe.0.as_bytes().to_vec(),
        probe.1.as_bytes().to_vec(),
        format!("{}.{}", minimum.0, minimum.1).into_bytes(),
        program.as_bytes().to_vec(),
        found.as_os_str().as_bytes().to_vec(),
        stamp(&std::fs::symlink_metadata(&found).ok()?),
        stamp(&std::fs::metadata(&found).ok()?),
    ];
    let mut variables: Vec<(OsString, OsString)> = std::env::vars_os()
        .filter(|(name, _)| {
            let name = name.to_string_lossy();
            name == "PATH" || name == "HOME" || MANAGERS.iter().any(|m| name.contains(m))
        })
        .collect();
    variables.sort();
    for (name, value) in variables {
        parts.push(name.into_vec());
        parts.push(value.into_vec());
    }
    for file in version_files() {
        parts.push(file.as_os_str().as_bytes().to_vec());
        // Absent and empty differ.
        parts.push(match std::fs::read(&file) {
            Ok(bytes) => [b"+".as_slice(), &bytes].concat(),
            Err(_) => b"-".to_vec(),
        });
    }
    let parts: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Some(cache_key(&parts))
}

/// The real binary remembered under `key`, if it is still the same file.
pub(super) fn recall(env: &Environment, key: &str) -> Option<PathBuf> {
    let bytes = std::fs::read(env.cache_dir().join(FOLDER).join(key)).ok()?;
    let mut lines = bytes.split(|&b| b == b'\n');
    let real = PathBuf::from(OsStr::from_bytes(lines.next()?));
    let recorded = lines.next()?;
    (real.is_absolute() && stamp(&std::fs::metadata(&real).ok()?) == recorded).then_some(real)
}

/// Remembers that `key` chose `real`.
pub(super) fn remember(
    env: &Environment,
    key: &str,
    real: &Path,
) -> Result<(), crate::error::Error> {
    let path = real.as_os_str().as_bytes();
    let Ok(metadata) = std::fs::metadata(real) else {
        return Ok(());
    };
    if !real.is_absolute() || path.contains(&b'\n') {
        return Ok(());
    }
    let dir = cache_folder(env, FOLDER)?;
    let record = [path, b"\n", &stamp(&metadata), b"\n"].concat();
    crate::fsutil::write_atomically(&dir.join(key), &record)
}

/// The cache's folder of interpreters.
const FOLDER: &str = "interpreters";

/// A file's identity and version: device, inode, size, modification time.
fn stamp(metadata: &std::fs::Metadata) -> Vec<u8> {
    format!(
        "{} {} {} {}.{:09}",
        metadata.dev(),
        metadata.ino(),
        metadata.size(),
        metadata.mtime(),
        metadata.mtime_nsec()
    )
    .into_bytes()
}

/// Where PATH finds `program` (or `program` itself, given as a path).
fn on_path(program: &OsStr) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |path: &Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if program.as_bytes().contains(&b'/') {
        let path = std::path::absolute(program).ok()?;
        return executable(&path).then_some(path);
    }
    let dirs: Vec<PathBuf> = std::env::split_paths(&std::env::var_os("PATH")?).collect();
    // A relative folder is searched from wherever a process starts: no
    // key can say which file that finds.
    if dirs.iter().any(|dir| !dir.is_absolute()) {
        return None;
    }
    dirs.into_iter()
        .map(|dir| dir.join(program))
        .find(|path| executable(path))
}

/// Every version file a manager could read now: in the working folder and
/// each folder above it, in HOME, and the managers' global ones.
fn version_files() -> Vec<PathBuf> {
    let mut folders: Vec<PathBuf> = std::env::current_dir()
        .map(|cwd| cwd.ancestors().map(Path::to_path_buf).collect())
        .unwrap_or_default();
    let home = std::env::var_os("HOME").map(PathBuf::from);
    folders.extend(home.clone());
    let mut files: Vec<PathBuf> = folders
        .iter()
        .flat_map(|dir| VERSION_FILES.iter().map(move |name| dir.join(name)))
        .collect();
    for (root, default) in [("PYENV_ROOT", ".pyenv"), ("NODENV_ROOT", ".nodenv")] {
        let root = std::env::var_os(root)
            .map(PathBuf::from)
            .or_else(|| home.as_ref().map(|h| h.join(default)));
        files.extend(root.map(|r| r.join("version")));
    }
    files
}
