//! Every key binding of the composer, driven through `handle_key`.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

use super::*;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn with(code: KeyCode, mods: KeyModifiers) -> KeyEvent {
    KeyEvent::new(code, mods)
}

fn ctrl(c: char) -> KeyEvent {
    with(KeyCode::Char(c), KeyModifiers::CONTROL)
}

fn alt(c: char) -> KeyEvent {
    with(KeyCode::Char(c), KeyModifiers::ALT)
}

fn typed(text: &str) -> Composer {
    let mut c = Composer::new();
    type_in(&mut c, text);
    c
}

fn type_in(c: &mut Composer, text: &str) {
    for ch in text.chars() {
        let k = if ch == '\n' {
            with(KeyCode::Enter, KeyModifiers::SHIFT)
        } else {
            key(KeyCode::Char(ch))
        };
        assert_eq!(c.handle_key(k), ComposerOutcome::None);
    }
}

fn press(c: &mut Composer, keys: &[KeyEvent]) -> ComposerOutcome {
    let mut last = ComposerOutcome::None;
    for k in keys {
        last = c.handle_key(*k);
    }
    last
}

/// The text with `|` at the cursor.
fn shown(c: &Composer) -> String {
    let mut s = c.text().to_owned();
    s.insert(c.editor.cursor(), '|');
    s
}

fn commands() -> Vec<CommandEntry> {
    [
        ("/compact", "Summarize the conversation"),
        ("/context", "Show context use"),
        ("/help", "Show help"),
    ]
    .iter()
    .map(|(n, d)| CommandEntry {
        name: (*n).into(),
        description: (*d).into(),
    })
    .collect()
}

fn submitted(c: &mut Composer) -> String {
    match c.handle_key(key(KeyCode::Enter)) {
        ComposerOutcome::Submit(text) => text,
        other => panic!("expected a submit, got {other:?}"),
    }
}

#[test]
fn arrows_step_over_wide_chars_and_emoji_as_one() {
    let mut c = typed("a語👍🏽b");
    press(&mut c, &[key(KeyCode::Left), key(KeyCode::Left)]);
    assert_eq!(shown(&c), "a語|👍🏽b");
    press(&mut c, &[key(KeyCode::Left), ctrl('b')]);
    assert_eq!(shown(&c), "|a語👍🏽b");
    press(
        &mut c,
        &[key(KeyCode::Left), key(KeyCode::Right), ctrl('f')],
    );
    assert_eq!(shown(&c), "a語|👍🏽b");
    press(&mut c, &[key(KeyCode::Backspace)]);
    assert_eq!(shown(&c), "a|👍🏽b");
    press(&mut c, &[key(KeyCode::Delete)]);
    assert_eq!(shown(&c), "a|b");
}

#[test]
fn word_jumps_skip_punctuation() {
    let mut c = typed("cargo test --lib foo::bar");
    press(&mut c, &[alt('b')]);
    assert_eq!(shown(&c), "cargo test --lib foo::|bar");
    press(&mut c, &[with(KeyCode::Left, KeyModifiers::CONTROL)]);
    assert_eq!(shown(&c), "cargo test --lib |foo::bar");
    press(&mut c, &[with(KeyCode::Left, KeyModifiers::ALT)]);
    assert_eq!(shown(&c), "cargo test --|lib foo::bar");
    press(&mut c, &[alt('f')]);
    assert_eq!(shown(&c), "cargo test --lib| foo::bar");
    press(&mut c, &[with(KeyCode::Right, KeyModifiers::CONTROL)]);
    assert_eq!(shown(&c), "cargo test --lib foo|::bar");
}

#[test]
fn home_end_and_ctrl_a_e_work_per_line() {
    let mut c = typed("first\nsecond");
    press(&mut c, &[ctrl('a')]);
    assert_eq!(shown(&c), "first\n|second");
    press(&mut c, &[key(KeyCode::Left), key(KeyCode::Home)]);
    assert_eq!(shown(&c), "|first\nsecond");
    press(&mut c, &[ctrl('e')]);
    assert_eq!(shown(&c), "first|\nsecond");
    press(&mut c, &[with(KeyCode::End, KeyModifiers::CONTROL)]);
    assert_eq!(shown(&c), "first\nsecond|");
    press(
        &mut c,
        &[
            with(KeyCode::Home, KeyModifiers::CONTROL),
            key(KeyCode::End),
        ],
    );
    assert_eq!(shown(&c), "first|\nsecond");
}

