//! Start-up notices and warnings said before a session exists. On a
//! person's terminal they go to stderr at once; in stream-json mode they
//! are held and written as `system` lines after the init line (see
//! `stream_json::lines::notice_line`), so a program reading the stream sees them
//! and stderr carries no plain text.

use std::io::Write as _;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};

static HOLD: AtomicBool = AtomicBool::new(false);
static HELD: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// From now on, hold notices for the stream instead of printing them.
pub fn hold_for_stream() {
    HOLD.store(true, Ordering::Relaxed);
}

/// Says `line` (a warning starts with `warning: `): now on stderr, or
/// later as a `system` line in stream-json mode.
pub fn say(line: &str) {
    if HOLD.load(Ordering::Relaxed)
        && let Ok(mut held) = HELD.lock()
    {
        held.push(line.to_owned());
        return;
    }
    eprintln!("{line}");
}

/// Whether notices are held for the stream (stream-json output).
pub fn holding() -> bool {
    HOLD.load(Ordering::Relaxed)
}

/// Says an error that ends the run before a session began (`error: ` is
/// added): on stderr, or, in stream-json mode, on stdout as `system`
/// lines, the held notices first and then the error (subtype `error`), so
/// a program reading the stream learns why and stderr stays empty.
pub fn fail(message: &str) {
    if !holding() {
        eprintln!("error: {message}");
        return;
    }
    let mut lines: Vec<serde_json::Value> = take()
        .iter()
        .map(|n| crate::stream_json::lines::notice_line("", n))
        .collect();
    lines.push(crate::stream_json::lines::system("", "error", message));
    let mut out = std::io::stdout().lock();
    for mut line in lines {
        crate::stream_json::lines::stamp(&mut line, "");
        // A closed stdout leaves nobody to tell.
        let _ = writeln!(out, "{line}");
    }
}

/// The held notices, oldest first, emptying the store.
pub fn take() -> Vec<String> {
    HELD.lock()
        .map(|mut h| std::mem::take(&mut *h))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn held_lines_come_back_once_in_order() {
        hold_for_stream();
        say("warning: a");
        say("b");
        assert_eq!(take(), ["warning: a", "b"]);
        assert!(take().is_empty());
    }
}
