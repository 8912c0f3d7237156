use super::*;
use serde_json::json;
use std::sync::{Arc, Mutex};

fn ctx(dir: &std::path::Path) -> ToolContext {
    ToolContext::new(dir, dir.join("spill"))
}

#[tokio::test]
async fn runs_in_cwd_and_reports_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("marker.txt"), "").unwrap();
    let out = BashTool
        .run(
            json!({"command": "ls; echo err >&2; exit 3", "description": "x"}),
            &ctx(dir.path()),
        )
        .await
        .unwrap();
    assert!(out.content.contains("marker.txt"), "{}", out.content);
    assert!(out.content.contains("err\n"), "{}", out.content);
    assert!(out.content.ends_with("exit code 3"), "{}", out.content);
    assert_eq!(out.display.exit_code, Some(3));
    assert_eq!(out.display.summary, "exit 3");
}

#[tokio::test]
async fn no_output_is_said() {
    let dir = tempfile::tempdir().unwrap();
    let out = BashTool
        .run(json!({"command": "true"}), &ctx(dir.path()))
        .await
        .unwrap();
    assert_eq!(out.content, "(no output)\nexit code 0");
}

#[tokio::test]
async fn streams_to_sink() {
    let dir = tempfile::tempdir().unwrap();
    let seen = Arc::new(Mutex::new(String::new()));
    let s2 = seen.clone();
    let mut c = ctx(dir.path());
    c.output = Some(Arc::new(move |chunk: &str| {
        s2.lock().unwrap().push_str(chunk)
    }));
    BashTool
        .run(
            json!({"command": "echo one; echo two >&2; printf 'é日'"}),
            &c,
        )
        .await
        .unwrap();
    assert_eq!(*seen.lock().unwrap(), "one\ntwo\né日");
}

#[tokio::test]
async fn large_output_is_truncated_and_spilled() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = ctx(dir.path());
    c.limits.max_lines = 20;
    let out = BashTool
        .run(json!({"command": "seq 1 1000"}), &c)
        .await
        .unwrap();
    assert!(out.content.starts_with("1\n2\n"), "{}", out.content);
    assert!(out.content.contains("1000\n"), "{}", out.content);
    assert!(!out.content.contains("\n500\n"));
    assert!(out.content.contains("lines"));
    let path = out.display.full_output_path.clone().unwrap();
    assert!(out.content.contains(&path));
    let full = std::fs::read_to_string(&path).unwrap();
    assert_eq!(full.lines().count(), 1000);
    assert!(path.starts_with(&dir.path().join("spill").display().to_string()));
}

#[tokio::test]
async fn timeout_kills_the_group() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = ctx(dir.path());
    c.limits.bash_max_timeout = Duration::from_secs(1);
    // The background child would keep the pipe open if the group survived.
    let out = BashTool
        .run(
            json!({"command": "echo started; sleep 30 & sleep 30", "timeout": 100000}),
            &c,
        )
        .await
        .unwrap();
    assert!(out.content.contains("started"));
    assert!(
        out.content.contains("timed out after 1 s"),
        "{}",
        out.content
    );
    assert_eq!(out.display.exit_code, None);
}

#[tokio::test]
async fn cancel_kills_and_reports_cancelled() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = ctx(dir.path());
    let cancel = c.cancel.clone();
    // Cancel as soon as the command has visibly started.
    c.output = Some(Arc::new(move |_: &str| cancel.cancel()));
    let err = BashTool
        .run(json!({"command": "echo go; sleep 30"}), &c)
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::Cancelled));
}

#[tokio::test]
async fn already_cancelled_does_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let c = ctx(dir.path());
    c.cancel.cancel();
    let err = BashTool
        .run(json!({"command": "touch ran"}), &c)
        .await
        .unwrap_err();
    assert!(matches!(err, ToolError::Cancelled));
    assert!(!dir.path().join("ran").exists());
}

#[tokio::test]
async fn background_job_does_not_hang_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let out = BashTool
        .run(json!({"command": "sleep 30 & echo done"}), &ctx(dir.path()))
        .await
        .unwrap();
    assert!(out.content.contains("done\nexit code 0"), "{}", out.content);
}

#[tokio::test]
async fn guard_blocks_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let err = BashTool
        .run(
            json!({"command": "touch ran && rm -rf /"}),
            &ctx(dir.path()),
        )
        .await
        .unwrap_err();
    assert!(
        err.to_string()
            .starts_with("Blocked by guard: recursive rm"),
        "{err}"
    );
    assert!(!dir.path().join("ran").exists());
}

#[tokio::test]
async fn invalid_args() {
    let dir = tempfile::tempdir().unwrap();
    for args in [
        json!({}),
        json!({"command": ""}),
        json!({"command": "ls", "timeout": "x"}),
    ] {
        let err = BashTool.run(args, &ctx(dir.path())).await.unwrap_err();
        assert!(matches!(err, ToolError::InvalidArgs(_)), "{err}");
    }
}

