//! The model catalog as the user configured it (built-in entries plus
//! `[models."name"]` overrides), the output limit a request falls back to
//! from it, and `wright models`.

use serde_json::{Value, json};
use wright_config::{ModelOverride, Settings};
use wright_llm::{Catalog, Lookup, ModelInfo, Pricing};

use crate::exit;

/// Default output cap per request when none is configured.
const DEFAULT_MAX_TOKENS: u32 = 8192;

/// The output limit of a request when `max_tokens` is unset: 8192, or the
/// model's own maximum when that is lower.
pub(crate) fn default_max_tokens(max_output: u32) -> u32 {
    DEFAULT_MAX_TOKENS.min(max_output.max(1))
}

/// The built-in catalog with the user's overrides on top. An override of a
/// known model changes only the fields it sets.
pub fn catalog(settings: &Settings) -> Catalog {
    let builtin = Catalog::builtin();
    let overrides: Vec<ModelInfo> = settings
        .models
        .iter()
        .map(|o| merged(&builtin, o))
        .collect();
    builtin.with_overrides(overrides)
}

fn merged(builtin: &Catalog, o: &ModelOverride) -> ModelInfo {
    let base = builtin.lookup(&o.name).info().clone();
    let price = base.pricing.unwrap_or(Pricing {
        input: 0.0,
        output: 0.0,
        cache_read: 0.0,
        cache_write: 0.0,
    });
    let any_price = o.input_price.is_some()
        || o.output_price.is_some()
        || o.cache_read_price.is_some()
        || o.cache_write_price.is_some();
    ModelInfo {
        name: o.name.clone(),
        provider: if base.provider.is_empty() {
            "custom"
        } else {
            base.provider
        },
        context_window: o.context_window.unwrap_or(base.context_window),
        max_output: o.max_output.unwrap_or(base.max_output),
        pricing: if any_price || base.pricing.is_some() {
            Some(Pricing {
                input: o.input_price.unwrap_or(price.input),
                output: o.output_price.unwrap_or(price.output),
                cache_read: o.cache_read_price.unwrap_or(price.cache_read),
                cache_write: o.cache_write_price.unwrap_or(price.cache_write),
            })
        } else {
            None
        },
    }
}

/// A warning for models the catalog does not know.
pub fn unknown_model_warning(catalog: &Catalog, model: &str) -> Option<String> {
    match catalog.lookup(model) {
        Lookup::Known(_) => None,
        Lookup::Unknown(info) => {
            let known = catalog.list();
            let near = wright_config::closest(model, known.iter().map(|m| m.name.as_str()))
                .map(|name| format!(" (did you mean `{name}`?)"))
                .unwrap_or_default();
            Some(format!(
                "unknown model `{model}`{near}: assuming a {}-token window and {} output tokens, and cost 0 (add [models.\"{model}\"] to the config to set them)",
                info.context_window, info.max_output
            ))
        }
    }
}

/// `wright models [--json]`.
pub fn list(settings: &Settings, as_json: bool) -> u8 {
    let catalog = catalog(settings);
    let models = catalog.list();
    if as_json {
        let items: Vec<Value> = models
            .iter()
            .map(|m| {
                json!({
                    "name": m.name,
                    "provider": m.provider,
                    "context_window": m.context_window,
                    "max_output": m.max_output,
                    "pricing": m.pricing.map(|p| json!({
                        "input": p.input, "output": p.output,
                        "cache_read": p.cache_read, "cache_write": p.cache_write,
                    })),
                })
            })
            .collect();
        println!("{}", Value::Array(items));
        return exit::SUCCESS;
    }
    println!(
        "{:<34} {:<10} {:>9} {:>8}  $/Mtok in / out / cache read / cache write",
        "model", "provider", "window", "output"
    );
    for m in models {
        let price = m.pricing.map_or_else(
            || "unknown".to_owned(),
            |p| {
                format!(
                    "{} / {} / {} / {}",
                    p.input, p.output, p.cache_read, p.cache_write
                )
            },
        );
        println!(
            "{:<34} {:<10} {:>9} {:>8}  {price}",
            m.name, m.provider, m.context_window, m.max_output
        );
    }
    exit::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_typo_in_the_model_name_gets_did_you_mean() {
        let catalog = Catalog::builtin();
        let name = catalog.list()[0].name.clone();
        let typo = format!("{}x", name);
        let warning = unknown_model_warning(&catalog, &typo).unwrap();
        assert!(
            warning.contains(&format!("did you mean `{name}`?")),
            "{warning}"
        );
        assert!(unknown_model_warning(&catalog, &name).is_none());
        let far = unknown_model_warning(&catalog, "my-local-model").unwrap();
        assert!(!far.contains("did you mean"), "{far}");
    }
}
