//! A transport wrapper that sees every message in wire order: it routes
//! `notifications/progress` to the sink of the call that asked for them and
//! raises the "list changed" flags, both before the message reaches rmcp.
//!
//! rmcp hands notifications to the client handler in spawned tasks, so a
//! handler may run after the response that followed the notification on the
//! wire; a caller would then see a call end before its progress, or a tool
//! call that added a tool end before the "tools changed" flag is up. Doing
//! both here, in `receive`, keeps the order the server sent.
//!
//! rmcp also assigns every request's progress token itself. A call with a
//! sink therefore puts a route number under [`ROUTE_KEY`] in its `_meta`;
//! [`Tap::send`] strips it and binds the sink to the token rmcp chose.

use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    ClientRequest, GetMeta, JsonRpcMessage, ProgressToken, RequestMetaObject, ServerNotification,
};
use rmcp::service::{RoleClient, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;

use crate::types::{McpProgress, ProgressSink};

/// The `_meta` key carrying a route number from a call to [`Tap::send`]
/// (never sent to the server).
pub(crate) const ROUTE_KEY: &str = "dev.wright/progressRoute";

/// What the tap shares with its connection.
pub(crate) struct Shared {
    routes: Mutex<Routes>,
    next_route: AtomicU64,
    /// `notifications/tools/list_changed` seen since the last look.
    pub tools_stale: AtomicBool,
    /// `notifications/prompts/list_changed` seen since the last look.
    pub prompts_stale: AtomicBool,
    /// Woken when either flag goes up (the manager's, shared by all its
    /// connections).
    list_changed: Arc<tokio::sync::Notify>,
}

#[derive(Default)]
struct Routes {
    /// Sinks of calls not sent yet, by route number.
    pending: HashMap<u64, ProgressSink>,
    /// Sinks of calls sent, by the token rmcp gave them.
    by_token: HashMap<ProgressToken, ProgressSink>,
    token_of: HashMap<u64, ProgressToken>,
}

/// A call's progress route; dropping it (the call ended, timed out or was
/// cancelled) unbinds the sink.
pub(crate) struct Route {
    shared: Arc<Shared>,
    number: u64,
}

impl Route {
    /// The `_meta` that asks [`Tap::send`] to bind this route.
    pub(crate) fn meta(&self) -> RequestMetaObject {
        let mut meta = RequestMetaObject::default();
        meta.0.0.insert(ROUTE_KEY.to_owned(), self.number.into());
        meta
    }
}

impl Drop for Route {
    fn drop(&mut self) {
        if let Ok(mut routes) = self.shared.routes.lock() {
            routes.pending.remove(&self.number);
            if let Some(token) = routes.token_of.remove(&self.number) {
                routes.by_token.remove(&token);
            }
        }
    }
}

impl Shared {
    pub(crate) fn new(list_changed: Arc<tokio::sync::Notify>) -> Self {
        Self {
            routes: Mutex::default(),
            next_route: AtomicU64::new(0),
            tools_stale: AtomicBool::new(false),
            prompts_stale: AtomicBool::new(false),
            list_changed,
        }
    }

    /// Registers `sink` for one call.
    pub(crate) fn route(self: &Arc<Self>, sink: ProgressSink) -> Route {
        let number = self.next_route.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut routes) = self.routes.lock() {
            routes.pending.insert(number, sink);
        }
        Route {
            shared: Arc::clone(self),
            number,
        }
    }

    /// Strips the route number from an outgoing `tools/call` and binds its
    /// sink to the request's progress token.
    fn on_send(&self, message: &mut TxJsonRpcMessage<RoleClient>) {
        let JsonRpcMessage::Request(request) = message else {
            return;
        };
        let ClientRequest::CallToolRequest(call) = &mut request.request else {
            return;
        };
        let Some(meta) = call.params.meta.as_mut() else {
            return;
        };
        let Some(number) = meta.0.0.remove(ROUTE_KEY).and_then(|n| n.as_u64()) else {
            return;
        };
        if meta.0.0.is_empty() {
            call.params.meta = None;
        }
        let Some(token) = request.request.get_meta().get_progress_token() else {
            return;
        };
        if let Ok(mut routes) = self.routes.lock()
            && let Some(sink) = routes.pending.remove(&number)
        {
            routes.by_token.insert(token.clone(), sink);
            routes.token_of.insert(number, token);
        }
    }

    fn on_receive(&self, message: &RxJsonRpcMessage<RoleClient>) {
        let JsonRpcMessage::Notification(notification) = message else {
            return;
        };
        match &notification.notification {
            ServerNotification::ProgressNotification(n) => {
                let sink = self
                    .routes
                    .lock()
                    .ok()
                    .and_then(|r| r.by_token.get(&n.params.progress_token).cloned());
                // Called without the lock: the sink is the caller's code.
                if let Some(sink) = sink {
                    sink(McpProgress {
                        progress: n.params.progress,
                        total: n.params.total,
                        message: n.params.message.clone(),
                    });
                }
            }
            ServerNotification::ToolListChangedNotification(_) => {
                self.tools_stale.store(true, Ordering::SeqCst);
                self.list_changed.notify_waiters();
            }
            ServerNotification::PromptListChangedNotification(_) => {
                self.prompts_stale.store(true, Ordering::SeqCst);
                self.list_changed.notify_waiters();
            }
            _ => {}
        }
    }
}

/// A transport with the tap in front of it.
pub(crate) struct Tap<T> {
    inner: T,
    shared: Arc<Shared>,
}

impl<T> Tap<T> {
    pub(crate) fn new(inner: T, shared: Arc<Shared>) -> Self {
        Self { inner, shared }
    }
}

impl<T: Transport<RoleClient>> Transport<RoleClient> for Tap<T> {
    type Error = T::Error;

    fn send(
        &mut self,
        mut item: TxJsonRpcMessage<RoleClient>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        // Bound now, before the request can reach the server.
        self.shared.on_send(&mut item);
        self.inner.send(item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleClient>> {
        let message = self.inner.receive().await;
        if let Some(message) = &message {
            self.shared.on_receive(message);
        }
        message
    }

    fn close(&mut self) -> impl Future<Output = Result<(), Self::Error>> + Send {
        self.inner.close()
    }
}
