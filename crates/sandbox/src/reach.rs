//! A submission the sandbox's uid could not read where it is (a folder
//! only its owner may enter, as `mktemp -d` makes them, or files only its
//! owner may read) is given to its sessions as a private read-only copy:
//! the folders above a granted path are covered and it is bound back
//! beneath them, but a bind keeps the path's own permissions, so a folder
//! or file the uid may not enter or read stays closed to it.

use super::Environment;
use crate::Error;
use crate::os;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The most a copy may hold: far more than any student's folder of
/// source, and a bound on what the grader copies for one submission.
const COPY_LIMIT_BYTES: u64 = 64 << 20;
/// The most entries a copy may hold.
const COPY_LIMIT_ENTRIES: usize = 10_000;

/// What a submission's sessions are given: its entry file where they run
/// it, the paths they may read and the folders they may only list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grants {
    pub file: PathBuf,
    pub read: Vec<PathBuf>,
    pub list: Vec<PathBuf>,
}

impl Environment {
    /// What of a submission its session may read: its folder (for modules
    /// it imports), less whatever is protected there (tests, challenges,
    /// the other submissions of this run).
    /// Returns the paths to read, and the folders only to list (so that
    /// imports can look for a module beside it).
    ///
    /// Every path is granted where it really is: a grant follows links
    /// (Landlock opens the path), so an entry of the folder that is a link
    /// out of it (to the hidden tests, say) is left out, and so is one to
    /// anything protected.
    pub fn submission_paths(&self, file: &Path) -> (Vec<PathBuf>, Vec<PathBuf>) {
        let real = |p: &Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p));
        // The student's folder is the one the entry is named in, where it
        // really is: an entry that is a link within it (router.py ->
        // src/impl.py) is run through the link, which must be granted too.
        let Some(dir) = std::path::absolute(file)
            .ok()
            .and_then(|f| f.parent().map(Path::to_owned))
            .and_then(|d| real(&d).ok())
        else {
            return (Vec::new(), Vec::new());
        };
        let Ok(file) = real(file) else {
            return (Vec::new(), Vec::new());
        };
        if !file.starts_with(&dir) {
            // Refused when it was prepared: nothing of it is granted.
            return (Vec::new(), Vec::new());
        }
        // A class folder's file: what lies beside it is the class's, not
        // this student's. An entry that is a link within the folder is run
        // through the link, which the folder, listed only, keeps (rebuilt
        // under a cover with the granted paths and their links alone).
        if let Some(entry) = self
            .options
            .alone
            .iter()
            .find(|p| real(p).is_ok_and(|p| p == file))
        {
            let linked = std::fs::symlink_metadata(entry).is_ok_and(|m| m.file_type().is_symlink());
            return (vec![file], if linked { vec![dir] } else { Vec::new() });
        }
        let protected: Vec<PathBuf> = self
            .options
            .protected
            .iter()
            .filter_map(|p| real(p).ok())
            .filter(|p| *p != file)
            .collect();
        if protected.iter().any(|p| dir.starts_with(p)) {
            return (vec![file], Vec::new());
        }
        if !protected.iter().any(|p| p.starts_with(&dir)) {
            return (vec![dir], Vec::new());
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return (vec![file], Vec::new());
        };
        // Dotfiles (a `.git` whose objects hold the hidden tests, a `.env`)
        // are never the submission's; a name the sandbox's policy cannot
        // carry (not UTF-8) is left out rather than failing the session;
        // each path once, as two links to one file are bound once.
        let mut read: Vec<PathBuf> = entries
            .flatten()
            .filter(|e| {
                e.file_name()
                    .to_str()
                    .is_some_and(|name| !name.starts_with('.'))
            })
            .filter_map(|e| std::fs::canonicalize(e.path()).ok())
            .filter(|entry| entry.starts_with(&dir) && *entry != dir && entry.to_str().is_some())
            .filter(|entry| {
                !protected
                    .iter()
                    .any(|p| p.starts_with(entry) || entry.starts_with(p))
            })
            .collect();
        read.sort();
        read.dedup();
        (read, vec![dir])
    }

    /// What the sessions of the submission at `file` (absolute) are
    /// granted ([`Environment::submission_paths`]), from a private copy
    /// made readable to the sandbox's uid when they run as one and the
    /// submission's folder or a granted file is closed to others, or
    /// named in UTF-8 when a granted path is not.
    pub fn reachable_submission(&self, file: &Path) -> Result<Grants, Error> {
        let dir = file.parent().and_then(|d| std::fs::canonicalize(d).ok());
        let Some(dir) = dir else {
            let (read, list) = self.submission_paths(file);
            return Ok(Grants {
                file: file.to_owned(),
                read,
                list,
            });
        };
        // The entry is given to its sessions in its folder as the kernel
        // sees it: the grants name resolved paths (a grant follows links),
        // and beneath the covers only those exist, so a path that reaches
        // the folder through a link (a class folder of links to checkouts,
        // a linked parent) or through `..` would name nothing there. The
        // entry keeps its own name, a link within its folder included.
        let file = &dir.join(file.file_name().unwrap_or_default());
        let (read, list) = self.submission_paths(file);
        let as_granted = Grants {
            file: file.to_owned(),
            read,
            list,
        };
        let dropped = os::effective_ids().0 == 0 && self.options.sandbox;
        // The sandbox's policy carries its paths as UTF-8: a student whose
        // file or folder is named otherwise is given a copy named in UTF-8.
        let carried = [&as_granted.file]
            .into_iter()
            .chain(&as_granted.read)
            .chain(&as_granted.list)
            .all(|p| p.to_str().is_some());
        let closed =
            dropped && !(open_to_others(&dir) && as_granted.read.iter().all(|p| all_open(p)));
        if carried && !closed {
            return Ok(as_granted);
        }
        self.copy(file, &dir, &as_granted).map_err(|e| Error::Io {
            context: format!(
                "cannot give the sandbox a readable copy of {} (its folder or files are closed to other users; `chmod -R o+rX {}` opens them)",
                file.display(),
                dir.display()
            ),
            source: e,
        })
    }

    fn copy(&self, file: &Path, dir: &Path, granted: &Grants) -> std::io::Result<Grants> {
        let copies = self.scratch_dir().join("copies");
        std::fs::create_dir_all(&copies)?;
        std::fs::set_permissions(&copies, std::fs::Permissions::from_mode(0o711))?;
        let dest = tempfile::Builder::new()
            .prefix("submission-")
            .tempdir_in(&copies)?
            .keep();
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o755))?;
        let mut budget = Budget {
            bytes: COPY_LIMIT_BYTES,
            entries: COPY_LIMIT_ENTRIES,
        };
        // Named in UTF-8 where the original is not (see above).
        let place = |p: &Path| {
            let rel = p.strip_prefix(dir).unwrap_or(p);
            dest.join(rel.to_string_lossy().as_ref())
        };
        // The entry first, under its own name, even where it is a link
        // within its folder (router.py -> src/impl.py): a folder of more
        // than the budget holds leaves out the rest, never what is graded.
        let name = file.file_name().unwrap_or_default().to_string_lossy();
        let entry = dest.join(name.as_ref());
        copy_file(&std::fs::canonicalize(file)?, &entry, &mut budget)?;
        let mut read = Vec::new();
        for path in &granted.read {
            copy_tree(path, path, &place(path), &mut budget)?;
            read.push(place(path));
        }
        if !read.iter().any(|r| entry.starts_with(r)) {
            read.push(entry.clone());
        }
        let list = granted.list.iter().map(|p| place(p)).collect();
        Ok(Grants {
            file: entry,
            read,
            list,
        })
    }
}

