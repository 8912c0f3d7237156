//! The app fed synthetic events and drawn into a test backend.

use std::time::{Duration, Instant};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use wright_protocol::{
    AgentPath, Event, EventKind, Item, ItemDelta, ItemKind, ToolCallStatus, ToolDisplay,
    TurnEndReason, Usage,
};

use super::*;
use crate::host::{Input, Startup};

fn startup() -> Startup {
    Startup {
        model: "claude-test".to_owned(),
        mode: "default".to_owned(),
        window: 200_000,
        branch: Some("main".to_owned()),
        notices: Vec::new(),
        always_caveat: None,
        notify: crate::host::Notify::Bell,
    }
}

fn ev(kind: EventKind) -> Input {
    Input::Core(Box::new(Event {
        session_id: "s".to_owned(),
        turn_id: 1,
        seq: 0,
        agent: AgentPath::root(),
        parent_tool_use_id: None,
        kind,
    }))
}

fn message_start(id: &str) -> Input {
    ev(EventKind::ItemStarted {
        item: Item {
            id: id.to_owned(),
            kind: ItemKind::AgentMessage {
                text: String::new(),
                stop_reason: None,
            },
        },
    })
}

fn text(id: &str, t: &str) -> Input {
    ev(EventKind::ItemDelta {
        item_id: id.to_owned(),
        delta: ItemDelta::Text(t.to_owned()),
    })
}

fn tool(
    id: &str,
    name: &str,
    args: &str,
    status: ToolCallStatus,
    display: Option<ToolDisplay>,
) -> Item {
    Item {
        id: id.to_owned(),
        kind: ItemKind::ToolCall {
            call_id: format!("call_{id}"),
            name: name.to_owned(),
            tool_kind: None,
            touches: touches_of(name, args),
            arguments: args.to_owned(),
            status,
            output: Some("ok".to_owned()),
            display,
        },
    }
}

/// The app at `width`, its clock fixed two seconds into a running turn.
fn busy_app(width: u16) -> (App, Instant) {
    let mut app = App::new(startup(), width);
    let t0 = Instant::now();
    app.set_now(t0);
    app.input(ev(EventKind::TurnStarted));
    app.set_now(t0 + Duration::from_secs(2));
    (app, t0)
}

