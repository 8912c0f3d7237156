//! Rendering snapshots through ratatui's `TestBackend`, with the cursor
//! position checked against what is drawn.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::layout::Rect;

use super::*;

fn draw(c: &Composer, width: u16, height: u16) -> (String, (u16, u16)) {
    let mut term = Terminal::new(TestBackend::new(width, height)).unwrap();
    term.draw(|f| {
        let area = f.area();
        c.render(area, f.buffer_mut());
    })
    .unwrap();
    let cursor = c.cursor_position(Rect::new(0, 0, width, height));
    (term.backend().to_string(), cursor)
}

fn press(c: &mut Composer, code: KeyCode, mods: KeyModifiers) {
    c.handle_key(KeyEvent::new(code, mods));
}

fn type_in(c: &mut Composer, text: &str) {
    for ch in text.chars() {
        if ch == '\n' {
            press(c, KeyCode::Enter, KeyModifiers::SHIFT);
        } else {
            press(c, KeyCode::Char(ch), KeyModifiers::NONE);
        }
    }
}

#[test]
fn empty_shows_the_prompt_and_placeholder() {
    let c = Composer::new();
    assert_eq!(c.desired_height(60), 1);
    let (screen, cursor) = draw(&c, 60, 2);
    insta::assert_snapshot!(screen, @r#"
    "› Ask anything · / commands · @ files · ! shell             "
    "                                                            "
    "#);
    assert_eq!(cursor, (2, 0));
}

#[test]
fn multi_line_text_wraps_under_the_prompt() {
    let mut c = Composer::new();
    type_in(
        &mut c,
        "fix the failing test in the parser module\nthen run it",
    );
    assert_eq!(c.desired_height(24), 3);
    let (screen, cursor) = draw(&c, 24, 4);
    insta::assert_snapshot!(screen, @r#"
    "› fix the failing test  "
    "  in the parser module  "
    "  then run it           "
    "                        "
    "#);
    assert_eq!(cursor, (13, 2));
}

#[test]
fn narrow_terminal_with_wide_chars() {
    let mut c = Composer::new();
    type_in(&mut c, "日本語のテキストと絵文字👍🏽です");
    assert_eq!(c.desired_height(20), 2);
    let (screen, cursor) = draw(&c, 20, 3);
    insta::assert_snapshot!(screen);
    assert_eq!(cursor, (14, 1));
    press(&mut c, KeyCode::Home, KeyModifiers::NONE);
    for _ in 0..9 {
        press(&mut c, KeyCode::Right, KeyModifiers::NONE);
    }
    // Nine wide chars fill the 18 cells of the first row exactly: the
    // cursor is at the start of the second.
    assert_eq!(draw(&c, 20, 3).1, (2, 1));
    press(&mut c, KeyCode::Left, KeyModifiers::NONE);
    assert_eq!(draw(&c, 20, 3).1, (18, 0));
}

#[test]
fn command_popup_lists_matches_with_descriptions() {
    let mut c = Composer::new();
    c.set_commands(
        [
            ("/compact", "Summarize the conversation to free context"),
            ("/context", "Show what fills the context window"),
            ("/cost", "Show the session's cost"),
            ("/help", "List commands and keys"),
        ]
        .iter()
        .map(|(n, d)| CommandEntry {
            name: (*n).into(),
            description: (*d).into(),
        })
        .collect(),
    );
    type_in(&mut c, "/co");
    press(&mut c, KeyCode::Down, KeyModifiers::NONE);
    assert_eq!(c.desired_height(50), 4);
    let (screen, cursor) = draw(&c, 50, 4);
    insta::assert_snapshot!(screen, @r#"
    "› /co                                             "
    "  /compact  Summarize the conversation to free con"
    "› /context  Show what fills the context window    "
    "  /cost     Show the session's cost               "
    "#);
    assert_eq!(cursor, (5, 0));
}

#[test]
fn file_popup_shows_the_best_eight() {
    let mut c = Composer::new();
    let paths = (0..12).map(|i| format!("src/file{i:02}.rs")).collect();
    c.set_file_source(FileSource::from_paths(paths));
    type_in(&mut c, "see @file");
    press(&mut c, KeyCode::Up, KeyModifiers::NONE);
    assert_eq!(c.desired_height(30), 9);
    let (screen, cursor) = draw(&c, 30, 9);
    insta::assert_snapshot!(screen);
    assert_eq!(cursor, (11, 0));
}

#[test]
fn a_long_command_list_scrolls_to_the_selection() {
    let mut c = Composer::new();
    c.set_commands(
        (0..12)
            .map(|i| CommandEntry {
                name: format!("/cmd{i:02}"),
                description: format!("command number {i}"),
            })
            .collect(),
    );
    type_in(&mut c, "/");
    for _ in 0..9 {
        press(&mut c, KeyCode::Down, KeyModifiers::NONE);
    }
    assert_eq!(c.desired_height(30), 9);
    let (screen, _) = draw(&c, 30, 9);
    insta::assert_snapshot!(screen);
}

#[test]
fn reverse_search_shows_its_line_and_the_match() {
    let mut c = Composer::new();
    for p in ["cargo build --release", "git log"] {
        type_in(&mut c, p);
        press(&mut c, KeyCode::Enter, KeyModifiers::NONE);
    }
    press(&mut c, KeyCode::Char('r'), KeyModifiers::CONTROL);
    type_in(&mut c, "build");
    assert_eq!(c.desired_height(40), 2);
    let (screen, cursor) = draw(&c, 40, 2);
    insta::assert_snapshot!(screen, @r#"
    "› cargo build --release                 "
    "(reverse-i-search)`build`:              "
    "#);
    assert_eq!(cursor, (27, 1));
}

#[test]
fn collapsed_paste_is_drawn_as_its_label() {
    let mut c = Composer::new();
    type_in(&mut c, "why: ");
    c.handle_paste(&"panicked at src/x.rs\n".repeat(40));
    let (screen, cursor) = draw(&c, 40, 1);
    insta::assert_snapshot!(screen, @r#""› why: [pasted 40 lines]                ""#);
    assert_eq!(cursor, (24, 0));
}

#[test]
fn tall_input_scrolls_to_keep_the_cursor_visible() {
    let mut c = Composer::new();
    let text: Vec<String> = (1..=15).map(|i| format!("line {i}")).collect();
    type_in(&mut c, &text.join("\n"));
    assert_eq!(c.desired_height(20), MAX_INPUT_ROWS as u16);
    let (screen, cursor) = draw(&c, 20, 10);
    insta::assert_snapshot!(screen);
    assert_eq!(cursor, (9, 9));
    for _ in 0..12 {
        press(&mut c, KeyCode::Up, KeyModifiers::NONE);
    }
    let (screen, cursor) = draw(&c, 20, 10);
    assert!(screen.starts_with("\"  line 3"), "{screen}");
    assert_eq!(cursor, (8, 0));
    for _ in 0..2 {
        press(&mut c, KeyCode::Up, KeyModifiers::NONE);
    }
    let (screen, _) = draw(&c, 20, 10);
    assert!(screen.starts_with("\"› line 1"), "{screen}");
}

#[test]
fn tiny_sizes_never_panic_and_keep_the_cursor_inside() {
    let mut c = Composer::new();
    c.set_commands(vec![CommandEntry {
        name: "/help".into(),
        description: "List commands".into(),
    }]);
    type_in(
        &mut c,
        " a long prompt 語 with 👍🏽 wide text\nand lines\n/he",
    );
    press(&mut c, KeyCode::Home, KeyModifiers::CONTROL);
    type_in(&mut c, "/he");
    assert!(c.is_popup_open());
    for width in 1..=25 {
        for height in 1..=6 {
            let (_, (x, y)) = draw(&c, width, height);
            assert!(x < width && y < height, "{width}x{height}: ({x}, {y})");
        }
    }
    let (screen, _) = draw(&c, 20, 5);
    insta::assert_snapshot!(screen, @r#"
    "› /he a long prompt "
    "  語 with 👍🏽 wide   " Hidden by multi-width symbols: [(3, " "), (11, " ")]
    "  text              "
    "  and lines         "
    "› /help  List comman"
    "#);
    // Empty areas, and areas outside the buffer, draw nothing.
    let mut buf = ratatui::buffer::Buffer::empty(Rect::new(0, 0, 4, 4));
    c.render(Rect::new(0, 0, 0, 3), &mut buf);
    c.render(Rect::new(2, 2, 10, 10), &mut buf);
    c.render(Rect::new(9, 9, 10, 10), &mut buf);
    assert_eq!(c.cursor_position(Rect::new(3, 4, 0, 0)), (3, 4));
}

#[test]
fn styles_mark_shell_commands_pastes_and_search_hits() {
    use ratatui::style::{Color, Modifier};
    let area = Rect::new(0, 0, 30, 2);
    let mut c = Composer::new();
    type_in(&mut c, "!ls ");
    c.handle_paste(&"x\n".repeat(9));
    let mut buf = ratatui::buffer::Buffer::empty(area);
    c.render(area, &mut buf);
    assert_eq!(buf[(0, 0)].fg, Color::Magenta);
    assert_eq!(buf[(2, 0)].fg, Color::Reset);
    assert_eq!(buf[(6, 0)].fg, Color::Cyan);
    press(&mut c, KeyCode::Enter, KeyModifiers::NONE);
    press(&mut c, KeyCode::Char('r'), KeyModifiers::CONTROL);
    type_in(&mut c, "ls");
    let mut buf = ratatui::buffer::Buffer::empty(area);
    c.render(area, &mut buf);
    assert_eq!(buf[(0, 0)].fg, Color::Magenta);
    assert!(buf[(3, 0)].modifier.contains(Modifier::UNDERLINED));
    assert!(!buf[(5, 0)].modifier.contains(Modifier::UNDERLINED));
}
