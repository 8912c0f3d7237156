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
        "[resource file:///a.txt]\nhello\n\n[resource file:///b.bin: binary application/octet-stream, 3 bytes]"
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

#[test]
fn embedded_image_blob_becomes_an_image_and_svg_is_summarized() {
    let r = map(json!({"content": [
        {"type": "resource", "resource": {"uri": "file:///p.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="}},
        {"type": "resource", "resource": {"uri": "file:///d.svg", "mimeType": "image/svg+xml", "blob": "PHN2Zz4="}},
        {"type": "resource", "resource": {"uri": "file:///x", "blob": "AA=="}}
    ]}));
    assert_eq!(
        r.images,
        vec![McpImage {
            mime_type: "image/png".into(),
            data: "iVBORw0KGgo=".into()
        }]
    );
    assert_eq!(
        r.text,
        "[resource file:///d.svg: binary image/svg+xml, 5 bytes]\n\n[resource file:///x: binary data, 1 bytes]"
    );
}

#[test]
fn structured_content_is_kept_beside_images_and_links() {
    // No text block: the JSON leads, the link follows.
    let r = map(json!({
        "content": [{"type": "resource_link", "uri": "file:///r", "name": "r"}],
        "structuredContent": {"ok": true}
    }));
    assert_eq!(
        r.text,
        "{\n  \"ok\": true\n}\n\n[resource link r <file:///r>]"
    );
}

#[test]
fn an_empty_result_is_empty_text() {
    let r = map(json!({"content": []}));
    assert_eq!(r, McpToolResult::default());
}

#[test]
fn read_resource_results_inline_text_and_keep_images() {
    let result: ReadResourceResult = serde_json::from_value(json!({"contents": [
        {"uri": "test://readme", "mimeType": "text/markdown", "text": "# Hi"},
        {"uri": "test://p.png", "mimeType": "image/png", "blob": "iVBORw0KGgo="},
        {"uri": "test://d.bin", "mimeType": "application/octet-stream", "blob": "AAECAw=="}
    ]}))
    .unwrap();
    let r = McpToolResult::from(result);
    assert_eq!(
        r.text,
        "[resource test://readme]\n# Hi\n\n[resource test://d.bin: binary application/octet-stream, 4 bytes]"
    );
    assert_eq!(r.images.len(), 1);
    assert!(!r.is_error);
}

#[test]
fn prompt_messages_keep_role_text_images_and_inline_resources() {
    let message = |v: serde_json::Value| prompt_message(serde_json::from_value(v).unwrap());
    let m = message(json!({"role": "assistant", "content": {"type": "text", "text": "hello"}}));
    assert_eq!(
        m,
        McpPromptMessage {
            role: PromptRole::Assistant,
            text: "hello".into(),
            images: vec![]
        }
    );
    let m = message(json!({"role": "user", "content": {"type": "resource",
        "resource": {"uri": "test://readme", "text": "# Hi"}}}));
    assert_eq!(
        (m.role, m.text.as_str()),
        (PromptRole::User, "[resource test://readme]\n# Hi")
    );
    let m = message(
        json!({"role": "user", "content": {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "image/png"}}),
    );
    assert_eq!((m.text.as_str(), m.images.len()), ("", 1));
}

#[test]
fn images_that_are_not_what_they_claim_become_notes() {
    let r = map(json!({"content": [
        {"type": "image", "data": "!!!notbase64", "mimeType": "image/png"},
        {"type": "image", "data": "iVBORw0KGgo=", "mimeType": "text/html"},
        {"type": "image", "data": "aGVsbG8=", "mimeType": "image/jpeg"},
    ]}));
    assert!(r.images.is_empty(), "{r:?}");
    assert_eq!(
        r.text.matches("omitted: not a valid").count(),
        3,
        "{}",
        r.text
    );
}

#[test]
fn text_blobs_are_decoded() {
    let r = map(json!({"content": [
        {"type": "resource", "resource": {"uri": "file:///a.txt", "mimeType": "text/plain", "blob": "aGVsbG8gd29ybGQ="}},
        {"type": "resource", "resource": {"uri": "file:///b.bin", "mimeType": "text/plain", "blob": "//79"}},
    ]}));
    assert!(
        r.text.contains("[resource file:///a.txt]\nhello world"),
        "{}",
        r.text
    );
    assert!(
        r.text
            .contains("[resource file:///b.bin: binary text/plain"),
        "{}",
        r.text
    );
}