/// Whether a user other than the owner and the group may enter and list
/// the folder `dir`.
fn open_to_others(dir: &Path) -> bool {
    std::fs::metadata(dir).is_ok_and(|m| m.mode() & 0o005 == 0o005)
}

/// Whether everything beneath `path` (itself included) may be read by
/// others, folders entered; links are judged where they lead, within.
fn all_open(path: &Path) -> bool {
    walkdir::WalkDir::new(path)
        .into_iter()
        .take(COPY_LIMIT_ENTRIES)
        .all(|entry| {
            entry.is_ok_and(|e| {
                e.file_type().is_symlink()
                    || e.metadata().is_ok_and(|m| {
                        let need = if m.is_dir() { 0o005 } else { 0o004 };
                        m.mode() & need == need
                    })
            })
        })
}

struct Budget {
    bytes: u64,
    entries: usize,
}

/// Copies `from` (within the granted `root`) to `to`: folders 0755, files
/// 0644 (0755 when executable), owned by the grader so that the sandbox's
/// uid may read them and change nothing. A link is copied as what it
/// leads to when that is a file within `root`, and left out otherwise,
/// as the grants leave it out. What is no file nor folder (a FIFO, a
/// device, a socket) and whatever exceeds the budget (a sparse file of
/// gigabytes, a folder of too many files) is left out too: the
/// submission that needs it fails on its own, and the grader's copy
/// stays bounded.
///
/// The walk keeps its own stack, never the thread's: a student's folder
/// may nest thousands of folders deep. An entry that cannot be read or
/// made (a path past the system's length limit) is left out like one
/// past the budget; only the copy's own top folder must be made.
fn copy_tree(root: &Path, from: &Path, to: &Path, budget: &mut Budget) -> std::io::Result<()> {
    let mut todo = vec![(from.to_owned(), to.to_owned())];
    let mut top = true;
    while let Some((from, to)) = todo.pop() {
        let made = copy_entry(root, &from, &to, budget);
        match made {
            Ok(children) => {
                // Reversed, so that the stack gives them back in order.
                for child in children.into_iter().rev() {
                    let name = child.file_name().unwrap_or_default().to_owned();
                    todo.push((child, to.join(name)));
                }
            }
            Err(e) if top => return Err(e),
            Err(_) => {}
        }
        top = false;
    }
    Ok(())
}

