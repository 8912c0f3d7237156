//! The slash commands a program may send as a prompt: wright's built-in
//! one that makes sense without a terminal (`/compact`) and the custom
//! commands of `.wright/commands` and the user's commands directory (as
//! `--setting-sources` allows). Their names go in the init line's
//! `slash_commands`; the `initialize` reply describes each as the SDK's
//! `SlashCommand` (`name`, `description`, `argumentHint`); a prompt that
//! starts with one becomes its op.

use std::path::Path;

use serde_json::{Value, json};
use wright_config::SettingSources;
use wright_context::commands::{self, CommandScope, CustomCommand};
use wright_protocol::{ContentBlock, Op};

/// The built-in commands: name, description, argument hint.
const BUILT_IN: [(&str, &str, &str); 1] = [(
    "compact",
    "Summarize the conversation so far to free context",
    "[what the summary should keep]",
)];

/// The commands of one run.
#[derive(Debug, Default)]
pub struct SlashCommands {
    /// Custom commands, sorted by name, without those a built-in shadows.
    custom: Vec<CustomCommand>,
}

impl SlashCommands {
    /// The built-in commands and the custom ones of `project_root` and the
    /// user's config dir that `sources` allows; a warning per command file
    /// that could not be used.
    pub fn load(project_root: &Path, sources: SettingSources) -> (Self, Vec<String>) {
        let user_dir = wright_config::default_user_config_dir();
        let (mut custom, problems) = commands::load(project_root, user_dir.as_deref());
        custom.retain(|c| {
            let allowed = match c.scope {
                CommandScope::Project => sources.project,
                CommandScope::User => sources.user,
            };
            allowed && !BUILT_IN.iter().any(|(name, ..)| *name == c.name)
        });
        let warnings = problems
            .iter()
            .map(|w| match &w.path {
                Some(path) => format!("warning: {}: {}", path.display(), w.message),
                None => format!("warning: {}", w.message),
            })
            .collect();
        (Self { custom }, warnings)
    }

    /// The names, without the slash, built-in ones first.
    pub fn names(&self) -> Vec<String> {
        BUILT_IN
            .iter()
            .map(|(name, ..)| (*name).to_owned())
            .chain(self.custom.iter().map(|c| c.name.clone()))
            .collect()
    }

    /// Each command as the SDK's `SlashCommand`.
    pub fn described(&self) -> Vec<Value> {
        BUILT_IN
            .iter()
            .map(|(name, description, hint)| {
                json!({"name": name, "description": description, "argumentHint": hint})
            })
            .chain(self.custom.iter().map(|c| {
                json!({
                    "name": c.name,
                    "description": c.description,
                    "argumentHint": c.argument_hint.as_deref().unwrap_or(""),
                })
            }))
            .collect()
    }

    /// The op a prompt starts: `/compact [focus]` compacts, `/name args`
    /// of a custom command is its expansion, anything else is the text;
    /// `uuid` is the program's id of the message, recorded with it.
    pub fn op(&self, text: String, images: Vec<ContentBlock>, uuid: Option<String>) -> Op {
        let (command, args) = split_command(&text);
        if command == Some("compact") && images.is_empty() {
            let focus = args.trim();
            return Op::Compact {
                focus: (!focus.is_empty()).then(|| focus.to_owned()),
            };
        }
        let found = command.and_then(|name| self.custom.iter().find(|c| c.name == name));
        let original = text.clone();
        let text = match found {
            Some(custom) => commands::expand(custom, args),
            None => text,
        };
        let typed = found.map(|_| original);
        Op::UserTurnWithImages {
            text,
            images,
            uuid,
            typed,
        }
    }
}

/// `/name rest` → (`name`, `rest`); text that is not a command → (None, "").
fn split_command(text: &str) -> (Option<&str>, &str) {
    let Some(rest) = text.trim_start().strip_prefix('/') else {
        return (None, "");
    };
    let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
    if name.is_empty() {
        return (None, "");
    }
    (Some(name), args)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_custom() -> SlashCommands {
        SlashCommands {
            custom: vec![CustomCommand {
                name: "review".into(),
                description: "Review a change".into(),
                argument_hint: Some("[pr-number]".into()),
                body: "Review PR $ARGUMENTS carefully.".into(),
                scope: CommandScope::Project,
                path: "/p/.wright/commands/review.md".into(),
            }],
        }
    }

    #[test]
    fn commands_are_described_as_the_sdk_reads_them() {
        let commands = with_custom();
        assert_eq!(commands.names(), ["compact", "review"]);
        let described = commands.described();
        assert_eq!(described[0]["name"], "compact");
        assert!(
            described[0]["description"]
                .as_str()
                .is_some_and(|d| !d.is_empty())
        );
        assert_eq!(
            described[1],
            json!({"name": "review", "description": "Review a change", "argumentHint": "[pr-number]"})
        );
    }

    #[test]
    fn a_prompt_becomes_its_commands_op() {
        let commands = with_custom();
        let id = Some("u1".to_owned());
        assert_eq!(
            commands.op("/compact keep the plan".into(), Vec::new(), id.clone()),
            Op::Compact {
                focus: Some("keep the plan".into())
            }
        );
        assert_eq!(
            commands.op("/compact".into(), Vec::new(), None),
            Op::Compact { focus: None }
        );
        assert_eq!(
            commands.op("/review 42".into(), Vec::new(), id.clone()),
            Op::UserTurnWithImages {
                text: "Review PR 42 carefully.".into(),
                images: Vec::new(),
                uuid: id.clone(),
                typed: Some("/review 42".into()),
            }
        );
        // Not a command: the text as typed, with its id.
        for text in ["/compaction now", "/unknown x", "hello /review", "/"] {
            assert_eq!(
                commands.op(text.into(), Vec::new(), id.clone()),
                Op::UserTurnWithImages {
                    text: text.into(),
                    images: Vec::new(),
                    uuid: id.clone(),
                    typed: None,
                },
                "{text}"
            );
        }
    }
}
