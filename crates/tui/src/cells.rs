//! History cells: the rows a finished piece of the transcript leaves in the
//! scrollback (the user's prompt, a tool call with its result, notices,
//! warnings, errors), and the one-line forms of tool calls shared with the
//! live view. Text from the model or commands never drives the terminal:
//! control characters are stripped or shown.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use wright_protocol::{ToolCallStatus, ToolDisplay, Touches};

use crate::wrap::{truncate, wrap};

/// Removes escape sequences and control characters (keeps newlines and tabs as spaces).
pub fn clean(text: &str) -> String {
    strip(text, "    ")
}

/// Removes terminal escape sequences and other control characters from
/// model or command text, keeping newlines and tabs, before it reaches a
/// terminal (print mode writes it without the UI).
pub fn strip_controls(text: &str) -> String {
    strip(text, "\t")
}

/// [`strip_controls`], writing `tab` for each tab.
fn strip(text: &str, tab: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\x1b' => match chars.next() {
                // CSI: parameters up to a final byte in @..~.
                Some('[') => {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
                // OSC: up to BEL or ESC \.
                Some(']') => {
                    while let Some(c) = chars.next() {
                        if c == '\x07' || (c == '\x1b' && chars.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                _ => {}
            },
            '\n' => out.push('\n'),
            '\t' => out.push_str(tab),
            c if c.is_control() || hides_text(c) => {}
            c => out.push(c),
        }
    }
    out
}

/// Bidi overrides and isolates, zero-width characters and the BOM: they
/// change how the text around them is shown, so a command could look like
/// another one.
pub fn hides_text(c: char) -> bool {
    matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}')
}

/// Plain text as wrapped rows in one style, each source line its own row.
pub fn text_rows(text: &str, style: Style, width: u16, indent: &str) -> Vec<Line<'static>> {
    clean(text)
        .split('\n')
        .flat_map(|l| {
            wrap(
                Line::from(Span::styled(format!("{indent}{l}"), style)),
                width,
                &[Span::raw(indent.to_owned())],
            )
        })
        .collect()
}

/// The user's prompt as it goes to the scrollback.
pub fn user_prompt(text: &str, width: u16) -> Vec<Line<'static>> {
    let style = Style::default().add_modifier(Modifier::BOLD);
    let mut rows = Vec::new();
    for (i, l) in clean(text).split('\n').enumerate() {
        let mark = if i == 0 { "› " } else { "  " };
        rows.extend(wrap(
            Line::from(vec![
                Span::styled(mark, Style::default().fg(Color::Cyan)),
                Span::styled(l.to_owned(), style),
            ]),
            width,
            &[Span::raw("  ")],
        ));
    }
    rows.insert(0, Line::default());
    rows
}

/// A notice, warning or error line (`kind` picks the colour and prefix).
pub fn message(kind: MessageKind, text: &str, width: u16) -> Vec<Line<'static>> {
    let (prefix, style) = match kind {
        MessageKind::Notice => ("", Style::default()),
        MessageKind::Dim => ("", Style::default().fg(Color::DarkGray)),
        MessageKind::Warning => ("warning: ", Style::default().fg(Color::Yellow)),
        MessageKind::Error => ("error: ", Style::default().fg(Color::Red)),
    };
    text_rows(&format!("{prefix}{text}"), style, width, "")
}

/// How a message line looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MessageKind {
    /// Plain information.
    Notice,
    /// Quiet information (hooks that went fine, a usage line).
    Dim,
    /// Something to know.
    Warning,
    /// Something went wrong.
    Error,
}

/// `Bash(cargo test)`: the tool and the argument worth showing, on one line.
/// The argument shown is a pattern or job id where the tool has one, else
/// what the call touches (its command, path or URL), as its tool said.
pub fn call_title(name: &str, arguments: &str, touches: Option<&Touches>, max: usize) -> String {
    let value: serde_json::Value = serde_json::from_str(arguments).unwrap_or_default();
    let text = |k: &str| value.get(k).and_then(|v| v.as_str()).unwrap_or_default();
    let shown = match name {
        "Task" | "Agent" => {
            let agent = Some(text("subagent_type"))
                .filter(|a| !a.is_empty())
                .unwrap_or("general");
            format!("{agent}: {}", text("description"))
        }
        "TodoWrite" => value
            .get("todos")
            .and_then(|t| t.as_array())
            .map(|t| format!("{} todos", t.len()))
            .unwrap_or_default(),
        _ => {
            let key = match name {
                "Glob" | "Grep" => "pattern",
                "BashOutput" => "bash_id",
                "KillShell" => "shell_id",
                "WebSearch" => "query",
                _ => "",
            };
            value
                .get(key)
                .and_then(|v| v.as_str())
                .or_else(|| touches.and_then(Touches::shown))
                .map_or_else(|| arguments.to_owned(), str::to_owned)
        }
    };
    let shown = clean(&shown).replace('\n', "⏎");
    truncate(&format!("{}({shown})", clean(name)), max)
}

