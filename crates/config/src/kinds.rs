//! The closed sets of choices in config: which wire protocol to speak
//! ([`Provider`]), how tool calls are approved ([`PermissionMode`]), how
//! hard the model reasons ([`ReasoningEffort`]), how shell commands are
//! confined ([`SandboxMode`]), when a hook runs ([`HookEvent`]), how a
//! verify check's output is read ([`CheckFormat`]), when MCP tool
//! schemas are deferred ([`McpToolSearch`]) and where subagents run
//! ([`AgentIsolation`]).
//!
//! All parse from and print as the kebab-case words users type, and a bad
//! word is rejected with the full list of valid ones. `SandboxMode` and
//! `HookEvent` are defined in `wright_protocol`, since the sandbox and the
//! hooks use them too; config re-exports them.

use std::fmt;
use std::str::FromStr;

/// The shared word plumbing of every choice enum: `ALL`, `as_str`,
/// `parse`, `expected`, `Display` and `FromStr`, so the choice enums cannot
/// drift apart in how they spell or reject words.
macro_rules! words {
    ($ty:ident, $what:literal, [$($variant:ident => $word:literal),+ $(,)?]) => {
        words!($ty, $what, [$($variant => $word),+], aliases []);
    };
    ($ty:ident, $what:literal, [$($variant:ident => $word:literal),+ $(,)?],
     aliases [$($alias:literal => $target:ident),* $(,)?]) => {
        impl $ty {
            /// Every choice, in the order they are listed to users.
            pub const ALL: [$ty; words!(@count $($variant)+)] = [$($ty::$variant),+];

            /// The word used in config files, flags and environment variables.
            pub fn as_str(&self) -> &'static str {
                match self {
                    $($ty::$variant => $word),+
                }
            }

            /// Parses the word users type (or an accepted alias); the error
            /// lists the valid words.
            pub fn parse(s: &str) -> Result<Self, String> {
                let aliases: &[(&str, $ty)] = &[$(($alias, $ty::$target)),*];
                Self::ALL
                    .into_iter()
                    .find(|v| v.as_str() == s)
                    .or_else(|| aliases.iter().find(|(a, _)| *a == s).map(|(_, v)| *v))
                    .ok_or_else(|| format!(concat!("unknown ", $what, " `{}`; {}"), s, Self::expected()))
            }

            /// "expected one of: …" for error messages.
            pub(crate) fn expected() -> String {
                expected_list(Self::ALL.iter().map(Self::as_str))
            }
        }

        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl FromStr for $ty {
            type Err = String;

            fn from_str(s: &str) -> Result<Self, Self::Err> {
                Self::parse(s)
            }
        }
    };
    (@count $($t:ident)+) => { <[()]>::len(&[$(words!(@unit $t)),+]) };
    (@unit $t:ident) => { () };
}

/// Config's word plumbing for the choices defined below it, in
/// `wright_protocol`: the same `parse` and `expected` as [`words!`] gives
/// the choices defined here, as a trait because those types are not this
/// crate's (their `ALL`, `as_str`, `Display` and `FromStr` are their own).
pub(crate) trait SharedWords: Sized + Copy + 'static {
    /// What the choice is called in error messages.
    const WHAT: &'static str;

    /// Every choice, in the order they are listed to users.
    fn all() -> &'static [Self];

    /// The word used in config files, flags and environment variables.
    fn word(self) -> &'static str;

    /// Parses the word users type; the error lists the valid words.
    fn parse(s: &str) -> Result<Self, String> {
        Self::all()
            .iter()
            .copied()
            .find(|v| v.word() == s)
            .ok_or_else(|| format!("unknown {} `{s}`; {}", Self::WHAT, Self::expected()))
    }

    /// "expected one of: …" for error messages.
    fn expected() -> String {
        expected_list(Self::all().iter().map(|v| v.word()))
    }
}

/// [`SharedWords`] for one `wright_protocol` choice.
macro_rules! shared_words {
    ($ty:ident, $what:literal) => {
        impl SharedWords for $ty {
            const WHAT: &'static str = $what;

            fn all() -> &'static [Self] {
                &$ty::ALL
            }

            fn word(self) -> &'static str {
                self.as_str()
            }
        }
    };
}