#[test]
fn kills_yank_and_undo() {
    let mut c = typed("git commit -m wip");
    press(&mut c, &[ctrl('w')]);
    assert_eq!(shown(&c), "git commit -m |");
    press(&mut c, &[ctrl('w')]);
    assert_eq!(shown(&c), "git commit |");
    press(&mut c, &[ctrl('y')]);
    assert_eq!(shown(&c), "git commit -m wip|");
    press(&mut c, &[ctrl('a'), alt('f'), ctrl('k')]);
    assert_eq!(shown(&c), "git|");
    press(&mut c, &[ctrl('z')]);
    assert_eq!(shown(&c), "git| commit -m wip");
    press(&mut c, &[ctrl('u')]);
    assert_eq!(shown(&c), "| commit -m wip");
    press(&mut c, &[ctrl('_')]);
    assert_eq!(shown(&c), "git| commit -m wip");
    press(&mut c, &[alt('d')]);
    assert_eq!(shown(&c), "git| -m wip");
    press(
        &mut c,
        &[ctrl('e'), with(KeyCode::Backspace, KeyModifiers::ALT)],
    );
    assert_eq!(shown(&c), "git -m |");
    press(&mut c, &[with(KeyCode::Backspace, KeyModifiers::CONTROL)]);
    assert_eq!(shown(&c), "git -|");
    press(&mut c, &[ctrl('y')]);
    assert_eq!(shown(&c), "git -m wip|");
    press(&mut c, &[ctrl('7'), ctrl('/')]);
    assert_eq!(shown(&c), "git -m |");
}

#[test]
fn ctrl_k_and_u_join_lines_at_line_edges() {
    let mut c = typed("ab\ncd");
    press(&mut c, &[ctrl('a'), ctrl('u')]);
    assert_eq!(shown(&c), "ab|cd");
    press(&mut c, &[ctrl('k'), ctrl('k')]);
    assert_eq!(shown(&c), "ab|");
}

#[test]
fn typing_is_undone_a_word_at_a_time() {
    let mut c = typed("hello big world");
    press(&mut c, &[ctrl('z')]);
    assert_eq!(c.text(), "hello big");
    press(&mut c, &[ctrl('z'), ctrl('z')]);
    assert_eq!(c.text(), "");
}

#[test]
fn ctrl_c_clears_into_undo_then_reports_on_empty() {
    let mut c = typed("some text");
    assert_eq!(c.handle_key(ctrl('c')), ComposerOutcome::None);
    assert!(c.is_empty());
    assert_eq!(c.handle_key(ctrl('c')), ComposerOutcome::CtrlC);
    press(&mut c, &[ctrl('z')]);
    assert_eq!(shown(&c), "some text|");
}

#[test]
fn ctrl_d_exits_only_when_empty() {
    let mut c = typed("ab");
    press(&mut c, &[key(KeyCode::Left)]);
    assert_eq!(c.handle_key(ctrl('d')), ComposerOutcome::None);
    assert_eq!(shown(&c), "a|");
    press(&mut c, &[ctrl('h')]);
    assert!(c.is_empty());
    assert_eq!(c.handle_key(ctrl('d')), ComposerOutcome::Exit);
}

#[test]
fn esc_shift_tab_and_releases() {
    let mut c = typed("x");
    assert_eq!(c.handle_key(key(KeyCode::Esc)), ComposerOutcome::Escape);
    assert_eq!(
        c.handle_key(key(KeyCode::BackTab)),
        ComposerOutcome::CycleMode
    );
    let mut release = key(KeyCode::Char('y'));
    release.kind = KeyEventKind::Release;
    assert_eq!(c.handle_key(release), ComposerOutcome::None);
    assert_eq!(c.text(), "x");
    // An Alt chord with no binding types nothing; AltGr (Ctrl+Alt) types.
    press(&mut c, &[alt('x')]);
    assert_eq!(c.text(), "x");
    press(
        &mut c,
        &[with(
            KeyCode::Char('@'),
            KeyModifiers::CONTROL | KeyModifiers::ALT,
        )],
    );
    assert_eq!(c.text(), "x@");
}

#[test]
fn enter_submits_and_newline_keys_do_not() {
    let mut c = typed("one");
    press(&mut c, &[with(KeyCode::Enter, KeyModifiers::SHIFT)]);
    press(&mut c, &[with(KeyCode::Enter, KeyModifiers::ALT)]);
    press(&mut c, &[ctrl('j')]);
    type_in(&mut c, "two\\");
    press(&mut c, &[key(KeyCode::Enter)]);
    type_in(&mut c, "three");
    assert_eq!(submitted(&mut c), "one\n\n\ntwo\nthree");
    assert!(c.is_empty());
    assert_eq!(c.handle_key(key(KeyCode::Enter)), ComposerOutcome::None);
    type_in(&mut c, "  ");
    assert_eq!(c.handle_key(key(KeyCode::Enter)), ComposerOutcome::None);
    let mut bang = typed("!ls -la");
    assert_eq!(submitted(&mut bang), "!ls -la");
}

