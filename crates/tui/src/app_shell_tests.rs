//! `!cmd`, the "always" choices for command chains, and NO_COLOR.

use ratatui::style::Color;

use super::*;

fn approval(command: &str, rules: &[&str], still_asks: Option<&str>) -> Input {
    ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Bash".to_owned(),
        arguments: serde_json::json!({ "command": command }).to_string(),
        touches: Some(wright_protocol::Touches::command(command)),
        reason: "running needs approval in `default` mode".to_owned(),
        suggested_rule: rules.first().map(|r| (*r).to_owned()),
        suggested_rules: rules.iter().map(|r| (*r).to_owned()).collect(),
        still_asks: still_asks.map(str::to_owned),
        call_id: None,
    })
}

fn turn_completed() -> Input {
    ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 0,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    })
}

#[test]
fn bang_sends_the_command_to_the_core_and_shows_it_like_a_bash_call() {
    let mut app = App::new(startup(), 60);
    app.submit("!echo hi".to_owned());
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::UserShell {
            command: "echo hi".to_owned()
        })]
    );
    assert!(app.busy());
    assert!(rows(&app.take_history()).contains("!echo hi"));
    // The core runs it as a Bash call; the UI shows it as one.
    let args = r#"{"command":"echo hi"}"#;
    app.input(ev(EventKind::ItemStarted {
        item: tool("u1", "Bash", args, ToolCallStatus::InProgress, None),
    }));
    app.input(ev(EventKind::ItemDelta {
        item_id: "u1".to_owned(),
        delta: ItemDelta::ToolOutput("hi\n".to_owned()),
    }));
    assert!(screen(&app, 60, 10).contains("hi"));
    app.input(ev(EventKind::ItemCompleted {
        item: tool("u1", "Bash", args, ToolCallStatus::Completed, None),
    }));
    app.input(turn_completed());
    // Unlike the model's calls, the output stays in the transcript.
    let shown = rows(&app.take_history());
    assert!(
        shown.contains("Bash(echo hi)") && shown.contains("\n    ok\n"),
        "{shown}"
    );
    assert!(!app.busy());
    // The model's own calls keep their first lines, and Ctrl-O shows all.
    app.submit("go".to_owned());
    app.input(ev(EventKind::ItemCompleted {
        item: tool("t2", "Bash", args, ToolCallStatus::Completed, None),
    }));
    assert!(rows(&app.take_history()).contains("\n    ok\n"));
    app.key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('o'),
        crossterm::event::KeyModifiers::CONTROL,
    ));
    assert!(rows(&app.take_history()).contains("output of Bash(echo hi):\n    ok\n"));
}

#[test]
fn bang_alone_explains_and_bang_during_a_turn_waits_for_it() {
    let mut app = App::new(startup(), 60);
    app.submit("!  ".to_owned());
    assert!(app.take_actions().is_empty());
    assert!(rows(&app.take_history()).contains("`!` runs a shell command"));
    app.submit("first".to_owned());
    app.take_actions();
    app.submit("!git status".to_owned());
    assert!(app.take_actions().is_empty());
    assert_eq!(app.queued.len(), 1);
    app.input(turn_completed());
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::UserShell {
            command: "git status".to_owned()
        })]
    );
}

#[test]
fn always_on_a_chain_shows_every_rule_it_saves() {
    let (mut app, _) = busy_app(100);
    app.input(approval(
        "cargo build && cargo test | head",
        &["Bash(cargo build:*)", "Bash(cargo test:*)", "Bash(head:*)"],
        None,
    ));
    let shown = screen(&app, 100, 12);
    assert!(
        shown.contains(
            "Yes, and don't ask again this session (Bash(cargo build:*), Bash(cargo test:*), Bash(head:*))"
        ),
        "{shown}"
    );
    assert!(
        shown.contains("Always allow in this project (Bash(cargo build:*)"),
        "{shown}"
    );
}