/// The wire protocol wright speaks to the model server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// Anthropic Messages API (`/v1/messages`).
    Anthropic,
    /// OpenAI Chat Completions (`/chat/completions`), also used by local servers.
    OpenaiChat,
    /// OpenAI Responses API (`/responses`).
    OpenaiResponses,
}

words!(Provider, "provider", [
    Anthropic => "anthropic",
    OpenaiChat => "openai-chat",
    OpenaiResponses => "openai-responses",
]);

/// How tool calls are approved (see DESIGN.md §5).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum PermissionMode {
    /// Reads are allowed; edits and commands ask.
    #[default]
    Default,
    /// Edits are allowed; commands ask.
    AcceptEdits,
    /// Read-only: nothing is changed.
    Plan,
    /// Everything but dangerous actions is allowed.
    Auto,
    /// Everything is allowed (guards still apply).
    Bypass,
}

// Claude Code's names are accepted too. Its `dontAsk` (never ask; refuse
// what no rule allows) has no exact counterpart: it maps to `default`,
// whose asks a headless run already turns into refusals, so the alias
// can never grant more than the user's rules do.
words!(PermissionMode, "permission mode", [
    Default => "default",
    AcceptEdits => "accept-edits",
    Plan => "plan",
    Auto => "auto",
    Bypass => "bypass",
], aliases [
    "acceptEdits" => AcceptEdits,
    "bypassPermissions" => Bypass,
    "dontAsk" => Default,
]);

/// How much the model should reason before answering (OpenAI
/// `reasoning.effort`; Anthropic maps it to a thinking budget).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Deserialize, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ReasoningEffort {
    /// Little reasoning, fastest.
    Low,
    /// The providers' usual default.
    Medium,
    /// Most reasoning, slowest.
    High,
}

words!(ReasoningEffort, "reasoning effort", [
    Low => "low",
    Medium => "medium",
    High => "high",
]);

// The sandbox's mode and the hook events are named by the config and used
// by the crates that enforce and run them, so each is defined once, in
// `wright_protocol`, and given config's word plumbing here.
pub use wright_protocol::{HookEvent, SandboxMode};

shared_words!(SandboxMode, "sandbox mode");
shared_words!(HookEvent, "hook event");

/// How the verifier reads a check's output into diagnostics.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum CheckFormat {
    /// `cargo --message-format=json` messages.
    CargoJson,
    /// `file:line:column: severity: message`, as gcc, clang and many linters print.
    Gcc,
    /// `file(line,column): error TSxxxx: message`, as `tsc --pretty false` prints.
    Tsc,
    /// Any other tool: read line by line, assuming no layout. The default,
    /// since it is the only one that fits every tool.
    #[default]
    Lines,
}

words!(CheckFormat, "check format", [
    CargoJson => "cargo-json",
    Gcc => "gcc",
    Tsc => "tsc",
    Lines => "lines",
]);

/// When MCP tool schemas are sent in full or deferred behind a search tool
/// (`mcp.tool_search`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum McpToolSearch {
    /// Deferred when the schemas would take a large share of the window.
    #[default]
    Auto,
    /// Always deferred.
    On,
    /// Never deferred.
    Off,
}

words!(McpToolSearch, "tool search setting", [
    Auto => "auto",
    On => "on",
    Off => "off",
]);

/// Where a subagent runs (`agents.isolation`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum AgentIsolation {
    /// In the parent's working tree.
    #[default]
    None,
    /// In a fresh `git worktree` on a branch of its own.
    Worktree,
}

words!(AgentIsolation, "agent isolation", [
    None => "none",
    Worktree => "worktree",
]);

/// How the terminal UI tells a person in another window that it waits
/// for them (`tui.notify`).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, serde::Deserialize, serde::Serialize,
)]
#[serde(rename_all = "kebab-case")]
pub enum TuiNotify {
    /// The terminal bell.
    #[default]
    Bell,
    /// An OSC 9 desktop notification (iTerm2, WezTerm, kitty, Windows Terminal).
    Osc9,
    /// Nothing.
    Off,
}

