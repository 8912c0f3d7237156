//! Each layer overrides the one below, and sources are reported right.

use std::path::PathBuf;

use wright_config::{Overrides, PermissionMode, Provider, Settings, Source};

use super::Fixture;

fn file(p: PathBuf) -> Source {
    Source::File(p)
}

fn env(name: &str) -> Source {
    Source::Env(name.to_owned())
}

fn flag(name: &str) -> Source {
    Source::Flag(name.to_owned())
}

#[test]
fn no_files_no_env_gives_defaults() {
    let fx = Fixture::new();
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings, Settings::default());
    assert!(r.files.is_empty());
    for key in wright_config::KEYS {
        assert_eq!(r.source(key), Some(&Source::Default), "{key}");
    }
}

#[test]
fn missing_user_dir_and_missing_project_dir_are_fine() {
    let fx = Fixture::new();
    let mut loader = fx.loader(&[]);
    loader.user_config_dir = None;
    loader.project_root = fx.project.join("does/not/exist");
    let r = loader.load(&Overrides::default()).unwrap();
    assert_eq!(r.settings, Settings::default());
    assert_eq!(loader.files().len(), 2);
}

#[test]
fn each_layer_overrides_the_one_below() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "model = \"user\"\nmax_turns = 1\nmax_tokens = 1\npermission_mode = \"plan\"\n\
         append_system_prompt = \"user\"\n[tools]\nbash_timeout_secs = 10\n",
    );
    fx.write(
        &fx.project_file(),
        "model = \"project\"\nmax_turns = 2\nmax_tokens = 2\n[tools]\nbash_timeout_secs = 20\n",
    );
    fx.write(&fx.local_file(), "model = \"local\"\nmax_turns = 3\n");
    let loader = fx.loader(&[("WRIGHT_MODEL", "env"), ("WRIGHT_PROVIDER", "openai-chat")]);
    let overrides = Overrides {
        provider: Some(Provider::OpenaiResponses),
        ..Overrides::default()
    };
    let r = loader.load(&overrides).unwrap();
    let s = &r.settings;

    assert_eq!(s.provider, Some(Provider::OpenaiResponses));
    assert_eq!(r.source("provider"), Some(&flag("--provider")));
    assert_eq!(s.model.as_deref(), Some("env"));
    assert_eq!(r.source("model"), Some(&env("WRIGHT_MODEL")));
    assert_eq!(s.max_turns, 3);
    assert_eq!(r.source("max_turns"), Some(&file(fx.local_file())));
    assert_eq!(s.max_tokens, Some(2));
    assert_eq!(r.source("max_tokens"), Some(&file(fx.project_file())));
    assert_eq!(s.bash_timeout_secs, 20);
    assert_eq!(
        r.source("tools.bash_timeout_secs"),
        Some(&file(fx.project_file()))
    );
    assert_eq!(s.permission_mode, PermissionMode::Plan);
    assert_eq!(r.source("permission_mode"), Some(&file(fx.user_file())));
    assert_eq!(s.append_system_prompt.as_deref(), Some("user"));
    assert_eq!(s.instruction_files, vec!["AGENTS.md".to_owned()]);
    assert_eq!(
        r.source("context.instruction_files"),
        Some(&Source::Default)
    );
    assert_eq!(
        r.files,
        vec![fx.user_file(), fx.project_file(), fx.local_file()]
    );
}

#[test]
fn flags_beat_everything() {
    let fx = Fixture::new();
    fx.write(&fx.local_file(), "model = \"local\"\nmax_turns = 3\n");
    let loader = fx.loader(&[("WRIGHT_MODEL", "env"), ("WRIGHT_MAX_TURNS", "4")]);
    let overrides = Overrides {
        model: Some("flag".into()),
        max_turns: Some(5),
        max_tokens: Some(6),
        permission_mode: Some(PermissionMode::Bypass),
        append_system_prompt: Some("more".into()),
        ..Overrides::default()
    };
    let r = loader.load(&overrides).unwrap();
    assert_eq!(r.settings.model.as_deref(), Some("flag"));
    assert_eq!(r.settings.max_turns, 5);
    assert_eq!(r.settings.max_tokens, Some(6));
    assert_eq!(r.settings.permission_mode, PermissionMode::Bypass);
    assert_eq!(r.source("max_turns"), Some(&flag("--max-turns")));
    assert_eq!(
        r.source("append_system_prompt"),
        Some(&flag("--append-system-prompt"))
    );
}

