//! Where a run's challenges come from, in order: `--challenges DIR`, then
//! `$GRADER_CHALLENGES`, then `./challenges` in the working folder, and
//! otherwise the challenges built into the grader
//! ([`super::embedded`]). Every report records which one was used.

use super::{Challenge, embedded};
use crate::error::Error;
use std::path::{Path, PathBuf};

pub use vocabulary::{GivenBy, Source};

/// The folder challenges are read from, and where it came from.
#[derive(Debug, Clone)]
pub struct Root {
    /// As named (a folder on disk) or absolute (the embedded ones).
    pub dir: PathBuf,
    pub source: Source,
}

impl Root {
    /// The challenges a command works with: `explicit` (`--challenges`)
    /// if given, else `$GRADER_CHALLENGES`, else `./challenges`, else the
    /// embedded ones, unpacked in `cache_dir` ([`default_cache_dir`] for
    /// every command but `grade --cache-dir`). A folder named by the flag
    /// or the variable must exist: a typo is not quietly replaced.
    pub fn find(explicit: Option<&Path>, cache_dir: &Path) -> Result<Root, Error> {
        let named = match explicit {
            Some(dir) => Some((dir.to_owned(), GivenBy::Flag)),
            None => std::env::var_os("GRADER_CHALLENGES")
                .filter(|v| !v.is_empty())
                .map(|v| (PathBuf::from(v), GivenBy::Environment)),
        };
        if let Some((dir, given_by)) = named {
            if !dir.is_dir() {
                let what = match given_by {
                    GivenBy::Flag => "--challenges",
                    _ => "GRADER_CHALLENGES=",
                };
                let sep = if what.ends_with('=') { "" } else { " " };
                return Err(Error::Usage(format!(
                    "{what}{sep}{}: no such folder; name a folder of challenges, or leave it out to use the ones built into the grader",
                    dir.display()
                )));
            }
            return Root::folder(&dir, given_by);
        }
        let here = Path::new("challenges");
        if has_challenges(here) {
            return Root::folder(here, GivenBy::WorkingFolder);
        }
        Root::embedded(cache_dir)
    }

    /// The embedded challenges, unpacked in `cache_dir`.
    pub fn embedded(cache_dir: &Path) -> Result<Root, Error> {
        let dir = absolute(&embedded::unpacked(cache_dir)?)?;
        Ok(Root {
            source: Source::Embedded {
                version: embedded::VERSION.to_owned(),
                digest: embedded::digest().to_owned(),
                path: dir.display().to_string(),
            },
            dir,
        })
    }

    /// A folder on disk, kept as it was named (so that authors' messages
    /// name their files as they know them) and recorded in full.
    fn folder(dir: &Path, given_by: GivenBy) -> Result<Root, Error> {
        Ok(Root {
            source: Source::Folder {
                path: absolute(dir)?.display().to_string(),
                given_by,
            },
            dir: dir.to_owned(),
        })
    }

    /// Loads challenge `id`; one that is not there is named with the
    /// known ones and where they came from.
    pub fn load(&self, id: &str) -> Result<Challenge, Error> {
        if !self.dir.join(id).join("challenge.toml").is_file() || id.contains('/') {
            let known = super::list_ids(&self.dir);
            let hint = match self.source {
                Source::Embedded { .. } => {
                    "; for another, pass --challenges DIR with a folder holding it"
                }
                Source::Folder { .. } => "",
            };
            return Err(Error::Usage(format!(
                "no challenge `{id}` in {} (known: {}){hint}",
                self.source.describe(),
                if known.is_empty() {
                    "none".into()
                } else {
                    known.join(", ")
                }
            )));
        }
        Challenge::load(&self.dir, id)
    }

    /// Every challenge, sorted by id.
    pub fn list(&self) -> Result<Vec<Challenge>, Error> {
        super::list(&self.dir)
    }

    /// Every challenge's id, sorted, whether it loads or not.
    pub fn ids(&self) -> Result<Vec<String>, Error> {
        super::ids(&self.dir)
    }

    /// Refuses a command (`what`) that would write into the challenges'
    /// own folder when they are the embedded ones: that folder is the
    /// grader's copy, checked and restored on every use.
    pub fn check_writable(&self, what: &str) -> Result<(), Error> {
        match self.source {
            Source::Embedded { .. } => Err(Error::Usage(format!(
                "{what} would change {}, which cannot be changed; run it in a checkout of the course (./challenges), or pass --challenges DIR or --tests DIR; nothing was written",
                self.source.describe()
            ))),
            Source::Folder { .. } => Ok(()),
        }
    }
}

/// Whether `dir` holds at least one challenge (a folder with
/// `challenge.toml`): a `challenges` folder of something else is not
/// taken for the course's.
fn has_challenges(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries
            .flatten()
            .any(|e| e.path().join("challenge.toml").is_file())
    })
}

fn absolute(dir: &Path) -> Result<PathBuf, Error> {
    std::path::absolute(dir).map_err(Error::io(format!("cannot resolve {}", dir.display())))
}

/// `$XDG_CACHE_HOME/rendezvous-grader`, else `~/.cache/rendezvous-grader`,
/// else a folder in the system's temporary folder: where prepared
/// submissions, interpreters asked and the embedded challenges are kept.
pub fn default_cache_dir() -> PathBuf {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|v| !v.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })
        .unwrap_or_else(std::env::temp_dir);
    base.join("rendezvous-grader")
}
