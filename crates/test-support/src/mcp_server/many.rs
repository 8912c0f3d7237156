//! `--many N`: N extra tools `tool_0..tool_{N-1}` with descriptions and
//! schemas shaped like real servers' (a verb, an object, a few typed
//! parameters), so tool-search tests see a realistic catalogue.

use rmcp::model::Tool;
use serde_json::{Map, Value, json};

/// (what the tool does, its main parameter, that parameter's description).
const KINDS: [(&str, &str, &str); 10] = [
    (
        "Search the issue tracker for issues matching a query",
        "query",
        "Free-text search terms",
    ),
    (
        "Fetch the current weather forecast for a city",
        "city",
        "City name, e.g. Lisbon",
    ),
    (
        "Look up a customer record by email address",
        "email",
        "The customer's email address",
    ),
    (
        "List the files changed in a pull request",
        "pull_request",
        "Pull request number",
    ),
    (
        "Translate a passage of text into another language",
        "text",
        "The text to translate",
    ),
    (
        "Query the metrics store for a time series",
        "metric",
        "Metric name, e.g. http.requests",
    ),
    (
        "Create a calendar event with a title and time",
        "title",
        "The event's title",
    ),
    (
        "Read a row from the inventory spreadsheet",
        "sku",
        "Stock keeping unit of the item",
    ),
    (
        "Send a message to a chat channel",
        "channel",
        "Channel name without the #",
    ),
    (
        "Resolve a DNS name to its addresses",
        "hostname",
        "Fully qualified host name",
    ),
];

/// The name of extra tool `i`.
pub fn name(i: usize) -> String {
    format!("tool_{i}")
}

/// Extra tool `i`.
pub fn tool(i: usize) -> Tool {
    let (what, param, param_desc) = KINDS[i % KINDS.len()];
    let schema = json!({
        "type": "object",
        "properties": {
            param: {"type": "string", "description": param_desc},
            "limit": {"type": "integer", "minimum": 1, "maximum": 100,
                      "description": "Most results to return"},
            "verbose": {"type": "boolean", "description": "Include every field"}
        },
        "required": [param]
    });
    let schema = match schema {
        Value::Object(map) => map,
        _ => Map::new(),
    };
    Tool::new(
        name(i),
        format!("{what} (catalogue entry {i}). Returns a short text summary."),
        schema,
    )
}

/// Extra tool `i`'s answer: its name and its main argument.
pub fn run(i: usize, args: &Map<String, Value>) -> String {
    let (_, param, _) = KINDS[i % KINDS.len()];
    let value = args.get(param).and_then(Value::as_str).unwrap_or_default();
    format!("{} ran with {param}={value}", name(i))
}

/// The index of an extra tool's name, if it is one of the first `many`.
pub fn index(tool: &str, many: usize) -> Option<usize> {
    tool.strip_prefix("tool_")
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| *n < many)
}
