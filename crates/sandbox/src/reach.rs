//! A submission the sandbox's uid could not read where it is (a folder
//! only its owner may enter, as `mktemp -d` makes them, or files only its
//! owner may read) is given to its sessions as a private read-only copy:
//! the folders above a granted path are covered and it is bound back
//! beneath them, but a bind keeps the path's own permissions, so a folder
//! or file the uid may not enter or read stays closed to it.

use super::Environment;
use crate::Error;
use crate::os;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};

/// The most a copy may hold: far more than any student's folder of
/// source, and a bound on what the grader copies for one submission.
const COPY_LIMIT_BYTES: u64 = 64 << 20;
/// The most the entry file's own copy may hold: far beyond any program a
/// course's executable submission needs.
const ENTRY_COPY_LIMIT_BYTES: u64 = 1 << 30;
/// The most entries a copy may hold.
const COPY_LIMIT_ENTRIES: usize = 10_000;

/// What a submission's sessions are given: its entry file where they run
/// it, the paths they may read, the folders they may only list, and the
/// paths inside a granted folder that a cover hides from them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Grants {
    pub file: PathBuf,
    pub read: Vec<PathBuf>,
    pub list: Vec<PathBuf>,
    /// Inside a folder of `read`: what its sessions must not see there
    /// (tests checked out inside a student's repository, its dotfiles),
    /// each covered by an empty folder or file of the same kind in the
    /// sandbox's mount namespace. Only where that namespace is in force;
    /// without it the folder's other entries are granted one by one.
    pub hide: Vec<PathBuf>,
}

/// The most paths one student's folder may need hidden or granted one by
/// one: far beyond a repository's dotfiles and a course's test folders,
/// and a bound on what one session's setup costs.
pub const MOST_GRANTED_ENTRIES: usize = 10_000;

/// A student's folder the grader cannot give its sessions: too many
/// entries to grant or hide one by one. The submission's own problem
/// (its compile error), with the figures to act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooManyEntries {
    pub folder: PathBuf,
    pub entries: usize,
}

impl std::fmt::Display for TooManyEntries {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the folder {} holds {} entries that must be hidden or granted one by one \
             (its dotfiles and the tests kept in it; without a mount namespace, every file \
             beside those tests), more than the {} a submission may have; keep the tests and the \
             submission in folders of their own, or remove what the submission does not need",
            self.folder.display(),
            self.entries,
            MOST_GRANTED_ENTRIES
        )
    }
}

impl Environment {
    /// What of a submission its session may read: its folder (for modules
    /// it imports), less whatever is protected there (tests, challenges,
    /// the other submissions of this run) and, when anything is, its
    /// dotfiles. With a mount namespace the folder is granted whole and
    /// what it must not show is covered ([`Grants::hide`]): the setup is
    /// the same for a folder of four files and of forty thousand. Without
    /// one, its other entries are granted one by one, at most
    /// [`MOST_GRANTED_ENTRIES`].
    ///
    /// Every path is granted where it really is: a grant follows links
    /// (Landlock opens the path), so an entry of the folder that is a link
    /// out of it (to the hidden tests, say) is left out, and so is one to
    /// anything protected.
    pub fn submission_paths(&self, file: &Path) -> Result<Grants, TooManyEntries> {
        let real = |p: &Path| std::fs::canonicalize(p).or_else(|_| std::path::absolute(p));
        let nothing = Grants {
            file: file.to_owned(),
            ..Grants::default()
        };
        // The student's folder is the one the entry is named in, where it
        // really is: an entry that is a link within it (router.py ->
        // src/impl.py) is run through the link, which must be granted too.
        let Some(dir) = std::path::absolute(file)
            .ok()
            .and_then(|f| f.parent().map(Path::to_owned))
            .and_then(|d| real(&d).ok())
        else {
            return Ok(nothing);
        };
        let Ok(real_file) = real(file) else {
            return Ok(nothing);
        };
        if !real_file.starts_with(&dir) {
            // Refused when it was prepared: nothing of it is granted.
            return Ok(nothing);
        }
        let granted = |read: Vec<PathBuf>, list: Vec<PathBuf>, hide: Vec<PathBuf>| Grants {
            file: file.to_owned(),
            read,
            list,
            hide,
        };
        // A class folder's file: what lies beside it is the class's, not
        // this student's. An entry that is a link within the folder is run
        // through the link, which the folder, listed only, keeps (rebuilt
        // under a cover with the granted paths and their links alone).
        if let Some(entry) = self
            .options
            .alone
            .iter()
            .find(|p| real(p).is_ok_and(|p| p == real_file))
        {
            let linked = std::fs::symlink_metadata(entry).is_ok_and(|m| m.file_type().is_symlink());
            let list = if linked { vec![dir] } else { Vec::new() };
            return Ok(granted(vec![real_file], list, Vec::new()));
        }
        let protected: Vec<PathBuf> = self
            .options
            .protected
            .iter()
            .filter_map(|p| real(p).ok())
            .filter(|p| *p != real_file)
            .collect();
        if protected.iter().any(|p| dir.starts_with(p)) {
            return Ok(granted(vec![real_file], Vec::new(), Vec::new()));
        }
        let inside: Vec<&PathBuf> = protected.iter().filter(|p| p.starts_with(&dir)).collect();
        if inside.is_empty() {
            return Ok(granted(vec![dir], Vec::new(), Vec::new()));
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return Ok(granted(vec![real_file], Vec::new(), Vec::new()));
        };
        // Dotfiles (a `.git` whose objects hold the hidden tests, a `.env`)
        // are never the submission's; a name the sandbox's policy cannot
        // carry (not UTF-8) is left out rather than failing the session.
        let covers = self.layers().is_ok_and(|l| l.mount_namespace);
        let mut shown = Vec::new();
        // What holds a protected path is covered whole, from the folder's
        // own entry down: tests cloned into `grading/tests` come with the
        // clone's `grading/.git`, whose objects hold them too.
        let mut hide: Vec<PathBuf> = inside
            .iter()
            .filter_map(|p| p.strip_prefix(&dir).ok()?.components().next())
            .map(|first| dir.join(first))
            .collect();
        hide.sort();
        hide.dedup();
        for entry in entries.flatten() {
            let name = entry.file_name();
            let dotfile = name.as_bytes().first() == Some(&b'.');
            if covers {
                // A link is left as it is: it resolves to what it names,
                // which is covered or granted on its own terms (a cover
                // mounted on a link would land on its target).
                if dotfile && !entry.file_type().is_ok_and(|t| t.is_symlink()) {
                    hide.push(dir.join(name));
                }
            } else if !dotfile && name.to_str().is_some() {
                shown.push(entry.path());
            }
        }
        if hide.len() + shown.len() > MOST_GRANTED_ENTRIES {
            return Err(TooManyEntries {
                folder: file.parent().unwrap_or(Path::new("/")).to_owned(),
                entries: hide.len() + shown.len(),
            });
        }
        if covers {
            hide.sort();
            hide.dedup();
            return Ok(granted(vec![dir], Vec::new(), hide));
        }
        // Each path once, as two links to one file are bound once.
        let mut read: Vec<PathBuf> = shown
            .iter()
            .filter_map(|e| std::fs::canonicalize(e).ok())
            .filter(|entry| entry.starts_with(&dir) && *entry != dir && entry.to_str().is_some())
            .filter(|entry| {
                !protected
                    .iter()
                    .any(|p| p.starts_with(entry) || entry.starts_with(p))
            })
            .collect();
        read.sort();
        read.dedup();
        Ok(granted(read, vec![dir], Vec::new()))
    }

