//! The `[hooks]` and `[verify]` tables of a config file: their typed shape
//! (Claude Code's hook layout, in TOML), the keys allowed in `[hooks]`,
//! its groups and hooks and in `[[verify.checks]]`, and the messages for
//! their values of a wrong type (used by `file.rs`; the scalar keys are
//! the key table's), and their validation into [`Assign`]s. Every group and check is stamped with the
//! file it came from.
//!
//! Keys inside arrays of tables are named with 0-based indexes, e.g.
//! `hooks.PreToolUse[0].hooks[1].command`: the position is the only
//! thing that tells two groups of one event apart.

use serde::Deserialize;
use toml::Spanned;

use crate::assign::{Assign, Range};
use crate::builder::{Builder, S};
use crate::error::ConfigError;
use crate::hook_settings::{HookCommandSetting, HookGroupSetting, VerifyCheckSetting};
use crate::kinds::SharedWords as _;
use crate::kinds::{CheckFormat, HookEvent};

/// Keys allowed in `[hooks]`: the switch, then every event (as
/// [`HookEvent::ALL`] spells them).
const HOOKS_KEYS: [&str; 12] = [
    "import_claude_settings",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "UserPromptSubmit",
    "Stop",
    "SubagentStop",
    "SessionStart",
    "SessionEnd",
    "PreCompact",
    "Notification",
];
/// Keys allowed in each `[[hooks.<Event>]]` group.
const GROUP_KEYS: [&str; 2] = ["matcher", "hooks"];
/// Keys allowed in each hook of a group's `hooks` array.
const HOOK_KEYS: [&str; 3] = ["type", "command", "timeout"];
/// Keys allowed in each `[[verify.checks]]`.
const CHECK_KEYS: [&str; 4] = ["glob", "command", "format", "timeout_secs"];

/// The one hook type wright runs.
const COMMAND_TYPE: &str = "command";

fn is_event(name: &str) -> bool {
    HookEvent::parse(name).is_ok()
}

/// The keys allowed in the table at `path` (keys only: array indexes are
/// left out, so a group's path is `["hooks", "<Event>"]`).
pub(crate) fn allowed_keys(path: &[&str]) -> Option<&'static [&'static str]> {
    match path {
        ["hooks"] => Some(&HOOKS_KEYS),
        ["hooks", event] if is_event(event) => Some(&GROUP_KEYS),
        ["hooks", event, "hooks"] if is_event(event) => Some(&HOOK_KEYS),
        ["verify"] => crate::keys::members("verify"),
        ["verify", "checks"] => Some(&CHECK_KEYS),
        _ => None,
    }
}

/// Whether the value at `path` is one of the schema's arrays of tables,
/// whose tables are searched for unknown keys like any other.
pub(crate) fn is_table_array(path: &[&str]) -> bool {
    match path {
        ["hooks", event] | ["hooks", event, "hooks"] => is_event(event),
        ["verify", "checks"] => true,
        _ => false,
    }
}

/// "expected …" for a key under `[hooks]` or `[verify]` whose value has
/// the wrong type; `None` for other keys.
pub(crate) fn expected_for(path: &[&str]) -> Option<String> {
    let message = match path {
        ["hooks" | "verify"] => "expected a table".to_owned(),
        ["hooks", event] => format!("expected an array of tables ([[hooks.{event}]])"),
        ["hooks", _, "hooks"] => {
            "expected an array of tables like { type = \"command\", command = \"…\" }".to_owned()
        }
        ["hooks", _, "hooks", "type"] => type_expected(),
        ["hooks", _, "hooks", "timeout"] => Range::POSITIVE_U32.describe(),
        ["verify", "checks", "timeout_secs"] => Range::VERIFY_TIMEOUT.describe(),
        ["verify", "checks", "format"] => CheckFormat::expected(),
        ["hooks" | "verify", ..] => "expected a string".to_owned(),
        _ => return None,
    };
    Some(message)
}

