//! Markdown to terminal lines (pulldown-cmark): headings, emphasis, inline
//! code, links, lists, block quotes, tables, rules and highlighted code
//! blocks, wrapped to the width. A soft break stays a line break, so a
//! paragraph that grows as it streams never re-flows its earlier lines.
//! A stream renders its open block again and again: it passes a
//! [`CodeCache`] (code blocks are highlighted once per line) and the number
//! of rows it already has (those are counted, not built again).

use pulldown_cmark::{Alignment, CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use crate::code::CodeCache;
use crate::wrap::{width as text_width, wrap};

/// Renders `source` to rows of at most `width` columns.
#[cfg(test)]
pub fn render(source: &str, width: u16) -> Vec<Line<'static>> {
    render_from(source, width, 0, &mut CodeCache::default())
}

/// The rows of `source` from row `skip` on (the rows before are counted,
/// not kept), at most `width` columns wide; code blocks go through `cache`.
pub fn render_from(
    source: &str,
    width: u16,
    skip: usize,
    cache: &mut CodeCache,
) -> Vec<Line<'static>> {
    let options =
        Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TASKLISTS;
    cache.begin();
    let mut r = Renderer::new(width, skip, cache);
    for event in Parser::new_ext(source, options) {
        r.event(event);
    }
    r.flush();
    r.rows.out
}

/// The rows made so far: only those from `skip` on are kept.
struct Rows {
    out: Vec<Line<'static>>,
    /// Rows made, kept or not.
    made: usize,
    skip: usize,
}

impl Rows {
    fn push(&mut self, line: Line<'static>) {
        if self.made >= self.skip {
            self.out.push(line);
        }
        self.made += 1;
    }

    fn extend(&mut self, lines: impl IntoIterator<Item = Line<'static>>) {
        for line in lines {
            self.push(line);
        }
    }

    /// Rows borrowed from a cache: the ones kept are copied.
    fn extend_from(&mut self, lines: &[Line<'static>]) {
        let first = self.skip.saturating_sub(self.made).min(lines.len());
        self.out.extend_from_slice(&lines[first..]);
        self.made += lines.len();
    }
}

/// A container the current line is inside.
#[derive(Clone)]
enum Container {
    Quote,
    /// A list item; `marker` is shown on its first line only.
    Item {
        marker: Option<String>,
        width: usize,
    },
}

struct Table {
    alignments: Vec<Alignment>,
    rows: Vec<Vec<Vec<Span<'static>>>>,
    header_rows: usize,
    cell: Vec<Span<'static>>,
    row: Vec<Vec<Span<'static>>>,
}

struct Renderer<'c> {
    width: u16,
    rows: Rows,
    cache: &'c mut CodeCache,
    line: Vec<Span<'static>>,
    styles: Vec<Style>,
    containers: Vec<Container>,
    /// Next number of each open list (`None`: bullets).
    lists: Vec<Option<u64>>,
    code: Option<(String, String)>,
    table: Option<Table>,
    links: Vec<String>,
    heading: Option<HeadingLevel>,
}

impl<'c> Renderer<'c> {
    fn new(width: u16, skip: usize, cache: &'c mut CodeCache) -> Self {
        Self {
            width,
            rows: Rows {
                out: Vec::new(),
                made: 0,
                skip,
            },
            cache,
            line: Vec::new(),
            styles: vec![Style::default()],
            containers: Vec::new(),
            lists: Vec::new(),
            code: None,
            table: None,
            links: Vec::new(),
            heading: None,
        }
    }

    fn style(&self) -> Style {
        self.styles.last().copied().unwrap_or_default()
    }

    fn push_style(&mut self, f: impl FnOnce(Style) -> Style) {
        let s = f(self.style());
        self.styles.push(s);
    }

    fn pop_style(&mut self) {
        if self.styles.len() > 1 {
            self.styles.pop();
        }
    }

