//! A compaction never makes things worse: a conversation that is already
//! small is left as it is ("nothing to compact").

use super::*;
use wright_protocol::ItemKind;

/// The events of a manual compaction, which says `words` in a notice.
async fn compact_saying(h: &mut Harness, words: &str) -> Vec<Event> {
    h.handle.submit(Op::Compact { focus: None }).await.unwrap();
    let (seen, _) = collect(h).await;
    assert!(seen.iter().any(|e| notice(&e.kind, words)), "{seen:?}");
    seen
}

fn compactions(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(&e.kind, EventKind::ItemCompleted { item } if matches!(item.kind, ItemKind::Compaction { .. })))
        .count()
}

fn notice(kind: &EventKind, words: &str) -> bool {
    matches!(kind, EventKind::Notice { message } if message.contains(words))
}

#[tokio::test]
async fn a_small_conversation_has_nothing_to_compact_and_stays_as_it_was() {
    let mut h = start(
        vec![text("hello"), text("again")],
        PermissionMode::Default,
        5,
    );
    turn(&mut h, "hi").await;
    let seen = compact_saying(&mut h, "Nothing to compact").await;
    assert_eq!(compactions(&seen), 0, "{seen:?}");
    turn(&mut h, "next").await;
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 2, "no summary was asked for");
    let texts: Vec<String> = requests[1].messages.iter().map(Message::text).collect();
    assert_eq!(texts, ["hi", "hello", "next"]);
}

#[tokio::test]
async fn a_summary_larger_than_the_original_is_dropped_and_the_conversation_is_unchanged() {
    let long = |c: &str| text(&c.repeat(3_000));
    let mut h = start_with(
        vec![
            long("a"),
            long("b"),
            long("c"),
            // The summary: far larger than the turns it would replace.
            Reply::Summary("s".repeat(60_000)),
            text("after"),
        ],
        PermissionMode::Default,
        5,
        |o| {
            o.compaction = crate::CompactionOptions {
                auto: false,
                context_window: 200_000,
                keep_recent_tokens: 1_000,
                margin_percent: 10,
            };
        },
    );
    for prompt in ["one", "two", "three"] {
        turn(&mut h, prompt).await;
    }
    let seen = compact_saying(&mut h, "Not compacted").await;
    // The summary request was made and paid for, and the turn says so.
    assert!(
        seen.iter()
            .any(|e| matches!(e.kind, EventKind::Usage { .. })),
        "{seen:?}"
    );
    assert!(
        seen.iter().any(|e| matches!(
            e.kind,
            EventKind::TurnCompleted {
                model_requests: 1,
                ..
            }
        )),
        "{seen:?}"
    );
    turn(&mut h, "next").await;
    let requests = h.requests.lock().unwrap();
    assert_eq!(requests.len(), 5);
    assert!(requests[3].tools.is_empty(), "the summary request");
    let texts: Vec<String> = requests[4].messages.iter().map(Message::text).collect();
    let expected: Vec<String> = [
        "one".to_owned(),
        "a".repeat(3_000),
        "two".to_owned(),
        "b".repeat(3_000),
        "three".to_owned(),
        "c".repeat(3_000),
        "next".to_owned(),
    ]
    .into();
    assert_eq!(texts, expected);
}
