//! What the manager reports about its servers besides tools: their status
//! lines, their names, and the instructions they gave at `initialize`.

use super::{McpManager, Phase};
use crate::types::{ServerReport, ServerStatus};

/// The longest server `instructions` passed on, in characters.
pub const MAX_INSTRUCTIONS_CHARS: usize = 2_000;

impl McpManager {
    /// Every server with its status, sorted by name.
    pub fn statuses(&self) -> Vec<ServerReport> {
        let index = self.index.read().ok();
        self.slots
            .values()
            .map(|slot| {
                let phase = slot
                    .phase
                    .lock()
                    .map(|p| p.clone())
                    .unwrap_or(Phase::Starting);
                let status = match phase {
                    Phase::Starting => ServerStatus::Starting,
                    Phase::Failed(reason) => ServerStatus::Failed { reason },
                    Phase::Disabled => ServerStatus::Disabled,
                    Phase::Ready => ServerStatus::Connected {
                        tools: index
                            .as_ref()
                            .map(|i| {
                                i.tools
                                    .iter()
                                    .filter(|t| t.server == slot.server.name)
                                    .map(|t| t.name.clone())
                                    .collect()
                            })
                            .unwrap_or_default(),
                    },
                };
                ServerReport {
                    name: slot.server.name.clone(),
                    transport: slot.server.config.transport(),
                    target: slot.server.config.describe(),
                    source: slot.server.source.clone(),
                    status,
                }
            })
            .collect()
    }

    /// Every configured server's name, sorted (connected or not), so the
    /// core can recognize `@server:uri` mentions.
    pub fn server_names(&self) -> Vec<String> {
        self.slots.keys().cloned().collect()
    }

    /// Each connected server's `instructions` from its `initialize` result,
    /// by server name (sorted), trimmed and cut to
    /// [`MAX_INSTRUCTIONS_CHARS`] characters: the core puts them in the
    /// system prompt, so one server must not flood it.
    pub fn instructions(&self) -> Vec<(String, String)> {
        self.slots
            .values()
            .filter_map(|slot| {
                let info = slot.info()?;
                let text = info.instructions.as_deref()?.trim();
                (!text.is_empty()).then(|| (slot.server.name.clone(), cap_chars(text)))
            })
            .collect()
    }
}

/// `text` cut to [`MAX_INSTRUCTIONS_CHARS`] characters, the last one an
/// ellipsis when something was cut.
pub(super) fn cap_chars(text: &str) -> String {
    if text.chars().count() <= MAX_INSTRUCTIONS_CHARS {
        return text.to_owned();
    }
    let mut capped: String = text.chars().take(MAX_INSTRUCTIONS_CHARS - 1).collect();
    capped.push('…');
    capped
}

#[cfg(test)]
#[path = "info_tests.rs"]
mod tests;
