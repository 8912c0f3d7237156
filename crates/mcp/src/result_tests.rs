use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

fn map(value: serde_json::Value) -> McpToolResult {
    let result: CallToolResult = serde_json::from_value(value).unwrap();
    McpToolResult::from(result)
}

#[test]
fn text_parts_are_joined() {
    let r = map(json!({"content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}));
    assert_eq!(
        r,
        McpToolResult {
            text: "a\n\nb".into(),
            images: vec![],
            is_error: false
        }
    );
}

#[test]
fn images_are_kept_for_image_blocks() {
    let r = map(json!({"content": [
        {"type": "text", "text": "here"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}
    ]}));
    assert_eq!(r.text, "here");
    assert_eq!(
        r.images,
        vec![McpImage {
            mime_type: "image/png".into(),
            data: "iVBORw0KGgo=".into()
        }]
    );
}

#[test]
fn embedded_text_resource_is_inlined_and_blob_summarized() {
    let r = map(json!({"content": [
        {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "text": "hello"}},
        {"type": "resource", "resource": {"uri": "file:///b.bin", "mimeType": "application/octet-stream", "blob": "AAAA"}}
    ]}));
    assert_eq!(
        r.text,
        "[resource file:///a.txt]\nhello\n\n[resource file:///b.bin (application/octet-stream): 3 bytes of binary data omitted]"
    );
}

#[test]
fn resource_links_are_listed() {
    let r = map(json!({"content": [
        {"type": "resource_link", "uri": "file:///r.md", "name": "readme", "mimeType": "text/markdown", "description": "the readme"}
    ]}));
    assert_eq!(
        r.text,
        "[resource link readme <file:///r.md> (text/markdown): the readme]"
    );
}

#[test]
fn audio_is_summarized() {
    let r =
        map(json!({"content": [{"type": "audio", "data": "AAAAAAAA", "mimeType": "audio/wav"}]}));
    assert_eq!(r.text, "[audio audio/wav: 6 bytes omitted]");
}

#[test]
fn structured_content_is_the_text_when_there_is_none() {
    let r = map(json!({"content": [], "structuredContent": {"temp": 21}}));
    assert_eq!(r.text, "{\n  \"temp\": 21\n}");
    // With text the structured copy is not repeated.
    let r = map(
        json!({"content": [{"type": "text", "text": "21 degrees"}], "structuredContent": {"temp": 21}}),
    );
    assert_eq!(r.text, "21 degrees");
}

#[test]
fn is_error_sets_the_flag() {
    let r = map(json!({"content": [{"type": "text", "text": "boom"}], "isError": true}));
    assert!(r.is_error);
    assert_eq!(r.text, "boom");
    assert!(McpToolResult::error("x").is_error);
}