#[test]
fn always_never_promises_to_stop_asking_when_a_part_still_asks() {
    let (mut app, _) = busy_app(120);
    app.input(approval(
        "make && rm -rf build",
        &["Bash(make:*)"],
        Some("`rm -rf build` asks every time: it deletes recursively"),
    ));
    let shown = screen(&app, 120, 12);
    assert!(!shown.contains("don't ask again"), "{shown}");
    assert!(
        shown.contains("Yes, and allow Bash(make:*) this session; it will still ask"),
        "{shown}"
    );
    app.input(approval(
        "sudo make install",
        &[],
        Some("`sudo make install` asks every time: it runs with elevated privileges"),
    ));
    let shown = screen(&app, 120, 12);
    assert!(shown.contains("no rule can be saved"), "{shown}");
    assert!(!shown.contains("Always allow"), "{shown}");
}

/// Every colour of every cell drawn.
fn colours(app: &App, width: u16, height: u16) -> Vec<Color> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            app.render(area, f.buffer_mut());
        })
        .unwrap();
    terminal
        .backend()
        .buffer()
        .content()
        .iter()
        .flat_map(|c| {
            let style = c.style();
            [style.fg, style.bg, style.underline_color]
        })
        .flatten()
        .collect()
}

/// An app showing most of what the UI colours: notices, an error, a
/// finished edit's diff, a running tool, the status line and an approval
/// menu with a diff.
fn colourful_app(no_color: bool) -> App {
    let (mut app, _) = busy_app(80);
    app.set_no_color(no_color);
    app.input(ev(EventKind::Warning {
        message: "careful".to_owned(),
    }));
    app.input(ev(EventKind::Error {
        message: "broken".to_owned(),
    }));
    let display = ToolDisplay {
        summary: "+1 -1".to_owned(),
        diff: Some("--- a/x\n+++ b/x\n@@ -1,1 +1,1 @@\n-old\n+new\n".to_owned()),
        ..ToolDisplay::default()
    };
    let edit = r#"{"file_path":"x","old_string":"old","new_string":"new"}"#;
    app.input(ev(EventKind::ItemCompleted {
        item: tool("e1", "Edit", edit, ToolCallStatus::Completed, Some(display)),
    }));
    app.input(message_start("m1"));
    app.input(text("m1", "# Title\n\n```rust\nfn main() {}\n```\n"));
    app.input(ev(EventKind::ItemStarted {
        item: tool(
            "t1",
            "Bash",
            r#"{"command":"x"}"#,
            ToolCallStatus::InProgress,
            None,
        ),
    }));
    app.input(ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Edit".to_owned(),
        arguments: edit.to_owned(),
        touches: super::touches_of("Edit", edit),
        reason: "edits need approval".to_owned(),
        suggested_rule: Some("Edit(x)".to_owned()),
        suggested_rules: vec!["Edit(x)".to_owned()],
        still_asks: None,
        call_id: None,
    }));
    app
}

#[test]
fn no_color_draws_no_colour_but_keeps_the_diff_signs() {
    // Without NO_COLOR the same screen has colours: the check below means something.
    let mut coloured = colourful_app(false);
    assert!(
        colours(&coloured, 80, 24)
            .iter()
            .any(|c| *c != Color::Reset)
    );
    let history = coloured.take_history();
    assert!(
        history
            .iter()
            .flat_map(|l| &l.spans)
            .any(|s| s.style.fg.is_some())
    );

    let mut plain = colourful_app(true);
    let drawn = colours(&plain, 80, 24);
    assert!(drawn.iter().all(|c| *c == Color::Reset), "{drawn:?}");
    let history = plain.take_history();
    for line in &history {
        assert_eq!((line.style.fg, line.style.bg), (None, None), "{line}");
        for span in &line.spans {
            assert_eq!((span.style.fg, span.style.bg), (None, None), "{line}");
        }
    }
    // Diff lines are still told apart by their signs.
    let text = rows(&history);
    assert!(text.contains("-old") || text.contains("- old"), "{text}");
    assert!(text.contains("+new") || text.contains("+ new"), "{text}");
}