/// The head row of a tool call: `● Bash(cargo test)`, the dot coloured by status.
pub fn call_head(title: &str, status: Option<ToolCallStatus>) -> Line<'static> {
    let colour = match status {
        None | Some(ToolCallStatus::InProgress) => Color::Yellow,
        Some(ToolCallStatus::Completed) => Color::Green,
        Some(ToolCallStatus::Failed) => Color::Red,
        Some(ToolCallStatus::Denied | ToolCallStatus::Cancelled) => Color::DarkGray,
    };
    Line::from(vec![
        Span::styled("● ", Style::default().fg(colour)),
        Span::styled(
            title.to_owned(),
            Style::default().add_modifier(Modifier::BOLD),
        ),
    ])
}

/// The rows a finished tool call leaves: its head, `⎿ exit 0 · 2.1s`, a
/// failure's first lines, and an edit's diff.
pub fn finished_call(
    name: &str,
    arguments: &str,
    touches: Option<&Touches>,
    status: ToolCallStatus,
    output: Option<&str>,
    display: Option<&ToolDisplay>,
    width: u16,
) -> Vec<Line<'static>> {
    let title = call_title(
        name,
        arguments,
        touches,
        usize::from(width).saturating_sub(2).max(8),
    );
    let mut rows = vec![call_head(&title, Some(status))];
    let summary = display
        .map(|d| d.summary.clone())
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| {
            output
                .and_then(|o| o.lines().find(|l| !l.trim().is_empty()))
                .unwrap_or_default()
                .to_owned()
        });
    let (mark, style) = match status {
        ToolCallStatus::Completed => ("⎿ ", Style::default().fg(Color::DarkGray)),
        ToolCallStatus::Denied => ("⎿ refused: ", Style::default().fg(Color::Yellow)),
        ToolCallStatus::Cancelled => ("⎿ cancelled: ", Style::default().fg(Color::Yellow)),
        ToolCallStatus::Failed | ToolCallStatus::InProgress => {
            ("⎿ error: ", Style::default().fg(Color::Red))
        }
    };
    let mut line = format!("{mark}{}", clean(&summary).replace('\n', " "));
    if let Some(d) = display.filter(|d| d.duration_ms >= 100) {
        line.push_str(&format!(" · {}", duration(d.duration_ms)));
    }
    rows.extend(wrap(
        Line::from(Span::styled(format!("  {line}"), style)),
        width,
        &[Span::raw("    ")],
    ));
    let command = touches.is_some_and(|t| t.command.is_some());
    if command
        && status == ToolCallStatus::Completed
        && let Some(output) = output
    {
        // What a command printed stays: its first lines, more of them
        // when it failed, and how many more there are.
        let failed = display.and_then(|d| d.exit_code).is_some_and(|c| c != 0);
        rows.extend(command_head(output, if failed { 10 } else { 4 }, width));
    } else if status == ToolCallStatus::Failed
        && let Some(output) = output
    {
        let shown: Vec<&str> = output
            .lines()
            .filter(|l| !l.trim().is_empty())
            .skip(1)
            .take(4)
            .collect();
        if !shown.is_empty() {
            rows.extend(text_rows(
                &shown.join("\n"),
                Style::default().fg(Color::DarkGray),
                width,
                "    ",
            ));
        }
    }
    if let Some(diff) = display.and_then(|d| d.diff.as_deref())
        && status == ToolCallStatus::Completed
    {
        rows.extend(crate::diff::unified(diff, width, crate::diff::MAX_ROWS));
    }
    rows
}

/// What a command printed, without the core's closing `exit code N` line
/// and the `(no output)` stand-in.
fn printed(output: &str) -> Vec<&str> {
    let mut lines: Vec<&str> = output.trim_end().lines().collect();
    if lines.last().is_some_and(|l| l.starts_with("exit code ")) {
        lines.pop();
    }
    if lines == ["(no output)"] {
        lines.clear();
    }
    lines
}

/// The first `keep` lines a command printed and how many more there are
/// (Ctrl-O shows the last command's whole output).
fn command_head(output: &str, keep: usize, width: u16) -> Vec<Line<'static>> {
    let lines = printed(output);
    if lines.is_empty() {
        return Vec::new();
    }
    let dim = Style::default().fg(Color::DarkGray);
    let mut rows = text_rows(
        &lines[..lines.len().min(keep)].join("\n"),
        dim,
        width,
        "    ",
    );
    if lines.len() > keep {
        rows.extend(text_rows(
            &format!("… +{} lines (Ctrl-O shows all)", lines.len() - keep),
            dim,
            width,
            "    ",
        ));
    }
    rows
}

/// The whole of what a command printed, for Ctrl-O.
pub fn command_output(title: &str, output: &str, width: u16) -> Vec<Line<'static>> {
    let mut rows = text_rows(
        &format!("output of {title}:"),
        Style::default().fg(Color::DarkGray),
        width,
        "  ",
    );
    let lines = printed(output);
    if lines.is_empty() {
        rows.extend(text_rows("(no output)", Style::default(), width, "    "));
    } else {
        rows.extend(text_rows(
            &lines.join("\n"),
            Style::default(),
            width,
            "    ",
        ));
    }
    rows
}

