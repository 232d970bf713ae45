//! What the program's own process does to itself before it execs the
//! program: mounts (a fresh /proc, the scratch tmpfs, inaccessible folders
//! covered), rlimits, the dropped uid, and Landlock.

use super::{LayersInForce, Policy, seccomp};
use crate::os::{self, Resource};
use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Host folders any process may write to or serve sockets in: each is
/// covered by a private tmpfs, so that nothing a session leaves there
/// reaches another session or a later run (System V and POSIX shared
/// memory, files in /tmp) and no host daemon's socket is in reach. The
/// writable ones are bounded by the scratch size each.
const COVERED: [(&str, bool); 4] = [
    ("/tmp", true),
    ("/dev/shm", true),
    ("/run", false),
    ("/var/run", false),
];

/// A path the program is granted, opened before anything is covered so
/// that it can be bound back where a cover hides it.
struct Kept {
    path: PathBuf,
    grant: Grant,
    handle: std::fs::File,
    /// For a folder to list: its links that resolve into a granted path,
    /// and what each says, to be made again where the folder is rebuilt
    /// (a submission's `router.py -> src/impl.py`).
    links: Vec<(PathBuf, PathBuf)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Grant {
    Read,
    /// A folder to list only: under a cover it is rebuilt from the granted
    /// paths in it, never bound back whole, since a cover the program may
    /// write (/tmp) lets it read whatever lies beneath.
    List,
    Write,
}

/// In the new mount namespace: private mounts, a fresh /proc, private
/// tmpfs over /tmp, /dev/shm, /run and /var/run, the folders an
/// unprivileged uid cannot traverse covered, every granted path bound back
/// where a cover hid it, and the scratch tmpfs. Returns the private
/// folders the program may write besides its scratch folder.
pub(super) fn prepare_mounts(
    policy: &Policy,
    layers: &LayersInForce,
    drop_to: Option<u32>,
) -> std::io::Result<Vec<PathBuf>> {
    os::make_mounts_private()?;
    let kept = kept_paths(policy)?;
    if layers.pid_namespace {
        os::mount_fs(
            "proc",
            Path::new("/proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            "",
        )?;
    }
    let flags = libc::MS_NOSUID | libc::MS_NODEV;
    let mut covers: Vec<(PathBuf, String, bool)> = Vec::new();
    for (folder, writable) in COVERED {
        let folder = Path::new(folder);
        // A symlink (/var/run -> /run) is covered through its target.
        if !std::fs::symlink_metadata(folder).is_ok_and(|m| m.is_dir()) {
            continue;
        }
        let options = if writable {
            format!("size={},mode=1777", policy.limits.scratch_bytes)
        } else {
            "size=64k,mode=0755".to_owned()
        };
        covers.push((folder.to_owned(), options, writable));
    }
    if drop_to.is_some() {
        // A path below a folder that others may not traverse (a pyenv
        // Python under /root) is unreachable once root is dropped: cover
        // the folder (which also hides the rest of it, the grader's home
        // say) and bind the path back.
        for k in &kept {
            if let Some(blocker) = untraversable_ancestor(&k.path)
                && !covers.iter().any(|(c, ..)| *c == blocker)
            {
                covers.push((blocker, "mode=0755,size=1m".to_owned(), false));
            }
        }
    }
    // A granted folder that holds a cover (a submission directly in /tmp)
    // keeps the host's view there: it was granted as it is.
    covers.retain(|(cover, ..)| !kept.iter().any(|k| cover.starts_with(&k.path)));
    covers.sort_by_key(|(cover, ..)| cover.components().count());
    let mut private = Vec::new();
    for (cover, options, writable) in &covers {
        // A cover beneath another one (a folder in /tmp) needs its mount
        // point made in the one above.
        std::fs::create_dir_all(cover)?;
        os::mount_fs("tmpfs", cover, flags, options)?;
        if *writable {
            private.push(cover.clone());
        }
    }
    for k in &kept {
        let hidden = covers.iter().any(|(cover, ..)| k.path.starts_with(cover));
        // A path inside another granted one comes back with that one.
        let inside = kept.iter().any(|other| {
            other.grant != Grant::List && other.path != k.path && k.path.starts_with(&other.path)
        });
        match k.grant {
            _ if !hidden || inside => {}
            Grant::List => {
                std::fs::create_dir_all(&k.path)?;
                for (link, target) in &k.links {
                    std::os::unix::fs::symlink(target, link)?;
                }
            }
            Grant::Read | Grant::Write => bind_back(k)?,
        }
    }
    hide(policy)?;
    let owner = drop_to.unwrap_or(0);
    std::fs::create_dir_all(&policy.scratch)?;
    os::mount_fs(
        "tmpfs",
        &policy.scratch,
        flags,
        &format!(
            "size={},mode=0700,uid={owner},gid={owner}",
            policy.limits.scratch_bytes
        ),
    )?;
    Ok(private)
}

/// Covers each path of `policy.hide` with an empty folder or file, read
/// only, so that what a granted folder holds there (tests checked out in a
/// student's repository, its `.git`) is not in sight. The empty ones live
/// on a tmpfs mounted for the moment at the scratch folder's place, which
/// the scratch tmpfs then covers: the binds keep them, nothing else can
/// reach them. A path that is a link is left alone (a mount on it would
/// land on its target), and so is one that is gone.
fn hide(policy: &Policy) -> std::io::Result<()> {
    if policy.hide.is_empty() {
        return Ok(());
    }
    let blank = &policy.scratch;
    std::fs::create_dir_all(blank)?;
    os::mount_fs(
        "tmpfs",
        blank,
        libc::MS_NOSUID | libc::MS_NODEV,
        "size=4k,nr_inodes=8,mode=0755",
    )?;
    let (folder, file) = (blank.join("folder"), blank.join("file"));
    std::fs::create_dir(&folder)?;
    std::fs::write(&file, b"")?;
    for path in &policy.hide {
        let Ok(meta) = std::fs::symlink_metadata(path) else {
            continue;
        };
        if meta.file_type().is_symlink() {
            continue;
        }
        let empty = if meta.is_dir() { &folder } else { &file };
        os::bind_mount(empty, path, true)?;
    }
    os::unmount(blank)
}

/// Every path the policy grants that exists, opened (as a path only).
fn kept_paths(policy: &Policy) -> std::io::Result<Vec<Kept>> {
    use std::os::unix::fs::OpenOptionsExt;
    let granted = policy
        .read
        .iter()
        .map(|p| (p, Grant::Read))
        .chain(policy.list.iter().map(|p| (p, Grant::List)))
        .chain(policy.write.iter().map(|p| (p, Grant::Write)));
    let mut kept = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (path, grant) in granted {
        // A path granted twice is bound once: a second bind over the first,
        // read-only, could not be made.
        if !seen.insert((path, grant)) {
            continue;
        }
        let opened = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_PATH)
            .open(path);
        match opened {
            Ok(handle) => kept.push(Kept {
                path: path.clone(),
                grant,
                handle,
                links: Vec::new(),
            }),
            // Not there: nothing to grant (Landlock skips it too).
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
    }
    // Read while the host's view is still there: only links whose target
    // is granted anyway come back.
    let granted: Vec<PathBuf> = kept
        .iter()
        .filter(|k| k.grant != Grant::List)
        .map(|k| k.path.clone())
        .collect();
    for k in kept.iter_mut().filter(|k| k.grant == Grant::List) {
        let Ok(entries) = std::fs::read_dir(&k.path) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if !entry.file_type().is_ok_and(|t| t.is_symlink()) {
                continue;
            }
            let resolved = std::fs::canonicalize(&path);
            if let (Ok(resolved), Ok(target)) = (resolved, std::fs::read_link(&path))
                && granted.iter().any(|g| resolved.starts_with(g))
            {
                k.links.push((path, target));
            }
        }
    }
    Ok(kept)
}

/// The outermost ancestor of `path` that others may not traverse.
fn untraversable_ancestor(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .skip(1)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .find(|a| std::fs::metadata(a).is_ok_and(|m| m.is_dir() && m.mode() & 0o001 == 0))
        .map(Path::to_owned)
}

/// Binds a granted path back at its place under a cover, read-only unless
/// it is granted for writing.
fn bind_back(k: &Kept) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    if k.handle.metadata()?.is_dir() {
        std::fs::create_dir_all(&k.path)?;
    } else {
        if let Some(parent) = k.path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&k.path, b"")?;
    }
    let source = PathBuf::from(format!("/proc/self/fd/{}", k.handle.as_raw_fd()));
    os::bind_mount(&source, &k.path, k.grant != Grant::Write)
}