#[test]
fn up_down_move_between_lines_keeping_the_column() {
    let mut c = typed("abcdef\nxy\nlonger line");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "abcdef\nxy|\nlonger line");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "abcdef|\nxy\nlonger line");
    press(&mut c, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert_eq!(shown(&c), "abcdef\nxy\nlonger line|");
    press(
        &mut c,
        &[key(KeyCode::Home), key(KeyCode::Right), ctrl('p')],
    );
    assert_eq!(shown(&c), "abcdef\nx|y\nlonger line");
    press(&mut c, &[ctrl('n'), key(KeyCode::Down)]);
    assert_eq!(shown(&c), "abcdef\nxy\nlonger line|");
}

#[test]
fn up_down_follow_wrapped_rows_after_a_render() {
    let mut c = typed("aaaa bbbb cccc");
    // A 7-column area leaves 5 cells of text per row.
    assert_eq!(c.desired_height(7), 3);
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "aaaa bbbb| cccc");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "aaaa| bbbb cccc");
    press(&mut c, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert_eq!(shown(&c), "aaaa bbbb cccc|");
}

#[test]
fn history_walk_keeps_the_draft_and_edits() {
    let mut c = Composer::new();
    for p in ["first", "multi\nline"] {
        type_in(&mut c, p);
        submitted(&mut c);
    }
    type_in(&mut c, "draft");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "multi\nline|");
    // Up inside a multi-line entry moves up a line first.
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "mult|i\nline");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "first|");
    type_in(&mut c, "!");
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "|first!");
    press(&mut c, &[key(KeyCode::Down)]);
    assert_eq!(shown(&c), "multi\nline|");
    press(&mut c, &[key(KeyCode::Up)]);
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(shown(&c), "first!|");
    press(
        &mut c,
        &[key(KeyCode::Down), key(KeyCode::Down), key(KeyCode::Down)],
    );
    assert_eq!(shown(&c), "draft|");
    press(&mut c, &[key(KeyCode::Down)]);
    assert_eq!(shown(&c), "draft|");
    assert_eq!(c.history().entries(), ["first", "multi\nline"]);
}

#[test]
fn reverse_search_finds_goes_older_accepts_and_cancels() {
    let mut c = Composer::new();
    for p in ["cargo build", "git status", "cargo test"] {
        type_in(&mut c, p);
        submitted(&mut c);
    }
    type_in(&mut c, "draft");
    press(&mut c, &[ctrl('r')]);
    assert!(c.is_searching());
    type_in(&mut c, "carg");
    assert_eq!(shown(&c), "|cargo test");
    press(&mut c, &[ctrl('r')]);
    assert_eq!(shown(&c), "|cargo build");
    press(&mut c, &[ctrl('r')]);
    assert!(c.search.as_ref().is_some_and(|s| s.failed));
    press(&mut c, &[key(KeyCode::Backspace), key(KeyCode::Backspace)]);
    type_in(&mut c, " t");
    assert_eq!(c.search.as_ref().map(|s| s.query.as_str()), Some("ca t"));
    press(&mut c, &[key(KeyCode::Esc)]);
    assert!(!c.is_searching());
    assert_eq!(shown(&c), "draft|");
    press(&mut c, &[ctrl('r')]);
    type_in(&mut c, "stat");
    press(&mut c, &[key(KeyCode::Enter)]);
    assert!(!c.is_searching());
    assert_eq!(shown(&c), "git |status");
    // Another key accepts the match and then acts.
    press(&mut c, &[ctrl('r')]);
    type_in(&mut c, "build");
    press(&mut c, &[ctrl('e')]);
    assert_eq!(shown(&c), "cargo build|");
    assert_eq!(submitted(&mut c), "cargo build");
}

#[test]
fn pastes_stay_whole_and_long_ones_collapse() {
    let mut c = typed("look: ");
    c.handle_paste("a\r\nb\n");
    assert_eq!(shown(&c), "look: a\nb\n|");
    let trace: String = (0..120).map(|i| format!("at frame {i}\n")).collect();
    c.handle_paste(&trace);
    assert_eq!(shown(&c), "look: a\nb\n[pasted 120 lines]|");
    type_in(&mut c, " end");
    assert_eq!(submitted(&mut c), format!("look: a\nb\n{trace} end"));
    assert_eq!(c.history().entries().len(), 1);
}

#[test]
fn a_collapsed_paste_is_one_unit_and_can_be_undone_back() {
    let mut c = typed("x ");
    c.handle_paste(&"y".repeat(2000));
    assert_eq!(c.text(), "x [pasted 2000 chars]");
    press(&mut c, &[key(KeyCode::Left)]);
    assert_eq!(shown(&c), "x |[pasted 2000 chars]");
    press(&mut c, &[key(KeyCode::Right), key(KeyCode::Backspace)]);
    assert_eq!(shown(&c), "x |");
    press(&mut c, &[ctrl('z')]);
    assert_eq!(c.full_text(), format!("x {}", "y".repeat(2000)));
    assert_eq!(c.take_text(), format!("x {}", "y".repeat(2000)));
    assert!(c.is_empty());
    assert!(c.history().entries().is_empty());
}

