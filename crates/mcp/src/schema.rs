//! Tool input schemas normalized to what the model APIs accept at the top
//! level: an object schema with `properties`. Anthropic and OpenAI refuse a
//! top-level `anyOf`/`oneOf`/`allOf` (and a missing `type`), which servers
//! built from unions or validation libraries do send. Nested schemas are
//! left as they are: the APIs accept combinators there.

use serde_json::{Map, Value};

const COMBINATORS: [&str; 3] = ["anyOf", "oneOf", "allOf"];

/// The schema with `"type": "object"` and a `properties` object at the top,
/// `$schema` dropped, and a top-level `anyOf`/`oneOf`/`allOf` merged into
/// the object: properties are the union of the branches' (a property the
/// branches define differently becomes an `anyOf` of the variants), and
/// `required` keeps the top level's plus, for `anyOf`/`oneOf`, the names
/// every branch requires (for `allOf`, any branch requires). The server
/// still validates the real constraint. Anything that is not an object
/// becomes the empty object schema.
pub fn normalize_schema(schema: Value) -> Value {
    let Value::Object(mut top) = schema else {
        return Value::Object(empty_object());
    };
    top.remove("$schema");
    let mut properties = match top.remove("properties") {
        Some(Value::Object(p)) => p,
        _ => Map::new(),
    };
    let mut required = names(top.remove("required"));
    for key in COMBINATORS {
        let Some(Value::Array(branches)) = top.remove(key) else {
            continue;
        };
        let mut common: Option<Vec<String>> = None;
        for branch in branches {
            let Value::Object(branch) = normalize_schema(branch) else {
                continue;
            };
            let branch_required = names(branch.get("required").cloned());
            if let Some(Value::Object(props)) = branch.get("properties") {
                for (name, schema) in props {
                    merge_property(&mut properties, name, schema);
                }
            }
            common = Some(match (key, common) {
                ("allOf", Some(mut all)) => {
                    for name in branch_required {
                        if !all.contains(&name) {
                            all.push(name);
                        }
                    }
                    all
                }
                (_, Some(all)) => all
                    .into_iter()
                    .filter(|n| branch_required.contains(n))
                    .collect(),
                (_, None) => branch_required,
            });
        }
        for name in common.unwrap_or_default() {
            if !required.contains(&name) {
                required.push(name);
            }
        }
    }
    top.insert("type".to_owned(), Value::String("object".to_owned()));
    top.insert("properties".to_owned(), Value::Object(properties));
    if !required.is_empty() {
        top.insert(
            "required".to_owned(),
            Value::Array(required.into_iter().map(Value::String).collect()),
        );
    }
    Value::Object(top)
}

fn empty_object() -> Map<String, Value> {
    let mut map = Map::new();
    map.insert("type".to_owned(), Value::String("object".to_owned()));
    map.insert("properties".to_owned(), Value::Object(Map::new()));
    map
}

/// The strings of a `required` array.
fn names(value: Option<Value>) -> Vec<String> {
    match value {
        Some(Value::Array(items)) => items
            .into_iter()
            .filter_map(|v| match v {
                Value::String(s) => Some(s),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// Adds a branch's property; a second, different definition of the same
/// name turns it into an `anyOf` of the variants.
fn merge_property(properties: &mut Map<String, Value>, name: &str, schema: &Value) {
    let Some(existing) = properties.get_mut(name) else {
        properties.insert(name.to_owned(), schema.clone());
        return;
    };
    if existing == schema {
        return;
    }
    let variants = match existing {
        Value::Object(obj) if obj.len() == 1 && obj.contains_key("anyOf") => {
            match obj.get_mut("anyOf") {
                Some(Value::Array(variants)) => variants,
                _ => return,
            }
        }
        _ => {
            let first = existing.take();
            let mut obj = Map::new();
            obj.insert("anyOf".to_owned(), Value::Array(vec![first]));
            *existing = Value::Object(obj);
            match existing.get_mut("anyOf") {
                Some(Value::Array(variants)) => variants,
                _ => return,
            }
        }
    };
    if !variants.contains(schema) {
        variants.push(schema.clone());
    }
}

#[cfg(test)]
#[path = "schema_tests.rs"]
mod tests;