#[test]
fn env_beats_files() {
    let fx = Fixture::new();
    fx.write(
        &fx.local_file(),
        "max_turns = 3\npermission_mode = \"plan\"\n",
    );
    let loader = fx.loader(&[
        ("WRIGHT_MAX_TURNS", "4"),
        ("WRIGHT_PERMISSION_MODE", "auto"),
    ]);
    let r = loader.load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.max_turns, 4);
    assert_eq!(r.settings.permission_mode, PermissionMode::Auto);
    assert_eq!(
        r.source("permission_mode"),
        Some(&env("WRIGHT_PERMISSION_MODE"))
    );
}

#[test]
fn empty_env_values_do_not_override_files() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "model = \"project\"\n");
    let r = fx
        .loader(&[("WRIGHT_MODEL", ""), ("WRIGHT_MAX_TURNS", "")])
        .load(&Overrides::default())
        .unwrap();
    assert_eq!(r.settings.model.as_deref(), Some("project"));
    assert_eq!(r.source("model"), Some(&file(fx.project_file())));
}

#[test]
fn base_url_env_depends_on_resolved_provider() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "provider = \"anthropic\"\n");
    let vars = [
        ("ANTHROPIC_BASE_URL", "http://127.0.0.1:1"),
        ("OPENAI_BASE_URL", "http://127.0.0.1:2/v1"),
    ];
    let loader = fx.loader(&vars);

    let r = loader.load(&super::trusted()).unwrap();
    assert_eq!(r.settings.base_url.as_deref(), Some("http://127.0.0.1:1"));
    assert_eq!(r.source("base_url"), Some(&env("ANTHROPIC_BASE_URL")));

    // A --provider flag changes which variable applies.
    let chat = Overrides {
        provider: Some(Provider::OpenaiChat),
        ..super::trusted()
    };
    let r = loader.load(&chat).unwrap();
    assert_eq!(
        r.settings.base_url.as_deref(),
        Some("http://127.0.0.1:2/v1")
    );
    assert_eq!(r.source("base_url"), Some(&env("OPENAI_BASE_URL")));

    // --base-url beats both.
    let with_url = Overrides {
        base_url: Some("http://127.0.0.1:3".into()),
        ..super::trusted()
    };
    let r = loader.load(&with_url).unwrap();
    assert_eq!(r.settings.base_url.as_deref(), Some("http://127.0.0.1:3"));
    assert_eq!(r.source("base_url"), Some(&flag("--base-url")));
}

#[test]
fn base_url_env_names_the_provider_or_is_ignored_for_another() {
    let fx = Fixture::new();
    let only_openai = [("OPENAI_BASE_URL", "http://127.0.0.1:2/v1")];
    let r = fx.loader(&only_openai).load(&super::trusted()).unwrap();
    assert_eq!(
        r.settings.base_url.as_deref(),
        Some("http://127.0.0.1:2/v1")
    );
    assert_eq!(r.settings.provider, Some(Provider::OpenaiChat));
    assert_eq!(r.source("provider"), Some(&env("OPENAI_BASE_URL")));
    assert_eq!(
        r.inferred
            .as_ref()
            .map(wright_config::Inference::notice)
            .as_deref(),
        Some("using openai-chat at http://127.0.0.1:2/v1 (from OPENAI_BASE_URL)")
    );

    let anthropic = Overrides {
        provider: Some(Provider::Anthropic),
        ..super::trusted()
    };
    let r = fx.loader(&only_openai).load(&anthropic).unwrap();
    assert_eq!(r.settings.base_url, None);

    // A file's base_url stays when the matching variable is unset.
    fx.write(
        &fx.project_file(),
        "provider = \"openai-chat\"\nbase_url = \"http://127.0.0.1:11434/v1\"\n",
    );
    let r = fx
        .loader(&[("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")])
        .load(&super::trusted())
        .unwrap();
    assert_eq!(
        r.settings.base_url.as_deref(),
        Some("http://127.0.0.1:11434/v1")
    );
    assert_eq!(r.source("base_url"), Some(&file(fx.project_file())));
}