words!(TuiNotify, "notification setting", [
    Bell => "bell",
    Osc9 => "osc9",
    Off => "off",
]);

fn expected_list<'a>(words: impl Iterator<Item = &'a str>) -> String {
    format!("expected one of: {}", words.collect::<Vec<_>>().join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn providers_round_trip_through_their_words() {
        for p in Provider::ALL {
            assert_eq!(Provider::parse(p.as_str()), Ok(p));
            assert_eq!(p.to_string().parse::<Provider>(), Ok(p));
        }
        assert_eq!(Provider::OpenaiChat.as_str(), "openai-chat");
    }

    #[test]
    fn bad_provider_lists_the_valid_ones() {
        let err = Provider::parse("openai").unwrap_err();
        assert_eq!(
            err,
            "unknown provider `openai`; expected one of: anthropic, openai-chat, openai-responses"
        );
    }

    #[test]
    fn modes_round_trip_and_default_is_default() {
        for m in PermissionMode::ALL {
            assert_eq!(PermissionMode::parse(m.as_str()), Ok(m));
        }
        assert_eq!(PermissionMode::default(), PermissionMode::Default);
        assert_eq!(
            PermissionMode::parse("acceptEdits"),
            Ok(PermissionMode::AcceptEdits)
        );
        assert_eq!(
            PermissionMode::parse("bypassPermissions"),
            Ok(PermissionMode::Bypass)
        );
        assert_eq!(
            PermissionMode::parse("dontAsk"),
            Ok(PermissionMode::Default)
        );
        let err = PermissionMode::parse("yolo").unwrap_err();
        assert!(
            err.ends_with("default, accept-edits, plan, auto, bypass"),
            "{err}"
        );
    }

    #[test]
    fn effort_and_sandbox_words() {
        for e in ReasoningEffort::ALL {
            assert_eq!(ReasoningEffort::parse(e.as_str()), Ok(e));
        }
        for m in SandboxMode::ALL {
            assert_eq!(m.to_string().parse::<SandboxMode>(), Ok(m));
        }
        assert_eq!(SandboxMode::default(), SandboxMode::WorkspaceWrite);
        assert_eq!(
            ReasoningEffort::parse("max").unwrap_err(),
            "unknown reasoning effort `max`; expected one of: low, medium, high"
        );
        assert_eq!(
            SandboxMode::parse("none").unwrap_err(),
            "unknown sandbox mode `none`; expected one of: read-only, workspace-write, full"
        );
    }

    #[test]
    fn hook_events_and_check_formats() {
        assert_eq!(HookEvent::ALL.len(), 11);
        for e in HookEvent::ALL {
            assert_eq!(HookEvent::parse(e.as_str()), Ok(e));
        }
        assert_eq!(HookEvent::PostToolUseFailure.as_str(), "PostToolUseFailure");
        assert!(HookEvent::parse("pretooluse").is_err(), "case matters");
        for f in CheckFormat::ALL {
            assert_eq!(f.to_string().parse::<CheckFormat>(), Ok(f));
        }
        assert_eq!(CheckFormat::default(), CheckFormat::Lines);
        assert_eq!(
            CheckFormat::parse("json").unwrap_err(),
            "unknown check format `json`; expected one of: cargo-json, gcc, tsc, lines"
        );
    }

    #[test]
    fn serde_uses_the_same_words() {
        #[derive(serde::Deserialize)]
        struct W {
            p: Provider,
            m: PermissionMode,
            e: ReasoningEffort,
            s: SandboxMode,
        }
        let w: W = toml::from_str(
            "p = \"openai-responses\"\nm = \"accept-edits\"\ne = \"high\"\ns = \"read-only\"",
        )
        .unwrap();
        assert_eq!(w.p, Provider::OpenaiResponses);
        assert_eq!(w.m, PermissionMode::AcceptEdits);
        assert_eq!(w.e, ReasoningEffort::High);
        assert_eq!(w.s, SandboxMode::ReadOnly);
    }
}
