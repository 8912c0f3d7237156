//! The plain keys read through the key table, seen through `[agents]`
//! parsed from file text: every key, and every error with its
//! line, column and key.

use std::path::Path;

use crate::assign::Assign;
use crate::error::ConfigError;
use crate::file::parse_file;
use crate::kinds::AgentIsolation;

const PREFIX: &str = "/p/.wright/config.toml";

fn parse(text: &str) -> Result<Vec<Assign>, ConfigError> {
    parse_file(Path::new(PREFIX), text, Path::new("/p"))
}

fn err(text: &str) -> String {
    parse(text).unwrap_err().to_string()
}

#[test]
fn every_agents_key_parses_in_key_order() {
    let text = "[agents]\nuser_agents = true\nisolation = \"worktree\"\nmax_turns = 7\n\
                max_concurrent = 16\nimport_claude_agents = true\n";
    assert_eq!(
        parse(text).unwrap(),
        vec![
            Assign::AgentMaxTurns(7),
            Assign::AgentMaxConcurrent(16),
            Assign::AgentIsolation(AgentIsolation::Worktree),
            Assign::ImportClaudeAgents(true),
            Assign::UserAgents(true),
        ]
    );
    assert_eq!(
        parse("[agents]\nisolation = \"none\"\nmax_concurrent = 1\n").unwrap(),
        vec![
            Assign::AgentMaxConcurrent(1),
            Assign::AgentIsolation(AgentIsolation::None),
        ]
    );
    assert_eq!(parse("[agents]\n").unwrap(), vec![]);
}

#[test]
fn bad_agents_values_name_file_line_and_key() {
    let cases = [
        (
            "[agents]\nmax_turn = 3\n",
            "2:1: unknown key `agents.max_turn` (expected one of: max_turns, max_concurrent, \
             isolation, import_claude_agents, user_agents)",
        ),
        (
            "[agents]\nmax_turns = 0\n",
            "2:13: invalid value `0` for `agents.max_turns`: expected a positive integer",
        ),
        (
            "[agents]\nmax_concurrent = 17\n",
            "2:18: invalid value `17` for `agents.max_concurrent`: \
             expected an integer from 1 to 16",
        ),
        (
            "[agents]\nmax_concurrent = \"4\"\n",
            "2:18: invalid value `\"4\"` for `agents.max_concurrent`: \
             expected an integer from 1 to 16, found string",
        ),
        (
            "[agents]\nisolation = \"container\"\n",
            "2:13: invalid value `container` for `agents.isolation`: \
             expected one of: none, worktree",
        ),
        (
            "[agents]\nuser_agents = \"yes\"\n",
            "2:15: invalid value `\"yes\"` for `agents.user_agents`: \
             expected true or false, found string",
        ),
        (
            "[agents]\nimport_claude_agents = 1\n",
            "2:24: invalid value `1` for `agents.import_claude_agents`: \
             expected true or false, found integer",
        ),
        (
            "agents = 1\n",
            "1:10: invalid value `1` for `agents`: expected a table, found integer",
        ),
    ];
    for (text, expected) in cases {
        assert_eq!(err(text), format!("{PREFIX}:{expected}"), "{text}");
    }
}

#[test]
fn the_first_wrong_type_in_the_file_wins_whoever_checks_it() {
    // A plain key (checked against its row) before a model's value
    // (checked by serde), then the other way round.
    assert_eq!(
        err("max_tokens = \"x\"\n[models.m]\nmax_output = \"y\"\n"),
        format!(
            "{PREFIX}:1:14: invalid value `\"x\"` for `max_tokens`: \
             expected a positive integer, found string"
        )
    );
    assert_eq!(
        err("[models.m]\nmax_output = \"y\"\n[agents]\nmax_turns = \"x\"\n"),
        format!(
            "{PREFIX}:2:14: invalid value `\"y\"` for `models.m.max_output`: \
             expected a positive integer, found string"
        )
    );
}

#[test]
fn a_plain_table_that_is_no_table_is_named() {
    assert_eq!(
        err("tools = [1]\n"),
        format!("{PREFIX}:1:9: invalid value `[1]` for `tools`: expected a table, found array")
    );
    assert_eq!(
        err("mcp = \"x\"\n"),
        format!("{PREFIX}:1:7: invalid value `\"x\"` for `mcp`: expected a table, found string")
    );
}

#[test]
fn hex_and_underscored_integers_are_read_as_serde_read_them() {
    assert_eq!(
        parse("[agents]\nmax_turns = 0x10\nmax_concurrent = 1_0\n").unwrap(),
        vec![Assign::AgentMaxTurns(16), Assign::AgentMaxConcurrent(10)]
    );
}

#[test]
fn values_without_positions_are_checked_and_set_through_the_row() {
    use super::{Refused, assign, assign_text};
    use crate::keys::{TABLE, index_of};
    use crate::kinds::Provider;
    use crate::parsed::Parsed;
    let row = |name| &TABLE[index_of(name)];
    assert_eq!(
        assign_text(row("provider"), " anthropic "),
        Ok(Assign::Provider(Provider::Anthropic))
    );
    assert_eq!(
        assign_text(row("agents.max_turns"), " 7 "),
        Ok(Assign::AgentMaxTurns(7))
    );
    let refused = |value: &str, message: &str| {
        Err(Refused {
            value: value.to_owned(),
            message: message.to_owned(),
        })
    };
    assert_eq!(
        assign_text(row("agents.max_concurrent"), "99"),
        refused("99", "expected an integer from 1 to 16")
    );
    assert_eq!(
        assign_text(row("agents.isolation"), "vm"),
        refused("vm", "expected one of: none, worktree")
    );
    assert_eq!(
        assign(row("base_url"), Parsed::Text("localhost".into())),
        refused("localhost", "expected an http:// or https:// URL")
    );
    assert_eq!(
        assign(
            row("permissions.ask"),
            Parsed::Strings(vec!["Bash".into(), String::new()])
        ),
        refused("", "expected a non-empty string")
    );
    assert_eq!(
        assign(row("verify.enabled"), Parsed::Bool(false)),
        Ok(Assign::VerifyEnabled(false))
    );
}
