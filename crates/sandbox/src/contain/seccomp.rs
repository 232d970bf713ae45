//! The seccomp filter: the system calls a challenge never needs and that
//! would open a channel out of the sandbox or keep state past it, refused
//! with an error the program can handle (it is not killed).
//!
//! - `socket` for every family but IPv4 and IPv6 (which the network
//!   namespace and Landlock already leave with nowhere to go): no pathname
//!   or abstract UNIX socket to a host daemon, no AF_VSOCK to the
//!   hypervisor, no AF_NETLINK, AF_PACKET or any other family;
//!   `socketpair` for UNIX pairs only (a connected pair reaches no one);
//! - the keyrings (`add_key`, `keyctl`, `request_key`): a uid's user keyring
//!   is shared by every process of that uid and outlives the session;
//! - io_uring, whose operations (sockets, connects, opens) are not system
//!   calls this filter would see;
//! - `bpf`, `perf_event_open` and `userfaultfd`: kernel attack surface and
//!   side channels, needed by no submission;
//! - new namespaces (`unshare`, `clone` with a `CLONE_NEW*` flag, `setns`):
//!   a user namespace of its own would give the program capabilities over
//!   whatever it creates inside, more kernel surface for nothing the
//!   challenge needs; `clone3`, whose flags sit in memory the filter cannot
//!   read, answers ENOSYS, and the C library falls back to `clone`;
//! - evicting pages of the page cache, or asking what it holds: every
//!   session may read the interpreter's files, and a page a hidden session
//!   evicts would be read by a later visible one as a bit (`fadvise64`,
//!   `readahead`, `cachestat`, `process_madvise`, and `madvise` with the
//!   cold and page-out advice, which evict a file's pages no one else
//!   maps); the pages it brings in go with its cgroup (the `phase`
//!   module);
//! - any system call of another ABI (32-bit calls through `int 0x80`, x32),
//!   whose numbers, and `socketcall`, this filter does not know.
//!
//! The program is classic BPF over `struct seccomp_data` (number, arch,
//! instruction pointer, six arguments), built here as plain data and
//! unit-tested by running it on sample calls.

/// What the filter refuses, in words, for the report's `sandbox` record.
pub const DESCRIPTION: &str = "sockets but IPv4, IPv6 and UNIX pairs; keyrings; io_uring; \
     bpf, perf events and userfaultfd; new namespaces; page cache eviction; other syscall ABIs";

const LD_W_ABS: u16 = 0x20; // BPF_LD | BPF_W | BPF_ABS
const JEQ_K: u16 = 0x15; // BPF_JMP | BPF_JEQ | BPF_K
const JGE_K: u16 = 0x35; // BPF_JMP | BPF_JGE | BPF_K
const JSET_K: u16 = 0x45; // BPF_JMP | BPF_JSET | BPF_K
const RET_K: u16 = 0x06; // BPF_RET | BPF_K

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;

/// Offsets in `struct seccomp_data`.
const NR: u32 = 0;
const ARCH: u32 = 4;
/// The low 32 bits of the third argument (`madvise`'s advice, an `int`).
const ARG2: u32 = ARG0 + 16;
/// `cachestat(2)` (Linux 6.5), numbered alike on x86-64 and AArch64.
const SYS_CACHESTAT: libc::c_long = 451;
/// `madvise`'s advice that evicts a file's pages: `MADV_COLD`,
/// `MADV_PAGEOUT`.
const EVICTING_ADVICE: [u32; 2] = [20, 21];
/// The low 32 bits of the first argument (an `int`: the kernel reads no
/// more of it).
const ARG0: u32 = if cfg!(target_endian = "little") {
    16
} else {
    20
};

#[cfg(target_arch = "x86_64")]
const NATIVE_ARCH: Option<u32> = Some(0xc000_003e); // AUDIT_ARCH_X86_64
#[cfg(target_arch = "aarch64")]
const NATIVE_ARCH: Option<u32> = Some(0xc000_00b7); // AUDIT_ARCH_AARCH64
#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
const NATIVE_ARCH: Option<u32> = None;

