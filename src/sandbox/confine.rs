//! What the program's own process does to itself before it execs the
//! program: mounts (a fresh /proc, the scratch tmpfs, inaccessible folders
//! covered), rlimits, the dropped uid, and Landlock.

use super::{Layers, Policy};
use crate::os::{self, Resource};
use landlock::{
    ABI, Access, AccessFs, AccessNet, CompatLevel, Compatible, PathBeneath, PathFd, Ruleset,
    RulesetAttr, RulesetCreatedAttr, RulesetStatus, Scope,
};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// In the new mount namespace: private mounts, a fresh /proc, the scratch
/// tmpfs, and the read paths made reachable for an unprivileged uid.
pub(super) fn prepare_mounts(
    policy: &Policy,
    layers: &Layers,
    drop_to: Option<u32>,
) -> std::io::Result<()> {
    os::make_mounts_private()?;
    if layers.pid_namespace {
        os::mount_fs(
            "proc",
            Path::new("/proc"),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            "",
        )?;
    }
    let owner = drop_to.unwrap_or(0);
    os::mount_fs(
        "tmpfs",
        &policy.scratch,
        libc::MS_NOSUID | libc::MS_NODEV,
        &format!(
            "size={},mode=0700,uid={owner},gid={owner}",
            policy.limits.scratch_bytes
        ),
    )?;
    if drop_to.is_some() {
        let mut all: Vec<(PathBuf, bool)> = policy
            .read
            .iter()
            .chain(&policy.list)
            .map(|p| (p.clone(), false))
            .collect();
        all.extend(policy.write.iter().map(|p| (p.clone(), true)));
        reveal_paths(&all)?;
    }
    Ok(())
}

/// A path below a folder that others may not traverse (a pyenv Python
/// under /root) is unreachable once root is dropped. Cover each such folder
/// with an empty tmpfs (which also hides the rest of it, the grader's home
/// say) and bind the paths back into it, read-only unless `writable`.
fn reveal_paths(paths: &[(PathBuf, bool)]) -> std::io::Result<()> {
    /// A covered folder and the paths to bind back into it.
    type Cover = (PathBuf, Vec<(PathBuf, bool, std::fs::File)>);
    let mut covered: Vec<Cover> = Vec::new();
    for (path, writable) in paths {
        // A path inside another one is reachable through that one's bind.
        if paths
            .iter()
            .any(|(other, _)| other != path && path.starts_with(other))
        {
            continue;
        }
        let Some(blocker) = path
            .ancestors()
            .skip(1)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .find(|a| std::fs::metadata(a).is_ok_and(|m| m.is_dir() && m.mode() & 0o001 == 0))
        else {
            continue;
        };
        let handle = std::fs::File::open(path)?;
        let entry = (path.clone(), *writable, handle);
        match covered.iter_mut().find(|(b, _)| b == blocker) {
            Some((_, paths)) => paths.push(entry),
            None => covered.push((blocker.to_owned(), vec![entry])),
        }
    }
    for (blocker, paths) in covered {
        os::mount_fs(
            "tmpfs",
            &blocker,
            libc::MS_NOSUID | libc::MS_NODEV,
            "mode=0755,size=1m",
        )?;
        for (path, writable, handle) in paths {
            use std::os::fd::AsRawFd;
            if handle.metadata()?.is_dir() {
                std::fs::create_dir_all(&path)?;
            } else {
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent)?;
                }
                std::fs::write(&path, b"")?;
            }
            let source = PathBuf::from(format!("/proc/self/fd/{}", handle.as_raw_fd()));
            os::bind_mount(&source, &path, !writable)?;
        }
    }
    Ok(())
}

/// In the program's own process: limits, Landlock, and the uid drop.
pub(super) fn confine(
    policy: &Policy,
    layers: &mut Layers,
    drop_to: Option<u32>,
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
        match landlock_ruleset(policy) {
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
        ] {
            if !held && !layers.missing.iter().any(|m| m.starts_with("namespaces")) {
                layers.missing.push(name.into());
            }
        }
    }
    Ok(())
}

fn landlock_ruleset(
    policy: &Policy,
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
    for path in std::iter::once(&policy.scratch).chain(&policy.write) {
        if let Ok(fd) = PathFd::new(path) {
            ruleset = ruleset.add_rule(PathBeneath::new(fd, AccessFs::from_all(abi)))?;
        }
    }
    // No TCP rule at all: every bind and connect is denied.
    Ok((ruleset, "filesystem, tcp, signal scope".into()))
}
