//! The record the mock keeps of each request it received.

/// One HTTP request as the mock server received it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordedRequest {
    /// Request method, as sent (`POST`).
    pub method: String,
    /// Request target as sent, query string included (`/v1/messages`).
    pub path: String,
    /// Headers in arrival order, names lowercased, values trimmed.
    pub headers: Vec<(String, String)>,
    /// The body, de-chunked if it came with `Transfer-Encoding: chunked`.
    pub body: Vec<u8>,
    /// When the request line arrived (benchmarks measure time to first request).
    pub received_at: std::time::SystemTime,
}

impl RecordedRequest {
    /// The first header with this name (compared case-insensitively).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON, or `Value::Null` when it is not JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or(serde_json::Value::Null)
    }

    /// The body as text, with invalid UTF-8 replaced.
    pub fn body_text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(body: &[u8]) -> RecordedRequest {
        RecordedRequest {
            method: "POST".into(),
            path: "/v1/messages".into(),
            headers: vec![
                ("x-api-key".into(), "test".into()),
                ("content-type".into(), "application/json".into()),
            ],
            body: body.to_vec(),
            received_at: std::time::SystemTime::UNIX_EPOCH,
        }
    }

    #[test]
    fn header_lookup_ignores_case() {
        let r = sample(b"{}");
        assert_eq!(r.header("Content-Type"), Some("application/json"));
        assert_eq!(r.header("X-API-KEY"), Some("test"));
        assert_eq!(r.header("missing"), None);
    }

    #[test]
    fn json_is_null_when_body_is_not_json() {
        assert_eq!(sample(b"not json").json(), serde_json::Value::Null);
        assert_eq!(sample(br#"{"a":1}"#).json()["a"], 1);
    }
}
