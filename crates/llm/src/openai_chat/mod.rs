//! The OpenAI Chat Completions adapter: `POST {base}/chat/completions` with
//! `stream: true`, for OpenAI and the many servers that speak its dialect
//! (vLLM, Ollama, llama.cpp, LM Studio, OpenRouter).

mod compat;
mod decode;
mod wire;

pub use compat::{ChatCompat, MaxTokensField, SystemRole};
pub use decode::OpenAiChatDecoder;
pub use wire::{request_body, request_body_with};

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::endpoint::{Auth, Endpoint, endpoint_client};
use crate::wire_cache::WireCache;

const PROVIDER: &str = "openai-chat";

/// A [`ModelClient`] for the OpenAI Chat Completions API.
pub struct OpenAiChatClient {
    endpoint: Endpoint,
    compat: ChatCompat,
    wire: WireCache,
}

impl OpenAiChatClient {
    /// A client posting to `{base_url}/chat/completions`; `base_url`
    /// includes `/v1`. Without a key no `Authorization` header is sent
    /// (local servers need none).
    pub fn new(http: reqwest::Client, base_url: String, api_key: Option<String>) -> Self {
        Self {
            endpoint: Endpoint::new(http, base_url, api_key, "/chat/completions"),
            compat: ChatCompat::default(),
            wire: WireCache::default(),
        }
    }

    /// Talks to the server with these quirks (see [`ChatCompat::for_server`]).
    pub fn with_compat(mut self, compat: ChatCompat) -> Self {
        self.compat = compat;
        // Messages written under other quirks must not be reused.
        self.wire = WireCache::default();
        self
    }

    /// The quirks in use.
    pub fn compat(&self) -> ChatCompat {
        self.compat
    }
}

endpoint_client!(OpenAiChatClient);

impl ModelClient for OpenAiChatClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        self.endpoint.stream(
            PROVIDER,
            &[],
            Auth::Bearer,
            &wire::body(&request, &self.compat, &self.wire),
            OpenAiChatDecoder::with_compat(self.compat),
            cancel,
        )
    }
}
