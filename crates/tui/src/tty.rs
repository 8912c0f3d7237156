//! Noticing that the terminal went away (a closed window, a dropped SSH
//! connection, a killed tmux session).
//!
//! A hung-up terminal reads end-of-file (or fails with EIO) for ever, and
//! crossterm's reader retries such a read in a loop that never returns, so
//! a UI that lets crossterm touch a dead terminal spins on a core for ever.
//! The terminal is asked with `poll` before each crossterm read instead: a
//! hung-up terminal reports `POLLHUP` (or `POLLERR`), which ends the UI.

use std::time::Duration;

/// The exit code of an interactive wright whose terminal went away: as
/// for SIGHUP, 128 + 1.
pub const HANGUP_EXIT: u8 = 129;

/// What a look at the terminal found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TtyState {
    /// Input is waiting.
    Ready,
    /// Nothing arrived in the time given.
    Quiet,
    /// The terminal hung up or failed: nothing more will come from it.
    Gone,
    /// This platform (or this descriptor) cannot be polled: ask crossterm.
    Unknown,
}

/// The terminal the UI reads keys from: stdin when it is a terminal, else
/// `/dev/tty`, as crossterm picks it.
pub struct TtyWatch {
    #[cfg(unix)]
    fd: Option<TtyFd>,
}

#[cfg(unix)]
enum TtyFd {
    Stdin,
    Opened(std::fs::File),
}

impl TtyWatch {
    /// Watches the UI's terminal.
    pub fn new() -> Self {
        #[cfg(unix)]
        {
            use std::io::IsTerminal;
            let fd = if std::io::stdin().is_terminal() {
                Some(TtyFd::Stdin)
            } else {
                std::fs::File::open("/dev/tty").ok().map(TtyFd::Opened)
            };
            Self { fd }
        }
        #[cfg(not(unix))]
        {
            Self {}
        }
    }

    /// Waits up to `wait` for input; says at once when the terminal is gone.
    pub fn wait(&self, wait: Duration) -> TtyState {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            match &self.fd {
                Some(TtyFd::Stdin) => poll_fd(std::io::stdin().as_fd(), wait),
                Some(TtyFd::Opened(file)) => poll_fd(file.as_fd(), wait),
                None => TtyState::Unknown,
            }
        }
        #[cfg(not(unix))]
        {
            let _ = wait;
            TtyState::Unknown
        }
    }

    /// Whether the terminal is gone (hung up or failing).
    pub fn is_gone(&self) -> bool {
        self.wait(Duration::ZERO) == TtyState::Gone
    }
}

impl Default for TtyWatch {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(unix)]
fn poll_fd(fd: std::os::fd::BorrowedFd<'_>, wait: Duration) -> TtyState {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let timeout = Timespec::try_from(wait).ok();
    let mut fds = [PollFd::from_borrowed_fd(fd, PollFlags::IN)];
    match poll(&mut fds, timeout.as_ref()) {
        Ok(0) => return TtyState::Quiet,
        Ok(_) => {}
        // A signal (SIGWINCH) cut the wait short: the caller comes back.
        Err(rustix::io::Errno::INTR) => return TtyState::Quiet,
        Err(_) => return TtyState::Unknown,
    }
    let revents = fds[0].revents();
    if revents.intersects(PollFlags::HUP | PollFlags::ERR) {
        TtyState::Gone
    } else if revents.contains(PollFlags::NVAL) {
        // macOS cannot poll /dev/tty; crossterm's own wait works there.
        TtyState::Unknown
    } else {
        TtyState::Ready
    }
}

/// Whether stdin, a terminal when wright started, has hung up: it polls
/// as hung up, or is no longer a terminal (a hung-up terminal fails the
/// terminal ioctls). The line mode asks this on end of input, to tell a
/// closed terminal from Ctrl-D.
pub fn stdin_hung_up() -> bool {
    #[cfg(unix)]
    {
        use std::io::IsTerminal;
        use std::os::fd::AsFd;
        let stdin = std::io::stdin();
        !stdin.is_terminal() || poll_fd(stdin.as_fd(), Duration::ZERO) == TtyState::Gone
    }
    #[cfg(not(unix))]
    {
        false
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_pipe_whose_writer_closed_polls_gone_and_an_open_one_quiet() {
        use std::os::fd::AsFd;
        let (reader, writer) = std::io::pipe().unwrap();
        assert_eq!(
            poll_fd(reader.as_fd(), Duration::from_millis(10)),
            TtyState::Quiet
        );
        drop(writer);
        assert_eq!(poll_fd(reader.as_fd(), Duration::ZERO), TtyState::Gone);
    }
}
