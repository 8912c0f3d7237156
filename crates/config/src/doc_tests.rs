//! The keys added after the first release, parsed from file text.

use std::path::Path;

use super::*;
use crate::file::parse_file;
use crate::kinds::{ReasoningEffort, SandboxMode};

fn parse(text: &str) -> Result<Vec<Assign>, ConfigError> {
    parse_file(Path::new("/p/.wright/config.toml"), text, Path::new("/p"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

const PREFIX: &str = "/p/.wright/config.toml";

#[test]
fn every_new_key_parses_in_key_order() {
    let text = r#"
reasoning_effort = "medium"
thinking_budget = 8000
fallback_model = "claude-haiku-4-5"

[permissions]
allow = ["Bash(npm run test:*)"]
ask = []
deny = ["Read(.env*)"]
additional_roots = ["../shared", "/abs"]

[sandbox]
mode = "read-only"
network = true
writable_roots = ["out"]

[context]
instruction_budget = 1000
user_instruction_files = ["/etc/wright/AGENTS.md"]
skill_dirs = ["skills"]
user_memory = true
auto_compact = false
keep_recent_tokens = 20000
compact_margin_percent = 50

[models."my-local-model"]
context_window = 32768
max_output = 4096
input_price = 0
output_price = 1.5
cache_read_price = 0.1
cache_write_price = 0.0
developer_role = false
stream_usage = false
"#;
    let got = parse(text).unwrap();
    assert_eq!(
        got,
        vec![
            Assign::ReasoningEffort(ReasoningEffort::Medium),
            Assign::ThinkingBudget(8000),
            Assign::FallbackModel("claude-haiku-4-5".into()),
            Assign::InstructionBudget(1000),
            Assign::UserInstructionFiles(vec!["/etc/wright/AGENTS.md".into()]),
            Assign::SkillDirs(vec!["/p/skills".into()]),
            Assign::UserMemory(true),
            Assign::AutoCompact(false),
            Assign::KeepRecentTokens(20000),
            Assign::CompactMarginPercent(50),
            Assign::Allow(vec!["Bash(npm run test:*)".into()]),
            Assign::Ask(vec![]),
            Assign::Deny(vec!["Read(.env*)".into()]),
            Assign::AdditionalRoots(vec!["/p/../shared".into(), "/abs".into()]),
            Assign::SandboxMode(SandboxMode::ReadOnly),
            Assign::SandboxNetwork(true),
            Assign::WritableRoots(vec!["/p/out".into()]),
            Assign::ModelOverride(ModelOverride {
                name: "my-local-model".into(),
                context_window: Some(32768),
                max_output: Some(4096),
                input_price: Some(0.0),
                output_price: Some(1.5),
                cache_read_price: Some(0.1),
                cache_write_price: Some(0.0),
                developer_role: Some(false),
                max_completion_tokens: None,
                stream_usage: Some(false),
            }),
        ]
    );
}

#[test]
fn tilde_expands_to_home() {
    let Some(home) = dirs::home_dir() else {
        return;
    };
    let got = parse("[context]\nuser_instruction_files = [\"~/AGENTS.md\", \"~\"]\n").unwrap();
    assert_eq!(
        got,
        vec![Assign::UserInstructionFiles(vec![
            home.join("AGENTS.md"),
            home.clone()
        ])]
    );
    // Only `~` and `~/` are the home directory; `~x` is a relative name.
    assert_eq!(resolve_path("~x", Path::new("/b")), Ok("/b/~x".into()));
}

#[test]
fn models_with_dotted_names_and_empty_tables() {
    let got = parse("[models.\"gpt-4.1\"]\n[models.m]\nmax_output = 1\n").unwrap();
    assert_eq!(
        got,
        vec![
            Assign::ModelOverride(ModelOverride {
                name: "gpt-4.1".into(),
                ..ModelOverride::default()
            }),
            Assign::ModelOverride(ModelOverride {
                name: "m".into(),
                max_output: Some(1),
                ..ModelOverride::default()
            }),
        ]
    );
    assert_eq!(
        err("[models.\"\"]\nmax_output = 1\n"),
        format!("{PREFIX}:1:9: invalid value `\"\"` for `models`: expected a non-empty model name")
    );
}

#[test]
fn unknown_keys_in_new_tables_are_dotted() {
    assert_eq!(
        err("[sandbox]\nnet = true\n"),
        format!(
            "{PREFIX}:2:1: unknown key `sandbox.net` (expected one of: mode, network, writable_roots, allow_sockets)"
        )
    );
    assert_eq!(
        err("[permissions]\nallowed = []\n"),
        format!(
            "{PREFIX}:2:1: unknown key `permissions.allowed` \
             (expected one of: allow, ask, deny, additional_roots)"
        )
    );
    let e = err("[models.\"gpt-4.1\"]\ncontext = 5\n");
    assert!(
        e.starts_with(&format!(
            "{PREFIX}:2:1: unknown key `models.\"gpt-4.1\".context` (expected one of: context_window,"
        )),
        "{e}"
    );
    let e = err("[context]\nbudget = 5\n");
    assert!(e.contains("unknown key `context.budget`"), "{e}");
}

#[test]
fn wrong_types_in_new_keys_are_located() {
    assert_eq!(
        err("[sandbox]\nnetwork = \"no\"\n"),
        format!(
            "{PREFIX}:2:11: invalid value `\"no\"` for `sandbox.network`: \
             expected true or false, found string"
        )
    );
    assert_eq!(
        err("[permissions]\nallow = \"Read\"\n"),
        format!(
            "{PREFIX}:2:9: invalid value `\"Read\"` for `permissions.allow`: \
             expected an array of strings, found string"
        )
    );
    assert_eq!(
        err("\n[models.m]\ninput_price = \"free\"\n"),
        format!(
            "{PREFIX}:3:15: invalid value `\"free\"` for `models.m.input_price`: \
             expected a non-negative number, found string"
        )
    );
    assert_eq!(
        err("[models]\nm = 3\n"),
        format!("{PREFIX}:2:5: invalid value `3` for `models.m`: expected a table, found integer")
    );
    assert_eq!(
        err("thinking_budget = 1.5\n"),
        format!(
            "{PREFIX}:1:19: invalid value `1.5` for `thinking_budget`: \
             expected an integer from 1024 to 4294967295, found float"
        )
    );
    let e = err("[sandbox]\nwritable_roots = [1]\n");
    assert!(
        e.ends_with("expected an array of strings, found integer in the array"),
        "{e}"
    );
}

#[test]
fn bad_enum_words_list_the_choices() {
    assert_eq!(
        err("reasoning_effort = \"max\"\n"),
        format!(
            "{PREFIX}:1:20: invalid value `max` for `reasoning_effort`: \
             expected one of: low, medium, high"
        )
    );
    assert_eq!(
        err("[sandbox]\nmode = \"off\"\n"),
        format!(
            "{PREFIX}:2:8: invalid value `off` for `sandbox.mode`: \
             expected one of: read-only, workspace-write, full"
        )
    );
}

#[test]
fn out_of_range_values_name_key_and_line() {
    let cases = [
        (
            "thinking_budget = 1023\n",
            "1:19: invalid value `1023` for `thinking_budget`: \
             expected an integer from 1024 to 4294967295",
        ),
        (
            "[context]\ninstruction_budget = 999\n",
            "2:22: invalid value `999` for `context.instruction_budget`: \
             expected an integer >= 1000",
        ),
        (
            "[context]\nkeep_recent_tokens = 0\n",
            "2:22: invalid value `0` for `context.keep_recent_tokens`: \
             expected an integer >= 1000",
        ),
        (
            "[context]\ncompact_margin_percent = 51\n",
            "2:26: invalid value `51` for `context.compact_margin_percent`: \
             expected an integer from 0 to 50",
        ),
        (
            "[models.m]\ncontext_window = 1000\n",
            "2:18: invalid value `1000` for `models.m.context_window`: \
             expected an integer >= 1024",
        ),
        (
            "[models.m]\nmax_output = 0\n",
            "2:14: invalid value `0` for `models.m.max_output`: expected a positive integer",
        ),
        (
            "[models.m]\noutput_price = -1.0\n",
            "2:16: invalid value `-1.0` for `models.m.output_price`: \
             expected a non-negative number",
        ),
        (
            "[models.m]\ncache_read_price = inf\n",
            "2:20: invalid value `inf` for `models.m.cache_read_price`: \
             expected a non-negative number",
        ),
        (
            "fallback_model = \" \"\n",
            "1:18: invalid value ` ` for `fallback_model`: expected a non-empty string",
        ),
        (
            "[permissions]\ndeny = [\"Read\", \"\"]\n",
            "2:8: invalid value `\"\"` for `permissions.deny`: \
             expected an array of non-empty strings",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(err(text), format!("{PREFIX}:{want}"), "{text}");
    }
}
