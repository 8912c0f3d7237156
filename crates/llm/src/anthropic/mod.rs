//! The Anthropic Messages API adapter: `POST {base}/v1/messages` with
//! `stream: true`.

mod decode;
mod wire;

pub use decode::AnthropicDecoder;
pub use wire::request_body;

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::endpoint::{Auth, Endpoint, endpoint_client};
use crate::wire_cache::WireCache;

const PROVIDER: &str = "anthropic";
const API_VERSION: &str = "2023-06-01";

/// A [`ModelClient`] for the Anthropic Messages API.
pub struct AnthropicClient {
    endpoint: Endpoint,
    wire: WireCache,
}

impl AnthropicClient {
    /// A client posting to `{base_url}/v1/messages`; `base_url` has no `/v1`.
    /// Without a key no `x-api-key` header is sent (for proxies that add it).
    pub fn new(http: reqwest::Client, base_url: String, api_key: Option<String>) -> Self {
        Self {
            endpoint: Endpoint::new(http, base_url, api_key, "/v1/messages"),
            wire: WireCache::default(),
        }
    }
}

endpoint_client!(AnthropicClient);

impl ModelClient for AnthropicClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        self.endpoint.stream(
            PROVIDER,
            &[("anthropic-version", API_VERSION)],
            Auth::Header("x-api-key"),
            &wire::body(&request, &self.wire),
            AnthropicDecoder::new(),
            cancel,
        )
    }
}
