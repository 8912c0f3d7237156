//! What a program driving wright over `--input-format stream-json` may
//! write on stdin, one JSON object per line: user messages, control
//! requests (Claude Code's control protocol), replies to wright's own
//! control requests, and cancellations of them. A plain thread reads
//! stdin so a blocked read never holds up the session; replies are handed
//! to the [`Peer`] at once, so a turn waiting for one never waits for the
//! main loop.

use std::io::BufRead;
use std::sync::Arc;

use serde_json::Value;
use tokio::sync::mpsc;
use wright_protocol::ContentBlock;

use super::peer::Peer;

/// One line from the program, as the main loop sees it.
#[derive(Debug, Clone, PartialEq)]
pub enum Incoming {
    /// A user message: one turn's text and images, and the line as sent
    /// (for `--replay-user-messages`).
    User {
        /// The turn's text.
        text: String,
        /// Its images (`ContentBlock::Image`), in order.
        images: Vec<ContentBlock>,
        /// The line as the program sent it.
        line: Value,
    },
    /// A control request from the program.
    Control {
        /// Echoed in the response.
        id: String,
        /// `{"subtype": …, …}`.
        request: Value,
    },
    /// A line that could not be used, with why.
    Bad(String),
}

/// Reads stdin on a plain thread until it closes (then the channel closes).
pub fn spawn_reader(peer: Arc<Peer>) -> mpsc::UnboundedReceiver<Incoming> {
    let (tx, rx) = mpsc::unbounded_channel();
    std::thread::spawn(move || {
        let stdin = std::io::stdin();
        for (n, line) in stdin.lock().lines().enumerate() {
            let Ok(line) = line else { break };
            if line.trim().is_empty() {
                continue;
            }
            let incoming = match classify(&line) {
                Line::Incoming(incoming) => incoming,
                Line::Reply { id, result } => {
                    peer.resolve(&id, result);
                    continue;
                }
                Line::Cancel(id) => {
                    peer.resolve(&id, Err("the program cancelled the request".to_owned()));
                    continue;
                }
                Line::Ignored => continue,
            };
            let incoming = match incoming {
                Incoming::Bad(why) => Incoming::Bad(format!("stdin line {}: {why}", n + 1)),
                other => other,
            };
            if tx.send(incoming).is_err() {
                break;
            }
        }
        // No reply can come any more: whoever waits for one is told now.
        peer.close();
    });
    rx
}

/// What one line is.
#[derive(Debug, PartialEq)]
enum Line {
    Incoming(Incoming),
    /// A `control_response` to a request of wright's.
    Reply {
        id: String,
        result: Result<Value, String>,
    },
    /// A `control_cancel_request`.
    Cancel(String),
    /// Lines a program may send that carry nothing for wright (a
    /// `keep_alive`).
    Ignored,
}

fn classify(line: &str) -> Line {
    let value: Value = match serde_json::from_str(line) {
        Ok(v) => v,
        Err(e) => return Line::Incoming(Incoming::Bad(format!("not JSON ({e})"))),
    };
    match value["type"].as_str() {
        Some("user") => Line::Incoming(match user_content(&value) {
            Ok((text, images)) => Incoming::User {
                text,
                images,
                line: value,
            },
            Err(why) => Incoming::Bad(why),
        }),
        Some("control_request") => {
            match (value["request_id"].as_str(), value["request"].is_object()) {
                (Some(id), true) => Line::Incoming(Incoming::Control {
                    id: id.to_owned(),
                    request: value["request"].clone(),
                }),
                _ => Line::Incoming(Incoming::Bad(
                    "a control_request needs a string request_id and a request object".to_owned(),
                )),
            }
        }
        Some("control_response") => {
            let response = &value["response"];
            let Some(id) = response["request_id"].as_str() else {
                return Line::Incoming(Incoming::Bad(
                    "a control_response needs response.request_id".to_owned(),
                ));
            };
            let result = if response["subtype"] == "success" {
                Ok(response["response"].clone())
            } else {
                Err(response["error"]
                    .as_str()
                    .unwrap_or("the program answered with an error")
                    .to_owned())
            };
            Line::Reply {
                id: id.to_owned(),
                result,
            }
        }
        Some("control_cancel_request") => match value["request_id"].as_str() {
            Some(id) => Line::Cancel(id.to_owned()),
            None => Line::Ignored,
        },
        Some("keep_alive") => Line::Ignored,
        other => Line::Incoming(Incoming::Bad(format!(
            "expected a user message or a control message, got type {}",
            other.map_or_else(|| "none".to_owned(), |t| format!("\"{t}\""))
        ))),
    }
}

