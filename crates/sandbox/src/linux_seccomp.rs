//! The seccomp filter every confined command runs under. It closes the holes
//! Landlock cannot see: pushing keystrokes into a terminal (`TIOCSTI`,
//! `TIOCLINUX`, which could answer wright's next approval prompt), creating
//! device nodes, io_uring (whose operations bypass seccomp), and, with the
//! network off, every socket family but Unix sockets (no IP, no netlink, no
//! raw packets). Where the kernel gave no namespaces, it also refuses SysV
//! IPC (no IPC namespace keeps the host's objects away). With the network
//! off and no Landlock Unix-socket right it refuses new Unix sockets:
//! without namespaces nothing would keep `/var/run/docker.sock` away, and
//! with them the mount namespace hides only the sockets that exist when
//! the command starts, not one a host process makes in `/tmp` a moment
//! later. `socketpair` stays, for pipes between a command's own processes;
//! a user's `[sandbox] allow_sockets` list (honoured where namespaces are)
//! lets Unix sockets be made again.

use std::collections::BTreeMap;

use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use crate::SandboxError;

/// The x32 ABI reaches the same syscalls under numbers with this bit set.
#[cfg(target_arch = "x86_64")]
const X32_BIT: i64 = 0x4000_0000;

/// x32's own number for `ioctl` (it is not `SYS_ioctl | X32_BIT`).
#[cfg(target_arch = "x86_64")]
const X32_IOCTL: i64 = X32_BIT + 514;

fn sc(e: seccompiler::BackendError) -> SandboxError {
    SandboxError::Seccomp(e.to_string())
}

fn cond(arg: u8, op: SeccompCmpOp, value: u64) -> Result<SeccompCondition, SandboxError> {
    SeccompCondition::new(arg, SeccompCmpArgLen::Dword, op, value).map_err(sc)
}

fn rule(conditions: Vec<SeccompCondition>) -> Result<SeccompRule, SandboxError> {
    SeccompRule::new(conditions).map_err(sc)
}

/// Refused when the `mode` argument (`arg`) creates a character or block
/// device; FIFOs and sockets (`mkfifo`) stay allowed.
fn device_node_rules(arg: u8) -> Result<Vec<SeccompRule>, SandboxError> {
    let mask = SeccompCmpOp::MaskedEq(u64::from(libc::S_IFMT));
    Ok(vec![
        rule(vec![cond(arg, mask.clone(), u64::from(libc::S_IFCHR))?])?,
        rule(vec![cond(arg, mask, u64::from(libc::S_IFBLK))?])?,
    ])
}

fn terminal_injection_rules() -> Result<Vec<SeccompRule>, SandboxError> {
    // The request number fits in 32 bits; comparing the low word also
    // catches callers that set garbage in the high one.
    Ok(vec![
        rule(vec![cond(1, SeccompCmpOp::Eq, libc::TIOCSTI)?])?,
        rule(vec![cond(1, SeccompCmpOp::Eq, libc::TIOCLINUX)?])?,
    ])
}

/// What the filter refuses on top of the base set, where nothing else
/// confines it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Extra {
    /// SysV message queues, semaphores and shared memory.
    pub(crate) sysv_ipc: bool,
    /// Unix sockets other than `socketpair`'s connected stream ones.
    pub(crate) unix_sockets: bool,
}

/// The SysV IPC calls: a guessed id (they are small and `ipcs` lists
/// them) is enough for all but the `*get` ones, so every one is refused.
const SYSV_IPC: &[i64] = &[
    libc::SYS_msgget,
    libc::SYS_msgsnd,
    libc::SYS_msgrcv,
    libc::SYS_msgctl,
    libc::SYS_semget,
    libc::SYS_semop,
    libc::SYS_semtimedop,
    libc::SYS_semctl,
    libc::SYS_shmget,
    libc::SYS_shmat,
    libc::SYS_shmctl,
];

/// Builds the filter: `network` keeps every socket family; `extra` says
/// what else to refuse.
pub(crate) fn filter(network: bool, extra: Extra) -> Result<BpfProgram, SandboxError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_ioctl, terminal_injection_rules()?);
    rules.insert(libc::SYS_mknodat, device_node_rules(2)?);
    #[cfg(target_arch = "x86_64")]
    rules.insert(libc::SYS_mknod, device_node_rules(1)?);
    // An empty rule list refuses the syscall outright.
    rules.insert(libc::SYS_io_uring_setup, Vec::new());
    if extra.unix_sockets {
        rules.insert(libc::SYS_socket, Vec::new());
        // A datagram socketpair can still `sendto` any socket's path.
        let dgram = SeccompCmpOp::MaskedEq(0xf);
        let dgram = cond(1, dgram, libc::SOCK_DGRAM.unsigned_abs().into())?;
        rules.insert(libc::SYS_socketpair, vec![rule(vec![dgram])?]);
    } else if !network {
        let not_unix = cond(0, SeccompCmpOp::Ne, libc::AF_UNIX.unsigned_abs().into())?;
        rules.insert(libc::SYS_socket, vec![rule(vec![not_unix])?]);
    }
    if extra.sysv_ipc {
        for nr in SYSV_IPC {
            rules.insert(*nr, Vec::new());
        }
    }
    #[cfg(target_arch = "x86_64")]
    {
        let x32: Vec<(i64, Vec<SeccompRule>)> = rules
            .iter()
            .map(|(nr, r)| (nr | X32_BIT, r.clone()))
            .collect();
        rules.extend(x32);
        rules.insert(X32_IOCTL, terminal_injection_rules()?);
    }
    let arch = TargetArch::try_from(std::env::consts::ARCH)
        .map_err(|e| SandboxError::Unsupported(format!("seccomp: {e}")))?;
    let filter = SeccompFilter::new(
        rules,
        SeccompAction::Allow,
        SeccompAction::Errno(libc::EPERM.unsigned_abs()),
        arch,
    )
    .map_err(sc)?;
    BpfProgram::try_from(filter).map_err(sc)
}

/// Loads the filter for the calling thread (and what it `exec`s).
pub(crate) fn apply(network: bool, extra: Extra) -> Result<(), SandboxError> {
    let program = filter(network, extra)?;
    // Sets no_new_privs itself, then loads the filter.
    seccompiler::apply_filter(&program).map_err(|e| SandboxError::Seccomp(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_compile_with_and_without_network() {
        let off = filter(false, Extra::default()).unwrap();
        let on = filter(true, Extra::default()).unwrap();
        assert!(!off.is_empty());
        // The socket rule is only there with the network off.
        assert!(off.len() > on.len());
        let all = Extra {
            sysv_ipc: true,
            unix_sockets: true,
        };
        assert!(filter(false, all).unwrap().len() > off.len());
    }
}
