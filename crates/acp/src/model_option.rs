//! Model selection as an ACP session config option (category `model`): the
//! models offered are the catalog's for the session's provider, plus the
//! one in use (a local or unknown model is still shown as current).

use agent_client_protocol::v1::schema::{
    SessionConfigOption, SessionConfigOptionCategory, SessionConfigSelectOption,
};

use crate::backend::ModelChoice;

/// The config option id.
pub const MODEL_OPTION: &str = "model";

/// The catalog family of a provider wire protocol.
fn family(provider: &str) -> &str {
    match provider {
        "openai-chat" | "openai-responses" => "openai",
        other => other,
    }
}

/// The model names to offer, current first.
pub fn choices(current: &str, provider: &str, models: &[ModelChoice]) -> Vec<String> {
    let family = family(provider);
    let mut names = vec![current.to_owned()];
    for m in models {
        if (m.provider == family || m.provider == "custom") && !names.contains(&m.name) {
            names.push(m.name.clone());
        }
    }
    names
}

/// The option as the editor sees it.
pub fn option(current: &str, names: &[String]) -> SessionConfigOption {
    let options: Vec<SessionConfigSelectOption> = names
        .iter()
        .map(|n| SessionConfigSelectOption::new(n.clone(), n.clone()))
        .collect();
    SessionConfigOption::select(MODEL_OPTION, "Model", current.to_owned(), options)
        .category(SessionConfigOptionCategory::Model)
        .description("The model this session uses".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(name: &str, provider: &str) -> ModelChoice {
        ModelChoice {
            name: name.into(),
            provider: provider.into(),
        }
    }

    #[test]
    fn offers_the_providers_models_with_the_current_one_first() {
        let models = [
            m("claude-a", "anthropic"),
            m("gpt-b", "openai"),
            m("mine", "custom"),
            m("cur", "anthropic"),
        ];
        assert_eq!(
            choices("cur", "anthropic", &models),
            ["cur", "claude-a", "mine"]
        );
        assert_eq!(
            choices("local", "openai-chat", &models),
            ["local", "gpt-b", "mine"]
        );
    }
}
