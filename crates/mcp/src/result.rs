//! Server content in the shape the core sends to a model: a tool call's
//! result, a read resource and a prompt's messages. Text parts are joined,
//! images kept as (mime, base64) for image blocks, resources inlined (text)
//! or summarized (other blobs), `structuredContent` becomes JSON text when
//! the server gave no text, and `isError` a flag.

use rmcp::model::{
    CallToolResult, ContentBlock, PromptMessage, ReadResourceResult, ResourceContents, Role,
};

use crate::types::{McpPromptMessage, PromptRole};

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
        let mut parts = Parts::default();
        for block in result.content {
            parts.block(block);
        }
        if !parts.has_text
            && let Some(structured) = result.structured_content
            && let Ok(json) = serde_json::to_string_pretty(&structured)
        {
            parts.text.insert(0, json);
        }
        parts.finish(result.is_error.unwrap_or(false))
    }
}

impl From<ReadResourceResult> for McpToolResult {
    /// A `resources/read` answer: each text content under its uri, image
    /// blobs as images, other blobs summarized.
    fn from(result: ReadResourceResult) -> Self {
        let mut parts = Parts::default();
        for contents in result.contents {
            parts.resource(contents);
        }
        parts.finish(false)
    }
}

/// A `prompts/get` message in wright's shape.
pub(crate) fn prompt_message(message: PromptMessage) -> McpPromptMessage {
    let mut parts = Parts::default();
    parts.block(message.content);
    let result = parts.finish(false);
    McpPromptMessage {
        role: match message.role {
            Role::Assistant => PromptRole::Assistant,
            _ => PromptRole::User,
        },
        text: result.text,
        images: result.images,
    }
}

/// Text parts and images collected from content blocks.
#[derive(Default)]
struct Parts {
    text: Vec<String>,
    images: Vec<McpImage>,
    /// Some block carried text (so `structuredContent` is not repeated).
    has_text: bool,
}

impl Parts {
    fn block(&mut self, block: ContentBlock) {
        match block {
            ContentBlock::Text(t) => {
                self.has_text = true;
                self.text.push(t.text);
            }
            ContentBlock::Image(img) => self.images.push(McpImage {
                mime_type: img.mime_type,
                data: img.data,
            }),
            ContentBlock::Audio(audio) => self.text.push(format!(
                "[audio {}: {} omitted]",
                audio.mime_type,
                decoded_size(&audio.data)
            )),
            ContentBlock::Resource(res) => self.resource(res.resource),
            ContentBlock::ResourceLink(link) => {
                let mut line = format!("[resource link {} <{}>", link.name, link.uri);
                line.push_str(&mime_suffix(link.mime_type.as_deref()));
                if let Some(desc) = link.description.filter(|d| !d.is_empty()) {
                    line.push_str(": ");
                    line.push_str(&desc);
                }
                line.push(']');
                self.text.push(line);
            }
            // A content kind newer than this client: say so rather than
            // dropping it silently.
            _ => self
                .text
                .push("[content of an unsupported kind omitted]".to_owned()),
        }
    }

    fn resource(&mut self, contents: ResourceContents) {
        match contents {
            ResourceContents::TextResourceContents { uri, text, .. } => {
                self.has_text = true;
                self.text.push(format!("[resource {uri}]\n{text}"));
            }
            ResourceContents::BlobResourceContents {
                uri,
                mime_type,
                blob,
                ..
            } => match mime_type {
                Some(mime) if is_model_image(&mime) => self.images.push(McpImage {
                    mime_type: mime,
                    data: blob,
                }),
                mime => {
                    self.has_text = true;
                    self.text.push(format!(
                        "[resource {uri}: binary {}, {}]",
                        mime.as_deref().unwrap_or("data"),
                        decoded_size(&blob)
                    ));
                }
            },
            _ => self
                .text
                .push("[resource of an unsupported kind omitted]".to_owned()),
        }
    }

    fn finish(self, is_error: bool) -> McpToolResult {
        McpToolResult {
            text: self.text.join("\n\n"),
            images: self.images,
            is_error,
        }
    }
}

/// The image types every provider accepts in an image block; other
/// `image/*` blobs (SVG, TIFF, ...) would be refused, so they are summarized.
fn is_model_image(mime: &str) -> bool {
    matches!(
        mime,
        "image/png" | "image/jpeg" | "image/gif" | "image/webp"
    )
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