fn type_expected() -> String {
    format!("only command hooks are supported; expected \"{COMMAND_TYPE}\"")
}

/// `[hooks]`. Fields are the event names; the unknown-key pass has already
/// rejected any other name, listing the valid ones, and the switch
/// (`import_claude_settings`) is the key table's, so serde passes over it.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "PascalCase")]
pub(crate) struct HooksDoc {
    pre_tool_use: Option<Vec<Spanned<GroupDoc>>>,
    post_tool_use: Option<Vec<Spanned<GroupDoc>>>,
    post_tool_use_failure: Option<Vec<Spanned<GroupDoc>>>,
    permission_request: Option<Vec<Spanned<GroupDoc>>>,
    user_prompt_submit: Option<Vec<Spanned<GroupDoc>>>,
    stop: Option<Vec<Spanned<GroupDoc>>>,
    subagent_stop: Option<Vec<Spanned<GroupDoc>>>,
    session_start: Option<Vec<Spanned<GroupDoc>>>,
    session_end: Option<Vec<Spanned<GroupDoc>>>,
    pre_compact: Option<Vec<Spanned<GroupDoc>>>,
    notification: Option<Vec<Spanned<GroupDoc>>>,
}

/// `[[hooks.<Event>]]`. Required keys are optional here so a missing one
/// is reported by name, at its table, rather than by serde.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupDoc {
    matcher: S<String>,
    hooks: S<Vec<Spanned<HookDoc>>>,
}

/// One `{ type = "command", command = "…", timeout = N }`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct HookDoc {
    #[serde(rename = "type")]
    kind: S<String>,
    command: S<String>,
    timeout: S<i64>,
}

/// `[verify]`'s checks; its scalars are the key table's, so serde passes
/// over them (the unknown-key pass has already rejected other keys).
#[derive(Debug, Deserialize)]
pub(crate) struct VerifyDoc {
    checks: Option<Vec<Spanned<CheckDoc>>>,
}

/// `[[verify.checks]]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CheckDoc {
    glob: S<String>,
    command: S<String>,
    format: S<String>,
    timeout_secs: S<i64>,
}

impl HooksDoc {
    /// The groups of every event, in [`HookEvent::ALL`] order.
    fn events(self) -> [(HookEvent, Option<Vec<Spanned<GroupDoc>>>); 11] {
        [
            (HookEvent::PreToolUse, self.pre_tool_use),
            (HookEvent::PostToolUse, self.post_tool_use),
            (HookEvent::PostToolUseFailure, self.post_tool_use_failure),
            (HookEvent::PermissionRequest, self.permission_request),
            (HookEvent::UserPromptSubmit, self.user_prompt_submit),
            (HookEvent::Stop, self.stop),
            (HookEvent::SubagentStop, self.subagent_stop),
            (HookEvent::SessionStart, self.session_start),
            (HookEvent::SessionEnd, self.session_end),
            (HookEvent::PreCompact, self.pre_compact),
            (HookEvent::Notification, self.notification),
        ]
    }
}

fn missing(b: &Builder<'_>, key: String, at: usize, message: &str) -> ConfigError {
    ConfigError::Missing {
        origin: (b.at)(at),
        key,
        message: message.to_owned(),
    }
}

/// `[hooks]`'s groups: one [`Assign::HookGroups`] per event, so the trust
/// screen can name each event it leaves out.
pub(crate) fn hooks(b: &mut Builder<'_>, h: HooksDoc) -> Result<(), ConfigError> {
    for (event, groups) in h.events() {
        let Some(groups) = groups else { continue };
        let groups = groups
            .into_iter()
            .enumerate()
            .map(|(i, g)| group(b, &format!("hooks.{event}[{i}]"), event, g))
            .collect::<Result<Vec<_>, _>>()?;
        b.push(Assign::HookGroups(groups));
    }
    Ok(())
}

