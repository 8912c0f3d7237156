//! Conversation compaction as pure functions. The caller (core) decides when
//! to compact, asks the model for the summary with [`summary_request`], and
//! stores the result; nothing here does I/O.
//!
//! The steps: estimate the context ([`estimate_tokens`]), compare it with
//! the threshold ([`should_compact`]), clear old tool result bodies
//! ([`trim_old_tool_results`]), and if that is not enough pick a cut
//! ([`choose_cut`]), summarize `messages[..cut]`, and rebuild the
//! conversation ([`kept_messages`] then [`apply_summary`]).
//!
//! A cut may fall before a user prompt or before an assistant message, but
//! never before a tool-result message, and never between a call and its
//! result. A long single-prompt task is one user message followed by
//! hundreds of tool rounds, so cuts before assistant messages are what make
//! it compactable; the user's last prompt is then carried into the kept part
//! so the task is never lost.

use wright_protocol::{ContentBlock, Message, Role};

pub use crate::summary::{SUMMARY_SECTIONS, summary_request};

/// Default token budget of recent messages kept verbatim.
pub const DEFAULT_KEEP_RECENT_TOKENS: u64 = 20_000;

/// Characters an image is counted as (about 1,500 tokens).
pub const IMAGE_CHARS: usize = 6_000;

pub use wright_protocol::SUMMARY_MARKER;

const SUMMARY_INTRO: &str = "The earlier part of this conversation was compacted into the summary \
below to save context. The messages after it are verbatim. Continue the work from where it \
stopped; do not redo finished steps.";

const STUB_PREFIX: &str = "[wright: this tool result";

/// Characters a block is counted as for estimates.
pub fn block_chars(block: &ContentBlock) -> usize {
    match block {
        ContentBlock::Text { text } => text.chars().count(),
        ContentBlock::Image { .. } => IMAGE_CHARS,
        ContentBlock::Thinking {
            thinking,
            signature,
        } => thinking.chars().count() + signature.as_ref().map_or(0, String::len),
        ContentBlock::RedactedThinking { data } => data.len(),
        ContentBlock::Opaque { block, .. } => block.to_string().len(),
        ContentBlock::ToolCall {
            id,
            name,
            arguments,
        } => id.len() + name.len() + arguments.chars().count(),
        ContentBlock::ToolResult {
            call_id, content, ..
        } => call_id.len() + content.chars().count(),
    }
}

/// Characters a message is counted as.
pub fn message_chars(message: &Message) -> usize {
    message.content.iter().map(block_chars).sum()
}

fn chars_to_tokens(chars: usize) -> u64 {
    u64::try_from(chars.div_ceil(4)).unwrap_or(u64::MAX)
}

/// Tokens of the conversation: the last provider-reported input+output
/// usage (which covered `messages[..=index]`, system prompt and tools
/// included) plus chars/4 of the messages after it. Without a report, all
/// messages are estimated (the caller adds the system prompt and tools).
pub fn estimate_tokens(messages: &[Message], last_reported_usage: Option<(usize, u64)>) -> u64 {
    let (base, from) = match last_reported_usage {
        Some((index, tokens)) => (tokens, index.saturating_add(1)),
        None => (0, 0),
    };
    let chars: usize = messages.iter().skip(from).map(message_chars).sum();
    base.saturating_add(chars_to_tokens(chars))
}

/// Head room kept below the usable window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Margin {
    /// A percentage of the window (the default is 10).
    Percent(u8),
    /// A fixed number of tokens.
    Tokens(u64),
}

impl Default for Margin {
    fn default() -> Self {
        Self::Percent(10)
    }
}

/// The estimate above which to compact: window − reserved output − margin.
pub fn compaction_threshold(window: u64, reserved_output: u64, margin: Margin) -> u64 {
    let margin = match margin {
        Margin::Percent(p) => window / 100 * u64::from(p.min(100)),
        Margin::Tokens(t) => t,
    };
    window
        .saturating_sub(reserved_output)
        .saturating_sub(margin)
}

/// Whether `estimate` has passed the threshold.
pub fn should_compact(estimate: u64, window: u64, reserved_output: u64, margin: Margin) -> bool {
    estimate > compaction_threshold(window, reserved_output, margin)
}

/// A keep-recent budget that fits the window: the default 20k tokens, or a
/// quarter of a small window, so a compaction always frees room.
pub fn keep_recent_for_window(window: u64) -> u64 {
    DEFAULT_KEEP_RECENT_TOKENS.min(window / 4)
}

