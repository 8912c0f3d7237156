//! What `--continue` / `--resume` tell the user on stderr: which session
//! they resumed (its short id, how long ago it was last written, its first
//! prompt) and its last exchange, so they know where they pick up.

use std::time::SystemTime;

use wright_protocol::{Message, Role};
use wright_store::{SessionWriter, UserTurn};

/// Longest prompt or answer shown, in characters.
const SHOWN_CHARS: usize = 300;

/// The note for a resumed session, or `None` when nothing was said in it.
pub fn note(
    writer: &SessionWriter,
    short_id: &str,
    turns: &[UserTurn],
    history: &[Message],
) -> Option<String> {
    let first = turns.first()?;
    let age = std::fs::metadata(writer.path())
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| SystemTime::now().duration_since(t).ok())
        .map_or_else(String::new, |d| {
            format!(", last used {} ago", age(d.as_secs()))
        });
    let mut out = format!(
        "resumed session {short_id}{age}, {} turn(s): {}",
        turns.len(),
        one_line(&first.text, 80)
    );
    if let Some(last) = turns.last() {
        out.push_str(&format!("\n  > {}", one_line(&last.text, SHOWN_CHARS)));
    }
    if let Some(answer) = history
        .iter()
        .rev()
        .find(|m| m.role == Role::Assistant && !m.text().trim().is_empty())
    {
        out.push_str(&format!("\n  {}", one_line(&answer.text(), SHOWN_CHARS)));
    }
    Some(out)
}

/// `secs` as the largest whole unit: `45s`, `12m`, `3h`, `2d`.
fn age(secs: u64) -> String {
    match secs {
        0..60 => format!("{secs}s"),
        60..3600 => format!("{}m", secs / 60),
        3600..86_400 => format!("{}h", secs / 3600),
        _ => format!("{}d", secs / 86_400),
    }
}

/// `text` on one line (whitespace runs become one space), cut to `max`
/// characters with an ellipsis.
fn one_line(text: &str, max: usize) -> String {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= max {
        return flat;
    }
    let mut cut: String = flat.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_and_lines() {
        assert_eq!(age(5), "5s");
        assert_eq!(age(125), "2m");
        assert_eq!(age(7200), "2h");
        assert_eq!(age(3 * 86_400 + 5), "3d");
        assert_eq!(one_line("a\n  b\tc", 10), "a b c");
        assert_eq!(one_line("abcdef", 4), "abc…");
    }
}
