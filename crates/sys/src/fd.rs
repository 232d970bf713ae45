//! Descriptor plumbing: the protocol's descriptors installed in a child,
//! and the flags and ownership of a process's own descriptors.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};

/// The descriptor numbers a child sees: requests in, responses out,
/// progress queries in (documented in docs/protocol.md), and
/// the sandbox's own status out and shutdown in, which the program itself
/// never holds.
pub const CHILD_FDS: [RawFd; 5] = [3, 4, 5, 6, 7];

/// Spawns `command` in a new process group with `fds` installed at
/// [`CHILD_FDS`] and core dumps off. The parent's copies of `fds` are closed
/// when this returns.
pub fn spawn_with_fds(command: &mut Command, fds: [OwnedFd; 5]) -> io::Result<Child> {
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
    // async-signal-safe functions (dup2, setrlimit, prctl) on plain
    // integers.
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
            // If the grader dies (killed, interrupted batch), its sessions
            // die with it instead of running on unwatched.
            libc::prctl(
                libc::PR_SET_PDEATHSIG,
                libc::SIGKILL as libc::c_ulong,
                0,
                0,
                0,
            );
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

/// Takes ownership of inherited descriptor `fd` as a file.
///
/// # Safety
///
/// `fd` must be open and owned by nothing else in the process (an
/// inherited descriptor of [`CHILD_FDS`], taken once): the file closes it
/// when dropped.
pub unsafe fn take_fd(fd: RawFd) -> std::fs::File {
    // SAFETY: the caller guarantees sole ownership of an open `fd`.
    unsafe { std::fs::File::from_raw_fd(fd) }
}

/// Marks descriptor `fd` to close on a successful exec.
///
/// # Safety
///
/// `fd` must be owned by the caller: whoever else owns it would lose it at
/// the next exec.
pub unsafe fn set_cloexec(fd: RawFd) {
    // SAFETY: fcntl flag change on a descriptor the caller owns.
    unsafe {
        libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
    }
}

/// Closes descriptor `fd`, if open.
///
/// # Safety
///
/// `fd` must be owned by the caller and used by nothing afterwards: a
/// `File` still holding the number would read or write whatever the number
/// is reused for.
pub unsafe fn close(fd: RawFd) {
    // SAFETY: the caller owns `fd` and nothing uses it afterwards.
    unsafe {
        libc::close(fd);
    }
}

/// Marks every descriptor from `first` on to close at the next exec, so
/// that a program started by it inherits nothing the process held (a CI
/// runner's descriptors, the grader's own).
///
/// # Safety
///
/// Whoever owns a descriptor from `first` on loses it at the next exec: the
/// caller must be about to exec, with nothing that must outlive the exec
/// (in the shim, only descriptors inherited for it).
pub unsafe fn cloexec_from(first: u32) -> io::Result<()> {
    const CLOSE_RANGE_CLOEXEC: libc::c_uint = 1 << 2;
    // SAFETY: close_range with CLOSE_RANGE_CLOEXEC only sets a flag on
    // descriptor numbers; it closes nothing.
    let done =
        unsafe { libc::syscall(libc::SYS_close_range, first, u32::MAX, CLOSE_RANGE_CLOEXEC) };
    if done == 0 {
        return Ok(());
    }
    // Kernels before 5.11: each open descriptor, from /proc.
    let open: Vec<RawFd> = std::fs::read_dir("/proc/self/fd")?
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse().ok())
        .filter(|&fd: &RawFd| fd >= first as RawFd)
        .collect();
    for fd in open {
        // SAFETY: a flag change on a descriptor number; closes nothing.
        unsafe {
            libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC);
        }
    }
    Ok(())
}
