//! The terminal side: raw mode, bracketed paste, an inline viewport below
//! the shell's scrollback (no alternate screen), finished rows written
//! above it with `insert_before` (scrolling regions), and the loop that
//! feeds keys and host inputs to the [`App`]. On the way out, and from the
//! panic hook, the terminal is restored with the cursor on a clean line.

use std::io::{self, Stdout, Write};
use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use crossterm::event::{
    self, DisableBracketedPaste, EnableBracketedPaste, Event as TermEvent,
    KeyboardEnhancementFlags, PopKeyboardEnhancementFlags, PushKeyboardEnhancementFlags,
};
use crossterm::{execute, terminal};
use ratatui::backend::CrosstermBackend;
use ratatui::layout::Position;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use ratatui::{Terminal, TerminalOptions, Viewport};

use crate::app::App;
use crate::host::{Action, Input, Startup};
use crate::tty::{HANGUP_EXIT, TtyState, TtyWatch};

/// How often the screen is refreshed while a turn runs (the spinner).
const BUSY_FRAME: Duration = Duration::from_millis(16);
/// How long the loop waits for a key when nothing runs.
const IDLE_WAIT: Duration = Duration::from_millis(50);

/// Runs the UI until the user leaves; returns the exit code, which is
/// [`HANGUP_EXIT`] when the terminal went away. `inputs` brings core events
/// and host replies; `on_action` gets what the UI asks for.
pub fn run(
    startup: Startup,
    inputs: &Receiver<Input>,
    on_action: impl FnMut(Action),
    setup: impl FnOnce(&mut App),
) -> io::Result<u8> {
    install_panic_hook();
    warm_up();
    let tty = TtyWatch::new();
    let mut guard = RawMode::enter()?;
    let (width, _) = terminal::size()?;
    let mut app = App::new(startup, width);
    app.set_no_color(crate::no_color::requested());
    setup(&mut app);
    let mut screen = Screen::new(&app)?;
    let enhanced = guard.enhanced;
    match run_loop(&mut app, &mut screen, &tty, inputs, (enhanced, on_action)) {
        Ok(Some(code)) => match screen.leave() {
            Ok(()) => {
                guard.leave();
                Ok(code)
            }
            Err(e) if is_hangup(&e) => Ok(HANGUP_EXIT),
            Err(e) => Err(e),
        },
        // Nothing can be drawn or restored on a terminal that is gone;
        // `guard` still tries, and its failures are ignored.
        Ok(None) => Ok(HANGUP_EXIT),
        Err(e) if is_hangup(&e) || tty.is_gone() => Ok(HANGUP_EXIT),
        Err(e) => Err(e),
    }
}

/// The UI's loop: `Some(code)` when the user leaves, `None` when the
/// terminal went away.
fn run_loop(
    app: &mut App,
    screen: &mut Screen,
    tty: &TtyWatch,
    inputs: &Receiver<Input>,
    (enhanced, mut on_action): (bool, impl FnMut(Action)),
) -> io::Result<Option<u8>> {
    let mut last_draw = Instant::now() - BUSY_FRAME;
    let mut dirty = true;
    loop {
        // Host inputs first: they are already waiting.
        loop {
            match inputs.try_recv() {
                Ok(input) => {
                    app.set_now(Instant::now());
                    app.input(input);
                    dirty = true;
                }
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    app.input(Input::Closed);
                    dirty = true;
                    break;
                }
            }
        }
        // Each crossterm read is preceded by a look at the terminal: on a
        // hung-up one, crossterm's read would never return.
        loop {
            if tty.is_gone() {
                return Ok(None);
            }
            if !event::poll(Duration::ZERO)? {
                break;
            }
            app.set_now(Instant::now());
            match event::read()? {
                TermEvent::Key(key) => app.key(key),
                TermEvent::Paste(text) => app.paste(&text),
                TermEvent::Resize(w, _) => app.set_width(w),
                _ => {}
            }
            dirty = true;
        }
        app.set_now(Instant::now());
        // An `@path` popup fills in while the file index is being built.
        if app.composer_mut().tick() {
            dirty = true;
        }
        for action in app.take_actions() {
            on_action(action);
        }
        if let Some(text) = app.take_editor_request() {
            let result = crate::editor::edit(&text, enhanced);
            app.editor_done(result);
            // The editor drew over the viewport.
            screen.terminal.clear()?;
            dirty = true;
        }
        screen.write_history(app.take_history())?;
        if let Some(ring) = app.take_ring() {
            let mut out = io::stdout();
            out.write_all(ring.as_bytes())?;
            out.flush()?;
        }
        if let Some(code) = app.exit_code() {
            return Ok(Some(code));
        }
        let frame_due = app.busy() && last_draw.elapsed() >= Duration::from_millis(80);
        if dirty || frame_due {
            screen.draw(app)?;
            last_draw = Instant::now();
            // From here an open approval menu is on screen: its guard runs.
            app.frame_drawn(last_draw);
            dirty = false;
        }
        let wait = if app.busy() { BUSY_FRAME } else { IDLE_WAIT };
        // Wakes at once on a key; host inputs wait at most one frame.
        match tty.wait(wait) {
            TtyState::Gone => return Ok(None),
            TtyState::Unknown => {
                let _ = event::poll(wait)?;
            }
            TtyState::Ready | TtyState::Quiet => {}
        }
    }
}

