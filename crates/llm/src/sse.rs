//! A hand-written Server-Sent Events parser following the WHATWG rules,
//! fed arbitrary byte chunks as they arrive from the network.
//!
//! Bytes are buffered only until a line is complete, so multi-byte UTF-8
//! split across chunks decodes correctly; only whole lines are decoded
//! (lossily). Lines that arrive whole inside one chunk are parsed in place
//! without copying. Std-only on purpose: it has no reason to depend on
//! anything else.
//!
//! Memory is bounded: a line or an event longer than [`MAX_EVENT_BYTES`]
//! stops the parser (see [`SseParser::overflowed`]) instead of growing a
//! buffer without end.

/// The longest line, and the most `data` one event may carry, in bytes.
pub const MAX_EVENT_BYTES: usize = 16 * 1024 * 1024;

/// One dispatched SSE event.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SseEvent {
    /// The `event:` field; `None` when absent or empty (the spec's "message").
    pub event: Option<String>,
    /// The `data:` lines joined with `\n`.
    pub data: String,
    /// The last event id seen on the stream so far, if any.
    pub id: Option<String>,
}

/// An incremental SSE parser. Push chunks with [`SseParser::push`]; call
/// [`SseParser::finish`] at the end of the stream.
#[derive(Debug, Default)]
pub struct SseParser {
    /// An incomplete line carried over from earlier chunks.
    line: Vec<u8>,
    /// The previous line ended in CR at a chunk end: a leading LF in the next
    /// chunk completes that same line ending.
    skip_lf: bool,
    /// Whether the first line (which may start with a BOM) has been seen.
    started: bool,
    data: String,
    has_data: bool,
    event: Option<String>,
    last_id: Option<String>,
    /// A line or event exceeded [`MAX_EVENT_BYTES`]; all input is ignored.
    overflowed: bool,
}

const BOM: &[u8] = "\u{feff}".as_bytes();

impl SseParser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feeds one chunk and returns the events it completed.
    pub fn push(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        let mut out = Vec::new();
        self.push_into(chunk, &mut out);
        out
    }

    /// Whether a line or an event exceeded [`MAX_EVENT_BYTES`]. Once set,
    /// the parser ignores all further input (until [`SseParser::finish`]);
    /// events completed before the overflow were still returned.
    pub fn overflowed(&self) -> bool {
        self.overflowed
    }

    /// Feeds one chunk, appending the events it completed to `out`.
    pub fn push_into(&mut self, chunk: &[u8], out: &mut Vec<SseEvent>) {
        if self.overflowed {
            return;
        }
        let mut rest = chunk;
        if self.skip_lf && !rest.is_empty() {
            self.skip_lf = false;
            if rest[0] == b'\n' {
                rest = &rest[1..];
            }
        }
        while let Some(i) = rest.iter().position(|&b| b == b'\n' || b == b'\r') {
            let ending = rest[i];
            if self.line.len() + i > MAX_EVENT_BYTES {
                return self.overflow();
            }
            if self.line.is_empty() {
                self.process_line(&rest[..i], out);
            } else {
                self.line.extend_from_slice(&rest[..i]);
                let line = std::mem::take(&mut self.line);
                self.process_line(&line, out);
                // Keep the buffer's capacity for the next split line.
                self.line = line;
                self.line.clear();
            }
            if self.overflowed {
                return;
            }
            rest = &rest[i + 1..];
            if ending == b'\r' {
                match rest.first() {
                    None => self.skip_lf = true,
                    Some(b'\n') => rest = &rest[1..],
                    Some(_) => {}
                }
            }
        }
        if self.line.len() + rest.len() > MAX_EVENT_BYTES {
            return self.overflow();
        }
        self.line.extend_from_slice(rest);
    }

    /// Drops everything buffered and ignores the rest of the stream.
    fn overflow(&mut self) {
        self.overflowed = true;
        self.line = Vec::new();
        self.data = String::new();
        self.has_data = false;
        self.event = None;
    }

    /// Ends the stream. An event whose lines all arrived complete is
    /// dispatched even without its closing blank line (some servers omit
    /// it); a partial last line is discarded, because it is most likely a
    /// cut connection and must not be mistaken for whole data.
    pub fn finish(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        self.dispatch(&mut out);
        *self = Self::default();
        out
    }

    fn process_line(&mut self, line: &[u8], out: &mut Vec<SseEvent>) {
        let line = if self.started {
            line
        } else {
            self.started = true;
            line.strip_prefix(BOM).unwrap_or(line)
        };
        if line.is_empty() {
            self.dispatch(out);
            return;
        }
        if line[0] == b':' {
            return;
        }
        let (name, value) = match line.iter().position(|&b| b == b':') {
            Some(i) => {
                let value = &line[i + 1..];
                (&line[..i], value.strip_prefix(b" ").unwrap_or(value))
            }
            None => (line, &[][..]),
        };
        match name {
            b"data" => {
                if self.data.len() + value.len() + 1 > MAX_EVENT_BYTES {
                    return self.overflow();
                }
                if self.has_data {
                    self.data.push('\n');
                }
                self.has_data = true;
                self.data.push_str(&String::from_utf8_lossy(value));
            }
            b"event" => {
                self.event = if value.is_empty() {
                    None
                } else {
                    Some(String::from_utf8_lossy(value).into_owned())
                };
            }
            // The spec ignores ids containing NUL.
            b"id" if !value.contains(&0) => {
                self.last_id = Some(String::from_utf8_lossy(value).into_owned());
            }
            // `retry` and unknown fields carry nothing we use.
            _ => {}
        }
    }

    fn dispatch(&mut self, out: &mut Vec<SseEvent>) {
        if !self.has_data {
            self.event = None;
            return;
        }
        self.has_data = false;
        out.push(SseEvent {
            event: self.event.take(),
            data: std::mem::take(&mut self.data),
            id: self.last_id.clone(),
        });
    }
}

#[cfg(test)]
#[path = "sse_tests.rs"]
mod tests;