/// x32 calls share x86_64's arch value and set this bit in the number.
const X32_BIT: u32 = 0x4000_0000;

fn op(code: u16, k: u32) -> libc::sock_filter {
    jump(code, k, 0, 0)
}

fn jump(code: u16, k: u32, jt: u8, jf: u8) -> libc::sock_filter {
    libc::sock_filter { code, jt, jf, k }
}

fn errno(e: i32) -> libc::sock_filter {
    op(RET_K, RET_ERRNO | (e as u32 & 0xffff))
}

/// `if nr == call { block }`, where `block` ends in a return.
fn on_call(program: &mut Vec<libc::sock_filter>, call: libc::c_long, block: &[libc::sock_filter]) {
    let skip = u8::try_from(block.len()).expect("a short block");
    program.push(jump(JEQ_K, call as u32, 0, skip));
    program.extend_from_slice(block);
}

/// Allow the call when its first argument is one of `values`, else fail
/// with `e`. Every path of the block returns, so the call number it
/// overwrites in the accumulator is not needed again.
fn first_argument_in(values: &[i32], e: i32) -> Vec<libc::sock_filter> {
    let mut block = vec![op(LD_W_ABS, ARG0)];
    let m = values.len();
    for (i, v) in values.iter().enumerate() {
        // On a match, jump over the rest of the comparisons and the
        // refusal, onto the allow.
        block.push(jump(JEQ_K, *v as u32, (m - i) as u8, 0));
    }
    block.push(errno(e));
    block.push(op(RET_K, RET_ALLOW));
    block
}

/// Every `CLONE_NEW*` flag: namespaces (and `CLONE_NEWTIME`).
const NEW_NAMESPACES: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32
    | 0x80; // CLONE_NEWTIME

/// Fail with `e` when the first argument has any bit of `mask`, else
/// allow. Every path returns.
fn first_argument_without(mask: u32, e: i32) -> Vec<libc::sock_filter> {
    vec![
        op(LD_W_ABS, ARG0),
        jump(JSET_K, mask, 0, 1),
        errno(e),
        op(RET_K, RET_ALLOW),
    ]
}

