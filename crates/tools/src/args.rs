//! Argument parsing and schema generation shared by all tools: arguments
//! come from the model as JSON and become typed structs; the structs' schemas
//! become compact JSON Schema for the tool specs.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::value::RawValue;
use wright_protocol::{ToolSchema, ToolSpec};

use crate::ToolError;

/// Deserializes the model's arguments. Unknown fields are ignored on purpose:
/// models add junk, and refusing it only wastes a turn.
pub fn parse<T: DeserializeOwned>(args: serde_json::Value) -> Result<T, ToolError> {
    // Some models send the arguments object as a JSON string.
    let args = match args {
        serde_json::Value::String(s) => {
            serde_json::from_str(&s).map_err(|e| ToolError::InvalidArgs(e.to_string()))?
        }
        serde_json::Value::Null => serde_json::Value::Object(Default::default()),
        other => other,
    };
    serde_json::from_value(args).map_err(|e| ToolError::InvalidArgs(e.to_string()))
}

/// The arguments under Claude Code's names before anyone looks at them:
/// some models still send `path` to the file tools, and a hook written for
/// Claude Code reads `file_path` only.
pub fn claude_names(tool: &str, mut args: serde_json::Value) -> serde_json::Value {
    if matches!(tool, "Read" | "Write" | "Edit")
        && let Some(map) = args.as_object_mut()
        && !map.contains_key("file_path")
        && let Some(path) = map.remove("path")
    {
        map.insert("file_path".to_owned(), path);
    }
    args
}

/// The text of one string argument, for [`crate::Tool::touches`]: read
/// from the raw arguments, so a call whose other arguments are broken
/// still names its path. (Dispatch has already refused arguments that are
/// not an object.)
pub(crate) fn text_arg(args: &serde_json::Value, key: &str) -> Option<String> {
    args.get(key)?.as_str().map(str::to_owned)
}

/// A tool spec whose schema is derived from `T` and trimmed of what the model
/// does not need (`$schema`, `title`, the struct's own doc, integer formats,
/// `null` in optional types); `$ref`s are inlined because small local models
/// handle flat schemas better.
///
/// The built-in tools' schemas are that derivation written out once, in
/// `schemas.json` (a test keeps it equal to the types; `WRIGHT_BLESS=1`
/// rewrites it): deriving them took a sixth of every start's instructions.
/// A tool missing from the file derives its schema here.
pub(crate) fn spec<T: JsonSchema>(name: &str, description: &str) -> ToolSpec {
    let input_schema = match written_schema(name) {
        Some(json) => ToolSchema::from_json(json.to_owned()),
        None => derived_schema::<T>().into(),
    };
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema,
    }
}

/// `schemas.json`: one line per built-in tool, its name and compact schema.
const WRITTEN_SCHEMAS: &str = include_str!("schemas.json");

fn written_schema(name: &str) -> Option<&'static RawValue> {
    #[cfg(test)]
    if tests::DERIVE_ONLY.with(std::cell::Cell::get) {
        return None;
    }
    static WRITTEN: OnceLock<BTreeMap<&'static str, &'static RawValue>> = OnceLock::new();
    WRITTEN
        .get_or_init(|| serde_json::from_str(WRITTEN_SCHEMAS).unwrap_or_default())
        .get(name)
        .copied()
}

fn derived_schema<T: JsonSchema>() -> serde_json::Value {
    let schema = schemars::schema_for!(T);
    let mut value = schema.to_value();
    let defs = value
        .as_object_mut()
        .and_then(|o| o.remove("$defs"))
        .unwrap_or_default();
    inline_refs(&mut value, &defs);
    compact(&mut value);
    if let Some(obj) = value.as_object_mut() {
        obj.remove("$schema");
        obj.remove("title");
        obj.remove("description");
    }
    value
}

fn inline_refs(value: &mut serde_json::Value, defs: &serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            // `Option<Enum>` comes out as anyOf [$ref, null]: keep the first.
            if let Some(Value::Array(any)) = map.get("anyOf")
                && any.len() == 2
                && any[1].get("type").and_then(Value::as_str) == Some("null")
            {
                let first = any[0].clone();
                map.remove("anyOf");
                if let Value::Object(inner) = first {
                    for (k, v) in inner {
                        map.entry(k).or_insert(v);
                    }
                }
            }
            if let Some(target) = map
                .remove("$ref")
                .and_then(|r| r.as_str().map(str::to_owned))
                && let Some(Value::Object(def)) =
                    target.strip_prefix("#/$defs/").and_then(|n| defs.get(n))
            {
                for (k, v) in def.clone() {
                    map.entry(k).or_insert(v);
                }
            }
            for v in map.values_mut() {
                inline_refs(v, defs);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|v| inline_refs(v, defs)),
        _ => {}
    }
}

