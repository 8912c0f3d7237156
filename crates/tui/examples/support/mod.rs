//! What the benchmarks share: events, a terminal that draws the real
//! escape sequences into a byte counter (an inline viewport with history
//! inserted above it, as `terminal.rs` does), and the thread's CPU time and
//! the process's memory read from /proc.

#![allow(dead_code)]

use std::cell::Cell as Shared;
use std::io::{self, Write};
use std::rc::Rc;
use std::time::Duration;

use ratatui::backend::{Backend, ClearType, CrosstermBackend, WindowSize};
use ratatui::buffer::Cell;
use ratatui::layout::{Position, Rect, Size};
use ratatui::text::Line;
use ratatui::widgets::Widget;
use ratatui::{Terminal, TerminalOptions, Viewport};
use wright_protocol::{AgentPath, Event, EventKind, Item, ItemDelta, ItemKind};
use wright_tui::App;
use wright_tui::host::Input;

/// A root-agent event for the app.
pub fn ev(kind: EventKind) -> Input {
    Input::Core(Box::new(Event {
        session_id: "s".to_owned(),
        turn_id: 1,
        seq: 0,
        agent: AgentPath::root(),
        parent_tool_use_id: None,
        kind,
    }))
}

/// An answer item starting.
pub fn answer_started(id: &str) -> Input {
    ev(EventKind::ItemStarted {
        item: Item {
            id: id.to_owned(),
            kind: ItemKind::AgentMessage {
                text: String::new(),
                stop_reason: None,
            },
        },
    })
}

/// Text of an answer.
pub fn text(id: &str, delta: &str) -> Input {
    ev(EventKind::ItemDelta {
        item_id: id.to_owned(),
        delta: ItemDelta::Text(delta.to_owned()),
    })
}

/// Counts the bytes a terminal would receive.
#[derive(Default, Clone)]
pub struct Bytes(Rc<Shared<u64>>);

impl Write for Bytes {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.set(self.0.get() + buf.len() as u64);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// crossterm's backend writing into [`Bytes`], with a fixed screen size.
pub struct SinkBackend {
    inner: CrosstermBackend<Bytes>,
    written: Bytes,
    size: Size,
    cursor: Position,
}

impl SinkBackend {
    /// Bytes written so far.
    pub fn bytes(&self) -> u64 {
        self.written.0.get()
    }
}

impl Backend for SinkBackend {
    type Error = io::Error;

    fn draw<'a, I>(&mut self, content: I) -> io::Result<()>
    where
        I: Iterator<Item = (u16, u16, &'a Cell)>,
    {
        self.inner.draw(content)
    }

    fn append_lines(&mut self, n: u16) -> io::Result<()> {
        self.inner.append_lines(n)
    }

    fn hide_cursor(&mut self) -> io::Result<()> {
        self.inner.hide_cursor()
    }

    fn show_cursor(&mut self) -> io::Result<()> {
        self.inner.show_cursor()
    }

    fn get_cursor_position(&mut self) -> io::Result<Position> {
        Ok(self.cursor)
    }

    fn set_cursor_position<P: Into<Position>>(&mut self, position: P) -> io::Result<()> {
        self.cursor = position.into();
        self.inner.set_cursor_position(self.cursor)
    }

    fn clear(&mut self) -> io::Result<()> {
        self.inner.clear()
    }

    fn clear_region(&mut self, clear_type: ClearType) -> io::Result<()> {
        self.inner.clear_region(clear_type)
    }

    fn size(&self) -> io::Result<Size> {
        Ok(self.size)
    }

    fn window_size(&mut self) -> io::Result<WindowSize> {
        Ok(WindowSize {
            columns_rows: self.size,
            pixels: Size::default(),
        })
    }

    fn flush(&mut self) -> io::Result<()> {
        Backend::flush(&mut self.inner)
    }

    fn scroll_region_up(&mut self, region: std::ops::Range<u16>, by: u16) -> io::Result<()> {
        self.inner.scroll_region_up(region, by)
    }

    fn scroll_region_down(&mut self, region: std::ops::Range<u16>, by: u16) -> io::Result<()> {
        self.inner.scroll_region_down(region, by)
    }
}

/// An inline viewport of `height` rows at the bottom of a `width` ×
/// `rows` screen, drawn like the real one.
pub struct Screen {
    pub terminal: Terminal<SinkBackend>,
}

impl Screen {
    pub fn new(width: u16, rows: u16, height: u16) -> io::Result<Self> {
        let written = Bytes::default();
        let backend = SinkBackend {
            inner: CrosstermBackend::new(written.clone()),
            written,
            size: Size::new(width, rows),
            cursor: Position::new(0, rows.saturating_sub(1)),
        };
        let terminal = Terminal::with_options(
            backend,
            TerminalOptions {
                viewport: Viewport::Inline(height),
            },
        )?;
        Ok(Self { terminal })
    }

    /// Finished rows into the scrollback, as `terminal.rs` writes them.
    pub fn write_history(&mut self, rows: Vec<Line<'static>>) -> io::Result<()> {
        for chunk in rows.chunks(200) {
            let height = u16::try_from(chunk.len()).unwrap_or(u16::MAX);
            self.terminal.insert_before(height, |buf| {
                for (i, row) in chunk.iter().enumerate() {
                    let area = buf.area;
                    let y = area.y + u16::try_from(i).unwrap_or(0);
                    row.clone().render(
                        Rect {
                            y,
                            height: 1,
                            ..area
                        },
                        buf,
                    );
                }
            })?;
        }
        Ok(())
    }

    /// One frame of the live part.
    pub fn draw(&mut self, app: &App) -> io::Result<()> {
        let width = self.terminal.get_frame().area().width;
        let _ = app.desired_height(width);
        self.terminal.draw(|frame| {
            let area = frame.area();
            if let Some((x, y)) = app.render(area, frame.buffer_mut()) {
                frame.set_cursor_position(Position { x, y });
            }
        })?;
        Ok(())
    }

    /// Bytes sent to the terminal so far.
    pub fn bytes(&self) -> u64 {
        self.terminal.backend().bytes()
    }
}

/// CPU time this thread has used (from /proc/thread-self/schedstat).
pub fn thread_cpu() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or(Duration::ZERO, Duration::from_nanos)
}

/// The process's resident memory in KiB (VmRSS).
pub fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmRSS:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        })
        .unwrap_or(0)
}

/// The `q` quantile of sorted durations.
pub fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 * q) as usize).min(sorted.len() - 1);
    sorted[i]
}
