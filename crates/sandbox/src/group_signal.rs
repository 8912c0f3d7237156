//! Process groups for the commands wright starts: putting a command in a
//! group of its own, signalling that group directly with `killpg(2)`, and
//! reading its exit status. Every command, hook and stdio MCP server runs
//! in a process group of its own; stopping one used to spawn
//! `bash -c 'kill …'`, a whole extra process (about 2 ms) for one system
//! call. Windows has no signals: a new process group there, and the whole
//! process tree ended with `taskkill /T /F`.

/// A signal sent to a process group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupSignal {
    /// `SIGTERM`: asks the group to stop.
    Term,
    /// `SIGKILL`: stops the group.
    Kill,
}

/// Sends `signal` to the process group `pgid` and says whether it was
/// delivered (false when the group is gone or the id is not a child's
/// group). Group ids 0 and 1 (our own group, init's) are refused.
pub fn signal_group(pgid: u32, signal: GroupSignal) -> bool {
    #[cfg(unix)]
    {
        let Ok(pgid) = libc::pid_t::try_from(pgid) else {
            return false;
        };
        if pgid <= 1 {
            return false;
        }
        let signal = match signal {
            GroupSignal::Term => libc::SIGTERM,
            GroupSignal::Kill => libc::SIGKILL,
        };
        // SAFETY: killpg takes two integers and touches no memory of ours;
        // a group id that no longer exists is an error return (ESRCH).
        unsafe { libc::killpg(pgid, signal) == 0 }
    }
    #[cfg(windows)]
    {
        // No graceful stop for console programs: both signals end the tree.
        let _ = signal;
        if pgid <= 1 {
            return false;
        }
        std::process::Command::new("taskkill")
            .args(["/T", "/F", "/PID", &pgid.to_string()])
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
    #[cfg(not(any(unix, windows)))]
    {
        let _ = (pgid, signal);
        false
    }
}

/// Starts `cmd` in a process group of its own (its pid is the group id),
/// so [`signal_group`] reaches everything it starts and a terminal's
/// Ctrl-C does not.
pub fn own_process_group(cmd: &mut std::process::Command) -> &mut std::process::Command {
    #[cfg(unix)]
    {
        std::os::unix::process::CommandExt::process_group(cmd, 0)
    }
    #[cfg(windows)]
    {
        /// `CREATE_NEW_PROCESS_GROUP`: the console's Ctrl-C is not delivered to it.
        const CREATE_NEW_PROCESS_GROUP: u32 = 0x0000_0200;
        std::os::windows::process::CommandExt::creation_flags(cmd, CREATE_NEW_PROCESS_GROUP)
    }
    #[cfg(not(any(unix, windows)))]
    {
        cmd
    }
}

/// The signal that ended a process, if one did (never on Windows).
pub fn exit_signal(status: std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    {
        std::os::unix::process::ExitStatusExt::signal(&status)
    }
    #[cfg(not(unix))]
    {
        let _ = status;
        None
    }
}

/// The shell's reading of an exit status: the exit code, or 128 + the
/// signal for a process killed by one.
pub fn exit_code(status: std::process::ExitStatus) -> i32 {
    status
        .code()
        .unwrap_or_else(|| 128 + exit_signal(status).unwrap_or_default())
}

/// Lets a closed standard output end this process as it ends a Unix tool
/// (`wright sessions list | head`), instead of every later write failing.
/// Only for report commands: the agent's own modes handle the write error
/// and still finish their session. Nothing to do on Windows.
pub fn end_on_closed_stdout() {
    #[cfg(unix)]
    // SAFETY: restores the default disposition of one signal; called once
    // at start-up, before any other thread looks at signals.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(test)]
#[cfg(unix)]
mod tests {
    use super::*;

    #[test]
    fn kills_the_whole_group() {
        let mut child = own_process_group(
            std::process::Command::new("sh").args(["-c", "sleep 60 & sleep 60; wait"]),
        )
        .spawn()
        .unwrap();
        let pgid = child.id();
        assert!(signal_group(pgid, GroupSignal::Kill));
        let status = child.wait().unwrap();
        assert!(!status.success());
        // Everyone in it is gone (the background sleep too), so a second
        // signal finds no group.
        let mut gone = false;
        for _ in 0..200 {
            if !signal_group(pgid, GroupSignal::Term) {
                gone = true;
                break;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert!(gone);
    }

    #[test]
    fn refuses_our_own_group_and_init() {
        assert!(!signal_group(0, GroupSignal::Term));
        assert!(!signal_group(1, GroupSignal::Term));
        assert!(!signal_group(u32::MAX, GroupSignal::Term));
    }
}
