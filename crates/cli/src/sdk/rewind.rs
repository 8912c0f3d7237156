//! `rewind_files`: the program names one of its user messages (of this
//! process, or of an earlier one when the session was resumed: the core
//! records each message's uuid with the prompt); the core restores the
//! files the model edited since, and the control response waits for the
//! core's answer, so a program that awaited it reads the restored files.
//! Asked mid-turn, the rewind follows the turn (the core queues it). A real
//! rewind is preceded by a dry run of the same point, whose file list is
//! the answer's `filesChanged`.

use serde_json::{Value, json};
use tokio::sync::mpsc;
use wright_protocol::{Event, EventKind, Op, RewindFileAction};

/// A `rewind_files` the core is working on.
#[derive(Debug)]
pub struct PendingRewind {
    /// The control request to answer.
    pub request_id: String,
    /// Only the files that would change are asked for.
    dry_run: bool,
    /// The core's next answer is this rewind's: false while the turn it
    /// was asked during still runs.
    armed: bool,
    /// A real rewind's files, from the dry run before it.
    changed: Option<Vec<String>>,
    /// The dry run before a real rewind failed with this; the real one
    /// fails the same way, and its error is the answer.
    failed: bool,
}

/// Hands the rewind `request` to the core; the answer follows from its
/// events ([`PendingRewind::answer`]).
pub async fn start(
    request_id: &str,
    request: &Value,
    running: bool,
    ops: &mpsc::Sender<Op>,
) -> Result<PendingRewind, String> {
    let id = request["user_message_id"]
        .as_str()
        .filter(|id| !id.is_empty())
        .ok_or("rewind_files needs user_message_id: the uuid of a user message the program sent")?;
    let dry_run = request["dry_run"] == true;
    let runs: &[bool] = if dry_run { &[true] } else { &[true, false] };
    for &dry_run in runs {
        ops.send(Op::RewindFiles {
            user_message_id: id.to_owned(),
            dry_run,
        })
        .await
        .map_err(|_| "the session has ended".to_owned())?;
    }
    Ok(PendingRewind {
        request_id: request_id.to_owned(),
        dry_run,
        armed: !running,
        changed: None,
        failed: false,
    })
}

impl PendingRewind {
    /// Notes the end of the turn this rewind waits for; for the rewinds
    /// queued behind the one being answered.
    pub fn arm(&mut self, event: &Event) {
        if event.agent.is_root() && matches!(event.kind, EventKind::TurnCompleted { .. }) {
            self.armed = true;
        }
    }

    /// The control response `event` makes, when it is the core's answer
    /// to this rewind: the core does nothing else while it rewinds, so its
    /// next notice, preview or error (after the end of a turn that was
    /// running when it was asked) is the answer. A failed real rewind is an
    /// error response (the Python SDK's `rewind_files` returns nothing
    /// else to say it with); a dry run answers in the result's own
    /// `canRewind`/`error`, as the TypeScript SDK's `RewindFilesResult`.
    pub fn answer(&mut self, event: &Event) -> Option<Result<Value, String>> {
        if !event.agent.is_root() {
            return None;
        }
        if !self.armed {
            self.arm(event);
            return None;
        }
        let previewed = self.changed.is_some() || self.failed;
        match &event.kind {
            EventKind::Error { message } if self.dry_run => {
                Some(Ok(json!({"canRewind": false, "error": message})))
            }
            EventKind::Error { .. } if !previewed => {
                self.failed = true;
                None
            }
            EventKind::Error { message } => Some(Err(message.clone())),
            EventKind::RewindPreview { files, .. } => {
                let changed: Vec<String> = files
                    .iter()
                    .filter(|f| !matches!(f.action, RewindFileAction::Skip { .. }))
                    .map(|f| f.path.display().to_string())
                    .collect();
                if self.dry_run {
                    return Some(Ok(json!({"canRewind": true, "filesChanged": changed})));
                }
                self.changed = Some(changed);
                None
            }
            EventKind::Notice { .. } if previewed => Some(Ok(json!({
                "canRewind": true,
                "filesChanged": self.changed.take().unwrap_or_default(),
            }))),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_protocol::{AgentPath, RewindFilePreview};

    fn event(kind: EventKind) -> Event {
        Event {
            session_id: "s".into(),
            turn_id: 0,
            seq: 0,
            agent: AgentPath::root(),
            parent_tool_use_id: None,
            kind,
        }
    }

    fn pending(dry_run: bool, armed: bool) -> PendingRewind {
        PendingRewind {
            request_id: "r".into(),
            dry_run,
            armed,
            changed: None,
            failed: false,
        }
    }

    #[tokio::test]
    async fn a_request_without_an_id_is_refused() {
        let (ops, mut rx) = mpsc::channel(4);
        let none = start("r1", &json!({}), false, &ops).await.unwrap_err();
        assert!(none.contains("user_message_id"), "{none}");
        assert!(rx.try_recv().is_err());
        let pending = start(
            "r2",
            &json!({"user_message_id": "u", "dry_run": true}),
            false,
            &ops,
        )
        .await
        .unwrap();
        assert_eq!(pending.request_id, "r2");
        assert_eq!(
            rx.try_recv().unwrap(),
            Op::RewindFiles {
                user_message_id: "u".into(),
                dry_run: true
            }
        );
    }

    #[test]
    fn the_cores_answer_becomes_the_response() {
        let mut real = pending(false, true);
        let mut dry = pending(true, true);
        let notice = event(EventKind::Notice {
            message: "Files rewound".into(),
        });
        let error = event(EventKind::Error {
            message: "There is no user message".into(),
        });
        let preview = event(EventKind::RewindPreview {
            turn: 1,
            prompt: "p".into(),
            files: vec![RewindFilePreview {
                path: "/p/a.txt".into(),
                action: RewindFileAction::Overwrite,
            }],
        });
        // A real rewind: the dry run's files, then the rewind's notice.
        assert_eq!(real.answer(&notice), None);
        assert_eq!(real.answer(&preview), None);
        assert_eq!(
            real.answer(&notice),
            Some(Ok(json!({"canRewind": true, "filesChanged": ["/p/a.txt"]})))
        );
        // Both runs fail for an unknown message: the second error answers.
        let mut unknown = pending(false, true);
        assert_eq!(unknown.answer(&error), None);
        assert!(matches!(unknown.answer(&error), Some(Err(e)) if e.contains("no user message")));
        assert_eq!(dry.answer(&notice), None);
        assert_eq!(
            dry.answer(&preview),
            Some(Ok(json!({"canRewind": true, "filesChanged": ["/p/a.txt"]})))
        );
        assert_eq!(dry.answer(&error).unwrap().unwrap()["canRewind"], false);
        let mut child = notice.clone();
        child.agent = AgentPath::root().child("explore-1");
        assert_eq!(real.answer(&child), None);
    }

    #[test]
    fn asked_mid_turn_it_waits_for_the_turns_end() {
        let mut pending = pending(false, false);
        let preview = event(EventKind::RewindPreview {
            turn: 1,
            prompt: "p".into(),
            files: Vec::new(),
        });
        let notice = event(EventKind::Notice {
            message: "a hook said so".into(),
        });
        assert_eq!(pending.answer(&notice), None);
        let end = event(EventKind::TurnCompleted {
            reason: wright_protocol::TurnEndReason::Completed,
            model_requests: 1,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        });
        assert_eq!(pending.answer(&end), None);
        assert_eq!(pending.answer(&preview), None);
        assert_eq!(
            pending.answer(&notice),
            Some(Ok(json!({"canRewind": true, "filesChanged": []})))
        );
    }
}
