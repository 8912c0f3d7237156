//! What the Agent SDK front end relies on: a reasoning item carries its
//! block's signature, a prompt's uuid is recorded with it, and
//! `RewindFiles` finds the prompt by that uuid in the session file (so in
//! a resumed session too) and previews or restores its files.

use super::*;
use wright_protocol::{ItemKind, RewindFileAction};

#[tokio::test]
async fn a_reasoning_item_carries_its_blocks_signature() {
    let reply = Reply::Events(vec![
        Ok(StreamEvent::ThinkingDelta("hm".into())),
        Ok(StreamEvent::ThinkingSignature("sig-1".into())),
        Ok(StreamEvent::TextDelta("ok".into())),
        Ok(StreamEvent::Completed {
            message: Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Thinking {
                        thinking: "hm".into(),
                        signature: Some("sig-1".into()),
                    },
                    ContentBlock::Text { text: "ok".into() },
                ],
            },
            stop_reason: StopReason::EndTurn,
            usage: Usage::default(),
        }),
    ]);
    let mut h = start(vec![reply], PermissionMode::Default, 5);
    let (events, _) = turn(&mut h, "hi").await;
    let reasoning: Vec<(String, Option<String>)> = events
        .iter()
        .filter_map(|e| match &e.kind {
            EventKind::ItemCompleted { item } => match &item.kind {
                ItemKind::Reasoning { text, signature } => Some((text.clone(), signature.clone())),
                _ => None,
            },
            _ => None,
        })
        .collect();
    assert_eq!(reasoning, [("hm".to_owned(), Some("sig-1".to_owned()))]);
}

/// The next event `pick` accepts (bounded: the core answers at once).
async fn next<T>(h: &mut Harness, pick: impl Fn(&EventKind) -> Option<T>) -> T {
    let wait = async {
        while let Some(e) = h.handle.events.recv().await {
            if let Some(found) = pick(&e.kind) {
                return found;
            }
        }
        panic!("the session ended");
    };
    tokio::time::timeout(Duration::from_secs(60), wait)
        .await
        .expect("an answer within a minute")
}

#[tokio::test]
async fn rewind_files_finds_the_prompt_by_the_programs_uuid() {
    let dir = tempfile::tempdir().unwrap();
    let (_data, store, writer) = super::session_store(dir.path());
    let id = writer.id().to_owned();
    let notes = dir.path().join("notes.txt");
    let mut h = start_in(
        dir,
        vec![
            calls(&[(
                "w",
                "Write",
                r#"{"file_path":"notes.txt","content":"one\n"}"#,
            )]),
            text("wrote it"),
        ],
        PermissionMode::Bypass,
        5,
        |_| {},
        crate::Persistence {
            writer: Some(writer),
            ..crate::Persistence::default()
        },
    );
    h.handle
        .submit(Op::UserTurnWithImages {
            text: "write".into(),
            images: Vec::new(),
            uuid: Some("u-1".into()),
            typed: None,
        })
        .await
        .unwrap();
    let (_, reason) = collect(&mut h).await;
    assert_eq!(reason, TurnEndReason::Completed);
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "one\n");
    let turns = store.load(&id).unwrap().user_turns();
    assert_eq!(turns.len(), 1);
    assert_eq!(turns[0].uuid.as_deref(), Some("u-1"));
    // The recorded uuid entry is not part of the conversation.
    assert_eq!(store.load(&id).unwrap().history().len(), 4);

    let rewind = |id: &str, dry_run: bool| Op::RewindFiles {
        user_message_id: id.into(),
        dry_run,
    };
    h.handle.submit(rewind("u-1", true)).await.unwrap();
    let files = next(&mut h, |k| match k {
        EventKind::RewindPreview { files, .. } => Some(files.clone()),
        _ => None,
    })
    .await;
    assert_eq!(files.len(), 1);
    assert!(files[0].path.ends_with("notes.txt"));
    assert_eq!(files[0].action, RewindFileAction::Delete);
    assert!(notes.exists(), "a dry run changes nothing");

    h.handle.submit(rewind("u-9", false)).await.unwrap();
    let error = next(&mut h, |k| match k {
        EventKind::Error { message } => Some(message.clone()),
        _ => None,
    })
    .await;
    assert!(error.contains("u-9"), "{error}");

    h.handle.submit(rewind("u-1", false)).await.unwrap();
    let notice = next(&mut h, |k| match k {
        EventKind::Notice { message } => Some(message.clone()),
        _ => None,
    })
    .await;
    assert!(notice.contains("u-1"), "{notice}");
    assert!(!notes.exists(), "the file did not exist before the prompt");
}
