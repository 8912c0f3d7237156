//! MCP prompts as commands of the interactive mode: `/mcp__server__prompt
//! args…` fetches the server's prompt with those arguments and sends its
//! text as the next task, the way Claude Code offers them.

use std::collections::BTreeMap;

use wright_core::McpSetup;
use wright_mcp::{McpPrompt, PromptRole};

/// The arguments of a prompt from the text after its command, split into
/// words as a shell would (`"New York" NY` is two words): `key=value`
/// words when every word has one; otherwise words in the prompt's argument
/// order, the last argument taking the rest of the words.
fn arguments(prompt: &McpPrompt, text: &str) -> BTreeMap<String, String> {
    // Unbalanced quotes: take the words as typed rather than fail.
    let words: Vec<String> =
        shlex::split(text).unwrap_or_else(|| text.split_whitespace().map(str::to_owned).collect());
    if !words.is_empty() && words.iter().all(|w| w.contains('=')) {
        return words
            .iter()
            .filter_map(|w| w.split_once('='))
            .map(|(k, v)| (k.to_owned(), v.to_owned()))
            .collect();
    }
    let mut out = BTreeMap::new();
    let mut rest = words.into_iter();
    for (i, arg) in prompt.arguments.iter().enumerate() {
        let value = if i + 1 == prompt.arguments.len() {
            rest.by_ref().collect::<Vec<_>>().join(" ")
        } else {
            rest.next().unwrap_or_default()
        };
        if value.is_empty() {
            break;
        }
        out.insert(arg.name.clone(), value);
    }
    out
}

/// The task text of `/<exposed> args`, or why there is none. `None` when
/// no server offers a prompt by that name.
pub async fn expand(setup: &McpSetup, command: &str, text: &str) -> Option<Result<String, String>> {
    let exposed = command.strip_prefix('/')?;
    setup.manager.wait_started(setup.startup_timeout).await;
    let prompt = setup
        .manager
        .prompts()
        .into_iter()
        .find(|p| p.exposed == exposed)?;
    let args = arguments(&prompt, text);
    let messages = match setup
        .manager
        .get_prompt(&prompt.server, &prompt.name, args, setup.tool_timeout)
        .await
    {
        Ok(messages) => messages,
        Err(e) => return Some(Err(e.to_string())),
    };
    let parts: Vec<String> = messages
        .iter()
        .filter(|m| !m.text.trim().is_empty())
        .map(|m| match m.role {
            PromptRole::User => m.text.clone(),
            PromptRole::Assistant => format!("(assistant) {}", m.text),
        })
        .collect();
    if parts.is_empty() {
        return Some(Err(format!("the prompt {exposed} has no text")));
    }
    Some(Ok(parts.join("\n\n")))
}

/// `/help` lines for the servers' prompts.
pub fn help(setup: &McpSetup) -> String {
    setup
        .manager
        .prompts()
        .iter()
        .map(|p| {
            let args: Vec<String> = p
                .arguments
                .iter()
                .map(|a| {
                    if a.required {
                        format!("<{}>", a.name)
                    } else {
                        format!("[{}]", a.name)
                    }
                })
                .collect();
            let description = p.description.as_deref().and_then(|d| d.lines().next());
            format!(
                "/{} {} — {}\n",
                p.exposed,
                args.join(" "),
                description.unwrap_or("MCP prompt")
            )
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_mcp::McpPromptArg;

    fn prompt(args: &[&str]) -> McpPrompt {
        McpPrompt {
            server: "s".into(),
            name: "p".into(),
            exposed: "mcp__s__p".into(),
            description: None,
            arguments: args
                .iter()
                .map(|a| McpPromptArg {
                    name: (*a).into(),
                    description: None,
                    required: true,
                })
                .collect(),
        }
    }

    #[test]
    fn arguments_by_position_or_by_name() {
        let p = prompt(&["file", "focus"]);
        let by_position = arguments(&p, "src/a.rs error handling and tests");
        assert_eq!(by_position["file"], "src/a.rs");
        assert_eq!(by_position["focus"], "error handling and tests");
        let by_name = arguments(&p, "focus=tests file=b.rs");
        assert_eq!(by_name["file"], "b.rs");
        assert_eq!(by_name["focus"], "tests");
        assert!(arguments(&p, "  ").is_empty());
        assert_eq!(
            arguments(&prompt(&["name"]), "Ada Lovelace")["name"],
            "Ada Lovelace"
        );
    }
}
