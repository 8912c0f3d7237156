//! Targets for permission rules and the command classifier.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use wright_permissions::{CallInfo, CanAsk, Engine, Mode, PolicyInput, Rule, RuleSet, Verdict};
use wright_protocol::Touches;

/// Permission rule parsing. Invariant: a parsed rule's text parses back to
/// the same rule.
pub fn permission_rule(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    if let Ok(rule) = text.parse::<Rule>() {
        let again: Rule = match rule.to_string().parse() {
            Ok(again) => again,
            Err(e) => panic!("`{rule}` does not parse back: {e}"),
        };
        assert_eq!(rule, again);
        for tool in ["bash", "read", "edit", "write", "mcp__x__y"] {
            assert_eq!(rule.covers_tool(tool), again.covers_tool(tool));
        }
    }
}

/// Modes from strictest to loosest for commands. (`default` is not in the
/// chain: it asks for commands that `plan` runs read-only.)
const MODES: [Mode; 3] = [Mode::Plan, Mode::Auto, Mode::Bypass];

/// One engine per mode in [`MODES`], with the same rules.
fn engines() -> &'static [Engine; 3] {
    static ENGINES: OnceLock<[Engine; 3]> = OnceLock::new();
    ENGINES.get_or_init(|| {
        let rules = RuleSet::parse(
            &["Bash(git diff:*)", "Bash(npm run test:*)", "Read(src/**)"],
            &["Bash(curl:*)"],
            &["Bash(rm:*)", "Read(.env*)"],
        )
        .unwrap_or_default();
        MODES.map(|mode| {
            Engine::new(PolicyInput {
                mode,
                rules: rules.clone(),
                workspace_roots: vec![PathBuf::from("/fuzz/ws")],
                can_ask: CanAsk::Yes,
                home: Some(PathBuf::from("/fuzz/home")),
                temp_roots: vec![PathBuf::from("/fuzz/tmp")],
                commands: wright_permissions::CommandConfinement::AsConfigured,
            })
        })
    })
}

/// The command classifier: the bash parser, the permission engine's
/// verdict on a `bash` call in each mode, and the tool's destructive
/// command guard. Invariant: a mode never allows what a stricter mode with
/// the same rules does not (plan ⊆ auto ⊆ bypass).
pub fn command(data: &[u8]) {
    let command = String::from_utf8_lossy(data);
    let _ = wright_shell::parse(&command);
    let _ = wright_shell::guard::check_command(&command);
    let touches = Touches::command(command.clone());
    let call = CallInfo {
        tool: "Bash",
        touches: &touches,
        cwd: Path::new("/fuzz/ws"),
    };
    let mut allowed_before = false;
    for (engine, mode) in engines().iter().zip(MODES) {
        let allowed = matches!(engine.check(&call), Verdict::Allow);
        assert!(
            allowed || !allowed_before,
            "{command:?}: a stricter mode allows it, {mode:?} does not"
        );
        allowed_before = allowed;
    }
}
