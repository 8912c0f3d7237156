use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

#[test]
fn a_plain_object_schema_is_kept_without_dollar_schema() {
    let schema = json!({
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"q": {"type": "string"}},
        "required": ["q"],
        "additionalProperties": false
    });
    assert_eq!(
        normalize_schema(schema),
        json!({
            "type": "object",
            "properties": {"q": {"type": "string"}},
            "required": ["q"],
            "additionalProperties": false
        })
    );
}

#[test]
fn missing_type_and_properties_are_added() {
    assert_eq!(
        normalize_schema(json!({})),
        json!({"type": "object", "properties": {}})
    );
    assert_eq!(
        normalize_schema(json!({"properties": {"a": {"type": "integer"}}})),
        json!({"type": "object", "properties": {"a": {"type": "integer"}}})
    );
}

#[test]
fn non_objects_become_the_empty_object_schema() {
    for schema in [json!(null), json!(true), json!("x"), json!([1])] {
        assert_eq!(
            normalize_schema(schema),
            json!({"type": "object", "properties": {}})
        );
    }
}

#[test]
fn top_level_any_of_merges_properties_and_intersects_required() {
    let schema = json!({
        "anyOf": [
            {"type": "object", "properties": {"id": {"type": "string"}, "kind": {"const": "a"}},
             "required": ["id", "kind"]},
            {"type": "object", "properties": {"name": {"type": "string"}, "kind": {"const": "b"}},
             "required": ["name", "kind"]}
        ]
    });
    assert_eq!(
        normalize_schema(schema),
        json!({
            "type": "object",
            "properties": {
                "id": {"type": "string"},
                "kind": {"anyOf": [{"const": "a"}, {"const": "b"}]},
                "name": {"type": "string"}
            },
            "required": ["kind"]
        })
    );
}

#[test]
fn one_of_of_required_sets_keeps_top_level_properties() {
    // The common "give a or b" shape.
    let schema = json!({
        "type": "object",
        "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
        "required": ["mode"],
        "oneOf": [{"required": ["a"]}, {"required": ["b"]}]
    });
    assert_eq!(
        normalize_schema(schema),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "string"}},
            "required": ["mode"]
        })
    );
}

#[test]
fn all_of_unions_required() {
    let schema = json!({
        "allOf": [
            {"properties": {"a": {"type": "string"}}, "required": ["a"]},
            {"properties": {"b": {"type": "number"}}, "required": ["b"]}
        ]
    });
    assert_eq!(
        normalize_schema(schema),
        json!({
            "type": "object",
            "properties": {"a": {"type": "string"}, "b": {"type": "number"}},
            "required": ["a", "b"]
        })
    );
}

#[test]
fn nested_combinators_and_definitions_are_left_alone() {
    let schema = json!({
        "type": "object",
        "properties": {
            "target": {"anyOf": [{"type": "string"}, {"$ref": "#/$defs/Target"}]}
        },
        "$defs": {"Target": {"type": "object", "properties": {"x": {"type": "integer"}}}}
    });
    assert_eq!(normalize_schema(schema.clone()), schema);
}

#[test]
fn a_wrong_top_level_type_is_replaced() {
    assert_eq!(
        normalize_schema(json!({"type": ["object", "null"], "properties": {}})),
        json!({"type": "object", "properties": {}})
    );
}
