//! NO_COLOR (<https://no-color.org>): when the variable is set and not
//! empty, the UI draws no colour at all, foreground or background. Bold,
//! dim, underline and reverse stay: selections are reversed or marked with
//! `❯`, and diff lines keep their `+`/`-` signs, so nothing is told apart
//! by colour alone. Colour is taken off at the two places rows leave the
//! app (the live frame and the rows bound for the scrollback), so no
//! renderer needs to know.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;

/// Whether the environment asks for no colour.
pub fn requested() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
}

/// Resets every cell of `area` to the terminal's own colours.
pub(crate) fn strip_buffer(buf: &mut Buffer, area: Rect) {
    let area = area.intersection(buf.area);
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            if let Some(cell) = buf.cell_mut((x, y)) {
                let modifier = cell.modifier;
                cell.set_style(Style::reset());
                cell.modifier = modifier;
            }
        }
    }
}

/// The row with its colours taken off, its modifiers kept.
pub(crate) fn strip_line(mut line: Line<'static>) -> Line<'static> {
    line.style = plain(line.style);
    for span in &mut line.spans {
        span.style = plain(span.style);
    }
    line
}

fn plain(style: Style) -> Style {
    Style::default()
        .add_modifier(style.add_modifier)
        .remove_modifier(style.sub_modifier)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::style::{Color, Modifier, Stylize};
    use ratatui::text::Span;

    #[test]
    fn lines_keep_modifiers_and_lose_colours() {
        let line = Line::from(vec![
            Span::styled("+ added", Style::default().fg(Color::Green).bold()),
            Span::raw(" plain").on_blue(),
        ])
        .style(Style::default().fg(Color::Red));
        let line = strip_line(line);
        assert_eq!(line.style.fg, None);
        assert_eq!(line.spans[0].style.fg, None);
        assert!(line.spans[0].style.add_modifier.contains(Modifier::BOLD));
        assert_eq!(line.spans[1].style.bg, None);
    }
}
