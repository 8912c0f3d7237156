//! The values a run really uses for settings left unset, with where each
//! comes from, for `wright config show` and `wright doctor`: the provider
//! a key or base URL implies, the provider's default base URL and model,
//! and the output limit and compaction budget the model's catalog entry
//! gives. Nothing here probes a server: what only a probe can tell (a
//! local server, the first model it serves) stays "not set".

use wright_config::{Resolved, Source};

use crate::provider::{self, Implied, Keys};

/// Records the effective value of every unset setting a run fills in.
pub fn fill(resolved: &mut Resolved, keys: &Keys) {
    let settings = resolved.settings.clone();
    let Some((provider, implied)) = provider::implied_provider(&settings, keys) else {
        return;
    };
    let source = match implied {
        Implied::Configured => Source::Default,
        Implied::AnthropicKey => Source::Env("ANTHROPIC_API_KEY".to_owned()),
        Implied::OpenaiKey => Source::Env("OPENAI_API_KEY".to_owned()),
        Implied::BaseUrl => resolved
            .source("base_url")
            .cloned()
            .unwrap_or(Source::Default),
    };
    resolved.set_effective("provider", provider.as_str(), source);
    let base_url = settings
        .base_url
        .clone()
        .unwrap_or_else(|| provider::default_base(provider).to_owned());
    resolved.set_effective("base_url", base_url.as_str(), Source::Default);
    let model = match (
        &settings.model,
        provider::default_model(provider, &base_url),
    ) {
        (Some(model), _) => model.clone(),
        (None, Some(model)) => {
            resolved.set_effective("model", model, Source::Default);
            model.to_owned()
        }
        (None, None) => return,
    };
    let catalog = crate::models::catalog(&settings);
    let lookup = catalog.lookup(&model);
    let info = lookup.info();
    let max_tokens = crate::models::default_max_tokens(info.max_output);
    resolved.set_effective("max_tokens", i64::from(max_tokens), Source::Default);
    let keep = wright_context::compaction::keep_recent_for_window(info.context_window);
    resolved.set_effective(
        "context.keep_recent_tokens",
        i64::try_from(keep).unwrap_or(i64::MAX),
        Source::Default,
    );
}

/// The settings `wright doctor` lists, in order: what decides where
/// requests go, how much they may spend, and what commands may do.
const DOCTOR_KEYS: [&str; 10] = [
    "provider",
    "base_url",
    "model",
    "max_tokens",
    "max_turns",
    "permission_mode",
    "sandbox.mode",
    "sandbox.network",
    "context.auto_compact",
    "context.keep_recent_tokens",
];

/// `key = value (source)` for each of [`DOCTOR_KEYS`], `not set` where a
/// run decides only by probing (a local server, its first model).
pub fn doctor_lines(resolved: &Resolved) -> Vec<String> {
    let entries = resolved.entries();
    DOCTOR_KEYS
        .iter()
        .filter_map(|key| entries.iter().find(|e| e.key == *key))
        .map(|e| match &e.value {
            Some(value) => format!("{} = {value} ({})", e.key, e.source),
            None => format!("{} not set ({}; found by probing)", e.key, e.source),
        })
        .collect()
}
