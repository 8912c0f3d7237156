//! Servers that live inside the program driving wright: the Claude Agent
//! SDK's in-process MCP servers (`create_sdk_mcp_server`, `"type": "sdk"`
//! in that program's `--mcp-config`). wright cannot reach them by itself:
//! the front end that talks to the program (stream-json's control
//! protocol, `mcp_message` requests) supplies an [`SdkRelay`], which
//! carries one JSON-RPC message to the program and brings back its reply.
//! [`RelayTransport`] makes an rmcp transport of it, so such a server takes
//! the same paths as a stdio or HTTP server: handshake, listings, calls,
//! timeouts (a dropped request becomes `notifications/cancelled`, relayed
//! like any notification), statuses, one restart after the relay closed.
//!
//! The relay only carries wright's messages and their replies: the server
//! cannot send requests or notifications of its own (no progress, no
//! `list_changed`, no sampling). That is the control protocol's shape, and
//! Claude Code has the same limit.

use std::convert::Infallible;
use std::fmt;
use std::future::Future;
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use rmcp::model::{ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

/// The status reason of an SDK server when no program drives wright (no
/// relay): print mode, the terminal UI, `wright mcp list`.
pub const SDK_NEEDS_RELAY: &str =
    "an SDK server needs a program driving wright over stream-json (the Claude Agent SDK)";

/// Carries JSON-RPC messages to the in-process servers of the program
/// driving wright. The front end implements it over its control protocol;
/// the manager gets it in [`crate::StartOptions::sdk_relay`].
///
/// Calls may overlap (one per request in flight, plus notifications), so
/// an implementation pairs each reply with its message itself (the
/// control protocol's `request_id`), never by order.
pub trait SdkRelay: Send + Sync + 'static {
    /// Sends one JSON-RPC message (a request or a notification) to server
    /// `server` (its key in `mcpServers`) and returns the program's reply:
    /// for a request, the JSON-RPC response (`result` or `error`; its `id`
    /// need not be right, the transport sets it); for a notification, the
    /// program's ack, which is discarded.
    fn send(
        &self,
        server: &str,
        message: Value,
    ) -> BoxFuture<'static, Result<Value, SdkRelayError>>;
}

impl fmt::Debug for dyn SdkRelay {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("SdkRelay")
    }
}

/// Why a message did not get a reply.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SdkRelayError {
    /// This message failed (the program answered the control request with
    /// an error, or it could not be sent); the relay still works. A request
    /// fails with this text as its JSON-RPC error.
    #[error("{0}")]
    Failed(String),
    /// The relay is gone for good (the program closed wright's stdin or
    /// stopped answering): the server is reported as stopped, and the one
    /// restart fails with this text.
    #[error("{0}")]
    Closed(String),
}

/// What a [`RelayTransport`] shares with its connection: whether the relay
/// closed, and why.
#[derive(Default)]
pub(crate) struct RelayState {
    closed: CancellationToken,
    reason: Mutex<Option<String>>,
}

impl RelayState {
    /// Marks the relay closed; `receive` then ends the session.
    fn close(&self, reason: Option<String>) {
        if let Some(reason) = reason
            && let Ok(mut r) = self.reason.lock()
            && r.is_none()
        {
            *r = Some(reason);
        }
        self.closed.cancel();
    }

    /// Why the relay closed, if it said.
    pub(crate) fn closed_reason(&self) -> Option<String> {
        self.reason.lock().ok().and_then(|r| r.clone())
    }
}

/// An rmcp client transport over an [`SdkRelay`]: every outgoing message
/// goes through [`SdkRelay::send`] and a request's reply comes back from
/// [`Transport::receive`]. rmcp runs each `send` as a task of its own, so
/// requests travel concurrently.
pub(crate) struct RelayTransport {
    relay: Arc<dyn SdkRelay>,
    server: String,
    state: Arc<RelayState>,
    tx: mpsc::UnboundedSender<RxJsonRpcMessage<RoleClient>>,
    rx: mpsc::UnboundedReceiver<RxJsonRpcMessage<RoleClient>>,
}

