//! wright's terminal UI: an inline viewport above the terminal's own
//! scrollback, fed by the same core events as every other front end. It
//! depends on the protocol types only; the binary wires it to a session
//! through [`host`]'s messages and runs it with [`terminal::run`].

mod app;
mod approval;
mod ask_forms;
mod cells;
mod code;
pub mod composer;
mod diff;
mod editor;
mod highlight;
pub mod host;
mod items;
mod keys;
mod markdown;
pub mod no_color;
mod stream;
pub mod terminal;
pub mod tty;
mod view;
mod wrap;

pub use app::App;
pub use cells::{hides_text, strip_controls};
pub use keys::command_entries;