#[test]
fn relative_prompt_file_resolves_per_file() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "system_prompt_file = \"user.md\"\n");
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.system_prompt_file, Some(fx.user.join("user.md")));

    fx.write(
        &fx.project_file(),
        "system_prompt_file = \"prompts/p.md\"\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(
        r.settings.system_prompt_file,
        Some(fx.project.join("prompts/p.md"))
    );

    let r = fx
        .loader(&[("WRIGHT_SYSTEM_PROMPT_FILE", "env.md")])
        .load(&Overrides::default())
        .unwrap();
    assert_eq!(r.settings.system_prompt_file, Some(PathBuf::from("env.md")));
}

#[test]
fn higher_prompt_clears_lower_prompt_file() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "system_prompt_file = \"p.md\"\n");
    let overrides = Overrides {
        system_prompt: Some("be terse".into()),
        ..Overrides::default()
    };
    let r = fx.loader(&[]).load(&overrides).unwrap();
    assert_eq!(r.settings.system_prompt.as_deref(), Some("be terse"));
    assert_eq!(r.settings.system_prompt_file, None);
    assert_eq!(
        r.source("system_prompt_file"),
        Some(&flag("--system-prompt"))
    );
}

#[test]
fn project_dotenv_is_never_read() {
    let fx = Fixture::new();
    fx.write(
        &fx.project.join(".env"),
        "WRIGHT_MODEL=from-dotenv\nWRIGHT_MAX_TURNS=2\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings, Settings::default());
}

#[test]
fn files_lists_layers_in_order_with_existence() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "");
    assert_eq!(
        fx.loader(&[]).files(),
        vec![
            (fx.user_file(), false),
            (fx.project_file(), true),
            (fx.local_file(), false),
        ]
    );
}

