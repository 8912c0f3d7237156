//! Canonical messages ↔ session JSONL lines, under proptest: whatever
//! messages are appended (any text, large blobs, images, thinking
//! signatures, raw tool arguments), loading the file gives them back.

use proptest::prelude::*;
use wright_protocol::{ContentBlock, Message, Role};
use wright_store::{EntryBody, SessionStore};

use super::meta;

fn block() -> impl Strategy<Value = ContentBlock> {
    // Some long texts, so blobs beside the file are exercised too.
    let text = prop_oneof![
        "\\PC{0,40}",
        (1usize..3, "\\PC{1,8}").prop_map(|(n, s)| s.repeat(n * 20_000))
    ];
    prop_oneof![
        text.clone().prop_map(|text| ContentBlock::Text { text }),
        ("[a-z/]{1,12}", "[A-Za-z0-9+/]{0,40}")
            .prop_map(|(media_type, data)| ContentBlock::Image { media_type, data }),
        (text.clone(), proptest::option::of("\\PC{0,20}")).prop_map(|(thinking, signature)| {
            ContentBlock::Thinking {
                thinking,
                signature,
            }
        }),
        "\\PC{0,20}".prop_map(|data| ContentBlock::RedactedThinking { data }),
        ("\\PC{0,12}", "\\PC{0,12}", "\\PC{0,40}").prop_map(|(id, name, arguments)| {
            ContentBlock::ToolCall {
                id,
                name,
                arguments,
            }
        }),
        ("\\PC{0,12}", text, any::<bool>()).prop_map(|(call_id, content, is_error)| {
            ContentBlock::ToolResult {
                call_id,
                content,
                is_error,
            }
        }),
    ]
}

fn message() -> impl Strategy<Value = Message> {
    (any::<bool>(), proptest::collection::vec(block(), 0..4)).prop_map(|(user, content)| Message {
        role: if user { Role::User } else { Role::Assistant },
        content,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn appended_messages_load_back_unchanged(messages in proptest::collection::vec(message(), 1..6)) {
        let dir = tempfile::tempdir().unwrap();
        let store = SessionStore::new(dir.path());
        let mut writer = store.create(&meta(dir.path())).unwrap();
        for m in &messages {
            writer.append_message(m).unwrap();
        }
        writer.sync().unwrap();
        let loaded = store.load(writer.id()).unwrap();
        let back: Vec<&Message> = loaded
            .entries
            .iter()
            .filter_map(|e| match &e.body {
                EntryBody::Message { message } => Some(message),
                _ => None,
            })
            .collect();
        prop_assert_eq!(back.len(), messages.len());
        for (got, want) in back.into_iter().zip(&messages) {
            prop_assert_eq!(got, want);
        }
        prop_assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    }
}