fn rows(lines: &[ratatui::text::Line<'static>]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The live part drawn at `width` x `height`, as text.
fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal
        .draw(|f| {
            let area = f.area();
            app.render(area, f.buffer_mut());
        })
        .unwrap();
    let buf = terminal.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        let mut line = String::new();
        let mut skip = 0;
        for x in 0..buf.area.width {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let sym = buf[(x, y)].symbol();
            skip = unicode_width::UnicodeWidthStr::width(sym).saturating_sub(1);
            line.push_str(sym);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

#[test]
fn streamed_markdown_at_odd_split_points() {
    let (mut app, _) = busy_app(60);
    app.input(message_start("m1"));
    // Split inside a word, inside the emoji's line, inside the fence and the table.
    for piece in [
        "## Res",
        "ult\n\nThe *fi",
        "x* is in `lib.rs`:\n\n- one 🎉\n- two 日",
        "本語\n\n```ru",
        "st\nlet x = 1;\n``",
        "`\n\n| a | b |\n|---|",
        "---|\n| 1 | 2 |\n\nDo",
        "ne.",
    ] {
        app.input(text("m1", piece));
    }
    let committed = rows(&app.take_history());
    insta::assert_snapshot!("streamed_committed", committed);
    insta::assert_snapshot!("streamed_live", screen(&app, 60, 8));
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 1,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    let rest = rows(&app.take_history());
    assert_eq!(rest, "\nDone.\n");
    assert!(!app.busy());
}

#[test]
fn a_finished_edit_shows_its_diff() {
    let (mut app, _) = busy_app(60);
    let display = ToolDisplay {
        summary: "+1 -1".to_owned(),
        diff: Some("--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -3,3 +3,3 @@\n fn a() {\n-    old();\n+    new();\n }\n".to_owned()),
        duration_ms: 12,
        ..ToolDisplay::default()
    };
    let args = r#"{"file_path":"src/lib.rs","old_string":"old();","new_string":"new();"}"#;
    app.input(ev(EventKind::ItemStarted {
        item: tool("t1", "Edit", args, ToolCallStatus::InProgress, None),
    }));
    app.input(ev(EventKind::ItemCompleted {
        item: tool("t1", "Edit", args, ToolCallStatus::Completed, Some(display)),
    }));
    insta::assert_snapshot!("edit_diff", rows(&app.take_history()));
}

#[test]
fn approval_menu_with_a_diff_and_its_keys() {
    let (mut app, t0) = busy_app(70);
    let args = r#"{"file_path":"src/lib.rs","old_string":"fn a() {\n    old();\n}\n","new_string":"fn a() {\n    new();\n}\n"}"#;
    app.input(ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Edit".to_owned(),
        arguments: args.to_owned(),
        touches: touches_of("Edit", args),
        reason: "edits need approval in `default` mode".to_owned(),
        suggested_rule: Some("Edit(src/**)".to_owned()),
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    insta::assert_snapshot!("approval_menu", screen(&app, 70, 16));
    let key = |c| crossterm::event::KeyEvent::from(crossterm::event::KeyCode::Char(c));
    // Typed before the menu was on screen: the prompt's, not the menu's.
    app.key(key('y'));
    assert!(app.take_actions().is_empty());
    assert_eq!(app.composer.text(), "y");
    app.frame_drawn(t0 + Duration::from_secs(2));
    app.set_now(t0 + Duration::from_secs(5));
    // The first ↓ picks the first choice, the second the next one.
    app.key(special(crossterm::event::KeyCode::Down));
    app.key(special(crossterm::event::KeyCode::Down));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::ResolveApproval {
            id: "ap1".to_owned(),
            decision: wright_protocol::ApprovalDecision::AllowSession,
        })]
    );
    assert!(app.approval.is_none());
    assert_eq!(app.composer.text(), "y", "what was typed stays");
}

fn special(code: crossterm::event::KeyCode) -> crossterm::event::KeyEvent {
    crossterm::event::KeyEvent::from(code)
}

fn typed(c: char) -> crossterm::event::KeyEvent {
    special(crossterm::event::KeyCode::Char(c))
}

/// A turn running with a Bash approval open (not yet drawn); the clock at
/// its opening.
fn approval_open() -> (App, Instant) {
    let (mut app, _) = busy_app(80);
    app.input(ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Bash".to_owned(),
        arguments: r#"{"command":"rm -rf build"}"#.to_owned(),
        touches: touches_of("Bash", r#"{"command":"rm -rf build"}"#),
        reason: "needs approval".to_owned(),
        suggested_rule: Some("Bash(rm:*)".to_owned()),
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    let now = app.now;
    (app, now)
}

fn resolved(actions: &[Action]) -> bool {
    actions.iter().any(|a| {
        matches!(
            a,
            Action::Op(
                wright_protocol::Op::ResolveApproval { .. } | wright_protocol::Op::Interrupt
            )
        )
    })
}

#[test]
fn the_project_choice_says_what_an_untrusted_project_does_with_the_rule() {
    let (mut app, _) = busy_app(140);
    app.always_caveat = Some("later sessions ignore it until you run `wright trust`".to_owned());
    app.input(ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Bash".to_owned(),
        arguments: r#"{"command":"touch a"}"#.to_owned(),
        touches: touches_of("Bash", r#"{"command":"touch a"}"#),
        reason: "needs approval".to_owned(),
        suggested_rule: Some("Bash(touch:*)".to_owned()),
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    let shown = screen(&app, 140, 20);
    let choice = shown
        .lines()
        .find(|l| l.contains("3. Always allow in this project"))
        .unwrap_or_default();
    assert!(
        choice.contains("(Bash(touch:*)); later sessions ignore it until you run `wright trust`"),
        "{shown}"
    );
    assert!(!shown.contains("session (Bash(touch:*)); later"), "{shown}");
}

#[test]
fn letters_never_answer_an_approval() {
    let (mut app, t) = approval_open();
    app.frame_drawn(t);
    let letters = "yYsSaAnNqx ";
    for (i, c) in letters.chars().enumerate() {
        // Each a whole second after the last: the menu listens, and still
        // no letter is an answer.
        app.set_now(t + Duration::from_secs(1 + i as u64));
        app.key(typed(c));
        assert!(!resolved(&app.take_actions()), "{c:?} answered");
        assert!(app.approval.is_some());
    }
    assert_eq!(app.composer.text(), letters);
    // Enter with no choice picked confirms nothing: it sends the prompt
    // into the turn, for its next step.
    app.set_now(t + Duration::from_secs(30));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(!resolved(&app.take_actions()));
    assert!(app.approval.is_some());
    assert_eq!(app.steering, [letters]);
    assert!(app.composer.is_empty());
}

#[test]
fn keys_in_the_guard_window_go_to_the_composer() {
    use crate::approval::KEY_GUARD;
    let ms = Duration::from_millis;
    let (mut app, t) = approval_open();
    // Before the menu is drawn, however long that takes.
    app.set_now(t + Duration::from_secs(10));
    for c in "yes and".chars() {
        app.key(typed(c));
    }
    assert!(app.take_actions().is_empty());
    let shown = t + Duration::from_secs(10);
    app.frame_drawn(shown);
    // Drawing again later does not restart the clock.
    app.frame_drawn(shown + Duration::from_secs(5));
    // Within the guard of the first frame, then of each key: a digit, and
    // the Enter after it, are the sentence's.
    let mut at = shown;
    for c in " always 1".chars() {
        at += ms(100);
        app.set_now(at);
        app.key(typed(c));
    }
    at += KEY_GUARD - ms(1);
    app.set_now(at);
    app.key(typed('2'));
    app.set_now(at + ms(50));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(!resolved(&app.take_actions()));
    assert!(app.approval.is_some(), "the menu is still open");
    assert_eq!(
        app.steering.first().map(String::as_str),
        Some("yes and always 12")
    );
    // A paste also makes the menu wait.
    let pasted = at + Duration::from_secs(5);
    app.set_now(pasted);
    app.paste("3");
    app.set_now(pasted + ms(10));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(!resolved(&app.take_actions()));
    assert_eq!(app.steering.last().map(String::as_str), Some("3"));
}

#[test]
fn a_digit_then_enter_after_the_guard_answers() {
    use crate::approval::KEY_GUARD;
    let (mut app, t) = approval_open();
    app.frame_drawn(t);
    app.set_now(t + KEY_GUARD);
    // A digit picks, Enter confirms; the digit alone answers nothing.
    app.key(typed('3'));
    assert!(app.take_actions().is_empty());
    app.key(special(crossterm::event::KeyCode::Enter));
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::ResolveApproval {
            id: "ap1".to_owned(),
            decision: wright_protocol::ApprovalDecision::AllowProject,
        })]
    );
    assert!(app.approval.is_none());
    assert!(app.composer.is_empty(), "the answer's keys are the menu's");

    // A pick followed by typing is forgotten: the next Enter is the prompt's.
    let (mut app, t) = approval_open();
    app.frame_drawn(t);
    app.set_now(t + Duration::from_secs(1));
    app.key(typed('1'));
    app.key(typed('x'));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(!resolved(&app.take_actions()));
    assert!(app.approval.is_some());
    // After a pause, 4 and Enter ask why; what is typed goes with the refusal.
    app.set_now(t + Duration::from_secs(3));
    app.key(typed('4'));
    app.key(special(crossterm::event::KeyCode::Enter));
    assert!(app.take_actions().is_empty());
    assert!(screen(&app, 80, 16).contains("why (optional):"));
    for c in "use cargo 2".chars() {
        app.key(typed(c));
    }
    app.key(special(crossterm::event::KeyCode::Enter));
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::ResolveApproval {
            id: "ap1".to_owned(),
            decision: wright_protocol::ApprovalDecision::Deny {
                note: Some("use cargo 2".to_owned())
            },
        })]
    );
    assert!(
        !app.composer.text().contains("cargo"),
        "the reason was the menu's"
    );
}

