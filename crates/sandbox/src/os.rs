//! The one module that calls into the OS directly: descriptor plumbing for
//! the protocol, poll, signals to a whole process group, and the
//! namespaces, mounts, limits and identity changes of the sandbox, and
//! the terminal and signals of `grader watch`.
#![allow(unsafe_code)]

pub mod cgroup;
mod procfs;
mod terminal;
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
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command};
use std::time::Duration;

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

fn check(result: libc::c_int) -> io::Result<()> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(())
    }
}

fn c_path(path: &Path) -> io::Result<CString> {
    CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::other("a path holds a NUL byte"))
}

/// The effective user and group ids.
pub fn effective_ids() -> (u32, u32) {
    // SAFETY: these calls cannot fail and touch no memory.
    unsafe { (libc::geteuid(), libc::getegid()) }
}

/// Namespaces to leave, for [`unshare`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Namespaces {
    pub user: bool,
    pub pid: bool,
    pub network: bool,
    pub mount: bool,
    /// System V IPC objects and POSIX message queues: private, and gone
    /// with the namespace.
    pub ipc: bool,
}

/// Moves this process into new namespaces (the PID namespace applies to
/// children forked afterwards).
///
/// # Safety
///
/// The process must be single-threaded: a new user namespace requires it,
/// and other threads would be left behind in the old namespaces.
pub unsafe fn unshare(ns: Namespaces) -> io::Result<()> {
    let mut flags = 0;
    for (on, flag) in [
        (ns.user, libc::CLONE_NEWUSER),
        (ns.pid, libc::CLONE_NEWPID),
        (ns.network, libc::CLONE_NEWNET),
        (ns.mount, libc::CLONE_NEWNS),
        (ns.ipc, libc::CLONE_NEWIPC),
    ] {
        if on {
            flags |= flag;
        }
    }
    // SAFETY: unshare takes plain flags; the caller guarantees a single
    // thread, as CLONE_NEWUSER requires.
    check(unsafe { libc::unshare(flags) })
}

/// Who a [`fork`] returned to.
pub enum Forked {
    Parent(libc::pid_t),
    Child,
}

/// Forks this process.
///
/// # Safety
///
/// The process must be single-threaded: the child of a multi-threaded
/// process may only call async-signal-safe functions until it execs (a
/// lock another thread held stays locked in it forever).
pub unsafe fn fork() -> io::Result<Forked> {
    // SAFETY: the caller guarantees a single thread, so the child may
    // allocate and do anything the parent could.
    match unsafe { libc::fork() } {
        -1 => Err(io::Error::last_os_error()),
        0 => Ok(Forked::Child),
        pid => Ok(Forked::Parent(pid)),
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

/// Asks for `signal` when the parent dies.
pub fn die_with_parent(signal: i32) -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong, 0, 0, 0) })
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

/// Ends this process by `signal`, as the sandboxed program ended, so that
/// the grader sees the same status.
pub fn die_by(signal: i32) -> ! {
    // SAFETY: resetting a disposition and signalling oneself.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::kill(libc::getpid(), signal);
    }
    std::process::exit(128 + signal)
}

/// Makes every mount private, so nothing done here leaks to the host.
pub fn make_mounts_private() -> io::Result<()> {
    // SAFETY: mount with static C strings and null data.
    check(unsafe {
        libc::mount(
            c"none".as_ptr(),
            c"/".as_ptr(),
            std::ptr::null(),
            libc::MS_REC | libc::MS_PRIVATE,
            std::ptr::null(),
        )
    })
}

/// Mounts a filesystem of `kind` at `target` with `options`.
pub fn mount_fs(kind: &str, target: &Path, flags: libc::c_ulong, options: &str) -> io::Result<()> {
    let kind = CString::new(kind).map_err(io::Error::other)?;
    let target = c_path(target)?;
    let options = CString::new(options).map_err(io::Error::other)?;
    // SAFETY: valid C strings for the call's duration.
    check(unsafe {
        libc::mount(
            kind.as_ptr(),
            target.as_ptr(),
            kind.as_ptr(),
            flags,
            options.as_ptr().cast(),
        )
    })
}

/// Detaches the mount at `target` (what was bound from it stays).
pub fn unmount(target: &Path) -> io::Result<()> {
    let target = c_path(target)?;
    // SAFETY: a valid C string for the call's duration.
    check(unsafe { libc::umount2(target.as_ptr(), libc::MNT_DETACH) })
}