/// Rows of a `!cmd`'s output kept in the scrollback (the rest is elided
/// from the middle; the model got the whole result).
pub const SHELL_ROWS: usize = 40;

/// What a `!cmd` printed, under its call: the user ran it to see this, so
/// it is not folded like the model's calls. The core's closing `exit code
/// N` line is left to the call's summary.
pub fn shell_output(output: &str, width: u16) -> Vec<Line<'static>> {
    let lines = printed(output);
    let rows_of = |ls: &[&str]| text_rows(&ls.join("\n"), Style::default(), width, "    ");
    if lines.len() <= SHELL_ROWS {
        return if lines.is_empty() {
            Vec::new()
        } else {
            rows_of(&lines)
        };
    }
    let head = SHELL_ROWS / 2;
    let note = format!("… {} more lines …", lines.len() - SHELL_ROWS);
    let mut rows = rows_of(&lines[..head]);
    rows.extend(text_rows(
        &note,
        Style::default().fg(Color::DarkGray),
        width,
        "    ",
    ));
    rows.extend(rows_of(&lines[lines.len() - (SHELL_ROWS - head)..]));
    rows
}

/// `850ms`, `2.1s`, `3m 07s`.
pub fn duration(ms: u64) -> String {
    match ms {
        0..1000 => format!("{ms}ms"),
        1000..60_000 => format!("{:.1}s", ms as f64 / 1000.0),
        _ => format!("{}m {:02}s", ms / 60_000, ms / 1000 % 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn titles_pick_the_main_argument_and_hide_controls() {
        assert_eq!(
            call_title("Bash", "{}", Some(&Touches::command("cargo test")), 80),
            "Bash(cargo test)"
        );
        assert_eq!(
            call_title("Bash", "{}", Some(&Touches::command("a\u{1b}[2Jb\nc")), 80),
            "Bash(ab⏎c)"
        );
        assert_eq!(
            call_title("Read", "{}", Some(&Touches::read("src/lib.rs")), 80),
            "Read(src/lib.rs)"
        );
        assert_eq!(call_title("X", "not json", None, 6), "X(not…");
    }

    #[test]
    fn shell_output_is_shown_without_the_exit_line_and_elided_when_long() {
        let rows = |o: &str| -> Vec<String> {
            shell_output(o, 40).iter().map(|l| l.to_string()).collect()
        };
        assert_eq!(rows("hi\nthere\nexit code 0"), ["    hi", "    there"]);
        assert!(rows("exit code 0").is_empty());
        let long: String = (1..=100).map(|n| format!("{n}\n")).collect();
        let shown = rows(&format!("{long}exit code 1"));
        assert_eq!(shown.len(), SHELL_ROWS + 1);
        assert_eq!(shown[0], "    1");
        assert_eq!(shown[SHELL_ROWS / 2], "    … 60 more lines …");
        assert_eq!(shown[SHELL_ROWS], "    100");
    }

    #[test]
    fn finished_calls_show_status_and_time() {
        let display = ToolDisplay {
            summary: "exit 0".to_owned(),
            exit_code: Some(0),
            duration_ms: 2100,
            ..ToolDisplay::default()
        };
        let rows = finished_call(
            "Bash",
            "{}",
            Some(&Touches::command("cargo test")),
            ToolCallStatus::Completed,
            Some("ok"),
            Some(&display),
            40,
        );
        let rows: Vec<String> = rows.iter().map(|l| l.to_string()).collect();
        assert_eq!(rows, ["● Bash(cargo test)", "  ⎿ exit 0 · 2.1s", "    ok"]);
    }

    #[test]
    fn a_failed_command_keeps_its_first_lines_and_says_how_many_more() {
        let display = ToolDisplay {
            summary: "exit 1".to_owned(),
            exit_code: Some(1),
            ..ToolDisplay::default()
        };
        let output: String = (1..=12)
            .map(|i| format!("error line {i}\n"))
            .collect::<String>()
            + "exit code 1";
        let rows = finished_call(
            "Bash",
            "{}",
            Some(&Touches::command("make")),
            ToolCallStatus::Completed,
            Some(&output),
            Some(&display),
            60,
        );
        let rows: Vec<String> = rows.iter().map(|l| l.to_string()).collect();
        assert_eq!(rows.len(), 2 + 10 + 1, "{rows:#?}");
        assert_eq!(rows[2], "    error line 1");
        assert_eq!(rows[11], "    error line 10");
        assert_eq!(rows[12], "    … +2 lines (Ctrl-O shows all)");
        let all: Vec<String> = command_output("Bash(make)", &output, 60)
            .iter()
            .map(|l| l.to_string())
            .collect();
        assert_eq!(all.len(), 13);
        assert!(!all.iter().any(|l| l.contains("exit code")));
    }
}
