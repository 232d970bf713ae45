//! What every format calls a student: one name each, made in one place.
//!
//! A student's name is the last part of their submission's path (the
//! folder or file name, as it sits in the class folder), shown as every
//! report shows learner text ([`super::text::visible`]). When two students
//! would share a name, each of them takes as many more of their path's
//! folders as tells them apart (`a/ada`, `b/ada`); two whose whole paths
//! look alike once shown (a newline and a backslash before `n`) get
//! ` (2)`, ` (3)`, ... in the order given. The same paths always get the same names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Component, Path};

/// One name for each of `paths` (a student's folder or file each, in the
/// order found), no two alike.
pub fn student_names(paths: &[&Path]) -> Vec<String> {
    let parts: Vec<Vec<String>> = paths.iter().map(|p| parts(p)).collect();
    let mut depth = vec![1usize; paths.len()];
    let name = |i: usize, depth: usize| -> String {
        let parts = &parts[i];
        super::text::visible(&parts[parts.len().saturating_sub(depth)..].join("/"))
    };
    loop {
        let mut by_name: BTreeMap<String, Vec<usize>> = BTreeMap::new();
        for (i, &d) in depth.iter().enumerate() {
            by_name.entry(name(i, d)).or_default().push(i);
        }
        let mut longer = false;
        for alike in by_name.values().filter(|a| a.len() > 1) {
            // Longer names only where the whole paths tell some apart.
            let whole: BTreeSet<String> = alike.iter().map(|&i| name(i, parts[i].len())).collect();
            if whole.len() < 2 {
                continue;
            }
            for &i in alike {
                if depth[i] < parts[i].len() {
                    depth[i] += 1;
                    longer = true;
                }
            }
        }
        if !longer {
            break;
        }
    }
    let names: Vec<String> = (0..paths.len()).map(|i| name(i, depth[i])).collect();
    let mut taken: BTreeSet<String> = names.iter().cloned().collect();
    let mut given: BTreeSet<&str> = BTreeSet::new();
    let mut unique = Vec::with_capacity(names.len());
    for name in &names {
        if given.insert(name) {
            unique.push(name.clone());
            continue;
        }
        let numbered = (2..)
            .map(|n| format!("{name} ({n})"))
            .find(|n| !taken.contains(n))
            .unwrap_or_default();
        taken.insert(numbered.clone());
        unique.push(numbered);
    }
    unique
}

/// The names along `path`, as written (`.` and `..` left out); for a path
/// that names none (`.`), along the folder it is.
fn parts(path: &Path) -> Vec<String> {
    let named = |p: &Path| -> Vec<String> {
        p.components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect()
    };
    let parts = named(path);
    if parts.is_empty() || path.ends_with("..") {
        let real = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
        let parts = named(&real);
        if !parts.is_empty() {
            return parts;
        }
        return vec![path.display().to_string()];
    }
    parts
}

/// The longest name [`file_name`] answers, in bytes: with a suffix such
/// as `.result.json` and a temporary file's marks, it stays within the
/// 255 bytes of a file name.
pub(crate) const FILE_NAME_MAX: usize = 200;

/// A student's name as a file name, one to one: `%` and `/` written
/// `%25` and `%2F`, so that no two names share a file. A name longer than
/// `FILE_NAME_MAX` keeps its start and ends in a digest of the whole (a
/// legal name near the file system's limit must still fit).
pub fn file_name(name: &str) -> String {
    let escaped = name.replace('%', "%25").replace('/', "%2F");
    if escaped.len() <= FILE_NAME_MAX {
        return escaped;
    }
    use sha2::{Digest, Sha256};
    let digest = grading::hex(&Sha256::digest(name.as_bytes())[..16]);
    let mut end = FILE_NAME_MAX - digest.len() - 1;
    while !escaped.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}~{digest}", &escaped[..end])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(paths: &[&str]) -> Vec<String> {
        let paths: Vec<&Path> = paths.iter().map(Path::new).collect();
        student_names(&paths)
    }

    #[test]
    fn a_student_is_their_folder_or_file_name() {
        assert_eq!(
            names(&["class/ada", "class/ada.py", "class/with space", "x/ünï/"]),
            ["ada", "ada.py", "with space", "ünï"]
        );
    }

    #[test]
    fn alike_names_take_folders_until_they_differ() {
        assert_eq!(
            names(&["a/sec/ada", "b/sec/ada", "c/ben", "ada"]),
            ["a/sec/ada", "b/sec/ada", "ben", "ada"]
        );
        // The same paths, the same names, whatever else is in the class.
        assert_eq!(names(&["a/ada", "b/ada"]), ["a/ada", "b/ada"]);
    }

    #[test]
    fn names_alike_when_shown_are_numbered_in_order() {
        // A newline and a backslash before `n` look the same once shown.
        assert_eq!(
            names(&["c/a\nb", "c/a\\nb", "c/a\\nb (2)"]),
            ["a\\nb", "a\\nb (3)", "a\\nb (2)"]
        );
        assert_eq!(
            names(&["c/\u{1b}[2J::x"]),
            [super::super::text::visible("\u{1b}[2J::x")]
        );
    }

    #[test]
    fn file_names_are_one_to_one() {
        assert_ne!(file_name("a/b"), file_name("a%2Fb"));
        assert_eq!(file_name("a/b%"), "a%2Fb%25");
    }

    #[test]
    fn a_long_name_fits_and_stays_apart_from_its_neighbours() {
        let long = "學".repeat(84);
        let (a, b) = (format!("{long}a"), format!("{long}b"));
        for name in [&a, &b] {
            let file = file_name(name);
            assert!(file.len() <= FILE_NAME_MAX, "{} bytes", file.len());
            assert!(file.starts_with("學學學"), "{file}");
        }
        assert_ne!(file_name(&a), file_name(&b));
        // Names that fit are as they were.
        assert_eq!(
            file_name(&"x".repeat(FILE_NAME_MAX)),
            "x".repeat(FILE_NAME_MAX)
        );
    }
}
