//! Turns the resolved settings into a model client: which wire protocol,
//! which server, which key, which model. With nothing configured, looks for
//! a local OpenAI-compatible server on its usual port and says so.

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;
use wright_sandbox::{ANTHROPIC_API_KEY, OPENAI_API_KEY, OWN_KEYS};

use wright_config::{Provider, Settings};
use wright_llm::openai_chat::{MaxTokensField, SystemRole};
use wright_llm::{
    AnthropicClient, ChatCompat, ModelClient, OpenAiChatClient, OpenAiResponsesClient,
};

use crate::exit::SetupError;

const ANTHROPIC_DEFAULT_BASE: &str = "https://api.anthropic.com";
const OPENAI_DEFAULT_BASE: &str = "https://api.openai.com/v1";
const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";
const OPENAI_DEFAULT_MODEL: &str = "gpt-5.1";

/// Local servers probed when nothing is configured, in order.
const LOCAL_SERVERS: [(&str, u16); 4] = wright_config::LOCAL_SERVER_PORTS;

/// What the CLI needs to start a session.
pub struct Resolved {
    /// The client.
    pub client: Arc<dyn ModelClient>,
    /// Model name.
    pub model: String,
    /// A line to tell the user (e.g. which local server was picked).
    pub notice: Option<String>,
    /// The environment variable the API key came from; `None` when the
    /// server is used without a key.
    pub key_source: Option<&'static str>,
    /// The wire protocol.
    pub provider: Provider,
    /// The server's base URL, as the adapter uses it.
    pub base_url: String,
}

/// Which server, protocol, model and key a run uses (before a client exists).
pub struct Choice {
    /// Wire protocol.
    pub provider: Provider,
    /// Base URL as the adapter expects it.
    pub base_url: String,
    /// Model name.
    pub model: String,
    /// The key, if any.
    pub key: Option<String>,
    /// The variable the key comes from, for messages.
    pub key_var: &'static str,
    /// A line to tell the user.
    pub notice: Option<String>,
}

/// Credentials read from the environment. Kept apart from the settings so
/// they are never shown by `config show` or stored anywhere.
pub struct Keys {
    /// `ANTHROPIC_API_KEY`.
    pub anthropic: Option<String>,
    /// `OPENAI_API_KEY`.
    pub openai: Option<String>,
}

/// The keys as they were when wright started. `main` takes them out of the
/// environment (wiping their bytes, so no command can read them from
/// `/proc`) before any thread starts, which is why they live here once
/// rather than being read from the environment later.
static CAPTURED: std::sync::OnceLock<Vec<(String, Option<String>)>> = std::sync::OnceLock::new();

impl Keys {
    /// Takes the keys out of the process environment for good. Call once,
    /// first thing in `main`, while the process has one thread.
    pub fn capture() {
        let _ = CAPTURED.set(wright_sandbox::take_secret_env(&OWN_KEYS));
    }

    /// The keys captured at start (or read now, if nothing was captured),
    /// treating empty values as unset.
    pub fn from_env() -> Self {
        let get = |name: &str| match CAPTURED.get() {
            Some(captured) => captured
                .iter()
                .find(|(n, _)| n == name)
                .and_then(|(_, v)| v.clone()),
            None => std::env::var(name).ok().filter(|v| !v.trim().is_empty()),
        };
        Self {
            anthropic: get(ANTHROPIC_API_KEY),
            openai: get(OPENAI_API_KEY),
        }
    }
}

/// The keys to use when `base_url` came from the project file
/// `base_url_from_project` of an untrusted project (`None` otherwise): none
/// at all, with the warning that says so. A cloned repository must not be
/// able to send the user's key to its own server; `wright -p`, the
/// interactive mode and `wright doctor` all go through here.
pub fn keys_for(base_url_from_project: Option<&std::path::Path>) -> (Keys, Option<String>) {
    let keys = Keys::from_env();
    match base_url_from_project {
        Some(file) if keys.anthropic.is_some() || keys.openai.is_some() => (
            Keys {
                anthropic: None,
                openai: None,
            },
            Some(format!(
                "warning: base_url comes from the project's {}; not sending your API key to it. \
                 Set the URL with --base-url, ANTHROPIC_BASE_URL/OPENAI_BASE_URL or your user config to send the key.",
                file.display()
            )),
        ),
        _ => (keys, None),
    }
}

