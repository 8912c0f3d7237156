//! The engine fixture the generated and review test tables share: a
//! workspace, a temp dir and a home under one temp dir, an engine for a
//! mode and rules, and one bash check.

use std::path::PathBuf;

use serde_json::json;
use wright_protocol::ToolKind;

use crate::{CallInfo, CanAsk, Engine, Mode, PolicyInput, RuleSet, Verdict};

/// The directories a check runs against.
pub(crate) struct Fx {
    _dir: tempfile::TempDir,
    pub(crate) ws: PathBuf,
    pub(crate) tmp: PathBuf,
    pub(crate) home: PathBuf,
}

pub(crate) fn fx() -> Fx {
    let dir = tempfile::tempdir().unwrap();
    let base = std::fs::canonicalize(dir.path()).unwrap();
    let (ws, tmp, home) = (base.join("ws"), base.join("tmp"), base.join("home"));
    for d in [&ws, &tmp, &home, &ws.join("src")] {
        std::fs::create_dir_all(d).unwrap();
    }
    Fx {
        _dir: dir,
        ws,
        tmp,
        home,
    }
}

pub(crate) fn engine(f: &Fx, mode: Mode, allow: &[&str], deny: &[&str]) -> Engine {
    Engine::new(PolicyInput {
        mode,
        rules: RuleSet::parse(allow, &[] as &[&str], deny).unwrap(),
        workspace_roots: vec![f.ws.clone()],
        can_ask: CanAsk::Yes,
        home: Some(f.home.clone()),
        temp_roots: vec![f.tmp.clone()],
        commands: crate::CommandConfinement::AsConfigured,
    })
}

pub(crate) fn check(e: &Engine, f: &Fx, cmd: &str) -> Verdict {
    let args = json!({ "command": cmd });
    e.check(&CallInfo {
        tool: "bash",
        kind: ToolKind::Exec,
        args: &args,
        cwd: &f.ws,
    })
}
