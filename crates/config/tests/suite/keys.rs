//! The reasoning, permission, sandbox, context and model keys across
//! layers: lists append, model tables merge field by field, relative paths
//! resolve per file, and flags and the environment reach them.

use std::path::PathBuf;

use wright_config::{
    ConfigError, Origin, Overrides, ReasoningEffort, SandboxMode, Settings, Source,
};

use super::Fixture;

#[test]
fn permission_lists_append_across_layers_then_flags() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "[permissions]\nallow = [\"Read\", \"Bash(git diff)\"]\ndeny = [\"Read(.env*)\"]\n",
    );
    fx.write(
        &fx.project_file(),
        "[permissions]\nallow = [\"Bash(npm run test:*)\", \"Read\"]\nask = [\"Bash(git push:*)\"]\n",
    );
    fx.write(&fx.local_file(), "[permissions]\nallow = []\n");
    // The project's allow rules count only once it is trusted (trust.rs).
    let trusted = Overrides {
        trust_project: true,
        ..Overrides::default()
    };
    let overrides = Overrides {
        allow: vec!["Edit(src/**)".into(), "Read".into()],
        deny: vec!["Bash(rm:*)".into()],
        ..trusted.clone()
    };
    let r = fx.loader(&[]).load(&overrides).unwrap();
    let p = &r.settings.permissions;
    assert_eq!(
        p.allow,
        vec![
            "Read",
            "Bash(git diff)",
            "Bash(npm run test:*)",
            "Edit(src/**)"
        ]
    );
    assert_eq!(p.ask, vec!["Bash(git push:*)"]);
    assert_eq!(p.deny, vec!["Read(.env*)", "Bash(rm:*)"]);
    assert_eq!(
        r.source("permissions.allow"),
        Some(&Source::Flag("--allow".into()))
    );
    assert_eq!(
        r.source("permissions.ask"),
        Some(&Source::File(fx.project_file()))
    );
    assert_eq!(
        r.source("permissions.deny"),
        Some(&Source::Flag("--deny".into()))
    );

    // Without flags, the empty local list takes no credit.
    let r = fx.loader(&[]).load(&trusted).unwrap();
    assert_eq!(
        r.source("permissions.allow"),
        Some(&Source::File(fx.project_file()))
    );
}

#[test]
fn roots_resolve_per_file_and_append() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "[permissions]\nadditional_roots = [\"shared\"]\n[sandbox]\nwritable_roots = [\"/abs/cache\"]\n\
         [context]\nskill_dirs = [\"skills\"]\nuser_instruction_files = [\"AGENTS.md\"]\n",
    );
    fx.write(
        &fx.project_file(),
        "[permissions]\nadditional_roots = [\"../sibling\"]\n[sandbox]\nwritable_roots = [\"target\"]\n",
    );
    fx.write(
        &fx.local_file(),
        "[permissions]\nadditional_roots = [\"../sibling\"]\n",
    );
    let trusted = Overrides {
        trust_project: true,
        ..Overrides::default()
    };
    let r = fx.loader(&[]).load(&trusted).unwrap();
    let s = &r.settings;
    assert_eq!(
        s.permissions.additional_roots,
        vec![fx.user.join("shared"), fx.project.join("../sibling")]
    );
    assert_eq!(
        s.sandbox.writable_roots,
        vec![PathBuf::from("/abs/cache"), fx.project.join("target")]
    );
    assert_eq!(s.context.skill_dirs, vec![fx.user.join("skills")]);
    assert_eq!(
        s.context.user_instruction_files,
        vec![fx.user.join("AGENTS.md")]
    );
    // The duplicate in the local file added nothing.
    assert_eq!(
        r.source("permissions.additional_roots"),
        Some(&Source::File(fx.local_file()))
    );
}

