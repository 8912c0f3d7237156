use super::*;
use crate::{BashOutputTool, BashTool, KillShellTool, Tool};
use serde_json::json;

fn ctx(dir: &Path) -> ToolContext {
    ToolContext::new(dir, dir.join("spill"))
}

/// Starts `command` in the background and returns the job id.
async fn start(c: &ToolContext, command: &str) -> String {
    let out = BashTool
        .run(json!({"command": command, "run_in_background": true}), c)
        .await
        .unwrap();
    let id = out.display.summary.strip_prefix("background ").unwrap();
    assert!(
        out.content
            .starts_with(&format!("Started background job {id} (pid ")),
        "{}",
        out.content
    );
    id.to_owned()
}

async fn read(c: &ToolContext, args: serde_json::Value) -> String {
    BashOutputTool.run(args, c).await.unwrap().content
}

async fn kill(c: &ToolContext, id: &str) -> String {
    KillShellTool
        .run(json!({"shell_id": id}), c)
        .await
        .unwrap()
        .content
}

fn info(c: &ToolContext, id: &str) -> JobInfo {
    c.jobs.list().into_iter().find(|j| j.id == id).unwrap()
}

/// Polls `cond` for up to ten seconds.
async fn eventually(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..200 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("timed out waiting for {what}");
}

/// Whether the output file of `id` holds `needle` (read directly, so
/// `BashOutput`'s position does not move).
fn printed(c: &ToolContext, id: &str, needle: &str) -> bool {
    std::fs::read_to_string(info(c, id).output_path).is_ok_and(|s| s.contains(needle))
}

/// Whether `pid` is a live process; zombies count as gone (the container's
/// init may never reap orphans).
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, rest)| !rest.trim_start().starts_with('Z'))
    })
}

/// The pid a job wrote to `name` in `dir`.
async fn pid_file(dir: &Path, name: &str) -> u32 {
    let path = dir.join(name);
    eventually("the pid file", || {
        std::fs::read_to_string(&path).is_ok_and(|s| s.ends_with('\n'))
    })
    .await;
    std::fs::read_to_string(&path)
        .unwrap()
        .trim()
        .parse()
        .unwrap()
}

#[tokio::test]
async fn bash_output_returns_only_new_output() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let out = BashTool
        .run(
            json!({"command": "echo one; echo two >&2; while [ ! -e go ]; do sleep 0.05; done; echo three; sleep 30", "run_in_background": true}),
            &c,
        )
        .await
        .unwrap();
    let job = info(&c, "bash_1");
    assert_eq!(job.status, JobStatus::Running);
    assert_eq!(job.command.split(';').next(), Some("echo one"));
    let path = job.output_path.display().to_string();
    assert_eq!(
        out.content,
        format!(
            "Started background job bash_1 (pid {}). Output is written to {path}; read it with \
             BashOutput, stop it with KillShell.",
            job.pid
        )
    );
    assert_eq!(out.display.summary, "background bash_1");
    assert!(job.output_path.starts_with(dir.path().join("spill")));

    eventually("two", || printed(&c, "bash_1", "two\n")).await;
    let args = json!({"bash_id": "bash_1"});
    assert_eq!(read(&c, args.clone()).await, "one\ntwo\nstatus: running");
    assert_eq!(
        read(&c, args.clone()).await,
        "(no new output)\nstatus: running"
    );
    std::fs::write(dir.path().join("go"), "").unwrap();
    eventually("three", || printed(&c, "bash_1", "three\n")).await;
    let out = BashOutputTool.run(args, &c).await.unwrap();
    assert_eq!(out.content, "three\nstatus: running");
    assert_eq!(out.display.summary, "bash_1 running");
    assert_eq!(out.display.exit_code, None);
    assert_eq!(kill(&c, "bash_1").await, "Killed background job bash_1");
}

#[tokio::test]
async fn filter_keeps_matching_lines_and_drops_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(&c, "printf 'a1\\nb2\\na3\\n'; sleep 30").await;
    eventually("a3", || printed(&c, &id, "a3")).await;
    let err = BashOutputTool
        .run(json!({"bash_id": id, "filter": "("}), &c)
        .await
        .unwrap_err();
    assert!(
        matches!(err, ToolError::InvalidArgs(ref m) if m.contains("regex")),
        "{err}"
    );
    assert_eq!(
        read(&c, json!({"bash_id": id, "filter": "^a\\d$"})).await,
        "a1\na3\nstatus: running"
    );
    assert_eq!(
        read(&c, json!({"bash_id": id})).await,
        "(no new output)\nstatus: running"
    );
}

