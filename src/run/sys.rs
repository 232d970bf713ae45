//! The one module that calls into the OS directly: descriptor plumbing for
//! the protocol, poll, and signals to a whole process group.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::time::Duration;

/// The descriptor numbers a child sees: requests in, responses out,
/// progress queries in. Documented in the README's protocol section.
pub const CHILD_FDS: [RawFd; 3] = [3, 4, 5];

/// Spawns `command` in a new process group with `fds` installed at
/// [`CHILD_FDS`] and core dumps off. The parent's copies of `fds` are closed
/// when this returns.
pub fn spawn_with_fds(command: &mut Command, fds: [OwnedFd; 3]) -> io::Result<Child> {
    // Lift every descriptor above the targets first, so that installing one
    // can never overwrite another that is still to be installed.
    let high: Vec<OwnedFd> = fds
        .iter()
        .map(|fd| {
            // SAFETY: fcntl on a descriptor we own; the result is a new
            // descriptor we take ownership of.
            let raw = unsafe { libc::fcntl(fd.as_raw_fd(), libc::F_DUPFD_CLOEXEC, 10) };
            if raw < 0 {
                Err(io::Error::last_os_error())
            } else {
                // SAFETY: `raw` is a fresh descriptor nobody else owns.
                Ok(unsafe { OwnedFd::from_raw_fd(raw) })
            }
        })
        .collect::<io::Result<_>>()?;
    let sources: Vec<RawFd> = high.iter().map(AsRawFd::as_raw_fd).collect();
    command.process_group(0);
    // SAFETY: the closure runs between fork and exec and calls only
    // async-signal-safe functions (dup2, setrlimit) on plain integers.
    unsafe {
        command.pre_exec(move || {
            for (source, target) in sources.iter().zip(CHILD_FDS) {
                if libc::dup2(*source, target) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            let no_core = libc::rlimit {
                rlim_cur: 0,
                rlim_max: 0,
            };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            Ok(())
        });
    }
    let child = command.spawn();
    drop(high);
    drop(fds);
    child
}

/// Makes reads and writes on `fd` return `WouldBlock` instead of waiting.
pub fn set_nonblocking(fd: BorrowedFd<'_>) -> io::Result<()> {
    // SAFETY: fcntl flag manipulation on a valid, borrowed descriptor.
    unsafe {
        let flags = libc::fcntl(fd.as_raw_fd(), libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd.as_raw_fd(), libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// What to wait for on one descriptor.
#[derive(Debug, Clone, Copy)]
pub struct Interest {
    pub fd: RawFd,
    pub read: bool,
    pub write: bool,
}

/// Readiness of one descriptor after [`poll`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Ready {
    pub readable: bool,
    pub writable: bool,
    /// Hung up or failed: reading will give end of file or an error.
    pub closed: bool,
}

/// Waits until one of `interests` is ready or `timeout` passes.
pub fn poll(interests: &[Interest], timeout: Duration) -> io::Result<Vec<Ready>> {
    let mut fds: Vec<libc::pollfd> = interests
        .iter()
        .map(|i| libc::pollfd {
            fd: i.fd,
            events: (if i.read { libc::POLLIN } else { 0 })
                | (if i.write { libc::POLLOUT } else { 0 }),
            revents: 0,
        })
        .collect();
    let ms = timeout.as_millis().min(i32::MAX as u128) as i32;
    // SAFETY: `fds` is a valid array of pollfd for its whole length.
    let n = unsafe { libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, ms) };
    if n < 0 {
        let e = io::Error::last_os_error();
        if e.kind() == io::ErrorKind::Interrupted {
            return Ok(vec![Ready::default(); fds.len()]);
        }
        return Err(e);
    }
    Ok(fds
        .iter()
        .map(|p| Ready {
            readable: p.revents & libc::POLLIN != 0,
            writable: p.revents & libc::POLLOUT != 0,
            closed: p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0,
        })
        .collect())
}

/// Sends SIGKILL to every process in group `pgid`. A group that is already
/// gone is not an error.
pub fn kill_group(pgid: u32) {
    // SAFETY: killpg takes plain integers; a stale group yields ESRCH.
    unsafe {
        libc::killpg(pgid as libc::pid_t, libc::SIGKILL);
    }
}
