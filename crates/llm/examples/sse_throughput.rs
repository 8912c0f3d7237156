//! SSE parsing throughput: recorded fixture streams repeated to ~50 MB, fed
//! in 16 KiB chunks through `SseParser` and each provider's decoder.
//! Run with `cargo run --release -p wright-llm --example sse_throughput`.

use std::time::Instant;

use wright_llm::sse::{SseEvent, SseParser};
use wright_llm::{
    AnthropicDecoder, LlmError, OpenAiChatDecoder, OpenAiResponsesDecoder, StreamEvent,
};

const TARGET_BYTES: usize = 50 * 1024 * 1024;
const CHUNK: usize = 16 * 1024;

type Decode = fn(&[SseEvent]) -> Result<usize, LlmError>;

/// Decodes one fixture's events with a fresh decoder; returns events produced.
fn run<D>(
    mut decoder: D,
    on_event: fn(&mut D, &SseEvent) -> Result<Vec<StreamEvent>, LlmError>,
    events: &[SseEvent],
) -> Result<usize, LlmError> {
    let mut n = 0;
    for e in events {
        n += on_event(&mut decoder, e)?.len();
    }
    Ok(n)
}

fn main() -> Result<(), LlmError> {
    let suites: [(&str, &[&str], Decode); 3] = [
        (
            "anthropic",
            &[
                include_str!("../tests/fixtures/anthropic/text.sse"),
                include_str!("../tests/fixtures/anthropic/tool_calls.sse"),
                include_str!("../tests/fixtures/anthropic/thinking.sse"),
            ],
            |ev| run(AnthropicDecoder::new(), AnthropicDecoder::on_event, ev),
        ),
        (
            "openai-chat",
            &[
                include_str!("../tests/fixtures/openai_chat/text.sse"),
                include_str!("../tests/fixtures/openai_chat/tool_calls.sse"),
                include_str!("../tests/fixtures/openai_chat/reasoning.sse"),
            ],
            |ev| run(OpenAiChatDecoder::new(), OpenAiChatDecoder::on_event, ev),
        ),
        (
            "openai-responses",
            &[
                include_str!("../tests/fixtures/openai_responses/text.sse"),
                include_str!("../tests/fixtures/openai_responses/tool_calls.sse"),
            ],
            |ev| {
                run(
                    OpenAiResponsesDecoder::new(),
                    OpenAiResponsesDecoder::on_event,
                    ev,
                )
            },
        ),
    ];
    for (name, fixtures, decode) in suites {
        let stream: String = fixtures.concat();
        let repeats = TARGET_BYTES / stream.len() + 1;
        let bytes = stream.repeat(repeats).into_bytes();
        let mb = bytes.len() as f64 / 1e6;

        // Parser alone.
        let start = Instant::now();
        let mut parser = SseParser::new();
        let mut events = Vec::new();
        let mut count = 0usize;
        for chunk in bytes.chunks(CHUNK) {
            parser.push_into(chunk, &mut events);
            count += events.len();
            events.clear();
        }
        count += parser.finish().len();
        let parse_s = start.elapsed().as_secs_f64();

        // Parser + decoder, one fresh decoder per recorded stream.
        let per_stream = SseParser::new().push(stream.as_bytes()).len();
        let start = Instant::now();
        let mut parser = SseParser::new();
        let mut produced = 0usize;
        for chunk in bytes.chunks(CHUNK) {
            parser.push_into(chunk, &mut events);
            while events.len() >= per_stream {
                produced += decode(&events[..per_stream])?;
                events.drain(..per_stream);
            }
        }
        let total_s = start.elapsed().as_secs_f64();
        println!(
            "{name:>17}: {mb:.1} MB, {count} events; parse {:.0} MB/s; parse+decode {:.0} MB/s ({produced} stream events)",
            mb / parse_s,
            mb / total_s,
        );
    }
    Ok(())
}
