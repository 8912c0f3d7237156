//! Server content in the shape the core sends to a model: a tool call's
//! result, a read resource and a prompt's messages. Text parts are joined,
//! images kept as (mime, base64) for image blocks, resources inlined (text)
//! or summarized (other blobs), `structuredContent` becomes JSON text when
//! the server gave no text, and `isError` a flag.

use rmcp::model::{
    CallToolResult, ContentBlock, PromptMessage, ReadResourceResult, ResourceContents, Role,
};

use crate::types::{McpImage, McpPromptMessage, PromptRole};

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
            ContentBlock::Image(img) => self.image(img.mime_type, img.data, None),
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

    /// Keeps an image the model APIs will take: a type they accept whose
    /// data really is that image. Anything else would make every later
    /// request of the session fail, so it becomes a note.
    fn image(&mut self, mime_type: String, data: String, uri: Option<&str>) {
        if is_model_image(&mime_type) && looks_like(&mime_type, &data) {
            self.images.push(McpImage { mime_type, data });
            return;
        }
        let from = uri.map(|u| format!(" {u}")).unwrap_or_default();
        self.text.push(format!(
            "[image{from} omitted: not a valid {} image]",
            if is_model_image(&mime_type) {
                mime_type.as_str()
            } else {
                "PNG, JPEG, GIF or WebP"
            }
        ));
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
                Some(mime) if is_model_image(&mime) => self.image(mime, blob, Some(&uri)),
                Some(mime) if is_text(&mime) && decoded_text(&blob).is_some() => {
                    self.has_text = true;
                    let text = decoded_text(&blob).unwrap_or_default();
                    self.text.push(format!("[resource {uri}]\n{text}"));
                }
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

/// Whether the base64 `data` decodes to an image of `mime` (its magic bytes).
fn looks_like(mime: &str, data: &str) -> bool {
    use base64::Engine as _;
    let Ok(bytes) = base64::engine::general_purpose::STANDARD.decode(data.trim()) else {
        return false;
    };
    match mime {
        "image/png" => bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/jpeg" => bytes.starts_with(&[0xff, 0xd8, 0xff]),
        "image/gif" => bytes.starts_with(b"GIF8"),
        "image/webp" => bytes.len() > 12 && bytes.starts_with(b"RIFF") && &bytes[8..12] == b"WEBP",
        _ => false,
    }
}

/// Text types a blob may carry that the model should read as text.
fn is_text(mime: &str) -> bool {
    let mime = mime.split(';').next().unwrap_or(mime).trim();
    mime.starts_with("text/")
        || matches!(
            mime,
            "application/json" | "application/xml" | "application/javascript" | "application/yaml"
        )
}

/// A base64 blob as UTF-8 text, when it is that.
fn decoded_text(data: &str) -> Option<String> {
    use base64::Engine as _;
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(data.trim())
        .ok()?;
    String::from_utf8(bytes).ok()
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