/// Bind-mounts `source` onto `target`, read-only when `read_only`.
pub fn bind_mount(source: &Path, target: &Path, read_only: bool) -> io::Result<()> {
    let source = c_path(source)?;
    let target = c_path(target)?;
    let none = std::ptr::null();
    // SAFETY: valid C strings for the call's duration.
    check(unsafe {
        libc::mount(
            source.as_ptr(),
            target.as_ptr(),
            none,
            libc::MS_BIND | libc::MS_REC,
            none.cast(),
        )
    })?;
    if read_only {
        // The remount must keep the flags the mount already has: in a user
        // namespace, nosuid, nodev and noexec of a host mount are locked,
        // and a remount that would clear them is refused.
        // SAFETY: statvfs fills the zeroed struct it is given.
        let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
        check(unsafe { libc::statvfs(target.as_ptr(), &mut st) })?;
        let mut kept = 0;
        for (has, flag) in [
            (libc::ST_NOSUID, libc::MS_NOSUID),
            (libc::ST_NODEV, libc::MS_NODEV),
            (libc::ST_NOEXEC, libc::MS_NOEXEC),
            (libc::ST_NOATIME, libc::MS_NOATIME),
            (libc::ST_NODIRATIME, libc::MS_NODIRATIME),
            (libc::ST_RELATIME, libc::MS_RELATIME),
        ] {
            if st.f_flag & has != 0 {
                kept |= flag;
            }
        }
        // SAFETY: as above; a remount changes only flags.
        check(unsafe {
            libc::mount(
                none,
                target.as_ptr(),
                none,
                libc::MS_BIND | libc::MS_REMOUNT | libc::MS_RDONLY | libc::MS_REC | kept,
                none.cast(),
            )
        })?;
    }
    Ok(())
}

/// Resources an rlimit can cap.
#[derive(Debug, Clone, Copy)]
pub enum Resource {
    Cpu,
    Data,
    Processes,
    OpenFiles,
    FileSize,
    Core,
}

/// Sets a resource limit.
pub fn set_limit(resource: Resource, soft: u64, hard: u64) -> io::Result<()> {
    let which = match resource {
        Resource::Cpu => libc::RLIMIT_CPU,
        Resource::Data => libc::RLIMIT_DATA,
        Resource::Processes => libc::RLIMIT_NPROC,
        Resource::OpenFiles => libc::RLIMIT_NOFILE,
        Resource::FileSize => libc::RLIMIT_FSIZE,
        Resource::Core => libc::RLIMIT_CORE,
    };
    let limit = libc::rlimit {
        rlim_cur: soft,
        rlim_max: hard,
    };
    // SAFETY: a valid rlimit for the call's duration.
    check(unsafe { libc::setrlimit(which, &limit) })
}

/// Drops every group and becomes `uid`/`gid` for good.
pub fn become_user(uid: u32, gid: u32) -> io::Result<()> {
    // SAFETY: identity calls with plain integers and a null group list.
    unsafe {
        check(libc::setgroups(0, std::ptr::null()))?;
        check(libc::setresgid(gid, gid, gid))?;
        check(libc::setresuid(uid, uid, uid))
    }
}

/// Changes the owner of `path`.
pub fn chown(path: &Path, uid: u32, gid: u32) -> io::Result<()> {
    std::os::unix::fs::chown(path, Some(uid), Some(gid))
}

/// Whether this process may write `path` (access(2) with `W_OK`), or
/// why not.
pub fn check_write_access(path: &Path) -> io::Result<()> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "the path holds a NUL byte"))?;
    // SAFETY: `c` is a NUL-terminated path that outlives the call.
    check(unsafe { libc::access(c.as_ptr(), libc::W_OK) })
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

/// Installs the seccomp filter `program` on this process (and whatever it
/// execs), after setting no-new-privileges, which an unprivileged filter
/// requires. The kernel checks the program before taking it.
pub fn install_seccomp(program: &[libc::sock_filter]) -> io::Result<()> {
    let len = u16::try_from(program.len()).map_err(io::Error::other)?;
    let fprog = libc::sock_fprog {
        len,
        filter: program.as_ptr().cast_mut(),
    };
    // SAFETY: prctl with integer arguments; then seccomp reads `fprog`,
    // which points at `program`, both alive for the call's duration.
    unsafe {
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))?;
        check(libc::syscall(
            libc::SYS_seccomp,
            libc::SECCOMP_SET_MODE_FILTER,
            0,
            &fprog as *const libc::sock_fprog,
        ) as libc::c_int)
    }
}