#[tokio::test]
async fn unknown_ids_list_the_known_ones() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let output = |id: &str| BashOutputTool.run(json!({"bash_id": id}), &c);
    let err = output("bash_9").await.unwrap_err();
    assert!(
        matches!(err, ToolError::Failed(ref m) if m == "No background job bash_9: none has been started"),
        "{err}"
    );
    start(&c, "sleep 30").await;
    start(&c, "sleep 30").await;
    let err = output("bash_9").await.unwrap_err();
    assert!(
        matches!(err, ToolError::Failed(ref m) if m == "No background job bash_9; known jobs: bash_1, bash_2"),
        "{err}"
    );
    let err = KillShellTool
        .run(json!({"shell_id": "nope"}), &c)
        .await
        .unwrap_err();
    assert!(
        matches!(err, ToolError::Failed(ref m) if m.ends_with("known jobs: bash_1, bash_2")),
        "{err}"
    );
}

#[tokio::test]
async fn missing_or_wrong_arguments() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    for args in [
        json!({}),
        json!({"shell_id": "bash_1"}),
        json!({"bash_id": 3}),
    ] {
        let err = BashOutputTool.run(args, &c).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)), "{err}");
    }
    for args in [
        json!({}),
        json!({"bash_id": "bash_1"}),
        json!({"shell_id": []}),
    ] {
        let err = KillShellTool.run(args, &c).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)), "{err}");
    }
    let err = BashTool
        .run(json!({"command": "true", "run_in_background": "yes"}), &c)
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::InvalidArgs(_)), "{err}");
}

#[tokio::test]
async fn kill_shell_kills_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(&c, "sleep 30 & echo $! > child.pid; echo up; wait").await;
    let child = pid_file(dir.path(), "child.pid").await;
    let shell = info(&c, &id).pid;
    assert!(alive(child) && alive(shell));
    let out = KillShellTool
        .run(json!({"shell_id": id}), &c)
        .await
        .unwrap();
    assert_eq!(out.content, "Killed background job bash_1");
    assert_eq!(out.display.summary, "killed bash_1");
    assert_eq!(info(&c, &id).status, JobStatus::Killed);
    eventually("the group to die", || !alive(child) && !alive(shell)).await;
    assert_eq!(read(&c, json!({"bash_id": id})).await, "up\nstatus: killed");
    assert_eq!(
        kill(&c, &id).await,
        "Background job bash_1 had already been killed"
    );
}

#[tokio::test]
async fn a_job_that_ends_reports_its_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(&c, "echo bye; exit 3").await;
    eventually("the end", || !info(&c, &id).status.is_running()).await;
    let job = info(&c, &id);
    assert_eq!(job.status, JobStatus::Exited(3));
    let runtime = job.runtime;
    tokio::time::sleep(Duration::from_millis(20)).await;
    assert_eq!(
        info(&c, &id).runtime,
        runtime,
        "an ended job's runtime stays"
    );
    let out = BashOutputTool
        .run(json!({"bash_id": id}), &c)
        .await
        .unwrap();
    assert_eq!(out.content, "bye\nstatus: exited with code 3");
    assert_eq!(out.display.exit_code, Some(3));
    assert_eq!(
        kill(&c, &id).await,
        "Background job bash_1 had already exited with code 3"
    );
}

#[tokio::test]
async fn kill_all_stops_every_running_job() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    start(&c, "sleep 30").await;
    start(&c, "exit 0").await;
    start(
        &c,
        "trap '' TERM; echo $$ > stubborn.pid; while :; do sleep 0.05; done",
    )
    .await;
    let stubborn = pid_file(dir.path(), "stubborn.pid").await;
    eventually("bash_2 to end", || !info(&c, "bash_2").status.is_running()).await;
    c.jobs.kill_all().await;
    let statuses: Vec<JobStatus> = c.jobs.list().iter().map(|j| j.status).collect();
    assert_eq!(
        statuses,
        [JobStatus::Killed, JobStatus::Exited(0), JobStatus::Killed]
    );
    for job in c.jobs.list() {
        eventually("the jobs to die", || !alive(job.pid)).await;
    }
    assert!(!alive(stubborn));
}

#[tokio::test]
async fn dropping_the_table_kills_running_groups() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(&c, "sleep 30 & echo $! > child.pid; wait").await;
    let child = pid_file(dir.path(), "child.pid").await;
    let shell = info(&c, &id).pid;
    let weak = Arc::downgrade(&c.jobs);
    drop(c);
    assert!(weak.upgrade().is_none(), "the job's task keeps no table");
    eventually("the group to die", || !alive(child) && !alive(shell)).await;
}

#[cfg(unix)]
#[tokio::test]
async fn output_file_is_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(&c, "echo secret").await;
    let path = info(&c, &id).output_path;
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600);
    assert_eq!(mode(path.parent().unwrap()), 0o700);
    assert_eq!(path.file_name().unwrap(), "bash_1.log");
    // A second table (a resumed session) in the same directory keeps the first's file.
    let again = ctx(dir.path());
    let id = start(&again, "echo other").await;
    assert_eq!(
        info(&again, &id).output_path.file_name().unwrap(),
        "bash_1-2.log"
    );
}

