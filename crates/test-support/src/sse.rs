//! SSE framing and the text-splitting rules shared by the provider builders.

use serde_json::Value;

/// A named event: `event: NAME\ndata: JSON\n\n` (Anthropic's framing).
pub(crate) fn event(name: &str, data: &Value) -> String {
    format!("event: {name}\ndata: {}\n\n", to_wire_json(data))
}

/// An unnamed event: `data: JSON\n\n` (OpenAI's framing).
pub(crate) fn data(data: &Value) -> String {
    format!("data: {}\n\n", to_wire_json(data))
}

/// Object keys in the order the real APIs write them; others follow
/// alphabetically. serde_json sorts keys (its `preserve_order` feature would
/// change key order for the whole workspace), so order is restored here to
/// keep the recorded shape, `"type"` up front included.
const KEY_ORDER: &[&str] = &[
    "id",
    "object",
    "type",
    "role",
    "index",
    "created",
    "model",
    "system_fingerprint",
    "name",
    "message",
    "content_block",
    "delta",
    "content",
    "refusal",
    "tool_calls",
    "function",
    "choices",
    "text",
    "thinking",
    "signature",
    "partial_json",
    "input",
    "arguments",
    "data",
    "logprobs",
    "finish_reason",
    "stop_reason",
    "stop_sequence",
    "usage",
    "input_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
    "output_tokens",
    "prompt_tokens",
    "completion_tokens",
    "total_tokens",
    "prompt_tokens_details",
    "completion_tokens_details",
    "error",
];

/// Compact JSON with keys in [`KEY_ORDER`].
pub(crate) fn to_wire_json(value: &Value) -> String {
    let mut out = String::new();
    write_json(value, &mut out);
    out
}

fn write_json(value: &Value, out: &mut String) {
    match value {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            let rank = |k: &str| KEY_ORDER.iter().position(|o| *o == k).unwrap_or(usize::MAX);
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|(a, _), (b, _)| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
            out.push('{');
            for (i, (k, v)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_json(v, out);
            }
            out.push('}');
        }
        scalar => out.push_str(&scalar.to_string()),
    }
}

/// Splits text the way a model streams it: short pieces, each ending after
/// a whitespace character or at most a few characters long. Never splits
/// inside a character; an empty text gives no pieces.
pub(crate) fn split_text(text: &str) -> Vec<String> {
    const MAX_CHARS: usize = 6;
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut count = 0;
    for c in text.chars() {
        cur.push(c);
        count += 1;
        if c.is_whitespace() || count >= MAX_CHARS {
            out.push(std::mem::take(&mut cur));
            count = 0;
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// Splits `s` at odd byte offsets (sizes 1, 4, 2, 7, 3, cycled), moved
/// forward to the next character boundary, so fragments cut through JSON
/// keys, strings and escapes but each fragment stays valid UTF-8 (as JSON
/// strings on the wire must).
pub(crate) fn split_odd(s: &str) -> Vec<String> {
    const SIZES: [usize; 5] = [1, 4, 2, 7, 3];
    let mut out = Vec::new();
    let mut start = 0;
    for &size in SIZES.iter().cycle() {
        if start >= s.len() {
            break;
        }
        let mut end = (start + size).min(s.len());
        while !s.is_char_boundary(end) {
            end += 1;
        }
        out.push(s[start..end].to_string());
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_text_keeps_all_text() {
        let text = "Hello wörld, this is a long-ish sentence ✓ done";
        let parts = split_text(text);
        assert!(parts.len() > 3);
        assert_eq!(parts.concat(), text);
        assert!(split_text("").is_empty());
    }

    #[test]
    fn split_odd_keeps_all_bytes_and_char_boundaries() {
        let s = r#"{"path":"ünïcødé/file.txt","n":12345}"#;
        let parts = split_odd(s);
        assert!(parts.len() > 5);
        assert_eq!(parts.concat(), s);
        assert!(split_odd("").is_empty());
    }

    #[test]
    fn wire_json_orders_keys_like_the_apis_and_round_trips() {
        let v = serde_json::json!({"index": 0, "type": "content_block_delta",
            "delta": {"type": "text_delta", "text": "a\"\u{e9}\n"}, "zz": [1, null, true]});
        let s = to_wire_json(&v);
        assert!(s.starts_with(
            r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta""#
        ));
        assert_eq!(serde_json::from_str::<Value>(&s).unwrap(), v);
    }

    #[test]
    fn event_framing() {
        let v = serde_json::json!({"type": "ping"});
        assert_eq!(
            event("ping", &v),
            "event: ping\ndata: {\"type\":\"ping\"}\n\n"
        );
        assert_eq!(data(&v), "data: {\"type\":\"ping\"}\n\n");
    }
}