/// Copies one entry of a tree ([`copy_tree`]): a file, or a folder made
/// empty, whose entries it answers, sorted, to copy next.
fn copy_entry(
    root: &Path,
    from: &Path,
    to: &Path,
    budget: &mut Budget,
) -> std::io::Result<Vec<PathBuf>> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.file_type().is_symlink() {
        return match std::fs::canonicalize(from) {
            Ok(target) if target.starts_with(root) && target.is_file() => {
                copy_file(&target, to, budget).map(|()| Vec::new())
            }
            _ => Ok(Vec::new()),
        };
    }
    if meta.is_file() {
        return copy_file(from, to, budget).map(|()| Vec::new());
    }
    if !meta.is_dir() || !spend(budget, 0) {
        return Ok(Vec::new());
    }
    std::fs::create_dir_all(to)?;
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(0o755))?;
    let mut children: Vec<PathBuf> = std::fs::read_dir(from)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()?;
    children.sort();
    Ok(children)
}

fn copy_file(from: &Path, to: &Path, budget: &mut Budget) -> std::io::Result<()> {
    let meta = std::fs::metadata(from)?;
    if !meta.is_file() || !spend(budget, meta.len()) {
        return Ok(());
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::copy(from, to)?;
    let mode = if meta.mode() & 0o111 != 0 {
        0o755
    } else {
        0o644
    };
    std::fs::set_permissions(to, std::fs::Permissions::from_mode(mode))
}

/// Takes one entry of `bytes` from the budget, if it has room for it.
fn spend(budget: &mut Budget, bytes: u64) -> bool {
    if budget.entries == 0 || bytes > budget.bytes {
        return false;
    }
    budget.entries -= 1;
    budget.bytes -= bytes;
    true
}
