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
    turn_id: AtomicU64,
    next_item: AtomicU64,
    // The lock makes "take the next seq, then send" one step, so events from
    // concurrent tools still arrive with strictly increasing seq.
    tx: Mutex<(u64, UnboundedSender<Event>)>,
}

impl Emitter {
    pub(crate) fn new(session_id: String, agent: AgentPath, tx: UnboundedSender<Event>) -> Self {
        Self {
            inner: Arc::new(Inner {
                session_id,
                agent,
                turn_id: AtomicU64::new(0),
                next_item: AtomicU64::new(1),
                tx: Mutex::new((0, tx)),
            }),
        }
    }

    pub(crate) fn begin_turn(&self) {
        self.inner.turn_id.fetch_add(1, Ordering::SeqCst);
    }

    pub(crate) fn next_item_id(&self) -> String {
        let n = self.inner.next_item.fetch_add(1, Ordering::SeqCst);
        format!("item_{n}")
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
        self.emit(EventKind::Error { message });
    }

    pub(crate) fn warning(&self, message: String) {
        self.emit(EventKind::Warning { message });
    }

    pub(crate) fn notice(&self, message: String) {
        self.emit(EventKind::Notice { message });
    }
}
