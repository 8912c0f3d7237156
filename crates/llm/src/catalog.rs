//! The model catalog: context window, output limit and prices of known
//! models, user overrides on top, conservative defaults for the rest, and
//! the cost arithmetic. Prices are USD per million tokens as the vendors
//! publish them (Anthropic and OpenAI pricing pages, checked 2026-11).

use wright_protocol::Usage;

/// Prices in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pricing {
    /// Uncached input tokens.
    pub input: f64,
    /// Output tokens (reasoning included).
    pub output: f64,
    /// Input tokens read from the prompt cache.
    pub cache_read: f64,
    /// Input tokens written to the prompt cache (Anthropic's 5-minute
    /// write price; OpenAI charges ordinary input for these).
    pub cache_write: f64,
}

/// What wright knows about one model.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelInfo {
    /// The model name, or the alias that dated names extend.
    pub name: String,
    /// The vendor: "anthropic", "openai", or what an override says.
    pub provider: &'static str,
    /// Context window in tokens.
    pub context_window: u64,
    /// Most output tokens one request may ask for.
    pub max_output: u32,
    /// Prices, when known.
    pub pricing: Option<Pricing>,
}

/// The answer of [`Catalog::lookup`].
#[derive(Debug, Clone, PartialEq)]
pub enum Lookup<'a> {
    /// A catalog entry (exact, alias, or dated-name match).
    Known(&'a ModelInfo),
    /// Not in the catalog: conservative defaults, no pricing. The caller warns.
    Unknown(ModelInfo),
}

impl Lookup<'_> {
    /// The model's information, whichever way it was found.
    pub fn info(&self) -> &ModelInfo {
        match self {
            Lookup::Known(info) => info,
            Lookup::Unknown(info) => info,
        }
    }

    /// Whether the model was found in the catalog.
    pub fn is_known(&self) -> bool {
        matches!(self, Lookup::Known(_))
    }
}

/// Context window assumed for unknown models.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;
/// Output limit assumed for unknown models.
pub const DEFAULT_MAX_OUTPUT: u32 = 8192;

/// Known models, built-in entries first and user overrides on top.
#[derive(Debug, Clone)]
pub struct Catalog {
    models: Vec<ModelInfo>,
}

const fn p(input: f64, output: f64, cache_read: f64, cache_write: f64) -> Pricing {
    Pricing {
        input,
        output,
        cache_read,
        cache_write,
    }
}

