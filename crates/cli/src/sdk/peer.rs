//! wright's side of the control protocol's requests that go to the
//! program: writing lines to stdout without interleaving them, numbering
//! wright's own requests (`can_use_tool`, `hook_callback`, `mcp_message`),
//! and handing each reply to whoever waits for it. When stdin closes, every
//! waiting request fails at once instead of hanging the turn.

use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use futures::future::BoxFuture;
use serde_json::{Value, json};
use tokio::sync::oneshot;
use wright_hooks::hook::HookCallbacks;

/// Writes whole lines to stdout under one lock (so lines from the main
/// loop and from the tasks that wait for the program's answers never
/// interleave), flushed once.
pub fn write_lines(lines: &[Value]) {
    if lines.is_empty() {
        return;
    }
    let mut out = std::io::stdout().lock();
    for line in lines {
        // A closed stdout must not stop the task: the session is still recorded.
        let _ = writeln!(out, "{line}");
    }
    let _ = out.flush();
}

/// Writes one line; see [`write_lines`].
pub fn write_line(line: &Value) {
    write_lines(std::slice::from_ref(line));
}

/// Writes a `control_response` to the program's request `id`.
pub fn respond(id: &str, result: Result<Value, String>) {
    let response = match result {
        Ok(response) => json!({"subtype": "success", "request_id": id, "response": response}),
        Err(error) => json!({"subtype": "error", "request_id": id, "error": error}),
    };
    write_line(&json!({"type": "control_response", "response": response}));
}

type Waiter = oneshot::Sender<Result<Value, String>>;

/// wright's requests to the program that await an answer.
#[derive(Default)]
pub struct Peer {
    pending: Mutex<HashMap<String, Waiter>>,
    next: AtomicU64,
    closed: AtomicBool,
}

impl Peer {
    /// Sends `request` (`{"subtype": …}`) and waits for the answer's
    /// `response` object. Dropping the future before the answer (a hook's
    /// timeout) tells the program with a `control_cancel_request`.
    pub fn request(self: &Arc<Self>, request: Value) -> BoxFuture<'static, Result<Value, String>> {
        let id = format!("wright_{}", self.next.fetch_add(1, Ordering::SeqCst) + 1);
        let (tx, rx) = oneshot::channel();
        if self.closed.load(Ordering::SeqCst) {
            return Box::pin(async { Err(closed_message()) });
        }
        if let Ok(mut pending) = self.pending.lock() {
            pending.insert(id.clone(), tx);
        }
        write_line(&json!({"type": "control_request", "request_id": id, "request": request}));
        let waiting = Waiting {
            peer: Arc::clone(self),
            id,
            answered: false,
        };
        Box::pin(async move {
            // The whole guard moves in (a closure would capture only the
            // field it touches, and drop the guard at once).
            let mut waiting = waiting;
            let answer = rx.await.unwrap_or_else(|_| Err(closed_message()));
            waiting.answered = true;
            answer
        })
    }

    /// A request nobody waits for any more: forgotten, and the program told.
    fn abandon(&self, id: &str) {
        let was_pending = self
            .pending
            .lock()
            .ok()
            .and_then(|mut p| p.remove(id))
            .is_some();
        if was_pending && !self.closed.load(Ordering::SeqCst) {
            write_line(&json!({"type": "control_cancel_request", "request_id": id}));
        }
    }

    /// Hands the program's answer to the request `id`; unknown ids (an
    /// answer after a cancel) are dropped.
    pub fn resolve(&self, id: &str, result: Result<Value, String>) {
        let waiter = self.pending.lock().ok().and_then(|mut p| p.remove(id));
        if let Some(waiter) = waiter {
            let _ = waiter.send(result);
        }
    }

    /// Whether stdin closed (no answer can come any more).
    pub fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// stdin closed: no answer can come.
    pub fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        if let Ok(mut pending) = self.pending.lock() {
            for (_, waiter) in pending.drain() {
                let _ = waiter.send(Err(closed_message()));
            }
        }
    }
}

/// A request's future while it waits; see [`Peer::request`].
struct Waiting {
    peer: Arc<Peer>,
    id: String,
    answered: bool,
}

impl Drop for Waiting {
    fn drop(&mut self) {
        if !self.answered {
            self.peer.abandon(&self.id);
        }
    }
}

fn closed_message() -> String {
    "the program driving wright closed stdin before answering".to_owned()
}

/// The hooks the program registered at `initialize`, called over the
/// control protocol.
pub struct SdkHooks(pub Arc<Peer>);

impl HookCallbacks for SdkHooks {
    fn call(
        &self,
        id: &str,
        input: Value,
        tool_use_id: Option<String>,
    ) -> BoxFuture<'static, Result<Value, String>> {
        self.0.request(json!({
            "subtype": "hook_callback",
            "callback_id": id,
            "input": input,
            "tool_use_id": tool_use_id,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn answers_reach_their_request_and_close_fails_the_rest() {
        let peer = Arc::new(Peer::default());
        let first = peer.request(json!({"subtype": "can_use_tool"}));
        let second = peer.request(json!({"subtype": "can_use_tool"}));
        peer.resolve("wright_1", Ok(json!({"behavior": "allow"})));
        peer.resolve("nobody", Ok(json!({})));
        assert_eq!(first.await, Ok(json!({"behavior": "allow"})));
        peer.close();
        assert!(second.await.unwrap_err().contains("closed stdin"));
        let late = peer.request(json!({"subtype": "hook_callback"}));
        assert!(late.await.is_err());
    }

    #[tokio::test]
    async fn a_dropped_request_is_forgotten() {
        let peer = Arc::new(Peer::default());
        drop(peer.request(json!({"subtype": "hook_callback"})));
        assert!(peer.pending.lock().unwrap().is_empty());
    }
}
