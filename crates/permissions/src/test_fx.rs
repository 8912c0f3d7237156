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
        touches: &touches("bash", ToolKind::Exec, &args),
        cwd: &f.ws,
    })
}

/// What a call of `tool` with `args` touches, as the built-in tools say it
/// (the tests here name tools and arguments; the engine sees only this).
pub(crate) fn touches(
    tool: &str,
    kind: ToolKind,
    args: &serde_json::Value,
) -> wright_protocol::Touches {
    use wright_protocol::Touches;
    let s = |k: &str| args.get(k).and_then(|v| v.as_str()).map(str::to_owned);
    let lower = tool.to_ascii_lowercase();
    let mut t = match lower.as_str() {
        "bash" => Touches::command(s("command").unwrap_or_default()),
        "edit" | "write" | "multiedit" | "notebookedit" => {
            match s("file_path").or_else(|| s("path")) {
                Some(p) => Touches::write(p),
                None => Touches::of(kind),
            }
        }
        "read" | "glob" | "grep" | "ls" => Touches::read(
            s("file_path")
                .or_else(|| s("path"))
                .unwrap_or_else(|| ".".to_owned()),
        ),
        "webfetch" | "web_fetch" | "fetch" => Touches::fetch(s("url").unwrap_or_default()),
        _ => Touches::of(kind),
    };
    t.kind = kind;
    t.own_job = lower == "killshell";
    t
}
