//! wright's terminal UI: an inline viewport above the terminal's own
//! scrollback, fed by the same core events as every other front end. It
//! depends on the protocol types only; the binary wires it to a session.

pub mod composer;
mod highlight;
mod markdown;
mod stream;
mod wrap;
