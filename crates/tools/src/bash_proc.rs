//! Running one shell command for the `bash` tool: its own process group,
//! stdout and stderr merged into one pipe and streamed as UTF-8 text, and the
//! whole group killed on timeout or cancel; the spawn settings and group
//! signals are shared with background [`crate::jobs`].

use std::path::Path;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::AsyncReadExt;
use tokio_util::sync::CancellationToken;

use wright_sandbox::GroupSignal;

use crate::{OutputSink, ToolError};

/// Most output kept in memory; the rest is still streamed, then dropped.
const MEMORY_CAP: usize = 32 * 1024 * 1024;
/// How long a process group gets between SIGTERM and SIGKILL.
pub(crate) const TERM_GRACE: Duration = Duration::from_secs(2);
/// How long to wait for the pipe to drain after the group is gone.
const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// How a command ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ended {
    /// Exit status (128 + signal when killed by a signal).
    Exited(i32),
    TimedOut,
    Cancelled,
}

/// What a command printed, and how it ended.
#[derive(Debug)]
pub(crate) struct Finished {
    pub output: String,
    pub dropped_bytes: usize,
    pub ended: Ended,
}

/// Runs `command` (a `bash -c` invocation, possibly wrapped by the sandbox
/// helper, which `exec`s bash so the pid and group stay the same) in `cwd`.
pub(crate) async fn run(
    command: std::process::Command,
    cwd: &Path,
    timeout: Duration,
    cancel: &CancellationToken,
    sink: Option<&OutputSink>,
) -> Result<Finished, ToolError> {
    let failed = |e: std::io::Error| ToolError::Failed(format!("Cannot start bash: {e}"));
    let (mut rx, write_end) = merged_pipe().map_err(failed)?;
    let mut cmd = prepare(command, cwd);
    cmd.stdout(write_end.try_clone().map_err(failed)?)
        .stderr(write_end);
    let mut child = cmd.spawn().map_err(failed)?;
    // The parent's copies of the write end must close, or the pipe never ends.
    drop(cmd);
    let pgid = child.id();

    let mut out = Collector::new(sink);
    let mut buf = vec![0u8; 16 * 1024];
    let deadline = tokio::time::sleep(timeout);
    tokio::pin!(deadline);
    let mut status: Option<ExitStatus> = None;
    let mut eof = false;
    let mut reaped = false;
    let ended = loop {
        if eof && let Some(s) = status {
            break Ended::Exited(code(s));
        }
        if status.is_some() && !reaped {
            // The shell is done; kill what it left running in its group so the
            // pipe closes (background jobs are not kept by this tool).
            reaped = true;
            signal_group(pgid, GroupSignal::Kill);
        }
        tokio::select! {
            n = rx.read(&mut buf), if !eof => match n {
                Ok(0) | Err(_) => eof = true,
                Ok(n) => out.push(&buf[..n]),
            },
            s = child.wait(), if status.is_none() => {
                status = Some(s.map_err(|e| ToolError::Failed(format!("bash failed: {e}")))?);
            }
            () = &mut deadline => match status {
                // Something outside the group holds the pipe open; stop waiting.
                Some(s) => break Ended::Exited(code(s)),
                None => break Ended::TimedOut,
            },
            () = cancel.cancelled() => break Ended::Cancelled,
        }
    };
    if matches!(ended, Ended::TimedOut | Ended::Cancelled) {
        signal_group(pgid, GroupSignal::Term);
        if tokio::time::timeout(TERM_GRACE, child.wait())
            .await
            .is_err()
        {
            signal_group(pgid, GroupSignal::Kill);
            let _ = child.wait().await;
        }
        signal_group(pgid, GroupSignal::Kill);
        let _ = tokio::time::timeout(DRAIN_GRACE, async {
            while let Ok(n) = rx.read(&mut buf).await {
                if n == 0 {
                    break;
                }
                out.push(&buf[..n]);
            }
        })
        .await;
    }
    let (output, dropped_bytes) = out.finish();
    Ok(Finished {
        output,
        dropped_bytes,
        ended,
    })
}

/// A pipe for a command's stdout and stderr together: the read end for
/// tokio, the write end to hand to the child (twice).
#[cfg(unix)]
fn merged_pipe() -> std::io::Result<(tokio::net::unix::pipe::Receiver, std::os::fd::OwnedFd)> {
    let (tx, rx) = tokio::net::unix::pipe::pipe()?;
    Ok((rx, tx.into_blocking_fd()?))
}

