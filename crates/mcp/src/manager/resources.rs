//! Resources: `resources/list` (every page) on one server or all that offer
//! them, and `resources/read` converted like a tool result.

use std::time::Duration;

use tokio_util::sync::CancellationToken;

use super::{McpManager, Slot};
use crate::error::McpError;
use crate::result::McpToolResult;
use crate::types::McpResource;

impl McpManager {
    /// The resources of `server`, or of every connected server that
    /// advertises `resources` (listed in parallel, each within `timeout`),
    /// sorted by server then in the server's order. For all servers, one
    /// that fails is left out; only when every one fails is the first error
    /// returned.
    pub async fn resources(
        &self,
        server: Option<&str>,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<Vec<McpResource>, McpError> {
        if let Some(name) = server {
            let slot = self.slot(name)?;
            self.check_offers(slot, "resources")?;
            return self.list_resources(slot, timeout, cancel).await;
        }
        let slots: Vec<&Slot> = self
            .slots
            .values()
            .filter(|slot| {
                slot.info()
                    .is_some_and(|info| info.capabilities.resources.is_some())
            })
            .collect();
        let lists = futures::future::join_all(
            slots
                .iter()
                .map(|slot| self.list_resources(slot, timeout, cancel)),
        )
        .await;
        let mut all = Vec::new();
        let mut first_error = None;
        let mut any_ok = false;
        for list in lists {
            match list {
                Ok(resources) => {
                    any_ok = true;
                    all.extend(resources);
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
        match first_error {
            Some(e) if !any_ok => Err(e),
            _ => Ok(all),
        }
    }

    async fn list_resources(
        &self,
        slot: &Slot,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<Vec<McpResource>, McpError> {
        let listed = self
            .request(slot, "resources/list", timeout, cancel, |conn| async move {
                conn.list_resources().await
            })
            .await?;
        Ok(listed
            .into_iter()
            .map(|r| McpResource {
                server: slot.server.name.clone(),
                uri: r.uri,
                name: r.name,
                title: r.title,
                description: r.description,
                mime_type: r.mime_type,
            })
            .collect())
    }

    /// Reads one resource of `server` (`resources/read`): text contents
    /// under their uri, image blobs as images, other blobs summarized.
    pub async fn read_resource(
        &self,
        server: &str,
        uri: &str,
        timeout: Duration,
        cancel: &CancellationToken,
    ) -> Result<McpToolResult, McpError> {
        let slot = self.slot(server)?;
        self.check_offers(slot, "resources")?;
        let what = format!("resources/read {uri}");
        let result = self
            .request(slot, &what, timeout, cancel, |conn| async move {
                conn.read_resource(uri).await
            })
            .await?;
        Ok(McpToolResult::from(result))
    }
}