/// Replaces the bodies of tool results older than the most recent
/// `keep_recent_tokens` with a one-line stub (ids and error flags kept).
/// Returns the new messages and the tokens saved.
pub fn trim_old_tool_results(messages: &[Message], keep_recent_tokens: u64) -> (Vec<Message>, u64) {
    let mut out = messages.to_vec();
    let mut recent: u64 = 0;
    let mut saved_chars = 0;
    for message in out.iter_mut().rev() {
        recent = recent.saturating_add(chars_to_tokens(message_chars(message)));
        if recent <= keep_recent_tokens {
            continue;
        }
        for block in &mut message.content {
            if let ContentBlock::ToolResult { content, .. } = block {
                let stub = format!(
                    "{STUB_PREFIX} ({} characters) was cleared to save context; run the tool again if you need it]",
                    content.chars().count()
                );
                if !content.starts_with(STUB_PREFIX)
                    && content.chars().count() > stub.chars().count()
                {
                    saved_chars += content.chars().count() - stub.chars().count();
                    *content = stub;
                }
            }
        }
    }
    (out, u64::try_from(saved_chars / 4).unwrap_or(u64::MAX))
}

fn is_summary_block(block: &ContentBlock) -> bool {
    matches!(block, ContentBlock::Text { text } if text.starts_with(SUMMARY_MARKER))
}

/// Whether `message` is something the user typed: a user message with no
/// tool results and more than a summary.
pub fn is_user_prompt(message: &Message) -> bool {
    message.role == Role::User
        && !message
            .content
            .iter()
            .any(|b| matches!(b, ContentBlock::ToolResult { .. }))
        && message.content.iter().any(|b| !is_summary_block(b))
}

fn last_user_prompt(messages: &[Message]) -> Option<usize> {
    messages.iter().rposition(is_user_prompt)
}

/// Index where the kept suffix starts: the earliest allowed cut whose suffix
/// fits in `keep_recent_tokens`, or the latest allowed cut when none fits.
/// `0` means nothing can be summarized.
pub fn choose_cut(messages: &[Message], keep_recent_tokens: u64) -> usize {
    let n = messages.len();
    if n < 2 {
        return 0;
    }
    // blocked[c]: a cut at c would separate some call from its result.
    let mut blocked = vec![false; n + 1];
    for (ci, message) in messages.iter().enumerate() {
        for (id, _, _) in message.tool_calls() {
            let result = messages.iter().enumerate().skip(ci + 1).find(|(_, m)| {
                m.content
                    .iter()
                    .any(|b| matches!(b, ContentBlock::ToolResult { call_id, .. } if call_id == id))
            });
            if let Some((ri, _)) = result {
                blocked[ci + 1..=ri].iter_mut().for_each(|b| *b = true);
            }
        }
    }
    let last_prompt = last_user_prompt(messages);
    let allowed = |c: usize| {
        let m = &messages[c];
        !blocked[c]
            && (m.role == Role::Assistant || is_user_prompt(m))
            // Cutting only the prompt that would be carried over frees nothing.
            && !(c == 1 && last_prompt == Some(0))
    };
    let mut suffix_chars = vec![0usize; n + 1];
    for i in (0..n).rev() {
        suffix_chars[i] = suffix_chars[i + 1] + message_chars(&messages[i]);
    }
    let candidates: Vec<usize> = (1..n).filter(|c| allowed(*c)).collect();
    candidates
        .iter()
        .copied()
        .find(|c| chars_to_tokens(suffix_chars[*c]) <= keep_recent_tokens)
        .or_else(|| candidates.last().copied())
        .unwrap_or(0)
}

/// The messages kept after a cut: `messages[cut..]`, preceded by the user's
/// last prompt when it falls before the cut (without any old summary in
/// it, since the new summary covers that).
pub fn kept_messages(messages: &[Message], cut: usize) -> Vec<Message> {
    let cut = cut.min(messages.len());
    let mut kept = messages[cut..].to_vec();
    if let Some(last) = last_user_prompt(messages).filter(|l| *l < cut) {
        let mut pinned = messages[last].clone();
        pinned.content.retain(|b| !is_summary_block(b));
        kept.insert(0, pinned);
    }
    kept
}

/// The conversation after compaction: a user message carrying the summary
/// (marked with [`SUMMARY_MARKER`]) followed by the kept messages, with
/// adjacent messages of the same role merged so roles alternate.
pub fn apply_summary(summary_text: &str, kept: Vec<Message>) -> Vec<Message> {
    let mut out = vec![Message::user_text(format!(
        "{SUMMARY_MARKER}\n{SUMMARY_INTRO}\n\n{}",
        summary_text.trim()
    ))];
    for message in kept {
        match out.last_mut() {
            Some(last) if last.role == message.role => last.content.extend(message.content),
            _ => out.push(message),
        }
    }
    out
}

#[cfg(test)]
#[path = "compaction_tests.rs"]
mod tests;