    fn text(&mut self, text: &str) {
        if let Some((_, code)) = self.code.as_mut() {
            code.push_str(text);
            return;
        }
        let span = Span::styled(text.to_owned(), self.style());
        match self.table.as_mut() {
            Some(t) => t.cell.push(span),
            None => self.line.push(span),
        }
    }

    /// A blank line between blocks (not before the first, not inside lists).
    fn block_gap(&mut self) {
        self.flush();
        let in_item = self
            .containers
            .iter()
            .any(|c| matches!(c, Container::Item { .. }));
        if self.rows.made > 0 && !in_item {
            let (prefix, _) = self.prefixes();
            let line = Line::from(prefix);
            self.rows.push(trim_line(line));
        }
    }

    /// The first-row prefix and the continuation prefix of the current line.
    fn prefixes(&mut self) -> (Vec<Span<'static>>, Vec<Span<'static>>) {
        let mut first = Vec::new();
        let mut rest = Vec::new();
        for c in &mut self.containers {
            match c {
                Container::Quote => {
                    let bar = Span::styled("│ ", Style::default().fg(Color::DarkGray));
                    first.push(bar.clone());
                    rest.push(bar);
                }
                Container::Item { marker, width } => {
                    let pad = " ".repeat(*width);
                    match marker.take() {
                        Some(m) => first.push(Span::styled(m, Style::default().fg(Color::Cyan))),
                        None => first.push(Span::raw(pad.clone())),
                    }
                    rest.push(Span::raw(pad));
                }
            }
        }
        (first, rest)
    }