impl RelayTransport {
    /// The transport to `server` and the state its connection keeps.
    pub(crate) fn new(relay: Arc<dyn SdkRelay>, server: &str) -> (Self, Arc<RelayState>) {
        let (tx, rx) = mpsc::unbounded_channel();
        let state = Arc::new(RelayState::default());
        let transport = Self {
            relay,
            server: server.to_owned(),
            state: Arc::clone(&state),
            tx,
            rx,
        };
        (transport, state)
    }
}

impl Transport<RoleClient> for RelayTransport {
    // Nothing fails at sending: a failed request is answered with a
    // JSON-RPC error instead, so its caller gets the reason (rmcp would
    // turn a send error into a vaguer one).
    type Error = Infallible;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let relay = Arc::clone(&self.relay);
        let server = self.server.clone();
        let state = Arc::clone(&self.state);
        let tx = self.tx.clone();
        async move {
            let id = match &item {
                JsonRpcMessage::Request(request) => Some(request.id.clone()),
                _ => None,
            };
            if state.closed.is_cancelled() {
                // The session is ending; nothing reaches the server now.
                return Ok(());
            }
            let reply = match serde_json::to_value(&item) {
                Ok(message) => relay.send(&server, message).await,
                Err(e) => Err(SdkRelayError::Failed(format!(
                    "cannot encode the message: {e}"
                ))),
            };
            let answer = match (reply, id) {
                (Err(SdkRelayError::Closed(reason)), _) => {
                    state.close(Some(reason));
                    return Ok(());
                }
                // A notification's ack (or its failure) has no reader.
                (_, None) => return Ok(()),
                (Ok(reply), Some(id)) => {
                    parse_reply(reply, &id).unwrap_or_else(|why| error_reply(why, id))
                }
                (Err(SdkRelayError::Failed(why)), Some(id)) => error_reply(
                    format!("the program driving wright could not relay it: {why}"),
                    id,
                ),
            };
            // The receiver lives as long as the transport; after it, no
            // one waits for the answer.
            let _ = tx.send(answer);
            Ok(())
        }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        tokio::select! {
            // Replies that arrived before the relay closed still count.
            biased;
            message = self.rx.recv() => message,
            () = self.state.closed.cancelled() => None,
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.state.close(None);
        Ok(())
    }
}

/// A JSON-RPC error answering request `id`, as if the server had sent it.
fn error_reply(message: String, id: RequestId) -> RxJsonRpcMessage<RoleClient> {
    JsonRpcMessage::error(ErrorData::internal_error(message, None), Some(id))
}

/// The program's reply as the response to request `id`, or why it is none.
fn parse_reply(mut reply: Value, id: &RequestId) -> Result<RxJsonRpcMessage<RoleClient>, String> {
    let Value::Object(map) = &mut reply else {
        return Err(format!(
            "the program's reply is not a JSON-RPC response: {}",
            excerpt(&reply)
        ));
    };
    // The relay pairs reply and request itself: whatever id the program
    // wrote, this is the answer to this request (a wrong one would leave
    // the call waiting until its timeout).
    let id_value = serde_json::to_value(id).map_err(|e| e.to_string())?;
    map.insert("id".to_owned(), id_value);
    map.entry("jsonrpc")
        .or_insert_with(|| Value::String("2.0".to_owned()));
    // Parsed from text, exactly as a stdio server's line would be.
    match serde_json::from_str::<RxJsonRpcMessage<RoleClient>>(&reply.to_string()) {
        Ok(message @ (JsonRpcMessage::Response(_) | JsonRpcMessage::Error(_))) => Ok(message),
        Ok(_) | Err(_) => Err(format!(
            "the program's reply is not a JSON-RPC response: {}",
            excerpt(&reply)
        )),
    }
}

/// At most 200 characters of `value`, for an error message.
fn excerpt(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(200) {
        Some((at, _)) => format!("{}…", &text[..at]),
        None => text,
    }
}

#[cfg(test)]
#[path = "sdk_tests.rs"]
mod tests;