/// In the program's own process: limits, Landlock, and the uid drop.
pub(super) fn confine(
    policy: &Policy,
    layers: &mut LayersInForce,
    drop_to: Option<u32>,
    private: &[PathBuf],
) -> Result<(), String> {
    std::env::set_current_dir(&policy.scratch)
        .map_err(|e| format!("cannot enter the scratch folder: {e}"))?;
    let l = policy.limits;
    let limits = [
        (Resource::Cpu, l.cpu_seconds, l.cpu_seconds + 1),
        (Resource::Data, l.memory_bytes, l.memory_bytes),
        (Resource::Processes, l.processes, l.processes),
        (Resource::OpenFiles, l.open_files, l.open_files),
        (Resource::FileSize, l.file_size_bytes, l.file_size_bytes),
        (Resource::Core, 0, 0),
    ];
    for (resource, soft, hard) in limits {
        os::set_limit(resource, soft, hard)
            .map_err(|e| format!("cannot set the {resource:?} limit: {e}"))?;
    }
    let ruleset = if policy.isolate {
        match landlock_ruleset(policy, private) {
            Ok(r) => Some(r),
            Err(e) => {
                layers.missing.push(format!("landlock ({e})"));
                None
            }
        }
    } else {
        None
    };
    if let Some(uid) = drop_to {
        os::become_user(uid, uid).map_err(|e| format!("cannot become uid {uid}: {e}"))?;
        layers.runs_as = Some(uid);
    }
    if let Some((ruleset, abi)) = ruleset {
        match ruleset.restrict_self() {
            Ok(status) if status.ruleset == RulesetStatus::FullyEnforced => {
                layers.landlock = Some(abi)
            }
            Ok(status) if status.ruleset == RulesetStatus::PartiallyEnforced => {
                layers.landlock = Some(format!("{abi} (partial)"));
                layers
                    .missing
                    .push("some landlock rights (an older kernel)".into());
            }
            Ok(_) => layers
                .missing
                .push("landlock (not supported by this kernel)".into()),
            Err(e) => layers.missing.push(format!("landlock ({e})")),
        }
    }
    if policy.isolate {
        for (held, name) in [
            (layers.pid_namespace, "pid namespace"),
            (layers.network_namespace, "network namespace"),
            (layers.mount_namespace, "mount namespace"),
            (layers.ipc_namespace, "ipc namespace"),
        ] {
            if !held && !layers.missing.iter().any(|m| m.starts_with("namespaces")) {
                layers.missing.push(name.into());
            }
        }
        // Last: the filter would refuse nothing the steps above need, but
        // it is the program's, not the shim's.
        match seccomp::program() {
            Some(program) => match os::install_seccomp(&program) {
                Ok(()) => layers.seccomp = Some(seccomp::DESCRIPTION.into()),
                Err(e) => layers.missing.push(format!("seccomp ({e})")),
            },
            None => layers
                .missing
                .push("seccomp (not built for this processor)".into()),
        }
    }
    Ok(())
}

