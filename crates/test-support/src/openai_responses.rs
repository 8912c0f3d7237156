//! SSE bodies in the shape of `POST /v1/responses` with `stream: true`:
//! `response.created`, output items added and done, text and function-call
//! argument deltas (split at odd places), and `response.completed` with usage.

use serde_json::{Value, json};

use crate::MockUsage;
use crate::sse::{event, split_odd};

/// A final text answer.
pub fn text(text: &str) -> String {
    text_and_tool_calls(text, &[])
}

/// Function calls only.
pub fn tool_calls(calls: &[(&str, &str, Value)]) -> String {
    text_and_tool_calls("", calls)
}

/// A message (omitted when `text` is empty) followed by function calls.
pub fn text_and_tool_calls(text: &str, calls: &[(&str, &str, Value)]) -> String {
    build(text, calls, false)
}

/// Text (and calls) ending with `response.incomplete`: status `incomplete`,
/// `incomplete_details.reason: max_output_tokens`, as when the output
/// limit cuts the answer.
pub fn cut_at_output_limit(text: &str, calls: &[(&str, &str, Value)]) -> String {
    build(text, calls, true)
}

fn build(text: &str, calls: &[(&str, &str, Value)], cut: bool) -> String {
    let mut seq = 0u64;
    let mut out = String::new();
    let mut emit = |name: &str, mut body: Value| {
        body["type"] = json!(name);
        body["sequence_number"] = json!(seq);
        seq += 1;
        out.push_str(&event(name, &body));
    };
    let response = |status: &str, output: Value, usage: Value| json!({"id": "resp_mock", "object": "response", "status": status, "model": "gpt-mock", "output": output, "usage": usage});
    emit(
        "response.created",
        json!({"response": response("in_progress", json!([]), Value::Null)}),
    );
    let mut output = Vec::new();
    let mut index = 0u64;
    if !text.is_empty() {
        let id = "msg_mock";
        emit(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []}}),
        );
        emit(
            "response.content_part.added",
            json!({"item_id": id, "output_index": index, "content_index": 0, "part": {"type": "output_text", "text": "", "annotations": []}}),
        );
        for piece in split_odd(text) {
            emit(
                "response.output_text.delta",
                json!({"item_id": id, "output_index": index, "content_index": 0, "delta": piece}),
            );
        }
        emit(
            "response.output_text.done",
            json!({"item_id": id, "output_index": index, "content_index": 0, "text": text}),
        );
        let item = json!({"id": id, "type": "message", "status": "completed", "role": "assistant", "content": [{"type": "output_text", "text": text, "annotations": []}]});
        emit(
            "response.output_item.done",
            json!({"output_index": index, "item": item.clone()}),
        );
        output.push(item);
        index += 1;
    }
    for (n, (call_id, name, args)) in calls.iter().enumerate() {
        let id = format!("fc_mock_{n}");
        let arguments = args.to_string();
        emit(
            "response.output_item.added",
            json!({"output_index": index, "item": {"id": id, "type": "function_call", "status": "in_progress", "call_id": call_id, "name": name, "arguments": ""}}),
        );
        for piece in split_odd(&arguments) {
            emit(
                "response.function_call_arguments.delta",
                json!({"item_id": id, "output_index": index, "delta": piece}),
            );
        }
        emit(
            "response.function_call_arguments.done",
            json!({"item_id": id, "output_index": index, "arguments": arguments}),
        );
        let item = json!({"id": id, "type": "function_call", "status": "completed", "call_id": call_id, "name": name, "arguments": arguments});
        emit(
            "response.output_item.done",
            json!({"output_index": index, "item": item.clone()}),
        );
        output.push(item);
        index += 1;
    }
    let u = MockUsage::DEFAULT;
    let usage = json!({
        "input_tokens": u.input_tokens + u.cache_read_input_tokens,
        "input_tokens_details": {"cached_tokens": u.cache_read_input_tokens},
        "output_tokens": u.output_tokens,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": u.input_tokens + u.cache_read_input_tokens + u.output_tokens,
    });
    if cut {
        let mut r = response("incomplete", Value::Array(output), usage);
        r["incomplete_details"] = json!({"reason": "max_output_tokens"});
        emit("response.incomplete", json!({"response": r}));
    } else {
        emit(
            "response.completed",
            json!({"response": response("completed", Value::Array(output), usage)}),
        );
    }
    out
}

/// `response.created`, then one event `name` with this body (its `type`
/// is set to `name`), and nothing after: for error shapes of any form.
pub fn raw_event(name: &str, body: &Value) -> String {
    let created = json!({"type": "response.created", "sequence_number": 0, "response": {
        "id": "resp_mock", "object": "response", "status": "in_progress",
        "model": "gpt-mock", "output": [], "usage": null}});
    let mut body = body.clone();
    body["type"] = json!(name);
    body["sequence_number"] = json!(1);
    let mut out = event("response.created", &created);
    out.push_str(&event(name, &body));
    out
}

/// `response.created`, then the documented flat `error` event
/// `{"type":"error","code":…,"message":…,"param":null}`.
pub fn error_event(code: &str, message: &str) -> String {
    raw_event(
        "error",
        &json!({"code": code, "message": message, "param": null}),
    )
}

/// `response.created`, then `response.failed` whose `response.error`
/// carries this code and message.
pub fn failed(code: &str, message: &str) -> String {
    raw_event(
        "response.failed",
        &json!({"response": {"id": "resp_mock", "object": "response", "status": "failed",
            "model": "gpt-mock", "output": [], "usage": null,
            "error": {"code": code, "message": message}}}),
    )
}
