//! Front ends: print mode, the interactive terminal UI and the line mode it
//! falls back to. All only submit ops and render events.

pub mod headless;
pub mod interactive;
mod line_ask;
pub mod print;
pub mod tui_composer;
pub mod tui_mode;
