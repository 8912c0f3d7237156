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