/// A context whose sandbox "helper" is `/bin/sh` reading a script named
/// `__sandbox-exec` in the cwd: it logs the policy and `exec`s the command
/// like the real helper, without executing a freshly written file (which
/// races with concurrent forks into ETXTBSY). The real helper is tested in
/// the wright-sandbox crate.
fn sandboxed_ctx(dir: &std::path::Path, mode: wright_sandbox::SandboxMode) -> ToolContext {
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
    let mut policy = wright_sandbox::SandboxPolicy::workspace_write(vec![dir.to_path_buf()]);
    policy.mode = mode;
    c.sandbox = Some(wright_sandbox::SandboxContext::new(
        policy,
        "/bin/sh".into(),
    ));
    c
}

const DENIED: &str = "echo \"touch: cannot touch '/srv/x': Permission denied\" >&2; exit 1";

#[tokio::test]
async fn sandboxed_commands_go_through_the_helper() {
    use wright_sandbox::SandboxMode;
    let dir = tempfile::tempdir().unwrap();
    let c = sandboxed_ctx(dir.path(), SandboxMode::WorkspaceWrite);
    let out = BashTool
        .run(json!({"command": "echo \"$0\"; pwd"}), &c)
        .await
        .unwrap();
    assert!(out.content.starts_with("bash\n"), "{}", out.content);
    assert!(out.content.ends_with("exit code 0"), "{}", out.content);
    let logged = std::fs::read_to_string(dir.path().join("helper.log")).unwrap();
    let mut policy = wright_sandbox::SandboxPolicy::from_json(&logged).unwrap();
    // The session's secret search adds what this machine's home holds
    // (a `~/.npmrc`, keys): hidden on top of the policy given.
    policy.hidden.clear();
    assert_eq!(policy, c.sandbox.as_ref().unwrap().policy);
}

#[tokio::test]
async fn sandbox_denials_are_explained_to_the_model() {
    use wright_sandbox::SandboxMode;
    let dir = tempfile::tempdir().unwrap();
    let c = sandboxed_ctx(dir.path(), SandboxMode::WorkspaceWrite);
    let out = BashTool.run(json!({"command": DENIED}), &c).await.unwrap();
    assert!(
        out.content
            .ends_with("exit code 1\nBlocked by sandbox: the command tried to write outside the workspace — ask the user for wider permission (`--sandbox full` or an extra writable root) instead of working around it."),
        "{}",
        out.content
    );
    let out = BashTool
        .run(
            json!({"command": "echo 'bash: socket: Operation not permitted' >&2; exit 1"}),
            &c,
        )
        .await
        .unwrap();
    assert!(out.content.contains("network = true"), "{}", out.content);
}

#[tokio::test]
async fn no_sandbox_hint_without_a_sandbox_or_in_full_mode() {
    let dir = tempfile::tempdir().unwrap();
    let full = sandboxed_ctx(dir.path(), wright_sandbox::SandboxMode::Full);
    for c in [ctx(dir.path()), full] {
        let out = BashTool.run(json!({"command": DENIED}), &c).await.unwrap();
        assert!(out.content.ends_with("exit code 1"), "{}", out.content);
    }
}

#[tokio::test]
async fn timeout_kills_the_group_through_the_helper() {
    let dir = tempfile::tempdir().unwrap();
    let mut c = sandboxed_ctx(dir.path(), wright_sandbox::SandboxMode::WorkspaceWrite);
    c.limits.bash_max_timeout = Duration::from_secs(1);
    let out = BashTool
        .run(
            json!({"command": "echo started; sleep 30 & sleep 30", "timeout": 100000}),
            &c,
        )
        .await
        .unwrap();
    assert!(out.content.contains("started"), "{}", out.content);
    assert!(
        out.content.contains("timed out after 1 s"),
        "{}",
        out.content
    );
    assert!(
        !out.content.contains("Blocked by sandbox"),
        "{}",
        out.content
    );
}

/// The edit tools ask whether a command is alive before they let an editor
/// write by path; a foreground command counts while it runs.
#[tokio::test]
async fn a_foreground_command_counts_as_alive_while_it_runs() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    assert!(ctx.jobs.quiet().is_some());
    let run = BashTool.run(json!({"command": "sleep 1"}), &ctx);
    let probe = async {
        for _ in 0..200 {
            if ctx.jobs.quiet().is_none() {
                return true;
            }
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
        false
    };
    let (out, seen) = tokio::join!(run, probe);
    out.unwrap();
    assert!(seen);
    assert!(ctx.jobs.quiet().is_some());
}

/// While an editor write holds the session quiet, a new command waits for
/// it instead of starting (it could otherwise race the editor's write).
#[tokio::test]
async fn a_command_waits_for_an_editor_write_in_flight() {
    let dir = tempfile::tempdir().unwrap();
    let ctx = ctx(dir.path());
    let quiet = ctx.jobs.quiet().unwrap();
    let run = BashTool.run(json!({"command": "true"}), &ctx);
    tokio::pin!(run);
    let early = tokio::time::timeout(std::time::Duration::from_millis(300), &mut run).await;
    assert!(early.is_err(), "the command ran during the editor write");
    drop(quiet);
    run.await.unwrap();
}
