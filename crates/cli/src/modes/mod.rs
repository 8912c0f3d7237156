//! Front ends: print mode and the interactive line mode. Both only submit
//! ops and render events.

pub mod headless;
pub mod interactive;
pub mod print;
