use pretty_assertions::assert_eq;

use super::*;

fn def(event: HookEvent, matcher: Option<&str>, command: &str) -> HookDef {
    HookDef::new(event, matcher.map(str::to_owned), command, None, "test")
}

fn commands(hooks: &Hooks, event: HookEvent, target: Option<&str>) -> Vec<String> {
    hooks
        .matching(event, target)
        .into_iter()
        .map(|d| d.command.clone())
        .collect()
}

#[test]
fn plain_name_matches_exactly() {
    let (hooks, w) = Hooks::new(vec![def(HookEvent::PreToolUse, Some("Bash"), "a")]);
    assert!(w.is_empty());
    assert_eq!(commands(&hooks, HookEvent::PreToolUse, Some("Bash")), ["a"]);
    assert!(commands(&hooks, HookEvent::PreToolUse, Some("BashOutput")).is_empty());
    assert!(commands(&hooks, HookEvent::PreToolUse, Some("bash")).is_empty());
    assert!(commands(&hooks, HookEvent::PreToolUse, Some("MyBash")).is_empty());
    assert!(commands(&hooks, HookEvent::PreToolUse, None).is_empty());
    // Same matcher, other event: no.
    assert!(commands(&hooks, HookEvent::PostToolUse, Some("Bash")).is_empty());
}

/// Which of `targets` the single matcher `matcher` selects (PreToolUse).
fn selected<'a>(matcher: &str, targets: &[&'a str]) -> Vec<&'a str> {
    let (hooks, w) = Hooks::new(vec![def(HookEvent::PreToolUse, Some(matcher), "h")]);
    assert!(w.is_empty(), "{matcher:?}: {w:?}");
    targets
        .iter()
        .copied()
        .filter(|t| !hooks.matching(HookEvent::PreToolUse, Some(t)).is_empty())
        .collect()
}

const TOOLS: &[&str] = &[
    "Bash",
    "BashOutput",
    "KillBash",
    "Edit",
    "MultiEdit",
    "Write",
    "TodoWrite",
    "NotebookEdit",
    "NotebookRead",
    "Read",
    "mcp__fs__delete_file",
    "mcp__fs__read",
    "mcp__github__create_issue",
];

#[test]
fn names_of_letters_digits_underscores_and_pipes_match_exactly() {
    assert_eq!(selected("Bash", TOOLS), ["Bash"]);
    assert_eq!(selected("Edit", TOOLS), ["Edit"]);
    // A plain prefix is an exact name too, not a prefix match.
    assert!(selected("Notebook", TOOLS).is_empty());
    assert!(selected("mcp__fs", TOOLS).is_empty());
    assert_eq!(
        selected("mcp__fs__delete_file", TOOLS),
        ["mcp__fs__delete_file"]
    );
    // Case-sensitive.
    assert!(selected("bash", TOOLS).is_empty());
}

#[test]
fn pipe_lists_match_one_of_the_exact_names() {
    assert_eq!(selected("Edit|Write", TOOLS), ["Edit", "Write"]);
    assert_eq!(
        selected("Write|Edit|NotebookEdit", TOOLS),
        ["Edit", "Write", "NotebookEdit"]
    );
    assert_eq!(
        selected("Edit|MultiEdit|Write", TOOLS),
        ["Edit", "MultiEdit", "Write"]
    );
    // Empty names (a stray `|`) match nothing, not the empty target.
    assert_eq!(selected("Edit|", TOOLS), ["Edit"]);
    assert_eq!(selected("|", &["", "Bash"]), Vec::<&str>::new());
    let (hooks, _) = Hooks::new(vec![def(HookEvent::PreToolUse, Some("Edit||Write"), "h")]);
    assert!(hooks.matching(HookEvent::PreToolUse, None).is_empty());
}