fn group(
    b: &Builder<'_>,
    key: &str,
    event: HookEvent,
    g: Spanned<GroupDoc>,
) -> Result<HookGroupSetting, ConfigError> {
    let start = g.span().start;
    let g = g.into_inner();
    // Claude Code reads an empty matcher as "every tool", so it is kept.
    let matcher = g.matcher.map(Spanned::into_inner);
    let Some(list) = g.hooks else {
        return Err(missing(
            b,
            format!("{key}.hooks"),
            start,
            "expected an array of hooks like { type = \"command\", command = \"…\" }",
        ));
    };
    let span = list.span();
    let list = list.into_inner();
    if list.is_empty() {
        return Err(b.invalid(
            &format!("{key}.hooks"),
            span,
            "[]",
            "expected at least one hook".to_owned(),
        ));
    }
    let hooks = list
        .into_iter()
        .enumerate()
        .map(|(i, h)| hook(b, &format!("{key}.hooks[{i}]"), h))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(HookGroupSetting {
        event,
        matcher,
        hooks,
        source: b.source.clone(),
    })
}

fn hook(
    b: &Builder<'_>,
    key: &str,
    h: Spanned<HookDoc>,
) -> Result<HookCommandSetting, ConfigError> {
    let start = h.span().start;
    let h = h.into_inner();
    let Some(kind) = h.kind else {
        return Err(missing(b, format!("{key}.type"), start, &type_expected()));
    };
    if kind.get_ref() != COMMAND_TYPE {
        let span = kind.span();
        return Err(b.invalid(
            &format!("{key}.type"),
            span,
            kind.get_ref(),
            type_expected(),
        ));
    }
    let Some(command) = h.command else {
        return Err(missing(
            b,
            format!("{key}.command"),
            start,
            "expected a non-empty command line",
        ));
    };
    let command = b.text(&format!("{key}.command"), command)?;
    let timeout_secs = h
        .timeout
        .map(|v| b.num(&format!("{key}.timeout"), v, Range::POSITIVE_U32))
        .transpose()?;
    Ok(HookCommandSetting {
        command,
        timeout_secs,
    })
}

/// `[[verify.checks]]`: the checks of the file, as one
/// [`Assign::VerifyChecks`].
pub(crate) fn verify(b: &mut Builder<'_>, v: VerifyDoc) -> Result<(), ConfigError> {
    if let Some(checks) = v.checks {
        let checks = checks
            .into_iter()
            .enumerate()
            .map(|(i, c)| check(b, &format!("verify.checks[{i}]"), c))
            .collect::<Result<Vec<_>, _>>()?;
        b.push(Assign::VerifyChecks(checks));
    }
    Ok(())
}

fn check(
    b: &Builder<'_>,
    key: &str,
    c: Spanned<CheckDoc>,
) -> Result<VerifyCheckSetting, ConfigError> {
    let start = c.span().start;
    let c = c.into_inner();
    let Some(glob) = c.glob else {
        return Err(missing(
            b,
            format!("{key}.glob"),
            start,
            "expected a glob such as \"*.ts\"",
        ));
    };
    let glob = b.text(&format!("{key}.glob"), glob)?;
    let Some(command) = c.command else {
        return Err(missing(
            b,
            format!("{key}.command"),
            start,
            "expected a non-empty command line",
        ));
    };
    let command = b.text(&format!("{key}.command"), command)?;
    let format = c
        .format
        .map(|f| {
            b.word(
                &format!("{key}.format"),
                f,
                CheckFormat::parse,
                CheckFormat::expected,
            )
        })
        .transpose()?
        .unwrap_or_default();
    let timeout_secs = c
        .timeout_secs
        .map(|v| b.num(&format!("{key}.timeout_secs"), v, Range::VERIFY_TIMEOUT))
        .transpose()?;
    Ok(VerifyCheckSetting {
        glob,
        command,
        format,
        timeout_secs,
        source: b.source.clone(),
    })
}

#[cfg(test)]
#[path = "doc_hooks_tests.rs"]
mod tests;