#[test]
fn esc_at_an_approval_refuses_and_stops_the_turn() {
    let (mut app, _) = busy_app(60);
    app.input(ev(EventKind::ApprovalRequested {
        id: "ap1".to_owned(),
        tool: "Bash".to_owned(),
        arguments: r#"{"command":"rm -rf build && make"}"#.to_owned(),
        touches: touches_of("Bash", r#"{"command":"rm -rf build && make"}"#),
        reason: "needs approval".to_owned(),
        suggested_rule: None,
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    app.key(crossterm::event::KeyEvent::from(
        crossterm::event::KeyCode::Esc,
    ));
    let actions = app.take_actions();
    assert_eq!(actions.len(), 2);
    // The interrupt first, so the turn stops at the question.
    assert_eq!(actions[0], Action::Op(wright_protocol::Op::Interrupt));
    assert!(matches!(
        &actions[1],
        Action::Op(wright_protocol::Op::ResolveApproval { .. })
    ));
}

#[test]
fn status_line_spinner_running_tool_and_queue() {
    let (mut app, _) = busy_app(80);
    app.input(ev(EventKind::Usage {
        request: Usage {
            input_tokens: 50_000,
            output_tokens: 1000,
            ..Usage::default()
        },
        total: Usage::default(),
        cost_usd: 0.5,
        total_cost_usd: 1.25,
        duration_ms: 10,
        model: "claude-test".to_owned(),
    }));
    app.input(ev(EventKind::ItemStarted {
        item: tool(
            "t1",
            "Bash",
            r#"{"command":"cargo test"}"#,
            ToolCallStatus::InProgress,
            None,
        ),
    }));
    for i in 0..8 {
        app.input(ev(EventKind::ItemDelta {
            item_id: "t1".to_owned(),
            delta: ItemDelta::ToolOutput(format!("test {i} ... ok\n")),
        }));
    }
    // Ctrl-Q keeps a prompt for after the turn.
    app.composer.set_text("next thing");
    app.key(crossterm::event::KeyEvent::new(
        crossterm::event::KeyCode::Char('q'),
        crossterm::event::KeyModifiers::CONTROL,
    ));
    insta::assert_snapshot!("status_and_tool_box", screen(&app, 80, 12));
    assert!(app.take_actions().is_empty(), "queued, not sent");
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 1,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    assert_eq!(
        app.take_actions(),
        [Action::Op(wright_protocol::Op::UserTurn {
            text: "next thing".to_owned()
        })]
    );
}

#[test]
fn narrow_terminal_and_wide_characters() {
    let (mut app, _) = busy_app(40);
    app.input(message_start("m1"));
    app.input(text(
        "m1",
        "日本語のテキストはとても長いので折り返されます。 🎉🎉🎉 emoji too\nnext",
    ));
    insta::assert_snapshot!("narrow_committed", rows(&app.take_history()));
    insta::assert_snapshot!("narrow_live", screen(&app, 40, 8));
}

#[test]
fn subagents_show_as_a_tree_under_their_task() {
    let (mut app, _) = busy_app(70);
    app.input(ev(EventKind::ItemStarted {
        item: tool(
            "t1",
            "Task",
            r#"{"subagent_type":"explore","description":"find the parser"}"#,
            ToolCallStatus::InProgress,
            None,
        ),
    }));
    let sub = |kind| {
        Input::Core(Box::new(Event {
            session_id: "s".to_owned(),
            turn_id: 1,
            seq: 0,
            agent: AgentPath("root/explore-1".to_owned()),
            parent_tool_use_id: Some("call_t1".to_owned()),
            kind,
        }))
    };
    app.input(sub(EventKind::ItemStarted {
        item: tool(
            "s1",
            "Grep",
            r#"{"pattern":"fn parse"}"#,
            ToolCallStatus::InProgress,
            None,
        ),
    }));
    // Two requests of the child's: its tokens are theirs, not the
    // session's total (which counts the parent's too).
    let request = Usage {
        input_tokens: 600,
        output_tokens: 150,
        ..Usage::default()
    };
    app.input(sub(EventKind::Usage {
        request,
        total: Usage {
            input_tokens: 50_000,
            output_tokens: 300,
            ..Usage::default()
        },
        cost_usd: 0.0,
        total_cost_usd: 0.0,
        duration_ms: 1,
        model: "m".to_owned(),
    }));
    app.input(sub(EventKind::Usage {
        request,
        total: Usage {
            input_tokens: 50_600,
            output_tokens: 450,
            ..Usage::default()
        },
        cost_usd: 0.0,
        total_cost_usd: 0.0,
        duration_ms: 1,
        model: "m".to_owned(),
    }));
    insta::assert_snapshot!("subagent_tree", screen(&app, 70, 8));
}

#[test]
fn tiny_terminals_never_panic() {
    let (mut app, _) = busy_app(20);
    app.input(message_start("m1"));
    app.input(text("m1", "| a | b |\n|---|---|\n| 1 | 2 |\n"));
    app.input(ev(EventKind::ItemStarted {
        item: tool(
            "t1",
            "Bash",
            r#"{"command":"x"}"#,
            ToolCallStatus::InProgress,
            None,
        ),
    }));
    for (w, h) in [(20, 5), (1, 1), (5, 2), (20, 1), (3, 30)] {
        app.set_width(w);
        let _ = screen(&app, w, h);
        let _ = app.desired_height(w);
    }
    app.input(ev(EventKind::ApprovalRequested {
        id: "a".to_owned(),
        tool: "Write".to_owned(),
        arguments: r#"{"file_path":"x","content":"a\nb\n"}"#.to_owned(),
        touches: touches_of("Write", r#"{"file_path":"x","content":"a\nb\n"}"#),
        reason: "r".to_owned(),
        suggested_rule: None,
        suggested_rules: Vec::new(),
        still_asks: None,
        call_id: None,
    }));
    insta::assert_snapshot!("tiny_20x5", screen(&app, 20, 5));
}

#[test]
fn double_ctrl_c_when_idle_leaves_with_130() {
    let mut app = App::new(startup(), 40);
    let t0 = Instant::now();
    app.set_now(t0);
    // The stub composer answers no keys; drive the outcome directly.
    app.input(ev(EventKind::TurnStarted));
    app.input(ev(EventKind::TurnCompleted {
        reason: TurnEndReason::Completed,
        model_requests: 0,
        structured_output: None,
        structured_output_failed: false,
        plan: None,
    }));
    app.ctrl_c_for_test();
    assert_eq!(app.exit_code(), None);
    assert!(screen(&app, 40, 3).contains("Ctrl-C again"));
    app.set_now(t0 + Duration::from_millis(500));
    app.ctrl_c_for_test();
    assert_eq!(app.exit_code(), Some(130));
}

#[test]
fn commands_answer_or_become_ops() {
    let mut app = App::new(startup(), 60);
    app.submit("/mode plan".to_owned());
    app.submit("/model other".to_owned());
    app.submit("/rewind 2".to_owned());
    app.submit("/nonsense".to_owned());
    app.submit("/compact keep names".to_owned());
    assert_eq!(
        app.take_actions(),
        [
            Action::Op(wright_protocol::Op::SetPermissionMode {
                mode: "plan".to_owned()
            }),
            Action::Op(wright_protocol::Op::SetModel {
                model: Some("other".to_owned())
            }),
            Action::Op(wright_protocol::Op::Rewind {
                turn: Some(2),
                dry_run: true
            }),
            // Custom commands (and typos) are the host's to expand or refuse.
            Action::Host(crate::host::HostRequest::Custom {
                command: "/nonsense".to_owned(),
                args: String::new(),
            }),
            Action::Op(wright_protocol::Op::Compact {
                focus: Some("keep names".to_owned())
            }),
        ]
    );
    // /compact runs as a turn: a prompt now goes into it (and so becomes
    // the next turn).
    app.submit("/usr/bin/foo is broken".to_owned());
    assert_eq!(app.steering, ["/usr/bin/foo is broken"]);
    app.input(ev(EventKind::ModeChanged {
        mode: "plan".to_owned(),
    }));
    assert_eq!(app.status.mode, "plan");
}

#[test]
fn a_rewind_that_overwrites_files_asks_first() {
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
    use wright_protocol::{RewindFileAction, RewindFilePreview};
    let mut app = App::new(startup(), 60);
    let preview = |files: Vec<RewindFilePreview>| {
        ev(EventKind::RewindPreview {
            turn: 2,
            prompt: "fix it".to_owned(),
            files,
        })
    };
    let rewind = Action::Op(wright_protocol::Op::Rewind {
        turn: Some(2),
        dry_run: false,
    });
    // Nothing on disk changes: no question.
    app.input(preview(Vec::new()));
    assert_eq!(app.take_actions(), std::slice::from_ref(&rewind));
    // A file would be overwritten: asked; n keeps it, y rewinds.
    let file = RewindFilePreview {
        path: "/p/a.rs".into(),
        action: RewindFileAction::Overwrite,
    };
    app.input(preview(vec![file.clone()]));
    assert!(rows(&app.take_history()).contains("overwrite /p/a.rs"));
    assert!(app.take_actions().is_empty());
    app.key(KeyEvent::new(KeyCode::Char('n'), KeyModifiers::NONE));
    assert!(app.take_actions().is_empty());
    assert_eq!(app.rewind_confirm, None);
    app.input(preview(vec![file]));
    app.key(KeyEvent::new(KeyCode::Char('x'), KeyModifiers::NONE));
    assert!(app.take_actions().is_empty());
    app.key(KeyEvent::new(KeyCode::Char('y'), KeyModifiers::NONE));
    assert_eq!(app.take_actions(), [rewind]);
}

#[path = "app_ask_tests.rs"]
mod ask;

#[path = "app_shell_tests.rs"]
mod shell;

/// What the core says a call of a built-in tool touches (tests name tools
/// and arguments; front ends read only this).
pub(crate) fn touches_of(name: &str, args: &str) -> Option<wright_protocol::Touches> {
    use wright_protocol::Touches;
    let v: serde_json::Value = serde_json::from_str(args).ok()?;
    let s = |k: &str| v.get(k).and_then(|x| x.as_str()).map(str::to_owned);
    Some(match name {
        "Read" => Touches::read(s("file_path")?),
        "Edit" | "Write" | "MultiEdit" => Touches::write(s("file_path")?),
        "LS" => Touches::read(s("path").unwrap_or_else(|| ".".to_owned())),
        "Bash" => Touches::command(s("command")?),
        "WebFetch" => Touches::fetch(s("url")?),
        _ => return None,
    })
}

#[test]
fn a_broken_answer_is_replaced_by_the_retry_or_stays_marked_where_it_went_out() {
    let retry = |superseded: &str| {
        ev(EventKind::Retrying {
            attempt: 1,
            delay_ms: 500,
            reason: "connection failed".to_owned(),
            superseded: vec![superseded.to_owned()],
        })
    };
    // Only a partial line shown (still live): the retry replaces it.
    let (mut app, _) = busy_app(160);
    app.input(message_start("m1"));
    app.input(text("m1", "The fix is in"));
    app.input(retry("m1"));
    app.input(message_start("m2"));
    app.input(text("m2", "The fix is in lib.rs.\n"));
    let committed = rows(&app.take_history());
    assert_eq!(committed.matches("The fix is in").count(), 1, "{committed}");
    assert!(
        committed.contains("retrying (1) after a dropped stream"),
        "{committed}"
    );
    assert!(!committed.contains("broke off"), "{committed}");
    // Lines that went to the scrollback stay, marked; the retry follows.
    let (mut app, _) = busy_app(160);
    app.input(message_start("m1"));
    app.input(text("m1", "First line.\nThe fix is in"));
    app.input(retry("m1"));
    app.input(message_start("m2"));
    app.input(text("m2", "First line.\nThe fix is in lib.rs.\n"));
    let committed = rows(&app.take_history());
    let broken = committed.find("First line.").unwrap();
    let marked = committed
        .find("the response above broke off; retrying (1) after a dropped stream")
        .unwrap();
    let retried = committed.find("The fix is in lib.rs.").unwrap();
    assert!(broken < marked && marked < retried, "{committed}");
    assert!(
        !committed[..marked].contains("The fix is in"),
        "the live part went: {committed}"
    );
}
