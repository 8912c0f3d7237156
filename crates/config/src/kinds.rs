//! The closed sets of choices in config: which wire protocol to speak
//! ([`Provider`]) and how tool calls are approved ([`PermissionMode`]).
//!
//! Both parse from and print as the kebab-case words users type, and a bad
//! word is rejected with the full list of valid ones.

use std::fmt;
use std::str::FromStr;

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

impl Provider {
    /// Every provider, in the order they are listed to users.
    pub const ALL: [Provider; 3] = [
        Provider::Anthropic,
        Provider::OpenaiChat,
        Provider::OpenaiResponses,
    ];

    /// The word used in config files, flags and environment variables.
    pub fn as_str(&self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenaiChat => "openai-chat",
            Provider::OpenaiResponses => "openai-responses",
        }
    }

    /// Parses the word users type; the error lists the valid words.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| format!("unknown provider `{s}`; {}", Self::expected()))
    }

    /// "expected one of: …" for error messages.
    pub(crate) fn expected() -> String {
        expected_list(Self::ALL.iter().map(Self::as_str))
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Provider {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

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

impl PermissionMode {
    /// Every mode, in the order they are listed to users.
    pub const ALL: [PermissionMode; 5] = [
        PermissionMode::Default,
        PermissionMode::AcceptEdits,
        PermissionMode::Plan,
        PermissionMode::Auto,
        PermissionMode::Bypass,
    ];

    /// The word used in config files, flags and environment variables.
    pub fn as_str(&self) -> &'static str {
        match self {
            PermissionMode::Default => "default",
            PermissionMode::AcceptEdits => "accept-edits",
            PermissionMode::Plan => "plan",
            PermissionMode::Auto => "auto",
            PermissionMode::Bypass => "bypass",
        }
    }

    /// Parses the word users type; the error lists the valid words.
    pub fn parse(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| format!("unknown permission mode `{s}`; {}", Self::expected()))
    }

    /// "expected one of: …" for error messages.
    pub(crate) fn expected() -> String {
        expected_list(Self::ALL.iter().map(Self::as_str))
    }
}

impl fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for PermissionMode {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Self::parse(s)
    }
}

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
        let err = PermissionMode::parse("yolo").unwrap_err();
        assert!(
            err.ends_with("default, accept-edits, plan, auto, bypass"),
            "{err}"
        );
    }

    #[test]
    fn serde_uses_the_same_words() {
        #[derive(serde::Deserialize)]
        struct W {
            p: Provider,
            m: PermissionMode,
        }
        let w: W = toml::from_str("p = \"openai-responses\"\nm = \"accept-edits\"").unwrap();
        assert_eq!(w.p, Provider::OpenaiResponses);
        assert_eq!(w.m, PermissionMode::AcceptEdits);
    }
}
