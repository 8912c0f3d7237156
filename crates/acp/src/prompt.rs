//! An ACP prompt (text, resource links, embedded resources, images) as one
//! user turn's text and images. Audio and binary resources are refused
//! with a message rather than silently dropped.

use agent_client_protocol::v1::schema::{ContentBlock, EmbeddedResourceResource};

/// The image types every provider wright speaks takes.
const IMAGE_TYPES: [&str; 4] = ["image/png", "image/jpeg", "image/gif", "image/webp"];

/// Why a prompt cannot become a user turn.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PromptError {
    /// A block kind wright cannot pass to the model yet.
    #[error("wright cannot take {0} in a prompt yet; send text, resources or images")]
    Unsupported(&'static str),
    /// Nothing to send.
    #[error("the prompt is empty")]
    Empty,
}

/// The user turn: text blocks as written, a resource link as a mention of
/// its path (the model reads it with its tools), an embedded resource
/// inline in a tagged block so the model sees where it came from; images
/// (base64 png, jpeg, gif or webp) beside the text.
pub fn to_turn(
    blocks: &[ContentBlock],
) -> Result<(String, Vec<wright_protocol::ContentBlock>), PromptError> {
    let mut parts: Vec<String> = Vec::new();
    let mut images = Vec::new();
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
            ContentBlock::Image(image) => {
                if !IMAGE_TYPES.contains(&image.mime_type.as_str()) || image.data.is_empty() {
                    return Err(PromptError::Unsupported(
                        "images other than base64 png, jpeg, gif or webp",
                    ));
                }
                images.push(wright_protocol::ContentBlock::Image {
                    media_type: image.mime_type.clone(),
                    data: image.data.clone(),
                });
            }
            ContentBlock::Audio(_) => return Err(PromptError::Unsupported("audio")),
            _ => return Err(PromptError::Unsupported("this content kind")),
        }
    }
    let text = parts.join("\n");
    if text.trim().is_empty() && images.is_empty() {
        return Err(PromptError::Empty);
    }
    Ok((text, images))
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
            to_turn(&blocks).unwrap().0,
            "fix this\n@/p/src/main.rs\n<context ref=\"/p/src/lib.rs\">\nfn main() {}\n</context>"
        );
    }

    #[test]
    fn images_go_beside_the_text_and_empty_prompts_are_refused() {
        let image = ContentBlock::Image(ImageContent::new("AAAA", "image/png"));
        let (text, images) = to_turn(&[image]).unwrap();
        assert!(text.is_empty());
        assert_eq!(
            images,
            vec![wright_protocol::ContentBlock::Image {
                media_type: "image/png".into(),
                data: "AAAA".into()
            }]
        );
        let svg = ContentBlock::Image(ImageContent::new("AAAA", "image/svg+xml"));
        assert!(matches!(to_turn(&[svg]), Err(PromptError::Unsupported(_))));
        assert_eq!(
            to_turn(&[ContentBlock::Text(TextContent::new("  "))]),
            Err(PromptError::Empty)
        );
    }
}