#[test]
fn render_shows_values_and_sources() {
    let fx = Fixture::new();
    fx.write(
        &fx.project_file(),
        "provider = \"anthropic\"\nmodel = \"claude-sonnet-4-5\"\n[context]\ninstruction_files = [\"AGENTS.md\", \"CLAUDE.md\"]\n",
    );
    let loader = fx.loader(&[("WRIGHT_MAX_TURNS", "9")]);
    let overrides = Overrides {
        permission_mode: Some(PermissionMode::AcceptEdits),
        ..super::trusted()
    };
    let r = loader.load(&overrides).unwrap();
    let p = fx.project_file().display().to_string();
    let expected = format!(
        "provider = \"anthropic\"  # {p}
model = \"claude-sonnet-4-5\"  # {p}
# base_url  (not set)
# max_tokens  (not set)
max_turns = 9  # env WRIGHT_MAX_TURNS
permission_mode = \"accept-edits\"  # flag --permission-mode
# system_prompt  (not set)
# system_prompt_file  (not set)
# append_system_prompt  (not set)
# reasoning_effort  (not set)
# thinking_budget  (not set)
# fallback_model  (not set)
tools.bash_timeout_secs = 120  # default
stream.idle_timeout_secs = 60  # default
stream.first_byte_timeout_secs = 60  # default
tui.notify = \"bell\"  # default
context.instruction_files = [\"AGENTS.md\", \"CLAUDE.md\"]  # {p}
context.instruction_budget = 40000  # default
context.user_instruction_files = []  # default
context.skill_dirs = []  # default
context.user_memory = false  # default
context.auto_compact = true  # default
# context.keep_recent_tokens  (not set)
context.compact_margin_percent = 10  # default
permissions.allow = []  # default
permissions.ask = []  # default
permissions.deny = []  # default
permissions.additional_roots = []  # default
sandbox.mode = \"workspace-write\"  # default
sandbox.network = false  # default
sandbox.writable_roots = []  # default
sandbox.allow_sockets = []  # default
hooks.import_claude_settings = false  # default
# hooks = {{}}  # default
verify.enabled = true  # default
verify.timeout_secs = 120  # default
verify.checks = []  # default
mcp.trust_project_servers = false  # default
mcp.tool_search = \"auto\"  # default
mcp.startup_timeout_secs = 30  # default
mcp.tool_timeout_secs = 600  # default
mcp.trust_read_only_hints = false  # default
mcp_servers = {{}}  # default
agents.max_turns = 30  # default
agents.max_concurrent = 4  # default
agents.isolation = \"none\"  # default
agents.import_claude_agents = false  # default
agents.user_agents = false  # default
models = {{}}  # default
"
    );
    assert_eq!(r.render(), expected);
    let entries = r.entries();
    assert_eq!(entries[1].key, "model");
    assert_eq!(entries[1].source, file(fx.project_file()));
}

/// The provider inference table (see `infer.rs`): what each setup picks,
/// and what the one notice line says (none when nothing was inferred).
#[test]
fn provider_inference_table() {
    let fx = Fixture::new();
    let url = |u: &str| Overrides {
        base_url: Some(u.into()),
        ..super::trusted()
    };
    let named = Overrides {
        provider: Some(Provider::OpenaiResponses),
        ..super::trusted()
    };
    let a = ("ANTHROPIC_BASE_URL", "http://127.0.0.1:1");
    let o = ("OPENAI_BASE_URL", "http://127.0.0.1:2/v1");
    // (environment, flags, expected provider, expected base URL)
    type Case<'a> = (
        Vec<(&'a str, &'a str)>,
        Overrides,
        Option<Provider>,
        Option<&'a str>,
    );
    let cases: Vec<Case> = vec![
        (vec![], super::trusted(), None, None),
        (
            vec![a],
            super::trusted(),
            Some(Provider::Anthropic),
            Some("using anthropic at http://127.0.0.1:1 (from ANTHROPIC_BASE_URL)"),
        ),
        (
            vec![o],
            super::trusted(),
            Some(Provider::OpenaiChat),
            Some("using openai-chat at http://127.0.0.1:2/v1 (from OPENAI_BASE_URL)"),
        ),
        (
            vec![a, o],
            super::trusted(),
            Some(Provider::Anthropic),
            Some(
                "using anthropic at http://127.0.0.1:1 (from ANTHROPIC_BASE_URL; \
                 OPENAI_BASE_URL is also set and ignored: set WRIGHT_PROVIDER to choose)",
            ),
        ),
        // An explicit provider always wins, and nothing is said.
        (
            vec![a, o],
            named.clone(),
            Some(Provider::OpenaiResponses),
            None,
        ),
        (
            vec![a, ("WRIGHT_PROVIDER", "openai-chat")],
            super::trusted(),
            Some(Provider::OpenaiChat),
            None,
        ),
        // --base-url: its shape decides, or nothing is inferred.
        (
            vec![],
            url("http://localhost:11434/v1"),
            Some(Provider::OpenaiChat),
            Some("using openai-chat at http://localhost:11434/v1 (from the shape of --base-url)"),
        ),
        (
            vec![],
            url("https://api.anthropic.com"),
            Some(Provider::Anthropic),
            Some("using anthropic at https://api.anthropic.com (from the shape of --base-url)"),
        ),
        (vec![], url("https://gw.example.com/llm"), None, None),
        // --base-url beats the variables; its shape still decides.
        (
            vec![a],
            url("http://127.0.0.1:8080/v1"),
            Some(Provider::OpenaiChat),
            Some("using openai-chat at http://127.0.0.1:8080/v1 (from the shape of --base-url)"),
        ),
    ];
    for (vars, overrides, provider, notice) in cases {
        let r = fx.loader(&vars).load(&overrides).unwrap();
        assert_eq!(r.settings.provider, provider, "{vars:?} {overrides:?}");
        assert_eq!(
            r.inferred
                .as_ref()
                .map(wright_config::Inference::notice)
                .as_deref(),
            notice,
            "{vars:?} {overrides:?}"
        );
    }
}
