//! Linux enforcement: a Landlock ruleset (read and execute everywhere, write
//! only beneath the writable roots and a few device files) and, with network
//! off, a seccomp filter that refuses IP sockets. Both are applied to the
//! calling thread only, which is why this runs in the single-threaded helper
//! just before `exec`.

use std::collections::BTreeMap;

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, make_bitflags, path_beneath_rules,
};
use seccompiler::{
    BpfProgram, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule, TargetArch,
};

use crate::policy::DEVICE_PATHS;
use crate::{SandboxError, SandboxMode, SandboxPolicy, Support};

/// The newest Landlock ABI this crate version knows; older kernels get the
/// subset they support (best effort), but never nothing.
const ABI_WANTED: ABI = ABI::V9;

/// Rights the ruleset restricts. Device ioctls and connecting to Unix
/// sockets stay unrestricted: terminals, `ssh-agent`, Docker and D-Bus must
/// keep working, and neither writes a file.
fn handled_access() -> BitFlags<AccessFs> {
    AccessFs::from_all(ABI_WANTED) & !make_bitflags!(AccessFs::{IoctlDev | ResolveUnix})
}

/// Applies `policy` to the calling thread (and so to what it `exec`s).
pub(crate) fn apply(policy: &SandboxPolicy) -> Result<(), SandboxError> {
    if policy.mode == SandboxMode::Full {
        return Ok(());
    }
    apply_landlock(policy)?;
    if !policy.network {
        apply_network_filter()?;
    }
    Ok(())
}

fn apply_landlock(policy: &SandboxPolicy) -> Result<(), SandboxError> {
    let ll = |e: landlock::RulesetError| SandboxError::Landlock(e.to_string());
    let all = handled_access();
    let read = AccessFs::from_read(ABI_WANTED);
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(ll)?
        .create()
        .map_err(ll)?
        .add_rules(path_beneath_rules(["/"], read))
        .map_err(ll)?
        .add_rules(path_beneath_rules(DEVICE_PATHS, all))
        .map_err(ll)?
        .add_rules(path_beneath_rules(policy.effective_writable_roots(), all))
        .map_err(ll)?
        .restrict_self()
        .map_err(ll)?;
    if status.ruleset == RulesetStatus::NotEnforced {
        return Err(SandboxError::Unsupported(
            "Landlock is not enabled in this kernel (needs Linux 5.13+ with `landlock` in the \
             lsm= boot parameter)"
                .to_owned(),
        ));
    }
    if !status.no_new_privs {
        return Err(SandboxError::Landlock(
            "could not set no_new_privs".to_owned(),
        ));
    }
    Ok(())
}

/// Socket families a command may still create with network off: Unix sockets
/// for local tools, netlink because glibc's resolver asks it which address
/// families exist (it cannot reach another host).
const ALLOWED_FAMILIES: [i32; 2] = [libc::AF_UNIX, libc::AF_NETLINK];

fn network_filter() -> Result<BpfProgram, SandboxError> {
    let sc = |e: seccompiler::BackendError| SandboxError::Seccomp(e.to_string());
    let conditions = ALLOWED_FAMILIES
        .iter()
        .map(|&family| {
            SeccompCondition::new(
                0,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::Ne,
                u64::from(family.unsigned_abs()),
            )
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(sc)?;
    let mut rules: BTreeMap<i64, Vec<SeccompRule>> = BTreeMap::new();
    rules.insert(
        libc::SYS_socket,
        vec![SeccompRule::new(conditions).map_err(sc)?],
    );
    // io_uring can create and connect sockets without the socket syscall.
    rules.insert(libc::SYS_io_uring_setup, Vec::new());
    #[cfg(target_arch = "x86_64")]
    {
        // The x32 ABI reaches the same syscall under another number.
        const X32_BIT: i64 = 0x4000_0000;
        rules.insert(libc::SYS_socket | X32_BIT, Vec::new());
        rules.insert(libc::SYS_io_uring_setup | X32_BIT, Vec::new());
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

fn apply_network_filter() -> Result<(), SandboxError> {
    let program = network_filter()?;
    // Sets no_new_privs itself, then loads the filter for this thread.
    seccompiler::apply_filter(&program).map_err(|e| SandboxError::Seccomp(e.to_string()))
}

/// Creates (and drops) a Landlock ruleset and builds the seccomp filter,
/// which restricts nothing but fails where the kernel lacks support.
pub(crate) fn probe() -> Support {
    let created = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(AccessFs::from_all(ABI::V1))
        .and_then(|r| r.create());
    if let Err(e) = created {
        return Support::Unavailable(format!(
            "Landlock is unavailable ({e}); it needs Linux 5.13+ with `landlock` in the lsm= \
             boot parameter"
        ));
    }
    if let Err(e) = network_filter() {
        return Support::Unavailable(e.to_string());
    }
    match std::fs::read_to_string("/proc/self/status") {
        Ok(s) if !s.lines().any(|l| l.starts_with("Seccomp:")) => {
            Support::Unavailable("this kernel was built without seccomp".to_owned())
        }
        _ => Support::Available,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn network_filter_compiles() {
        let prog = network_filter().unwrap();
        assert!(!prog.is_empty());
    }

    #[test]
    fn handled_access_keeps_writes_but_not_ioctls() {
        let h = handled_access();
        assert!(h.contains(AccessFs::WriteFile));
        assert!(h.contains(AccessFs::MakeReg));
        assert!(!h.contains(AccessFs::IoctlDev));
        assert!(!h.contains(AccessFs::ResolveUnix));
    }
}