/// Whether a terminal write or ioctl failed because the terminal is gone
/// (EIO; ENXIO where a revoked terminal reports that).
fn is_hangup(e: &io::Error) -> bool {
    #[cfg(unix)]
    {
        const EIO: i32 = 5;
        const ENXIO: i32 = 6;
        matches!(e.raw_os_error(), Some(EIO | ENXIO))
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

/// Starts loading what the first code block needs (syntaxes, theme) on a
/// background thread; [`run`] does this first thing.
pub fn warm_up() {
    crate::highlight::warm_up();
}

/// The viewport and its terminal.
struct Screen {
    terminal: Terminal<CrosstermBackend<Stdout>>,
    height: u16,
}

impl Screen {
    fn new(app: &App) -> io::Result<Self> {
        let (width, rows) = terminal::size()?;
        let height = app.desired_height(width).clamp(1, rows.max(1));
        let terminal = inline_terminal(height)?;
        Ok(Self { terminal, height })
    }

    /// Writes finished rows into the scrollback above the viewport.
    fn write_history(&mut self, rows: Vec<Line<'static>>) -> io::Result<()> {
        for chunk in rows.chunks(200) {
            let height = u16::try_from(chunk.len()).unwrap_or(u16::MAX);
            self.terminal.insert_before(height, |buf| {
                for (i, row) in chunk.iter().enumerate() {
                    let area = buf.area;
                    let y = area.y + u16::try_from(i).unwrap_or(0);
                    row.clone().render(
                        ratatui::layout::Rect {
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

    fn draw(&mut self, app: &App) -> io::Result<()> {
        let (width, rows) = terminal::size()?;
        let wanted = app.desired_height(width).clamp(1, rows.max(1));
        // Grows at once; shrinks when idle, so a streaming answer does not
        // make the viewport jump row by row.
        if wanted > self.height || (wanted < self.height && !app.busy()) {
            self.resize(wanted)?;
        }
        self.terminal.draw(|frame| {
            let area = frame.area();
            if let Some((x, y)) = app.render(area, frame.buffer_mut()) {
                frame.set_cursor_position(Position { x, y });
            }
        })?;
        Ok(())
    }

    /// A new viewport of `height` rows where the old one began.
    fn resize(&mut self, height: u16) -> io::Result<()> {
        let top = self.terminal.get_frame().area().y;
        self.terminal.clear()?;
        self.terminal
            .set_cursor_position(Position { x: 0, y: top })?;
        self.terminal = inline_terminal(height)?;
        self.height = height;
        Ok(())
    }

    /// Clears the live part, leaving the transcript and the cursor on a clean line.
    fn leave(&mut self) -> io::Result<()> {
        let top = self.terminal.get_frame().area().y;
        self.terminal.clear()?;
        self.terminal
            .set_cursor_position(Position { x: 0, y: top })?;
        self.terminal.show_cursor()?;
        self.terminal.backend_mut().flush()?;
        Ok(())
    }
}

fn inline_terminal(height: u16) -> io::Result<Terminal<CrosstermBackend<Stdout>>> {
    Terminal::with_options(
        CrosstermBackend::new(io::stdout()),
        TerminalOptions {
            viewport: Viewport::Inline(height),
        },
    )
}

/// Raw mode, bracketed paste and (where the terminal has it) unambiguous
/// key reporting, undone on drop.
struct RawMode {
    on: bool,
    enhanced: bool,
}

impl RawMode {
    fn enter() -> io::Result<Self> {
        terminal::enable_raw_mode()?;
        execute!(io::stdout(), EnableBracketedPaste)?;
        // Shift-Enter and Esc arrive unambiguously where supported.
        let enhanced = terminal::supports_keyboard_enhancement().unwrap_or(false);
        if enhanced {
            execute!(
                io::stdout(),
                PushKeyboardEnhancementFlags(KeyboardEnhancementFlags::DISAMBIGUATE_ESCAPE_CODES)
            )?;
        }
        Ok(Self { on: true, enhanced })
    }

    fn leave(&mut self) {
        if self.on {
            restore(self.enhanced);
            self.on = false;
        }
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        self.leave();
    }
}

fn restore(enhanced: bool) {
    let mut out = io::stdout();
    if enhanced {
        let _ = execute!(out, PopKeyboardEnhancementFlags);
    }
    let _ = execute!(out, DisableBracketedPaste, crossterm::cursor::Show);
    let _ = terminal::disable_raw_mode();
}

/// Restores the terminal before the panic message prints.
fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore(true);
        let _ = writeln!(io::stderr());
        previous(info);
    }));
}
