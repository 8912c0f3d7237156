//! Drawing the composer: the `› ` prompt and the wrapped input (at most
//! [`MAX_INPUT_ROWS`] rows, scrolled to keep the cursor in view), then the
//! Ctrl-R search line or the completion popup below it. Every size down
//! to one cell draws without panicking: the input gets the first row,
//! the popup what is left.

use std::ops::Range;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};

use super::Composer;
use super::wrap;

/// Input rows shown at most; a taller prompt scrolls.
pub const MAX_INPUT_ROWS: usize = 10;

/// The prompt marker on the first input row.
const PROMPT: &str = "› ";
/// Cells the prompt (and the indent of later rows) takes.
const INDENT: u16 = 2;

/// Where everything goes for one frame.
struct View {
    rows: Vec<Range<usize>>,
    /// Cursor row (among all rows) and column.
    cursor: (usize, usize),
    /// First row shown.
    top: usize,
    /// Rows given to the input and to what is below it.
    input_h: u16,
    extra_h: u16,
}

fn text_width(width: u16) -> u16 {
    width.saturating_sub(INDENT).max(1)
}

fn to_u16(n: usize) -> u16 {
    u16::try_from(n).unwrap_or(u16::MAX)
}

impl Composer {
    /// Rows the composer wants at this width (input plus any popup).
    pub fn desired_height(&self, width: u16) -> u16 {
        let width = text_width(width);
        self.width.set(width);
        let rows = self.rows(width).len();
        to_u16(rows.min(MAX_INPUT_ROWS) + self.extra_rows())
    }

    /// Draws the composer into `area`.
    pub fn render(&self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let view = self.view(area);
        let text = self.editor.text();
        let highlights = self.highlights();
        let shown = view.rows.iter().enumerate().skip(view.top);
        // A `!command` runs in the shell: the prompt says so by its colour.
        let mut prompt_style = Style::default().add_modifier(Modifier::BOLD);
        if text.starts_with('!') {
            prompt_style = prompt_style.fg(Color::Magenta);
        }
        for (y, (i, row)) in (area.y..area.y + view.input_h).zip(shown) {
            let prefix = if i == 0 { PROMPT } else { "  " };
            buf.set_stringn(area.x, y, prefix, usize::from(area.width), prompt_style);
            draw_row(text, row, &highlights, area, y, buf);
        }
        let x = area.x.saturating_add(INDENT);
        if text.is_empty() && self.search.is_none() && x < area.right() {
            let dim = Style::default().add_modifier(Modifier::DIM);
            let room = usize::from(area.right() - x);
            buf.set_stringn(x, area.y, &self.placeholder, room, dim);
        }
        if view.extra_h == 0 {
            return;
        }
        let below = Rect {
            y: area.y + view.input_h,
            height: view.extra_h,
            ..area
        };
        if let Some(search) = &self.search {
            let style = Style::default().add_modifier(Modifier::DIM);
            buf.set_stringn(
                below.x,
                below.y,
                search.label(),
                usize::from(below.width),
                style,
            );
        } else if let Some(popup) = &self.popup {
            popup.render(below, buf);
        }
    }

    /// Where the terminal cursor goes when the composer is drawn in `area`.
    pub fn cursor_position(&self, area: Rect) -> (u16, u16) {
        if area.is_empty() {
            return (area.x, area.y);
        }
        let view = self.view(area);
        let last_x = area.right() - 1;
        if let Some(search) = &self.search
            && view.extra_h > 0
        {
            let x = area.x.saturating_add(to_u16(wrap::width(&search.label())));
            return (x.min(last_x), area.y + view.input_h);
        }
        let (row, col) = view.cursor;
        let x = area.x.saturating_add(INDENT).saturating_add(to_u16(col));
        let y = area.y + to_u16(row.saturating_sub(view.top));
        (x.min(last_x), y.min(area.y + view.input_h.max(1) - 1))
    }

    /// The input's rows at `width` text cells.
    pub(super) fn rows(&self, width: u16) -> Vec<Range<usize>> {
        let atoms: Vec<_> = self.editor.buf.atom_ranges().collect();
        wrap::rows(self.editor.text(), width, &atoms)
    }

    /// Rows under the input: the search line or the popup.
    fn extra_rows(&self) -> usize {
        if self.search.is_some() {
            1
        } else {
            self.popup.as_ref().map_or(0, |p| p.height())
        }
    }

    /// Lays out one frame and remembers the width and scroll for the next.
    fn view(&self, area: Rect) -> View {
        let width = text_width(area.width);
        self.width.set(width);
        let text = self.editor.text();
        let rows = self.rows(width);
        let cursor = wrap::cursor_cell(text, &rows, self.editor.cursor());
        let height = usize::from(area.height.max(1));
        let extra = self.extra_rows();
        let mut input_h = rows.len().min(MAX_INPUT_ROWS);
        if input_h + extra > height {
            input_h = height.saturating_sub(extra).clamp(1, input_h.max(1));
        }
        let extra = extra.min(height - input_h);
        let mut top = self.scroll.get();
        if cursor.0 < top {
            top = cursor.0;
        } else if cursor.0 >= top + input_h {
            top = cursor.0 + 1 - input_h;
        }
        top = top.min(rows.len().saturating_sub(input_h));
        self.scroll.set(top);
        View {
            rows,
            cursor,
            top,
            input_h: to_u16(input_h),
            extra_h: to_u16(extra),
        }
    }

    /// Styled byte ranges: collapsed pastes, and the Ctrl-R match.
    fn highlights(&self) -> Vec<(Range<usize>, Style)> {
        let paste = Style::default().fg(Color::Cyan);
        let mut out: Vec<_> = self.editor.buf.atom_ranges().map(|r| (r, paste)).collect();
        if let Some(search) = &self.search
            && search.hit.is_some()
            && !search.query.is_empty()
        {
            let start = self.editor.cursor();
            let end = start + search.query.len();
            if self.editor.text().get(start..end) == Some(search.query.as_str()) {
                let hit = Style::default().add_modifier(Modifier::BOLD | Modifier::UNDERLINED);
                out.push((start..end, hit));
            }
        }
        out
    }
}

/// Draws one row of `text` at `y`, after the indent, split into runs at
/// highlight edges.
fn draw_row(
    text: &str,
    row: &Range<usize>,
    highlights: &[(Range<usize>, Style)],
    area: Rect,
    y: u16,
    buf: &mut Buffer,
) {
    let mut cuts = vec![row.start, row.end];
    for (r, _) in highlights {
        cuts.extend([r.start, r.end].into_iter().filter(|c| row.contains(c)));
    }
    cuts.sort_unstable();
    cuts.dedup();
    let mut x = area.x.saturating_add(INDENT);
    for pair in cuts.windows(2) {
        let (a, b) = (pair[0], pair[1]);
        if x >= area.right() {
            break;
        }
        let style = highlights
            .iter()
            .find(|(r, _)| r.start <= a && a < r.end)
            .map_or_else(Style::default, |(_, s)| *s);
        let segment = text.get(a..b).unwrap_or_default();
        let room = usize::from(area.right() - x);
        (x, _) = buf.set_stringn(x, y, segment, room, style);
    }
}
