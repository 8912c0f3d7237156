//! Reading a [`ContentBlock`] from its internally tagged JSON form
//! (`{"type":"text","text":…}`) in one pass.
//!
//! serde's derived internally tagged enums buffer every object into a
//! generic tree before they know the variant, then read that tree again.
//! Loading a long session (`--resume`) reads thousands of blocks, and that
//! double read was the largest part of parsing them. wright writes `type`
//! first, so the usual case reads the tag and then the variant's fields
//! straight from the input; an object whose `type` comes later (written by
//! hand or by another tool) is buffered as before and reads the same.

use serde::Deserialize;
use serde::de::value::MapAccessDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};

use crate::message::ContentBlock;

/// The variant names, as written in `type`.
#[derive(Debug, Clone, Copy, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Tag {
    Text,
    Image,
    Thinking,
    RedactedThinking,
    ToolCall,
    ToolResult,
    Opaque,
}

// The fields of each variant, with the same defaults as the variant
// itself; `reads_every_variant_back` fails if one drifts.
#[derive(Deserialize)]
struct TextFields {
    text: String,
}

#[derive(Deserialize)]
struct ImageFields {
    media_type: String,
    data: String,
}

#[derive(Deserialize)]
struct ThinkingFields {
    thinking: String,
    #[serde(default)]
    signature: Option<String>,
}

#[derive(Deserialize)]
struct RedactedFields {
    data: String,
}

#[derive(Deserialize)]
struct ToolCallFields {
    id: String,
    name: String,
    arguments: String,
}

#[derive(Deserialize)]
struct ToolResultFields {
    call_id: String,
    content: String,
    #[serde(default)]
    is_error: bool,
}

#[derive(Deserialize)]
struct OpaqueFields {
    provider: String,
    block: serde_json::Value,
}

/// Reads the fields of the variant `tag` from `fields` (the object without
/// its `type`).
fn variant<'de, D: Deserializer<'de>>(tag: Tag, fields: D) -> Result<ContentBlock, D::Error> {
    Ok(match tag {
        Tag::Text => {
            let f = TextFields::deserialize(fields)?;
            ContentBlock::Text { text: f.text }
        }
        Tag::Image => {
            let f = ImageFields::deserialize(fields)?;
            ContentBlock::Image {
                media_type: f.media_type,
                data: f.data,
            }
        }
        Tag::Thinking => {
            let f = ThinkingFields::deserialize(fields)?;
            ContentBlock::Thinking {
                thinking: f.thinking,
                signature: f.signature,
            }
        }
        Tag::RedactedThinking => {
            let f = RedactedFields::deserialize(fields)?;
            ContentBlock::RedactedThinking { data: f.data }
        }
        Tag::ToolCall => {
            let f = ToolCallFields::deserialize(fields)?;
            ContentBlock::ToolCall {
                id: f.id,
                name: f.name,
                arguments: f.arguments,
            }
        }
        Tag::ToolResult => {
            let f = ToolResultFields::deserialize(fields)?;
            ContentBlock::ToolResult {
                call_id: f.call_id,
                content: f.content,
                is_error: f.is_error,
            }
        }
        Tag::Opaque => {
            let f = OpaqueFields::deserialize(fields)?;
            ContentBlock::Opaque {
                provider: f.provider,
                block: f.block,
            }
        }
    })
}

/// An object key: `type`, or any other (kept only for the buffered path).
enum Key {
    Type,
    Other(String),
}

struct KeySeed;

impl<'de> DeserializeSeed<'de> for KeySeed {
    type Value = Key;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Key, D::Error> {
        d.deserialize_str(self)
    }
}

impl Visitor<'_> for KeySeed {
    type Value = Key;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a field name")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Key, E> {
        Ok(if v == "type" {
            Key::Type
        } else {
            Key::Other(v.to_owned())
        })
    }
}

struct BlockVisitor;

impl<'de> Visitor<'de> for BlockVisitor {
    type Value = ContentBlock;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a content block object with a `type`")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ContentBlock, A::Error> {
        let first = match map.next_key_seed(KeySeed)? {
            Some(Key::Type) => {
                let tag: Tag = map.next_value()?;
                return variant(tag, MapAccessDeserializer::new(map));
            }
            Some(Key::Other(key)) => key,
            None => return Err(de::Error::missing_field("type")),
        };
        let mut fields = serde_json::Map::new();
        fields.insert(first, map.next_value()?);
        while let Some((key, value)) = map.next_entry::<String, serde_json::Value>()? {
            fields.insert(key, value);
        }
        let tag = fields
            .remove("type")
            .ok_or_else(|| de::Error::missing_field("type"))?;
        let tag = Tag::deserialize(tag).map_err(de::Error::custom)?;
        variant(tag, serde_json::Value::Object(fields)).map_err(de::Error::custom)
    }
}

