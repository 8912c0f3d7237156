//! Linux enforcement, in order: namespaces where the kernel allows them
//! ([`crate::linux_ns`]), a Landlock ruleset (read and execute everywhere,
//! write only beneath the writable roots and a few device files), and the
//! seccomp filter ([`crate::linux_seccomp`]). Landlock and seccomp apply to
//! the calling thread only, which is why this runs in the single-threaded
//! helper just before `exec`.

use landlock::{
    ABI, Access, AccessFs, BitFlags, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, Scope, make_bitflags, path_beneath_rules,
};

use crate::policy::DEVICE_PATHS;
use crate::{Applied, SandboxError, SandboxMode, SandboxPolicy, Support};

/// The newest Landlock ABI this crate version knows; older kernels get the
/// subset they support (best effort), but never nothing.
const ABI_WANTED: ABI = ABI::V9;

/// Rights the ruleset restricts. Device ioctls stay unrestricted (terminals
/// must keep working, and they write no file). Connecting to Unix sockets is
/// restricted with the network off, to sockets inside the workspace and
/// configured roots, not the temp dirs (any host process may put a socket
/// in `/tmp` while the command runs): outside them a socket is a door to a
/// host service, and `/var/run/docker.sock` is a full escape. With the
/// network on, Unix sockets are as open as IP ones.
fn handled_access(network: bool) -> BitFlags<AccessFs> {
    let mut unhandled = make_bitflags!(AccessFs::{IoctlDev});
    if network {
        unhandled |= AccessFs::ResolveUnix;
    }
    AccessFs::from_all(ABI_WANTED) & !unhandled
}

/// Confines the calling process for `policy`: namespaces where the kernel
/// allows them (see [`crate::linux_ns`]), then Landlock and seccomp. Returns
/// in the process that is to `exec` the command.
pub(crate) fn apply(policy: &SandboxPolicy) -> Result<Applied, SandboxError> {
    let mut applied = Applied::default();
    if policy.mode == SandboxMode::Full {
        return Ok(applied);
    }
    applied.namespaces = match crate::linux_ns::enter(policy)? {
        crate::linux_ns::Entered::Inside(report) => Some(report),
        crate::linux_ns::Entered::Unavailable => None,
    };
    let unix_confined = apply_landlock(policy)?;
    applied.landlock = true;
    let extra = crate::linux_seccomp::Extra {
        // Without an IPC namespace the host's SysV objects are the
        // command's to read, write and remove.
        sysv_ipc: applied.namespaces.is_none(),
        // Before Landlock ABI 9 nothing confines `connect`: the mount
        // namespace hides only the sockets that exist when the command
        // starts, and one a host process makes in `/tmp`, HOME or the
        // runtime dir a moment later would be reachable. So with the
        // network off no new Unix socket at all, unless the user reopened
        // sockets (`[sandbox] allow_sockets`, which the namespace keeps
        // visible): that opt-in accepts sockets made after the start.
        unix_sockets: !policy.network
            && !unix_confined
            && (applied.namespaces.is_none() || policy.allow_sockets.is_empty()),
    };
    crate::linux_seccomp::apply(policy.network, extra)?;
    applied.seccomp = true;
    Ok(applied)
}

/// Applies the ruleset; true when the kernel confines connecting to Unix
/// sockets with it (ABI 9).
fn apply_landlock(policy: &SandboxPolicy) -> Result<bool, SandboxError> {
    let ll = |e: landlock::RulesetError| SandboxError::Landlock(e.to_string());
    let all = handled_access(policy.network);
    let read = AccessFs::from_read(ABI_WANTED);
    let status = Ruleset::default()
        .set_compatibility(CompatLevel::BestEffort)
        .handle_access(all)
        .map_err(ll)?
        // No signals to processes outside the sandbox: a command cannot stop
        // or kill wright; with the network off, no abstract Unix socket
        // outside either (they reach host services like any socket would).
        // Kernels before 6.12 ignore this (best effort).
        .scope(if policy.network {
            BitFlags::from(Scope::Signal)
        } else {
            Scope::Signal | Scope::AbstractUnixSocket
        })
        .map_err(ll)?
        .create()
        .map_err(ll)?
        .add_rules(path_beneath_rules(["/"], read))
        .map_err(ll)?
        .add_rules(path_beneath_rules(DEVICE_PATHS, all))
        .map_err(ll)?
        // The temp dirs are writable, but a socket there may be a host
        // process's: no `connect` beneath them.
        .add_rules(path_beneath_rules(
            policy.effective_writable_roots(),
            all & !AccessFs::ResolveUnix,
        ))
        .map_err(ll)?
        .add_rules(path_beneath_rules(
            if policy.mode == SandboxMode::WorkspaceWrite {
                &policy.writable_roots[..]
            } else {
                &[][..]
            },
            all,
        ))
        .map_err(ll)?
        // The sockets the user reopened (`[sandbox] allow_sockets`), when
        // connecting is handled at all (network off); ones that do not
        // exist are skipped.
        .add_rules(path_beneath_rules(
            if policy.network {
                &[][..]
            } else {
                &policy.allow_sockets[..]
            },
            BitFlags::from(AccessFs::ResolveUnix),
        ))
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
    let abi = ABI::from(status.landlock);
    Ok(abi >= ABI::V9)
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
    if let Err(e) = crate::linux_seccomp::filter(false, crate::linux_seccomp::Extra::default()) {
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
    fn handled_access_keeps_writes_but_not_ioctls() {
        assert!(handled_access(false).contains(AccessFs::ResolveUnix));
        let h = handled_access(true);
        assert!(h.contains(AccessFs::WriteFile));
        assert!(h.contains(AccessFs::MakeReg));
        assert!(!h.contains(AccessFs::IoctlDev));
        assert!(!h.contains(AccessFs::ResolveUnix));
    }
}
