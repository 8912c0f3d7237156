//! What the model is told about a tool, and what a front end is shown of a run.

use std::sync::{Arc, OnceLock};

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

/// A tool as advertised to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Name the model calls it by.
    pub name: String,
    /// What it does and when to use it.
    pub description: String,
    /// JSON Schema of the arguments object.
    pub input_schema: ToolSchema,
}

/// A tool's JSON Schema, shared by every copy of its spec and written as
/// JSON once. Every request sends every tool's schema; the tool box and each
/// request used to copy the whole tree and serialize it again each time.
/// Reads as the [`serde_json::Value`] it holds; one made from JSON text
/// ([`ToolSchema::from_json`]) parses it only when read that way.
#[derive(Clone)]
pub struct ToolSchema(Arc<SchemaInner>);

/// At least one of the two is set; the other is derived on first use.
struct SchemaInner {
    value: OnceLock<serde_json::Value>,
    json: OnceLock<Box<RawValue>>,
}

impl ToolSchema {
    /// A schema given as JSON text (the built-in tools' schemas, written at
    /// build time): requests send the text as it is.
    pub fn from_json(json: Box<RawValue>) -> Self {
        Self(Arc::new(SchemaInner {
            value: OnceLock::new(),
            json: OnceLock::from(json),
        }))
    }

    /// The schema as compact JSON, written on first use.
    pub fn json(&self) -> &RawValue {
        self.0.json.get_or_init(|| {
            // A `Value` always serializes (its keys are strings); the
            // fallback (`null`) is never taken.
            serde_json::value::to_raw_value(self.value()).unwrap_or_default()
        })
    }

    /// The schema as a tree, parsed on first use.
    pub fn value(&self) -> &serde_json::Value {
        self.0.value.get_or_init(|| {
            // The text came from a `RawValue`, which holds valid JSON.
            self.0
                .json
                .get()
                .and_then(|json| serde_json::from_str(json.get()).ok())
                .unwrap_or_default()
        })
    }
}

impl From<serde_json::Value> for ToolSchema {
    fn from(value: serde_json::Value) -> Self {
        Self(Arc::new(SchemaInner {
            value: OnceLock::from(value),
            json: OnceLock::new(),
        }))
    }
}

impl std::ops::Deref for ToolSchema {
    type Target = serde_json::Value;
    fn deref(&self) -> &serde_json::Value {
        self.value()
    }
}

impl std::fmt::Debug for ToolSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.value().fmt(f)
    }
}

/// The schema as compact JSON, like the [`serde_json::Value`] it holds.
impl std::fmt::Display for ToolSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.json().get())
    }
}

impl PartialEq for ToolSchema {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.value() == other.value()
    }
}

impl Serialize for ToolSchema {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.json().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for ToolSchema {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde_json::Value::deserialize(deserializer).map(Self::from)
    }
}

/// The effect class of a tool, used by the permission layer and the
/// scheduler (read-only calls may run concurrently).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Reads only.
    ReadOnly,
    /// Changes files.
    Edit,
    /// Runs commands.
    Exec,
    /// Talks to the network.
    Network,
    /// Asks the person something (a question, a plan to approve); changes
    /// nothing by itself.
    Interaction,
    /// Anything else: a tool whose effects are not known (an MCP tool
    /// without a read-only annotation). Treated like a command.
    Other,
}

/// What a front end shows about a finished tool run, beside what the model got.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolDisplay {
    /// One short line: "12 lines", "exit 0", "3 matches".
    pub summary: String,
    /// A unified diff for file changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Exit code of a command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Where the untruncated output was written, if it was spilled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_output_path: Option<String>,
    /// Wall time of the run in milliseconds.
    #[serde(default)]
    pub duration_ms: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn spec() -> ToolSpec {
        ToolSpec {
            name: "Read".into(),
            description: "Reads \"a\" file".into(),
            input_schema: json!({"type": "object", "properties": {"path": {"type": "string"}},
                "required": ["path"]})
            .into(),
        }
    }

    #[test]
    fn a_schema_writes_the_json_of_its_value() {
        let s = spec();
        let value = json!({"type": "object", "properties": {"path": {"type": "string"}},
            "required": ["path"]});
        assert_eq!(s.input_schema.to_string(), value.to_string());
        assert_eq!(s.input_schema.json().get(), value.to_string());
        assert_eq!(s.input_schema["required"][0], "path");
        let text = serde_json::to_string(&s).unwrap();
        assert_eq!(
            text,
            format!(r#"{{"name":"Read","description":"Reads \"a\" file","input_schema":{value}}}"#)
        );
        assert_eq!(serde_json::from_str::<ToolSpec>(&text).unwrap(), s);
        // Through a generic tree too (how a spec reaches a JSON listing).
        assert_eq!(serde_json::to_value(&s).unwrap()["input_schema"], value);
    }

    #[test]
    fn copies_share_one_schema_and_compare_by_value() {
        let a = spec();
        let b = a.clone();
        assert!(Arc::ptr_eq(&a.input_schema.0, &b.input_schema.0));
        assert_eq!(a, b);
        let mut c = spec();
        assert_eq!(a, c, "equal trees, separate schemas");
        c.input_schema = json!({"type": "object"}).into();
        assert_ne!(a, c);
        assert_eq!(
            format!("{:?}", c.input_schema),
            format!("{:?}", json!({"type": "object"}))
        );
    }

    #[test]
    fn a_schema_from_text_sends_the_text_and_reads_as_its_tree() {
        let text = r#"{"type":"object","properties":{"b":{"type":"string"},"a":{}}}"#;
        let s = ToolSchema::from_json(RawValue::from_string(text.to_owned()).unwrap());
        assert_eq!(s.to_string(), text);
        assert_eq!(serde_json::to_string(&s).unwrap(), text);
        assert_eq!(s["properties"]["b"]["type"], "string");
        let tree: serde_json::Value = serde_json::from_str(text).unwrap();
        assert_eq!(s, ToolSchema::from(tree));
    }
}
