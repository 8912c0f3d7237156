//! Helpers shared by the tests that run real hooks: a temp project, the
//! common input, a `Bash` call, and one run of a set of hooks.

use std::path::Path;

use serde_json::json;
use tempfile::TempDir;
use tokio_util::sync::CancellationToken;

use super::*;

pub(crate) fn project() -> TempDir {
    match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => panic!("tempdir: {e}"),
    }
}

pub(crate) fn common(dir: &Path) -> HookCommon {
    HookCommon {
        session_id: "sess-9".into(),
        transcript_path: dir.join("t.jsonl"),
        cwd: dir.to_path_buf(),
        permission_mode: "acceptEdits".into(),
    }
}

pub(crate) fn bash_call(cmd: &str) -> HookPayload {
    HookPayload::PreToolUse {
        tool_name: "Bash".into(),
        tool_input: json!({"command": cmd}),
        tool_use_id: "toolu_9".into(),
    }
}

pub(crate) fn def(event: HookEvent, command: &str) -> HookDef {
    HookDef::new(event, None, command, Some(20), "test settings")
}

pub(crate) async fn run(dir: &Path, defs: Vec<HookDef>, payload: &HookPayload) -> HookRun {
    let (hooks, warnings) = Hooks::new(defs);
    assert!(warnings.is_empty(), "{warnings:?}");
    hooks
        .run(
            &common(dir),
            payload,
            &HookEnv::new(dir),
            &CancellationToken::new(),
        )
        .await
}

pub(crate) fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| format!("<cannot read {}: {e}>", path.display()))
}
