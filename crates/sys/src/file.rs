//! Files as the grader shares them with other runs: `flock` locks, the
//! exchange of two paths in one step, and whether a path may be written.
#![allow(unsafe_code)]

use super::{c_path, check};
use std::io;
use std::os::fd::AsRawFd;
use std::path::Path;

/// Whether this process may write `path` (access(2) with `W_OK`), or
/// why not.
pub fn check_write_access(path: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"))?;
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    check(unsafe { libc::access(c.as_ptr(), libc::W_OK) })
}

/// Takes an exclusive `flock` on `file` without waiting: `false` when
/// another open file holds it. The lock goes with the file's last
/// descriptor, whoever closes it and however.
pub fn try_lock(file: &std::fs::File) -> io::Result<bool> {
    // SAFETY: flock on a descriptor the borrowed file keeps open.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        return Ok(true);
    }
    let e = io::Error::last_os_error();
    match e.raw_os_error() {
        Some(libc::EWOULDBLOCK) => Ok(false),
        _ => Err(e),
    }
}

/// Waits for `file`'s lock, exclusive or shared (`flock`), interrupted
/// waits taken up again.
pub fn lock(file: &std::fs::File, exclusive: bool) -> io::Result<()> {
    let how = if exclusive {
        libc::LOCK_EX
    } else {
        libc::LOCK_SH
    };
    loop {
        // SAFETY: flock on a descriptor the borrowed file keeps open.
        if unsafe { libc::flock(file.as_raw_fd(), how) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// [`try_lock`], tried again for up to `patience` while another holds it.
/// A run killed a moment ago can leave its lock held for some
/// milliseconds more: a child it forked shares the descriptor until it
/// execs (closing it), and a session's child joins its cgroups before
/// that, which waits for a grace period of the kernel's.
pub fn try_lock_within(file: &std::fs::File, patience: std::time::Duration) -> io::Result<bool> {
    let deadline = std::time::Instant::now() + patience;
    loop {
        if try_lock(file)? {
            return Ok(true);
        }
        if std::time::Instant::now() >= deadline {
            return Ok(false);
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

/// Swaps what `a` and `b` name, in one step (`renameat2` with
/// `RENAME_EXCHANGE`): no reader ever finds either missing or half made.
pub fn exchange(a: &Path, b: &Path) -> io::Result<()> {
    let (a, b) = (c_path(a)?, c_path(b)?);
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let done = unsafe {
        libc::syscall(
            libc::SYS_renameat2,
            libc::AT_FDCWD,
            a.as_ptr(),
            libc::AT_FDCWD,
            b.as_ptr(),
            libc::RENAME_EXCHANGE,
        )
    };
    if done == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}