fn compact(value: &mut serde_json::Value) {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            map.remove("format");
            if map.get("minimum").and_then(Value::as_f64) == Some(0.0) {
                map.remove("minimum");
            }
            if let Some(Value::Array(types)) = map.get("type") {
                let non_null: Vec<Value> = types
                    .iter()
                    .filter(|t| t.as_str() != Some("null"))
                    .cloned()
                    .collect();
                if non_null.len() == 1 {
                    map.insert("type".into(), non_null[0].clone());
                }
            }
            if map.get("default").is_some_and(Value::is_null) {
                map.remove("default");
            }
            for v in map.values_mut() {
                compact(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(compact),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Deserialize;

    use std::cell::Cell;

    thread_local! {
        /// Set while a test derives every schema from its type.
        pub(super) static DERIVE_ONLY: Cell<bool> = const { Cell::new(false) };
    }

    /// `schemas.json` holds what the built-in tools' argument types derive;
    /// `WRIGHT_BLESS=1` writes it anew. Compared as trees: the order of keys
    /// depends on whether serde_json's `preserve_order` is on in the build
    /// (it is in the workspace's, not in this crate's alone).
    #[test]
    fn the_written_schemas_are_what_the_types_derive() {
        DERIVE_ONLY.with(|d| d.set(true));
        let derived = crate::ToolRegistry::builtin();
        DERIVE_ONLY.with(|d| d.set(false));
        let mut text = String::from("{\n");
        for (i, spec) in derived.specs().iter().enumerate() {
            let sep = if i + 1 < derived.specs().len() {
                ","
            } else {
                ""
            };
            let name = serde_json::json!(spec.name);
            text.push_str(&format!("{name}:{}{sep}\n", spec.input_schema));
        }
        text.push_str("}\n");
        if std::env::var_os("WRIGHT_BLESS").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/src/schemas.json");
            std::fs::write(path, &text).unwrap();
            return;
        }
        let tree = |t: &str| serde_json::from_str::<serde_json::Value>(t).unwrap();
        assert_eq!(
            tree(WRITTEN_SCHEMAS),
            tree(&text),
            "src/schemas.json is out of date: run `WRIGHT_BLESS=1 cargo test -p wright-tools \
             written_schemas`"
        );
        // And the registry serves them as written.
        let served = crate::ToolRegistry::builtin();
        assert_eq!(served.specs(), derived.specs());
        for spec in served.specs() {
            assert_eq!(
                spec.input_schema.json().get(),
                written_schema(&spec.name).unwrap().get()
            );
        }
    }

    #[derive(Deserialize, JsonSchema)]
    struct Demo {
        /// A path.
        path: String,
        /// A count.
        #[serde(default)]
        #[allow(dead_code)]
        count: Option<u64>,
    }

    #[test]
    fn schema_is_compact() {
        let s = spec::<Demo>("demo", "d");
        let text = s.input_schema.to_string();
        assert!(!text.contains("$schema"), "{text}");
        assert!(!text.contains("null"), "{text}");
        assert!(!text.contains("format"), "{text}");
        assert_eq!(s.input_schema["properties"]["count"]["type"], "integer");
        assert_eq!(s.input_schema["required"], serde_json::json!(["path"]));
    }

    #[test]
    fn parse_reports_missing_field_and_ignores_junk() {
        let err = parse::<Demo>(serde_json::json!({"count": 1})).err();
        assert!(matches!(err, Some(ToolError::InvalidArgs(m)) if m.contains("path")));
        let ok: Demo = parse(serde_json::json!({"path": "a", "junk": true})).unwrap();
        assert_eq!(ok.path, "a");
        let from_str: Demo = parse(serde_json::json!("{\"path\":\"b\"}")).unwrap();
        assert_eq!(from_str.path, "b");
    }

    #[test]
    fn parse_reports_wrong_type() {
        let err = parse::<Demo>(serde_json::json!({"path": 3})).err();
        assert!(matches!(err, Some(ToolError::InvalidArgs(m)) if m.contains("invalid type")));
    }
}
