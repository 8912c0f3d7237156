//! Keeping the configured API key out of what the model streams back: a
//! server (malicious or buggy) can echo the key as answer text, reasoning
//! or tool arguments, which would then reach the terminal, stream-json
//! output and the session file. Every decoder's output passes through a
//! [`StreamRedactor`] in the HTTP driver, the one place all providers share.
//!
//! Deltas are redacted as a stream: a delta whose tail could be the start
//! of the key holds that tail back (at most key length − 1 bytes) until the
//! next delta shows whether the key follows, so a key split across deltas
//! is still caught. Held text is flushed when the stream switches to
//! another kind of event and before the final message.

use std::mem;

use wright_protocol::{ContentBlock, Message};

use crate::client::StreamEvent;
use crate::decoder::Decoder;
use crate::error::LlmError;
use crate::redact::REDACTED;
use crate::sse::SseEvent;

/// Shortest key redacted; shorter "keys" would shred ordinary words (the
/// same floor as [`crate::redact::redact`]).
const MIN_KEY_LEN: usize = 4;

/// Replaces the configured key with `[REDACTED]` in a stream of
/// [`StreamEvent`]s: text and thinking deltas (also when the key is split
/// across deltas), tool call names, and the final message's text,
/// thinking and tool call arguments.
#[derive(Debug, Default)]
pub struct StreamRedactor {
    /// The key to hide; `None` disables redaction entirely.
    key: Option<String>,
    /// Tail of the answer text that may be the start of the key.
    text: String,
    /// Tail of the reasoning text that may be the start of the key.
    thinking: String,
}

impl StreamRedactor {
    /// A redactor for `key`; `None`, or a key shorter than 4 bytes after
    /// trimming, passes every event through unchanged.
    pub fn new(key: Option<&str>) -> Self {
        let key = key
            .map(str::trim)
            .filter(|k| k.len() >= MIN_KEY_LEN)
            .map(str::to_owned);
        Self {
            key,
            ..Self::default()
        }
    }

    /// Redacts one batch of decoder output. Returns `events` itself, without
    /// allocating, when nothing is held back and nothing needs changing.
    pub fn process(&mut self, events: Vec<StreamEvent>) -> Vec<StreamEvent> {
        let Some(key) = self.key.as_deref() else {
            return events;
        };
        let idle = self.text.is_empty() && self.thinking.is_empty();
        if idle && events.iter().all(|e| passes(key, e)) {
            return events;
        }
        let mut out = Vec::with_capacity(events.len() + 1);
        for event in events {
            self.push(event, &mut out);
        }
        out
    }

    /// Redacts one event into `out`, flushing held text of the other kind
    /// first so events keep their order.
    fn push(&mut self, event: StreamEvent, out: &mut Vec<StreamEvent>) {
        let Self {
            key,
            text: held_text,
            thinking: held_thinking,
        } = self;
        let Some(key) = key.as_deref() else {
            out.push(event);
            return;
        };
        match event {
            StreamEvent::TextDelta(delta) => {
                flush(held_thinking, StreamEvent::ThinkingDelta, out);
                if let Some(text) = redact_delta(key, held_text, delta) {
                    out.push(StreamEvent::TextDelta(text));
                }
            }
            StreamEvent::ThinkingDelta(delta) => {
                flush(held_text, StreamEvent::TextDelta, out);
                if let Some(text) = redact_delta(key, held_thinking, delta) {
                    out.push(StreamEvent::ThinkingDelta(text));
                }
            }
            StreamEvent::ThinkingSignature(signature) => {
                // The block's text is whole before its signature.
                flush(held_thinking, StreamEvent::ThinkingDelta, out);
                out.push(StreamEvent::ThinkingSignature(signature));
            }
            StreamEvent::ToolCallStarted { id, name } => {
                flush(held_text, StreamEvent::TextDelta, out);
                flush(held_thinking, StreamEvent::ThinkingDelta, out);
                out.push(StreamEvent::ToolCallStarted {
                    id: replace_key(key, id),
                    name: replace_key(key, name),
                });
            }
            // Numbers only: nothing to redact, and nothing held is due.
            StreamEvent::Usage(usage) => out.push(StreamEvent::Usage(usage)),
            StreamEvent::Completed {
                message,
                stop_reason,
                usage,
            } => {
                flush(held_text, StreamEvent::TextDelta, out);
                flush(held_thinking, StreamEvent::ThinkingDelta, out);
                out.push(StreamEvent::Completed {
                    message: redact_message(key, message),
                    stop_reason,
                    usage,
                });
            }
        }
    }
}