#[tokio::test]
async fn the_guard_still_blocks() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let err = BashTool
        .run(
            json!({"command": "touch ran && rm -rf /", "run_in_background": true}),
            &c,
        )
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::Blocked(_)), "{err}");
    assert!(c.jobs.list().is_empty());
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(!dir.path().join("ran").exists());
}

#[test]
fn incomplete_characters_wait_for_their_rest() {
    assert_eq!(incomplete_tail(b"ab"), 0);
    assert_eq!(incomplete_tail("é".as_bytes()), 0);
    assert_eq!(incomplete_tail(&"日".as_bytes()[..2]), 2);
    assert_eq!(incomplete_tail(&"a\u{1F600}".as_bytes()[..4]), 3);
    let mut bytes = "日".as_bytes().to_vec();
    bytes.push(0xc3);
    assert_eq!(incomplete_tail(&bytes), 1);
    assert_eq!(incomplete_tail(&[0x80, 0x80]), 0);
}

#[tokio::test]
async fn a_character_split_across_reads_is_kept_whole() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    let id = start(
        &c,
        "printf 'x\\xe6\\x97'; while [ ! -e go ]; do sleep 0.05; done; printf '\\xa5\\n'",
    )
    .await;
    eventually("the first bytes", || {
        std::fs::metadata(info(&c, &id).output_path).is_ok_and(|m| m.len() == 3)
    })
    .await;
    assert_eq!(read(&c, json!({"bash_id": id})).await, "x\nstatus: running");
    std::fs::write(dir.path().join("go"), "").unwrap();
    eventually("the end", || !info(&c, &id).status.is_running()).await;
    assert_eq!(
        read(&c, json!({"bash_id": id})).await,
        "日\nstatus: exited with code 0"
    );
}

#[tokio::test]
async fn long_new_output_keeps_head_and_tail() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = ctx(dir.path());
    c.limits.max_lines = 10;
    let id = start(&c, "seq 1 1000").await;
    eventually("the end", || !info(&c, &id).status.is_running()).await;
    let text = read(&c, json!({"bash_id": id})).await;
    assert!(text.starts_with("1\n2\n"), "{text}");
    assert!(text.contains("\n1000\n"), "{text}");
    assert!(!text.contains("\n500\n"), "{text}");
    let path = info(&c, &id).output_path.display().to_string();
    assert!(
        text.ends_with(&format!(
            "[All output of bash_1 is in {path}; read or grep it for the cut part]\nstatus: exited with code 0"
        )),
        "{text}"
    );
    assert_eq!(
        std::fs::read_dir(dir.path().join("spill")).unwrap().count(),
        1
    );
}

#[test]
fn a_huge_backlog_is_read_as_head_and_tail() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("big.log");
    let mut big = vec![b'a'; usize::try_from(MAX_READ).unwrap()];
    big.extend_from_slice(&[b'b'; 10]);
    big.extend_from_slice(b"end");
    std::fs::write(&path, &big).unwrap();
    let (head, skipped, tail, next) = read_from(&path, 0, true).unwrap();
    assert_eq!(skipped, 13);
    assert_eq!(head.len() + tail.len(), big.len() - 13);
    assert!(head.starts_with('a') && tail.ends_with("bbbbbbbbbbend"));
    assert_eq!(next, big.len() as u64);
    let (head, skipped, _, next) = read_from(&path, next, true).unwrap();
    assert_eq!((head.as_str(), skipped, next), ("", 0, big.len() as u64));
}

/// A sandbox whose helper is `/bin/sh` running a script that logs the
/// policy and `exec`s the command, as in `bash_tests.rs`.
fn sandboxed_ctx(dir: &Path) -> ToolContext {
    let log = dir.join("helper.log");
    std::fs::write(
        dir.join(wright_sandbox::HELPER_ARG),
        format!(
            "printf '%s' \"$1\" > '{}'\n[ \"$2\" = -- ] || exit 99\nshift 2\nexec \"$@\"\n",
            log.display()
        ),
    )
    .unwrap();
    let mut c = ctx(dir);
    let policy = wright_sandbox::SandboxPolicy::workspace_write(vec![dir.to_path_buf()]);
    c.sandbox = Some(wright_sandbox::SandboxContext::new(
        policy,
        "/bin/sh".into(),
    ));
    c
}

/// Polls `cond` for up to three seconds: much longer than [`SWEEP_EVERY`].
async fn within_3s(what: &str, mut cond: impl FnMut() -> bool) {
    for _ in 0..150 {
        if cond() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("timed out waiting for {what}");
}

/// A temporary repository (a `.git` directory) with [`sandboxed_ctx`].
fn sandboxed_repo() -> (tempfile::TempDir, ToolContext) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join(".git")).unwrap();
    let c = sandboxed_ctx(dir.path());
    (dir, c)
}