#[test]
fn non_list_keys_are_replaced_by_higher_layers() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "reasoning_effort = \"low\"\nthinking_budget = 2048\n[sandbox]\nmode = \"read-only\"\nnetwork = true\n\
         [context]\nskill_dirs = [\"/a\"]\nauto_compact = false\ncompact_margin_percent = 20\n",
    );
    fx.write(
        &fx.project_file(),
        "[context]\nskill_dirs = [\"/b\"]\nkeep_recent_tokens = 5000\ninstruction_budget = 2000\n\
         user_memory = true\n[sandbox]\nnetwork = false\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    let s = &r.settings;
    assert_eq!(s.reasoning_effort, Some(ReasoningEffort::Low));
    assert_eq!(s.thinking_budget, Some(2048));
    assert_eq!(s.sandbox.mode, SandboxMode::ReadOnly);
    assert!(!s.sandbox.network);
    assert_eq!(
        r.source("sandbox.network"),
        Some(&Source::File(fx.project_file()))
    );
    assert_eq!(s.context.skill_dirs, vec![PathBuf::from("/b")]);
    assert!(!s.context.auto_compact);
    assert!(s.context.user_memory);
    assert_eq!(s.context.keep_recent_tokens, Some(5000));
    assert_eq!(s.context.instruction_budget, 2000);
    assert_eq!(s.context.compact_margin_percent, 20);
}

#[test]
fn model_tables_merge_field_by_field() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "[models.\"my-local-model\"]\ncontext_window = 32768\ninput_price = 1.0\n\
         [models.zeta]\nmax_output = 10\n",
    );
    fx.write(
        &fx.project_file(),
        "[models.\"my-local-model\"]\ninput_price = 0.0\nmax_output = 4096\n[models.alpha]\noutput_price = 2\n",
    );
    let r = fx.loader(&[]).load(&super::trusted()).unwrap();
    let names: Vec<&str> = r.settings.models.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(names, vec!["alpha", "my-local-model", "zeta"]);
    let m = r.settings.model_override("my-local-model").unwrap();
    assert_eq!(m.context_window, Some(32768));
    assert_eq!(m.input_price, Some(0.0));
    assert_eq!(m.max_output, Some(4096));
    assert_eq!(m.output_price, None);
    assert_eq!(
        r.settings.model_override("alpha").unwrap().output_price,
        Some(2.0)
    );
    assert_eq!(r.source("models"), Some(&Source::File(fx.project_file())));
}

#[test]
fn env_and_flags_reach_the_new_keys() {
    let fx = Fixture::new();
    fx.write(
        &fx.project_file(),
        "reasoning_effort = \"low\"\nfallback_model = \"file-model\"\n[sandbox]\nmode = \"full\"\n",
    );
    let vars = [
        ("WRIGHT_REASONING_EFFORT", "medium"),
        ("WRIGHT_FALLBACK_MODEL", "env-model"),
        ("WRIGHT_SANDBOX", "read-only"),
    ];
    let r = fx.loader(&vars).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.reasoning_effort, Some(ReasoningEffort::Medium));
    assert_eq!(r.settings.fallback_model.as_deref(), Some("env-model"));
    assert_eq!(r.settings.sandbox.mode, SandboxMode::ReadOnly);
    assert_eq!(
        r.source("sandbox.mode"),
        Some(&Source::Env("WRIGHT_SANDBOX".into()))
    );

    let flags = Overrides {
        reasoning_effort: Some(ReasoningEffort::High),
        fallback_model: Some("flag-model".into()),
        sandbox: Some(SandboxMode::WorkspaceWrite),
        thinking_budget: Some(4096),
        ..Overrides::default()
    };
    let r = fx.loader(&vars).load(&flags).unwrap();
    assert_eq!(r.settings.reasoning_effort, Some(ReasoningEffort::High));
    assert_eq!(r.settings.fallback_model.as_deref(), Some("flag-model"));
    assert_eq!(r.settings.sandbox.mode, SandboxMode::WorkspaceWrite);
    assert_eq!(r.settings.thinking_budget, Some(4096));
    assert_eq!(
        r.source("thinking_budget"),
        Some(&Source::Flag("--thinking".into()))
    );
    assert_eq!(
        r.source("fallback_model"),
        Some(&Source::Flag("--fallback-model".into()))
    );
    assert!(wright_config::ENV_VARS.contains(&"WRIGHT_SANDBOX"));
}

