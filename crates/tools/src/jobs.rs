//! Background commands of the `bash` tool (`run_in_background`): the
//! session's job table, each job's process group, output file and read
//! position, the task that notices a job's end, and stopping jobs — one at a
//! time for `KillShell`, all of them at session end, and synchronously in
//! `Drop` so no job outlives the table.
//!
//! A sandboxed job's [`RepoGuard`] is swept for its whole life, not only at
//! its end: a `.git/commondir` or `.git/gitdir` it plants would make every
//! git command run outside the sandbox meanwhile (the user's hooks, shell
//! prompt, editor) read another repository's config, where `core.fsmonitor`
//! runs programs. The job's task sweeps those redirects every 200 ms, and
//! [`BackgroundJobs::sweep`] sweeps all jobs at once, nested repositories
//! too (a walk of the roots), for the moment before something unsandboxed
//! runs, as does the job's end.

use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

use tokio::sync::watch;
use tokio::time::MissedTickBehavior;
use wright_protocol::ToolDisplay;
use wright_sandbox::GroupSignal;
use wright_sandbox::repo_guard::RepoGuard;

use crate::{ToolContext, ToolError, ToolOutput, bash_proc, output};

/// How long a group gets to be reaped after SIGKILL before `KillShell`
/// stops waiting (the kernel is quick; this only bounds a stuck wait).
const REAP_WAIT: Duration = Duration::from_secs(5);
/// Most new output one `BashOutput` call reads from the file; past it, the
/// middle is skipped (the model sees head and tail of it anyway).
const MAX_READ: u64 = 4 * 1024 * 1024;
/// How often a running job's task sweeps its repo guard (a couple of stats
/// per root), bounding how long a plant can stand.
pub(crate) const SWEEP_EVERY: Duration = Duration::from_millis(200);

/// How a background job stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobStatus {
    /// Still running.
    Running,
    /// Ended by itself with this exit status (128 + signal when a signal
    /// it did not get from wright ended it).
    Exited(i32),
    /// Stopped by `KillShell`, [`BackgroundJobs::kill_all`] or the table's drop.
    Killed,
}

impl JobStatus {
    /// Whether the job is still running.
    pub fn is_running(self) -> bool {
        self == Self::Running
    }
}

impl fmt::Display for JobStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Running => f.write_str("running"),
            Self::Exited(code) => write!(f, "exited with code {code}"),
            Self::Killed => f.write_str("killed"),
        }
    }
}

/// A snapshot of one background job, for listings such as `/context`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobInfo {
    /// The id the model uses (`bash_1`, …).
    pub id: String,
    /// The command as the model wrote it.
    pub command: String,
    /// Process id of the job's shell, which is also its process group id.
    pub pid: u32,
    /// How it stands.
    pub status: JobStatus,
    /// How long it has run, or ran until it ended.
    pub runtime: Duration,
    /// The file its stdout and stderr are appended to.
    pub output_path: PathBuf,
}

/// The background jobs of one session, shared by every tool call's
/// [`ToolContext`]. Dropping the table kills the groups still running.
#[derive(Default)]
pub struct BackgroundJobs {
    jobs: Mutex<Vec<Arc<Job>>>,
    next: AtomicU64,
    /// Every command holds it shared from before it starts until it ends
    /// (a background job: until it has started; its status says the rest);
    /// an editor write holds it alone. Every agent of the session shares the
    /// table, so a sibling subagent's command counts too.
    gate: tokio::sync::RwLock<()>,
}

/// One job; shared by the table and the task that waits for its end (which
/// holds only the job, so the table can drop while jobs run).
pub(crate) struct Job {
    id: String,
    command: String,
    pid: u32,
    started: Instant,
    output_path: PathBuf,
    /// How far `BashOutput` has read; async because it is held across the
    /// file read, so two calls never hand out the same bytes.
    read_offset: tokio::sync::Mutex<u64>,
    status: watch::Sender<JobStatus>,
    runtime: OnceLock<Duration>,
    /// Set before wright signals the group, so its end reads as killed
    /// rather than as the signal's exit status.
    kill_requested: AtomicBool,
    /// The repo guard and where its notices go, until the end-of-job
    /// cleanup takes them; the lock keeps sweeps from racing each other.
    guard: Mutex<Option<JobGuard>>,
}

/// A job's [`RepoGuard`] with the job's output file, where what it removes
/// is noted for `BashOutput`.
struct JobGuard {
    guard: RepoGuard,
    notes: File,
}

