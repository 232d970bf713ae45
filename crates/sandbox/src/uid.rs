//! Sandbox uids leased machine-wide, so that no two live sessions, of one
//! grader run or of two, run as the same uid (and so share its process
//! limit, its keyring, its signals).

use crate::contain::FIRST_UID;
use std::path::PathBuf;

/// How many uids sessions run as, from [`FIRST_UID`].
const UID_COUNT: u32 = 4000;

/// A sandbox uid held for one session: while the lease lives no other
/// session on this machine, of this grader run or of another, runs as it.
/// The lease is an exclusive `flock` on a file named after the uid, which
/// the kernel releases when its holder exits, however it exits.
#[derive(Debug)]
pub struct UidLease {
    uid: u32,
    _lock: std::fs::File,
}

impl UidLease {
    /// The first free uid from `start` on (wrapping around the range).
    pub fn take(start: u32) -> std::io::Result<UidLease> {
        let dir = uid_lock_dir();
        std::fs::create_dir_all(&dir)?;
        for i in 0..UID_COUNT {
            let uid = FIRST_UID + start.wrapping_add(i) % UID_COUNT;
            use std::os::unix::fs::OpenOptionsExt;
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .custom_flags(libc::O_NOFOLLOW | libc::O_CLOEXEC)
                .open(dir.join(format!("{uid}.lock")))?;
            if sys::try_lock(&file)? {
                return Ok(UidLease { uid, _lock: file });
            }
        }
        Err(std::io::Error::other(format!(
            "all {UID_COUNT} sandbox uids from {FIRST_UID} are in use"
        )))
    }

    /// The uid leased.
    pub fn uid(&self) -> u32 {
        self.uid
    }
}

/// Where uid leases are locked: a folder only root may write in (`/run`),
/// since only a grader running as root gives sessions uids of their own.
pub(super) fn uid_lock_dir() -> PathBuf {
    PathBuf::from("/run/rendezvous-grader/uids")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_live_leases_share_a_uid() {
        if crate::os::effective_ids().0 != 0 {
            // Leases exist for root's sessions only; elsewhere there is no
            // /run folder of ours to lock in.
            return;
        }
        let leases: Vec<UidLease> = (0..50).map(|_| UidLease::take(7).unwrap()).collect();
        let uids: std::collections::BTreeSet<u32> = leases.iter().map(UidLease::uid).collect();
        assert_eq!(uids.len(), leases.len(), "{uids:?}");
        assert!(
            uids.iter()
                .all(|u| (FIRST_UID..FIRST_UID + UID_COUNT).contains(u))
        );
        // A uid given back is free again. (Sessions of other tests, in
        // this process or another, lease uids too and may hold it a moment:
        // it comes back once they are done.)
        let first = leases[0].uid();
        drop(leases);
        let came_back = (0..200).any(|_| {
            let again = UidLease::take(first - FIRST_UID).unwrap();
            if again.uid() == first {
                return true;
            }
            drop(again);
            std::thread::sleep(std::time::Duration::from_millis(50));
            false
        });
        assert!(came_back, "uid {first} was never free again");
    }
}
