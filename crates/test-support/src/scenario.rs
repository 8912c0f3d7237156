//! Canned multi-turn scripts shared by end-to-end tests, benchmarks and the
//! `wright-mock` binary, defined once and rendered for each of the three wire protocols.

use serde_json::{Value, json};

use crate::{MockResponse, Provider, anthropic, openai_chat, openai_responses};

/// The names [`script`] knows, in the order `wright-mock --help` lists them.
pub const NAMES: &[&str] = &["echo-hello", "read-write", "text"];

/// The final text of the `echo-hello` scenario.
pub const ECHO_HELLO_FINAL_TEXT: &str = "The file says: hello";
/// The final text of the `read-write` scenario.
pub const READ_WRITE_FINAL_TEXT: &str = "Done.";
/// The only answer of the `text` scenario.
pub const TEXT_ANSWER: &str = "Hello! I am a mock model.";

/// One model turn of a scenario.
#[derive(Debug, Clone, PartialEq)]
pub enum Turn {
    /// The model calls one tool.
    ToolCall {
        /// Tool name (`bash`, `read`, `write`).
        name: &'static str,
        /// Arguments object.
        arguments: Value,
    },
    /// The model answers with text and ends its turn.
    Text(&'static str),
}

/// The turns of a scenario, provider-independent; `None` for an unknown name.
pub fn turns(name: &str) -> Option<Vec<Turn>> {
    let tool = |name, arguments| Turn::ToolCall { name, arguments };
    match name {
        "echo-hello" => Some(vec![
            tool(
                "Bash",
                json!({"command": "echo hello > out.txt && cat out.txt"}),
            ),
            Turn::Text(ECHO_HELLO_FINAL_TEXT),
        ]),
        "read-write" => Some(vec![
            tool("Read", json!({"file_path": "input.txt"})),
            tool(
                "Write",
                json!({"file_path": "output.txt", "content": "copied\n"}),
            ),
            Turn::Text(READ_WRITE_FINAL_TEXT),
        ]),
        "text" => Some(vec![Turn::Text(TEXT_ANSWER)]),
        _ => None,
    }
}

/// The tool-call id turn `n` (0-based) of a scenario uses for `provider`.
pub fn call_id(provider: Provider, n: usize) -> String {
    match provider {
        Provider::Anthropic => format!("toolu_01MockCall{n:010}"),
        Provider::OpenAiChat | Provider::OpenAiResponses => format!("call_MockCall{n:010}"),
    }
}

/// The scenario rendered as SSE responses for `provider`, one per turn;
/// `None` for an unknown name.
pub fn script(provider: Provider, name: &str) -> Option<Vec<MockResponse>> {
    let turns = turns(name)?;
    Some(
        turns
            .iter()
            .enumerate()
            .map(|(n, turn)| MockResponse::sse(render(provider, n, turn)))
            .collect(),
    )
}

fn render(provider: Provider, n: usize, turn: &Turn) -> String {
    match (provider, turn) {
        (Provider::Anthropic, Turn::Text(text)) => anthropic::text(text),
        (Provider::OpenAiChat, Turn::Text(text)) => openai_chat::text(text),
        (Provider::OpenAiResponses, Turn::Text(text)) => openai_responses::text(text),
        (Provider::Anthropic, Turn::ToolCall { name, arguments }) => {
            anthropic::tool_calls(&[(&call_id(provider, n), name, arguments.clone())])
        }
        (Provider::OpenAiChat, Turn::ToolCall { name, arguments }) => {
            openai_chat::tool_calls(&[(&call_id(provider, n), name, arguments.clone())])
        }
        (Provider::OpenAiResponses, Turn::ToolCall { name, arguments }) => {
            openai_responses::tool_calls(&[(&call_id(provider, n), name, arguments.clone())])
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_named_scenario_renders_for_both_providers() {
        for name in NAMES {
            for provider in [
                Provider::Anthropic,
                Provider::OpenAiChat,
                Provider::OpenAiResponses,
            ] {
                let s = script(provider, name).unwrap();
                assert_eq!(s.len(), turns(name).unwrap().len());
                assert!(s.iter().all(|r| r.status() == 200));
            }
        }
        assert!(script(Provider::Anthropic, "nope").is_none());
    }

    #[test]
    fn call_ids_have_provider_prefixes() {
        assert!(call_id(Provider::Anthropic, 0).starts_with("toolu_"));
        assert!(call_id(Provider::OpenAiChat, 1).starts_with("call_"));
    }
}
