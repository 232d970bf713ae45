//! Files the grader itself reads from a learner's folder (the entry, a
//! tsconfig.json), reached through that folder alone. The grader may run
//! as root: a symbolic link the learner made is followed only while it
//! stays within their folder, and one that leads out of it is refused
//! without the grader ever looking where it leads, so that neither what
//! is read nor an error about it can tell anything of the host (its
//! content, or whether it exists).

use std::collections::VecDeque;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};

/// Why a file of a learner's folder was not reached.
#[derive(Debug)]
pub enum Unreached {
    /// A link on the way leads out of the folder (or round in circles):
    /// not followed, and nothing beyond it looked at.
    LinkedOut,
    /// Within the folder: nothing there, or an error of the system's.
    Io(std::io::Error),
}

/// How many links one path may go through, as the kernel's own bound.
const MOST_LINKS: usize = 40;

/// The real path of `relative` within `folder` (itself a real path, as
/// `canonicalize` gives it), every link on the way resolved by reading
/// the link alone: a link whose target is absolute outside `folder`, or
/// whose `..` climbs above it, is [`Unreached::LinkedOut`]. The last
/// component of what is returned is not a link; open it with
/// `O_NOFOLLOW` all the same.
pub fn resolve(folder: &Path, relative: &Path) -> Result<PathBuf, Unreached> {
    let mut links = 0;
    let mut current = folder.to_path_buf();
    let mut rest = parts(relative).ok_or(Unreached::LinkedOut)?;
    while let Some(part) = rest.pop_front() {
        if part == ".." {
            if current == folder {
                return Err(Unreached::LinkedOut);
            }
            current.pop();
            continue;
        }
        let next = current.join(&part);
        let meta = std::fs::symlink_metadata(&next).map_err(Unreached::Io)?;
        if !meta.file_type().is_symlink() {
            current = next;
            continue;
        }
        links += 1;
        if links > MOST_LINKS {
            return Err(Unreached::LinkedOut);
        }
        let target = std::fs::read_link(&next).map_err(Unreached::Io)?;
        let target = if target.is_absolute() {
            // Only a target that names the folder itself stays in it: its
            // leading components are the folder's own real ones.
            current = folder.to_path_buf();
            target
                .strip_prefix(folder)
                .map_err(|_| Unreached::LinkedOut)?
                .to_owned()
        } else {
            target
        };
        let mut ahead = parts(&target).ok_or(Unreached::LinkedOut)?;
        ahead.extend(rest);
        rest = ahead;
    }
    Ok(current)
}

/// The names and `..`s of a relative path (`.` dropped); `None` for an
/// absolute one.
fn parts(path: &Path) -> Option<VecDeque<OsString>> {
    let mut out = VecDeque::new();
    for component in path.components() {
        match component {
            Component::Normal(name) => out.push_back(name.to_owned()),
            Component::ParentDir => out.push_back("..".into()),
            Component::CurDir => {}
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    /// Links within the folder are followed, through folders and `..`;
    /// every way out is refused alike, whether its target exists or not,
    /// and without looking at it.
    #[test]
    fn links_are_followed_only_within_the_folder() {
        let top = tempfile::tempdir().unwrap();
        let top = std::fs::canonicalize(top.path()).unwrap();
        let folder = top.join("learner");
        std::fs::create_dir_all(folder.join("sub")).unwrap();
        std::fs::write(folder.join("sub/real.json"), "{}").unwrap();
        std::fs::write(top.join("secret"), "canary").unwrap();
        let link = |name: &str, to: &str| symlink(to, folder.join(name)).unwrap();
        link("a.json", "sub/real.json");
        link("b.json", "sub/../sub/./real.json");
        link(
            "c.json",
            &folder.join("sub/real.json").display().to_string(),
        );
        link("d.json", "a.json");
        link("sublink", "sub");
        link("e.json", "sublink/real.json");
        for name in ["a.json", "b.json", "c.json", "d.json", "e.json"] {
            assert_eq!(
                resolve(&folder, Path::new(name)).unwrap(),
                folder.join("sub/real.json"),
                "{name}"
            );
        }
        link("out1", "../secret");
        link("out2", "../missing");
        link("out3", &top.join("secret").display().to_string());
        link("out4", "/etc/passwd");
        link("out5", "sub/../../learner/sub/real.json");
        link("loop", "loop");
        link("out6", &format!("{}/../secret", folder.display()));
        for name in ["out1", "out2", "out3", "out4", "out5", "loop", "out6"] {
            assert!(
                matches!(resolve(&folder, Path::new(name)), Err(Unreached::LinkedOut)),
                "{name}"
            );
        }
        assert!(matches!(
            resolve(&folder, Path::new("absent.json")),
            Err(Unreached::Io(e)) if e.kind() == std::io::ErrorKind::NotFound
        ));
    }
}
