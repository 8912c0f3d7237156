//! A minimal SSE reader for checking what the builders produce.

/// One event: its `event:` name (if any) and its `data:` payload.
#[derive(Debug, Clone)]
pub struct Event {
    pub name: Option<String>,
    pub data: String,
}

pub fn events(body: &str) -> Vec<Event> {
    assert!(body.ends_with("\n\n"), "stream must end with a blank line");
    body.split("\n\n")
        .filter(|b| !b.is_empty())
        .map(|block| {
            let mut name = None;
            let mut data = Vec::new();
            for line in block.lines() {
                if let Some(v) = line.strip_prefix("event: ") {
                    name = Some(v.to_string());
                } else if let Some(v) = line.strip_prefix("data: ") {
                    data.push(v);
                } else {
                    panic!("unexpected SSE line {line:?}");
                }
            }
            Event {
                name,
                data: data.join("\n"),
            }
        })
        .collect()
}

/// Every data payload parsed as JSON; `[DONE]` must only be last.
pub fn json_payloads(body: &str) -> Vec<serde_json::Value> {
    let evs = events(body);
    let mut out = Vec::new();
    for (i, e) in evs.iter().enumerate() {
        if e.data == "[DONE]" {
            assert_eq!(i, evs.len() - 1, "[DONE] must be the last event");
            continue;
        }
        out.push(
            serde_json::from_str(&e.data)
                .unwrap_or_else(|err| panic!("data is not JSON ({err}): {}", e.data)),
        );
    }
    out
}
