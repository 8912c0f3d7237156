//! The resolved `[hooks]` and `[verify]` tables ([`HookSettings`],
//! [`VerifySettings`]) and how `wright config show` prints them. Both run
//! commands on the user's machine, so every hook group and verify check
//! keeps the [`Source`] (file) it came from: the user must always be able
//! to learn whose command is running.

use std::fmt::Write as _;

use toml::Value;

use crate::kinds::{CheckFormat, HookEvent};
use crate::source::Source;
use crate::toml_text::quote;

/// Default for [`VerifySettings::timeout_secs`].
pub const DEFAULT_VERIFY_TIMEOUT_SECS: u64 = 120;
/// Largest allowed verify timeout (`verify.timeout_secs` and each check's).
pub const MAX_VERIFY_TIMEOUT_SECS: u64 = 1800;

/// `[hooks]`: user hooks in Claude Code's shape.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HookSettings {
    /// Whether the caller should also read the hooks of
    /// `<project>/.claude/settings.json` (this crate does not read it).
    /// That file is the project's own: honour it only when
    /// [`crate::Settings::project_trusted`], whoever turned this on.
    pub import_claude_settings: bool,
    /// `[[hooks.<Event>]]` groups, appended across layers (user, project,
    /// local) in file order; identical groups are kept once, first wins.
    pub groups: Vec<HookGroupSetting>,
}

/// One `[[hooks.<Event>]]` table: the hooks to run on `event` when
/// `matcher` matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookGroupSetting {
    /// The event the group runs on.
    pub event: HookEvent,
    /// Claude Code's matcher, a regex over the event's target (the tool
    /// name for tool events), as written; not compiled here. `None`, `""`
    /// and `"*"` match everything.
    pub matcher: Option<String>,
    /// The commands, in file order; never empty.
    pub hooks: Vec<HookCommandSetting>,
    /// The config file that defined the group (always [`Source::File`]);
    /// [`crate::Resolved::describe_source`] names its layer.
    pub source: Source,
}

/// One `{ type = "command", command = "…", timeout = N }` hook.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HookCommandSetting {
    /// The command line, as written (non-empty).
    pub command: String,
    /// `timeout` in seconds (>= 1); `None` leaves the hook runner's default.
    pub timeout_secs: Option<u64>,
}

/// `[verify]`: the same-turn verifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifySettings {
    /// Whether the verifier runs at all (`--no-verify` turns it off).
    pub enabled: bool,
    /// Time limit of a check without its own, 1..=1800 seconds.
    pub timeout_secs: u64,
    /// `[[verify.checks]]`, appended across layers in file order;
    /// identical checks are kept once, first wins.
    pub checks: Vec<VerifyCheckSetting>,
}

/// One `[[verify.checks]]` table: run `command` after an edit to a file
/// matching `glob`, and read its output as `format`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifyCheckSetting {
    /// Which edited files the check covers, as written (non-empty). Not
    /// compiled here (this crate has no glob engine): the verifier must
    /// report a glob it cannot compile.
    pub glob: String,
    /// The command line, as written (non-empty).
    pub command: String,
    /// How the output is read; `lines` when the file does not say.
    pub format: CheckFormat,
    /// This check's time limit, 1..=1800 seconds; `None` uses
    /// [`VerifySettings::timeout_secs`].
    pub timeout_secs: Option<u64>,
    /// The config file that defined the check (always [`Source::File`]).
    pub source: Source,
}

impl Default for VerifySettings {
    fn default() -> Self {
        VerifySettings {
            enabled: true,
            timeout_secs: DEFAULT_VERIFY_TIMEOUT_SECS,
            checks: Vec::new(),
        }
    }
}

impl HookSettings {
    /// The groups for `event`, in merge order.
    pub fn groups_for(&self, event: HookEvent) -> impl Iterator<Item = &HookGroupSetting> {
        self.groups.iter().filter(move |g| g.event == event)
    }

    /// `hooks` as TOML: a table of event name → array of groups, in
    /// Claude Code's shape (what a config file would say).
    pub(crate) fn to_value(&self) -> Value {
        let mut table = toml::Table::new();
        for event in HookEvent::ALL {
            let groups: Vec<Value> = self.groups_for(event).map(group_value).collect();
            if !groups.is_empty() {
                table.insert(event.as_str().to_owned(), Value::Array(groups));
            }
        }
        Value::Table(table)
    }