    /// What the sessions of the submission at `file` (absolute) are
    /// granted ([`Environment::submission_paths`]), from a private copy
    /// made readable to the sandbox's uid when they run as one and the
    /// submission's folder or a granted file is closed to others, or
    /// named in UTF-8 when a granted path is not.
    pub fn reachable_submission(
        &self,
        file: &Path,
    ) -> Result<Result<Grants, TooManyEntries>, Error> {
        let dir = file.parent().and_then(|d| std::fs::canonicalize(d).ok());
        let Some(dir) = dir else {
            return Ok(self.submission_paths(file));
        };
        // The entry is given to its sessions in its folder as the kernel
        // sees it: the grants name resolved paths (a grant follows links),
        // and beneath the covers only those exist, so a path that reaches
        // the folder through a link (a class folder of links to checkouts,
        // a linked parent) or through `..` would name nothing there. The
        // entry keeps its own name, a link within its folder included.
        let file = &dir.join(file.file_name().unwrap_or_default());
        let as_granted = match self.submission_paths(file) {
            Ok(grants) => grants,
            Err(too_many) => return Ok(Err(too_many)),
        };
        let dropped = os::effective_ids().0 == 0 && self.options.sandbox;
        // The sandbox's policy carries its paths as UTF-8: a student whose
        // file or folder is named otherwise is given a copy named in UTF-8.
        let carried = [&as_granted.file]
            .into_iter()
            .chain(&as_granted.read)
            .chain(&as_granted.list)
            .chain(&as_granted.hide)
            .all(|p| p.to_str().is_some());
        let closed =
            dropped && !(open_to_others(&dir) && as_granted.read.iter().all(|p| all_open(p)));
        if carried && !closed {
            return Ok(Ok(as_granted));
        }
        self.copy(file, &dir, &as_granted)
            .map(Ok)
            .map_err(|e| Error::Io {
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
        // Bounded on its own: a large program (a statically linked
        // executable) is copied whatever the rest of the folder costs.
        let mut own = Budget {
            bytes: ENTRY_COPY_LIMIT_BYTES,
            entries: 1,
        };
        copy_file(&std::fs::canonicalize(file)?, &entry, &mut own)?;
        // What the sessions must not see is left out of the copy, which
        // then has nothing to hide.
        let mut read = Vec::new();
        for path in &granted.read {
            copy_tree(path, path, &place(path), &granted.hide, &mut budget)?;
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
            hide: Vec::new(),
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
fn copy_tree(
    root: &Path,
    from: &Path,
    to: &Path,
    hide: &[PathBuf],
    budget: &mut Budget,
) -> std::io::Result<()> {
    let mut todo = vec![(from.to_owned(), to.to_owned())];
    let mut top = true;
    while let Some((from, to)) = todo.pop() {
        if hide.iter().any(|h| from.starts_with(h)) {
            continue;
        }
        let made = copy_entry(root, &from, &to, hide, budget);
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
    hide: &[PathBuf],
    budget: &mut Budget,
) -> std::io::Result<Vec<PathBuf>> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.file_type().is_symlink() {
        return match std::fs::canonicalize(from) {
            Ok(target)
                if target.starts_with(root)
                    && !hide.iter().any(|h| target.starts_with(h))
                    && target.is_file() =>
            {
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