/// Whether `event` leaves an idle redactor unchanged. `Completed` is
/// always redacted: it comes once per stream.
fn passes(key: &str, event: &StreamEvent) -> bool {
    match event {
        StreamEvent::TextDelta(d) | StreamEvent::ThinkingDelta(d) => {
            !d.contains(key) && hold_len(key, d) == 0
        }
        StreamEvent::ToolCallStarted { id, name } => !id.contains(key) && !name.contains(key),
        // Opaque provider data, never a key; it passes unless thinking is held.
        StreamEvent::ThinkingSignature(_) => true,
        StreamEvent::Usage(_) => true,
        StreamEvent::Completed { .. } => false,
    }
}

/// Emits held text as an event of its kind.
fn flush(held: &mut String, wrap: fn(String) -> StreamEvent, out: &mut Vec<StreamEvent>) {
    if !held.is_empty() {
        out.push(wrap(mem::take(held)));
    }
}

/// Length of the longest proper prefix of `key` that `text` ends with: the
/// bytes that must wait for the next delta.
fn hold_len(key: &str, text: &str) -> usize {
    let key = key.as_bytes();
    let bytes = text.as_bytes();
    let first = bytes.len().saturating_sub(key.len() - 1);
    (first..bytes.len())
        .find(|&at| text.is_char_boundary(at) && key.starts_with(&bytes[at..]))
        .map_or(0, |at| bytes.len() - at)
}

/// Redacts `delta` continuing the text in `held`; returns what can be
/// emitted now (`None` when all of it is held back) and leaves in `held`
/// the tail that may be the start of the key.
fn redact_delta(key: &str, held: &mut String, mut delta: String) -> Option<String> {
    if held.is_empty() && !delta.contains(key) {
        // The common case: reuse the delta's own buffer.
        let keep = delta.len() - hold_len(key, &delta);
        held.push_str(&delta[keep..]);
        delta.truncate(keep);
        return (!delta.is_empty()).then_some(delta);
    }
    let joined = if held.is_empty() {
        delta
    } else {
        let mut joined = mem::take(held);
        joined.push_str(&delta);
        joined
    };
    let mut out = String::with_capacity(joined.len());
    let mut last = 0;
    for (at, _) in joined.match_indices(key) {
        out.push_str(&joined[last..at]);
        out.push_str(REDACTED);
        last = at + key.len();
    }
    let rest = &joined[last..];
    let keep = rest.len() - hold_len(key, rest);
    out.push_str(&rest[..keep]);
    held.push_str(&rest[keep..]);
    (!out.is_empty()).then_some(out)
}

/// `text` with every occurrence of `key` replaced, reusing it when there
/// is none.
fn replace_key(key: &str, text: String) -> String {
    if text.contains(key) {
        text.replace(key, REDACTED)
    } else {
        text
    }
}

/// The final message with the key replaced in everything the model wrote.
/// Signatures and redacted thinking are opaque provider data that must go
/// back unchanged, and are left alone.
fn redact_message(key: &str, mut message: Message) -> Message {
    for block in &mut message.content {
        match block {
            ContentBlock::Text { text } => *text = replace_key(key, mem::take(text)),
            ContentBlock::Thinking { thinking, .. } => {
                *thinking = replace_key(key, mem::take(thinking));
            }
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            } => {
                *id = replace_key(key, mem::take(id));
                *name = replace_key(key, mem::take(name));
                *arguments = replace_key(key, mem::take(arguments));
            }
            ContentBlock::ToolResult { content, .. } => {
                *content = replace_key(key, mem::take(content));
            }
            ContentBlock::Image { .. }
            | ContentBlock::RedactedThinking { .. }
            | ContentBlock::Opaque { .. } => {}
        }
    }
    message
}

/// A provider decoder whose output passes through a [`StreamRedactor`].
pub(crate) struct Redacting<D> {
    inner: D,
    redactor: StreamRedactor,
}

impl<D> Redacting<D> {
    /// Wraps `inner`, hiding `key` in everything it produces.
    pub(crate) fn new(inner: D, key: Option<&str>) -> Self {
        Self {
            inner,
            redactor: StreamRedactor::new(key),
        }
    }
}

impl<D: Decoder> Decoder for Redacting<D> {
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
        let events = self.inner.on_event(event)?;
        Ok(self.redactor.process(events))
    }

    fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
        let events = self.inner.finish()?;
        Ok(self.redactor.process(events))
    }

    fn is_complete(&self) -> bool {
        self.inner.is_complete()
    }

    fn is_finishing(&self) -> bool {
        self.inner.is_finishing()
    }
}

#[cfg(test)]
#[path = "stream_redact_tests.rs"]
mod tests;