fn landlock_ruleset(
    policy: &Policy,
    private: &[PathBuf],
) -> Result<(landlock::RulesetCreated, String), landlock::RulesetError> {
    let abi = ABI::V6;
    let read = AccessFs::from_read(abi);
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(AccessFs::from_all(abi))?
        .handle_access(AccessNet::from_all(abi))?
        .scope(Scope::from_all(abi))?
        .create()?;
    for path in &policy.read {
        if let Ok(fd) = PathFd::new(path) {
            let access = if path.is_dir() {
                read
            } else {
                read & AccessFs::from_file(abi)
            };
            ruleset = ruleset.add_rule(PathBeneath::new(fd, access))?;
        }
    }
    for path in &policy.list {
        if let Ok(fd) = PathFd::new(path) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::ReadDir))?;
        }
    }
    for dev in ["/dev/null", "/dev/zero", "/dev/urandom", "/dev/random"] {
        if let Ok(fd) = PathFd::new(dev) {
            ruleset = ruleset.add_rule(PathBeneath::new(
                fd,
                AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
            ))?;
        }
    }
    for path in std::iter::once(&policy.scratch)
        .chain(&policy.write)
        .chain(private)
    {
        if let Ok(fd) = PathFd::new(path) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::from_all(abi)))?;
        }
    }
    // No TCP rule at all: every bind and connect is denied.
    Ok((ruleset, "filesystem, tcp, signal scope".into()))
}