impl JobGuard {
    /// Removes the plants and notes each removal in the job's output;
    /// `full` also walks the roots for nested repositories (too slow for
    /// every tick).
    fn sweep(&self, full: bool) -> Vec<String> {
        let removed = if full {
            self.guard.after()
        } else {
            self.guard.after_quick()
        };
        let mut notes = &self.notes;
        for line in &removed {
            let _ = writeln!(notes, "{line}");
        }
        removed
    }
}

/// Output a job printed since the last read.
pub(crate) struct NewOutput {
    /// The new text, or its head when the middle was skipped.
    pub head: String,
    /// Bytes skipped between `head` and `tail` (0: `tail` is empty).
    pub skipped: u64,
    /// The end of the new text when the middle was skipped.
    pub tail: String,
    /// The status before the read: an ended job's output is complete.
    pub status: JobStatus,
}

impl BackgroundJobs {
    /// An empty table.
    pub fn new() -> Self {
        Self::default()
    }

    /// Held by a command while it starts and, in the foreground, runs; waits
    /// while an editor write is in flight.
    pub(crate) async fn command_gate(&self) -> tokio::sync::RwLockReadGuard<'_, ()> {
        self.gate.read().await
    }

    /// Holds off every new command of the session while the guard lives, or
    /// `None` when a command is running or starting, or a background job is
    /// alive: then something the model started could race a write that is
    /// not wright's own kernel-checked one.
    pub fn quiet(&self) -> Option<tokio::sync::RwLockWriteGuard<'_, ()>> {
        let guard = self.gate.try_write().ok()?;
        if self.all().iter().any(|j| j.status().is_running()) {
            return None;
        }
        Some(guard)
    }

    /// Every job started in this table, oldest first.
    pub fn list(&self) -> Vec<JobInfo> {
        self.all().iter().map(|j| j.info()).collect()
    }

    /// Stops the job called `id` (SIGTERM to its group, a short grace, then
    /// SIGKILL) and returns how it ended; an unknown id is an error naming
    /// the known ones.
    pub async fn stop(&self, id: &str) -> Result<JobStatus, String> {
        let job = self.get(id).map_err(|e| e.to_string())?;
        Ok(match job.status() {
            JobStatus::Running => job.stop().await,
            ended => ended,
        })
    }

    /// Stops every running job (SIGTERM to its group, a short grace, then
    /// SIGKILL) and waits for them to be reaped; for the end of a session.
    /// Every job's repo guard cleanup has run when it returns: a job's end
    /// is recorded only after its task's final sweep, and a group still not
    /// reaped after the wait is swept here once more (its task sweeps again
    /// when it does end).
    pub async fn kill_all(&self) {
        let jobs = self.all();
        futures::future::join_all(jobs.iter().map(|j| j.stop())).await;
        for job in &jobs {
            job.sweep();
        }
    }

    /// Sweeps the repo guard of every job whose end-of-job cleanup has not
    /// run yet: removes the `.git/commondir` and `.git/gitdir` redirects
    /// those jobs created since they started, notes each removal in the
    /// job's output, and returns the notices. Synchronous and cheap (a
    /// couple of stats per root and job).
    ///
    /// Jobs are swept every 200 ms anyway; call this right before
    /// running anything outside the sandbox (the user's hooks), so that it
    /// never reads a redirect planted since the last periodic sweep.
    pub fn sweep(&self) -> Vec<String> {
        self.all().iter().flat_map(|j| j.sweep()).collect()
    }

    fn all(&self) -> Vec<Arc<Job>> {
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// The job called `id`, or an error for the model naming the known ones.
    pub(crate) fn get(&self, id: &str) -> Result<Arc<Job>, ToolError> {
        let jobs = self.all();
        if let Some(job) = jobs.iter().find(|j| j.id == id.trim()) {
            return Ok(job.clone());
        }
        let known: Vec<&str> = jobs.iter().map(|j| j.id.as_str()).collect();
        Err(ToolError::Failed(if known.is_empty() {
            format!("No background job {id}: none has been started")
        } else {
            format!("No background job {id}; known jobs: {}", known.join(", "))
        }))
    }

    /// Starts `command` in its own process group with stdout and stderr
    /// appended to a new file in `spill_dir`, and a task that sweeps
    /// `repo_guard` every [`SWEEP_EVERY`] while the job runs, then runs its
    /// final cleanup once the group is gone and records the job's end.
    async fn start(
        &self,
        command: std::process::Command,
        shown: &str,
        cwd: &Path,
        spill_dir: &Path,
        repo_guard: RepoGuard,
    ) -> Result<Arc<Job>, ToolError> {
        let id = format!("bash_{}", self.next.fetch_add(1, Ordering::Relaxed) + 1);
        let failed =
            |e: std::io::Error| ToolError::Failed(format!("Cannot start background job {id}: {e}"));
        let (file, output_path) = output::new_private_log(spill_dir, &id).map_err(failed)?;
        let spawned = (|| -> std::io::Result<_> {
            let notes = file.try_clone()?;
            let mut cmd = bash_proc::prepare(command, cwd);
            cmd.stdout(file.try_clone()?).stderr(file);
            Ok((cmd.spawn()?, notes))
        })();
        let (mut child, notes) = match spawned {
            Ok(s) => s,
            Err(e) => {
                let _ = std::fs::remove_file(&output_path);
                return Err(failed(e));
            }
        };
        let Some(pid) = child.id() else {
            return Err(failed(std::io::Error::other("it ended before it started")));
        };
        let job = Arc::new(Job {
            id,
            command: shown.to_owned(),
            pid,
            started: Instant::now(),
            output_path,
            read_offset: tokio::sync::Mutex::new(0),
            status: watch::Sender::new(JobStatus::Running),
            runtime: OnceLock::new(),
            kill_requested: AtomicBool::new(false),
            guard: Mutex::new(Some(JobGuard {
                guard: repo_guard,
                notes,
            })),
        });
        let waiter = job.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(SWEEP_EVERY);
            tick.set_missed_tick_behavior(MissedTickBehavior::Delay);
            let status = {
                let ended = child.wait();
                tokio::pin!(ended);
                loop {
                    tokio::select! {
                        status = &mut ended => break status,
                        _ = tick.tick() => {
                            waiter.sweep_quick();
                        }
                    }
                }
            };
            // The job is its whole group, as in the foreground: what the
            // shell left running goes with it, and only then can nothing of
            // the command recreate what the repo guard removes.
            bash_proc::signal_group(Some(waiter.pid), GroupSignal::Kill);
            waiter.final_sweep();
            waiter.finish(status.ok().map(bash_proc::code));
        });
        self.jobs
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(job.clone());
        Ok(job)
    }
}