/// The text and images of one stream-json user message (Anthropic's
/// content blocks: `text`, and `image` with a base64 `source`).
pub fn user_content(value: &Value) -> Result<(String, Vec<ContentBlock>), String> {
    let role = &value["message"]["role"];
    if !role.is_null() && role != "user" {
        return Err(format!("expected a user message, got role {role}"));
    }
    let mut texts = Vec::new();
    let mut images = Vec::new();
    match &value["message"]["content"] {
        Value::String(s) => texts.push(s.clone()),
        Value::Array(blocks) => {
            for block in blocks {
                match block["type"].as_str() {
                    Some("text") => texts.push(block["text"].as_str().unwrap_or("").to_owned()),
                    Some("image") => images.push(image(&block["source"])?),
                    other => {
                        return Err(format!(
                            "content blocks of type {} are not supported; send text or images",
                            other.map_or_else(|| "none".to_owned(), |t| format!("\"{t}\""))
                        ));
                    }
                }
            }
        }
        _ => {}
    }
    let text = texts.join("\n");
    if text.trim().is_empty() && images.is_empty() {
        return Err("the message has no text content".to_owned());
    }
    Ok((text, images))
}

/// An image block's `source`: base64 data with its media type.
fn image(source: &Value) -> Result<ContentBlock, String> {
    if source["type"] != "base64" {
        return Err(format!(
            "image sources of type {} are not supported; send base64 data",
            source["type"]
        ));
    }
    let media_type = source["media_type"].as_str().unwrap_or("");
    if !matches!(
        media_type,
        "image/png" | "image/jpeg" | "image/gif" | "image/webp"
    ) {
        return Err(format!(
            "image media type \"{media_type}\" is not one of png, jpeg, gif, webp"
        ));
    }
    let data = source["data"].as_str().unwrap_or("");
    if data.is_empty() {
        return Err("the image has no data".to_owned());
    }
    Ok(ContentBlock::Image {
        media_type: media_type.to_owned(),
        data: data.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn incoming(line: &str) -> Incoming {
        match classify(line) {
            Line::Incoming(i) => i,
            other => panic!("not incoming: {other:?}"),
        }
    }

    #[test]
    fn user_messages_in_both_content_shapes() {
        let Incoming::User { text, .. } =
            incoming(r#"{"type":"user","message":{"role":"user","content":"hi"}}"#)
        else {
            panic!()
        };
        assert_eq!(text, "hi");
        let blocks = r#"{"type":"user","session_id":"","parent_tool_use_id":null,"message":{"role":"user","content":[{"type":"text","text":"a"},{"type":"text","text":"b"}]}}"#;
        let Incoming::User { text, .. } = incoming(blocks) else {
            panic!()
        };
        assert_eq!(text, "a\nb");
    }

    #[test]
    fn images_come_with_the_text() {
        let line = r#"{"type":"user","message":{"content":[{"type":"text","text":"what is this?"},{"type":"image","source":{"type":"base64","media_type":"image/png","data":"iVBO"}}]}}"#;
        let Incoming::User { text, images, .. } = incoming(line) else {
            panic!()
        };
        assert_eq!(text, "what is this?");
        assert_eq!(
            images,
            vec![ContentBlock::Image {
                media_type: "image/png".into(),
                data: "iVBO".into()
            }]
        );
    }

    #[test]
    fn bad_lines_say_why() {
        let bad = |line: &str| match incoming(line) {
            Incoming::Bad(why) => why,
            other => panic!("accepted {other:?}"),
        };
        assert!(bad("nope").contains("not JSON"));
        assert!(bad(r#"{"type":"assistant"}"#).contains("\"assistant\""));
        assert!(
            bad(r#"{"type":"user","message":{"role":"assistant","content":"x"}}"#).contains("role")
        );
        assert!(bad(r#"{"type":"user","message":{"content":""}}"#).contains("no text"));
        assert!(
            bad(r#"{"type":"user","message":{"content":[{"type":"image","source":{}}]}}"#)
                .contains("base64")
        );
        assert!(
            bad(r#"{"type":"user","message":{"content":[{"type":"document","source":{}}]}}"#)
                .contains("\"document\"")
        );
        assert!(bad(r#"{"type":"control_request","request":{}}"#).contains("request_id"));
    }

    #[test]
    fn control_lines() {
        assert_eq!(
            incoming(
                r#"{"type":"control_request","request_id":"r1","request":{"subtype":"interrupt"}}"#
            ),
            Incoming::Control {
                id: "r1".into(),
                request: serde_json::json!({"subtype": "interrupt"})
            }
        );
        assert_eq!(
            classify(
                r#"{"type":"control_response","response":{"subtype":"success","request_id":"w1","response":{"behavior":"allow"}}}"#
            ),
            Line::Reply {
                id: "w1".into(),
                result: Ok(serde_json::json!({"behavior": "allow"}))
            }
        );
        assert_eq!(
            classify(
                r#"{"type":"control_response","response":{"subtype":"error","request_id":"w2","error":"boom"}}"#
            ),
            Line::Reply {
                id: "w2".into(),
                result: Err("boom".into())
            }
        );
        assert_eq!(
            classify(r#"{"type":"control_cancel_request","request_id":"w3"}"#),
            Line::Cancel("w3".into())
        );
        assert_eq!(classify(r#"{"type":"keep_alive"}"#), Line::Ignored);
    }
}
