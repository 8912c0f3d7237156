//! Canonical request → Responses API request body, and the encoding of
//! reasoning items into the canonical model.
//!
//! A reasoning item is stored as `ContentBlock::Thinking { thinking:
//! <summary text>, signature: Some("openai-responses:" + json) }` where
//! `json` is `{"id":..,"encrypted_content":..}`. The prefix marks the
//! signature as ours: the Anthropic wire drops such blocks and Chat drops
//! all thinking, so no other provider is sent data it cannot verify.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::{Map, Value, json};
use wright_protocol::{ContentBlock, Message, Role, ToolSchema};

use crate::client::ModelRequest;
use crate::ids::IdRules;
use crate::wire_cache::WireCache;
use crate::wire_json::{DataUrl, Seq};

/// The prefix of a `Thinking` signature that holds a Responses reasoning item.
pub const SIGNATURE_PREFIX: &str = "openai-responses:";

/// The opaque half of a reasoning item.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReasoningRef {
    /// The item id (`rs_…`).
    pub id: String,
    /// The encrypted reasoning, when the server sent it.
    pub encrypted_content: Option<String>,
}

impl ReasoningRef {
    /// The `Thinking` signature carrying this item.
    pub fn to_signature(&self) -> String {
        // Keys in sorted order, so the text is the same whether or not the
        // build's serde_json keeps insertion order (`preserve_order`).
        let mut o = Map::new();
        if let Some(e) = &self.encrypted_content {
            o.insert("encrypted_content".into(), json!(e));
        }
        o.insert("id".into(), json!(self.id));
        format!("{SIGNATURE_PREFIX}{}", Value::Object(o))
    }

    /// The item encoded in `signature`, if it is one of ours.
    pub fn from_signature(signature: &str) -> Option<Self> {
        let json: Value = serde_json::from_str(signature.strip_prefix(SIGNATURE_PREFIX)?).ok()?;
        Some(Self {
            id: json.get("id")?.as_str()?.to_owned(),
            encrypted_content: json
                .get("encrypted_content")
                .and_then(Value::as_str)
                .map(str::to_owned),
        })
    }
}

/// Whether `model` is a reasoning model, which alone accept
/// `include: ["reasoning.encrypted_content"]` (others reject it).
fn is_reasoning_model(model: &str) -> bool {
    let bare = model.rsplit('/').next().unwrap_or(model);
    bare.starts_with("gpt-5")
        || bare.starts_with("codex")
        || (bare.starts_with('o') && bare.chars().nth(1).is_some_and(|c| c.is_ascii_digit()))
}

/// The JSON body of a streaming Responses request: `{model, instructions,
/// input, tools, stream: true, store: false, include, max_output_tokens,
/// reasoning}`. `instructions` and `tools` are omitted when empty; `include`
/// and `reasoning` only go to reasoning models or when an effort is set.
/// As a value tree, for tests and inspection; requests are sent as
/// [`body`] writes them.
pub fn request_body(request: &ModelRequest) -> Value {
    serde_json::to_value(body(request, &WireCache::default())).unwrap_or_default()
}

/// [`request_body`] as it is sent: serialized straight from the shared
/// history, with no copy of the conversation and no value tree.
pub(crate) fn body<'a>(request: &'a ModelRequest, cache: &'a WireCache) -> impl Serialize + 'a {
    Body { request, cache }
}

struct Body<'a> {
    request: &'a ModelRequest,
    cache: &'a WireCache,
}

/// `input`: each canonical message as its items.
struct Input<'a> {
    request: &'a ModelRequest,
    cache: &'a WireCache,
}

impl Serialize for Input<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.cache.serialize(
            s,
            &self.request.messages,
            |_| 0,
            |m, _| {
                let mut out = Vec::with_capacity(1);
                push_message(&mut out, m);
                out
            },
        )
    }
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let request = self.request;
        let mut body = s.serialize_map(None)?;
        body.serialize_entry("model", &request.model)?;
        if !request.system.is_empty() {
            body.serialize_entry("instructions", &request.system)?;
        }
        body.serialize_entry(
            "input",
            &Input {
                request,
                cache: self.cache,
            },
        )?;
        if !request.tools.is_empty() {
            // `strict` defaults to true here, which demands schemas with
            // every property required and no additional properties.
            let tools = request.tools.iter().map(|t| Tool {
                kind: "function",
                name: &t.name,
                description: &t.description,
                parameters: &t.input_schema,
                strict: false,
            });
            body.serialize_entry("tools", &Seq::new(tools))?;
        }
        body.serialize_entry("stream", &true)?;
        // Stateless: reasoning travels back encrypted instead of being stored.
        body.serialize_entry("store", &false)?;
        if request.reasoning_effort.is_some() || is_reasoning_model(&request.model) {
            body.serialize_entry("include", &["reasoning.encrypted_content"])?;
        }
        body.serialize_entry("max_output_tokens", &request.max_tokens)?;
        if let Some(effort) = request.reasoning_effort {
            body.serialize_entry(
                "reasoning",
                &Effort {
                    effort: effort.as_str(),
                },
            )?;
        }
        body.end()
    }
}