impl Drop for BackgroundJobs {
    /// The last resort when the session did not call `kill_all` (an early
    /// return, a panic): SIGKILL each running group through bash's `kill`,
    /// synchronously. Not tokio's `kill_on_drop`: that signals only the
    /// shell's own pid, leaving its children (a server the command started)
    /// running, and only once the waiting task itself is dropped.
    fn drop(&mut self) {
        let jobs = self.jobs.get_mut().unwrap_or_else(PoisonError::into_inner);
        for job in jobs.iter().filter(|j| j.status().is_running()) {
            job.kill_requested.store(true, Ordering::SeqCst);
            bash_proc::signal_group(Some(job.pid), GroupSignal::Kill);
            // The task may never get to its final sweep (a runtime shutting
            // down); the group is signalled, so sweep now as well.
            job.sweep();
        }
    }
}

impl fmt::Debug for BackgroundJobs {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let jobs = self.all();
        f.debug_map()
            .entries(jobs.iter().map(|j| (j.id.clone(), j.status())))
            .finish()
    }
}

impl Job {
    pub(crate) fn id(&self) -> &str {
        &self.id
    }

    pub(crate) fn output_path(&self) -> &Path {
        &self.output_path
    }

    pub(crate) fn status(&self) -> JobStatus {
        *self.status.borrow()
    }

    fn info(&self) -> JobInfo {
        JobInfo {
            id: self.id.clone(),
            command: self.command.clone(),
            pid: self.pid,
            status: self.status(),
            runtime: self
                .runtime
                .get()
                .copied()
                .unwrap_or_else(|| self.started.elapsed()),
            output_path: self.output_path.clone(),
        }
    }

    /// Sweeps the job's repo guard, unless its final cleanup already ran;
    /// returns the notices, which also go to its output.
    fn sweep(&self) -> Vec<String> {
        self.guard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
            .map(|g| g.sweep(true))
            .unwrap_or_default()
    }

    /// The periodic sweep: redirects only, no walk of the roots.
    fn sweep_quick(&self) {
        if let Some(g) = self
            .guard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .as_ref()
        {
            g.sweep(false);
        }
    }

    /// The end-of-job cleanup, once the group is gone: the last sweep, after
    /// which the guard and its handle on the output file are dropped.
    fn final_sweep(&self) {
        let guard = self
            .guard
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        if let Some(guard) = guard {
            guard.sweep(true);
        }
    }

    /// Records the end; `code` is `None` when waiting for the shell failed.
    fn finish(&self, code: Option<i32>) {
        let status = if self.kill_requested.load(Ordering::SeqCst) {
            JobStatus::Killed
        } else {
            // -1: wright lost track of the shell and cannot say how it ended.
            JobStatus::Exited(code.unwrap_or(-1))
        };
        let _ = self.runtime.set(self.started.elapsed());
        self.status.send_replace(status);
    }

