//! Other processes: signals to one or to a whole process group, reaping
//! children, adopting orphans, and the clock of their CPU times.
#![allow(unsafe_code)]

use super::check;
use std::io;

/// Sends SIGKILL to every process in group `pgid`. A group that is already
/// gone is not an error.
pub fn kill_group(pgid: u32) {
    // SAFETY: killpg takes plain integers; a stale group yields ESRCH.
    unsafe {
        libc::killpg(pgid as libc::pid_t, libc::SIGKILL);
    }
}

/// How a reaped child ended, with its resource use.
#[derive(Debug, Clone, Copy)]
pub struct Ended {
    pub pid: libc::pid_t,
    /// The exit code, if it exited.
    pub code: Option<i32>,
    /// The signal that killed it, if one did.
    pub signal: Option<i32>,
    /// Peak resident memory, in KiB.
    pub max_rss_kib: u64,
    /// User plus system CPU time, in milliseconds.
    pub cpu_ms: u64,
}

/// Waits for child `pid` (-1: any child) and reaps it.
pub fn wait(pid: libc::pid_t) -> io::Result<Ended> {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: valid pointers to locals for the call's duration.
        let got = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if got < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        let ms = |t: libc::timeval| t.tv_sec as u64 * 1000 + t.tv_usec as u64 / 1000;
        return Ok(Ended {
            pid: got,
            code: libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status)),
            signal: libc::WIFSIGNALED(status).then(|| libc::WTERMSIG(status)),
            max_rss_kib: usage.ru_maxrss.max(0) as u64,
            cpu_ms: ms(usage.ru_utime) + ms(usage.ru_stime),
        });
    }
}

/// Makes this process adopt its orphaned descendants.
pub fn become_subreaper() -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) })
}

/// How many clock ticks make a second in `/proc/PID/stat`'s CPU times.
pub fn clock_ticks_per_second() -> u64 {
    // SAFETY: sysconf reads a constant of the system.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    if ticks > 0 { ticks as u64 } else { 100 }
}

/// Sends `signal` to process `pid`.
pub fn kill(pid: libc::pid_t, signal: i32) {
    // SAFETY: kill takes plain integers.
    unsafe {
        libc::kill(pid, signal);
    }
}
