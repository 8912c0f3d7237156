//! Targets for the stream parsers (SSE and the three protocol decoders),
//! the tools' argument checks and skill/agent frontmatter.

use std::path::Path;

use wright_llm::sse::{SseEvent, SseParser};
use wright_llm::{
    AnthropicDecoder, LlmError, OpenAiChatDecoder, OpenAiResponsesDecoder, StreamEvent,
};

use crate::select;

/// The SSE parser. Invariant: feeding the stream in chunks of any size
/// (the first byte picks it) yields exactly the events of feeding it whole.
pub fn sse(data: &[u8]) {
    let (selector, stream) = select(data);
    let chunk = usize::from(selector % 32) + 1;
    let whole = parse_sse(stream, stream.len().max(1));
    let split = parse_sse(stream, chunk);
    assert_eq!(whole, split, "chunking changed the events");
}

/// Every event of `stream`, fed in chunks of `chunk` bytes, then finished.
fn parse_sse(stream: &[u8], chunk: usize) -> Vec<SseEvent> {
    let mut parser = SseParser::new();
    let mut events = Vec::new();
    for piece in stream.chunks(chunk) {
        parser.push_into(piece, &mut events);
    }
    events.extend(parser.finish());
    events
}

/// What the three decoders have in common, to drive them alike.
trait Decode {
    fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError>;
    fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError>;
    fn is_complete(&self) -> bool;
}

macro_rules! decode_impl {
    ($t:ty) => {
        impl Decode for $t {
            fn on_event(&mut self, event: &SseEvent) -> Result<Vec<StreamEvent>, LlmError> {
                <$t>::on_event(self, event)
            }
            fn finish(&mut self) -> Result<Vec<StreamEvent>, LlmError> {
                <$t>::finish(self)
            }
            fn is_complete(&self) -> bool {
                <$t>::is_complete(self)
            }
        }
    };
}
decode_impl!(AnthropicDecoder);
decode_impl!(OpenAiChatDecoder);
decode_impl!(OpenAiResponsesDecoder);

/// Runs `data` (an SSE stream) through the parser and `decoder` the way
/// the HTTP driver does: events until an error or the terminal event,
/// then `finish`. Invariant: `Completed` comes at most once, and last.
fn drive(data: &[u8], mut decoder: impl Decode) {
    let mut parser = SseParser::new();
    let mut events = parser.push(data);
    events.extend(parser.finish());
    let mut out = Vec::new();
    let mut failed = false;
    for event in &events {
        match decoder.on_event(event) {
            Ok(more) => out.extend(more),
            Err(_) => {
                failed = true;
                break;
            }
        }
        if decoder.is_complete() {
            break;
        }
    }
    if !failed && let Ok(more) = decoder.finish() {
        out.extend(more);
    }
    let completed = out
        .iter()
        .filter(|e| matches!(e, StreamEvent::Completed { .. }))
        .count();
    assert!(completed <= 1, "{completed} Completed events");
    if completed == 1 {
        assert!(
            matches!(out.last(), Some(StreamEvent::Completed { .. })),
            "events after Completed"
        );
    }
}

/// The Anthropic Messages stream decoder, fed an SSE stream.
pub fn anthropic_decode(data: &[u8]) {
    drive(data, AnthropicDecoder::new());
}

/// The OpenAI Responses stream decoder, fed an SSE stream.
pub fn responses_decode(data: &[u8]) {
    drive(data, OpenAiResponsesDecoder::new());
}

/// The Chat Completions stream decoder, fed an SSE stream.
pub fn chat_decode(data: &[u8]) {
    drive(data, OpenAiChatDecoder::new());
}

/// Every built-in tool's argument parsing and checks (no tool runs): the
/// first byte picks the tool, the rest is the arguments' JSON text (text
/// that is not JSON is passed as a JSON string, as some models send it).
pub fn tool_args(data: &[u8]) {
    let (selector, rest) = select(data);
    let tools = wright_tools::CHECKED_TOOLS;
    let tool = tools[usize::from(selector) % tools.len()];
    let args = serde_json::from_slice(rest)
        .unwrap_or_else(|_| serde_json::Value::String(String::from_utf8_lossy(rest).into_owned()));
    let _ = wright_tools::check_args(tool, args);
}

/// Skill and agent files (YAML frontmatter), and `--agents` JSON: the first
/// byte picks which.
pub fn frontmatter(data: &[u8]) {
    let (selector, rest) = select(data);
    let text = String::from_utf8_lossy(rest);
    match selector % 3 {
        0 => {
            let _ = wright_context::parse_skill(Path::new("/fuzz/skill/SKILL.md"), &text);
        }
        1 => {
            let _ = wright_context::parse_agent(Path::new("/fuzz/agents/a.md"), &text);
        }
        _ => {
            let _ = wright_context::agents_from_json(&text);
        }
    }
}
