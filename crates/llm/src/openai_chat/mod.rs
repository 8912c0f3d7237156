//! The OpenAI Chat Completions adapter: `POST {base}/chat/completions` with
//! `stream: true`, for OpenAI and the many servers that speak its dialect
//! (vLLM, Ollama, llama.cpp, LM Studio, OpenRouter).

mod compat;
mod decode;
mod wire;

pub use compat::{ChatCompat, MaxTokensField, SystemRole};
pub use decode::OpenAiChatDecoder;
pub use wire::{request_body, request_body_with};

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::http::{DEFAULT_IDLE_TIMEOUT, drive};

const PROVIDER: &str = "openai-chat";

/// A [`ModelClient`] for the OpenAI Chat Completions API.
pub struct OpenAiChatClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    idle_timeout: Duration,
    compat: ChatCompat,
}

impl OpenAiChatClient {
    /// A client posting to `{base_url}/chat/completions`; `base_url`
    /// includes `/v1`. Without a key no `Authorization` header is sent
    /// (local servers need none).
    pub fn new(http: reqwest::Client, base_url: String, api_key: Option<String>) -> Self {
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.filter(|k| !k.is_empty()),
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            compat: ChatCompat::default(),
        }
    }

    /// Fails a stream that receives no bytes for `timeout`.
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// Talks to the server with these quirks (see [`ChatCompat::for_server`]).
    pub fn with_compat(mut self, compat: ChatCompat) -> Self {
        self.compat = compat;
        self
    }

    /// The quirks in use.
    pub fn compat(&self) -> ChatCompat {
        self.compat
    }

    /// The URL requests are posted to.
    pub fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url)
    }
}

impl std::fmt::Debug for OpenAiChatClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiChatClient")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[REDACTED]"))
            .finish_non_exhaustive()
    }
}

impl ModelClient for OpenAiChatClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        let mut builder = self
            .http
            .post(self.endpoint())
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(&request_body_with(&request, &self.compat));
        if let Some(key) = &self.api_key {
            builder = builder.bearer_auth(key);
        }
        drive(
            PROVIDER,
            builder,
            self.api_key.clone(),
            OpenAiChatDecoder::with_compat(self.compat),
            cancel,
            self.idle_timeout,
        )
    }
}
