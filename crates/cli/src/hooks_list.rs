//! `wright hooks list [--json]`: every hook a session here would run,
//! grouped by event, each with its matcher, command, time limit and the
//! file it came from, so the user can always learn whose command runs.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use wright_config::{ConfigLoader, Resolved};
use wright_hooks::hook::{HookDef, HookEvent, Hooks};

use crate::exit;
use crate::extensions;
use crate::render::escape_controls;

/// Prints the merged hooks (wright's config, then the imported Claude Code
/// settings) and the loader's warnings: on stderr as text, in the object
/// with `--json`.
pub fn list(loader: &ConfigLoader, resolved: &Resolved, project_root: &Path, as_json: bool) -> u8 {
    let loaded = extensions::load_hooks(resolved, project_root);
    let defs = in_event_order(&loaded.hooks);
    if as_json {
        println!("{}", to_json(&defs, &loaded.warnings));
        return exit::SUCCESS;
    }
    for warning in &loaded.warnings {
        eprintln!("warning: {warning}");
    }
    if defs.is_empty() {
        let mut files: Vec<PathBuf> = loader.files().into_iter().map(|(p, _)| p).collect();
        files.extend(loaded.claude_files);
        let files: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
        eprintln!("no hooks configured (looked in {})", files.join(", "));
    } else {
        print!("{}", render(&defs));
    }
    exit::SUCCESS
}

/// The hooks grouped by event in [`HookEvent::ALL`] order, config order
/// within an event (the order they run in).
fn in_event_order(hooks: &Hooks) -> Vec<&HookDef> {
    HookEvent::ALL
        .iter()
        .flat_map(|event| hooks.defs().filter(move |d| d.event == *event))
        .collect()
}

fn to_json(defs: &[&HookDef], warnings: &[String]) -> Value {
    let hooks: Vec<Value> = defs
        .iter()
        .map(|d| {
            json!({
                "event": d.event.as_str(),
                "matcher": d.matcher,
                "command": d.command,
                "timeout_secs": d.effective_timeout().as_secs(),
                "source": d.source,
            })
        })
        .collect();
    json!({"hooks": hooks, "warnings": warnings})
}

/// ```text
/// PreToolUse
///   [Edit|Write] ./scripts/check.sh
///       timeout 60s · user config (/home/me/.config/wright/config.toml)
/// ```
fn render(defs: &[&HookDef]) -> String {
    let mut out = String::new();
    let mut current: Option<HookEvent> = None;
    for def in defs {
        if current != Some(def.event) {
            current = Some(def.event);
            // Writing to a String cannot fail.
            let _ = writeln!(out, "{}", def.event);
        }
        let matcher = match def.matcher.as_deref().map(str::trim) {
            None | Some("") => "*",
            Some(m) => m,
        };
        // Commands come from files the user may not have written (a
        // trusted project's); they must not drive the terminal.
        let _ = writeln!(
            out,
            "  [{}] {}\n      timeout {}s · {}",
            escape_controls(matcher),
            escape_controls(&def.command),
            def.effective_timeout().as_secs(),
            escape_controls(&def.source)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn def(event: HookEvent, matcher: Option<&str>, command: &str) -> HookDef {
        HookDef::new(
            event,
            matcher.map(str::to_owned),
            command,
            None,
            "user config (/u/config.toml)",
        )
    }

    #[test]
    fn groups_by_event_in_the_documented_order() {
        let (hooks, warnings) = Hooks::new(vec![
            def(HookEvent::Stop, None, "make test"),
            def(HookEvent::PreToolUse, Some("Edit|Write"), "./check.sh"),
            def(HookEvent::Stop, None, "echo done"),
        ]);
        assert!(warnings.is_empty());
        let defs = in_event_order(&hooks);
        assert_eq!(
            render(&defs),
            "PreToolUse\n  [Edit|Write] ./check.sh\n      timeout 60s · user config (/u/config.toml)\n\
             Stop\n  [*] make test\n      timeout 60s · user config (/u/config.toml)\n  \
             [*] echo done\n      timeout 60s · user config (/u/config.toml)\n"
        );
        let value = to_json(&defs, &["w".to_owned()]);
        assert_eq!(value["hooks"][0]["event"], "PreToolUse");
        assert_eq!(value["hooks"][0]["matcher"], "Edit|Write");
        assert_eq!(value["hooks"][1]["matcher"], Value::Null);
        assert_eq!(value["hooks"][2]["timeout_secs"], 60);
        assert_eq!(value["warnings"][0], "w");
    }

    #[test]
    fn control_characters_are_shown_not_sent() {
        let (hooks, _) = Hooks::new(vec![def(HookEvent::Stop, None, "echo \x1b[2Jgone")]);
        let text = render(&in_event_order(&hooks));
        assert!(!text.contains('\x1b'), "{text:?}");
    }
}