#[tokio::test]
async fn sandboxed_jobs_run_through_the_helper_and_plants_go_while_they_run() {
    let (dir, c) = sandboxed_repo();
    let planted = dir.path().join(".git/commondir");
    let id = start(
        &c,
        "echo \"$0\"; echo ../x > .git/commondir; touch planted; \
         while [ ! -e go ]; do sleep 0.05; done",
    )
    .await;
    eventually("the plant", || dir.path().join("planted").exists()).await;
    let logged = std::fs::read_to_string(dir.path().join("helper.log")).unwrap();
    let mut policy = wright_sandbox::SandboxPolicy::from_json(&logged).unwrap();
    // The session's secret search adds what this machine's home holds
    // (a `~/.npmrc`, keys): hidden on top of the policy given.
    policy.hidden.clear();
    assert_eq!(policy, c.sandbox.as_ref().unwrap().policy);
    within_3s("the plant to be swept", || !planted.exists()).await;
    assert_eq!(info(&c, &id).status, JobStatus::Running);
    let text = read(&c, json!({"bash_id": id})).await;
    assert!(text.starts_with("bash\n"), "{text}");
    assert!(
        text.contains("commondir, which the command created"),
        "{text}"
    );
    assert!(text.ends_with("status: running"), "{text}");
    std::fs::write(dir.path().join("go"), "").unwrap();
    eventually("the end", || !info(&c, &id).status.is_running()).await;
    assert!(!planted.exists());
    assert_eq!(
        read(&c, json!({"bash_id": id})).await,
        "(no new output)\nstatus: exited with code 0"
    );
}

#[tokio::test]
async fn sweep_removes_plants_at_once() {
    let (dir, c) = sandboxed_repo();
    let id = start(&c, "while [ ! -e go ]; do sleep 0.05; done").await;
    let planted = dir.path().join(".git/gitdir");
    // The periodic sweep may win a race now and then; not three times.
    let mut said = Vec::new();
    for _ in 0..3 {
        std::fs::write(&planted, "../x").unwrap();
        said.extend(c.jobs.sweep());
        assert!(!planted.exists());
    }
    assert!(!said.is_empty());
    assert!(
        said.iter()
            .all(|l| l.contains("gitdir, which the command created")),
        "{said:?}"
    );
    assert!(printed(&c, &id, "gitdir, which the command created"));
    assert_eq!(info(&c, &id).status, JobStatus::Running);
    assert!(c.jobs.sweep().is_empty());
    std::fs::write(dir.path().join("go"), "").unwrap();
    eventually("the end", || !info(&c, &id).status.is_running()).await;
    // An ended job's guard is done: what appears later is not its doing.
    std::fs::write(&planted, "../x").unwrap();
    assert!(c.jobs.sweep().is_empty());
    assert!(planted.exists());
}

#[tokio::test]
async fn a_legit_commondir_is_never_removed() {
    let (dir, c) = sandboxed_repo();
    let commondir = dir.path().join(".git/commondir");
    std::fs::write(&commondir, "../..\n").unwrap();
    // `gitdir`, absent before, shows when a periodic sweep has run.
    let id = start(
        &c,
        "echo ../x > .git/gitdir; touch planted; while [ ! -e go ]; do sleep 0.05; done",
    )
    .await;
    eventually("the plant", || dir.path().join("planted").exists()).await;
    within_3s("a periodic sweep", || {
        !dir.path().join(".git/gitdir").exists()
    })
    .await;
    assert!(c.jobs.sweep().is_empty());
    assert_eq!(info(&c, &id).status, JobStatus::Running);
    c.jobs.kill_all().await;
    assert_eq!(info(&c, &id).status, JobStatus::Killed);
    assert_eq!(std::fs::read_to_string(&commondir).unwrap(), "../..\n");
    assert!(!printed(&c, &id, "commondir"));
}

#[tokio::test]
async fn kill_all_returns_after_the_final_cleanup() {
    let (dir, c) = sandboxed_repo();
    let planted = dir.path().join(".git/commondir");
    // Plants again and again, and ignores SIGTERM: only SIGKILL ends it.
    start(
        &c,
        "trap '' TERM; while :; do echo ../x > .git/commondir; touch planted; sleep 0.01; done",
    )
    .await;
    eventually("the plant", || dir.path().join("planted").exists()).await;
    c.jobs.kill_all().await;
    assert_eq!(info(&c, "bash_1").status, JobStatus::Killed);
    assert!(!planted.exists());
    assert!(printed(
        &c,
        "bash_1",
        "commondir, which the command created"
    ));
}