#[test]
fn slash_commands_complete_from_the_popup() {
    let mut c = Composer::new();
    c.set_commands(commands());
    type_in(&mut c, "/co");
    assert!(c.is_popup_open());
    press(&mut c, &[key(KeyCode::Down), key(KeyCode::Tab)]);
    assert_eq!(shown(&c), "/context |");
    assert!(!c.is_popup_open());
    c.clear();
    type_in(&mut c, "/co");
    press(
        &mut c,
        &[key(KeyCode::Down), key(KeyCode::Down), key(KeyCode::Up)],
    );
    assert_eq!(c.handle_key(key(KeyCode::Up)), ComposerOutcome::None);
    assert_eq!(submitted(&mut c), "/compact");
    // No match: no popup, Enter submits what is typed.
    type_in(&mut c, "/zz");
    assert!(!c.is_popup_open());
    assert_eq!(submitted(&mut c), "/zz");
}

#[test]
fn esc_closes_the_popup_until_tab_reopens_it() {
    let mut c = Composer::new();
    c.set_commands(commands());
    type_in(&mut c, "/c");
    assert_eq!(c.handle_key(key(KeyCode::Esc)), ComposerOutcome::None);
    assert!(!c.is_popup_open());
    type_in(&mut c, "o");
    assert!(!c.is_popup_open());
    assert_eq!(submitted(&mut c), "/co");
    type_in(&mut c, "/he");
    press(&mut c, &[key(KeyCode::Esc), key(KeyCode::Tab)]);
    // A single match is accepted by Tab straight away.
    assert_eq!(shown(&c), "/help |");
    type_in(&mut c, "x");
    press(
        &mut c,
        &[ctrl('a'), key(KeyCode::Right), key(KeyCode::Right)],
    );
    assert!(c.is_popup_open());
    press(&mut c, &[key(KeyCode::Tab)]);
    assert_eq!(shown(&c), "/help |x");
}

#[test]
fn at_mentions_complete_paths_from_the_file_source() {
    let mut c = Composer::new();
    c.set_file_source(FileSource::from_paths(
        ["src/", "src/main.rs", "src/lib.rs", "README.md"]
            .map(String::from)
            .to_vec(),
    ));
    type_in(&mut c, "read @mai");
    assert!(c.is_popup_open());
    press(&mut c, &[key(KeyCode::Enter)]);
    assert_eq!(shown(&c), "read @src/main.rs |");
    type_in(&mut c, "and @sr");
    press(&mut c, &[key(KeyCode::Tab)]);
    assert_eq!(shown(&c), "read @src/main.rs and @src/|");
    assert!(c.is_popup_open());
    type_in(&mut c, "li");
    press(&mut c, &[key(KeyCode::Tab)]);
    assert_eq!(submitted(&mut c), "read @src/main.rs and @src/lib.rs ");
    // Without a file source `@` opens nothing.
    let mut bare = typed("@x");
    assert!(!bare.is_popup_open());
    assert_eq!(submitted(&mut bare), "@x");
}

#[test]
fn set_text_sanitizes_and_clear_is_undoable() {
    let mut c = Composer::new();
    c.set_text("a\tb\r\nc\u{7}");
    assert_eq!(shown(&c), "a    b\nc|");
    c.clear();
    assert!(c.is_empty());
    press(&mut c, &[ctrl('z')]);
    assert_eq!(c.text(), "a    b\nc");
}

#[test]
fn a_recalled_command_does_not_capture_up_in_its_popup() {
    let mut c = Composer::new();
    c.set_commands(commands());
    for p in ["older prompt", "/compact"] {
        type_in(&mut c, p);
        press(&mut c, &[key(KeyCode::Esc)]);
        submitted(&mut c);
    }
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(c.text(), "/compact");
    assert!(!c.is_popup_open());
    press(&mut c, &[key(KeyCode::Up)]);
    assert_eq!(c.text(), "older prompt");
    press(&mut c, &[key(KeyCode::Down), key(KeyCode::Down)]);
    assert!(c.is_empty());
}

#[test]
fn model_names_complete_after_slash_model() {
    let mut c = typed("/model son");
    c.set_models(vec![
        "claude-sonnet-4-5".to_owned(),
        "claude-opus-4-1".to_owned(),
        "sonar".to_owned(),
    ]);
    type_in(&mut c, "n");
    assert!(c.is_popup_open());
    // Only one name holds "sonn"; Enter takes it and runs the command.
    assert_eq!(submitted(&mut c), "/model claude-sonnet-4-5");
}
