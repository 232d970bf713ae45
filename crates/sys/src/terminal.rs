//! What an interactive command needs of the terminal and of signals: keys
//! read one at a time without echo (the line discipline restored after),
//! the signals that ask it to stop, children that die with it, and the
//! time of day.
#![allow(unsafe_code)]

use std::io;
use std::os::fd::RawFd;
use std::os::unix::process::CommandExt;
use std::process::Command;
use std::sync::atomic::{AtomicI32, Ordering};

/// A terminal in key mode: no line editing and no echo, so a key press
/// arrives at once; Ctrl-C still sends SIGINT. Dropping it puts the
/// terminal back as it was.
pub struct KeyMode {
    fd: RawFd,
    saved: libc::termios,
}

impl KeyMode {
    /// Puts the terminal on `fd` in key mode.
    pub fn enter(fd: RawFd) -> io::Result<KeyMode> {
        // SAFETY: an all-zero termios is a valid value to be overwritten.
        let mut saved: libc::termios = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a local for the call's duration.
        super::check(unsafe { libc::tcgetattr(fd, &mut saved) })?;
        let mut keys = saved;
        keys.c_lflag &= !(libc::ICANON | libc::ECHO);
        keys.c_cc[libc::VMIN] = 1;
        keys.c_cc[libc::VTIME] = 0;
        // SAFETY: as above.
        super::check(unsafe { libc::tcsetattr(fd, libc::TCSANOW, &keys) })?;
        Ok(KeyMode { fd, saved })
    }
}

impl Drop for KeyMode {
    fn drop(&mut self) {
        // SAFETY: the settings read from this descriptor in `enter`.
        unsafe {
            libc::tcsetattr(self.fd, libc::TCSANOW, &self.saved);
        }
    }
}

/// The size of the terminal on `fd`, as (columns, rows); none when `fd`
/// is no terminal or the terminal does not say.
pub fn terminal_size(fd: RawFd) -> Option<(u16, u16)> {
    // SAFETY: an all-zero winsize is a valid value to be overwritten.
    let mut size: libc::winsize = unsafe { std::mem::zeroed() };
    // SAFETY: TIOCGWINSZ writes one winsize through a valid pointer.
    let done = unsafe { libc::ioctl(fd, libc::TIOCGWINSZ, &mut size) };
    (done == 0 && size.ws_col > 0 && size.ws_row > 0).then_some((size.ws_col, size.ws_row))
}

/// Reads what is waiting on `fd` into `buf` (one call of read(2)).
pub fn read_some(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is valid for writes of its length.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// The stop signal received, 0 for none.
static STOP: AtomicI32 = AtomicI32::new(0);

extern "C" fn on_stop(signal: libc::c_int) {
    // Async-signal-safe: one atomic store.
    STOP.store(signal, Ordering::SeqCst);
}

/// From now on SIGINT, SIGTERM and SIGHUP do not end this process: they
/// are remembered for [`stop_signal`], so that it can leave cleanly.
pub fn catch_stop_signals() -> io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: an all-zero sigaction is valid; the handler only stores
        // to an atomic.
        unsafe {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_stop as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            super::check(libc::sigaction(signal, &action, std::ptr::null_mut()))?;
        }
    }
    Ok(())
}

/// SIGINT, SIGTERM and SIGHUP end this process again, as they did before
/// [`catch_stop_signals`]; one caught meanwhile is still answered by
/// [`stop_signal`].
pub fn default_stop_signals() -> io::Result<()> {
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
        // SAFETY: restoring a signal's default action.
        unsafe {
            if libc::signal(signal, libc::SIG_DFL) == libc::SIG_ERR {
                return Err(io::Error::last_os_error());
            }
        }
    }
    Ok(())
}

/// The stop signal caught since [`catch_stop_signals`], if one.
pub fn stop_signal() -> Option<i32> {
    Some(STOP.load(Ordering::SeqCst)).filter(|s| *s != 0)
}

/// Makes the child `command` spawns get SIGKILL when this thread's process
/// dies, however it dies.
pub fn kill_child_with_parent(command: &mut Command) {
    // SAFETY: prctl with integer arguments is async-signal-safe.
    unsafe {
        command.pre_exec(|| {
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
}

/// The local time of day, `HH:MM:SS`.
pub fn time_of_day() -> String {
    // SAFETY: time and localtime_r with valid pointers to locals.
    unsafe {
        let now = libc::time(std::ptr::null_mut());
        let mut tm: libc::tm = std::mem::zeroed();
        if libc::localtime_r(&now, &mut tm).is_null() {
            return String::new();
        }
        format!("{:02}:{:02}:{:02}", tm.tm_hour, tm.tm_min, tm.tm_sec)
    }
}