#[test]
fn render_of_a_full_config_round_trips() {
    let fx = Fixture::new();
    let text = r#"
provider = "anthropic"
reasoning_effort = "high"
thinking_budget = 8000
fallback_model = "claude-haiku-4-5"
[permissions]
allow = ["Bash(npm run test:*)", "Edit(\"quoted\")"]
deny = ["Read(.env*)"]
additional_roots = ["/shared"]
[sandbox]
mode = "read-only"
writable_roots = ["/w"]
[context]
keep_recent_tokens = 20000
user_instruction_files = ["/u/AGENTS.md"]
[models."my-local-model"]
context_window = 32768
input_price = 0.25
[models."gpt-4.1"]
max_output = 32768
"#;
    fx.write(&fx.project_file(), text);
    let r = fx.loader(&[]).load(&super::trusted()).unwrap();
    let rendered = r.render();
    // The rendered text is itself a valid config file that loads to the
    // same settings.
    let fx2 = Fixture::new();
    fx2.write(&fx2.project_file(), &rendered);
    let again = fx2.loader(&[]).load(&super::trusted()).unwrap();
    assert_eq!(again.settings, r.settings, "{rendered}");
    assert_ne!(r.settings, Settings::default());

    let entries = r.entries();
    let models = entries.iter().find(|e| e.key == "models").unwrap();
    let json = serde_json::to_value(models).unwrap();
    assert_eq!(json["value"]["my-local-model"]["context_window"], 32768);
    assert_eq!(json["value"]["gpt-4.1"]["max_output"], 32768);
}

#[test]
fn validate_reports_new_key_errors_per_layer() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "[sandbox]\nmode = \"none\"\n");
    fx.write(&fx.local_file(), "[models.m]\ncontext_window = 10\n");
    let checks = fx
        .loader(&[("WRIGHT_REASONING_EFFORT", "extreme")])
        .validate();
    let errors: Vec<String> = checks
        .iter()
        .map(|c| {
            c.error
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        })
        .collect();
    assert!(errors[0].contains("`sandbox.mode`"), "{errors:?}");
    assert!(errors[1].is_empty(), "{errors:?}");
    assert!(
        errors[2].contains("`models.m.context_window`"),
        "{errors:?}"
    );
    assert!(
        errors[3].starts_with("env WRIGHT_REASONING_EFFORT:"),
        "{errors:?}"
    );

    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    assert_eq!(
        err,
        ConfigError::Invalid {
            origin: Origin::File {
                path: fx.user_file(),
                line: 2,
                column: 8,
            },
            key: "sandbox.mode".into(),
            value: "none".into(),
            message: "expected one of: read-only, workspace-write, full".into(),
        }
    );
}

/// `[agents]` scalars are replaced layer by layer, apply from an untrusted
/// project (a definition never runs looser than its parent), show their
/// sources, and choose the definition directories.
#[test]
fn agents_table_layers_without_trust_and_picks_dirs() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "[agents]\nmax_turns = 12\nmax_concurrent = 2\nuser_agents = true\n",
    );
    fx.write(
        &fx.project_file(),
        "[agents]\nmax_concurrent = 8\nisolation = \"worktree\"\nimport_claude_agents = true\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert!(!r.settings.project_trusted());
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
    let a = &r.settings.agents;
    assert_eq!(a.max_turns, 12);
    assert_eq!(a.max_concurrent, 8);
    assert_eq!(a.isolation, wright_config::AgentIsolation::Worktree);
    assert!(a.import_claude_agents);
    assert!(a.user_agents);
    let user = Source::File(fx.user_file());
    let project = Source::File(fx.project_file());
    assert_eq!(r.source("agents.max_turns"), Some(&user));
    assert_eq!(r.source("agents.max_concurrent"), Some(&project));
    assert_eq!(r.source("agents.isolation"), Some(&project));
    assert_eq!(r.source("agents.user_agents"), Some(&user));
    let text = r.render();
    assert!(
        text.contains(&format!(
            "agents.isolation = \"worktree\"  # {}",
            fx.project_file().display()
        )),
        "{text}"
    );
    assert_eq!(
        wright_config::agent_dirs(&r.settings, &fx.project, Some(&fx.user)),
        [
            fx.user.join("agents"),
            fx.project.join(".claude/agents"),
            fx.project.join(".wright/agents"),
        ]
    );
}
