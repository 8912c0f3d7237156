//! The OpenAI Responses API adapter: `POST {base}/responses` with
//! `stream: true` and `store: false`; reasoning items round-trip through
//! `Thinking` blocks (see [`wire`] for the encoding).

mod decode;
mod wire;

pub use decode::OpenAiResponsesDecoder;
pub use wire::{ReasoningRef, SIGNATURE_PREFIX, request_body};

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::http::{DEFAULT_IDLE_TIMEOUT, drive};

const PROVIDER: &str = "openai-responses";

/// A [`ModelClient`] for the OpenAI Responses API.
pub struct OpenAiResponsesClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    idle_timeout: Duration,
}

impl OpenAiResponsesClient {
    /// A client posting to `{base_url}/responses`; `base_url` includes
    /// `/v1`. Without a key no `Authorization` header is sent.
    pub fn new(http: reqwest::Client, base_url: String, api_key: Option<String>) -> Self {
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            api_key: api_key.filter(|k| !k.is_empty()),
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
        }
    }

    /// Fails a stream that receives no bytes for `timeout`.
    pub fn with_idle_timeout(mut self, timeout: Duration) -> Self {
        self.idle_timeout = timeout;
        self
    }

    /// The URL requests are posted to.
    pub fn endpoint(&self) -> String {
        format!("{}/responses", self.base_url)
    }
}

impl std::fmt::Debug for OpenAiResponsesClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiResponsesClient")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[REDACTED]"))
            .finish_non_exhaustive()
    }
}

impl ModelClient for OpenAiResponsesClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        let mut builder = self
            .http
            .post(self.endpoint())
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(&request_body(&request));
        if let Some(key) = &self.api_key {
            builder = builder.bearer_auth(key);
        }
        drive(
            PROVIDER,
            builder,
            self.api_key.clone(),
            OpenAiResponsesDecoder::new(),
            cancel,
            self.idle_timeout,
        )
    }
}
