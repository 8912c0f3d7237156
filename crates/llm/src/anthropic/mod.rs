//! The Anthropic Messages API adapter: `POST {base}/v1/messages` with
//! `stream: true`.

mod decode;
mod wire;

pub use decode::AnthropicDecoder;
pub use wire::request_body;

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::http::{DEFAULT_IDLE_TIMEOUT, drive};

const PROVIDER: &str = "anthropic";
const API_VERSION: &str = "2023-06-01";

/// A [`ModelClient`] for the Anthropic Messages API.
pub struct AnthropicClient {
    http: reqwest::Client,
    base_url: String,
    api_key: Option<String>,
    idle_timeout: Duration,
}

impl AnthropicClient {
    /// A client posting to `{base_url}/v1/messages`; `base_url` has no `/v1`.
    /// Without a key no `x-api-key` header is sent (for proxies that add it).
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
        format!("{}/v1/messages", self.base_url)
    }
}

impl std::fmt::Debug for AnthropicClient {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicClient")
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| "[REDACTED]"))
            .finish_non_exhaustive()
    }
}

impl ModelClient for AnthropicClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        let mut builder = self
            .http
            .post(self.endpoint())
            .header("anthropic-version", API_VERSION)
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(&request_body(&request));
        if let Some(key) = &self.api_key {
            builder = builder.header("x-api-key", key);
        }
        drive(
            PROVIDER,
            builder,
            self.api_key.clone(),
            AnthropicDecoder::new(),
            cancel,
            self.idle_timeout,
        )
    }
}
