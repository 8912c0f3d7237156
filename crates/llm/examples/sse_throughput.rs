//! SSE parsing throughput: recorded fixture streams repeated to ~50 MB, fed
//! in 16 KiB chunks through `SseParser` and each provider's decoder.
//! Run with `cargo run --release -p wright-llm --example sse_throughput`.

use std::time::Instant;

use wright_llm::sse::{SseEvent, SseParser};
use wright_llm::{
    AnthropicDecoder, LlmError, OpenAiChatDecoder, OpenAiResponsesDecoder, StreamEvent,
    StreamRedactor,
};

const TARGET_BYTES: usize = 50 * 1024 * 1024;
const CHUNK: usize = 16 * 1024;

/// An obviously fake key for the redacting pass.
const FAKE_KEY: &str = "sk-fake-THROUGHPUT0123456789";

type Decode = fn(&[SseEvent], Option<&str>) -> Result<usize, LlmError>;

/// Decodes one fixture's events with a fresh decoder, behind a
/// [`StreamRedactor`] as the HTTP driver runs it when `key` is set;
/// returns events produced.
fn run<D>(
    mut decoder: D,
    on_event: fn(&mut D, &SseEvent) -> Result<Vec<StreamEvent>, LlmError>,
    events: &[SseEvent],
    key: Option<&str>,
) -> Result<usize, LlmError> {
    let mut redactor = StreamRedactor::new(key);
    let mut n = 0;
    for e in events {
        n += redactor.process(on_event(&mut decoder, e)?).len();
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
            |ev, key| run(AnthropicDecoder::new(), AnthropicDecoder::on_event, ev, key),
        ),
        (
            "openai-chat",
            &[
                include_str!("../tests/fixtures/openai_chat/text.sse"),
                include_str!("../tests/fixtures/openai_chat/tool_calls.sse"),
                include_str!("../tests/fixtures/openai_chat/reasoning.sse"),
            ],
            |ev, key| {
                run(
                    OpenAiChatDecoder::new(),
                    OpenAiChatDecoder::on_event,
                    ev,
                    key,
                )
            },
        ),
        (
            "openai-responses",
            &[
                include_str!("../tests/fixtures/openai_responses/text.sse"),
                include_str!("../tests/fixtures/openai_responses/tool_calls.sse"),
            ],
            |ev, key| {
                run(
                    OpenAiResponsesDecoder::new(),
                    OpenAiResponsesDecoder::on_event,
                    ev,
                    key,
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

        // Parser + decoder, one fresh decoder per recorded stream; then the
        // same behind the key redactor.
        let per_stream = SseParser::new().push(stream.as_bytes()).len();
        let mut rates = [0.0; 2];
        let mut produced = 0usize;
        for (rate, key) in rates.iter_mut().zip([None, Some(FAKE_KEY)]) {
            let start = Instant::now();
            let mut parser = SseParser::new();
            events.clear();
            produced = 0;
            for chunk in bytes.chunks(CHUNK) {
                parser.push_into(chunk, &mut events);
                while events.len() >= per_stream {
                    produced += decode(&events[..per_stream], key)?;
                    events.drain(..per_stream);
                }
            }
            *rate = mb / start.elapsed().as_secs_f64();
        }
        println!(
            "{name:>17}: {mb:.1} MB, {count} events; parse {:.0} MB/s; parse+decode {:.0} MB/s; +redact {:.0} MB/s ({produced} stream events)",
            mb / parse_s,
            rates[0],
            rates[1],
        );
    }
    Ok(())
}
