//! A tool call's result in the shape the core sends to a model: the text
//! parts joined, images kept as (mime, base64) for image blocks, resources
//! inlined or summarized, `structuredContent` as JSON text when the server
//! gave no text, and `isError` as a flag.

use rmcp::model::{CallToolResult, ContentBlock, ResourceContents};

/// One image of a result, ready for a model's image block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpImage {
    /// E.g. `image/png`.
    pub mime_type: String,
    /// The image bytes, base64 (as the server sent them).
    pub data: String,
}

/// What a tool call produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpToolResult {
    /// Text parts, resources and links, joined by blank lines.
    pub text: String,
    /// Images in the order the server sent them.
    pub images: Vec<McpImage>,
    /// The server marked the result as an error (`isError`), or the call
    /// failed on our side (the text says why).
    pub is_error: bool,
}

impl McpToolResult {
    /// An error result with `message` (a call that failed on our side).
    pub fn error(message: impl Into<String>) -> Self {
        Self {
            text: message.into(),
            images: Vec::new(),
            is_error: true,
        }
    }
}

impl From<CallToolResult> for McpToolResult {
    fn from(result: CallToolResult) -> Self {
        let mut parts: Vec<String> = Vec::new();
        let mut images = Vec::new();
        let mut has_text = false;
        for block in result.content {
            match block {
                ContentBlock::Text(t) => {
                    has_text = true;
                    parts.push(t.text);
                }
                ContentBlock::Image(img) => images.push(McpImage {
                    mime_type: img.mime_type,
                    data: img.data,
                }),
                ContentBlock::Audio(audio) => parts.push(format!(
                    "[audio {}: {} omitted]",
                    audio.mime_type,
                    decoded_size(&audio.data)
                )),
                ContentBlock::Resource(res) => {
                    has_text = true;
                    parts.push(match res.resource {
                        ResourceContents::TextResourceContents { uri, text, .. } => {
                            format!("[resource {uri}]\n{text}")
                        }
                        ResourceContents::BlobResourceContents {
                            uri,
                            mime_type,
                            blob,
                            ..
                        } => format!(
                            "[resource {uri}{}: {} of binary data omitted]",
                            mime_suffix(mime_type.as_deref()),
                            decoded_size(&blob)
                        ),
                        _ => "[resource of an unsupported kind omitted]".to_owned(),
                    });
                }
                ContentBlock::ResourceLink(link) => {
                    let mut line = format!("[resource link {} <{}>", link.name, link.uri);
                    line.push_str(&mime_suffix(link.mime_type.as_deref()));
                    if let Some(desc) = link.description.filter(|d| !d.is_empty()) {
                        line.push_str(": ");
                        line.push_str(&desc);
                    }
                    line.push(']');
                    parts.push(line);
                }
                // A content kind newer than this client: say so rather than
                // dropping it silently.
                _ => parts.push("[content of an unsupported kind omitted]".to_owned()),
            }
        }
        if !has_text
            && let Some(structured) = result.structured_content
            && let Ok(json) = serde_json::to_string_pretty(&structured)
        {
            parts.insert(0, json);
        }
        Self {
            text: parts.join("\n\n"),
            images,
            is_error: result.is_error.unwrap_or(false),
        }
    }
}

fn mime_suffix(mime: Option<&str>) -> String {
    mime.map(|m| format!(" ({m})")).unwrap_or_default()
}

/// The size base64 `data` decodes to, for summaries.
fn decoded_size(data: &str) -> String {
    let len = data.trim_end_matches('=').len() * 3 / 4;
    format!("{len} bytes")
}

#[cfg(test)]
#[path = "result_tests.rs"]
mod tests;
