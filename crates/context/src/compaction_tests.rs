use proptest::prelude::*;

use super::*;

fn assistant(blocks: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::Assistant,
        content: blocks,
    }
}

fn text(t: &str) -> ContentBlock {
    ContentBlock::Text { text: t.to_owned() }
}

fn call(id: &str) -> ContentBlock {
    ContentBlock::ToolCall {
        id: id.to_owned(),
        name: "read".to_owned(),
        arguments: "{}".to_owned(),
    }
}

fn result(id: &str, body: &str) -> ContentBlock {
    ContentBlock::ToolResult {
        call_id: id.to_owned(),
        content: body.to_owned(),
        is_error: false,
    }
}

fn results(blocks: Vec<ContentBlock>) -> Message {
    Message {
        role: Role::User,
        content: blocks,
    }
}

/// Roles alternate starting with the user, and every call is answered in
/// the next message and every result answers a call in the previous one.
fn assert_valid(messages: &[Message]) {
    assert!(!messages.is_empty());
    assert_eq!(messages[0].role, Role::User);
    for pair in messages.windows(2) {
        assert_ne!(pair[0].role, pair[1].role, "{messages:#?}");
    }
    for (i, m) in messages.iter().enumerate() {
        for (id, _, _) in m.tool_calls() {
            let next = messages.get(i + 1);
            assert!(
                next.is_some_and(|n| n.content.iter().any(
                    |b| matches!(b, ContentBlock::ToolResult { call_id, .. } if call_id == id)
                )) || i + 1 == messages.len(),
                "call {id} unanswered"
            );
        }
        for b in &m.content {
            if let ContentBlock::ToolResult { call_id, .. } = b {
                assert!(
                    i > 0 && messages[i - 1].tool_calls().any(|(id, _, _)| id == call_id),
                    "orphan {call_id}"
                );
            }
        }
    }
}

#[test]
fn estimate_adds_chars_after_the_reported_message() {
    let messages = vec![
        Message::user_text("a".repeat(400)),
        assistant(vec![text(&"b".repeat(40))]),
        Message::user_text("c".repeat(9)),
    ];
    assert_eq!(estimate_tokens(&messages, None), 100 + 10 + 3);
    assert_eq!(estimate_tokens(&messages, Some((1, 5_000))), 5_000 + 3);
    assert_eq!(estimate_tokens(&messages, Some((2, 5_000))), 5_000);
    assert_eq!(estimate_tokens(&messages, Some((9, 7))), 7);
    let image = Message {
        role: Role::User,
        content: vec![ContentBlock::Image {
            media_type: "image/png".to_owned(),
            data: "x".repeat(100_000),
        }],
    };
    assert_eq!(estimate_tokens(&[image], None), 1_500);
}

#[test]
fn threshold_arithmetic() {
    assert_eq!(
        compaction_threshold(200_000, 32_000, Margin::default()),
        148_000
    );
    assert_eq!(
        compaction_threshold(4_000, 1_000, Margin::Tokens(500)),
        2_500
    );
    assert_eq!(compaction_threshold(1_000, 5_000, Margin::default()), 0);
    assert!(!should_compact(148_000, 200_000, 32_000, Margin::default()));
    assert!(should_compact(148_001, 200_000, 32_000, Margin::default()));
    assert_eq!(keep_recent_for_window(200_000), 20_000);
    assert_eq!(keep_recent_for_window(4_000), 1_000);
}

#[test]
fn trim_stubs_old_results_and_keeps_ids() {
    let big = "x".repeat(4_000);
    let messages = vec![
        Message::user_text("task"),
        assistant(vec![call("c1")]),
        results(vec![result("c1", &big)]),
        assistant(vec![call("c2")]),
        results(vec![ContentBlock::ToolResult {
            call_id: "c2".to_owned(),
            content: big.clone(),
            is_error: true,
        }]),
        assistant(vec![call("c3")]),
        results(vec![result("c3", &big)]),
    ];
    let (trimmed, saved) = trim_old_tool_results(&messages, 1_200);
    assert_eq!(trimmed.len(), messages.len());
    // The newest result fits in the recent budget and is untouched.
    assert_eq!(trimmed[6], messages[6]);
    for i in [2, 4] {
        let ContentBlock::ToolResult {
            call_id,
            content,
            is_error,
        } = &trimmed[i].content[0]
        else {
            panic!("not a result");
        };
        assert_eq!(call_id, if i == 2 { "c1" } else { "c2" });
        assert_eq!(*is_error, i == 4);
        assert!(
            content.starts_with("[wright: this tool result (4000 characters) was cleared"),
            "{content}"
        );
    }
    assert!(saved > 1_800 && saved < 2_000, "{saved}");
    // Trimming again changes nothing.
    let (again, saved) = trim_old_tool_results(&trimmed, 1_200);
    assert_eq!(again, trimmed);
    assert_eq!(saved, 0);
}

