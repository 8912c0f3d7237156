//! Memory over a long transcript: 1,000 turns (a typed prompt, a tool call
//! with streamed output, a streamed markdown answer with a code block),
//! each finished row written to a counting terminal's scrollback and a frame
//! drawn every few deltas, as the terminal loop does. Prints the process's
//! resident memory every 100 turns: it should stay flat, since finished
//! cells go to the scrollback and are dropped. (The composer's prompt
//! history grows by one short line a turn, as it should.)
//!
//! Run with `cargo run --release -p wright-tui --example memory_bench`.

mod support;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use support::{Screen, answer_started, ev, rss_kib, text};
use wright_protocol::{
    EventKind, Item, ItemDelta, ItemKind, ToolCallStatus, ToolDisplay, TurnEndReason,
};
use wright_tui::App;
use wright_tui::host::Startup;

const TURNS: usize = 1000;

fn tool_item(id: &str, status: ToolCallStatus) -> Item {
    Item {
        id: id.to_owned(),
        kind: ItemKind::ToolCall {
            call_id: format!("call_{id}"),
            name: "Bash".to_owned(),
            tool_kind: None,
            touches: None,
            arguments: r#"{"command":"cargo test --workspace"}"#.to_owned(),
            status,
            output: Some("running 12 tests\ntest result: ok".to_owned()),
            display: Some(ToolDisplay {
                summary: "exit 0".to_owned(),
                exit_code: Some(0),
                duration_ms: 2100,
                ..ToolDisplay::default()
            }),
        },
    }
}

fn main() -> std::io::Result<()> {
    let answer = "Here is the **fix**, with `code` and a [link](https://example.com):\n\n- one item\n- two items 日本語 🎉\n\n```rust\nfn main() {\n    let v: Vec<u32> = (0..10).map(|i| i * 2).collect();\n    println!(\"{v:?}\");\n}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.\n";
    let chars: Vec<char> = answer.chars().collect();
    let deltas: Vec<String> = chars.chunks(4).map(|c| c.iter().collect()).collect();
    let mut app = App::new(
        Startup {
            model: "m".into(),
            mode: "default".into(),
            window: 200_000,
            ..Startup::default()
        },
        100,
    );
    wright_tui::terminal::warm_up();
    let mut screen = Screen::new(100, 40, 12)?;
    let start_rss = rss_kib();
    println!("turn    0: {start_rss} KiB");
    let mut samples = Vec::new();
    for turn in 1..=TURNS {
        app.set_now(std::time::Instant::now());
        for c in format!("please fix bug number {turn}").chars() {
            app.key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE));
        }
        app.key(KeyEvent::new(KeyCode::Enter, KeyModifiers::NONE));
        let _ = app.take_actions();
        app.input(ev(EventKind::TurnStarted));
        let tool = format!("t{turn}");
        app.input(ev(EventKind::ItemStarted {
            item: tool_item(&tool, ToolCallStatus::InProgress),
        }));
        for i in 0..20 {
            app.input(ev(EventKind::ItemDelta {
                item_id: tool.clone(),
                delta: ItemDelta::ToolOutput(format!("test case_{i} ... ok\n")),
            }));
        }
        screen.draw(&app)?;
        app.input(ev(EventKind::ItemCompleted {
            item: tool_item(&tool, ToolCallStatus::Completed),
        }));
        let id = format!("m{turn}");
        app.input(answer_started(&id));
        for (i, delta) in deltas.iter().enumerate() {
            app.input(text(&id, delta));
            if i.is_multiple_of(4) {
                screen.write_history(app.take_history())?;
                screen.draw(&app)?;
            }
        }
        app.input(ev(EventKind::ItemCompleted {
            item: Item {
                id: id.clone(),
                kind: ItemKind::AgentMessage {
                    text: answer.to_owned(),
                    stop_reason: None,
                },
            },
        }));
        app.input(ev(EventKind::TurnCompleted {
            reason: TurnEndReason::Completed,
            model_requests: 2,
            structured_output: None,
            structured_output_failed: false,
            plan: None,
        }));
        screen.write_history(app.take_history())?;
        screen.draw(&app)?;
        if turn.is_multiple_of(100) {
            let rss = rss_kib();
            samples.push(rss);
            println!("turn {turn:>4}: {rss} KiB");
        }
    }
    let first = samples.first().copied().unwrap_or(start_rss);
    let last = samples.last().copied().unwrap_or(start_rss);
    println!(
        "{TURNS} turns ({} messages), {:.1} MiB written to the scrollback; RSS from turn 100 to {TURNS}: {first} → {last} KiB ({:+} KiB)",
        TURNS * 2,
        screen.bytes() as f64 / 1024.0 / 1024.0,
        last as i64 - first as i64
    );
    Ok(())
}
