//! Turns the resolved settings into a model client: which wire protocol,
//! which server, which key, which model. With nothing configured, looks for
//! a local OpenAI-compatible server on its usual port and says so.

use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use wright_config::{Provider, Settings};
use wright_llm::{AnthropicClient, ModelClient, OpenAiChatClient};

const ANTHROPIC_DEFAULT_BASE: &str = "https://api.anthropic.com";
const OPENAI_DEFAULT_BASE: &str = "https://api.openai.com/v1";
const ANTHROPIC_DEFAULT_MODEL: &str = "claude-sonnet-4-5";
const OPENAI_DEFAULT_MODEL: &str = "gpt-5.1";

/// Local servers probed when nothing is configured, in order.
const LOCAL_SERVERS: [(&str, u16); 4] = [
    ("Ollama", 11434),
    ("llama.cpp", 8080),
    ("vLLM", 8000),
    ("LM Studio", 1234),
];

/// What the CLI needs to start a session.
pub struct Resolved {
    /// The client.
    pub client: Arc<dyn ModelClient>,
    /// Model name.
    pub model: String,
    /// A line to tell the user (e.g. which local server was picked).
    pub notice: Option<String>,
}

/// A provider could not be set up; the message says what to set.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// Credentials read from the environment. Kept apart from the settings so
/// they are never shown by `config show` or stored anywhere.
pub struct Keys {
    /// `ANTHROPIC_API_KEY`.
    pub anthropic: Option<String>,
    /// `OPENAI_API_KEY`.
    pub openai: Option<String>,
}

impl Keys {
    /// Reads the keys, treating empty values as unset.
    pub fn from_env() -> Self {
        let get = |name: &str| std::env::var(name).ok().filter(|v| !v.trim().is_empty());
        Self {
            anthropic: get("ANTHROPIC_API_KEY"),
            openai: get("OPENAI_API_KEY"),
        }
    }
}

/// Chooses and builds the client.
pub async fn resolve(settings: &Settings, keys: &Keys) -> Result<Resolved, SetupError> {
    let http = wright_llm::http_client().map_err(|e| SetupError(e.to_string()))?;
    let provider = match settings.provider {
        Some(p) => p,
        None if keys.anthropic.is_some() => Provider::Anthropic,
        None if keys.openai.is_some() || settings.base_url.is_some() => Provider::OpenaiChat,
        None => return detect_local(settings, http).await,
    };
    match provider {
        Provider::Anthropic => {
            let base = settings
                .base_url
                .clone()
                .unwrap_or_else(|| ANTHROPIC_DEFAULT_BASE.to_owned());
            if keys.anthropic.is_none() && base == ANTHROPIC_DEFAULT_BASE {
                return Err(SetupError(
                    "No Anthropic API key: set ANTHROPIC_API_KEY (or point --base-url / ANTHROPIC_BASE_URL at a server that needs none)."
                        .to_owned(),
                ));
            }
            Ok(Resolved {
                client: Arc::new(AnthropicClient::new(http, base, keys.anthropic.clone())),
                model: settings
                    .model
                    .clone()
                    .unwrap_or_else(|| ANTHROPIC_DEFAULT_MODEL.to_owned()),
                notice: None,
            })
        }
        Provider::OpenaiChat => {
            let base = settings
                .base_url
                .clone()
                .unwrap_or_else(|| OPENAI_DEFAULT_BASE.to_owned());
            if keys.openai.is_none() && base == OPENAI_DEFAULT_BASE {
                return Err(SetupError(
                    "No OpenAI API key: set OPENAI_API_KEY (or point --base-url / OPENAI_BASE_URL at a local server such as http://localhost:11434/v1)."
                        .to_owned(),
                ));
            }
            let model = match &settings.model {
                Some(model) => model.clone(),
                None if base == OPENAI_DEFAULT_BASE => OPENAI_DEFAULT_MODEL.to_owned(),
                None => first_served_model(&http, &base).await.ok_or_else(|| {
                    SetupError(format!(
                        "No model given and {base}/models lists none: pass --model NAME (or set WRIGHT_MODEL)."
                    ))
                })?,
            };
            Ok(Resolved {
                client: Arc::new(OpenAiChatClient::new(http, base, keys.openai.clone())),
                model,
                notice: None,
            })
        }
        Provider::OpenaiResponses => Err(SetupError(
            "--provider openai-responses is not available in this build yet; use openai-chat."
                .to_owned(),
        )),
    }
}

/// Nothing configured: use a local OpenAI-compatible server if one answers.
async fn detect_local(settings: &Settings, http: reqwest::Client) -> Result<Resolved, SetupError> {
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
    let base = format!("http://127.0.0.1:{port}/v1");
    let model = match &settings.model {
        Some(model) => model.clone(),
        None => first_served_model(&http, &base).await.ok_or_else(|| {
            SetupError(format!(
                "Found {name} on port {port}, but it lists no model: pass --model NAME."
            ))
        })?,
    };
    Ok(Resolved {
        client: Arc::new(OpenAiChatClient::new(http, base.clone(), None)),
        notice: Some(format!(
            "No provider configured; using {name} at {base} with model {model}."
        )),
        model,
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

/// Asks a local server which model it serves (`GET {base}/models`). Only
/// used when the user named no model, so the request is one they caused.
async fn first_served_model(http: &reqwest::Client, base: &str) -> Option<String> {
    let url = format!("{}/models", base.trim_end_matches('/'));
    let response = http
        .get(url)
        .timeout(Duration::from_secs(5))
        .send()
        .await
        .ok()?;
    let body: serde_json::Value = response.json().await.ok()?;
    body.get("data")?
        .as_array()?
        .iter()
        .find_map(|m| m.get("id")?.as_str().map(str::to_owned))
}
