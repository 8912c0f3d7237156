//! The signals that stop a run: Ctrl-C (SIGINT), SIGTERM and SIGHUP (a
//! closed terminal, `kill`, a supervisor) are all handled the same way: the
//! running turn is interrupted, so its commands' process groups are killed
//! and every result is recorded, and wright exits with 128 + the signal
//! (130, 143, 129). A second signal leaves at once. Windows has only
//! Ctrl-C (and Ctrl-Break, read as SIGTERM).

use std::sync::Arc;
use std::sync::atomic::{AtomicI32, Ordering};

use tokio::sync::mpsc;
use wright_protocol::{Op, TurnEndReason};

use crate::exit;

/// A closed terminal's signal number.
pub const SIGHUP: i32 = 1;
/// Ctrl-C's signal number.
pub const SIGINT: i32 = 2;
const SIGTERM: i32 = 15;

/// A source of stop signals.
pub struct Signals {
    #[cfg(unix)]
    term: Option<tokio::signal::unix::Signal>,
    #[cfg(unix)]
    hup: Option<tokio::signal::unix::Signal>,
    #[cfg(windows)]
    term: Option<tokio::signal::windows::CtrlBreak>,
    /// The first stop signal other than Ctrl-C seen so far.
    stopped: Option<i32>,
}

impl Signals {
    /// Installs the handlers. A handler that cannot be installed is left
    /// out (the signal then keeps its default action, which also ends
    /// wright; its commands still die with it through the sandbox helper).
    pub fn new() -> Self {
        #[cfg(unix)]
        {
            use tokio::signal::unix::{SignalKind, signal};
            Self {
                term: signal(SignalKind::terminate()).ok(),
                hup: signal(SignalKind::hangup()).ok(),
                stopped: None,
            }
        }
        #[cfg(windows)]
        {
            Self {
                term: tokio::signal::windows::ctrl_break().ok(),
                stopped: None,
            }
        }
    }

    /// Waits for the next stop signal and returns its number.
    pub async fn next(&mut self) -> i32 {
        let term = async {
            match &mut self.term {
                Some(s) => s.recv().await,
                None => std::future::pending().await,
            }
        };
        #[cfg(unix)]
        let hup = async {
            match &mut self.hup {
                Some(s) => s.recv().await,
                None => std::future::pending().await,
            }
        };
        #[cfg(not(unix))]
        let hup = std::future::pending::<Option<()>>();
        let signal = tokio::select! {
            r = tokio::signal::ctrl_c() => match r {
                Ok(()) => SIGINT,
                Err(_) => std::future::pending().await,
            },
            _ = term => SIGTERM,
            _ = hup => SIGHUP,
        };
        if signal != SIGINT {
            self.stopped.get_or_insert(signal);
        }
        signal
    }

    /// The first signal other than Ctrl-C that [`Self::next`] returned:
    /// wright is to stop, whoever consumed the signal.
    pub fn stopped(&self) -> Option<i32> {
        self.stopped
    }
}

/// Which signal, if any, interrupted the run.
#[derive(Debug, Clone, Default)]
pub struct StopSignal(Arc<AtomicI32>);

impl StopSignal {
    /// Remembers `signal` as the reason to stop.
    pub fn set(&self, signal: i32) {
        self.0.store(signal, Ordering::SeqCst);
    }

    /// The signal that stopped the run, if one did.
    pub fn get(&self) -> Option<i32> {
        match self.0.load(Ordering::SeqCst) {
            0 => None,
            s => Some(s),
        }
    }

    /// The exit code for a run that ended with `reason`: an interrupted run
    /// exits 128 + the signal that interrupted it.
    pub fn exit_code(&self, reason: TurnEndReason) -> u8 {
        match (reason, self.get()) {
            (TurnEndReason::Interrupted, Some(sig)) => exit_for(sig),
            _ => exit::for_turn(reason),
        }
    }
}

/// 128 + `signal`, as shells report a death by signal.
pub fn exit_for(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(exit::INTERRUPTED)
}

/// The first stop signal interrupts the turn; a second one leaves at once.
/// A signal that arrives before the turn starts finds no turn to interrupt:
/// callers check [`StopSignal::get`] right after submitting it.
pub fn spawn_interrupt_handler(ops: mpsc::Sender<Op>) -> StopSignal {
    let stop = StopSignal::default();
    let seen = stop.clone();
    // Installed before the task runs, so no early signal keeps its default.
    let mut signals = Signals::new();
    tokio::spawn(async move {
        let first = signals.next().await;
        seen.set(first);
        let _ = ops.send(Op::Interrupt).await;
        let second = signals.next().await;
        std::process::exit(i32::from(exit_for(second)));
    });
    stop
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exit_codes_follow_the_signal() {
        let stop = StopSignal::default();
        assert_eq!(
            stop.exit_code(TurnEndReason::Interrupted),
            exit::INTERRUPTED
        );
        assert_eq!(stop.exit_code(TurnEndReason::Completed), exit::SUCCESS);
        stop.set(SIGTERM);
        assert_eq!(stop.exit_code(TurnEndReason::Interrupted), 143);
        assert_eq!(stop.exit_code(TurnEndReason::Completed), exit::SUCCESS);
        stop.set(SIGHUP);
        assert_eq!(stop.exit_code(TurnEndReason::Interrupted), 129);
    }
}