impl<'de> Deserialize<'de> for ContentBlock {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(BlockVisitor)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn every_variant() -> Vec<ContentBlock> {
        let all = vec![
            ContentBlock::Text {
                text: "hi \"there\"\n".into(),
            },
            ContentBlock::Image {
                media_type: "image/png".into(),
                data: "iVBOR".into(),
            },
            ContentBlock::Thinking {
                thinking: "hmm".into(),
                signature: Some("sig".into()),
            },
            ContentBlock::Thinking {
                thinking: String::new(),
                signature: None,
            },
            ContentBlock::RedactedThinking { data: "xyz".into() },
            ContentBlock::ToolCall {
                id: "c1".into(),
                name: "Bash".into(),
                arguments: "{\"command\":\"ls\"}".into(),
            },
            ContentBlock::ToolResult {
                call_id: "c1".into(),
                content: "ok".into(),
                is_error: true,
            },
            ContentBlock::Opaque {
                provider: "anthropic".into(),
                block: serde_json::json!({"type": "server_tool_use", "id": "s1"}),
            },
        ];
        // A new variant must be added above: this match stops compiling.
        for b in &all {
            match b {
                ContentBlock::Text { .. }
                | ContentBlock::Image { .. }
                | ContentBlock::Thinking { .. }
                | ContentBlock::RedactedThinking { .. }
                | ContentBlock::ToolCall { .. }
                | ContentBlock::ToolResult { .. }
                | ContentBlock::Opaque { .. } => {}
            }
        }
        all
    }

    #[test]
    fn reads_every_variant_back() {
        for block in every_variant() {
            let json = serde_json::to_string(&block).unwrap();
            assert!(json.starts_with("{\"type\":"), "{json}");
            assert_eq!(serde_json::from_str::<ContentBlock>(&json).unwrap(), block);
            let value = serde_json::to_value(&block).unwrap();
            assert_eq!(
                serde_json::from_value::<ContentBlock>(value).unwrap(),
                block
            );
        }
    }

    #[test]
    fn a_type_written_last_reads_the_same() {
        for block in every_variant() {
            let serde_json::Value::Object(mut map) = serde_json::to_value(&block).unwrap() else {
                panic!("a block is an object");
            };
            let tag = map.remove("type").unwrap();
            map.insert("type".into(), tag);
            let json = serde_json::to_string(&map).unwrap();
            assert!(!json.starts_with("{\"type\":"), "{json}");
            assert_eq!(serde_json::from_str::<ContentBlock>(&json).unwrap(), block);
        }
    }

    #[test]
    fn defaults_and_unknown_fields_read_as_before() {
        let b: ContentBlock =
            serde_json::from_str(r#"{"type":"tool_result","call_id":"c","content":"x","extra":1}"#)
                .unwrap();
        assert_eq!(
            b,
            ContentBlock::ToolResult {
                call_id: "c".into(),
                content: "x".into(),
                is_error: false
            }
        );
        let b: ContentBlock =
            serde_json::from_str(r#"{"thinking":"t","type":"thinking"}"#).unwrap();
        assert_eq!(
            b,
            ContentBlock::Thinking {
                thinking: "t".into(),
                signature: None
            }
        );
    }

    #[test]
    fn bad_blocks_are_errors_not_panics() {
        for bad in [
            r#"{}"#,
            r#"{"text":"no type"}"#,
            r#"{"type":"video","data":"x"}"#,
            r#"{"data":"x","type":"video"}"#,
            r#"{"type":"text"}"#,
            r#"{"type":"text","text":5}"#,
            r#"{"text":5,"type":"text"}"#,
            r#"{"type":7,"text":"x"}"#,
            r#"{"type":"text","text":"a","text":"b"}"#,
            r#"["text","x"]"#,
            r#""text""#,
            r#"{"type":"text","text":"x""#,
        ] {
            assert!(
                serde_json::from_str::<ContentBlock>(bad).is_err(),
                "accepted {bad}"
            );
        }
    }
}