    fn flush(&mut self) {
        if self.line.is_empty() {
            return;
        }
        let spans = std::mem::take(&mut self.line);
        let (mut first, rest) = self.prefixes();
        first.extend(spans);
        self.rows.extend(wrap(Line::from(first), self.width, &rest));
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) => self.text(&text),
            Event::Code(code) => {
                let span = Span::styled(code.into_string(), Style::default().fg(Color::Cyan));
                match self.table.as_mut() {
                    Some(t) => t.cell.push(span),
                    None => self.line.push(span),
                }
            }
            Event::InlineMath(m) | Event::DisplayMath(m) => self.text(&m),
            Event::Html(html) | Event::InlineHtml(html) => {
                for (i, part) in html.split('\n').enumerate() {
                    if i > 0 {
                        self.flush();
                    }
                    self.text(part);
                }
            }
            Event::SoftBreak | Event::HardBreak => {
                if self.code.is_some() {
                    self.text("\n");
                } else if let Some(t) = self.table.as_mut() {
                    t.cell.push(Span::raw(" "));
                } else {
                    self.flush();
                }
            }
            Event::Rule => {
                self.block_gap();
                let rule = "─".repeat(usize::from(self.width.min(80)));
                self.rows.push(Line::from(Span::styled(
                    rule,
                    Style::default().fg(Color::DarkGray),
                )));
            }
            Event::TaskListMarker(done) => {
                self.line.push(Span::raw(if done { "☑ " } else { "☐ " }));
            }
            Event::FootnoteReference(name) => self.text(&format!("[{name}]")),
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.block_gap(),
            Tag::Heading { level, .. } => {
                self.block_gap();
                self.heading = Some(level);
                let style = match level {
                    HeadingLevel::H1 => Style::default()
                        .add_modifier(Modifier::BOLD | Modifier::UNDERLINED)
                        .fg(Color::Magenta),
                    HeadingLevel::H2 => Style::default()
                        .add_modifier(Modifier::BOLD)
                        .fg(Color::Magenta),
                    _ => Style::default().add_modifier(Modifier::BOLD),
                };
                self.styles.push(style);
            }
            Tag::BlockQuote(_) => {
                self.block_gap();
                self.containers.push(Container::Quote);
                self.push_style(|s| s.add_modifier(Modifier::ITALIC));
            }
            Tag::CodeBlock(kind) => {
                self.block_gap();
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => info.into_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.code = Some((lang, String::new()));
            }
            Tag::List(start) => {
                if self.lists.is_empty() {
                    self.block_gap();
                } else {
                    self.flush();
                }
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                let marker = match self.lists.last_mut() {
                    Some(Some(n)) => {
                        let m = format!("{n}. ");
                        *n += 1;
                        m
                    }
                    _ => "• ".to_owned(),
                };
                let width = text_width(&marker);
                self.containers.push(Container::Item {
                    marker: Some(marker),
                    width,
                });
            }
            Tag::Emphasis => self.push_style(|s| s.add_modifier(Modifier::ITALIC)),
            Tag::Strong => self.push_style(|s| s.add_modifier(Modifier::BOLD)),
            Tag::Strikethrough => self.push_style(|s| s.add_modifier(Modifier::CROSSED_OUT)),
            Tag::Link { dest_url, .. } => {
                self.links.push(dest_url.into_string());
                self.push_style(|s| s.add_modifier(Modifier::UNDERLINED).fg(Color::Blue));
            }
            Tag::Image { dest_url, .. } => {
                self.links.push(dest_url.into_string());
                self.push_style(|s| s.fg(Color::Blue));
            }
            Tag::Table(alignments) => {
                self.block_gap();
                self.table = Some(Table {
                    alignments,
                    rows: Vec::new(),
                    header_rows: 0,
                    cell: Vec::new(),
                    row: Vec::new(),
                });
            }
            Tag::TableHead | Tag::TableRow => {
                if let Some(t) = self.table.as_mut() {
                    t.row.clear();
                }
            }
            Tag::TableCell => {
                if let Some(t) = self.table.as_mut() {
                    t.cell.clear();
                }
            }
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.flush(),
            TagEnd::Heading(_) => {
                self.flush();
                self.heading = None;
                self.pop_style();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.containers.pop();
                self.pop_style();
            }
            TagEnd::CodeBlock => {
                if let Some((lang, code)) = self.code.take() {
                    let (_, rest) = self.prefixes();
                    let (done, unfinished) = self.cache.rows(&lang, &code, self.width, &rest);
                    self.rows.extend_from(done);
                    self.rows.extend(unfinished);
                }
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
            }
            TagEnd::Item => {
                self.flush();
                self.containers.pop();
            }
            TagEnd::Emphasis | TagEnd::Strong | TagEnd::Strikethrough => self.pop_style(),
            TagEnd::Link | TagEnd::Image => {
                self.pop_style();
                if let Some(url) = self.links.pop() {
                    let shown: String = self.line.iter().map(|s| s.content.as_ref()).collect();
                    if !url.is_empty() && !shown.ends_with(url.as_str()) {
                        self.line.push(Span::styled(
                            format!(" ({url})"),
                            Style::default().fg(Color::DarkGray),
                        ));
                    }
                }
            }
            TagEnd::TableCell => {
                if let Some(t) = self.table.as_mut() {
                    let cell = std::mem::take(&mut t.cell);
                    t.row.push(cell);
                }
            }
            TagEnd::TableHead => {
                if let Some(t) = self.table.as_mut() {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                    t.header_rows = t.rows.len();
                }
            }
            TagEnd::TableRow => {
                if let Some(t) = self.table.as_mut() {
                    let row = std::mem::take(&mut t.row);
                    t.rows.push(row);
                }
            }
            TagEnd::Table => {
                if let Some(t) = self.table.take() {
                    let lines = table_lines(&t, self.width);
                    self.rows.extend(lines);
                }
            }
            _ => {}
        }
    }
}