/// The filter for this architecture, or `None` where it is not built.
pub fn program() -> Option<Vec<libc::sock_filter>> {
    let arch = NATIVE_ARCH?;
    let mut p = vec![
        op(LD_W_ABS, ARCH),
        jump(JEQ_K, arch, 1, 0),
        errno(libc::ENOSYS),
        op(LD_W_ABS, NR),
    ];
    if cfg!(target_arch = "x86_64") {
        p.push(jump(JGE_K, X32_BIT, 0, 1));
        p.push(errno(libc::ENOSYS));
    }
    on_call(
        &mut p,
        libc::SYS_socket,
        &first_argument_in(&[libc::AF_INET, libc::AF_INET6], libc::EAFNOSUPPORT),
    );
    on_call(
        &mut p,
        libc::SYS_socketpair,
        &first_argument_in(&[libc::AF_UNIX], libc::EAFNOSUPPORT),
    );
    // Both take their flags first (on x86-64 and AArch64 alike).
    for call in [libc::SYS_clone, libc::SYS_unshare] {
        on_call(
            &mut p,
            call,
            &first_argument_without(NEW_NAMESPACES, libc::EPERM),
        );
    }
    let refused = [
        (libc::SYS_clone3, libc::ENOSYS),
        (libc::SYS_setns, libc::EPERM),
        (libc::SYS_add_key, libc::ENOSYS),
        (libc::SYS_keyctl, libc::ENOSYS),
        (libc::SYS_request_key, libc::ENOSYS),
        (libc::SYS_io_uring_setup, libc::ENOSYS),
        (libc::SYS_io_uring_enter, libc::ENOSYS),
        (libc::SYS_io_uring_register, libc::ENOSYS),
        (libc::SYS_bpf, libc::EPERM),
        (libc::SYS_perf_event_open, libc::EPERM),
        (libc::SYS_userfaultfd, libc::EPERM),
        (libc::SYS_fadvise64, libc::EPERM),
        (libc::SYS_readahead, libc::EPERM),
        (SYS_CACHESTAT, libc::ENOSYS),
        (libc::SYS_process_madvise, libc::EPERM),
    ];
    for (call, e) in refused {
        on_call(&mut p, call, &[errno(e)]);
    }
    // `madvise` with an evicting advice fails as a kernel without it would.
    let mut advice = vec![op(LD_W_ABS, ARG2)];
    let n = EVICTING_ADVICE.len();
    for (i, a) in EVICTING_ADVICE.iter().enumerate() {
        advice.push(jump(JEQ_K, *a, (n - i) as u8, 0));
    }
    advice.push(op(RET_K, RET_ALLOW));
    advice.push(errno(libc::EINVAL));
    on_call(&mut p, libc::SYS_madvise, &advice);
    p.push(op(RET_K, RET_ALLOW));
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs `program` on one call as the kernel would, returning its
    /// action: only the instructions the filter uses are known.
    fn run(program: &[libc::sock_filter], arch: u32, nr: u32, arg0: u32) -> u32 {
        run_with(program, arch, nr, [(ARG0, arg0)])
    }

    /// [`run`], with the given words of the call's data set.
    fn run_with<const N: usize>(
        program: &[libc::sock_filter],
        arch: u32,
        nr: u32,
        words: [(u32, u32); N],
    ) -> u32 {
        let mut data = [0u8; 64];
        data[0..4].copy_from_slice(&nr.to_ne_bytes());
        data[4..8].copy_from_slice(&arch.to_ne_bytes());
        for (at, word) in words {
            data[at as usize..at as usize + 4].copy_from_slice(&word.to_ne_bytes());
        }
        let mut acc = 0u32;
        let mut pc = 0usize;
        loop {
            let i = program[pc];
            pc += 1;
            match i.code {
                LD_W_ABS => {
                    let at = i.k as usize;
                    acc = u32::from_ne_bytes(data[at..at + 4].try_into().unwrap());
                }
                JEQ_K | JGE_K | JSET_K => {
                    let taken = match i.code {
                        JEQ_K => acc == i.k,
                        JGE_K => acc >= i.k,
                        _ => acc & i.k != 0,
                    };
                    pc += usize::from(if taken { i.jt } else { i.jf });
                }
                RET_K => return i.k,
                other => panic!("unknown instruction {other:#x}"),
            }
        }
    }

    fn refused_with(e: i32) -> u32 {
        RET_ERRNO | e as u32
    }

    #[test]
    fn the_filter_refuses_what_would_evict_the_page_cache_and_nothing_else() {
        let Some(p) = program() else { return };
        let arch = NATIVE_ARCH.unwrap();
        let madvise = |advice: i32| {
            run_with(
                &p,
                arch,
                libc::SYS_madvise as u32,
                [(ARG0, 0x1000), (ARG2, advice as u32)],
            )
        };
        assert_eq!(madvise(libc::MADV_COLD), refused_with(libc::EINVAL));
        assert_eq!(madvise(libc::MADV_PAGEOUT), refused_with(libc::EINVAL));
        // What allocators and runtimes use stays allowed.
        for advice in [
            libc::MADV_DONTNEED,
            libc::MADV_FREE,
            libc::MADV_WILLNEED,
            libc::MADV_HUGEPAGE,
            libc::MADV_DONTFORK,
        ] {
            assert_eq!(madvise(advice), RET_ALLOW, "{advice}");
        }
        let call = |nr: libc::c_long| run(&p, arch, nr as u32, 3);
        assert_eq!(call(libc::SYS_fadvise64), refused_with(libc::EPERM));
        assert_eq!(call(libc::SYS_readahead), refused_with(libc::EPERM));
        assert_eq!(call(SYS_CACHESTAT), refused_with(libc::ENOSYS));
        assert_eq!(call(libc::SYS_process_madvise), refused_with(libc::EPERM));
        assert_eq!(call(libc::SYS_pread64), RET_ALLOW);
    }

    #[test]
    fn the_filter_refuses_exactly_its_calls() {
        let Some(p) = program() else { return };
        let arch = NATIVE_ARCH.unwrap();
        let call = |nr: libc::c_long, arg0: i32| run(&p, arch, nr as u32, arg0 as u32);
        assert_eq!(call(libc::SYS_socket, libc::AF_INET), RET_ALLOW);
        assert_eq!(call(libc::SYS_socket, libc::AF_INET6), RET_ALLOW);
        for family in [
            libc::AF_UNIX,
            libc::AF_VSOCK,
            libc::AF_NETLINK,
            libc::AF_PACKET,
            libc::AF_ALG,
            libc::AF_BLUETOOTH,
        ] {
            assert_eq!(
                call(libc::SYS_socket, family),
                refused_with(libc::EAFNOSUPPORT),
                "family {family}"
            );
        }
        assert_eq!(call(libc::SYS_socketpair, libc::AF_UNIX), RET_ALLOW);
        assert_eq!(
            call(libc::SYS_socketpair, libc::AF_INET),
            refused_with(libc::EAFNOSUPPORT)
        );
        assert_eq!(call(libc::SYS_keyctl, 0), refused_with(libc::ENOSYS));
        assert_eq!(call(libc::SYS_add_key, 0), refused_with(libc::ENOSYS));
        assert_eq!(call(libc::SYS_request_key, 0), refused_with(libc::ENOSYS));
        assert_eq!(
            call(libc::SYS_io_uring_setup, 0),
            refused_with(libc::ENOSYS)
        );
        assert_eq!(call(libc::SYS_bpf, 0), refused_with(libc::EPERM));
        assert_eq!(call(libc::SYS_userfaultfd, 0), refused_with(libc::EPERM));
        // Threads and processes, but no namespace.
        let thread = libc::CLONE_VM | libc::CLONE_FS | libc::CLONE_FILES | libc::CLONE_THREAD;
        assert_eq!(call(libc::SYS_clone, thread), RET_ALLOW);
        assert_eq!(call(libc::SYS_clone, libc::SIGCHLD), RET_ALLOW);
        for flag in [libc::CLONE_NEWUSER, libc::CLONE_NEWNS, libc::CLONE_NEWNET] {
            assert_eq!(
                call(libc::SYS_clone, libc::SIGCHLD | flag),
                refused_with(libc::EPERM)
            );
            assert_eq!(call(libc::SYS_unshare, flag), refused_with(libc::EPERM));
        }
        assert_eq!(call(libc::SYS_unshare, libc::CLONE_FILES), RET_ALLOW);
        assert_eq!(call(libc::SYS_clone3, 0), refused_with(libc::ENOSYS));
        assert_eq!(call(libc::SYS_setns, 0), refused_with(libc::EPERM));
        // What a program needs goes through, whatever its first argument.
        for nr in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_mmap,
            libc::SYS_execve,
            libc::SYS_connect,
        ] {
            assert_eq!(call(nr, libc::AF_UNIX), RET_ALLOW, "call {nr}");
        }
        // Another ABI's numbers mean other calls: all refused.
        assert_eq!(
            run(&p, 0x4000_0003, libc::SYS_read as u32, 0),
            refused_with(libc::ENOSYS)
        );
        if cfg!(target_arch = "x86_64") {
            assert_eq!(
                run(
                    &p,
                    arch,
                    X32_BIT | libc::SYS_socket as u32,
                    libc::AF_UNIX as u32
                ),
                refused_with(libc::ENOSYS)
            );
        }
    }
}
