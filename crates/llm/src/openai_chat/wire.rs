//! Canonical request → Chat Completions request body.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, ToolSchema};

use super::compat::{ChatCompat, MaxTokensField, SystemRole};
use crate::client::ModelRequest;
use crate::ids::IdRules;
use crate::wire_cache::WireCache;
use crate::wire_json::{DataUrl, Seq};

/// The JSON body of a streaming Chat Completions request with the default
/// [`ChatCompat`]; see [`request_body_with`].
pub fn request_body(request: &ModelRequest) -> Value {
    request_body_with(request, &ChatCompat::default())
}

/// The JSON body of a streaming Chat Completions request: `{model,
/// messages, tools, stream: true, stream_options: {include_usage: true},
/// max_tokens}`, with `tools` omitted when empty and the system prompt as
/// the first message; role, limit field, `stream_options` and
/// `reasoning_effort` follow `compat` and the request options. As a value
/// tree, for tests and inspection; requests are sent as [`body`] writes
/// them.
pub fn request_body_with(request: &ModelRequest, compat: &ChatCompat) -> Value {
    serde_json::to_value(body(request, compat, &WireCache::default())).unwrap_or_default()
}

/// [`request_body_with`] as it is sent: serialized straight from the shared
/// history, with no copy of the conversation and no value tree.
pub(crate) fn body<'a>(
    request: &'a ModelRequest,
    compat: &'a ChatCompat,
    cache: &'a WireCache,
) -> impl Serialize + 'a {
    Body {
        request,
        compat,
        cache,
    }
}

struct Body<'a> {
    request: &'a ModelRequest,
    compat: &'a ChatCompat,
    cache: &'a WireCache,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (request, compat) = (self.request, self.compat);
        let mut body = s.serialize_map(None)?;
        body.serialize_entry("model", &request.model)?;
        body.serialize_entry(
            "messages",
            &Messages {
                request,
                compat,
                cache: self.cache,
            },
        )?;
        if !request.tools.is_empty() {
            let tools = request.tools.iter().map(|t| Tool {
                kind: "function",
                function: Function {
                    name: &t.name,
                    description: &t.description,
                    parameters: &t.input_schema,
                },
            });
            body.serialize_entry("tools", &Seq::new(tools))?;
        }
        body.serialize_entry("stream", &true)?;
        if compat.stream_usage {
            body.serialize_entry(
                "stream_options",
                &StreamOptions {
                    include_usage: true,
                },
            )?;
        }
        let limit = match compat.max_tokens_field {
            MaxTokensField::MaxTokens => "max_tokens",
            MaxTokensField::MaxCompletionTokens => "max_completion_tokens",
        };
        body.serialize_entry(limit, &request.max_tokens)?;
        if let Some(effort) = request.reasoning_effort {
            body.serialize_entry("reasoning_effort", effort.as_str())?;
        }
        body.end()
    }
}

#[derive(Serialize)]
struct StreamOptions {
    include_usage: bool,
}

#[derive(Serialize)]
struct Tool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    function: Function<'a>,
}

#[derive(Serialize)]
struct Function<'a> {
    name: &'a str,
    description: &'a str,
    parameters: &'a ToolSchema,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
enum ChatMessage<'a> {
    System {
        content: &'a str,
    },
    Developer {
        content: &'a str,
    },
    User {
        content: UserContent<'a>,
    },
    Assistant {
        content: Option<Cow<'a, str>>,
        #[serde(skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall<'a>>,
    },
    Tool {
        tool_call_id: String,
        content: &'a str,
    },
}