    /// `config show` lines for the groups: one `hooks.<Event> = [ … ]`
    /// line per event (TOML cannot repeat a key), commented with every
    /// file that contributed; written in Claude Code's key order, so the
    /// text reads like the file it came from and loads back to the same
    /// groups.
    pub(crate) fn render(&self, out: &mut String, source: &Source) {
        if self.groups.is_empty() {
            // `hooks = {}` would clash with `hooks.import_claude_settings`.
            // Writing to a String cannot fail.
            let _ = writeln!(out, "# hooks = {{}}  # {source}");
            return;
        }
        for event in HookEvent::ALL {
            let groups: Vec<&HookGroupSetting> = self.groups_for(event).collect();
            if groups.is_empty() {
                continue;
            }
            let items: Vec<String> = groups.iter().map(|g| group_inline(g)).collect();
            let sources = sources(groups.iter().map(|g| &g.source));
            // Writing to a String cannot fail.
            let _ = writeln!(out, "hooks.{event} = [{}]  # {sources}", items.join(", "));
        }
    }
}

impl HookGroupSetting {
    /// Same event, matcher and hooks, wherever each was written.
    pub(crate) fn same_as(&self, other: &HookGroupSetting) -> bool {
        self.event == other.event && self.matcher == other.matcher && self.hooks == other.hooks
    }
}

impl VerifySettings {
    /// The time limit `check` runs under: its own, else the default.
    pub fn check_timeout_secs(&self, check: &VerifyCheckSetting) -> u64 {
        check.timeout_secs.unwrap_or(self.timeout_secs)
    }

    /// `verify.checks` as TOML: an array of check tables.
    pub(crate) fn checks_value(&self) -> Value {
        Value::Array(self.checks.iter().map(check_value).collect())
    }

    /// The `verify.checks = [ … ]` line of `config show`, commented with
    /// every file that contributed a check (`source` when none did).
    pub(crate) fn render_checks(&self, out: &mut String, source: &Source) {
        let items: Vec<String> = self.checks.iter().map(check_inline).collect();
        let sources = if self.checks.is_empty() {
            source.to_string()
        } else {
            sources(self.checks.iter().map(|c| &c.source))
        };
        // Writing to a String cannot fail.
        let _ = writeln!(out, "verify.checks = [{}]  # {sources}", items.join(", "));
    }
}

impl VerifyCheckSetting {
    /// Same glob, command, format and timeout, wherever each was written.
    pub(crate) fn same_as(&self, other: &VerifyCheckSetting) -> bool {
        self.glob == other.glob
            && self.command == other.command
            && self.format == other.format
            && self.timeout_secs == other.timeout_secs
    }
}

fn int(n: u64) -> Value {
    Value::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

fn group_value(group: &HookGroupSetting) -> Value {
    let mut t = toml::Table::new();
    if let Some(m) = &group.matcher {
        t.insert("matcher".into(), Value::String(m.clone()));
    }
    let hooks = group
        .hooks
        .iter()
        .map(|h| {
            let mut hook = toml::Table::new();
            hook.insert("type".into(), Value::String("command".into()));
            hook.insert("command".into(), Value::String(h.command.clone()));
            if let Some(secs) = h.timeout_secs {
                hook.insert("timeout".into(), int(secs));
            }
            Value::Table(hook)
        })
        .collect();
    t.insert("hooks".into(), Value::Array(hooks));
    Value::Table(t)
}

fn check_value(check: &VerifyCheckSetting) -> Value {
    let mut t = toml::Table::new();
    t.insert("glob".into(), Value::String(check.glob.clone()));
    t.insert("command".into(), Value::String(check.command.clone()));
    t.insert("format".into(), Value::String(check.format.as_str().into()));
    if let Some(secs) = check.timeout_secs {
        t.insert("timeout_secs".into(), int(secs));
    }
    Value::Table(t)
}

/// A group as an inline table, keys in the order Claude Code documents
/// them (a `toml::Table` would sort them).
fn group_inline(group: &HookGroupSetting) -> String {
    let hooks: Vec<String> = group
        .hooks
        .iter()
        .map(|h| {
            let timeout = h
                .timeout_secs
                .map(|s| format!(", timeout = {s}"))
                .unwrap_or_default();
            format!(
                "{{ type = \"command\", command = {}{timeout} }}",
                quote(&h.command)
            )
        })
        .collect();
    let matcher = group
        .matcher
        .as_ref()
        .map(|m| format!("matcher = {}, ", quote(m)))
        .unwrap_or_default();
    format!("{{ {matcher}hooks = [{}] }}", hooks.join(", "))
}

fn check_inline(check: &VerifyCheckSetting) -> String {
    let timeout = check
        .timeout_secs
        .map(|s| format!(", timeout_secs = {s}"))
        .unwrap_or_default();
    format!(
        "{{ glob = {}, command = {}, format = {}{timeout} }}",
        quote(&check.glob),
        quote(&check.command),
        quote(check.format.as_str())
    )
}

/// The distinct sources, in order, joined with `, `.
fn sources<'a>(all: impl Iterator<Item = &'a Source>) -> String {
    let mut seen: Vec<&Source> = Vec::new();
    for s in all {
        if !seen.contains(&s) {
            seen.push(s);
        }
    }
    seen.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}