#[test]
fn single_prompt_task_cuts_before_an_assistant_and_carries_the_prompt() {
    let mut messages = vec![Message::user_text("the task")];
    for i in 0..10 {
        let id = format!("c{i}");
        messages.push(assistant(vec![text("working"), call(&id)]));
        messages.push(results(vec![result(&id, &"r".repeat(400))]));
    }
    let cut = choose_cut(&messages, 250);
    assert!(cut > 1);
    assert_eq!(messages[cut].role, Role::Assistant);
    let kept = kept_messages(&messages, cut);
    assert_eq!(kept[0], messages[0]);
    let after = apply_summary("## Goal\nthe task", kept);
    assert_valid(&after);
    assert!(after[0].text().starts_with(SUMMARY_MARKER));
    assert!(after[0].text().contains("the task"));

    // A second compaction drops the first summary from the carried prompt.
    let mut longer = after.clone();
    for i in 10..20 {
        let id = format!("c{i}");
        longer.push(assistant(vec![call(&id)]));
        longer.push(results(vec![result(&id, &"r".repeat(400))]));
    }
    let cut = choose_cut(&longer, 250);
    assert!(cut > 1);
    let kept = kept_messages(&longer, cut);
    assert_eq!(kept[0], Message::user_text("the task"));
    let again = apply_summary("second", kept);
    assert_valid(&again);
    assert_eq!(again[0].text().matches(SUMMARY_MARKER).count(), 1);
}

#[test]
fn nothing_to_cut() {
    assert_eq!(choose_cut(&[], 10), 0);
    assert_eq!(choose_cut(&[Message::user_text("hi")], 0), 0);
    let pending = vec![
        Message::user_text("hi"),
        assistant(vec![call("c")]),
        results(vec![result("c", "x")]),
    ];
    // Only cut: before the assistant, leaving just the carried prompt to summarize.
    assert_eq!(choose_cut(&pending, 0), 0);
}

#[test]
fn prefers_the_earliest_cut_that_fits() {
    let messages = vec![
        Message::user_text("a".repeat(4_000)),
        assistant(vec![text(&"b".repeat(4_000))]),
        Message::user_text("second"),
        assistant(vec![text("short")]),
        Message::user_text("third"),
    ];
    assert_eq!(choose_cut(&messages, 100), 2);
    assert_eq!(choose_cut(&messages, 1), 4);
}

/// A conversation: prompts, each followed by assistant rounds with 0..3
/// calls answered by results; a round without calls ends the turn.
fn conversation() -> impl Strategy<Value = Vec<Message>> {
    let round = (0usize..3, 1usize..600, 1usize..600);
    let turn = (1usize..400, proptest::collection::vec(round, 1..6));
    proptest::collection::vec(turn, 1..5).prop_map(|turns| {
        let mut messages: Vec<Message> = Vec::new();
        let mut next_id = 0;
        for (prompt_len, rounds) in turns {
            let prompt = Message::user_text("p".repeat(prompt_len));
            // After tool results the next prompt joins the same user message,
            // as providers require alternating roles.
            match messages.last_mut() {
                Some(last) if last.role == Role::User => last.content.extend(prompt.content),
                _ => messages.push(prompt),
            }
            for (calls, text_len, result_len) in rounds {
                let ids: Vec<String> = (0..calls)
                    .map(|_| {
                        next_id += 1;
                        format!("call{next_id}")
                    })
                    .collect();
                let mut blocks = vec![text(&"t".repeat(text_len))];
                blocks.extend(ids.iter().map(|id| call(id)));
                messages.push(assistant(blocks));
                if ids.is_empty() {
                    break;
                }
                messages.push(results(
                    ids.iter()
                        .map(|id| result(id, &"r".repeat(result_len)))
                        .collect(),
                ));
            }
        }
        messages
    })
}

proptest! {
    #[test]
    fn cut_never_splits_calls_and_keeps_the_last_prompt(messages in conversation(), keep in 0u64..2_000) {
        let cut = choose_cut(&messages, keep);
        prop_assert!(cut < messages.len().max(1));
        if cut > 0 {
            prop_assert!(
                !messages[cut].content.iter().any(|b| matches!(b, ContentBlock::ToolResult { .. })),
                "cut at a tool-result message"
            );
            for (ci, m) in messages.iter().enumerate() {
                for (id, _, _) in m.tool_calls() {
                    if let Some(ri) = messages.iter().position(|r| r.content.iter().any(
                        |b| matches!(b, ContentBlock::ToolResult { call_id, .. } if call_id == id))) {
                        prop_assert_eq!(ci < cut, ri < cut, "call {} split from its result", id);
                    }
                }
            }
            let kept = kept_messages(&messages, cut);
            let last_prompt = messages.iter().rposition(is_user_prompt);
            if let Some(l) = last_prompt {
                prop_assert!(kept.contains(&messages[l]), "last prompt lost");
            }
            let after = apply_summary("summary", kept);
            assert_valid(&after);
            let before = estimate_tokens(&messages, None);
            let after_estimate = estimate_tokens(&after, None);
            // The summary message costs ~60 tokens; the cut must free more
            // than that unless the kept suffix had to be large.
            prop_assert!(after_estimate <= before + 80);
        }
    }

    #[test]
    fn trimming_keeps_every_id_and_shape(messages in conversation(), keep in 0u64..2_000) {
        let (trimmed, _) = trim_old_tool_results(&messages, keep);
        prop_assert_eq!(trimmed.len(), messages.len());
        for (a, b) in messages.iter().zip(&trimmed) {
            prop_assert_eq!(a.role, b.role);
            prop_assert_eq!(a.content.len(), b.content.len());
            for (x, y) in a.content.iter().zip(&b.content) {
                match (x, y) {
                    (ContentBlock::ToolResult { call_id: i, .. }, ContentBlock::ToolResult { call_id: j, .. }) => prop_assert_eq!(i, j),
                    (x, y) => prop_assert_eq!(x, y),
                }
            }
        }
        prop_assert!(estimate_tokens(&trimmed, None) <= estimate_tokens(&messages, None));
    }
}
