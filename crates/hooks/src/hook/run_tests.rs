//! Running real hooks (tiny bash commands in a temp project directory):
//! process handling, timeouts, cancel, environment, parallelism, matching.

use std::time::{Duration, Instant};

use pretty_assertions::assert_eq;

use super::*;
use crate::hook::outcome::short_duration;
use crate::hook::{HookEvent, SessionStartSource};

use super::super::test_fx::*;

/// True while `pid` exists and is not a zombie.
fn alive(pid: &str) -> bool {
    match std::fs::read_to_string(format!("/proc/{}/stat", pid.trim())) {
        // The state letter follows the parenthesised command name.
        Ok(stat) => !stat
            .rsplit_once(") ")
            .is_some_and(|(_, rest)| rest.starts_with('Z') || rest.starts_with('X')),
        Err(_) => false,
    }
}

async fn gone_soon(pid: &str) -> bool {
    for _ in 0..50 {
        if !alive(pid) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn timeout_kills_the_whole_group() {
    let dir = project();
    let pids = dir.path().join("pids");
    let cmd = format!(
        "echo $$ > '{p}'; sleep 30 & echo $! >> '{p}'; wait",
        p = pids.display()
    );
    let mut d = def(HookEvent::PreToolUse, &cmd);
    d.timeout = Some(Duration::from_secs(1));
    let started = Instant::now();
    let r = run(dir.path(), vec![d], &bash_call("ls")).await;
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.outcomes[0].result, HookResult::TimedOut);
    assert_eq!(r.warnings.len(), 1);
    assert!(r.warnings[0].contains("timed out"), "{}", r.warnings[0]);
    let pids = read(&pids);
    let pids: Vec<&str> = pids.lines().collect();
    assert_eq!(pids.len(), 2, "{pids:?}");
    for pid in pids {
        assert!(gone_soon(pid).await, "process {pid} survived the timeout");
    }
}

#[tokio::test]
async fn cancel_kills_and_reports_cancelled() {
    let dir = project();
    let pid = dir.path().join("pid");
    let cmd = format!("sleep 30 & echo $! > '{}'; wait", pid.display());
    let (hooks, _) = Hooks::new(vec![def(HookEvent::PreToolUse, &cmd)]);
    let cancel = CancellationToken::new();
    let trigger = cancel.clone();
    let pid_file = pid.clone();
    tokio::spawn(async move {
        // Cancel once the hook is surely running.
        for _ in 0..100 {
            if pid_file.exists() {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        trigger.cancel();
    });
    let started = Instant::now();
    let r = hooks
        .run(
            &common(dir.path()),
            &bash_call("ls"),
            &HookEnv::new(dir.path()),
            &cancel,
        )
        .await;
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(r.outcomes[0].result, HookResult::Cancelled);
    assert!(r.warnings.is_empty());
    assert!(gone_soon(&read(&pid)).await);

    // Already cancelled: nothing starts.
    let marker = dir.path().join("ran");
    let cmd = format!("touch '{}'", marker.display());
    let (hooks, _) = Hooks::new(vec![def(HookEvent::PreToolUse, &cmd)]);
    let r = hooks
        .run(
            &common(dir.path()),
            &bash_call("ls"),
            &HookEnv::new(dir.path()),
            &cancel,
        )
        .await;
    assert_eq!(r.outcomes[0].result, HookResult::Cancelled);
    assert!(!marker.exists());
}

#[tokio::test]
async fn missing_and_crashing_hooks_are_warnings() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![
            def(HookEvent::PreToolUse, "/nonexistent"),
            def(HookEvent::PreToolUse, "echo 'something broke' >&2; exit 1"),
        ],
        &bash_call("ls"),
    )
    .await;
    assert_eq!(r.denied(), None);
    assert_eq!(r.warnings.len(), 2, "{:?}", r.warnings);
    assert!(
        r.warnings[0].starts_with("hook \"/nonexistent\" (PreToolUse) exited 127: "),
        "{}",
        r.warnings[0]
    );
    assert_eq!(
        r.warnings[1],
        "hook \"echo 'something broke' >&2; exit 1\" (PreToolUse) exited 1: something broke"
    );
    assert!(matches!(
        r.outcomes[1].result,
        HookResult::Failed { code: Some(1), .. }
    ));
}

#[tokio::test]
async fn a_missing_project_dir_is_a_spawn_error() {
    let dir = project();
    let (hooks, _) = Hooks::new(vec![def(HookEvent::Stop, "true")]);
    let r = hooks
        .run(
            &common(dir.path()),
            &HookPayload::Stop {
                stop_hook_active: false,
            },
            &HookEnv::new(dir.path().join("nope")),
            &CancellationToken::new(),
        )
        .await;
    assert!(matches!(r.outcomes[0].result, HookResult::SpawnError(_)));
    assert!(
        r.warnings[0].contains("could not start"),
        "{}",
        r.warnings[0]
    );
    assert_eq!(
        r.describe(),
        [format!(
            "Stop hook \"true\" {}: error",
            short_duration(r.outcomes[0].duration)
        )]
    );
}

#[tokio::test]
async fn hooks_of_one_event_run_in_parallel() {
    let dir = project();
    // Each waits (up to 10 s) for the other's file: both succeed only if
    // they run at the same time.
    let wait_for = |mine: &str, theirs: &str| {
        format!(
            "touch {mine}; for i in $(seq 100); do [ -e {theirs} ] && exit 0; sleep 0.1; done; exit 1"
        )
    };
    let r = run(
        dir.path(),
        vec![
            def(HookEvent::PreToolUse, &wait_for("a.flag", "b.flag")),
            def(HookEvent::PreToolUse, &wait_for("b.flag", "a.flag")),
        ],
        &bash_call("ls"),
    )
    .await;
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    assert!(
        r.outcomes
            .iter()
            .all(|o| matches!(o.result, HookResult::Success { .. }))
    );
}

#[tokio::test]
async fn env_has_project_dir_and_lacks_removed_vars() {
    let dir = project();
    // A variable this test process surely has; removing it must hide it.
    let Some(secret) = std::env::vars()
        .map(|(k, _)| k)
        .find(|k| k != "PATH" && k.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
    else {
        panic!("the test process has no environment variables");
    };
    let cmd = format!(
        r#"printf '%s\n%s\n%s\n%s\n' "$WRIGHT_PROJECT_DIR" "$CLAUDE_PROJECT_DIR" "$PWD" "${{{secret}-unset}}" > env.txt"#
    );
    let (hooks, _) = Hooks::new(vec![def(HookEvent::Stop, &cmd)]);
    let mut env = HookEnv::new(dir.path());
    env.remove_vars = vec![secret.clone()];
    let r = hooks
        .run(
            &common(dir.path()),
            &HookPayload::Stop {
                stop_hook_active: false,
            },
            &env,
            &CancellationToken::new(),
        )
        .await;
    assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    let d = dir.path().display().to_string();
    assert_eq!(
        read(&dir.path().join("env.txt")),
        format!("{d}\n{d}\n{d}\nunset\n")
    );
}

#[tokio::test]
async fn identical_commands_run_once() {
    let dir = project();
    let cmd = "echo x >> count.txt";
    let r = run(
        dir.path(),
        vec![
            HookDef::new(HookEvent::Stop, None, cmd, None, "user"),
            HookDef::new(HookEvent::Stop, None, cmd, None, "project"),
        ],
        &HookPayload::Stop {
            stop_hook_active: false,
        },
    )
    .await;
    assert_eq!(r.outcomes.len(), 1);
    assert_eq!(read(&dir.path().join("count.txt")), "x\n");
}

#[tokio::test]
async fn only_matching_hooks_run() {
    let dir = project();
    let r = run(
        dir.path(),
        vec![
            HookDef::new(
                HookEvent::PreToolUse,
                Some("Edit|Write".into()),
                "touch edit",
                None,
                "t",
            ),
            HookDef::new(
                HookEvent::PreToolUse,
                Some("Bash".into()),
                "touch bash",
                None,
                "t",
            ),
        ],
        &bash_call("ls"),
    )
    .await;
    assert_eq!(r.outcomes.len(), 1);
    assert!(dir.path().join("bash").exists());
    assert!(!dir.path().join("edit").exists());
    let r = run(dir.path(), Vec::new(), &bash_call("ls")).await;
    assert_eq!(r, HookRun::empty(HookEvent::PreToolUse));
}

#[tokio::test]
async fn huge_output_is_capped_and_unread_stdin_is_fine() {
    let dir = project();
    let big_prompt = HookPayload::UserPromptSubmit {
        prompt: "p".repeat(2 * 1024 * 1024),
    };
    let r = run(
        dir.path(),
        vec![def(
            HookEvent::UserPromptSubmit,
            "head -c 3000000 /dev/zero | tr '\\0' a; head -c 2000000 /dev/zero >&2",
        )],
        &big_prompt,
    )
    .await;
    let HookResult::Success { stdout } = &r.outcomes[0].result else {
        panic!("{:?}", r.outcomes[0].result);
    };
    assert_eq!(stdout.len(), OUTPUT_CAP);
}

#[tokio::test]
async fn a_background_job_holding_the_pipes_does_not_hold_the_hook() {
    let dir = project();
    let started = Instant::now();
    let r = run(
        dir.path(),
        vec![def(HookEvent::SessionStart, "sleep 3 & echo started")],
        &HookPayload::SessionStart {
            source: SessionStartSource::Startup,
        },
    )
    .await;
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(r.additional_context, ["started"]);
}