#[test]
fn anything_else_is_an_unanchored_regex() {
    assert_eq!(selected("^Bash", TOOLS), ["Bash", "BashOutput"]);
    assert_eq!(selected("Output$", TOOLS), ["BashOutput"]);
    assert_eq!(selected("Bash$", TOOLS), ["Bash", "KillBash"]);
    assert_eq!(selected("^Bash$", TOOLS), ["Bash"]);
    assert_eq!(
        selected("^Notebook", TOOLS),
        ["NotebookEdit", "NotebookRead"]
    );
    assert_eq!(selected("mcp__.*__delete", TOOLS), ["mcp__fs__delete_file"]);
    assert_eq!(
        selected("mcp__.*", TOOLS),
        [
            "mcp__fs__delete_file",
            "mcp__fs__read",
            "mcp__github__create_issue"
        ]
    );
    assert_eq!(
        selected("mcp__github__.*", TOOLS),
        ["mcp__github__create_issue"]
    );
    // Alternation binds loosest and neither side is anchored: `Edit` is
    // found inside `MultiEdit` and `NotebookEdit`, `Write.*` inside
    // `TodoWrite`.
    assert_eq!(
        selected("Edit|Write.*", TOOLS),
        ["Edit", "MultiEdit", "Write", "TodoWrite", "NotebookEdit"]
    );
    // Anchoring the whole alternation gives exact names back.
    assert_eq!(selected("^(Edit|Write)$", TOOLS), ["Edit", "Write"]);
    // A regex sees no target as the empty name.
    let (hooks, _) = Hooks::new(vec![
        def(HookEvent::PreToolUse, Some("^$"), "empty"),
        def(HookEvent::PreToolUse, Some("^B"), "b"),
    ]);
    assert_eq!(commands(&hooks, HookEvent::PreToolUse, None), ["empty"]);
}

#[test]
fn surrounding_whitespace_is_ignored() {
    assert_eq!(selected(" Bash ", TOOLS), ["Bash"]);
    assert_eq!(selected(" ^Bash ", TOOLS), ["Bash", "BashOutput"]);
}

#[test]
fn js_only_regex_syntax_is_an_invalid_regex_warning() {
    for m in ["^(?!Bash)", "(?<=mcp__)fs", r"(a)\1"] {
        let (hooks, w) = Hooks::new(vec![
            HookDef::new(HookEvent::PreToolUse, Some(m.into()), "js", None, "user"),
            def(HookEvent::PreToolUse, None, "all"),
        ]);
        assert_eq!(w.len(), 1, "{m}: {w:?}");
        assert!(
            w[0].starts_with("user: ")
                && w[0].contains(&format!("{m:?}"))
                && w[0].contains("not a valid regex"),
            "{}",
            w[0]
        );
        assert!(!w[0].contains('\n'), "{}", w[0]);
        assert_eq!(
            commands(&hooks, HookEvent::PreToolUse, Some("Bash")),
            ["all"]
        );
    }
}

#[test]
fn absent_empty_and_star_match_everything() {
    let (hooks, w) = Hooks::new(vec![
        def(HookEvent::PostToolUse, None, "none"),
        def(HookEvent::PostToolUse, Some(""), "empty"),
        def(HookEvent::PostToolUse, Some("*"), "star"),
    ]);
    assert!(w.is_empty());
    for target in [Some("Bash"), Some("mcp__x__y"), None] {
        assert_eq!(
            commands(&hooks, HookEvent::PostToolUse, target),
            ["none", "empty", "star"]
        );
    }
}

#[test]
fn invalid_regex_is_a_warning_naming_the_source_and_the_hook_is_skipped() {
    let (hooks, w) = Hooks::new(vec![
        HookDef::new(
            HookEvent::PreToolUse,
            Some("Bash(".into()),
            "bad",
            None,
            "project settings (.claude/settings.json)",
        ),
        def(HookEvent::PreToolUse, Some("Bash"), "good"),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("project settings (.claude/settings.json): "),
        "{}",
        w[0]
    );
    assert!(
        w[0].contains("\"bad\"") && w[0].contains("Bash("),
        "{}",
        w[0]
    );
    assert!(!w[0].contains('\n'), "{}", w[0]);
    assert_eq!(
        commands(&hooks, HookEvent::PreToolUse, Some("Bash")),
        ["good"]
    );
    assert_eq!(hooks.defs().count(), 1);
}

#[test]
fn events_without_matchers_run_every_hook_and_warn_about_a_matcher() {
    let (hooks, w) = Hooks::new(vec![
        def(HookEvent::Stop, Some("Bash"), "a"),
        def(HookEvent::Stop, None, "b"),
        def(HookEvent::UserPromptSubmit, Some(""), "c"),
    ]);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("Stop") && w[0].contains("ignored"),
        "{}",
        w[0]
    );
    assert_eq!(commands(&hooks, HookEvent::Stop, None), ["a", "b"]);
    assert_eq!(commands(&hooks, HookEvent::Stop, Some("x")), ["a", "b"]);
    assert_eq!(commands(&hooks, HookEvent::UserPromptSubmit, None), ["c"]);
}

