use super::*;
use crate::kinds::{PermissionMode, Provider};

fn parse(text: &str) -> Result<Vec<Assign>, ConfigError> {
    parse_file(Path::new("/p/.wright/config.toml"), text, Path::new("/p"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn full_example_parses_in_key_order() {
    let text = r#"
provider = "anthropic"
model = "claude-sonnet-4-5"
base_url = "http://localhost:11434/v1"
max_tokens = 8192
max_turns = 7
permission_mode = "accept-edits"
system_prompt_file = "prompts/system.md"
append_system_prompt = "be brief"
[tools]
bash_timeout_secs = 30
[context]
instruction_files = ["AGENTS.md", "CLAUDE.md"]
"#;
    let got = parse(text).unwrap();
    assert_eq!(
        got,
        vec![
            Assign::Provider(Provider::Anthropic),
            Assign::Model("claude-sonnet-4-5".into()),
            Assign::BaseUrl("http://localhost:11434/v1".into()),
            Assign::MaxTokens(8192),
            Assign::MaxTurns(7),
            Assign::PermissionMode(PermissionMode::AcceptEdits),
            Assign::SystemPromptFile("/p/prompts/system.md".into()),
            Assign::AppendSystemPrompt("be brief".into()),
            Assign::BashTimeoutSecs(30),
            Assign::InstructionFiles(vec!["AGENTS.md".into(), "CLAUDE.md".into()]),
        ]
    );
}

#[test]
fn empty_file_sets_nothing() {
    assert_eq!(parse("").unwrap(), vec![]);
    assert_eq!(parse("# only a comment\n").unwrap(), vec![]);
}

#[test]
fn absolute_prompt_file_is_kept() {
    let got = parse("system_prompt_file = \"/etc/prompt.md\"").unwrap();
    assert_eq!(got, vec![Assign::SystemPromptFile("/etc/prompt.md".into())]);
}

#[test]
fn unknown_top_level_key_names_line_and_valid_keys() {
    assert_eq!(
        err("model = \"m\"\n\nmodle = \"x\"\n"),
        "/p/.wright/config.toml:3:1: unknown key `modle` (expected one of: provider, model, \
         base_url, max_tokens, max_turns, permission_mode, system_prompt, system_prompt_file, \
         append_system_prompt, reasoning_effort, thinking_budget, fallback_model, tools, stream, tui, context, \
         permissions, sandbox, hooks, verify, mcp, mcp_servers, agents, models, \
         projects, shell_environment)"
    );
}

#[test]
fn first_unknown_key_in_file_order_is_reported() {
    // Map iteration is alphabetical; the report must follow the file.
    let e = err("zzz = 1\naaa = 2\n");
    assert!(
        e.starts_with("/p/.wright/config.toml:1:1: unknown key `zzz`"),
        "{e}"
    );
}

#[test]
fn unknown_key_in_table_is_dotted() {
    assert_eq!(
        err("[tools]\nbash_timeout_secs = 5\nbash = 3\n"),
        "/p/.wright/config.toml:3:1: unknown key `tools.bash` (expected one of: bash_timeout_secs)"
    );
    let e = err("context.files = [\"x\"]\n");
    assert!(e.contains("unknown key `context.files`"), "{e}");
    let e = err("[mcpp]\nx = 1\n");
    assert!(
        e.starts_with("/p/.wright/config.toml:1:2: unknown key `mcpp`"),
        "{e}"
    );
    let e = err("[mcp]\nx = 1\n");
    assert!(
        e.starts_with("/p/.wright/config.toml:2:1: unknown key `mcp.x`"),
        "{e}"
    );
}

#[test]
fn wrong_type_names_key_line_and_column() {
    assert_eq!(
        err("\n\nmax_turns = \"abc\"\n"),
        "/p/.wright/config.toml:3:13: invalid value `\"abc\"` for `max_turns`: \
         expected a positive integer, found string"
    );
    assert_eq!(
        err("model = 3\n"),
        "/p/.wright/config.toml:1:9: invalid value `3` for `model`: expected a string, found integer"
    );
    assert_eq!(
        err("[tools]\nbash_timeout_secs = 1.5\n"),
        "/p/.wright/config.toml:2:21: invalid value `1.5` for `tools.bash_timeout_secs`: \
         expected an integer from 1 to 600, found float"
    );
    assert_eq!(
        err("tools = 3\n"),
        "/p/.wright/config.toml:1:9: invalid value `3` for `tools`: expected a table, found integer"
    );
}

#[test]
fn wrong_element_type_in_array() {
    let e = err("[context]\ninstruction_files = [\"AGENTS.md\", 3]\n");
    assert_eq!(
        e,
        "/p/.wright/config.toml:2:21: invalid value `[\"AGENTS.md\", 3]` for \
         `context.instruction_files`: expected an array of strings, found integer in the array"
    );
}

#[test]
fn bad_enum_lists_valid_values() {
    assert_eq!(
        err("provider = \"openai\"\n"),
        "/p/.wright/config.toml:1:12: invalid value `openai` for `provider`: \
         expected one of: anthropic, openai-chat, openai-responses"
    );
    assert_eq!(
        err("x = 1\n").split(':').nth(1),
        Some("1"),
        "unknown keys are caught before enum checks"
    );
    assert_eq!(
        err("permission_mode = \"yolo\"\n"),
        "/p/.wright/config.toml:1:19: invalid value `yolo` for `permission_mode`: \
         expected one of: default, accept-edits, plan, auto, bypass"
    );
    assert_eq!(
        err("permission_mode = true\n"),
        "/p/.wright/config.toml:1:19: invalid value `true` for `permission_mode`: \
         expected one of: default, accept-edits, plan, auto, bypass, found boolean"
    );
}

#[test]
fn out_of_range_values_name_the_key() {
    assert_eq!(
        err("max_turns = 0\n"),
        "/p/.wright/config.toml:1:13: invalid value `0` for `max_turns`: expected a positive integer"
    );
    assert_eq!(
        err("max_tokens = -5\n"),
        "/p/.wright/config.toml:1:14: invalid value `-5` for `max_tokens`: expected a positive integer"
    );
    assert_eq!(
        err("max_tokens = 5000000000\n"),
        "/p/.wright/config.toml:1:14: invalid value `5000000000` for `max_tokens`: \
         expected a positive integer"
    );
    assert_eq!(
        err("[tools]\nbash_timeout_secs = 601\n"),
        "/p/.wright/config.toml:2:21: invalid value `601` for `tools.bash_timeout_secs`: \
         expected an integer from 1 to 600"
    );
    assert!(parse("[tools]\nbash_timeout_secs = 600\n").is_ok());
    assert!(parse("[tools]\nbash_timeout_secs = 1\n").is_ok());
}

#[test]
fn empty_strings_and_bad_urls_are_rejected() {
    assert_eq!(
        err("model = \"\"\n"),
        "/p/.wright/config.toml:1:9: invalid value `` for `model`: expected a non-empty string"
    );
    let e = err("base_url = \"localhost:8080\"\n");
    assert!(e.ends_with("expected an http:// or https:// URL"), "{e}");
    let e = err("[context]\ninstruction_files = [\"\"]\n");
    assert!(e.contains("`context.instruction_files`"), "{e}");
    assert_eq!(
        parse("[context]\ninstruction_files = []\n").unwrap(),
        vec![Assign::InstructionFiles(vec![])]
    );
}

#[test]
fn prompt_and_prompt_file_in_one_file_conflict() {
    assert_eq!(
        err("system_prompt = \"a\"\nsystem_prompt_file = \"b\"\n"),
        "/p/.wright/config.toml:2:22: `system_prompt` and `system_prompt_file` cannot both be set"
    );
}

#[test]
fn syntax_errors_report_the_line() {
    let e = parse("model = \"m\"\nmax_turns = \n").unwrap_err();
    match &e {
        ConfigError::Parse { line, path, .. } => {
            assert_eq!(*line, 2);
            assert_eq!(path, Path::new("/p/.wright/config.toml"));
        }
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(
        e.to_string().starts_with("/p/.wright/config.toml:2:"),
        "{e}"
    );

    let e = parse("[tools\n").unwrap_err();
    assert!(matches!(e, ConfigError::Parse { line: 1, .. }), "{e:?}");

    let e = parse("model = \"a\"\nmodel = \"b\"\n").unwrap_err();
    assert!(matches!(e, ConfigError::Parse { line: 2, .. }), "{e:?}");
}

#[test]
fn position_counts_lines_and_chars() {
    assert_eq!(position("abc", 0), (1, 1));
    assert_eq!(position("a\nbc", 3), (2, 2));
    assert_eq!(position("é = 1", 2), (1, 2));
    assert_eq!(position("é", 1), (1, 1), "inside a char rounds down");
    assert_eq!(position("ab", 99), (1, 3));
}

#[test]
fn projects_tables_parse_and_need_absolute_paths() {
    let layer = super::parse_layer(
        Path::new("/u/config.toml"),
        "[projects.\"/a/b\"]\ntrusted = true\n[projects.\"/c\"]\n",
        Path::new("/u"),
    )
    .unwrap();
    assert!(layer.assigns.is_empty());
    let got: Vec<(String, bool)> = layer
        .projects
        .iter()
        .map(|p| (p.path.display().to_string(), p.trusted))
        .collect();
    assert_eq!(
        got,
        vec![("/a/b".to_owned(), true), ("/c".to_owned(), false)]
    );
    assert_eq!(
        err("[projects.\"rel\"]\ntrusted = true\n"),
        "/p/.wright/config.toml:1:11: invalid value `rel` for `projects.rel`: \
         expected an absolute project path"
    );
    assert!(err("[projects.\"/a\"]\ntrusted = \"yes\"\n").contains("expected true or false"));
    assert!(
        err("[projects.\"/a\"]\ntrust = true\n").contains("unknown key `projects.\"/a\".trust`")
    );
}
