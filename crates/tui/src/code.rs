//! The rows of fenced code blocks, kept while a block streams. A streaming
//! answer re-renders its open markdown block as text arrives; without this,
//! every frame would re-highlight and re-wrap the whole open code block.
//! Each cached block remembers the source of its complete lines, the
//! syntect state after them and their wrapped rows, so a render only
//! highlights the lines that completed since, plus the unfinished last one
//! (from a copy of the state). The rows are the same as rendering from
//! scratch: an entry is reused only for code that extends what it saw.

use ratatui::text::{Line, Span};

use crate::highlight::LineHighlighter;
use crate::wrap::wrap;

/// Entries not used for this many renders are dropped.
const KEEP_RENDERS: u64 = 2;

/// Cached code blocks of one streaming markdown block.
#[derive(Debug, Default)]
pub struct CodeCache {
    entries: Vec<Entry>,
    /// Counts renders, to spot entries no render uses any more.
    generation: u64,
}

#[derive(Debug)]
struct Entry {
    lang: String,
    width: u16,
    /// The continuation prefix (block quote bars, list indents).
    indent: Vec<Span<'static>>,
    /// Source of the complete lines seen so far.
    done: String,
    highlighter: LineHighlighter,
    /// Wrapped rows of those lines.
    rows: Vec<Line<'static>>,
    /// The render that last used it.
    used: u64,
}

impl CodeCache {
    /// Starts a render of the block: every entry may be claimed once again.
    pub fn begin(&mut self) {
        self.generation += 1;
        let oldest = self.generation.saturating_sub(KEEP_RENDERS);
        self.entries.retain(|e| e.used >= oldest);
    }

    /// Forgets every block (the markdown block they were in is finished).
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The rows of code block `code` (fence info `lang`), each line shown
    /// as `indent`, two spaces and the highlighted line, wrapped to `width`
    /// with `indent` on continuation rows: the complete lines' rows
    /// (cached), then the unfinished last line's.
    pub fn rows(
        &mut self,
        lang: &str,
        code: &str,
        width: u16,
        indent: &[Span<'static>],
    ) -> (&[Line<'static>], Vec<Line<'static>>) {
        let generation = self.generation;
        let found = self.entries.iter().position(|e| {
            e.used != generation
                && e.width == width
                && e.lang == lang
                && e.indent == indent
                && code.starts_with(e.done.as_str())
        });
        let index = match found {
            Some(i) => i,
            None => {
                self.entries.push(Entry {
                    lang: lang.to_owned(),
                    width,
                    indent: indent.to_vec(),
                    done: String::new(),
                    highlighter: LineHighlighter::new(lang),
                    rows: Vec::new(),
                    used: generation,
                });
                self.entries.len() - 1
            }
        };
        let Some(entry) = self.entries.get_mut(index) else {
            return (&[], Vec::new());
        };
        entry.used = generation;
        let complete = code.rfind('\n').map_or(0, |i| i + 1);
        let new = code.get(entry.done.len()..complete).unwrap_or_default();
        for line in syntect::util::LinesWithEndings::from(new) {
            let row = entry.highlighter.line(line);
            entry.rows.extend(layout(row, width, indent));
        }
        entry.done.push_str(new);
        let partial = code.get(complete..).unwrap_or_default();
        let tail = if partial.is_empty() {
            Vec::new()
        } else {
            layout(entry.highlighter.peek(partial), width, indent)
        };
        (&entry.rows, tail)
    }
}

/// One highlighted line as rows: indented by two columns past `indent`.
fn layout(line: Line<'static>, width: u16, indent: &[Span<'static>]) -> Vec<Line<'static>> {
    let mut spans = indent.to_vec();
    spans.push(Span::raw("  "));
    spans.extend(line.spans);
    wrap(Line::from(spans), width, indent)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::highlight::highlight;

    fn all_at_once(
        lang: &str,
        code: &str,
        width: u16,
        indent: &[Span<'static>],
    ) -> Vec<Line<'static>> {
        highlight(lang, code)
            .into_iter()
            .flat_map(|l| layout(l, width, indent))
            .collect()
    }

    #[test]
    fn growing_code_gives_the_rows_of_a_fresh_render() {
        let code =
            "def f(x):\n    return \"a long string that wraps past the edge\" # c\n\nprint(f(1))\n";
        let indent = [Span::raw("│ ")];
        let mut cache = CodeCache::default();
        for end in (0..=code.len()).filter(|&i| code.is_char_boundary(i)) {
            cache.begin();
            let (done, tail) = cache.rows("py", &code[..end], 24, &indent);
            let mut got = done.to_vec();
            got.extend(tail);
            assert_eq!(
                got,
                all_at_once("py", &code[..end], 24, &indent),
                "at {end}"
            );
        }
        // One entry served every render.
        assert_eq!(cache.entries.len(), 1);
    }

    #[test]
    fn changed_code_or_width_starts_again() {
        let mut cache = CodeCache::default();
        cache.begin();
        let _ = cache.rows("rust", "let a = 1;\n", 40, &[]);
        cache.begin();
        let (done, _) = cache.rows("rust", "let b = 2;\n", 40, &[]);
        assert_eq!(done.to_vec(), all_at_once("rust", "let b = 2;\n", 40, &[]));
        cache.begin();
        let (done, _) = cache.rows("rust", "let b = 2;\n", 8, &[]);
        assert_eq!(done.to_vec(), all_at_once("rust", "let b = 2;\n", 8, &[]));
        // Two identical blocks in one render get an entry each.
        cache.begin();
        let first = cache.rows("rust", "x\n", 40, &[]).0.len();
        let second = cache.rows("rust", "x\n", 40, &[]).0.len();
        assert_eq!((first, second), (1, 1));
        // Entries no render asks for go.
        cache.begin();
        cache.begin();
        cache.begin();
        assert!(cache.entries.is_empty());
    }
}