    /// SIGTERM to the group, [`bash_proc::TERM_GRACE`] to end, then SIGKILL;
    /// waits until the end is recorded. Returns the status afterwards.
    pub(crate) async fn stop(&self) -> JobStatus {
        if !self.status().is_running() {
            return self.status();
        }
        self.kill_requested.store(true, Ordering::SeqCst);
        let mut ended = self.status.subscribe();
        bash_proc::signal_group(Some(self.pid), GroupSignal::Term);
        let in_grace =
            tokio::time::timeout(bash_proc::TERM_GRACE, ended.wait_for(|s| !s.is_running()))
                .await
                .is_ok();
        if !in_grace {
            bash_proc::signal_group(Some(self.pid), GroupSignal::Kill);
            let _ = tokio::time::timeout(REAP_WAIT, ended.wait_for(|s| !s.is_running())).await;
        }
        self.status()
    }

    /// What the job printed since the last call, decoded lossily; an
    /// incomplete character at the end of a running job's output is left
    /// for the next call.
    pub(crate) async fn take_output(&self) -> Result<NewOutput, ToolError> {
        let status = self.status();
        let mut offset = self.read_offset.lock().await;
        let path = self.output_path.clone();
        let from = *offset;
        let running = status.is_running();
        let (head, skipped, tail, next) = output::blocking(move || {
            read_from(&path, from, running)
                .map_err(|e| ToolError::Failed(format!("Cannot read {}: {e}", path.display())))
        })
        .await?;
        *offset = next;
        Ok(NewOutput {
            head,
            skipped,
            tail,
            status,
        })
    }
}

/// Reads `path` from `from` to its end: all of it up to [`MAX_READ`], else
/// its first and last halves of that. Returns head, skipped bytes, tail and
/// the offset to read from next.
fn read_from(path: &Path, from: u64, running: bool) -> std::io::Result<(String, u64, String, u64)> {
    let mut file = File::open(path)?;
    let len = file.metadata()?.len();
    // A command can truncate its own output file; start over from its end.
    let from = from.min(len);
    let read = |file: &mut File, at: u64, n: u64| -> std::io::Result<Vec<u8>> {
        file.seek(SeekFrom::Start(at))?;
        let mut buf = Vec::new();
        file.take(n).read_to_end(&mut buf)?;
        Ok(buf)
    };
    let avail = len - from;
    let (mut head, skipped, mut tail) = if avail <= MAX_READ {
        (read(&mut file, from, avail)?, 0, Vec::new())
    } else {
        let half = MAX_READ / 2;
        let head = read(&mut file, from, half)?;
        let tail = read(&mut file, len - half, half)?;
        (head, avail - 2 * half, tail)
    };
    let last = if tail.is_empty() {
        &mut head
    } else {
        &mut tail
    };
    let held = if running { incomplete_tail(last) } else { 0 };
    last.truncate(last.len() - held);
    let next = from + avail - held as u64;
    Ok((
        String::from_utf8_lossy(&head).into_owned(),
        skipped,
        String::from_utf8_lossy(&tail).into_owned(),
        next,
    ))
}

/// Bytes at the end of `bytes` that start a UTF-8 character not yet complete.
fn incomplete_tail(bytes: &[u8]) -> usize {
    for back in 1..=bytes.len().min(4) {
        let b = bytes[bytes.len() - back];
        if b & 0xC0 == 0x80 {
            continue;
        }
        let need = match b {
            0xC0..=0xDF => 2,
            0xE0..=0xEF => 3,
            0xF0..=0xF7 => 4,
            _ => 1,
        };
        return if back < need { back } else { 0 };
    }
    0
}

/// The `bash` tool's `run_in_background` branch: starts the job (the guard
/// and the sandbox wrapping already done by the caller) and says where its
/// output goes.
pub(crate) async fn start_background(
    ctx: &ToolContext,
    command: std::process::Command,
    shown: &str,
    repo_guard: RepoGuard,
) -> Result<ToolOutput, ToolError> {
    let job = ctx
        .jobs
        .start(command, shown, &ctx.cwd, &ctx.spill_dir, repo_guard)
        .await?;
    let path = job.output_path.display().to_string();
    Ok(ToolOutput {
        images: Vec::new(),
        content: format!(
            "Started background job {} (pid {}). Output is written to {path}; read it with \
             BashOutput, stop it with KillShell.",
            job.id, job.pid
        ),
        display: ToolDisplay {
            summary: format!("background {}", job.id),
            full_output_path: Some(path),
            ..ToolDisplay::default()
        },
    })
}

#[cfg(test)]
#[path = "jobs_tests.rs"]
mod tests;
