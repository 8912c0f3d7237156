//! An ACP prompt (text, resource links, embedded resources) as the text of
//! one user turn. The core's user turn is text only, so images and audio
//! are refused with a message rather than silently dropped.

use agent_client_protocol::v1::schema::{ContentBlock, EmbeddedResourceResource};

/// Why a prompt cannot become a user turn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PromptError {
    /// A block kind wright cannot pass to the model yet.
    #[error("wright cannot take {0} in a prompt yet; send text or resources")]
    Unsupported(&'static str),
    /// Nothing to send.
    #[error("the prompt is empty")]
    Empty,
}

/// The user turn's text: text blocks as written, a resource link as a
/// mention of its path (the model reads it with its tools), an embedded
/// resource inline in a tagged block so the model sees where it came from.
pub fn to_text(blocks: &[ContentBlock]) -> Result<String, PromptError> {
    let mut parts: Vec<String> = Vec::new();
    for block in blocks {
        match block {
            ContentBlock::Text(t) => parts.push(t.text.clone()),
            ContentBlock::ResourceLink(link) => {
                parts.push(format!("@{}", display_uri(&link.uri)));
            }
            ContentBlock::Resource(embedded) => match &embedded.resource {
                EmbeddedResourceResource::TextResourceContents(r) => parts.push(format!(
                    "<context ref=\"{}\">\n{}\n</context>",
                    display_uri(&r.uri),
                    r.text.trim_end()
                )),
                EmbeddedResourceResource::BlobResourceContents(_) => {
                    return Err(PromptError::Unsupported("binary resources"));
                }
                _ => return Err(PromptError::Unsupported("this resource kind")),
            },
            ContentBlock::Image(_) => return Err(PromptError::Unsupported("images")),
            ContentBlock::Audio(_) => return Err(PromptError::Unsupported("audio")),
            _ => return Err(PromptError::Unsupported("this content kind")),
        }
    }
    let text = parts.join("\n");
    if text.trim().is_empty() {
        return Err(PromptError::Empty);
    }
    Ok(text)
}

/// A `file://` URI as a plain path; other URIs as given.
fn display_uri(uri: &str) -> &str {
    uri.strip_prefix("file://").unwrap_or(uri)
}

#[cfg(test)]
mod tests {
    use super::*;
    use agent_client_protocol::v1::schema::{
        EmbeddedResource, ImageContent, ResourceLink, TextContent, TextResourceContents,
    };

    #[test]
    fn text_links_and_resources_become_one_turn() {
        let blocks = vec![
            ContentBlock::Text(TextContent::new("fix this")),
            ContentBlock::ResourceLink(ResourceLink::new("main.rs", "file:///p/src/main.rs")),
            ContentBlock::Resource(EmbeddedResource::new(
                EmbeddedResourceResource::TextResourceContents(TextResourceContents::new(
                    "fn main() {}\n",
                    "file:///p/src/lib.rs",
                )),
            )),
        ];
        assert_eq!(
            to_text(&blocks).unwrap(),
            "fix this\n@/p/src/main.rs\n<context ref=\"/p/src/lib.rs\">\nfn main() {}\n</context>"
        );
    }

    #[test]
    fn images_and_empty_prompts_are_refused() {
        let image = ContentBlock::Image(ImageContent::new("AAAA", "image/png"));
        assert_eq!(to_text(&[image]), Err(PromptError::Unsupported("images")));
        assert_eq!(
            to_text(&[ContentBlock::Text(TextContent::new("  "))]),
            Err(PromptError::Empty)
        );
    }
}