#[derive(Serialize)]
struct Effort {
    effort: &'static str,
}

#[derive(Serialize)]
struct Tool<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    name: &'a str,
    description: &'a str,
    parameters: &'a ToolSchema,
    strict: bool,
}

/// One item of `input`: typed items, or messages with a role.
#[derive(Serialize)]
#[serde(untagged)]
enum Item<'a> {
    Typed(Typed<'a>),
    Message(RoleMessage<'a>),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Typed<'a> {
    FunctionCallOutput {
        call_id: String,
        output: &'a str,
    },
    FunctionCall {
        call_id: String,
        name: &'a str,
        arguments: &'a str,
    },
    Reasoning {
        id: String,
        summary: Vec<Summary<'a>>,
        #[serde(skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
    },
}

#[derive(Serialize)]
struct Summary<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    text: &'a str,
}

#[derive(Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
enum RoleMessage<'a> {
    User { content: Vec<InputPart<'a>> },
    Assistant { content: Cow<'a, str> },
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum InputPart<'a> {
    InputText { text: &'a str },
    InputImage { image_url: DataUrl<'a> },
}

fn push_message<'a>(out: &mut Vec<Item<'a>>, message: &'a Message) {
    match message.role {
        Role::User => {
            // Outputs answer the previous assistant turn's calls, so they
            // come before the user's new text.
            for b in &message.content {
                if let ContentBlock::ToolResult {
                    call_id, content, ..
                } = b
                {
                    out.push(Item::Typed(Typed::FunctionCallOutput {
                        call_id: IdRules::RESPONSES.apply(call_id).into_owned(),
                        output: content,
                    }));
                }
            }
            let parts: Vec<InputPart<'_>> = message
                .content
                .iter()
                .filter_map(|b| match b {
                    ContentBlock::Text { text } => Some(InputPart::InputText { text }),
                    ContentBlock::Image { media_type, data } => Some(InputPart::InputImage {
                        image_url: DataUrl { media_type, data },
                    }),
                    _ => None,
                })
                .collect();
            if !parts.is_empty() {
                out.push(Item::Message(RoleMessage::User { content: parts }));
            }
        }
        Role::Assistant => {
            // Items keep the model's order; consecutive text joins one message.
            let mut text: Vec<&'a str> = Vec::new();
            let flush = |text: &mut Vec<&'a str>, out: &mut Vec<Item<'a>>| {
                let content = match text.as_slice() {
                    [] => return,
                    [one] => Cow::Borrowed(*one),
                    many => Cow::Owned(many.join("\n")),
                };
                text.clear();
                out.push(Item::Message(RoleMessage::Assistant { content }));
            };
            for b in &message.content {
                match b {
                    // Leading empty texts add nothing (later ones add a line).
                    ContentBlock::Text { text: t } if !(text.is_empty() && t.is_empty()) => {
                        text.push(t);
                    }
                    ContentBlock::ToolCall {
                        id,
                        name,
                        arguments,
                    } => {
                        flush(&mut text, out);
                        out.push(Item::Typed(Typed::FunctionCall {
                            call_id: IdRules::RESPONSES.apply(id).into_owned(),
                            name,
                            arguments,
                        }));
                    }
                    ContentBlock::Thinking {
                        thinking,
                        signature: Some(signature),
                    } => {
                        // Other providers' thinking cannot be verified here.
                        if let Some(r) = ReasoningRef::from_signature(signature) {
                            flush(&mut text, out);
                            out.push(reasoning_item(r, thinking));
                        }
                    }
                    _ => {}
                }
            }
            flush(&mut text, out);
        }
    }
}

fn reasoning_item(r: ReasoningRef, summary: &str) -> Item<'_> {
    let summary = if summary.is_empty() {
        Vec::new()
    } else {
        vec![Summary {
            kind: "summary_text",
            text: summary,
        }]
    };
    Item::Typed(Typed::Reasoning {
        id: r.id,
        summary,
        encrypted_content: r.encrypted_content,
    })
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
