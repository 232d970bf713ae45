//! Hidden cases across runs. Within a run, every session of a hidden case
//! comes after every session whose output a report shows; across runs on
//! one machine nothing ordered them, and a hidden session could pass what
//! it saw to a visible session of another run (two shards at once, a late
//! student graded with `--resume`) through state the machine shares:
//!
//! - what lives only while its holder does (`flock` on the interpreter's
//!   library files, a process's CPU load): closed by never letting a
//!   visible session of any run overlap a hidden session of another. Each
//!   session holds the machine's lock of its phase, shared with every
//!   session in the same phase, and takes it only once no session is in
//!   the other one;
//! - the page cache of the files every session may read, which outlives
//!   them all: a hidden session may not evict a page (`posix_fadvise`,
//!   `readahead`, `madvise`'s cold and page-out advice and `cachestat` are
//!   refused by the seccomp filter), and every page it brought into the
//!   cache is charged to its cgroup, which is emptied of them when it
//!   ends, before its phase lock goes ([`crate::Group`]):
//!   the cache is as the session found it.
//!
//! What stays open is in docs/containment.md.

use super::{Environment, Error};
use crate::os;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};

/// What the sessions a run starts next may see.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Only cases whose output a report may show to a learner.
    Visible,
    /// Hidden cases (alone, or with visible ones in a report for the
    /// instructor).
    Hidden,
}

impl Phase {
    fn lock_name(self) -> &'static str {
        match self {
            Phase::Visible => "visible.lock",
            Phase::Hidden => "hidden.lock",
        }
    }

    fn other(self) -> Phase {
        match self {
            Phase::Visible => Phase::Hidden,
            Phase::Hidden => Phase::Visible,
        }
    }
}

/// A run's phase: the phase of the sessions it starts next, and its hold
/// on the machine's lock of that phase while any of them lives.
#[derive(Debug)]
pub(crate) struct Phases {
    now: Mutex<Phase>,
    /// Shared by the run's live sessions of one phase: a session started
    /// while another of the run's is alive (a replay beside the graded
    /// session, a class's other student) joins its hold instead of waiting
    /// at the gate, where a run of the other phase may wait for the first.
    held: Mutex<Weak<Hold>>,
}

impl Default for Phases {
    fn default() -> Phases {
        Phases {
            now: Mutex::new(Phase::Visible),
            held: Mutex::new(Weak::new()),
        }
    }
}

#[derive(Debug)]
struct Hold {
    phase: Phase,
    _lock: File,
}

/// A session's hold on the machine's lock of its phase: while it lives, no
/// session of the other phase runs on the machine.
#[derive(Debug)]
pub struct PhaseTicket(Arc<Hold>);

impl PhaseTicket {
    pub(crate) fn phase(&self) -> Phase {
        self.0.phase
    }
}

/// Where the machine's phase locks are: as root, a folder only root may
/// write in, beside the uid leases; otherwise a folder of the user's own,
/// since such a grader's sessions run as that user and share its files.
fn phase_dir() -> PathBuf {
    let uid = os::effective_ids().0;
    if uid == 0 {
        PathBuf::from("/run/rendezvous-grader/phases")
    } else {
        std::env::temp_dir().join(format!("rendezvous-grader-phases-{uid}"))
    }
}

/// Opens (making it) a lock file in `dir`, private to its owner.
fn open_lock(dir: &Path, name: &str) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(dir.join(name))
}

/// Makes the phases' folder, private to its owner (0700): a session runs
/// as another uid (as root) or cannot reach it (Landlock, covers), and no
/// other user may hold its locks.
fn make_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, MetadataExt};
    std::fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(dir)?;
    let meta = std::fs::symlink_metadata(dir)?;
    if !meta.is_dir() || meta.uid() != os::effective_ids().0 || meta.mode() & 0o022 != 0 {
        return Err(std::io::Error::other(format!(
            "{} is not a folder of this user's own that others may not write in",
            dir.display()
        )));
    }
    Ok(())
}

impl Environment {
    /// Puts the sessions the run starts next in `phase`. A run must have
    /// ended every session of its current phase before it enters another.
    pub fn enter_phase(&self, phase: Phase) {
        *self.phases.now.lock().unwrap_or_else(|e| e.into_inner()) = phase;
    }

    /// The run's phase now.
    pub(crate) fn phase(&self) -> Phase {
        *self.phases.now.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A hold on the machine's lock of the run's phase, for a session of
    /// learner code: waits until no session of the other phase runs on the
    /// machine (a hidden session of another run delays a visible one, and
    /// the reverse, never two of the same phase).
    pub(crate) fn phase_ticket(&self) -> Result<PhaseTicket, Error> {
        let phase = self.phase();
        // Held across the wait: two sessions of the run that start at once
        // wait at the gate once.
        let mut held = self.phases.held.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(hold) = held.upgrade() {
            if hold.phase == phase {
                return Ok(PhaseTicket(hold));
            }
            // A run ends every session of a phase before the next: one
            // that did not would wait here for itself.
            return Err(Error::Io {
                context: format!(
                    "a session of the {phase:?} phase was started while one of the other lives"
                ),
                source: std::io::Error::other("the grader's own fault"),
            });
        }
        let dir = phase_dir();
        let fail = |what: &str| {
            let what = format!(
                "cannot {what} in {} (the lock that keeps hidden sessions apart from visible ones across runs)",
                dir.display()
            );
            Error::io(what)
        };
        make_dir(&dir).map_err(fail("make the phases' folder"))?;
        // The gate orders those who wait: while one waits for the other
        // phase to end, no newcomer of that phase slips in before it.
        let gate = open_lock(&dir, "gate.lock").map_err(fail("open the gate"))?;
        sys::lock(&gate, true).map_err(fail("take the gate"))?;
        let other =
            open_lock(&dir, phase.other().lock_name()).map_err(fail("open a phase lock"))?;
        sys::lock(&other, true).map_err(fail("wait for the other phase"))?;
        let own = open_lock(&dir, phase.lock_name()).map_err(fail("open a phase lock"))?;
        sys::lock(&own, false).map_err(fail("take the phase lock"))?;
        drop(other);
        drop(gate);
        let hold = Arc::new(Hold { phase, _lock: own });
        *held = Arc::downgrade(&hold);
        Ok(PhaseTicket(hold))
    }
}