/// (name, provider, context window, max output, pricing). Anthropic names
/// are the aliases; dated ids (`claude-sonnet-4-5-20250929`) match by prefix.
const BUILTIN: &[(&str, &str, u64, u32, Pricing)] = &[
    // Anthropic: 5m cache write = 1.25x input, cache read = 0.1x (0.05x on 5.5).
    (
        "claude-opus-5-5",
        "anthropic",
        1_000_000,
        128_000,
        p(4.0, 20.0, 0.2, 5.0),
    ),
    (
        "claude-opus-5",
        "anthropic",
        1_000_000,
        128_000,
        p(5.0, 25.0, 0.5, 6.25),
    ),
    (
        "claude-sonnet-5-5",
        "anthropic",
        1_000_000,
        128_000,
        p(2.0, 10.0, 0.1, 2.5),
    ),
    (
        "claude-sonnet-5",
        "anthropic",
        1_000_000,
        128_000,
        p(2.0, 10.0, 0.2, 2.5),
    ),
    (
        "claude-haiku-5-5",
        "anthropic",
        1_000_000,
        128_000,
        p(0.1, 0.5, 0.01, 0.125),
    ),
    (
        "claude-opus-4-8",
        "anthropic",
        200_000,
        64_000,
        p(5.0, 25.0, 0.5, 6.25),
    ),
    (
        "claude-opus-4-7",
        "anthropic",
        200_000,
        64_000,
        p(5.0, 25.0, 0.5, 6.25),
    ),
    (
        "claude-opus-4-6",
        "anthropic",
        200_000,
        64_000,
        p(5.0, 25.0, 0.5, 6.25),
    ),
    (
        "claude-opus-4-5",
        "anthropic",
        200_000,
        64_000,
        p(5.0, 25.0, 0.5, 6.25),
    ),
    (
        "claude-opus-4-1",
        "anthropic",
        200_000,
        32_000,
        p(15.0, 75.0, 1.5, 18.75),
    ),
    // Also matches `claude-opus-4-0` and `claude-opus-4-20250514`.
    (
        "claude-opus-4",
        "anthropic",
        200_000,
        32_000,
        p(15.0, 75.0, 1.5, 18.75),
    ),
    (
        "claude-sonnet-4-6",
        "anthropic",
        200_000,
        64_000,
        p(3.0, 15.0, 0.3, 3.75),
    ),
    (
        "claude-sonnet-4-5",
        "anthropic",
        200_000,
        64_000,
        p(3.0, 15.0, 0.3, 3.75),
    ),
    (
        "claude-sonnet-4",
        "anthropic",
        200_000,
        64_000,
        p(3.0, 15.0, 0.3, 3.75),
    ),
    (
        "claude-haiku-4-5",
        "anthropic",
        200_000,
        64_000,
        p(1.0, 5.0, 0.1, 1.25),
    ),
    (
        "claude-3-5-haiku",
        "anthropic",
        200_000,
        8_192,
        p(0.8, 4.0, 0.08, 1.0),
    ),
    // OpenAI: cached input is billed at the cache-read price; there is no
    // separate write price, so cache_write = input.
    (
        "gpt-5.2",
        "openai",
        400_000,
        128_000,
        p(1.75, 14.0, 0.175, 1.75),
    ),
    (
        "gpt-5.1",
        "openai",
        400_000,
        128_000,
        p(1.25, 10.0, 0.125, 1.25),
    ),
    (
        "gpt-5",
        "openai",
        400_000,
        128_000,
        p(1.25, 10.0, 0.125, 1.25),
    ),
    (
        "gpt-5-mini",
        "openai",
        400_000,
        128_000,
        p(0.25, 2.0, 0.025, 0.25),
    ),
    (
        "gpt-5-nano",
        "openai",
        400_000,
        128_000,
        p(0.05, 0.4, 0.005, 0.05),
    ),
    (
        "gpt-4.1",
        "openai",
        1_047_576,
        32_768,
        p(2.0, 8.0, 0.5, 2.0),
    ),
    (
        "gpt-4.1-mini",
        "openai",
        1_047_576,
        32_768,
        p(0.4, 1.6, 0.1, 0.4),
    ),
    (
        "gpt-4.1-nano",
        "openai",
        1_047_576,
        32_768,
        p(0.1, 0.4, 0.025, 0.1),
    ),
    ("gpt-4o", "openai", 128_000, 16_384, p(2.5, 10.0, 1.25, 2.5)),
    (
        "gpt-4o-mini",
        "openai",
        128_000,
        16_384,
        p(0.15, 0.6, 0.075, 0.15),
    ),
    ("o3", "openai", 200_000, 100_000, p(2.0, 8.0, 0.5, 2.0)),
    (
        "o3-mini",
        "openai",
        200_000,
        100_000,
        p(1.1, 4.4, 0.55, 1.1),
    ),
    (
        "o4-mini",
        "openai",
        200_000,
        100_000,
        p(1.1, 4.4, 0.275, 1.1),
    ),
];

impl Catalog {
    /// The built-in entries.
    pub fn builtin() -> Self {
        let models = BUILTIN
            .iter()
            .map(
                |&(name, provider, context_window, max_output, pricing)| ModelInfo {
                    name: name.to_owned(),
                    provider,
                    context_window,
                    max_output,
                    pricing: Some(pricing),
                },
            )
            .collect();
        Self { models }
    }

    /// This catalog with `overrides` replacing same-named entries and adding new ones.
    pub fn with_overrides(mut self, overrides: Vec<ModelInfo>) -> Self {
        for info in overrides {
            match self.models.iter_mut().find(|m| m.name == info.name) {
                Some(existing) => *existing = info,
                None => self.models.push(info),
            }
        }
        self
    }

    /// Every entry, sorted by provider then name.
    pub fn list(&self) -> Vec<&ModelInfo> {
        let mut all: Vec<&ModelInfo> = self.models.iter().collect();
        all.sort_by(|a, b| (a.provider, &a.name).cmp(&(b.provider, &b.name)));
        all
    }

    /// The entry for `model`: an exact name, else the longest entry name
    /// that `model` extends at a `-`, `@`, `:` or `[` boundary (dated ids,
    /// Vertex `@date`, `[1m]` suffixes). A gateway prefix such as
    /// `anthropic/` or `openai/` is ignored.
    pub fn lookup(&self, model: &str) -> Lookup<'_> {
        let bare = model.rsplit('/').next().unwrap_or(model);
        let exact = self
            .models
            .iter()
            .find(|m| m.name == model || m.name == bare);
        let found = exact.or_else(|| {
            self.models
                .iter()
                .filter(|m| {
                    bare.strip_prefix(m.name.as_str())
                        .and_then(|rest| rest.chars().next())
                        .is_some_and(|c| matches!(c, '-' | '@' | ':' | '['))
                })
                .max_by_key(|m| m.name.len())
        });
        match found {
            Some(info) => Lookup::Known(info),
            None => Lookup::Unknown(ModelInfo {
                name: model.to_owned(),
                provider: "unknown",
                context_window: DEFAULT_CONTEXT_WINDOW,
                max_output: DEFAULT_MAX_OUTPUT,
                pricing: None,
            }),
        }
    }
}

impl Default for Catalog {
    fn default() -> Self {
        Self::builtin()
    }
}

