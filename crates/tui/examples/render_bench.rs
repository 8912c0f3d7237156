//! Frame cost while streaming markdown, measured three ways on one long
//! answer (prose, lists, tables, emoji and 60-line code blocks):
//!
//! 1. paced: 200 tokens/s (a token is ~4 characters) with a frame at most
//!    every 16 ms, as the terminal loop draws: each frame takes the deltas
//!    that arrived, writes finished rows to the scrollback and draws the
//!    live part through crossterm into a byte counter. Reports each frame's
//!    time and this thread's CPU time over the answer's streaming time;
//! 2. keys: during (1), a key every 10th frame, timed from the key to its
//!    frame drawn (the loop wakes at once on a key);
//! 3. every delta drawn (the worst case: no frame cap), into a buffer.
//!
//! Run with `cargo run --release -p wright-tui --example render_bench [SECTIONS]`.
//! Numbers and history: bench/README.md (TUI section).

mod support;

use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use support::{Screen, answer_started, ev, quantile, text, thread_cpu};
use wright_protocol::EventKind;
use wright_tui::App;
use wright_tui::host::Startup;

const WIDTH: u16 = 100;
const HEIGHT: u16 = 30;
/// A delta every 5 ms: 200 tokens/s.
const DELTA_EVERY: Duration = Duration::from_millis(5);
const FRAME: Duration = Duration::from_millis(16);

/// The answer: `sections` sections, every other one with a 60-line listing.
fn document(sections: usize) -> String {
    let section = "## Step\n\nThe **parser** reads `tokens` one at a time and keeps a *stack* of open blocks; see [the docs](https://example.com) for more. 日本語 and emoji 🎉 are measured too.\n\n- first item with some words\n- second item with `code`\n  1. nested\n\n```rust\nfn main() {\n    let v: Vec<u32> = (0..10).map(|i| i * 2).collect();\n    println!(\"{v:?}\");\n}\n```\n\n| name | value |\n|---|---:|\n| a | 1 |\n| b | 22 |\n\n> a quote to finish\n\n";
    let mut code =
        String::from("```rust\n/// A longer listing, as an answer that writes a file shows.\n");
    for i in 0..58 {
        code.push_str(&format!(
            "    let value_{i} = compute(\"item {i}\", &table[{i}..]).unwrap_or_default(); // step {i}\n"
        ));
    }
    code.push_str("```\n\n");
    let mut doc = String::new();
    for i in 0..sections {
        doc.push_str(section);
        if i % 2 == 0 {
            doc.push_str(&code);
        }
    }
    doc
}

fn new_app() -> App {
    let mut app = App::new(
        Startup {
            model: "m".into(),
            mode: "default".into(),
            window: 200_000,
            ..Startup::default()
        },
        WIDTH,
    );
    app.input(ev(EventKind::TurnStarted));
    app.input(answer_started("m1"));
    app
}

fn deltas(doc: &str) -> Vec<String> {
    let chars: Vec<char> = doc.chars().collect();
    chars.chunks(4).map(|c| c.iter().collect()).collect()
}

fn report(label: &str, sorted: &[Duration]) {
    let n = sorted.len().max(1);
    let mean = sorted.iter().sum::<Duration>() / u32::try_from(n).unwrap_or(1);
    println!(
        "{label}: n {}, mean {mean:.2?}, p50 {:.2?}, p99 {:.2?}, max {:.2?}",
        sorted.len(),
        quantile(sorted, 0.5),
        quantile(sorted, 0.99),
        quantile(sorted, 1.0)
    );
}

fn main() -> std::io::Result<()> {
    // The number of sections (40 by default) is the first argument.
    let sections = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(40);
    let doc = document(sections);
    let deltas = deltas(&doc);
    println!(
        "answer: {} bytes in {} deltas (~1 token each), {WIDTH}x{HEIGHT}",
        doc.len(),
        deltas.len()
    );

    // As the terminal loop does at start; the answer comes later.
    wright_tui::terminal::warm_up();
    std::thread::sleep(Duration::from_millis(500));

    // 1 and 2: paced, frame-capped, keys now and then.
    let mut app = new_app();
    let mut screen = Screen::new(WIDTH, 40, HEIGHT)?;
    let mut frames = Vec::new();
    let mut keys = Vec::new();
    let mut next = 0usize;
    let mut frame_no = 0u32;
    let cpu0 = thread_cpu();
    let wall0 = Instant::now();
    while next < deltas.len() {
        frame_no += 1;
        let due = ((FRAME * frame_no).as_micros() / DELTA_EVERY.as_micros()) as usize;
        let start = Instant::now();
        app.set_now(start);
        while next < deltas.len().min(due) {
            app.input(text("m1", &deltas[next]));
            next += 1;
        }
        screen.write_history(app.take_history())?;
        screen.draw(&app)?;
        frames.push(start.elapsed());
        if frame_no.is_multiple_of(10) {
            let code = if frame_no.is_multiple_of(20) {
                KeyCode::Backspace
            } else {
                KeyCode::Char('x')
            };
            let start = Instant::now();
            app.key(KeyEvent::new(code, KeyModifiers::NONE));
            screen.draw(&app)?;
            keys.push(start.elapsed());
        }
    }
    let cpu = thread_cpu().saturating_sub(cpu0);
    let wall = wall0.elapsed();
    let streamed = DELTA_EVERY * u32::try_from(deltas.len()).unwrap_or(u32::MAX);
    frames.sort();
    keys.sort();
    report("paced frame (deltas + scrollback + draw), wall", &frames);
    report("key to its frame drawn", &keys);
    // The thread's CPU clock moves in scheduler ticks: only its total is exact.
    println!(
        "at 200 tokens/s: {:.2}% of one core ({cpu:.2?} CPU, {:.0?} a frame, {wall:.2?} wall, for {streamed:.1?} of streaming), {:.1} KiB/s to the terminal",
        cpu.as_secs_f64() / streamed.as_secs_f64() * 100.0,
        cpu / u32::try_from(frames.len().max(1)).unwrap_or(1),
        screen.bytes() as f64 / 1024.0 / streamed.as_secs_f64()
    );

    // 3: every delta drawn.
    let mut app = new_app();
    let mut each = Vec::new();
    let area = Rect::new(0, 0, WIDTH, HEIGHT);
    for delta in &deltas {
        let start = Instant::now();
        app.set_now(start);
        app.input(text("m1", delta));
        let _ = app.take_history();
        let h = app.desired_height(WIDTH).min(HEIGHT);
        let mut buf = Buffer::empty(Rect { height: h, ..area });
        let _ = app.render(buf.area, &mut buf);
        each.push(start.elapsed());
    }
    each.sort();
    report("every delta drawn (no frame cap)", &each);
    Ok(())
}
