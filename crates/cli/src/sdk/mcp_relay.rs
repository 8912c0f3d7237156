//! The program's in-process MCP servers (`"type": "sdk"` in its
//! `--mcp-config`) over the control protocol: each JSON-RPC message of
//! wright's MCP client becomes an `mcp_message` control request, and the
//! program's `mcp_response` is the reply ([`wright_mcp::SdkRelay`]).

use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::{Value, json};
use wright_mcp::{SdkRelay, SdkRelayError};

use super::peer::Peer;

/// The relay to the program driving wright, for [`crate::mcp_servers::collect`].
pub struct ProgramRelay(pub Arc<Peer>);

impl ProgramRelay {
    /// The relay over `peer`, as the MCP start-up takes it.
    pub fn over(peer: &Arc<Peer>) -> Arc<dyn SdkRelay> {
        Arc::new(Self(Arc::clone(peer)))
    }
}

impl SdkRelay for ProgramRelay {
    fn send(
        &self,
        server: &str,
        message: Value,
    ) -> BoxFuture<'static, Result<Value, SdkRelayError>> {
        let reply = self.0.request(json!({
            "subtype": "mcp_message",
            "server_name": server,
            "message": message,
        }));
        let peer = Arc::clone(&self.0);
        Box::pin(async move {
            match reply.await {
                Ok(mut response) => match response.get_mut("mcp_response") {
                    Some(mcp) => Ok(mcp.take()),
                    None => Err(SdkRelayError::Failed(
                        "the program's answer has no mcp_response".to_owned(),
                    )),
                },
                // No answer can come any more: the server is gone for good.
                Err(why) if peer.is_closed() => Err(SdkRelayError::Closed(why)),
                Err(why) => Err(SdkRelayError::Failed(why)),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn messages_travel_as_mcp_message_requests() {
        let peer = Arc::new(Peer::default());
        let relay = ProgramRelay::over(&peer);
        let ok = relay.send("calc", json!({"jsonrpc": "2.0", "id": 0, "method": "ping"}));
        let bare = relay.send("calc", json!({"jsonrpc": "2.0", "id": 1, "method": "ping"}));
        let refused = relay.send("calc", json!({"jsonrpc": "2.0", "id": 2, "method": "ping"}));
        let closed = relay.send("calc", json!({"jsonrpc": "2.0", "id": 3, "method": "ping"}));
        peer.resolve(
            "wright_1",
            Ok(json!({"mcp_response": {"jsonrpc": "2.0", "id": 0, "result": {}}})),
        );
        peer.resolve("wright_2", Ok(json!({})));
        peer.resolve("wright_3", Err("Server 'calc' not found".to_owned()));
        assert_eq!(
            ok.await,
            Ok(json!({"jsonrpc": "2.0", "id": 0, "result": {}}))
        );
        assert!(matches!(bare.await, Err(SdkRelayError::Failed(_))));
        assert_eq!(
            refused.await,
            Err(SdkRelayError::Failed("Server 'calc' not found".to_owned()))
        );
        peer.close();
        assert!(matches!(closed.await, Err(SdkRelayError::Closed(_))));
    }
}
