//! Frame cost while streaming markdown: feeds a long answer in small deltas
//! (about one token each) to the app and draws the live part after each,
//! as the UI does at most once a frame. Run with
//! `cargo run --release -p wright-tui --example render_bench`.

use std::time::{Duration, Instant};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use wright_protocol::{AgentPath, Event, EventKind, Item, ItemDelta, ItemKind};
use wright_tui::App;
use wright_tui::host::{Input, Startup};

fn ev(kind: EventKind) -> Input {
    Input::Core(Box::new(Event {
        session_id: "s".to_owned(),
        turn_id: 1,
        seq: 0,
        agent: AgentPath::root(),
        parent_tool_use_id: None,
        kind,
    }))
}

fn main() {
    let section = "## Step\n\nThe **parser** reads `tokens` one at a time and keeps a *stack* of open blocks; see [the docs](https://example.com) for more. 日本語 and emoji 🎉 are measured too.\n\n- first item with some words\n- second item with `code`\n  1. nested\n\n```rust\nfn main() {\n    let v: Vec<u32> = (0..10).map(|i| i * 2).collect();\n    println!(\"{v:?}\");\n}\n```\n\n| name | value |\n|---|---:|\n| a | 1 |\n| b | 22 |\n\n> a quote to finish\n\n";
    let doc = section.repeat(40);
    let (width, height) = (100u16, 30u16);
    let mut app = App::new(
        Startup {
            model: "m".into(),
            mode: "default".into(),
            window: 200_000,
            ..Startup::default()
        },
        width,
    );
    app.input(ev(EventKind::TurnStarted));
    app.input(ev(EventKind::ItemStarted {
        item: Item {
            id: "m1".into(),
            kind: ItemKind::AgentMessage {
                text: String::new(),
                stop_reason: None,
            },
        },
    }));
    let chars: Vec<char> = doc.chars().collect();
    let mut frames = Vec::new();
    let mut rows = 0usize;
    let area = Rect::new(0, 0, width, height);
    for piece in chars.chunks(4) {
        let delta: String = piece.iter().collect();
        let start = Instant::now();
        app.set_now(Instant::now());
        app.input(ev(EventKind::ItemDelta {
            item_id: "m1".into(),
            delta: ItemDelta::Text(delta),
        }));
        rows += app.take_history().len();
        let h = app.desired_height(width).min(height);
        let mut buf = Buffer::empty(Rect { height: h, ..area });
        let _ = app.render(buf.area, &mut buf);
        frames.push(start.elapsed());
    }
    frames.sort();
    let total: Duration = frames.iter().sum();
    let n = frames.len();
    let mean = total / u32::try_from(n).unwrap_or(1);
    let p = |q: f64| frames[((n as f64 * q) as usize).min(n - 1)];
    println!(
        "{} deltas (~1 token each), {} bytes, {rows} rows committed",
        n,
        doc.len()
    );
    println!(
        "per delta + frame: mean {mean:?}, p50 {:?}, p99 {:?}, max {:?}",
        p(0.5),
        p(0.99),
        p(1.0)
    );
    // At 200 tokens/s a delta arrives every 5 ms; frames are drawn at most 60/s.
    let busy = mean.as_secs_f64() * 200.0;
    println!(
        "at 200 tokens/s (every delta drawn): {:.1}% of one core",
        busy * 100.0
    );
}
