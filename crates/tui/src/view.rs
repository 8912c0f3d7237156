//! Draws the live part of the screen, bottom-up: the status line, the
//! composer (below an open approval menu, which keeps it in view; replaced
//! by the `/resume` picker), queued prompts, the spinner, running tools
//! with their output boxes and subagent trees, and the answer's unfinished
//! rows. When the viewport is short, the top of the live part gives way.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;

use crate::app::App;
use crate::cells::{call_head, clean};
use crate::wrap::{truncate, wrap};

const SPINNER: [&str; 10] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/// Rows of the answer's unfinished part shown at most.
const TAIL_ROWS: usize = 12;

fn dim() -> Style {
    Style::default().fg(Color::DarkGray)
}

impl App {
    /// Rows the live part wants at `width`.
    pub fn desired_height(&self, width: u16) -> u16 {
        let rows = self.activity(width).len() + self.bottom_height(width) + 1;
        u16::try_from(rows).unwrap_or(u16::MAX)
    }

    /// Draws the live part into `area`; returns where the cursor goes
    /// (`None`: hidden, a picker is open or there is no room).
    pub fn render(&self, area: Rect, buf: &mut Buffer) -> Option<(u16, u16)> {
        let cursor = self.render_live(area, buf);
        if self.no_color {
            crate::no_color::strip_buffer(buf, area);
        }
        cursor
    }

    fn render_live(&self, area: Rect, buf: &mut Buffer) -> Option<(u16, u16)> {
        if area.height == 0 || area.width == 0 {
            return None;
        }
        let width = area.width;
        // The status line: the last row.
        let status_area = Rect {
            y: area.bottom() - 1,
            height: 1,
            ..area
        };
        Line::from(self.status_spans(width)).render(status_area, buf);
        let above = area.height - 1;
        let bottom_h = u16::try_from(self.bottom_height(width))
            .unwrap_or(u16::MAX)
            .min(above);
        let bottom_area = Rect {
            y: status_area.y - bottom_h,
            height: bottom_h,
            ..area
        };
        let cursor = self.render_bottom(bottom_area, buf);
        let activity_h = above - bottom_h;
        if activity_h > 0 {
            let rows = self.activity(width);
            let skip = rows.len().saturating_sub(usize::from(activity_h));
            // Just above the composer: spare rows stay at the top.
            let shown = u16::try_from(rows.len() - skip).unwrap_or(0);
            let top = bottom_area.y - shown;
            for (i, row) in rows.into_iter().skip(skip).enumerate() {
                let y = top + u16::try_from(i).unwrap_or(0);
                row.render(
                    Rect {
                        y,
                        height: 1,
                        ..area
                    },
                    buf,
                );
            }
        }
        cursor
    }

    fn bottom_height(&self, width: u16) -> usize {
        // A rule above the composer.
        let composer = 1 + usize::from(self.composer.desired_height(width).max(1));
        if let Some(menu) = &self.approval {
            // The composer stays below the menu: what is typed while the
            // menu is open lands there, in view.
            return menu.lines(width).len() + composer;
        }
        if self.picker.is_some() {
            return self.picker_lines(width).len();
        }
        composer
    }

    fn render_bottom(&self, area: Rect, buf: &mut Buffer) -> Option<(u16, u16)> {
        let (rows, composer_area) = if let Some(menu) = &self.approval {
            let rows = menu.lines(area.width);
            // Short of room, the menu's choices win over the composer.
            let menu_h = u16::try_from(rows.len())
                .unwrap_or(u16::MAX)
                .min(area.height);
            let below = Rect {
                y: area.y + menu_h,
                height: area.height - menu_h,
                ..area
            };
            (rows, (below.height >= 2).then_some(below))
        } else if self.picker.is_some() {
            (self.picker_lines(area.width), None)
        } else {
            (Vec::new(), Some(area))
        };
        // A menu taller than the room keeps its choices (the end) in view.
        let skip = rows.len().saturating_sub(usize::from(area.height));
        for (i, row) in rows.into_iter().skip(skip).enumerate() {
            let y = area.y + u16::try_from(i).unwrap_or(0);
            row.render(
                Rect {
                    y,
                    height: 1,
                    ..area
                },
                buf,
            );
        }
        let area = composer_area?;
        if area.height == 0 {
            return None;
        }
        let rule = "─".repeat(usize::from(area.width));
        Line::from(Span::styled(rule, dim())).render(Rect { height: 1, ..area }, buf);
        let composer_area = Rect {
            y: area.y + 1,
            height: area.height - 1,
            ..area
        };
        if composer_area.height == 0 {
            return None;
        }
        self.composer.render(composer_area, buf);
        Some(self.composer.cursor_position(composer_area))
    }

