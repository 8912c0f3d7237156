//! The seccomp filter every confined command runs under. It closes the holes
//! Landlock cannot see: pushing keystrokes into a terminal (`TIOCSTI`,
//! `TIOCLINUX`, which could answer wright's next approval prompt), creating
//! device nodes, io_uring (whose operations bypass seccomp), and, with the
//! network off, every socket family but Unix sockets (no IP, no netlink, no
//! raw packets).

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

/// Builds the filter: `network` keeps every socket family.
pub(crate) fn filter(network: bool) -> Result<BpfProgram, SandboxError> {
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(libc::SYS_ioctl, terminal_injection_rules()?);
    rules.insert(libc::SYS_mknodat, device_node_rules(2)?);
    #[cfg(target_arch = "x86_64")]
    rules.insert(libc::SYS_mknod, device_node_rules(1)?);
    // An empty rule list refuses the syscall outright.
    rules.insert(libc::SYS_io_uring_setup, Vec::new());
    if !network {
        let not_unix = cond(0, SeccompCmpOp::Ne, libc::AF_UNIX.unsigned_abs().into())?;
        rules.insert(libc::SYS_socket, vec![rule(vec![not_unix])?]);
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
pub(crate) fn apply(network: bool) -> Result<(), SandboxError> {
    let program = filter(network)?;
    // Sets no_new_privs itself, then loads the filter.
    seccompiler::apply_filter(&program).map_err(|e| SandboxError::Seccomp(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filters_compile_with_and_without_network() {
        let off = filter(false).unwrap();
        let on = filter(true).unwrap();
        assert!(!off.is_empty());
        // The socket rule is only there with the network off.
        assert!(off.len() > on.len());
    }
}
