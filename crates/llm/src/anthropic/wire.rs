//! Canonical request → Anthropic Messages request body.

use std::borrow::Cow;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};
use serde_json::Value;
use wright_protocol::{ContentBlock, Message, Role, ToolSchema};

use crate::client::ModelRequest;
use crate::ids::IdRules;
use crate::openai_responses::SIGNATURE_PREFIX;
use crate::wire_cache::WireCache;

/// The smallest thinking budget the API accepts.
pub const MIN_THINKING_BUDGET: u32 = 1024;

/// The JSON body of a streaming Messages request: `{model, max_tokens,
/// system, messages, tools, stream: true}`, with `system` and `tools`
/// omitted when empty; `thinking` when a budget is set; and, with
/// `prompt_cache`, `cache_control` breakpoints (at most 4) on the system
/// prompt, the last tool, and the last block of the latest two user turns.
/// As a value tree, for tests and inspection; requests are sent as
/// [`body`] writes them.
pub fn request_body(request: &ModelRequest) -> Value {
    serde_json::to_value(body(request, &WireCache::default())).unwrap_or_default()
}

/// [`request_body`] as it is sent: serialized straight from the shared
/// history, with no copy of the conversation and no value tree, and the
/// messages `cache` holds from the last request reused.
pub(crate) fn body<'a>(request: &'a ModelRequest, cache: &'a WireCache) -> impl Serialize + 'a {
    Body { request, cache }
}

struct Body<'a> {
    request: &'a ModelRequest,
    cache: &'a WireCache,
}

impl Serialize for Body<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let request = self.request;
        let cache = request.prompt_cache;
        let mut body = s.serialize_map(None)?;
        body.serialize_entry("model", &request.model)?;
        let mut max_tokens = request.max_tokens;
        if let Some(budget) = request.thinking_budget {
            let budget = budget.max(MIN_THINKING_BUDGET);
            // The budget is part of max_tokens, which must exceed it; leave
            // the answer the room the caller asked for.
            if max_tokens <= budget {
                max_tokens = budget.saturating_add(request.max_tokens.max(1));
            }
            body.serialize_entry(
                "thinking",
                &Thinking {
                    kind: "enabled",
                    budget_tokens: budget,
                },
            )?;
        }
        body.serialize_entry("max_tokens", &max_tokens)?;
        if !request.system.is_empty() {
            if cache {
                let block = Marked {
                    block: Wire::Known(Block::Text {
                        text: &request.system,
                    }),
                    cache_control: Some(EPHEMERAL),
                };
                body.serialize_entry("system", &[block])?;
            } else {
                body.serialize_entry("system", &request.system)?;
            }
        }
        body.serialize_entry(
            "messages",
            &Messages {
                request,
                cache: self.cache,
            },
        )?;
        if !request.tools.is_empty() {
            body.serialize_entry("tools", &Tools { request })?;
        }
        body.serialize_entry("stream", &true)?;
        body.end()
    }
}

/// `{"type": "ephemeral"}`: a prompt-cache breakpoint.
#[derive(Serialize, Clone, Copy)]
struct CacheControl {
    #[serde(rename = "type")]
    kind: &'static str,
}

const EPHEMERAL: CacheControl = CacheControl { kind: "ephemeral" };

#[derive(Serialize)]
struct Thinking {
    #[serde(rename = "type")]
    kind: &'static str,
    budget_tokens: u32,
}

/// The tools, the last one a cache breakpoint when caching.
struct Tools<'a> {
    request: &'a ModelRequest,
}

#[derive(Serialize)]
struct Tool<'a> {
    name: &'a str,
    description: &'a str,
    input_schema: &'a ToolSchema,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

impl Serialize for Tools<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tools = &self.request.tools;
        let last = tools.len().saturating_sub(1);
        s.collect_seq(tools.iter().enumerate().map(|(i, t)| Tool {
            name: &t.name,
            description: &t.description,
            input_schema: &t.input_schema,
            cache_control: (self.request.prompt_cache && i == last).then_some(EPHEMERAL),
        }))
    }
}

/// The conversation; with caching, a breakpoint on the last block of the
/// latest two user turns: the newest caches this request's prefix for the
/// next one, the one before keeps hitting the cache when a turn added many
/// blocks.
struct Messages<'a> {
    request: &'a ModelRequest,
    cache: &'a WireCache,
}

impl Serialize for Messages<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let messages = &self.request.messages;
        let mut marked = [usize::MAX; 2];
        if self.request.prompt_cache {
            let users = messages
                .iter()
                .enumerate()
                .rev()
                .filter(|(_, m)| m.role == Role::User)
                .map(|(i, _)| i);
            for (slot, i) in marked.iter_mut().zip(users) {
                *slot = i;
            }
        }
        self.cache.serialize(
            s,
            messages,
            |i| u8::from(marked.contains(&i)),
            |m, form| vec![message(m, form == 1)],
        )
    }
}

#[derive(Serialize)]
struct WireMessage<'a> {
    role: &'static str,
    content: Vec<Marked<'a>>,
}