    /// Everything live above the composer, top to bottom.
    fn activity(&self, width: u16) -> Vec<Line<'static>> {
        let mut rows = Vec::new();
        if let Some((_, stream)) = &self.answer {
            let tail = stream.tail(width);
            let skip = tail.len().saturating_sub(TAIL_ROWS);
            rows.extend(tail.into_iter().skip(skip));
        }
        if self.thinking.is_some() {
            rows.push(Line::from(Span::styled(
                "✻ Thinking…",
                dim().add_modifier(Modifier::ITALIC),
            )));
        }
        for tool in &self.tools {
            let title = truncate(&tool.title, usize::from(width).saturating_sub(2));
            let mut head = call_head(&title, None);
            let secs = self.now.saturating_duration_since(tool.started).as_secs();
            if secs > 0 {
                head.spans.push(Span::styled(format!(" {secs}s"), dim()));
            }
            rows.push(head);
            let mut shown: Vec<&str> = tool.output.iter().map(String::as_str).collect();
            if !tool.partial.is_empty() {
                shown.push(&tool.partial);
            }
            let skip = shown.len().saturating_sub(crate::app::TOOL_BOX_ROWS);
            for line in shown.into_iter().skip(skip) {
                let text = truncate(line, usize::from(width).saturating_sub(4));
                rows.push(Line::from(vec![
                    Span::styled("  │ ", dim()),
                    Span::styled(text, dim()),
                ]));
            }
            for (path, agent) in &self.agents {
                if agent.parent_call.as_deref() != Some(tool.call_id.as_str()) {
                    continue;
                }
                let depth = path.matches('/').count();
                let name = path.rsplit('/').next().unwrap_or(path);
                let mut text = format!("{}└ {}", "  ".repeat(depth), clean(name));
                if let Some(current) = &agent.current {
                    text.push_str(&format!(" · {current}"));
                }
                if agent.tokens > 0 {
                    text.push_str(&format!(" · {} tokens", tokens(agent.tokens)));
                }
                rows.push(Line::from(Span::styled(
                    truncate(&text, usize::from(width)),
                    Style::default().fg(Color::Cyan),
                )));
            }
        }
        // Agents whose starting call is not shown (yet) still show.
        for (path, agent) in &self.agents {
            let shown = agent
                .parent_call
                .as_deref()
                .is_some_and(|c| self.tools.iter().any(|t| t.call_id == c));
            if !shown {
                let mut text = format!("  └ {}", clean(path));
                if let Some(current) = &agent.current {
                    text.push_str(&format!(" · {current}"));
                }
                rows.push(Line::from(Span::styled(
                    truncate(&text, usize::from(width)),
                    Style::default().fg(Color::Cyan),
                )));
            }
        }
        // The model's todo list stays in view while any of it is open.
        if self.todos.iter().any(|t| t.0 != "completed") {
            for (status, content) in &self.todos {
                let (mark, style) = match status.as_str() {
                    "completed" => ("☑ ", dim()),
                    "in_progress" => (
                        "◐ ",
                        Style::default()
                            .fg(Color::Cyan)
                            .add_modifier(Modifier::BOLD),
                    ),
                    _ => ("☐ ", Style::default()),
                };
                rows.push(Line::from(Span::styled(
                    truncate(&format!("  {mark}{}", clean(content)), usize::from(width)),
                    style,
                )));
            }
        }
        if let Some(elapsed) = self.elapsed()
            && self.approval.is_none()
        {
            let frame = SPINNER[(elapsed.as_millis() / 80) as usize % SPINNER.len()];
            let line = Line::from(vec![
                Span::styled(format!("{frame} "), Style::default().fg(Color::Magenta)),
                Span::styled("Working… ", Style::default().fg(Color::Magenta)),
                Span::styled(format!("{}s · Esc to interrupt", elapsed.as_secs()), dim()),
            ]);
            rows.extend(wrap(line, width, &[]));
        }
        for prompt in &self.steering {
            let first = prompt.lines().next().unwrap_or_default();
            let text = truncate(
                &format!("↳ with the next step: {}", clean(first)),
                usize::from(width),
            );
            rows.push(Line::from(Span::styled(text, dim())));
        }
        for prompt in &self.queued {
            let first = prompt.lines().next().unwrap_or_default();
            let text = truncate(&format!("↳ queued: {}", clean(first)), usize::from(width));
            rows.push(Line::from(Span::styled(text, dim())));
        }
        rows
    }

    fn picker_lines(&self, width: u16) -> Vec<Line<'static>> {
        let Some(picker) = &self.picker else {
            return Vec::new();
        };
        let mut rows = vec![Line::from(Span::styled(
            "Resume a session (↑/↓, Enter; Esc closes)",
            Style::default()
                .fg(Color::Magenta)
                .add_modifier(Modifier::BOLD),
        ))];
        // A window of ten around the selection.
        let start = picker.selected.saturating_sub(9);
        for (i, s) in picker.sessions.iter().enumerate().skip(start).take(10) {
            let (mark, style) = if i == picker.selected {
                (
                    "❯ ",
                    Style::default()
                        .fg(Color::Cyan)
                        .add_modifier(Modifier::BOLD),
                )
            } else {
                ("  ", Style::default())
            };
            let meta = format!("  {} · {}", s.age, s.size);
            let room = usize::from(width).saturating_sub(crate::wrap::width(&meta) + 2);
            let prompt = truncate(&clean(&s.first_prompt).replace('\n', " "), room.max(4));
            rows.push(Line::from(vec![
                Span::styled(format!("{mark}{prompt}"), style),
                Span::styled(meta, dim()),
            ]));
        }
        rows
    }

    fn status_spans(&self, width: u16) -> Vec<Span<'static>> {
        if self.ctrl_c_armed() {
            return vec![Span::styled(
                "Press Ctrl-C again to leave",
                Style::default().fg(Color::Yellow),
            )];
        }
        let mut parts: Vec<(String, Style)> = vec![(clean(&self.status.model), dim())];
        let mode_style = if self.status.mode == "default" {
            dim()
        } else {
            Style::default().fg(Color::Yellow)
        };
        parts.push((clean(&self.status.mode), mode_style));
        if let Some(pct) = self
            .status
            .context_tokens
            .saturating_mul(100)
            .checked_div(self.status.window)
        {
            let style = if pct >= 80 {
                Style::default().fg(Color::Yellow)
            } else {
                dim()
            };
            parts.push((format!("ctx {pct}%"), style));
        }
        parts.push((format!("${:.2}", self.status.cost), dim()));
        if let Some(branch) = &self.status.branch {
            parts.push((format!("⎇ {}", clean(branch)), dim()));
        }
        // Drop from the right until it fits.
        let total = |p: &[(String, Style)]| -> usize {
            p.iter()
                .map(|(t, _)| crate::wrap::width(t) + 3)
                .sum::<usize>()
        };
        while parts.len() > 1 && total(&parts) > usize::from(width) {
            parts.pop();
        }
        let mut spans = Vec::new();
        for (i, (text, style)) in parts.into_iter().enumerate() {
            if i > 0 {
                spans.push(Span::styled(" · ", dim()));
            }
            spans.push(Span::styled(truncate(&text, usize::from(width)), style));
        }
        spans
    }
}

/// `950`, `12.3k`.
fn tokens(n: u64) -> String {
    if n < 1000 {
        n.to_string()
    } else {
        format!("{:.1}k", n as f64 / 1000.0)
    }
}