#[derive(Serialize)]
#[serde(untagged)]
enum UserContent<'a> {
    Text(Cow<'a, str>),
    Parts(Vec<UserPart<'a>>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum UserPart<'a> {
    Text { text: &'a str },
    ImageUrl { image_url: ImageUrl<'a> },
}

#[derive(Serialize)]
struct ImageUrl<'a> {
    url: DataUrl<'a>,
}

#[derive(Serialize)]
struct ToolCall<'a> {
    id: String,
    #[serde(rename = "type")]
    kind: &'static str,
    function: CallFunction<'a>,
}

#[derive(Serialize)]
struct CallFunction<'a> {
    name: &'a str,
    arguments: &'a str,
}

/// The chat messages of a request: the system prompt first, then each
/// canonical message as one or more chat messages.
struct Messages<'a> {
    request: &'a ModelRequest,
    compat: &'a ChatCompat,
    cache: &'a WireCache,
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (request, compat) = (self.request, self.compat);
        let mut seq = s.serialize_seq(None)?;
        if !request.system.is_empty() {
            seq.serialize_element(&match compat.system_role {
                SystemRole::System => ChatMessage::System {
                    content: &request.system,
                },
                SystemRole::Developer => ChatMessage::Developer {
                    content: &request.system,
                },
            })?;
        }
        self.cache.write_items(
            &mut seq,
            &request.messages,
            |_| 0,
            |m, _| {
                let mut out = Vec::with_capacity(1);
                push_message(&mut out, m, compat.tool_call_ids);
                out
            },
        )?;
        seq.end()
    }
}

/// Appends one canonical message as one or more chat messages. Tool results
/// become `tool` messages of their own; thinking is dropped (chat has no
/// place for it).
fn push_message<'a>(out: &mut Vec<ChatMessage<'a>>, message: &'a Message, ids: IdRules) {
    let tool_messages = message.content.iter().filter_map(|b| match b {
        ContentBlock::ToolResult {
            call_id, content, ..
        } => Some(ChatMessage::Tool {
            tool_call_id: ids.apply(call_id).into_owned(),
            content,
        }),
        _ => None,
    });
    match message.role {
        // Tool messages must directly follow the assistant message that
        // asked for them, so they go before any user text.
        Role::User => {
            out.extend(tool_messages);
            if let Some(content) = user_content(&message.content) {
                out.push(ChatMessage::User { content });
            }
        }
        Role::Assistant => {
            if let Some(m) = assistant_message(&message.content, ids) {
                out.push(m);
            }
            out.extend(tool_messages);
        }
    }
}

/// The text blocks joined by newlines (borrowed when there is one).
fn joined_text(blocks: &[ContentBlock]) -> Cow<'_, str> {
    let mut texts = blocks.iter().filter_map(|b| match b {
        ContentBlock::Text { text } => Some(text.as_str()),
        _ => None,
    });
    let Some(first) = texts.next() else {
        return Cow::Borrowed("");
    };
    match texts.next() {
        None => Cow::Borrowed(first),
        Some(second) => {
            let mut joined = format!("{first}\n{second}");
            for t in texts {
                joined.push('\n');
                joined.push_str(t);
            }
            Cow::Owned(joined)
        }
    }
}

/// A plain string when the message is text only (what every compatible
/// server accepts), content parts when it carries images.
fn user_content(blocks: &[ContentBlock]) -> Option<UserContent<'_>> {
    let has_image = blocks
        .iter()
        .any(|b| matches!(b, ContentBlock::Image { .. }));
    if !has_image {
        let has_text = blocks
            .iter()
            .any(|b| matches!(b, ContentBlock::Text { .. }));
        return has_text.then(|| UserContent::Text(joined_text(blocks)));
    }
    let parts = blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::Text { text } => Some(UserPart::Text { text }),
            ContentBlock::Image { media_type, data } => Some(UserPart::ImageUrl {
                image_url: ImageUrl {
                    url: DataUrl { media_type, data },
                },
            }),
            _ => None,
        })
        .collect();
    Some(UserContent::Parts(parts))
}

fn assistant_message(blocks: &[ContentBlock], ids: IdRules) -> Option<ChatMessage<'_>> {
    let text = joined_text(blocks);
    let calls: Vec<ToolCall<'_>> = blocks
        .iter()
        .filter_map(|b| match b {
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            } => Some(ToolCall {
                id: ids.apply(id).into_owned(),
                kind: "function",
                function: CallFunction { name, arguments },
            }),
            _ => None,
        })
        .collect();
    if text.is_empty() && calls.is_empty() {
        // Only thinking: nothing chat can carry.
        return None;
    }
    Some(ChatMessage::Assistant {
        content: (!text.is_empty()).then_some(text),
        tool_calls: calls,
    })
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