#[test]
fn non_tool_matchers() {
    let (hooks, _) = Hooks::new(vec![
        def(HookEvent::SessionStart, Some("startup|resume"), "start"),
        def(HookEvent::SessionStart, Some("compact"), "compact"),
        def(HookEvent::PreCompact, Some("auto"), "auto"),
        def(HookEvent::Notification, Some("idle_prompt"), "idle"),
        def(HookEvent::SessionEnd, Some("logout"), "bye"),
    ]);
    assert_eq!(
        commands(&hooks, HookEvent::SessionStart, Some("resume")),
        ["start"]
    );
    assert_eq!(
        commands(&hooks, HookEvent::SessionStart, Some("compact")),
        ["compact"]
    );
    assert!(commands(&hooks, HookEvent::SessionStart, Some("clear")).is_empty());
    assert_eq!(
        commands(&hooks, HookEvent::PreCompact, Some("auto")),
        ["auto"]
    );
    assert!(commands(&hooks, HookEvent::PreCompact, Some("manual")).is_empty());
    assert_eq!(
        commands(&hooks, HookEvent::Notification, Some("idle_prompt")),
        ["idle"]
    );
    assert_eq!(
        commands(&hooks, HookEvent::SessionEnd, Some("logout")),
        ["bye"]
    );
}

#[test]
fn identical_commands_of_one_event_run_once_at_their_first_place() {
    let (hooks, _) = Hooks::new(vec![
        HookDef::new(
            HookEvent::PreToolUse,
            Some("Bash".into()),
            "fmt",
            None,
            "user",
        ),
        def(HookEvent::PreToolUse, None, "lint"),
        HookDef::new(
            HookEvent::PreToolUse,
            Some("*".into()),
            "fmt",
            Some(5),
            "project",
        ),
        def(HookEvent::PostToolUse, None, "fmt"),
    ]);
    let m = hooks.matching(HookEvent::PreToolUse, Some("Bash"));
    assert_eq!(m.len(), 2);
    assert_eq!(
        (m[0].command.as_str(), m[0].source.as_str()),
        ("fmt", "user")
    );
    assert_eq!(m[1].command, "lint");
    // Where the first copy does not match, the second one does.
    let m = hooks.matching(HookEvent::PreToolUse, Some("Edit"));
    assert_eq!(
        m.iter().map(|d| d.source.as_str()).collect::<Vec<_>>(),
        ["test", "project"]
    );
    assert_eq!(
        commands(&hooks, HookEvent::PostToolUse, Some("Bash")),
        ["fmt"]
    );
}

#[test]
fn has_and_is_empty() {
    let (empty, _) = Hooks::new(Vec::new());
    assert!(empty.is_empty());
    assert!(!empty.has(HookEvent::Stop));
    let (hooks, _) = Hooks::new(vec![def(HookEvent::Stop, None, "a")]);
    assert!(!hooks.is_empty());
    assert!(hooks.has(HookEvent::Stop));
    assert!(!hooks.has(HookEvent::SubagentStop));
}

#[test]
fn hook_def_new_reads_seconds_and_treats_zero_as_default() {
    let d = HookDef::new(HookEvent::Stop, None, "x", Some(30), "s");
    assert_eq!(d.timeout, Some(std::time::Duration::from_secs(30)));
    assert_eq!(d.effective_timeout(), std::time::Duration::from_secs(30));
    let d = HookDef::new(HookEvent::Stop, None, "x", Some(0), "s");
    assert_eq!(d.timeout, None);
    assert_eq!(d.effective_timeout(), crate::hook::DEFAULT_TIMEOUT);
}
