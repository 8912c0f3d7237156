//! Structured output (`--json-schema`, the Claude Agent SDK's
//! `output_format`): what the model is told, and the check of its final
//! answer. The schema goes at the end of the system prompt for every
//! request of the session; the final answer of a turn (its last text) must
//! then be one JSON value valid against it. An answer that is not is sent
//! back once with the reasons (see `turn.rs`).

use serde_json::Value;

/// At most this many validation errors are shown to the model.
const MAX_REPORTED_ERRORS: usize = 10;

/// Checks that `schema` is a usable JSON schema (Draft 2020-12 and the
/// drafts it declares with `$schema`). `Err` says why not.
pub fn check_json_schema(schema: &Value) -> Result<(), String> {
    if !(schema.is_object() || schema.is_boolean()) {
        return Err("a JSON schema must be an object (or true/false)".to_owned());
    }
    jsonschema::validator_for(schema)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The text appended to the system prompt when a schema is set.
pub(crate) fn instructions(schema: &Value) -> String {
    let schema = serde_json::to_string_pretty(schema).unwrap_or_else(|_| schema.to_string());
    format!(
        "\n\n# Structured output\n\
         When you have finished the task, your final message must be only one JSON value \
         that is valid against the JSON schema below: no prose before or after it and no \
         Markdown code fence. Use tools as usual before that.\n\n{schema}\n"
    )
}

/// What became of a final answer.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// The answer parsed and is valid.
    Valid(Value),
    /// Why it is not usable, for the model and the user.
    Invalid(String),
}

/// Parses `answer` as JSON (a surrounding Markdown code fence is allowed,
/// since models add one despite being told not to) and validates it.
pub(crate) fn check_answer(schema: &Value, answer: &str) -> Verdict {
    let text = strip_fence(answer.trim());
    if text.is_empty() {
        return Verdict::Invalid("the final message was empty; it must be a JSON value".to_owned());
    }
    let value: Value = match serde_json::from_str(text) {
        Ok(value) => value,
        Err(e) => return Verdict::Invalid(format!("the final message is not valid JSON: {e}")),
    };
    let validator = match jsonschema::validator_for(schema) {
        Ok(validator) => validator,
        Err(e) => return Verdict::Invalid(format!("the JSON schema itself is invalid: {e}")),
    };
    let errors: Vec<String> = validator
        .iter_errors(&value)
        .take(MAX_REPORTED_ERRORS)
        .map(|e| {
            let at = e.instance_path().as_str();
            if at.is_empty() {
                format!("at the top level: {e}")
            } else {
                format!("at {at}: {e}")
            }
        })
        .collect();
    if errors.is_empty() {
        Verdict::Valid(value)
    } else {
        Verdict::Invalid(format!(
            "the JSON does not match the schema:\n- {}",
            errors.join("\n- ")
        ))
    }
}

/// The message that sends an invalid answer back to the model.
pub(crate) fn retry_message(why: &str) -> String {
    format!(
        "Your final message cannot be used: {why}\n\nReply again with only the JSON value, \
         valid against the JSON schema given in the system prompt, and nothing else."
    )
}

/// The inside of a ```json … ``` (or plain ```) fence around the whole
/// text; the text itself otherwise.
fn strip_fence(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("```") else {
        return text;
    };
    let Some(body) = rest.strip_suffix("```") else {
        return text;
    };
    // The info string (`json`) runs to the end of the first line.
    match body.split_once('\n') {
        Some((info, inner)) if !info.contains('{') && !info.contains('[') => inner.trim(),
        _ => body.trim(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {"n": {"type": "integer"}, "tags": {"type": "array", "items": {"type": "string"}}},
            "required": ["n"],
            "additionalProperties": false
        })
    }

    #[test]
    fn valid_answers_parse_with_or_without_a_fence() {
        assert_eq!(
            check_answer(&schema(), r#"{"n": 3}"#),
            Verdict::Valid(json!({"n": 3}))
        );
        assert_eq!(
            check_answer(&schema(), "```json\n{\"n\": 4, \"tags\": [\"a\"]}\n```"),
            Verdict::Valid(json!({"n": 4, "tags": ["a"]}))
        );
        assert_eq!(
            check_answer(&schema(), "```\n{\"n\": 5}\n```\n"),
            Verdict::Valid(json!({"n": 5}))
        );
    }

    #[test]
    fn invalid_answers_say_why() {
        let Verdict::Invalid(why) = check_answer(&schema(), "Here you go: {\"n\": 1}") else {
            panic!("prose is not JSON");
        };
        assert!(why.contains("not valid JSON"), "{why}");
        let Verdict::Invalid(why) = check_answer(&schema(), r#"{"n": "x", "extra": 1}"#) else {
            panic!("wrong type");
        };
        assert!(why.contains("at /n"), "{why}");
        assert!(why.contains("extra"), "{why}");
        let Verdict::Invalid(why) = check_answer(&schema(), r#"{"tags": [1]}"#) else {
            panic!("missing property");
        };
        assert!(why.contains("\"n\" is a required property"), "{why}");
        assert!(matches!(check_answer(&schema(), "  "), Verdict::Invalid(_)));
    }

    #[test]
    fn schemas_are_checked() {
        assert!(check_json_schema(&schema()).is_ok());
        assert!(check_json_schema(&json!(true)).is_ok());
        assert!(check_json_schema(&json!("object")).is_err());
        assert!(check_json_schema(&json!({"type": "no-such-type"})).is_err());
    }

    #[test]
    fn instructions_carry_the_schema() {
        let text = instructions(&schema());
        assert!(text.contains("\"additionalProperties\": false"), "{text}");
        assert!(text.contains("only one JSON value"), "{text}");
    }
}
