//! Prompts: the index of every connected server's prompts under exposed
//! names (a namespace of their own, named like tools), and `prompts/get`
//! with required arguments checked first.

use std::collections::BTreeMap;
use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::{McpManager, Slot};
use crate::error::McpError;
use crate::names::{ToolNames, ToolRef};
use crate::result::prompt_message;
use crate::types::{McpPrompt, McpPromptArg, McpPromptMessage};

impl McpManager {
    /// The prompts of all connected servers that offer them, sorted by
    /// exposed name. Listed at connect time and again by
    /// [`Self::refresh_if_stale`] after `notifications/prompts/list_changed`.
    pub fn prompts(&self) -> Vec<McpPrompt> {
        self.index
            .read()
            .map(|i| i.prompts.clone())
            .unwrap_or_default()
    }

    /// Expands a server's prompt with `arguments` (`prompts/get`), within
    /// `timeout`. A prompt the server does not list, or missing required
    /// arguments (all named), fail before anything is sent.
    pub async fn get_prompt(
        &self,
        server: &str,
        name: &str,
        arguments: BTreeMap<String, String>,
        timeout: Duration,
    ) -> Result<Vec<McpPromptMessage>, McpError> {
        let slot = self.slot(server)?;
        // Not connected: the request below reports why (or restarts it).
        if slot.info().is_some() {
            self.check_offers(slot, "prompts")?;
            let prompt = self
                .prompts()
                .into_iter()
                .find(|p| p.server == server && p.name == name)
                .ok_or_else(|| McpError::UnknownPrompt {
                    server: server.to_owned(),
                    prompt: name.to_owned(),
                })?;
            let missing: Vec<String> = prompt
                .arguments
                .iter()
                .filter(|a| a.required && !arguments.contains_key(&a.name))
                .map(|a| a.name.clone())
                .collect();
            if !missing.is_empty() {
                return Err(McpError::MissingArguments {
                    server: server.to_owned(),
                    prompt: name.to_owned(),
                    missing,
                });
            }
        }
        let map: serde_json::Map<String, serde_json::Value> = arguments
            .into_iter()
            .map(|(k, v)| (k, serde_json::Value::String(v)))
            .collect();
        let what = format!("prompts/get {name}");
        // The caller bounds a prompt with the timeout alone.
        let never = CancellationToken::new();
        let result = self
            .request(slot, &what, timeout, &never, |conn| async move {
                conn.get_prompt(name, map).await
            })
            .await?;
        Ok(result.messages.into_iter().map(prompt_message).collect())
    }

    /// The prompts of every server, named.
    pub(super) fn prompt_index(&self) -> Vec<McpPrompt> {
        let mut raw = BTreeMap::new();
        for slot in self.slots.values() {
            let Ok(prompts) = slot.prompts.lock() else {
                continue;
            };
            for prompt in prompts.iter() {
                let r = ToolRef {
                    server: slot.server.name.clone(),
                    tool: prompt.name.clone(),
                };
                raw.insert(r, prompt.clone());
            }
        }
        let names = ToolNames::build(raw.keys().cloned());
        names
            .iter()
            .filter_map(|(exposed, r)| {
                raw.get(r).map(|p| McpPrompt {
                    server: r.server.clone(),
                    name: p.name.clone(),
                    exposed: exposed.to_owned(),
                    description: p.description.clone(),
                    arguments: p
                        .arguments
                        .iter()
                        .flatten()
                        .map(|a| McpPromptArg {
                            name: a.name.clone(),
                            description: a.description.clone(),
                            required: a.required.unwrap_or(false),
                        })
                        .collect(),
                })
            })
            .collect()
    }

    /// The slot of a configured server.
    pub(super) fn slot(&self, server: &str) -> Result<&Slot, McpError> {
        self.slots
            .get(server)
            .ok_or_else(|| McpError::UnknownServer(server.to_owned()))
    }

    /// Fails when the connected server did not advertise `feature`
    /// (`resources` or `prompts`) at `initialize`.
    pub(super) fn check_offers(&self, slot: &Slot, feature: &'static str) -> Result<(), McpError> {
        let offers = slot.info().is_none_or(|info| match feature {
            "resources" => info.capabilities.resources.is_some(),
            _ => info.capabilities.prompts.is_some(),
        });
        if offers {
            Ok(())
        } else {
            Err(McpError::Unsupported {
                server: slot.server.name.clone(),
                feature,
            })
        }
    }
}