/// Chooses and builds the client; `base_url_from` says where a configured
/// base URL came from (`env OPENAI_BASE_URL`), for error messages.
pub async fn resolve(
    settings: &Settings,
    keys: &Keys,
    base_url_from: Option<String>,
) -> Result<Resolved, SetupError> {
    let choice = choose(settings, keys).await?;
    let key_present = choice.key.is_some();
    // Built for the chosen server: no certificate work for a local one.
    let http =
        wright_llm::http_client_for(&choice.base_url).map_err(|e| SetupError(e.to_string()))?;
    // `stream.*` keys, or their `WRIGHT_STREAM_*_TIMEOUT_MS` variables.
    let idle = std::time::Duration::from_millis(settings.stream_idle_timeout_ms);
    let first_byte = std::time::Duration::from_millis(settings.stream_first_byte_timeout_ms);
    let setup = crate::explain::Setup {
        provider: choice.provider,
        base_url: choice.base_url.clone(),
        base_url_from: match (&settings.base_url, base_url_from) {
            (Some(_), Some(from)) => from,
            (Some(_), None) => "config".to_owned(),
            (None, _) if choice.notice.is_some() => "the local server found".to_owned(),
            (None, _) => "default".to_owned(),
        },
        key_var: choice.key_var,
        has_key: choice.key.is_some(),
        known_models: crate::models::catalog(settings)
            .list()
            .iter()
            .map(|m| m.name.clone())
            .collect(),
        http: http.clone(),
    };
    let base_url = choice.base_url.clone();
    let client: Arc<dyn ModelClient> = match choice.provider {
        Provider::Anthropic => Arc::new(
            AnthropicClient::new(http, choice.base_url, choice.key)
                .with_idle_timeout(idle)
                .with_first_byte_timeout(first_byte),
        ),
        Provider::OpenaiChat => {
            let compat = chat_compat(settings, &choice.base_url, &choice.model);
            Arc::new(
                OpenAiChatClient::new(http, choice.base_url, choice.key)
                    .with_compat(compat)
                    .with_idle_timeout(idle)
                    .with_first_byte_timeout(first_byte),
            )
        }
        Provider::OpenaiResponses => Arc::new(
            OpenAiResponsesClient::new(http, choice.base_url, choice.key)
                .with_idle_timeout(idle)
                .with_first_byte_timeout(first_byte),
        ),
    };
    let client: Arc<dyn ModelClient> = Arc::new(crate::explain::Explaining::new(client, setup));
    let key_source = key_present.then_some(choice.key_var);
    Ok(Resolved {
        client,
        model: choice.model,
        notice: choice.notice,
        key_source,
        provider: choice.provider,
        base_url,
    })
}

/// The built-in preset for this server and model, with the fields that the
/// model's `[models."name"]` table sets on top.
fn chat_compat(settings: &Settings, base_url: &str, model: &str) -> ChatCompat {
    let mut compat = ChatCompat::for_server(base_url, model);
    if let Some(o) = settings.model_override(model) {
        if let Some(developer) = o.developer_role {
            compat.system_role = if developer {
                SystemRole::Developer
            } else {
                SystemRole::System
            };
        }
        if let Some(completion) = o.max_completion_tokens {
            compat.max_tokens_field = if completion {
                MaxTokensField::MaxCompletionTokens
            } else {
                MaxTokensField::MaxTokens
            };
        }
        if let Some(usage) = o.stream_usage {
            compat.stream_usage = usage;
        }
    }
    compat
}

/// Why a run uses the protocol it does, when the settings do not name one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Implied {
    /// `provider` is set.
    Configured,
    /// `ANTHROPIC_API_KEY` is set.
    AnthropicKey,
    /// `OPENAI_API_KEY` is set.
    OpenaiKey,
    /// `base_url` is set.
    BaseUrl,
}

/// The protocol a run uses, as far as it can be told without probing for
/// a local server (`None`: only that probe can tell).
pub fn implied_provider(settings: &Settings, keys: &Keys) -> Option<(Provider, Implied)> {
    match settings.provider {
        Some(p) => Some((p, Implied::Configured)),
        None if keys.anthropic.is_some() => Some((Provider::Anthropic, Implied::AnthropicKey)),
        None if keys.openai.is_some() => Some((Provider::OpenaiChat, Implied::OpenaiKey)),
        None if settings.base_url.is_some() => Some((Provider::OpenaiChat, Implied::BaseUrl)),
        None => None,
    }
}

/// The base URL a provider uses when none is configured.
pub fn default_base(provider: Provider) -> &'static str {
    match provider {
        Provider::Anthropic => ANTHROPIC_DEFAULT_BASE,
        Provider::OpenaiChat | Provider::OpenaiResponses => OPENAI_DEFAULT_BASE,
    }
}

/// The model a provider uses when none is configured, where one is fixed
/// (elsewhere the first model the server lists is used).
pub fn default_model(provider: Provider, base_url: &str) -> Option<&'static str> {
    match provider {
        Provider::Anthropic => Some(ANTHROPIC_DEFAULT_MODEL),
        _ if base_url == OPENAI_DEFAULT_BASE => Some(OPENAI_DEFAULT_MODEL),
        _ => None,
    }
}