/// The cost of `usage` in USD. `usage.input_tokens` excludes cached tokens,
/// which are priced separately.
pub fn cost_usd(usage: &Usage, pricing: &Pricing) -> f64 {
    let per_token = |tokens: u64, price: f64| tokens as f64 * price;
    (per_token(usage.input_tokens, pricing.input)
        + per_token(usage.output_tokens, pricing.output)
        + per_token(usage.cache_read_input_tokens, pricing.cache_read)
        + per_token(usage.cache_creation_input_tokens, pricing.cache_write))
        / 1_000_000.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn known<'a>(catalog: &'a Catalog, model: &str) -> &'a ModelInfo {
        match catalog.lookup(model) {
            Lookup::Known(info) => info,
            Lookup::Unknown(_) => panic!("{model} unknown"),
        }
    }

    #[test]
    fn dated_and_alias_names_match() {
        let c = Catalog::builtin();
        assert_eq!(
            known(&c, "claude-sonnet-4-5-20250929").name,
            "claude-sonnet-4-5"
        );
        assert_eq!(known(&c, "claude-sonnet-4-5").name, "claude-sonnet-4-5");
        assert_eq!(
            known(&c, "claude-sonnet-4-20250514").name,
            "claude-sonnet-4"
        );
        assert_eq!(known(&c, "claude-opus-4-0").name, "claude-opus-4");
        assert_eq!(
            known(&c, "claude-opus-4-1-20250805").name,
            "claude-opus-4-1"
        );
        assert_eq!(
            known(&c, "claude-haiku-4-5-20251001").name,
            "claude-haiku-4-5"
        );
        assert_eq!(
            known(&c, "claude-sonnet-4-5@20250929").name,
            "claude-sonnet-4-5"
        );
        assert_eq!(known(&c, "claude-sonnet-5-5[1m]").name, "claude-sonnet-5-5");
        assert_eq!(
            known(&c, "anthropic/claude-opus-4-5").name,
            "claude-opus-4-5"
        );
        assert_eq!(known(&c, "gpt-4o-mini").name, "gpt-4o-mini");
        assert_eq!(known(&c, "gpt-4o-2024-08-06").name, "gpt-4o");
        assert_eq!(known(&c, "gpt-5-mini-2025-08-07").name, "gpt-5-mini");
        assert_eq!(known(&c, "o4-mini").name, "o4-mini");
        assert_eq!(known(&c, "openai/gpt-4.1-nano").name, "gpt-4.1-nano");
    }

    #[test]
    fn unknown_models_get_conservative_defaults() {
        let c = Catalog::builtin();
        for model in ["llama3.1:8b", "gpt-50", "claude-sonnet", "o3x", ""] {
            match c.lookup(model) {
                Lookup::Unknown(info) => {
                    assert_eq!(info.name, model);
                    assert_eq!(info.context_window, 128_000);
                    assert_eq!(info.max_output, 8192);
                    assert_eq!(info.pricing, None);
                }
                Lookup::Known(info) => panic!("{model} matched {}", info.name),
            }
        }
    }

    #[test]
    fn overrides_replace_and_add() {
        let c = Catalog::builtin().with_overrides(vec![
            ModelInfo {
                name: "gpt-4o".into(),
                provider: "openai",
                context_window: 1,
                max_output: 2,
                pricing: None,
            },
            ModelInfo {
                name: "qwen3-coder".into(),
                provider: "custom",
                context_window: 262_144,
                max_output: 65_536,
                pricing: None,
            },
        ]);
        assert_eq!(known(&c, "gpt-4o").context_window, 1);
        assert_eq!(known(&c, "qwen3-coder:30b").max_output, 65_536);
        assert_eq!(c.list().len(), BUILTIN.len() + 1);
        let listed: Vec<&str> = c.list().iter().map(|m| m.provider).collect();
        let mut sorted = listed.clone();
        sorted.sort_unstable();
        assert_eq!(listed, sorted);
    }

    #[test]
    fn cost_arithmetic() {
        let pricing = p(3.0, 15.0, 0.3, 3.75);
        let usage = Usage {
            input_tokens: 1_000_000,
            output_tokens: 200_000,
            cache_creation_input_tokens: 100_000,
            cache_read_input_tokens: 2_000_000,
        };
        let cost = cost_usd(&usage, &pricing);
        // 3 + 3 + 0.375 + 0.6
        assert!((cost - 6.975).abs() < 1e-9, "{cost}");
        assert_eq!(cost_usd(&Usage::default(), &pricing), 0.0);
    }

    #[test]
    fn every_builtin_is_priced_and_sane() {
        for m in Catalog::builtin().list() {
            let pr = m.pricing.unwrap();
            assert!(
                pr.output >= pr.input && pr.cache_read <= pr.input,
                "{}",
                m.name
            );
            assert!(u64::from(m.max_output) < m.context_window, "{}", m.name);
        }
    }
}
