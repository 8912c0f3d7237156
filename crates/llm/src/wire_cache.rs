//! Each history message's request JSON, kept from one request to the next.
//!
//! A conversation re-sends its whole history with every request, so
//! without this the JSON escaping of every old message grows each turn's
//! cost with the session's length. A client keeps the bytes it wrote for
//! each position of the history together with a copy of the message they
//! came from; the next request reuses them only when the message there is
//! equal (compared in full, so a rewound, compacted or edited history is
//! never sent stale) and was written in the same form (cache breakpoints
//! move from turn to turn). Comparing is several times cheaper than
//! escaping and writing, and only new or changed messages are copied.

use std::sync::Mutex;

use serde::Serialize;
use serde::ser::{Error as _, SerializeSeq, Serializer};
use serde_json::value::RawValue;
use wright_protocol::Message;

/// The JSON written for the messages of the last request, by position.
#[derive(Default)]
pub(crate) struct WireCache {
    entries: Mutex<Vec<Option<Entry>>>,
}

struct Entry {
    message: Message,
    form: u8,
    /// The wire items one message became (Chat splits tool results into
    /// messages of their own; a message can also become none).
    items: Vec<Box<RawValue>>,
}

impl WireCache {
    /// Writes `messages` as one JSON array whose items are, for each
    /// message, the items `write(message, form(index))` returns, reusing
    /// the bytes of an equal message written in the same form last time.
    pub(crate) fn serialize<'m, S, T, F>(
        &self,
        s: S,
        messages: &'m [Message],
        form: impl Fn(usize) -> u8,
        write: F,
    ) -> Result<S::Ok, S::Error>
    where
        S: Serializer,
        T: Serialize,
        F: Fn(&'m Message, u8) -> Vec<T>,
    {
        let mut seq = s.serialize_seq(None)?;
        self.write_items(&mut seq, messages, form, write)?;
        seq.end()
    }

    /// [`serialize`](Self::serialize)'s items, into an array already
    /// begun (Chat's starts with the system prompt).
    pub(crate) fn write_items<'m, Q, T, F>(
        &self,
        seq: &mut Q,
        messages: &'m [Message],
        form: impl Fn(usize) -> u8,
        write: F,
    ) -> Result<(), Q::Error>
    where
        Q: SerializeSeq,
        T: Serialize,
        F: Fn(&'m Message, u8) -> Vec<T>,
    {
        // A poisoned lock only means an earlier request panicked while
        // writing; its entries are whole or absent, so they stay usable.
        let mut entries = self
            .entries
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        entries.resize_with(messages.len(), || None);
        for (i, message) in messages.iter().enumerate() {
            let form = form(i);
            let slot = &mut entries[i];
            let fresh = !matches!(slot, Some(e) if e.form == form && e.message == *message);
            if fresh {
                let items = write(message, form)
                    .iter()
                    .map(serde_json::value::to_raw_value)
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(Q::Error::custom)?;
                *slot = Some(Entry {
                    message: message.clone(),
                    form,
                    items,
                });
            }
            if let Some(entry) = slot {
                for item in &entry.items {
                    seq.serialize_element(item)?;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_protocol::{ContentBlock, Role};

    fn text(role: Role, text: &str) -> Message {
        Message {
            role,
            content: vec![ContentBlock::Text { text: text.into() }],
        }
    }

    struct Body<'a> {
        cache: &'a WireCache,
        messages: &'a [Message],
        marked: usize,
    }

    impl Serialize for Body<'_> {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            self.cache.serialize(
                s,
                self.messages,
                |i| u8::from(i == self.marked),
                |m, form| {
                    let t = m.text();
                    if t == "skip" {
                        return vec![];
                    }
                    vec![format!("{t}{}", if form == 1 { "*" } else { "" })]
                },
            )
        }
    }

    fn write(cache: &WireCache, messages: &[Message], marked: usize) -> String {
        let body = Body {
            cache,
            messages,
            marked,
        };
        serde_json::to_string(&body).unwrap()
    }

    #[test]
    fn reuses_equal_messages_and_rewrites_changed_ones() {
        let cache = WireCache::default();
        let mut history = vec![text(Role::User, "a"), text(Role::Assistant, "b")];
        assert_eq!(write(&cache, &history, 1), r#"["a","b*"]"#);
        history.push(text(Role::User, "c"));
        assert_eq!(write(&cache, &history, 2), r#"["a","b","c*"]"#);
        // A rewind then a different message at the same position.
        history.truncate(1);
        history.push(text(Role::Assistant, "B"));
        assert_eq!(write(&cache, &history, 9), r#"["a","B"]"#);
        // A message that writes nothing, and an empty history.
        history.push(text(Role::User, "skip"));
        assert_eq!(write(&cache, &history, 9), r#"["a","B"]"#);
        assert_eq!(write(&cache, &[], 0), "[]");
        assert_eq!(write(&cache, &history, 0), r#"["a*","B"]"#);
    }

    #[test]
    fn a_value_tree_gets_the_same_items() {
        let cache = WireCache::default();
        let history = vec![text(Role::User, "a"), text(Role::Assistant, "b")];
        let body = Body {
            cache: &cache,
            messages: &history,
            marked: 0,
        };
        let first = serde_json::to_value(&body).unwrap();
        let again = serde_json::to_value(&body).unwrap();
        assert_eq!(first, serde_json::json!(["a*", "b"]));
        assert_eq!(first, again);
    }
}
