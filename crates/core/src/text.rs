//! Bounds on text that reaches the model or the screen from outside the
//! model's own tools (hook reasons and context): a hook that prints
//! megabytes must not flood the conversation.

/// Most characters of one hook text kept.
const MAX_HOOK_TEXT: usize = 8_000;

/// `text`, cut to [`MAX_HOOK_TEXT`] characters with a note saying so.
pub(crate) fn cap_hook_text(text: &str) -> String {
    let total = text.chars().count();
    if total <= MAX_HOOK_TEXT {
        return text.to_owned();
    }
    let mut out: String = text.chars().take(MAX_HOOK_TEXT).collect();
    out.push_str(&format!(
        "\n[hook output cut: {} of {total} characters shown]",
        MAX_HOOK_TEXT
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_text_is_cut_with_a_note_and_short_text_kept() {
        assert_eq!(cap_hook_text("short"), "short");
        let long = "é".repeat(MAX_HOOK_TEXT + 10);
        let cut = cap_hook_text(&long);
        assert!(cut.starts_with(&"é".repeat(MAX_HOOK_TEXT)));
        assert!(cut.ends_with(&format!(
            "[hook output cut: {MAX_HOOK_TEXT} of {} characters shown]",
            MAX_HOOK_TEXT + 10
        )));
    }
}
