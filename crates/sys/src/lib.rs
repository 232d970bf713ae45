//! The grader's calls into the OS that are not containment: descriptor
//! plumbing for the protocol, poll, signals to a process or a whole
//! process group and reaping, file locks and the exchange of two paths,
//! readings of `/proc`, and the terminal and stop signals of an
//! interactive command. Containment (namespaces, mounts, rlimits, identity
//! changes, seccomp, cgroups) is the `sandbox` crate's, which builds on
//! this one.
//!
//! Unsafe code is allowed only in the modules that call into the OS, each
//! with an `#![allow(unsafe_code)]` of its own.

mod fd;
mod file;
mod poll;
mod process;
mod procfs;
mod terminal;

pub use fd::{
    CHILD_FDS, cloexec_from, close, set_cloexec, set_nonblocking, spawn_with_fds, take_fd,
};
pub use file::{check_write_access, exchange, lock, try_lock, try_lock_within};
pub use poll::{Interest, Ready, poll};
pub use process::{Ended, become_subreaper, clock_ticks_per_second, kill, kill_group, wait};
pub use procfs::{
    Deadline, MachineTime, OWN_TIME_CAP, lowered_priority, machine_busy, own_cpu, process_tree,
    waited_for_cpu,
};
pub use terminal::{
    KeyMode, catch_stop_signals, default_stop_signals, kill_child_with_parent, read_some,
    stop_signal, terminal_size, time_of_day,
};

use std::ffi::CString;
use std::io;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

/// A libc call's result as a `Result`: a negative one is the OS error
/// `errno` holds.
pub fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

/// `path` as the C string the OS takes (a path holding a NUL byte is an
/// error).
pub fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other("a path holds a NUL byte"))
}
