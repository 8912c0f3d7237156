use super::*;
use pretty_assertions::assert_eq;

#[test]
fn tool_names_map_to_acp_kinds() {
    let cases = [
        ("Read", ToolKind::Read),
        ("Write", ToolKind::Edit),
        ("Edit", ToolKind::Edit),
        ("MultiEdit", ToolKind::Edit),
        ("Bash", ToolKind::Execute),
        ("Grep", ToolKind::Search),
        ("Glob", ToolKind::Search),
        ("LS", ToolKind::Search),
        ("WebFetch", ToolKind::Fetch),
        ("Task", ToolKind::Think),
        ("TodoWrite", ToolKind::Think),
        ("mcp__github__list_issues", ToolKind::Other),
    ];
    for (name, kind) in cases {
        assert_eq!(kind_of(name, None), kind, "{name}");
    }
    assert_eq!(
        kind_of("mcp__fs__read", Some(WrightKind::ReadOnly)),
        ToolKind::Read
    );
}

#[test]
fn an_edit_shows_its_diff_and_location_before_it_runs() {
    let p = present(
        "Edit",
        None,
        r#"{"file_path":"src/a.rs","old_string":"one","new_string":"two"}"#,
        Some(&Touches::write("src/a.rs")),
        Path::new("/p"),
    );
    assert_eq!(p.kind, ToolKind::Edit);
    assert_eq!(p.title, "Edit /p/src/a.rs");
    assert_eq!(p.locations, vec![ToolCallLocation::new("/p/src/a.rs")]);
    assert_eq!(
        p.content,
        vec![ToolCallContent::Diff(
            Diff::new("/p/src/a.rs", "two").old_text("one".to_owned())
        )]
    );
}

#[test]
fn a_new_file_is_a_diff_without_old_text() {
    let p = present(
        "Write",
        None,
        r#"{"file_path":"/abs/n.txt","content":"hi\n"}"#,
        Some(&Touches::write("/abs/n.txt")),
        Path::new("/p"),
    );
    assert_eq!(
        p.content,
        vec![ToolCallContent::Diff(Diff::new("/abs/n.txt", "hi\n"))]
    );
}

#[test]
fn overwriting_a_file_shows_what_it_replaces() {
    let dir = std::env::temp_dir().join(format!("wright-acp-write-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("old.txt"), "precious\n").unwrap();
    let p = present(
        "Write",
        None,
        r#"{"file_path":"old.txt","content":"new\n"}"#,
        Some(&Touches::write("old.txt")),
        &dir,
    );
    let path = dir.join("old.txt");
    assert_eq!(
        p.content,
        vec![ToolCallContent::Diff(
            Diff::new(path.clone(), "new\n").old_text("precious\n".to_owned())
        )]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn multi_edit_gives_one_diff_per_edit() {
    let p = present(
        "MultiEdit",
        None,
        r#"{"file_path":"a","edits":[{"old_string":"x","new_string":"y"},{"old_string":"","new_string":"z"}]}"#,
        Some(&Touches::write("a")),
        Path::new("/p"),
    );
    assert_eq!(p.content.len(), 2);
}

#[test]
fn titles_of_commands_searches_and_mcp_tools() {
    let cwd = Path::new("/p");
    assert_eq!(
        present(
            "Bash",
            None,
            r#"{"command":"cargo test","description":"Run tests"}"#,
            None,
            cwd
        )
        .title,
        "Run tests: `cargo test`"
    );
    assert_eq!(
        present("Grep", None, r#"{"pattern":"fn main"}"#, None, cwd).title,
        "grep \"fn main\""
    );
    assert_eq!(
        present("mcp__github__list_issues", None, "{}", None, cwd).title,
        "list_issues (github MCP)"
    );
    let read = present(
        "Read",
        None,
        r#"{"offset":10}"#,
        Some(&Touches::read("x.rs")),
        cwd,
    );
    assert_eq!(
        read.locations,
        vec![ToolCallLocation::new("/p/x.rs").line(10)]
    );
    // Arguments that are not JSON still give a usable title.
    assert_eq!(present("Bash", None, "{not json", None, cwd).title, "``");
}

#[test]
fn command_output_is_fenced_and_long_output_cut() {
    let c = output_content("Bash", "ok\n");
    assert_eq!(c, vec![text_content("```\nok\n```".to_owned())]);
    assert!(output_content("Grep", "  ").is_empty());
    let long = "é".repeat(MAX_SHOWN_OUTPUT);
    let ToolCallContent::Content(c) = &output_content("Grep", &long)[0] else {
        panic!("text expected");
    };
    let ContentBlock::Text(t) = &c.content else {
        panic!("text expected");
    };
    assert!(t.text.ends_with('…') && t.text.len() <= MAX_SHOWN_OUTPUT + 4);
}

#[test]
fn todo_lists_become_plans() {
    let entries = plan_entries(
        r#"{"todos":[{"content":"a","status":"completed","activeForm":"A"},{"content":"b","status":"in_progress"},{"content":"c","status":"pending","priority":"high"}]}"#,
    )
    .unwrap();
    assert_eq!(
        entries,
        vec![
            PlanEntry::new("a", PlanEntryPriority::Medium, PlanEntryStatus::Completed),
            PlanEntry::new("b", PlanEntryPriority::Medium, PlanEntryStatus::InProgress),
            PlanEntry::new("c", PlanEntryPriority::High, PlanEntryStatus::Pending),
        ]
    );
    assert!(plan_entries("{}").is_none());
}
