//! `[hooks]` and `[verify]` parsed from file text: every key, every error
//! with its line, column and indexed key.

use std::path::Path;

use super::*;
use crate::file::parse_file;
use crate::source::Source;

const PREFIX: &str = "/p/.wright/config.toml";

fn parse(text: &str) -> Result<Vec<Assign>, ConfigError> {
    parse_file(Path::new(PREFIX), text, Path::new("/p"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

fn file() -> Source {
    Source::File(PREFIX.into())
}

fn cmd(command: &str, timeout_secs: Option<u64>) -> HookCommandSetting {
    HookCommandSetting {
        command: command.into(),
        timeout_secs,
    }
}

#[test]
fn hooks_keys_are_the_events() {
    let events: Vec<&str> = HookEvent::ALL.into_iter().map(HookEvent::as_str).collect();
    assert_eq!(HOOKS_KEYS[1..], events[..]);
}

#[test]
fn every_hook_and_verify_key_parses_in_key_order() {
    let text = r#"
[hooks]
import_claude_settings = true

[[hooks.Stop]]
hooks = [{ type = "command", command = "notify-send done" }]

[[hooks.PreToolUse]]
matcher = "Edit|Write"
hooks = [
  { type = "command", command = "./scripts/check.sh", timeout = 60 },
  { type = "command", command = "./scripts/log.sh" },
]

[[hooks.PreToolUse]]
matcher = ""
hooks = [{ type = "command", command = "true" }]

[verify]
enabled = false
timeout_secs = 1800

[[verify.checks]]
glob = "*.ts"
command = "npx tsc --noEmit --pretty false"
format = "tsc"
timeout_secs = 300

[[verify.checks]]
glob = "*.py"
command = "ruff check"
"#;
    let got = parse(text).unwrap();
    assert_eq!(
        got,
        vec![
            Assign::ImportClaudeSettings(true),
            Assign::HookGroups(vec![
                HookGroupSetting {
                    event: HookEvent::PreToolUse,
                    matcher: Some("Edit|Write".into()),
                    hooks: vec![
                        cmd("./scripts/check.sh", Some(60)),
                        cmd("./scripts/log.sh", None)
                    ],
                    source: file(),
                },
                HookGroupSetting {
                    event: HookEvent::PreToolUse,
                    matcher: Some(String::new()),
                    hooks: vec![cmd("true", None)],
                    source: file(),
                },
            ]),
            Assign::HookGroups(vec![HookGroupSetting {
                event: HookEvent::Stop,
                matcher: None,
                hooks: vec![cmd("notify-send done", None)],
                source: file(),
            }]),
            Assign::VerifyEnabled(false),
            Assign::VerifyTimeoutSecs(1800),
            Assign::VerifyChecks(vec![
                VerifyCheckSetting {
                    glob: "*.ts".into(),
                    command: "npx tsc --noEmit --pretty false".into(),
                    format: CheckFormat::Tsc,
                    timeout_secs: Some(300),
                    source: file(),
                },
                VerifyCheckSetting {
                    glob: "*.py".into(),
                    command: "ruff check".into(),
                    format: CheckFormat::Lines,
                    timeout_secs: None,
                    source: file(),
                },
            ]),
        ]
    );
}

#[test]
fn every_event_name_is_accepted_and_inline_arrays_work() {
    for event in HookEvent::ALL {
        let text = format!(
            "[hooks]\n{event} = [{{ hooks = [{{ type = \"command\", command = \"c\" }}] }}]\n"
        );
        let got = parse(&text).unwrap();
        let [Assign::HookGroups(groups)] = got.as_slice() else {
            panic!("{got:?}");
        };
        assert_eq!(groups[0].event, event);
    }
    let got = parse("[verify]\nchecks = []\n[hooks]\nStop = []\n").unwrap();
    assert_eq!(
        got,
        vec![Assign::HookGroups(vec![]), Assign::VerifyChecks(vec![])]
    );
}

#[test]
fn unknown_event_names_the_line_and_lists_the_events() {
    assert_eq!(
        err("\n[[hooks.PreToolUser]]\nhooks = []\n"),
        format!(
            "{PREFIX}:2:9: unknown key `hooks.PreToolUser` (expected one of: \
             import_claude_settings, PreToolUse, PostToolUse, PostToolUseFailure, \
             PermissionRequest, UserPromptSubmit, Stop, SubagentStop, SessionStart, \
             SessionEnd, PreCompact, Notification)"
        )
    );
    // Claude Code's spelling is exact.
    let e = err("[hooks]\npretooluse = []\n");
    assert!(
        e.starts_with(&format!("{PREFIX}:2:1: unknown key `hooks.pretooluse`")),
        "{e}"
    );
}

#[test]
fn unknown_keys_inside_groups_hooks_and_checks_are_indexed() {
    let ok = "hooks = [{ type = \"command\", command = \"x\" }]\n";
    assert_eq!(
        err(&format!(
            "[[hooks.Stop]]\n{ok}[[hooks.Stop]]\n{ok}matchr = \"a\"\n"
        )),
        format!(
            "{PREFIX}:5:1: unknown key `hooks.Stop[1].matchr` (expected one of: matcher, hooks)"
        )
    );
    assert_eq!(
        err("[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"x\", timeot = 0 }]\n"),
        format!(
            "{PREFIX}:2:45: unknown key `hooks.Stop[0].hooks[0].timeot` \
             (expected one of: type, command, timeout)"
        )
    );
    assert_eq!(
        err("[verify]\nchecks = [{ glob = \"*.ts\", command = \"tsc\", formt = \"tsc\" }]\n"),
        format!(
            "{PREFIX}:2:45: unknown key `verify.checks[0].formt` \
             (expected one of: glob, command, format, timeout_secs)"
        )
    );
    assert_eq!(
        err("[verify]\nenable = true\n"),
        format!(
            "{PREFIX}:2:1: unknown key `verify.enable` \
             (expected one of: enabled, timeout_secs, checks)"
        )
    );
}

#[test]
fn only_command_hooks_with_a_command() {
    assert_eq!(
        err("[[hooks.Stop]]\nhooks = [{ type = \"prompt\", command = \"x\" }]\n"),
        format!(
            "{PREFIX}:2:19: invalid value `prompt` for `hooks.Stop[0].hooks[0].type`: \
             only command hooks are supported; expected \"command\""
        )
    );
    assert_eq!(
        err("[[hooks.Stop]]\nhooks = [{ command = \"x\" }]\n"),
        format!(
            "{PREFIX}:2:10: missing `hooks.Stop[0].hooks[0].type`: \
             only command hooks are supported; expected \"command\""
        )
    );
    assert_eq!(
        err("[hooks]\n[[hooks.Stop]]\nhooks = [{ type = \"command\" }]\n"),
        format!(
            "{PREFIX}:3:10: missing `hooks.Stop[0].hooks[0].command`: \
             expected a non-empty command line"
        )
    );
    assert_eq!(
        err("[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"  \" }]\n"),
        format!(
            "{PREFIX}:2:40: invalid value `  ` for `hooks.Stop[0].hooks[0].command`: \
             expected a non-empty string"
        )
    );
    assert_eq!(
        err("[[hooks.Stop]]\nmatcher = \"x\"\n"),
        format!(
            "{PREFIX}:1:1: missing `hooks.Stop[0].hooks`: \
             expected an array of hooks like {{ type = \"command\", command = \"…\" }}"
        )
    );
    assert_eq!(
        err("[[hooks.Stop]]\nhooks = []\n"),
        format!(
            "{PREFIX}:2:9: invalid value `[]` for `hooks.Stop[0].hooks`: expected at least one hook"
        )
    );
}

#[test]
fn wrong_types_and_ranges_are_located() {
    let cases = [
        (
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = 3 }]\n",
            "2:40: invalid value `3` for `hooks.Stop[0].hooks[0].command`: \
             expected a string, found integer",
        ),
        (
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"x\", timeout = 0 }]\n",
            "2:55: invalid value `0` for `hooks.Stop[0].hooks[0].timeout`: \
             expected a positive integer",
        ),
        (
            "[[hooks.Stop]]\nhooks = [{ type = \"command\", command = \"x\", timeout = 1.5 }]\n",
            "2:55: invalid value `1.5` for `hooks.Stop[0].hooks[0].timeout`: \
             expected a positive integer, found float",
        ),
        (
            "[[hooks.Stop]]\nmatcher = 1\nhooks = [{ type = \"command\", command = \"x\" }]\n",
            "2:11: invalid value `1` for `hooks.Stop[0].matcher`: expected a string, found integer",
        ),
        (
            "[hooks.Stop]\nhooks = [{ type = \"command\", command = \"x\" }]\n",
            "1:1: invalid value `[hooks.Stop]` for `hooks.Stop`: \
             expected an array of tables ([[hooks.Stop]]), found table",
        ),
        (
            "[[hooks.Stop]]\nhooks = [\"x\"]\n",
            "2:9: invalid value `[\"x\"]` for `hooks.Stop[0].hooks`: expected an array of \
             tables like { type = \"command\", command = \"…\" }, found string in the array",
        ),
        (
            "[hooks]\nimport_claude_settings = 1\n",
            "2:26: invalid value `1` for `hooks.import_claude_settings`: \
             expected true or false, found integer",
        ),
        (
            "hooks = 1\n",
            "1:9: invalid value `1` for `hooks`: expected a table, found integer",
        ),
        (
            "[verify]\nenabled = \"no\"\n",
            "2:11: invalid value `\"no\"` for `verify.enabled`: expected true or false, found string",
        ),
        (
            "[verify]\ntimeout_secs = 0\n",
            "2:16: invalid value `0` for `verify.timeout_secs`: expected an integer from 1 to 1800",
        ),
        (
            "[verify]\ntimeout_secs = 1801\n",
            "2:16: invalid value `1801` for `verify.timeout_secs`: \
             expected an integer from 1 to 1800",
        ),
        (
            "[verify]\nchecks = { glob = \"*\" }\n",
            "2:10: invalid value `{ glob = \"*\" }` for `verify.checks`: \
             expected an array of tables ([[verify.checks]]), found table",
        ),
        (
            "[[verify.checks]]\nglob = \"*.ts\"\ncommand = \"tsc\"\ntimeout_secs = \"5\"\n",
            "4:16: invalid value `\"5\"` for `verify.checks[0].timeout_secs`: \
             expected an integer from 1 to 1800, found string",
        ),
        (
            "[[verify.checks]]\nglob = \"*.ts\"\ncommand = \"tsc\"\ntimeout_secs = 0\n",
            "4:16: invalid value `0` for `verify.checks[0].timeout_secs`: \
             expected an integer from 1 to 1800",
        ),
    ];
    for (text, want) in cases {
        assert_eq!(err(text), format!("{PREFIX}:{want}"), "{text}");
    }
}

#[test]
fn checks_need_a_glob_a_command_and_a_known_format() {
    assert_eq!(
        err("[[verify.checks]]\nglob = \"*.ts\"\ncommand = \"tsc\"\nformat = \"json\"\n"),
        format!(
            "{PREFIX}:4:10: invalid value `json` for `verify.checks[0].format`: \
             expected one of: cargo-json, gcc, tsc, lines"
        )
    );
    assert_eq!(
        err("[[verify.checks]]\nglob = \"*.ts\"\ncommand = \"tsc\"\nformat = 1\n"),
        format!(
            "{PREFIX}:4:10: invalid value `1` for `verify.checks[0].format`: \
             expected one of: cargo-json, gcc, tsc, lines, found integer"
        )
    );
    assert_eq!(
        err("[[verify.checks]]\nglob = \"*.ts\"\n"),
        format!(
            "{PREFIX}:1:1: missing `verify.checks[0].command`: expected a non-empty command line"
        )
    );
    let ok = "glob = \"*.rs\"\ncommand = \"cargo check\"\n";
    assert_eq!(
        err(&format!(
            "[[verify.checks]]\n{ok}[[verify.checks]]\ncommand = \"x\"\n"
        )),
        format!("{PREFIX}:4:1: missing `verify.checks[1].glob`: expected a glob such as \"*.ts\"")
    );
    assert_eq!(
        err("[[verify.checks]]\nglob = \"\"\ncommand = \"x\"\n"),
        format!(
            "{PREFIX}:2:8: invalid value `` for `verify.checks[0].glob`: expected a non-empty string"
        )
    );
    assert_eq!(
        err("[[verify.checks]]\nglob = \"*\"\ncommand = \"\"\n"),
        format!(
            "{PREFIX}:3:11: invalid value `` for `verify.checks[0].command`: \
             expected a non-empty string"
        )
    );
}
