//! The interface between the HTTP driver and a wire format's decoder (and
//! the layers that wrap one, such as the stream redactor).

use crate::client::StreamEvent;
use crate::error::LlmError;
use crate::sse::SseEvent;

/// A provider's pure stream state machine, fed one SSE event at a time.
pub(crate) trait Decoder: Send + 'static {
    /// Handles one event, returning what it completed.
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError>;
    /// Handles the end of the byte stream.
    fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError>;
    /// Whether the terminal event has been seen, so reading can stop.
    fn is_complete(&self) -> bool;
    /// Whether the answer is finished and only optional trailing events may
    /// follow: the driver then waits at most the finish grace for them and
    /// afterwards ends the stream through [`Decoder::finish`].
    fn is_finishing(&self) -> bool;
}
