//! Saves of the watched file, seen through its folder: editors that write
//! a temporary file and rename it over the old one, or rename the old one
//! away first (vim's backup), replace the file's inode, which a watch on
//! the file itself would lose. A folder that disappears is watched again
//! once it is back: the folder watched is checked every half second to be
//! the one at its path (removed and made again, it is another, and a
//! watch on the old one would hear nothing more).

use notify::{Event, EventKind, RecommendedWatcher, RecursiveMode, Watcher};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::time::{Duration, Instant};

/// How often a lost folder is looked for again.
const RETRY: Duration = Duration::from_millis(500);

/// The watch on one file's folder.
pub struct FileWatch {
    dir: PathBuf,
    name: OsString,
    extension: Option<OsString>,
    events: Receiver<notify::Result<Event>>,
    sender: Sender<notify::Result<Event>>,
    /// `None` while the folder is gone (or the watch failed).
    watcher: Option<RecommendedWatcher>,
    /// The folder watched (device and inode), to tell it from another
    /// made at its path.
    watched: Option<(u64, u64)>,
    retry_at: Instant,
}

/// The device and inode of the folder at `dir`, if there is one.
fn identity(dir: &Path) -> Option<(u64, u64)> {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata(dir)
        .ok()
        .filter(|m| m.is_dir())
        .map(|m| (m.dev(), m.ino()))
}

impl FileWatch {
    /// Watches the folder of `file` (an absolute path).
    pub fn new(file: &Path) -> notify::Result<FileWatch> {
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        let (sender, events) = channel();
        let mut watch = FileWatch {
            dir,
            name: file.file_name().unwrap_or_default().to_owned(),
            extension: file.extension().map(|e| e.to_owned()),
            events,
            sender,
            watcher: None,
            watched: None,
            retry_at: Instant::now(),
        };
        watch.watched = identity(&watch.dir);
        watch.watcher = Some(watch.establish()?);
        watch.retry_at = Instant::now() + RETRY;
        Ok(watch)
    }

    fn establish(&self) -> notify::Result<RecommendedWatcher> {
        let mut watcher = notify::recommended_watcher(self.sender.clone())?;
        watcher.watch(&self.dir, RecursiveMode::NonRecursive)?;
        Ok(watcher)
    }

    /// Waits up to `timeout` for events; answers whether the file (or a
    /// module of its kind beside it, which it may import) changed.
    pub fn wait(&mut self, timeout: Duration) -> bool {
        if Instant::now() >= self.retry_at {
            self.retry_at = Instant::now() + RETRY;
            let now = identity(&self.dir);
            if self.watcher.is_some() && now != self.watched {
                // Removed, or removed and made again: the old watch is deaf.
                self.lose();
            }
            if self.watcher.is_none()
                && now.is_some()
                && let Ok(watcher) = self.establish()
            {
                // Whatever happened while unwatched counts as a change.
                self.watcher = Some(watcher);
                self.watched = now;
                return true;
            }
        }
        // Never past the next check of the folder.
        let timeout = timeout.min(self.retry_at.saturating_duration_since(Instant::now()));
        let first = match self.events.recv_timeout(timeout) {
            Ok(event) => event,
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return false,
        };
        let mut changed = self.take(first);
        while let Ok(event) = self.events.try_recv() {
            changed |= self.take(event);
        }
        changed
    }

    /// Whether `event` changes the file; a lost folder drops the watch,
    /// to be set up again.
    fn take(&mut self, event: notify::Result<Event>) -> bool {
        let Ok(event) = event else {
            self.lose();
            return false;
        };
        // Reads and opens are not saves; a write that closes is.
        if let EventKind::Access(kind) = event.kind
            && kind != notify::event::AccessKind::Close(notify::event::AccessMode::Write)
        {
            return false;
        }
        let mut changed = false;
        for path in &event.paths {
            if path == &self.dir {
                if matches!(event.kind, EventKind::Remove(_) | EventKind::Modify(_)) {
                    self.lose();
                    changed = true;
                }
            } else if path.parent() == Some(self.dir.as_path()) && self.concerns(path) {
                changed = true;
            }
        }
        changed
    }

    fn lose(&mut self) {
        self.watcher = None;
        self.retry_at = Instant::now() + RETRY;
    }

    /// The file itself, or a file of its kind beside it: not an editor's
    /// hidden swap file or backup (`.router.py.swp`, `router.py~`).
    fn concerns(&self, path: &Path) -> bool {
        let Some(name) = path.file_name() else {
            return false;
        };
        if name == self.name.as_os_str() {
            return true;
        }
        let hidden = name.to_string_lossy().starts_with('.');
        !hidden && self.extension.is_some() && path.extension() == self.extension.as_deref()
    }
}
