//! Cutting text down to what the model may see: by lines and by bytes,
//! keeping the head (or head and tail), with a note saying what was cut.
//! Cuts never split a UTF-8 character.

/// Which parts of an over-long text to keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// The beginning; the note goes at the end.
    Head,
    /// The beginning and the end, split evenly; the note goes in the middle.
    /// Best for command output, where errors and summaries come last.
    HeadTail,
}

/// The outcome of a truncation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Truncated {
    /// The text to send, including the note when something was cut.
    pub text: String,
    /// Lines (newline-terminated or not) that were cut, whole or in part.
    pub omitted_lines: usize,
    /// Bytes that were cut.
    pub omitted_bytes: usize,
}

impl Truncated {
    /// Whether anything was cut.
    pub fn was_truncated(&self) -> bool {
        self.omitted_bytes > 0
    }
}

/// Cuts `text` to at most `max_lines` lines and `max_bytes` bytes (plus the
/// note), keeping the parts `keep` names.
pub fn truncate(text: &str, max_lines: usize, max_bytes: usize, keep: Keep) -> Truncated {
    let starts = line_starts(text);
    if starts.len() <= max_lines && text.len() <= max_bytes {
        return Truncated {
            text: text.to_owned(),
            omitted_lines: 0,
            omitted_bytes: 0,
        };
    }
    let (head_lines, head_bytes) = match keep {
        Keep::Head => (max_lines, max_bytes),
        Keep::HeadTail => (max_lines.div_ceil(2), max_bytes.div_ceil(2)),
    };
    let head_end = head_end(text, &starts, head_lines, head_bytes);
    let tail_start = match keep {
        Keep::Head => text.len(),
        Keep::HeadTail => {
            let used_lines = text[..head_end].lines().count();
            tail_start(
                text,
                &starts,
                head_end,
                max_lines.saturating_sub(used_lines),
                max_bytes.saturating_sub(head_end),
            )
        }
    };
    let omitted = &text[head_end..tail_start];
    let omitted_lines = count_lines(omitted);
    let mut out = String::with_capacity(head_end + (text.len() - tail_start) + 80);
    out.push_str(&text[..head_end]);
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    let where_ = match keep {
        Keep::Head => "",
        Keep::HeadTail => " from the middle",
    };
    out.push_str(&format!(
        "[... {omitted_lines} lines ({} bytes) cut{where_} ...]\n",
        omitted.len()
    ));
    out.push_str(&text[tail_start..]);
    Truncated {
        text: out,
        omitted_lines,
        omitted_bytes: omitted.len(),
    }
}

/// Convenience: [`truncate`] with the limits of a [`crate::ToolContext`].
pub fn with_limits(text: &str, limits: &crate::OutputLimits, keep: Keep) -> Truncated {
    truncate(text, limits.max_lines, limits.max_bytes, keep)
}

/// Byte offsets where lines begin; a trailing newline does not start a line.
fn line_starts(text: &str) -> Vec<usize> {
    let mut starts = Vec::new();
    if !text.is_empty() {
        starts.push(0);
    }
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' && i + 1 < text.len() {
            starts.push(i + 1);
        }
    }
    starts
}

fn line_end(text: &str, starts: &[usize], i: usize) -> usize {
    starts.get(i + 1).copied().unwrap_or(text.len())
}

fn head_end(text: &str, starts: &[usize], max_lines: usize, max_bytes: usize) -> usize {
    let mut end = 0;
    for i in 0..starts.len().min(max_lines) {
        let next = line_end(text, starts, i);
        if next > max_bytes {
            // A partial line is still better than nothing for a huge first line.
            return if end == 0 {
                text.floor_char_boundary(max_bytes)
            } else {
                end
            };
        }
        end = next;
    }
    end
}

fn tail_start(
    text: &str,
    starts: &[usize],
    floor: usize,
    max_lines: usize,
    max_bytes: usize,
) -> usize {
    let mut start = text.len();
    for (taken, &line_start) in starts.iter().rev().enumerate() {
        if taken >= max_lines || line_start < floor {
            break;
        }
        if text.len() - line_start > max_bytes {
            let cut = text.ceil_char_boundary(text.len() - max_bytes).max(floor);
            return if taken == 0 { cut } else { start };
        }
        start = line_start;
    }
    start
}

/// Lines touched by the cut region, counting a partially cut line once.
fn count_lines(omitted: &str) -> usize {
    if omitted.is_empty() {
        return 0;
    }
    let newlines = omitted.bytes().filter(|&b| b == b'\n').count();
    newlines + usize::from(!omitted.ends_with('\n'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(n: usize) -> String {
        (1..=n).map(|i| format!("line {i}\n")).collect()
    }

    #[test]
    fn short_text_is_untouched() {
        let t = truncate("a\nb\n", 10, 100, Keep::HeadTail);
        assert_eq!(t.text, "a\nb\n");
        assert!(!t.was_truncated());
    }

    #[test]
    fn head_tail_by_lines() {
        let t = truncate(&lines(100), 10, 10_000, Keep::HeadTail);
        assert!(t.text.starts_with("line 1\n"));
        assert!(t.text.contains("line 5\n"));
        assert!(!t.text.contains("line 6\n"));
        assert!(t.text.contains("line 96\n"));
        assert!(t.text.ends_with("line 100\n"));
        assert_eq!(t.omitted_lines, 90);
        assert!(t.text.contains("[... 90 lines"), "{}", t.text);
    }

    #[test]
    fn head_by_lines() {
        let t = truncate(&lines(100), 10, 10_000, Keep::Head);
        assert!(t.text.contains("line 10\n"));
        assert!(!t.text.contains("line 11\n"));
        assert!(t.text.ends_with("cut ...]\n"));
        assert_eq!(t.omitted_lines, 90);
    }

    #[test]
    fn by_bytes() {
        let text = lines(1000);
        let t = truncate(&text, 100_000, 200, Keep::HeadTail);
        assert!(t.was_truncated());
        let note_len = t
            .text
            .lines()
            .find(|l| l.starts_with("[..."))
            .map_or(0, str::len);
        assert!(t.text.len() <= 200 + note_len + 2);
        assert_eq!(t.omitted_bytes + t.text.len() - note_len - 1, text.len());
    }

    #[test]
    fn one_huge_line_is_cut_on_char_boundary() {
        let text = "é".repeat(1000);
        for keep in [Keep::Head, Keep::HeadTail] {
            let t = truncate(&text, 10, 101, keep);
            assert!(t.was_truncated());
            assert!(t.text.len() < 200);
            assert_eq!(t.omitted_lines, 1);
        }
    }

    #[test]
    fn multibyte_never_split() {
        let text = "日本語テキスト\n".repeat(500);
        for max in [1, 7, 33, 100, 1001] {
            let t = truncate(&text, 1000, max, Keep::HeadTail);
            assert!(t.text.contains("cut"));
            let t = truncate(&text, 1000, max, Keep::Head);
            assert!(t.text.contains("cut"));
        }
    }

    proptest::proptest! {
        #[test]
        fn never_panics_and_respects_lines(s in "(\\PC{0,20}\n?){0,50}", ml in 1usize..20, mb in 1usize..300) {
            let t = truncate(&s, ml, mb, Keep::HeadTail);
            // Kept lines plus the one note line stay within the line budget + 1.
            proptest::prop_assert!(t.text.lines().count() <= ml + 2);
            let t = truncate(&s, ml, mb, Keep::Head);
            proptest::prop_assert!(t.text.lines().count() <= ml + 2);
        }
    }
}
