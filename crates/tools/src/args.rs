//! Argument parsing and schema generation shared by all tools: arguments
//! come from the model as JSON and become typed structs; the structs' schemas
//! become compact JSON Schema for the tool specs.

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use wright_protocol::ToolSpec;

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

/// A tool spec whose schema is derived from `T` and trimmed of what the model
/// does not need (`$schema`, `title`, the struct's own doc, integer formats,
/// `null` in optional types); `$ref`s are inlined because small local models
/// handle flat schemas better.
pub(crate) fn spec<T: JsonSchema>(name: &str, description: &str) -> ToolSpec {
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
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: value,
    }
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