/// A block and its optional cache breakpoint.
#[derive(Serialize)]
struct Marked<'a> {
    #[serde(flatten)]
    block: Wire<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    cache_control: Option<CacheControl>,
}

/// A block wright models, or one it keeps verbatim.
#[derive(Serialize)]
#[serde(untagged)]
enum Wire<'a> {
    Known(Block<'a>),
    Raw(&'a serde_json::Value),
}

#[derive(Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block<'a> {
    Text {
        text: &'a str,
    },
    Image {
        source: ImageSource<'a>,
    },
    Thinking {
        thinking: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        signature: Option<&'a str>,
    },
    RedactedThinking {
        data: &'a str,
    },
    ToolUse {
        id: Cow<'a, str>,
        name: &'a str,
        input: ToolInput<'a>,
    },
    ToolResult {
        tool_use_id: Cow<'a, str>,
        content: ResultContent<'a>,
        is_error: bool,
    },
}

#[derive(Serialize)]
struct ImageSource<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    media_type: &'a str,
    data: &'a str,
}

/// A tool result's content: its text, or (with images) a list of blocks.
#[derive(Serialize)]
#[serde(untagged)]
enum ResultContent<'a> {
    Text(&'a str),
    Blocks(Vec<Block<'a>>),
}

fn message(message: &Message, cache_last: bool) -> WireMessage<'_> {
    let role = match message.role {
        Role::User => "user",
        Role::Assistant => "assistant",
    };
    // Thinking is only valid with an Anthropic signature: unsigned
    // reasoning (Chat servers) and Responses reasoning items are dropped.
    let mut content: Vec<Marked<'_>> = Vec::with_capacity(message.content.len());
    let kept = message.content.iter().filter(|b| match b {
        ContentBlock::Thinking { signature, .. } => signature
            .as_deref()
            .is_some_and(|s| !s.starts_with(SIGNATURE_PREFIX)),
        ContentBlock::Opaque { provider, .. } => provider == super::PROVIDER,
        _ => true,
    });
    for b in kept {
        let block = block(b);
        // A tool's images follow its result; the API wants them inside it
        // (a user message's tool_result blocks must come first).
        if let Wire::Known(image @ Block::Image { .. }) = block {
            if let Some(Marked {
                block:
                    Wire::Known(Block::ToolResult {
                        content: result, ..
                    }),
                ..
            }) = content.last_mut()
            {
                attach_to_result(result, image);
            } else {
                content.push(Marked {
                    block: Wire::Known(image),
                    cache_control: None,
                });
            }
        } else {
            content.push(Marked {
                block,
                cache_control: None,
            });
        }
    }
    if cache_last && let Some(last) = content.last_mut() {
        last.cache_control = Some(EPHEMERAL);
    }
    WireMessage { role, content }
}

/// Turns a tool_result's text content into a list of blocks (if it is not
/// one yet) and appends `image`.
fn attach_to_result<'a>(result: &mut ResultContent<'a>, image: Block<'a>) {
    if let ResultContent::Text(text) = *result {
        *result = ResultContent::Blocks(if text.is_empty() {
            Vec::new()
        } else {
            vec![Block::Text { text }]
        });
    }
    if let ResultContent::Blocks(parts) = result {
        parts.push(image);
    }
}

fn block(block: &ContentBlock) -> Wire<'_> {
    match block {
        ContentBlock::Text { text } => Wire::Known(Block::Text { text }),
        ContentBlock::Image { media_type, data } => Wire::Known(Block::Image {
            source: ImageSource {
                kind: "base64",
                media_type,
                data,
            },
        }),
        ContentBlock::Thinking {
            thinking,
            signature,
        } => Wire::Known(Block::Thinking {
            thinking,
            signature: signature.as_deref(),
        }),
        ContentBlock::RedactedThinking { data } => Wire::Known(Block::RedactedThinking { data }),
        ContentBlock::ToolCall {
            id,
            name,
            arguments,
        } => Wire::Known(Block::ToolUse {
            id: IdRules::ANTHROPIC.apply(id),
            name,
            input: ToolInput(arguments),
        }),
        ContentBlock::ToolResult {
            call_id,
            content,
            is_error,
        } => Wire::Known(Block::ToolResult {
            tool_use_id: IdRules::ANTHROPIC.apply(call_id),
            content: ResultContent::Text(content),
            is_error: *is_error,
        }),
        // Sent back exactly as the server sent it (server tool blocks).
        ContentBlock::Opaque { block, .. } => Wire::Raw(block),
    }
}

/// The API requires `input` to be an object; a model's malformed arguments
/// were already answered with an error result, so `{}` keeps the history
/// valid. (Parsed per call: the one value tree left in a request, the size
/// of one call's arguments.)
struct ToolInput<'a>(&'a str);

impl Serialize for ToolInput<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match serde_json::from_str::<Value>(self.0) {
            Ok(v @ Value::Object(_)) => v.serialize(s),
            _ => s.serialize_map(Some(0))?.end(),
        }
    }
}

#[cfg(test)]
#[path = "wire_tests.rs"]
mod tests;
