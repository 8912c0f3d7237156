//! The one error type of the provider layer, and which errors are worth a retry.

use std::time::Duration;

/// A failed or unusable model request. Messages name the provider and never
/// contain a key or token.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    /// The server answered with a non-2xx status.
    #[error("{provider} API error (HTTP {status}): {message}")]
    Http {
        /// Provider name.
        provider: &'static str,
        /// HTTP status code.
        status: u16,
        /// The server's error message (from its JSON body when possible), truncated.
        message: String,
        /// The server's `Retry-After`, when it sent one in seconds.
        retry_after: Option<Duration>,
    },
    /// Connecting, sending or reading failed (refused, reset, timed out).
    #[error("{provider}: connection failed: {message}")]
    Connection {
        /// Provider name.
        provider: &'static str,
        /// What went wrong.
        message: String,
    },
    /// The server reported an error inside the stream.
    #[error("{provider} API error: {message}")]
    Api {
        /// Provider name.
        provider: &'static str,
        /// The server's error type and message.
        message: String,
    },
    /// The stream carried data that does not follow the provider's protocol.
    #[error("{provider}: malformed response stream: {message}")]
    Protocol {
        /// Provider name.
        provider: &'static str,
        /// What was wrong.
        message: String,
    },
    /// The server sent nothing for the stall timeout: before the response
    /// began (no headers) or between two parts of its body.
    #[error("{provider}: the server sent nothing for {} {}", seconds(*after), if *mid_stream { "in the middle of the response" } else { "after the request" })]
    Stalled {
        /// Provider name.
        provider: &'static str,
        /// How long it was silent.
        after: Duration,
        /// Whether the response had begun (its headers arrived).
        mid_stream: bool,
    },
    /// The stream ended before its terminal event.
    #[error("{provider}: response stream ended before the response was complete")]
    Truncated {
        /// Provider name.
        provider: &'static str,
    },
    /// The caller cancelled the request.
    #[error("request cancelled")]
    Cancelled,
}

impl LlmError {
    /// Whether sending the same request again may succeed: HTTP 408, 409,
    /// 429, 5xx (529 included), connection failures, truncated streams, and
    /// in-stream overload and server errors (Anthropic's `overloaded_error`,
    /// the in-stream form of HTTP 529; the Responses API's `server_error`,
    /// `rate_limit_exceeded` and `server_is_overloaded` codes).
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::Http { status, .. } => {
                matches!(status, 408 | 409 | 429) || (500..=599).contains(status)
            }
            LlmError::Connection { .. } | LlmError::Truncated { .. } | LlmError::Stalled { .. } => {
                true
            }
            LlmError::Api { message, .. } => [
                "overloaded_error",
                "api_error",
                "server_error",
                "server_is_overloaded",
                "rate_limit_exceeded",
                "slow_down",
            ]
            .iter()
            .any(|code| {
                message
                    .strip_prefix(code)
                    .is_some_and(|rest| rest.starts_with(':'))
            }),
            LlmError::Protocol { .. } | LlmError::Cancelled => false,
        }
    }

    /// Whether the server went silent (see [`LlmError::Stalled`]), which is
    /// retried fewer times than other failures: a server that stalls once
    /// tends to stall again, and each stall costs a whole timeout.
    pub fn is_stall(&self) -> bool {
        matches!(self, LlmError::Stalled { .. })
    }

    /// The server's requested delay before a retry, if it gave one.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            LlmError::Http { retry_after, .. } => *retry_after,
            _ => None,
        }
    }

    /// The same error with every server-provided text passed through
    /// [`crate::redact::redact`] (the given secrets and anything key-like)
    /// and cut to `max_chars`, so in-stream errors are as safe to show as
    /// HTTP error bodies.
    pub fn redacted(self, secrets: &[&str], max_chars: usize) -> Self {
        let clean = |message: String| crate::redact::redact_capped(&message, secrets, max_chars);
        match self {
            LlmError::Http {
                provider,
                status,
                message,
                retry_after,
            } => LlmError::Http {
                provider,
                status,
                message: clean(message),
                retry_after,
            },
            LlmError::Connection { provider, message } => LlmError::Connection {
                provider,
                message: clean(message),
            },
            LlmError::Api { provider, message } => LlmError::Api {
                provider,
                message: clean(message),
            },
            LlmError::Protocol { provider, message } => LlmError::Protocol {
                provider,
                message: clean(message),
            },
            LlmError::Truncated { provider } => LlmError::Truncated { provider },
            stalled @ LlmError::Stalled { .. } => stalled,
            LlmError::Cancelled => LlmError::Cancelled,
        }
    }

    pub(crate) fn protocol(provider: &'static str, message: impl Into<String>) -> Self {
        LlmError::Protocol {
            provider,
            message: message.into(),
        }
    }
}

/// `d` as "60 s", or "250 ms" when it is not whole seconds.
fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} ms", d.as_millis())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn http(status: u16) -> LlmError {
        LlmError::Http {
            provider: "anthropic",
            status,
            message: "x".into(),
            retry_after: None,
        }
    }

    #[test]
    fn retryable_statuses() {
        for s in [408, 409, 429, 500, 502, 503, 529] {
            assert!(http(s).is_retryable(), "{s}");
        }
        for s in [400, 401, 403, 404, 413, 422] {
            assert!(!http(s).is_retryable(), "{s}");
        }
    }

    #[test]
    fn retryable_kinds() {
        let p = "openai-chat";
        assert!(LlmError::Truncated { provider: p }.is_retryable());
        assert!(
            LlmError::Connection {
                provider: p,
                message: "refused".into()
            }
            .is_retryable()
        );
        assert!(
            LlmError::Api {
                provider: p,
                message: "overloaded_error: Overloaded".into()
            }
            .is_retryable()
        );
        assert!(
            !LlmError::Api {
                provider: p,
                message: "invalid_request_error: bad".into()
            }
            .is_retryable()
        );
        assert!(!LlmError::protocol(p, "bad json").is_retryable());
        let stall = LlmError::Stalled {
            provider: p,
            after: Duration::from_secs(60),
            mid_stream: true,
        };
        assert!(stall.is_retryable() && stall.is_stall());
        assert_eq!(
            stall.to_string(),
            "openai-chat: the server sent nothing for 60 s in the middle of the response"
        );
        assert!(!LlmError::Cancelled.is_retryable());
    }

    #[test]
    fn display_names_provider() {
        let e = LlmError::Http {
            provider: "anthropic",
            status: 429,
            message: "rate limited".into(),
            retry_after: Some(Duration::from_secs(3)),
        };
        assert_eq!(
            e.to_string(),
            "anthropic API error (HTTP 429): rate limited"
        );
        assert_eq!(e.retry_after(), Some(Duration::from_secs(3)));
        assert_eq!(
            LlmError::Truncated {
                provider: "openai-chat"
            }
            .to_string(),
            "openai-chat: response stream ended before the response was complete"
        );
    }
}
