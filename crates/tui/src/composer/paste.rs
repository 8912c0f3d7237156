//! Bracketed pastes. A short paste goes into the text as typed; a long one
//! (more than [`COLLAPSE_LINES`] lines or [`COLLAPSE_CHARS`] chars) shows
//! as a label like `[pasted 120 lines]` and is swapped back for the whole
//! text when the prompt is submitted. Labels are unique within a prompt,
//! so two pastes of the same size stay apart.

/// A paste with more lines than this is collapsed.
pub(crate) const COLLAPSE_LINES: usize = 5;
/// A paste with more chars than this is collapsed.
pub(crate) const COLLAPSE_CHARS: usize = 1000;

/// Makes pasted or typed text safe to show: line ends become `\n`, tabs
/// four spaces, and other control characters are dropped (they would
/// move the terminal's cursor or have no width).
pub(crate) fn sanitize(text: &str) -> String {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push_str("    "),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

/// The collapsed pastes of the prompt being written.
#[derive(Debug, Default)]
pub(crate) struct Pastes {
    items: Vec<(String, String)>,
}

impl Pastes {
    /// The label to insert for `content` (already sanitized), or `None`
    /// when it is short enough to insert as is.
    pub(crate) fn collapse(&mut self, content: &str) -> Option<String> {
        let lines = content.lines().count();
        let chars = content.chars().count();
        if lines <= COLLAPSE_LINES && chars <= COLLAPSE_CHARS {
            return None;
        }
        let base = if lines > 1 {
            format!("pasted {lines} lines")
        } else {
            format!("pasted {chars} chars")
        };
        let mut label = format!("[{base}]");
        let mut n = 1;
        while self.items.iter().any(|(l, _)| *l == label) {
            n += 1;
            label = format!("[{base} #{n}]");
        }
        self.items.push((label.clone(), content.to_owned()));
        Some(label)
    }

    /// The labels, for the text buffer's atoms.
    pub(crate) fn labels(&self) -> Vec<String> {
        self.items.iter().map(|(l, _)| l.clone()).collect()
    }

    /// `text` with the first occurrence of each label replaced by its
    /// paste. Labels the user deleted are simply absent.
    pub(crate) fn expand(&self, text: &str) -> String {
        let mut spots: Vec<(usize, &str, &str)> = self
            .items
            .iter()
            .filter_map(|(label, content)| {
                text.find(label.as_str())
                    .map(|i| (i, label.as_str(), content.as_str()))
            })
            .collect();
        spots.sort_by_key(|(i, ..)| *i);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (i, label, content) in spots {
            if i < at {
                continue;
            }
            out.push_str(&text[at..i]);
            out.push_str(content);
            at = i + label.len();
        }
        out.push_str(&text[at..]);
        out
    }

    /// Forgets every paste (after a submit).
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_pastes_are_not_collapsed() {
        let mut p = Pastes::default();
        assert_eq!(p.collapse("a\nb\nc\nd\ne"), None);
        assert_eq!(p.collapse(&"x".repeat(COLLAPSE_CHARS)), None);
    }

    #[test]
    fn long_pastes_get_unique_labels_and_expand_back() {
        let mut p = Pastes::default();
        let trace = (0..120).map(|i| format!("line {i}\n")).collect::<String>();
        let a = p.collapse(&trace).unwrap();
        let b = p.collapse(&trace).unwrap();
        let c = p.collapse(&"y".repeat(1500)).unwrap();
        assert_eq!(a, "[pasted 120 lines]");
        assert_eq!(b, "[pasted 120 lines #2]");
        assert_eq!(c, "[pasted 1500 chars]");
        let text = format!("see {b} and {a}!");
        assert_eq!(p.expand(&text), format!("see {trace} and {trace}!"));
        assert_eq!(p.expand("labels deleted"), "labels deleted");
    }

    #[test]
    fn sanitize_normalizes_line_ends_and_drops_controls() {
        assert_eq!(sanitize("a\r\nb\rc\td\u{1b}[31m\u{7}"), "a\nb\nc    d[31m");
    }
}
