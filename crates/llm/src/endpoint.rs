//! Where and how an adapter posts its requests: the shared HTTP client, the
//! URL, the optional API key and the idle timeout, with a `Debug` that never
//! shows the key. Each provider client holds one [`Endpoint`].

use std::fmt;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use crate::client::EventStream;
use crate::http::{
    DEFAULT_FINISH_GRACE, DEFAULT_FIRST_BYTE_TIMEOUT, DEFAULT_IDLE_TIMEOUT, Decoder, Timeouts,
    drive,
};
use crate::redact::REDACTED;

/// How a provider expects the API key to be sent.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Auth {
    /// `Authorization: Bearer <key>`.
    Bearer,
    /// The key as the value of this header.
    Header(&'static str),
}

/// The connection settings of one provider client.
pub(crate) struct Endpoint {
    http: reqwest::Client,
    /// Without trailing slashes.
    base_url: String,
    /// Appended to `base_url` to give the URL requests are posted to.
    path: &'static str,
    /// `None` when no key (or an empty one) was given.
    api_key: Option<String>,
    first_byte_timeout: Duration,
    idle_timeout: Duration,
    finish_grace: Duration,
}

impl Endpoint {
    /// Posts to `{base_url}{path}`; trailing slashes of `base_url` are
    /// dropped and an empty key counts as none.
    pub(crate) fn new(
        http: reqwest::Client,
        base_url: String,
        api_key: Option<String>,
        path: &'static str,
    ) -> Self {
        Self {
            http,
            base_url: base_url.trim_end_matches('/').to_owned(),
            path,
            api_key: api_key.filter(|k| !k.is_empty()),
            first_byte_timeout: DEFAULT_FIRST_BYTE_TIMEOUT,
            idle_timeout: DEFAULT_IDLE_TIMEOUT,
            finish_grace: DEFAULT_FINISH_GRACE,
        }
    }

    /// Fails a stream whose body receives no bytes for `timeout`.
    pub(crate) fn set_idle_timeout(&mut self, timeout: Duration) {
        self.idle_timeout = timeout;
    }

    /// Fails a request whose response does not begin within `timeout`.
    pub(crate) fn set_first_byte_timeout(&mut self, timeout: Duration) {
        self.first_byte_timeout = timeout;
    }

    /// Completes a finished answer whose trailing events do not come
    /// within `grace`.
    pub(crate) fn set_finish_grace(&mut self, grace: Duration) {
        self.finish_grace = grace;
    }

    /// The URL requests are posted to.
    pub(crate) fn url(&self) -> String {
        format!("{}{}", self.base_url, self.path)
    }

    /// Posts `body` as JSON with `headers` first, then the content type, an
    /// event-stream `accept` and the key as `auth` says (if there is one),
    /// and streams the answer through `decoder`.
    pub(crate) fn stream<D: Decoder>(
        &self,
        provider: &'static str,
        headers: &[(&'static str, &'static str)],
        auth: Auth,
        body: &impl serde::Serialize,
        decoder: D,
        cancel: CancellationToken,
    ) -> EventStream {
        let mut builder = self.http.post(self.url());
        for &(name, value) in headers {
            builder = builder.header(name, value);
        }
        builder = builder
            .header("content-type", "application/json")
            .header("accept", "text/event-stream")
            .json(body);
        if let Some(key) = &self.api_key {
            builder = match auth {
                Auth::Bearer => builder.bearer_auth(key),
                Auth::Header(name) => builder.header(name, key),
            };
        }
        drive(
            provider,
            builder,
            self.api_key.clone(),
            decoder,
            cancel,
            Timeouts {
                first_byte: self.first_byte_timeout,
                idle: self.idle_timeout,
                finish_grace: self.finish_grace,
            },
        )
    }

    /// Writes `client` as a struct showing the base URL and whether there is
    /// a key, never the key itself.
    pub(crate) fn fmt_debug(&self, client: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct(client)
            .field("base_url", &self.base_url)
            .field("api_key", &self.api_key.as_ref().map(|_| REDACTED))
            .finish_non_exhaustive()
    }
}

/// Gives a client struct with an `endpoint: Endpoint` field its public
/// `with_idle_timeout`, `with_first_byte_timeout`, `with_finish_grace` and `endpoint` methods and a `Debug` that shows the
/// base URL but never the key.
macro_rules! endpoint_client {
    ($client:ident) => {
        impl $client {
            /// Fails a stream whose body receives no bytes for `timeout`;
            /// default [`DEFAULT_IDLE_TIMEOUT`](crate::DEFAULT_IDLE_TIMEOUT).
            pub fn with_idle_timeout(mut self, timeout: std::time::Duration) -> Self {
                self.endpoint.set_idle_timeout(timeout);
                self
            }

            /// Fails a request whose response does not begin (no headers)
            /// within `timeout`; default
            /// [`DEFAULT_FIRST_BYTE_TIMEOUT`](crate::DEFAULT_FIRST_BYTE_TIMEOUT).
            pub fn with_first_byte_timeout(mut self, timeout: std::time::Duration) -> Self {
                self.endpoint.set_first_byte_timeout(timeout);
                self
            }

            /// Once the answer is finished (a stop reason has arrived), waits
            /// at most `grace` for the trailing events (usage, end marker)
            /// before completing the stream with what arrived; default
            /// [`DEFAULT_FINISH_GRACE`](crate::DEFAULT_FINISH_GRACE).
            pub fn with_finish_grace(mut self, grace: std::time::Duration) -> Self {
                self.endpoint.set_finish_grace(grace);
                self
            }

            /// The URL requests are posted to.
            pub fn endpoint(&self) -> String {
                self.endpoint.url()
            }
        }

        impl std::fmt::Debug for $client {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                self.endpoint.fmt_debug(stringify!($client), f)
            }
        }
    };
}
pub(crate) use endpoint_client;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::http_client;

    struct Client(Endpoint);

    impl fmt::Debug for Client {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.fmt_debug("Client", f)
        }
    }

    #[test]
    fn url_drops_trailing_slashes_and_debug_hides_the_key() {
        let http = http_client().unwrap();
        let keyed = Endpoint::new(
            http.clone(),
            "http://h/v1//".into(),
            Some("sk-1".into()),
            "/x",
        );
        assert_eq!(keyed.url(), "http://h/v1/x");
        let shown = format!("{:?}", Client(keyed));
        assert_eq!(
            shown,
            r#"Client { base_url: "http://h/v1", api_key: Some("[REDACTED]"), .. }"#
        );
        let empty = Endpoint::new(http, "http://h".into(), Some(String::new()), "/x");
        assert!(format!("{:?}", Client(empty)).contains("api_key: None"));
    }
}