/// Windows: an anonymous pipe whose read end a thread drains into tokio
/// (anonymous pipes there cannot be read asynchronously).
#[cfg(not(unix))]
fn merged_pipe() -> std::io::Result<(tokio::io::DuplexStream, std::io::PipeWriter)> {
    use tokio::io::AsyncWriteExt;
    let (mut reader, writer) = std::io::pipe()?;
    let (rx, mut tx) = tokio::io::duplex(64 * 1024);
    let handle = tokio::runtime::Handle::current();
    std::thread::spawn(move || {
        let mut buf = vec![0u8; 16 * 1024];
        while let Ok(n) = std::io::Read::read(&mut reader, &mut buf) {
            if n == 0 || handle.block_on(tx.write_all(&buf[..n])).is_err() {
                break;
            }
        }
    });
    Ok((rx, writer))
}

/// The settings every command shares, in the foreground or the background
/// (the model's, the verifier's and the user's `!cmd`): `cwd`, no stdin, a
/// scrubbed environment and a process group of its own (so the whole group
/// can be signalled); output is left to the caller.
pub(crate) fn prepare(mut command: std::process::Command, cwd: &Path) -> tokio::process::Command {
    // Credentials stay with wright: a command that prints its environment
    // must not put the user's tokens into the model's context. Scrubbed
    // before wright sets its own variables, which are kept.
    wright_sandbox::scrub_env(&mut command);
    let mut cmd = tokio::process::Command::from(command);
    cmd.current_dir(cwd)
        .stdin(Stdio::null())
        .env("PAGER", "cat")
        .env("GIT_PAGER", "cat")
        .env("GIT_TERMINAL_PROMPT", "0")
        .kill_on_drop(true);
    wright_sandbox::own_process_group(cmd.as_std_mut());
    cmd
}

/// The exit code of `s` (128 + signal when killed by a signal).
pub(crate) fn code(s: ExitStatus) -> i32 {
    wright_sandbox::exit_code(s)
}

/// Sends `signal` to the process group `pgid` (nothing without one).
pub(crate) fn signal_group(pgid: Option<u32>, signal: GroupSignal) {
    if let Some(pgid) = pgid {
        wright_sandbox::signal_group(pgid, signal);
    }
}

/// Decodes output as UTF-8 without splitting a character across chunks,
/// forwards it to the sink and keeps it up to [`MEMORY_CAP`].
struct Collector<'a> {
    sink: Option<&'a OutputSink>,
    pending: Vec<u8>,
    text: String,
    dropped: usize,
}

impl<'a> Collector<'a> {
    fn new(sink: Option<&'a OutputSink>) -> Self {
        Self {
            sink,
            pending: Vec::new(),
            text: String::new(),
            dropped: 0,
        }
    }

    fn push(&mut self, bytes: &[u8]) {
        self.pending.extend_from_slice(bytes);
        let mut decoded = String::new();
        loop {
            match std::str::from_utf8(&self.pending) {
                Ok(s) => {
                    decoded.push_str(s);
                    self.pending.clear();
                    break;
                }
                Err(e) => {
                    let valid = e.valid_up_to();
                    decoded.push_str(&String::from_utf8_lossy(&self.pending[..valid]));
                    match e.error_len() {
                        // An incomplete character at the end: wait for more bytes.
                        None => {
                            self.pending.drain(..valid);
                            break;
                        }
                        Some(bad) => {
                            decoded.push('\u{fffd}');
                            self.pending.drain(..valid + bad);
                        }
                    }
                }
            }
        }
        self.emit(&decoded);
    }

    fn emit(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        if let Some(sink) = self.sink {
            sink(s);
        }
        if self.text.len() + s.len() <= MEMORY_CAP {
            self.text.push_str(s);
        } else {
            self.dropped += s.len();
        }
    }

    fn finish(mut self) -> (String, usize) {
        let rest = String::from_utf8_lossy(&std::mem::take(&mut self.pending)).into_owned();
        self.emit(&rest);
        (self.text, self.dropped)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    #[test]
    fn collector_keeps_multibyte_chars_whole() {
        let chunks = Arc::new(Mutex::new(Vec::<String>::new()));
        let c2 = chunks.clone();
        let sink: OutputSink = Arc::new(move |s: &str| c2.lock().unwrap().push(s.to_owned()));
        let mut c = Collector::new(Some(&sink));
        let bytes = "aé日\u{1F600}".as_bytes();
        for b in bytes {
            c.push(std::slice::from_ref(b));
        }
        c.push(&[0xff, b'z']);
        let (text, dropped) = c.finish();
        assert_eq!(text, "aé日\u{1F600}\u{fffd}z");
        assert_eq!(dropped, 0);
        for chunk in chunks.lock().unwrap().iter() {
            assert!(!chunk.is_empty());
        }
    }

    #[test]
    fn collector_flushes_incomplete_tail_lossily() {
        let mut c = Collector::new(None);
        c.push(&[b'a', 0xe6, 0x97]);
        assert_eq!(c.finish().0, "a\u{fffd}");
    }
}