/// Picks protocol, server, key and model from settings and environment.
pub async fn choose(settings: &Settings, keys: &Keys) -> Result<Choice, SetupError> {
    let Some((provider, _)) = implied_provider(settings, keys) else {
        return detect_local(settings).await;
    };
    let default_base = default_base(provider);
    let (key, key_var, base_var) = match provider {
        Provider::Anthropic => (
            keys.anthropic.clone(),
            ANTHROPIC_API_KEY,
            "ANTHROPIC_BASE_URL",
        ),
        Provider::OpenaiChat | Provider::OpenaiResponses => {
            (keys.openai.clone(), OPENAI_API_KEY, "OPENAI_BASE_URL")
        }
    };
    let base_url = settings
        .base_url
        .clone()
        .unwrap_or_else(|| default_base.to_owned());
    if let Err(e) = reqwest::Url::parse(&base_url) {
        return Err(SetupError(format!("invalid base URL `{base_url}`: {e}")));
    }
    if key.is_none() && base_url == default_base {
        return Err(SetupError(format!(
            "No API key for {}: set {key_var} (or point --base-url / {base_var} at a server that needs none, e.g. a local http://localhost:11434/v1).",
            provider.as_str()
        )));
    }
    let model = match (&settings.model, default_model(provider, &base_url)) {
        (Some(model), _) => model.clone(),
        (None, Some(model)) => model.to_owned(),
        (None, None) => first_served_model(&base_url).await.map_err(|why| {
            SetupError(format!(
                "No model given, and {why}: pass --model NAME (or set WRIGHT_MODEL)."
            ))
        })?,
    };
    Ok(Choice {
        provider,
        base_url,
        model,
        key,
        key_var,
        notice: None,
    })
}

/// Nothing configured: use a local OpenAI-compatible server if one answers.
async fn detect_local(settings: &Settings) -> Result<Choice, SetupError> {
    let candidates = local_candidates();
    let found = tokio::task::spawn_blocking(move || {
        candidates.into_iter().find(|(_, port)| {
            let addr = SocketAddr::from(([127, 0, 0, 1], *port));
            TcpStream::connect_timeout(&addr, Duration::from_millis(150)).is_ok()
        })
    })
    .await
    .ok()
    .flatten();
    let Some((name, port)) = found else {
        return Err(SetupError(
            "No model provider configured. Set ANTHROPIC_API_KEY or OPENAI_API_KEY, \
             or pass --provider and --base-url for a local server (e.g. --provider openai-chat \
             --base-url http://localhost:11434/v1), or start Ollama, llama.cpp, vLLM or LM Studio \
             on its usual port."
                .to_owned(),
        ));
    };
    let base_url = format!("http://127.0.0.1:{port}/v1");
    let model = match &settings.model {
        Some(model) => model.clone(),
        None => first_served_model(&base_url).await.map_err(|why| {
            SetupError(format!(
                "Found {name} on port {port}, but {why}: pass --model NAME."
            ))
        })?,
    };
    Ok(Choice {
        provider: Provider::OpenaiChat,
        notice: Some(format!(
            "No provider configured; using {name} at {base_url} with model {model}."
        )),
        base_url,
        model,
        key: None,
        key_var: OPENAI_API_KEY,
    })
}

/// The ports to probe. `WRIGHT_LOCAL_SERVER_PORTS` (comma-separated, empty
/// for none) replaces the usual list, for unusual setups and for tests.
fn local_candidates() -> Vec<(&'static str, u16)> {
    match std::env::var("WRIGHT_LOCAL_SERVER_PORTS") {
        Ok(list) => list
            .split(',')
            .filter_map(|p| p.trim().parse().ok())
            .map(|port| {
                let name = LOCAL_SERVERS
                    .iter()
                    .find(|(_, known)| *known == port)
                    .map_or("a local server", |(name, _)| *name);
                (name, port)
            })
            .collect(),
        Err(_) => LOCAL_SERVERS.to_vec(),
    }
}

/// The ports local servers are looked for on (and asked for their
/// context window on).
pub fn local_ports() -> Vec<u16> {
    local_candidates()
        .into_iter()
        .map(|(_, port)| port)
        .collect()
}

/// Asks a local server which model it serves (`GET {base}/models`). Only
/// used when the user named no model, so the request is one they caused.
pub async fn first_served_model(base: &str) -> Result<String, String> {
    let http = wright_llm::http_client_for(base).map_err(|e| e.to_string())?;
    let url = format!("{}/models", base.trim_end_matches('/'));
    let response = http
        .get(&url)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .map_err(|e| {
            if e.is_connect() {
                let ports: Vec<String> = LOCAL_SERVERS
                    .iter()
                    .map(|(name, port)| format!("{name} {port}"))
                    .collect();
                format!(
                    "nothing listens at {base} (start the server or fix the URL; usual ports: {})",
                    ports.join(", ")
                )
            } else if e.is_timeout() {
                format!("{base} did not answer within 5 s")
            } else {
                format!("asking {url} for its models failed")
            }
        })?;
    let status = response.status();
    let body: serde_json::Value = response
        .json()
        .await
        .map_err(|_| format!("{url} answered {status} without a model list"))?;
    body.get("data")
        .and_then(|d| d.as_array())
        .and_then(|models| {
            models
                .iter()
                .find_map(|m| m.get("id")?.as_str().map(str::to_owned))
        })
        .ok_or_else(|| format!("{url} lists no model"))
}
