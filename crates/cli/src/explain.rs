//! Errors that teach: wraps the model client so that the failures a new
//! setup runs into say what to fix. A refused connection names the URL and
//! the usual ports; a 404 names the URL posted to and the `/v1` that may be
//! missing or extra; a 401/403 names the variable the key came from (never
//! the key); an unknown model gets "did you mean" from the catalog and,
//! for a server other than OpenAI's, the models that server lists.

use std::sync::Arc;
use std::time::Duration;

use futures::StreamExt;
use tokio_util::sync::CancellationToken;
use wright_config::{LOCAL_SERVER_PORTS, Provider};
use wright_llm::{EventStream, LlmError, ModelClient, ModelRequest};

/// What the explanations need to know about the server in use.
pub struct Setup {
    /// The wire protocol.
    pub provider: Provider,
    /// The base URL as configured.
    pub base_url: String,
    /// Where the base URL came from (`env OPENAI_BASE_URL`, `default`).
    pub base_url_from: String,
    /// Whether a key is sent, and the variable it comes from.
    pub key_var: &'static str,
    /// Whether a key was sent.
    pub has_key: bool,
    /// The model names the catalog knows.
    pub known_models: Vec<String>,
    /// For asking a server which models it serves.
    pub http: reqwest::Client,
}

/// A [`ModelClient`] whose errors explain themselves.
pub struct Explaining {
    inner: Arc<dyn ModelClient>,
    setup: Arc<Setup>,
}

impl Explaining {
    /// Wraps `inner`.
    pub fn new(inner: Arc<dyn ModelClient>, setup: Setup) -> Self {
        Self {
            inner,
            setup: Arc::new(setup),
        }
    }
}

impl ModelClient for Explaining {
    fn provider(&self) -> &'static str {
        self.inner.provider()
    }

    fn stream(&self, request: ModelRequest, cancel: CancellationToken) -> EventStream {
        let setup = Arc::clone(&self.setup);
        let model = request.model.clone();
        Box::pin(self.inner.stream(request, cancel).then(move |item| {
            let setup = Arc::clone(&setup);
            let model = model.clone();
            async move {
                match item {
                    Err(e) => Err(explain(&setup, e, &model).await),
                    ok => ok,
                }
            }
        }))
    }
}

/// The error with a message that says what to do, where one is known.
async fn explain(setup: &Setup, err: LlmError, model: &str) -> LlmError {
    match err {
        LlmError::Connection { provider, message } => LlmError::Connection {
            provider,
            message: connection_message(setup, &message).unwrap_or(message),
        },
        LlmError::Http {
            provider,
            status,
            message,
            retry_after,
        } => {
            let hint = match status {
                401 | 403 => Some(key_hint(setup)),
                404 if mentions_model(&message, model) => {
                    Some(model_hint(setup, model, served_models(setup).await))
                }
                404 => Some(url_hint(setup)),
                _ => None,
            };
            let message = match hint {
                Some(hint) => format!("{message}. {hint}"),
                None => message,
            };
            LlmError::Http {
                provider,
                status,
                message,
                retry_after,
            }
        }
        other => other,
    }
}

/// A refused connection or an unknown host, said plainly; the words
/// "connection refused" and "dns error" stay in so the retry policy still
/// sees what it is (see `wright_llm::is_hopeless_connection`).
fn connection_message(setup: &Setup, original: &str) -> Option<String> {
    let text = original.to_ascii_lowercase();
    let base = &setup.base_url;
    let from = &setup.base_url_from;
    if text.contains("dns error") || text.contains("failed to lookup address") {
        return Some(format!(
            "cannot find the host of {base} (dns error: the name does not resolve); \
             check the URL (from {from})"
        ));
    }
    if !(text.contains("connection refused") || text.contains("os error 111")) {
        return None;
    }
    let ports = match setup.provider {
        Provider::Anthropic => String::new(),
        Provider::OpenaiChat | Provider::OpenaiResponses => {
            let list: Vec<String> = LOCAL_SERVER_PORTS
                .iter()
                .map(|(name, port)| format!("{name} {port}"))
                .collect();
            format!(" Usual ports: {}.", list.join(", "))
        }
    };
    Some(format!(
        "nothing listens at {base} (connection refused; URL from {from}). \
         Start the server or fix the URL.{ports}"
    ))
}

/// Where the key came from, never the key.
fn key_hint(setup: &Setup) -> String {
    if setup.has_key {
        format!(
            "The server refused the key from {}: check it is valid for {}",
            setup.key_var, setup.base_url
        )
    } else {
        format!(
            "No key was sent: set {} (the server at {} needs one)",
            setup.key_var, setup.base_url
        )
    }
}

/// The URL posted to, and the `/v1` that is likely missing or extra.
fn url_hint(setup: &Setup) -> String {
    let base = setup.base_url.trim_end_matches('/');
    let has_v1 = base.ends_with("/v1");
    let (posted, advice) = match setup.provider {
        Provider::Anthropic => (
            format!("{base}/v1/messages"),
            if has_v1 {
                format!(
                    "an Anthropic base URL has no `/v1` (wright adds it): try {}",
                    base.trim_end_matches("/v1")
                )
            } else {
                "check the base URL's path".to_owned()
            },
        ),
        Provider::OpenaiChat | Provider::OpenaiResponses => {
            let path = if setup.provider == Provider::OpenaiChat {
                "chat/completions"
            } else {
                "responses"
            };
            (
                format!("{base}/{path}"),
                if has_v1 {
                    "check the base URL's path, and that the server speaks this protocol".to_owned()
                } else {
                    format!("an OpenAI-compatible base URL usually ends in `/v1`: try {base}/v1")
                },
            )
        }
    };
    format!(
        "Posted to {posted} (base URL from {}); {advice}",
        setup.base_url_from
    )
}

