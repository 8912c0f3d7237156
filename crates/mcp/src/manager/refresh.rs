//! Keeping tool and prompt lists current: refreshing the lists of servers
//! that said theirs changed, and waiting for such a notice.

use std::sync::Arc;
use std::time::Duration;

use super::{McpManager, State};

impl McpManager {
    /// Lists the tools (prompts) again of every server that sent
    /// `notifications/tools/list_changed` (`prompts/list_changed`) since the
    /// last look; the core calls this before each model request. Returns
    /// whether any list was refreshed.
    pub async fn refresh_if_stale(&self) -> bool {
        let mut changed = false;
        for slot in self.slots.values() {
            let conn = match &*slot.state.lock().await {
                State::Connected(conn) if !conn.is_closed() => Arc::clone(conn),
                _ => continue,
            };
            // A failed refresh keeps the old list; the next notification
            // tries again.
            if conn.take_stale()
                && let Ok(tools) = conn.list_tools().await
                && let Ok(mut t) = slot.tools.lock()
            {
                *t = tools;
                changed = true;
            }
            if conn.take_prompts_stale()
                && let Ok(prompts) = conn.list_prompts().await
                && let Ok(mut p) = slot.prompts.lock()
            {
                *p = prompts;
                changed = true;
            }
        }
        if changed {
            self.rebuild_index();
        }
        changed
    }

    /// Waits until some server has said its tools or prompts changed and
    /// [`Self::refresh_if_stale`] has not picked that up yet, at most
    /// `limit`. Returns whether one has. For callers that refresh as soon
    /// as a list changes instead of before the next request.
    pub async fn wait_list_changed(&self, limit: Duration) -> bool {
        let changed = async {
            loop {
                // Registered before looking, so a change in between wakes us.
                let notified = self.list_changed.notified();
                tokio::pin!(notified);
                notified.as_mut().enable();
                for slot in self.slots.values() {
                    if let State::Connected(conn) = &*slot.state.lock().await
                        && conn.is_stale()
                    {
                        return;
                    }
                }
                notified.await;
            }
        };
        tokio::time::timeout(limit, changed).await.is_ok()
    }
}
