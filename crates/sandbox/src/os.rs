//! The containment's own calls into the OS: the namespaces, mounts,
//! limits, identity changes and seccomp filter of the sandbox, the fork
//! and death of its shim, and the cgroups that keep a session's accounts.
//! What is not containment (descriptors, poll, signals, locks, `/proc`,
//! the terminal) is the `sys` crate's.
#![allow(unsafe_code)]

pub mod cgroup;

use std::ffi::CString;
use std::io;
use std::path::Path;
use sys::{c_path, check};

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

/// Asks for `signal` when the parent dies.
pub fn die_with_parent(signal: i32) -> io::Result<()> {
    // SAFETY: prctl with integer arguments.
    check(unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, signal as libc::c_ulong, 0, 0, 0) })
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