/// A table with its columns sized to their widest cell (shrunk evenly
/// when the whole does not fit; cells are then cut).
fn table_lines(t: &Table, width: u16) -> Vec<Line<'static>> {
    let columns = t.rows.iter().map(Vec::len).max().unwrap_or(0);
    if columns == 0 {
        return Vec::new();
    }
    let cell_width =
        |cell: &Vec<Span<'static>>| -> usize { cell.iter().map(|s| text_width(&s.content)).sum() };
    let mut widths = vec![1usize; columns];
    for row in &t.rows {
        for (i, cell) in row.iter().enumerate() {
            widths[i] = widths[i].max(cell_width(cell));
        }
    }
    // Borders: "│ " before each column and " │" after the last.
    let room = usize::from(width)
        .saturating_sub(columns * 3 + 1)
        .max(columns);
    while widths.iter().sum::<usize>() > room {
        let Some(widest) = widths.iter_mut().max() else {
            break;
        };
        if *widest <= 1 {
            break;
        }
        *widest -= 1;
    }
    let border = Style::default().fg(Color::DarkGray);
    let rule = |left: &str, mid: &str, right: &str| -> Line<'static> {
        let parts: Vec<String> = widths.iter().map(|w| "─".repeat(w + 2)).collect();
        Line::from(Span::styled(
            format!("{left}{}{right}", parts.join(mid)),
            border,
        ))
    };
    let mut out = vec![rule("┌", "┬", "┐")];
    for (r, row) in t.rows.iter().enumerate() {
        let mut spans = Vec::new();
        for (i, w) in widths.iter().enumerate() {
            spans.push(Span::styled("│ ", border));
            let text: String = row
                .get(i)
                .map(|c| c.iter().map(|s| s.content.as_ref()).collect())
                .unwrap_or_default();
            let style = row
                .get(i)
                .and_then(|c| c.first())
                .map(|s| s.style)
                .unwrap_or_default();
            let style = if r < t.header_rows {
                style.add_modifier(Modifier::BOLD)
            } else {
                style
            };
            let text = crate::wrap::truncate(&text, *w);
            let pad = w.saturating_sub(text_width(&text));
            let (left, right) = match t.alignments.get(i) {
                Some(Alignment::Right) => (pad, 0),
                Some(Alignment::Center) => (pad / 2, pad - pad / 2),
                _ => (0, pad),
            };
            spans.push(Span::raw(" ".repeat(left)));
            spans.push(Span::styled(text, style));
            spans.push(Span::raw(" ".repeat(right + 1)));
        }
        spans.push(Span::styled("│", border));
        out.push(Line::from(spans));
        if r + 1 == t.header_rows {
            out.push(rule("├", "┼", "┤"));
        }
    }
    out.push(rule("└", "┴", "┘"));
    out
}

fn trim_line(line: Line<'static>) -> Line<'static> {
    let spans: Vec<Span<'static>> = line
        .spans
        .into_iter()
        .map(|s| Span::styled(s.content.trim_end().to_owned(), s.style))
        .collect();
    Line::from(spans)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(source: &str, width: u16) -> Vec<String> {
        render(source, width)
            .iter()
            .map(|l| l.to_string())
            .collect()
    }

    #[test]
    fn blocks_are_separated_and_lists_marked() {
        let out = plain("# Title\nSome *text* here.\n\n- one\n- two\n  1. sub\n", 40);
        assert_eq!(
            out,
            [
                "Title",
                "",
                "Some text here.",
                "",
                "• one",
                "• two",
                "  1. sub"
            ]
        );
    }

    #[test]
    fn quotes_links_and_code() {
        let out = plain(
            "> quoted\n\nsee [docs](https://x.y) and `code`\n\n```\nlet a;\n```\n",
            40,
        );
        assert_eq!(
            out,
            [
                "│ quoted",
                "",
                "see docs (https://x.y) and code",
                "",
                "  let a;"
            ]
        );
    }

    #[test]
    fn tables_are_boxed_and_fit_the_width() {
        let out = plain("| a | bb |\n|---|---:|\n| 1 | 2 |\n", 40);
        assert_eq!(
            out,
            [
                "┌───┬────┐",
                "│ a │ bb │",
                "├───┼────┤",
                "│ 1 │  2 │",
                "└───┴────┘"
            ]
        );
        for line in plain(
            "| aaaaaaaaaaaa | bbbbbbbbbbbbbbbb |\n|---|---|\n| 1 | 2 |\n",
            20,
        ) {
            assert!(text_width(&line) <= 20, "{line}");
        }
    }
}
