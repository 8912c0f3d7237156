//! Per-server quirks of the Chat Completions dialect, as flags with
//! built-in presets keyed by server and model. The lead wires config
//! overrides on top of [`ChatCompat::for_server`].

use crate::ids::IdRules;

/// The role the system prompt is sent as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SystemRole {
    /// `system`: what every compatible server understands.
    System,
    /// `developer`: what OpenAI's reasoning models expect.
    Developer,
}

/// The request field carrying the output token limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaxTokensField {
    /// `max_tokens`: the original field, which local servers read.
    MaxTokens,
    /// `max_completion_tokens`: OpenAI's replacement; reasoning models reject `max_tokens`.
    MaxCompletionTokens,
}

/// How to talk to one Chat Completions server.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ChatCompat {
    /// The system prompt's role.
    pub system_role: SystemRole,
    /// The output-limit field.
    pub max_tokens_field: MaxTokensField,
    /// Send `stream_options: {include_usage: true}` and expect a final usage
    /// chunk. Off for servers that reject the field.
    pub stream_usage: bool,
    /// Accept `reasoning_content` / `reasoning` deltas as thinking.
    pub reasoning_field: bool,
    /// Which tool-call ids go back unchanged: OpenAI's service caps them
    /// at 40 characters; other servers want their own (longer) ids back.
    pub tool_call_ids: IdRules,
}

impl Default for ChatCompat {
    /// What most compatible servers accept.
    fn default() -> Self {
        Self {
            system_role: SystemRole::System,
            max_tokens_field: MaxTokensField::MaxTokens,
            stream_usage: true,
            reasoning_field: true,
            tool_call_ids: IdRules::CHAT,
        }
    }
}

/// OpenAI's reasoning models: the o-series and gpt-5.
fn is_openai_reasoning_model(model: &str) -> bool {
    let bare = model.rsplit('/').next().unwrap_or(model);
    bare.starts_with("gpt-5")
        || (bare.starts_with('o') && bare.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
}

impl ChatCompat {
    /// The preset for the server at `base_url` running `model`:
    /// - `api.openai.com`: `max_completion_tokens`, and the `developer`
    ///   role for o-series and gpt-5 models; no reasoning deltas.
    /// - `api.mistral.ai`: no `stream_options` (usage arrives anyway).
    /// - OpenRouter, DeepSeek, and local servers (Ollama :11434, llama.cpp
    ///   :8080, vLLM :8000, LM Studio :1234) and anything else: the defaults.
    pub fn for_server(base_url: &str, model: &str) -> Self {
        let host = reqwest::Url::parse(base_url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
            .unwrap_or_default();
        let on = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
        if on("api.openai.com") {
            Self {
                system_role: if is_openai_reasoning_model(model) {
                    SystemRole::Developer
                } else {
                    SystemRole::System
                },
                max_tokens_field: MaxTokensField::MaxCompletionTokens,
                stream_usage: true,
                reasoning_field: false,
                tool_call_ids: IdRules::OPENAI_CHAT,
            }
        } else if on("api.mistral.ai") {
            Self {
                stream_usage: false,
                ..Self::default()
            }
        } else {
            Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_presets() {
        let o = ChatCompat::for_server("https://api.openai.com/v1", "o4-mini");
        assert_eq!(o.system_role, SystemRole::Developer);
        assert_eq!(o.max_tokens_field, MaxTokensField::MaxCompletionTokens);
        assert!(o.stream_usage && !o.reasoning_field);
        let g5 = ChatCompat::for_server("https://api.openai.com/v1/", "gpt-5-mini");
        assert_eq!(g5.system_role, SystemRole::Developer);
        let g4 = ChatCompat::for_server("https://api.openai.com/v1", "gpt-4o");
        assert_eq!(g4.system_role, SystemRole::System);
        assert_eq!(g4.max_tokens_field, MaxTokensField::MaxCompletionTokens);
    }

    #[test]
    fn gateway_and_local_presets_use_the_classic_fields() {
        for base in [
            "https://openrouter.ai/api/v1",
            "http://localhost:11434/v1",
            "http://127.0.0.1:8080/v1",
            "http://localhost:8000/v1",
            "http://localhost:1234/v1",
            "https://api.deepseek.com/v1",
            "not a url",
        ] {
            let c = ChatCompat::for_server(base, "openai/o3");
            assert_eq!(c, ChatCompat::default(), "{base}");
            assert_eq!(c.system_role, SystemRole::System);
            assert_eq!(c.max_tokens_field, MaxTokensField::MaxTokens);
            assert!(c.reasoning_field && c.stream_usage);
        }
        assert!(!ChatCompat::for_server("https://api.mistral.ai/v1", "mistral-large").stream_usage);
        // A look-alike host is not OpenAI.
        let fake = ChatCompat::for_server("https://api.openai.com.evil.test/v1", "o3");
        assert_eq!(fake, ChatCompat::default());
    }
}