/// Whether a 404's message is about the model rather than the URL.
fn mentions_model(message: &str, model: &str) -> bool {
    let lower = message.to_ascii_lowercase();
    lower.contains("model") || (!model.is_empty() && message.contains(model))
}

/// "Did you mean" from the catalog, and what the server itself lists.
fn model_hint(setup: &Setup, model: &str, served: Option<Vec<String>>) -> String {
    let mut hint = format!("Model `{model}` is not served at {}", setup.base_url);
    let near = |names: &[String]| {
        wright_config::closest(model, names.iter().map(String::as_str)).map(str::to_owned)
    };
    let guess = served
        .as_deref()
        .and_then(near)
        .or_else(|| near(&setup.known_models));
    if let Some(guess) = guess {
        hint.push_str(&format!("; did you mean `{guess}`?"));
    }
    if let Some(served) = served.filter(|s| !s.is_empty()) {
        let shown: Vec<&str> = served.iter().take(20).map(String::as_str).collect();
        let more = served.len().saturating_sub(shown.len());
        hint.push_str(&format!(" This server serves: {}", shown.join(", ")));
        if more > 0 {
            hint.push_str(&format!(" (and {more} more)"));
        }
    }
    hint.push_str(". Pass --model NAME (or set WRIGHT_MODEL)");
    hint
}

/// The models an OpenAI-compatible server other than OpenAI's lists
/// (`GET {base}/models`, short timeout): asked only after the server said
/// the model is unknown, so the request is one the user's run caused.
async fn served_models(setup: &Setup) -> Option<Vec<String>> {
    if setup.provider == Provider::Anthropic || setup.base_url.contains("api.openai.com") {
        return None;
    }
    let url = format!("{}/models", setup.base_url.trim_end_matches('/'));
    let response = setup
        .http
        .get(&url)
        .timeout(Duration::from_secs(3))
        .send()
        .await
        .ok()?;
    let body: serde_json::Value = response.json().await.ok()?;
    let names = body
        .get("data")?
        .as_array()?
        .iter()
        .filter_map(|m| m.get("id")?.as_str().map(str::to_owned))
        .collect();
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(provider: Provider, base_url: &str) -> Setup {
        Setup {
            provider,
            base_url: base_url.to_owned(),
            base_url_from: "env OPENAI_BASE_URL".to_owned(),
            key_var: "OPENAI_API_KEY",
            has_key: true,
            known_models: vec!["claude-sonnet-4-5".into(), "gpt-5.1".into()],
            http: wright_llm::http_client().unwrap(),
        }
    }

    #[test]
    fn refused_names_the_url_and_the_usual_ports() {
        let s = setup(Provider::OpenaiChat, "http://127.0.0.1:9/v1");
        let m = connection_message(&s, "tcp connect error: Connection refused (os error 111)")
            .unwrap_or_default();
        assert!(
            m.starts_with("nothing listens at http://127.0.0.1:9/v1"),
            "{m}"
        );
        assert!(
            m.contains("env OPENAI_BASE_URL") && m.contains("Ollama 11434"),
            "{m}"
        );
        assert!(connection_message(&s, "connection reset").is_none());
    }

    #[test]
    fn not_found_points_at_v1() {
        let s = setup(Provider::OpenaiChat, "http://127.0.0.1:8080");
        let h = url_hint(&s);
        assert!(
            h.contains("Posted to http://127.0.0.1:8080/chat/completions"),
            "{h}"
        );
        assert!(h.contains("try http://127.0.0.1:8080/v1"), "{h}");
        let s = setup(Provider::Anthropic, "https://gw.example/v1");
        let h = url_hint(&s);
        assert!(
            h.contains("/v1/v1/messages") && h.contains("try https://gw.example"),
            "{h}"
        );
    }

    #[test]
    fn unknown_model_suggests_and_lists() {
        let s = setup(Provider::OpenaiChat, "http://127.0.0.1:11434/v1");
        let h = model_hint(&s, "claude-sonet-4-5", None);
        assert!(h.contains("did you mean `claude-sonnet-4-5`?"), "{h}");
        let h = model_hint(
            &s,
            "qwen3:8",
            Some(vec!["qwen3:8b".into(), "llama3".into()]),
        );
        assert!(h.contains("did you mean `qwen3:8b`?"), "{h}");
        assert!(h.contains("This server serves: qwen3:8b, llama3"), "{h}");
    }

    #[test]
    fn auth_names_the_variable_not_the_key() {
        let mut s = setup(Provider::Anthropic, "https://api.anthropic.com");
        s.key_var = "ANTHROPIC_API_KEY";
        assert!(key_hint(&s).contains("key from ANTHROPIC_API_KEY"));
        s.has_key = false;
        assert!(key_hint(&s).starts_with("No key was sent: set ANTHROPIC_API_KEY"));
    }
}
