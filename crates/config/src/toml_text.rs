//! How keys and strings are written in TOML when wright shows or writes
//! them: a basic string with everything that needs it escaped, and a key
//! segment bare when it can be. Below every module that prints config.

use std::fmt::Write as _;

/// A TOML basic string with every character that needs it escaped.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Invisible bidi and zero-width characters too: a command shown
            // to the user for trust must read as what it runs.
            c if c.is_control()
                || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}') =>
            {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// `models.<name>` with the name quoted when it is not a bare TOML key.
pub(crate) fn model_key(name: &str) -> String {
    format!("models.{}", key_segment(name))
}

/// A key segment as TOML would need it written: bare when it can be.
pub(crate) fn key_segment(name: &str) -> String {
    let bare = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if bare { name.to_owned() } else { quote(name) }
}
