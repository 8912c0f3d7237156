//! Stamps events with session id, turn id, sequence number and agent path,
//! and sends them in order to the front end.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use tokio::sync::mpsc::UnboundedSender;
use wright_protocol::{AgentPath, Event, EventKind, Item, ItemDelta};

/// Cloneable handle that emits events for one session. Cheap to clone so
/// concurrently running tools can stream their own deltas.
#[derive(Clone)]
pub(crate) struct Emitter {
    inner: Arc<Inner>,
}

struct Inner {
    session_id: String,
    agent: AgentPath,
    /// A subagent's: the parent's `Task` call id.
    parent_call: Option<String>,
    /// The last error reported, for a subagent's result.
    last_error: Mutex<Option<String>>,
    turn_id: AtomicU64,
    next_item: AtomicU64,
    // The lock makes "take the next seq, then send" one step, so events from
    // concurrent tools (and subagents, which share it) still arrive with
    // strictly increasing seq.
    tx: Arc<Mutex<(u64, UnboundedSender<Event>)>>,
}

impl Emitter {
    pub(crate) fn new(session_id: String, agent: AgentPath, tx: UnboundedSender<Event>) -> Self {
        Self {
            inner: Arc::new(Inner {
                session_id,
                agent,
                parent_call: None,
                last_error: Mutex::new(None),
                turn_id: AtomicU64::new(0),
                next_item: AtomicU64::new(1),
                tx: Arc::new(Mutex::new((0, tx))),
            }),
        }
    }

    /// The emitter of a subagent started by the parent's call `call_id`:
    /// the same channel and sequence, its own agent path and item ids
    /// (prefixed, so they never collide with the parent's).
    pub(crate) fn child(&self, agent: AgentPath, call_id: &str) -> Self {
        Self {
            inner: Arc::new(Inner {
                session_id: self.inner.session_id.clone(),
                agent,
                parent_call: Some(call_id.to_owned()),
                last_error: Mutex::new(None),
                turn_id: AtomicU64::new(self.inner.turn_id.load(Ordering::SeqCst)),
                next_item: AtomicU64::new(1),
                tx: Arc::clone(&self.inner.tx),
            }),
        }
    }

    /// This emitter's agent path.
    pub(crate) fn agent(&self) -> &AgentPath {
        &self.inner.agent
    }

    pub(crate) fn begin_turn(&self) {
        self.inner.turn_id.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn next_item_id(&self) -> String {
        let n = self.inner.next_item.fetch_add(1, Ordering::SeqCst);
        if self.inner.parent_call.is_some() {
            format!("{}:item_{n}", self.inner.agent.0)
        } else {
            format!("item_{n}")
        }
    }

    pub(crate) fn emit(&self, kind: EventKind) {
        let Ok(mut guard) = self.inner.tx.lock() else {
            return;
        };
        guard.0 += 1;
        let event = Event {
            session_id: self.inner.session_id.clone(),
            turn_id: self.inner.turn_id.load(Ordering::SeqCst),
            seq: guard.0,
            agent: self.inner.agent.clone(),
            parent_tool_use_id: self.inner.parent_call.clone(),
            kind,
        };
        // A closed receiver means the front end is gone; the turn finishes
        // quietly rather than failing on output nobody reads.
        let _ = guard.1.send(event);
    }

    pub(crate) fn item_started(&self, item: Item) {
        self.emit(EventKind::ItemStarted { item });
    }

    pub(crate) fn item_delta(&self, item_id: &str, delta: ItemDelta) {
        self.emit(EventKind::ItemDelta {
            item_id: item_id.to_owned(),
            delta,
        });
    }

    pub(crate) fn item_completed(&self, item: Item) {
        self.emit(EventKind::ItemCompleted { item });
    }

    pub(crate) fn error(&self, message: String) {
        if let Ok(mut last) = self.inner.last_error.lock() {
            *last = Some(message.clone());
        }
        self.emit(EventKind::Error { message });
    }

    /// The last error this emitter reported.
    pub(crate) fn last_error(&self) -> Option<String> {
        self.inner.last_error.lock().ok().and_then(|l| l.clone())
    }

    pub(crate) fn warning(&self, message: String) {
        self.emit(EventKind::Warning { message });
    }

    pub(crate) fn notice(&self, message: String) {
        self.emit(EventKind::Notice { message });
    }

    /// The permission mode is now `mode`: said to the user, and typed for
    /// the front ends that show it.
    pub(crate) fn mode_changed(&self, mode: &str) {
        self.notice(format!("Permission mode is now `{mode}`."));
        self.emit(EventKind::ModeChanged {
            mode: mode.to_owned(),
        });
    }
}
