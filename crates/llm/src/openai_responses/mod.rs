//! The OpenAI Responses API adapter: `POST {base}/responses` with
//! `stream: true` and `store: false`; reasoning items round-trip through
//! `Thinking` blocks (see [`wire`] for the encoding).

mod decode;
mod wire;

pub use decode::OpenAiResponsesDecoder;
pub use wire::{ReasoningRef, SIGNATURE_PREFIX, request_body};

use tokio_util::sync::CancellationToken;

use crate::client::{EventStream, ModelClient, ModelRequest};
use crate::endpoint::{Auth, Endpoint, endpoint_client};
use crate::wire_cache::WireCache;

const PROVIDER: &str = "openai-responses";

/// A [`ModelClient`] for the OpenAI Responses API.
pub struct OpenAiResponsesClient {
    endpoint: Endpoint,
    wire: WireCache,
}

impl OpenAiResponsesClient {
    /// A client posting to `{base_url}/responses`; `base_url` includes
    /// `/v1`. Without a key no `Authorization` header is sent.
    pub fn new(http: reqwest::Client, base_url: String, api_key: Option<String>) -> Self {
        Self {
            endpoint: Endpoint::new(http, base_url, api_key, "/responses"),
            wire: WireCache::default(),
        }
    }
}

endpoint_client!(OpenAiResponsesClient);

impl ModelClient for OpenAiResponsesClient {
    fn provider(&self) -> &'static str {
        PROVIDER
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        self.endpoint.stream(
            PROVIDER,
            &[],
            Auth::Bearer,
            &wire::body(&request, &self.wire),
            OpenAiResponsesDecoder::new(),
            cancel,
        )
    }
}
