//! Store benchmarks: append cost per entry, load time of a 10,000-entry
//! session, and `list` over 1,000 sessions. Run with
//! `cargo run -p wright-store --release --example store_bench`.

use std::time::Instant;

use wright_protocol::{ContentBlock, Message, Role, Usage};
use wright_store::{EntryBody, SessionMeta, SessionStore, SessionWriter};

type Res<T> = Result<T, Box<dyn std::error::Error>>;

fn turn(w: &mut SessionWriter, n: usize) -> Res<usize> {
    let msgs = [
        Message::user_text(format!(
            "please look at module {n} and fix the failing test in it"
        )),
        Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Thinking {
                    thinking: "I should read the file first. ".repeat(4),
                    signature: Some("c2lnbmF0dXJl".repeat(8)),
                },
                ContentBlock::ToolCall {
                    id: format!("toolu_{n:08}"),
                    name: "read".into(),
                    arguments: format!(r#"{{"path":"src/module_{n}.rs"}}"#),
                },
            ],
        },
        Message {
            role: Role::User,
            content: vec![ContentBlock::ToolResult {
                call_id: format!("toolu_{n:08}"),
                content: "fn main() { println!(\"hello\"); }\n".repeat(8),
                is_error: false,
            }],
        },
        Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text {
                text: "The test fails because the fixture path is wrong; fixed.".into(),
            }],
        },
    ];
    for m in &msgs {
        w.append_message(m)?;
    }
    w.append(&EntryBody::Usage {
        usage: Usage {
            input_tokens: 1200,
            output_tokens: 300,
            cache_creation_input_tokens: 0,
            cache_read_input_tokens: 9000,
        },
        model: "claude-sonnet".into(),
        cost_usd: Some(0.0123),
    })?;
    Ok(msgs.len() + 1)
}

fn main() -> Res<()> {
    let dir = tempfile::tempdir()?;
    let store = SessionStore::new(dir.path());
    let meta = SessionMeta {
        cwd: dir.path().to_path_buf(),
        model: "claude-sonnet".into(),
        provider: "anthropic".into(),
    };

    // Append.
    let mut w = store.create(&meta)?;
    let start = Instant::now();
    let mut entries = 0;
    let mut n = 0;
    while entries < 10_000 {
        entries += turn(&mut w, n)?;
        n += 1;
    }
    let append = start.elapsed();
    let start = Instant::now();
    for _ in 0..100 {
        w.sync()?;
    }
    let sync = start.elapsed() / 100;
    let id = w.id().to_string();
    let size = std::fs::metadata(w.path())?.len();
    drop(w);
    println!(
        "append: {entries} entries in {append:?} = {:.1} µs/entry (file {:.1} MB); sync: {sync:?}",
        append.as_secs_f64() * 1e6 / entries as f64,
        size as f64 / 1e6
    );

    // Load.
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        let loaded = store.load(&id)?;
        let history = loaded.history();
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
        assert_eq!(loaded.entries.len(), entries);
        assert!(!history.is_empty());
    }
    println!("load + history of {entries} entries: {best:.1} ms (target < 50 ms)");

    // List.
    for s in 0..1_000 {
        let mut w = store.create(&meta)?;
        for t in 0..4 {
            turn(&mut w, s * 10 + t)?;
        }
    }
    let mut best = f64::MAX;
    let mut rows = 0;
    for _ in 0..5 {
        let start = Instant::now();
        rows = store.list(None).len();
        best = best.min(start.elapsed().as_secs_f64() * 1e3);
    }
    println!("list over {rows} sessions (20 entries each): {best:.1} ms (target < 200 ms)");
    let start = Instant::now();
    let hits = store.search("module 3992", &Default::default())?.len();
    println!(
        "search over {rows} sessions: {hits} hits in {:.1} ms",
        start.elapsed().as_secs_f64() * 1e3
    );
    Ok(())
}
