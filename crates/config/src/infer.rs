//! Choosing the provider when nobody named one: from the base URL
//! variables (`ANTHROPIC_BASE_URL`, `OPENAI_BASE_URL`) and from the shape
//! of a `base_url` given by flag or file. An explicit `provider` (flag,
//! `WRIGHT_PROVIDER`, a config file) always wins and nothing is inferred.
//!
//! The rules, in order (the first that applies decides):
//!
//! 1. `ANTHROPIC_BASE_URL` is set (and `--base-url` is not): `anthropic` at
//!    that URL. When `OPENAI_BASE_URL` is set too, it is ignored and the
//!    notice says so: the Anthropic variable names the more specific
//!    setup (a gateway), and `WRIGHT_PROVIDER` picks the other.
//! 2. `OPENAI_BASE_URL` is set (and `--base-url` is not): `openai-chat` at
//!    that URL, with or without `OPENAI_API_KEY`.
//! 3. The `base_url` in force (flag or file) has a known shape
//!    ([`provider_for_url`]): `api.anthropic.com` is `anthropic`;
//!    `api.openai.com` is `openai-chat` (as with `OPENAI_API_KEY` alone);
//!    a path ending in `/v1` on port 11434 (Ollama), 8080 (llama.cpp),
//!    8000 (vLLM) or 1234 (LM Studio) is `openai-chat`.
//! 4. Otherwise nothing is inferred: the keys decide later, as before.

use std::collections::HashMap;

use crate::kinds::Provider;

/// The usual ports of local OpenAI-compatible servers, with their names.
pub const LOCAL_SERVER_PORTS: [(&str, u16); 4] = [
    ("Ollama", 11434),
    ("llama.cpp", 8080),
    ("vLLM", 8000),
    ("LM Studio", 1234),
];

/// A provider chosen by inference, and why, for the one line that says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Inference {
    /// The provider chosen.
    pub provider: Provider,
    /// The base URL it will use.
    pub base_url: String,
    /// What it was inferred from: `OPENAI_BASE_URL`, `--base-url`, a file.
    pub from: String,
    /// A variable that was set but lost to the one used.
    pub ignored: Option<&'static str>,
}

impl Inference {
    /// `using openai-chat at http://…/v1 (from OPENAI_BASE_URL)`.
    pub fn notice(&self) -> String {
        let mut line = format!(
            "using {} at {} (from {}",
            self.provider.as_str(),
            self.base_url,
            self.from
        );
        if let Some(other) = self.ignored {
            line.push_str(&format!(
                "; {other} is also set and ignored: set WRIGHT_PROVIDER to choose"
            ));
        }
        line.push(')');
        line
    }
}

/// Rules 1 and 2: the provider and URL the base URL variables name.
pub(crate) fn from_env(env: &HashMap<String, String>) -> Option<(Provider, &'static str, String)> {
    let get = |name: &str| env.get(name).filter(|v| !v.trim().is_empty()).cloned();
    if let Some(url) = get("ANTHROPIC_BASE_URL") {
        return Some((Provider::Anthropic, "ANTHROPIC_BASE_URL", url));
    }
    get("OPENAI_BASE_URL").map(|url| (Provider::OpenaiChat, "OPENAI_BASE_URL", url))
}

/// Whether both base URL variables are set (rule 1's notice).
pub(crate) fn both_set(env: &HashMap<String, String>) -> bool {
    ["ANTHROPIC_BASE_URL", "OPENAI_BASE_URL"]
        .iter()
        .all(|n| env.get(*n).is_some_and(|v| !v.trim().is_empty()))
}

/// Rule 3: the provider a URL's shape says, if it says one.
pub fn provider_for_url(url: &str) -> Option<Provider> {
    let (_, rest) = url.trim().split_once("://")?;
    let (authority, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
    // Credentials before `@` are not part of the host.
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let (host, port) = match authority.rsplit_once(':') {
        Some((host, port)) => (host, port.parse::<u16>().ok()),
        None => (authority, None),
    };
    let host = host.to_ascii_lowercase();
    if host == "api.anthropic.com" {
        return Some(Provider::Anthropic);
    }
    if host == "api.openai.com" {
        return Some(Provider::OpenaiChat);
    }
    let path = path.split(['?', '#']).next().unwrap_or("");
    let local_port = port.is_some_and(|p| LOCAL_SERVER_PORTS.iter().any(|(_, known)| *known == p));
    (local_port && path.trim_end_matches('/').ends_with("/v1")).then_some(Provider::OpenaiChat)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn url_shapes() {
        let table = [
            ("https://api.anthropic.com", Some(Provider::Anthropic)),
            ("https://API.anthropic.com/", Some(Provider::Anthropic)),
            ("https://api.openai.com/v1", Some(Provider::OpenaiChat)),
            ("http://localhost:11434/v1", Some(Provider::OpenaiChat)),
            ("http://127.0.0.1:8080/v1/", Some(Provider::OpenaiChat)),
            ("http://gpu-box:8000/v1", Some(Provider::OpenaiChat)),
            ("http://[::1]:1234/v1", Some(Provider::OpenaiChat)),
            (
                "http://user:pw@localhost:11434/v1",
                Some(Provider::OpenaiChat),
            ),
            // A local port without `/v1`, `/v1` on another port, other hosts.
            ("http://localhost:11434", None),
            ("http://localhost:9999/v1", None),
            ("https://gateway.example.com/anthropic", None),
            ("https://gateway.example.com/v1", None),
            ("not a url", None),
            ("", None),
        ];
        for (url, want) in table {
            assert_eq!(provider_for_url(url), want, "{url}");
        }
    }

    fn env(pairs: &[(&str, &str)]) -> HashMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect()
    }

    #[test]
    fn variables_choose_and_anthropic_wins_a_tie() {
        let a = ("ANTHROPIC_BASE_URL", "http://gw");
        let o = ("OPENAI_BASE_URL", "http://local/v1");
        assert_eq!(
            from_env(&env(&[a])),
            Some((
                Provider::Anthropic,
                "ANTHROPIC_BASE_URL",
                "http://gw".into()
            ))
        );
        assert_eq!(
            from_env(&env(&[o])),
            Some((
                Provider::OpenaiChat,
                "OPENAI_BASE_URL",
                "http://local/v1".into()
            ))
        );
        assert_eq!(
            from_env(&env(&[a, o])).map(|c| c.0),
            Some(Provider::Anthropic)
        );
        assert!(both_set(&env(&[a, o])));
        assert!(!both_set(&env(&[a, ("OPENAI_BASE_URL", "")])));
        assert_eq!(from_env(&env(&[("OPENAI_BASE_URL", " ")])), None);
    }

    #[test]
    fn notice_names_the_source_and_what_lost() {
        let mut i = Inference {
            provider: Provider::OpenaiChat,
            base_url: "http://127.0.0.1:9/v1".into(),
            from: "OPENAI_BASE_URL".into(),
            ignored: None,
        };
        assert_eq!(
            i.notice(),
            "using openai-chat at http://127.0.0.1:9/v1 (from OPENAI_BASE_URL)"
        );
        i.ignored = Some("OPENAI_BASE_URL");
        assert!(
            i.notice()
                .contains("OPENAI_BASE_URL is also set and ignored")
        );
    }
}
