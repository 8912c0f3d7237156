use super::*;

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

fn names(agents: &[AgentDef]) -> Vec<&str> {
    agents.iter().map(|a| a.name.as_str()).collect()
}

/// The one warning mentioning `file`, which must exist.
fn warning_for<'a>(warnings: &'a [String], file: &str) -> &'a str {
    let found: Vec<&String> = warnings.iter().filter(|w| w.contains(file)).collect();
    assert_eq!(found.len(), 1, "{file}: {warnings:?}");
    found[0]
}

#[test]
fn builtins_are_general_with_all_tools_and_read_only_explore() {
    let agents = builtin_agents();
    assert_eq!(names(&agents), [GENERAL_AGENT, EXPLORE_AGENT]);
    let general = &agents[0];
    assert_eq!(general.tools, None);
    assert_eq!(general.source, AgentSource::Builtin);
    assert!(general.prompt.contains("file paths"));
    let explore = &agents[1];
    let tools = explore.tools.clone().unwrap();
    assert_eq!(tools, ["Read", "Grep", "Glob", "LS"]);
    assert!(
        !tools
            .iter()
            .any(|t| t == "Bash" || t == "Edit" || t == "Write")
    );
    assert!(explore.prompt.contains("path:line"));
    for a in &agents {
        assert!(!a.description.is_empty());
        assert_eq!(a.model, None);
        assert_eq!(a.permission_mode, None);
        assert_eq!(a.max_turns, None);
        assert_eq!(a.isolation, None);
    }
    assert_eq!(AgentSource::Builtin.to_string(), "built in");
    assert_eq!(AgentSource::File("/a/b.md".into()).to_string(), "/a/b.md");
}

#[test]
fn parses_every_field_of_a_claude_code_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "reviewer.md",
        "---\nname: reviewer\ndescription: >\n  Reviews code\n  carefully.\ntools: Read, Grep, Bash(git diff, git log)\n\
         model: opus\npermissionMode: plan\nmaxTurns: 12\nisolation: worktree\ncolor: green\n\
         skills: [a, b]\nhooks: {}\n---\n\nYou review code.\n\nBe brief.\n\n",
    );
    let (agents, warnings) = discover_agents(&[dir.path().to_path_buf()]);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(names(&agents), ["general", "explore", "reviewer"]);
    let r = &agents[2];
    assert_eq!(r.description, "Reviews code carefully.");
    assert_eq!(
        r.tools,
        Some(vec![
            "Read".to_owned(),
            "Grep".to_owned(),
            "Bash(git diff, git log)".to_owned()
        ])
    );
    assert_eq!(r.model.as_deref(), Some("opus"));
    assert_eq!(r.permission_mode.as_deref(), Some("plan"));
    assert_eq!(r.max_turns, Some(12));
    assert_eq!(r.isolation.as_deref(), Some("worktree"));
    assert_eq!(r.prompt, "You review code.\n\nBe brief.");
    assert_eq!(r.source, AgentSource::File(path));
}

#[test]
fn tools_accept_a_yaml_list_and_omission_means_all() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "a.md",
        "---\nname: a\ndescription: A\ntools:\n  - Read\n  - mcp__github__get_issue\n  - Read\n---\n",
    );
    write(d, "b.md", "---\nname: b\ndescription: B\n---\nbody");
    write(d, "c.md", "---\nname: c\ndescription: C\ntools: []\n---\n");
    write(
        d,
        "d.md",
        "---\nname: d\ndescription: D\ntools: Read\n---\n",
    );
    write(d, "e.md", "---\nname: e\ndescription: E\ntools:\n---\n");
    let (agents, warnings) = discover_agents(&[d.to_path_buf()]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let tools = |n: &str| agents.iter().find(|a| a.name == n).unwrap().tools.clone();
    assert_eq!(
        tools("a"),
        Some(vec!["Read".to_owned(), "mcp__github__get_issue".to_owned()])
    );
    assert_eq!(tools("b"), None);
    assert_eq!(tools("c"), Some(vec![]));
    assert_eq!(tools("d"), Some(vec!["Read".to_owned()]));
    // YAML's empty value is null, the same as leaving the key out.
    assert_eq!(tools("e"), None);
}

#[test]
fn model_inherit_is_none_and_names_are_kept_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (file, model) in [
        ("a.md", "inherit"),
        ("b.md", "sonnet"),
        ("c.md", "haiku"),
        ("d.md", "claude-sonnet-4-5@20250929"),
        ("e.md", "qwen2.5-coder:7b"),
        ("f.md", "openai/gpt-4o"),
    ] {
        let name = file.trim_end_matches(".md");
        write(
            d,
            file,
            &format!("---\nname: {name}\ndescription: x\nmodel: {model}\n---\n"),
        );
    }
    let (agents, warnings) = discover_agents(&[d.to_path_buf()]);
    assert!(warnings.is_empty(), "{warnings:?}");
    let models: Vec<Option<&str>> = agents[2..].iter().map(|a| a.model.as_deref()).collect();
    assert_eq!(
        models,
        [
            None,
            Some("sonnet"),
            Some("haiku"),
            Some("claude-sonnet-4-5@20250929"),
            Some("qwen2.5-coder:7b"),
            Some("openai/gpt-4o"),
        ]
    );
}

#[test]
fn bad_files_are_skipped_with_a_warning_naming_each() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = [
        ("nofront.md", "just text", "no YAML frontmatter"),
        (
            "badyaml.md",
            "---\nname: [unclosed\n---\n",
            "invalid frontmatter",
        ),
        ("noname.md", "---\ndescription: x\n---\n", "`name`"),
        ("nodesc.md", "---\nname: nodesc\n---\n", "`description`"),
        (
            "emptydesc.md",
            "---\nname: e\ndescription: \"  \"\n---\n",
            "`description`",
        ),
        (
            "badname.md",
            "---\nname: my agent\ndescription: x\n---\n",
            "invalid `name`",
        ),
        (
            "numname.md",
            "---\nname: [a]\ndescription: x\n---\n",
            "`name` must be a string",
        ),
        (
            "badmodel.md",
            "---\nname: m\ndescription: x\nmodel: the big one\n---\n",
            "invalid `model`",
        ),
        (
            "numtools.md",
            "---\nname: t\ndescription: x\ntools: 5\n---\n",
            "invalid `tools`",
        ),
        (
            "badtools.md",
            "---\nname: t2\ndescription: x\ntools: Read Grep, Glob\n---\n",
            "invalid `tools`",
        ),
        (
            "emptytool.md",
            "---\nname: t3\ndescription: x\ntools: Read,,Grep\n---\n",
            "invalid `tools`",
        ),
        (
            "listtools.md",
            "---\nname: t4\ndescription: x\ntools: [Read, {a: 1}]\n---\n",
            "invalid `tools`",
        ),
        (
            "badmode.md",
            "---\nname: p\ndescription: x\npermissionMode: yolo\n---\n",
            "invalid `permissionMode`",
        ),
        (
            "badturns.md",
            "---\nname: n\ndescription: x\nmaxTurns: 0\n---\n",
            "invalid `maxTurns`",
        ),
        (
            "badiso.md",
            "---\nname: i\ndescription: x\nisolation: container\n---\n",
            "invalid `isolation`",
        ),
    ];
    for (file, text, _) in cases {
        write(d, file, text);
    }
    write(d, "ok.md", "---\nname: ok\ndescription: fine\n---\n");
    write(d, "notes.txt", "---\nname: txt\ndescription: not md\n---\n");
    let (agents, warnings) = discover_agents(&[d.to_path_buf()]);
    assert_eq!(names(&agents), ["general", "explore", "ok"]);
    assert_eq!(warnings.len(), cases.len(), "{warnings:?}");
    for (file, _, expected) in cases {
        let w = warning_for(&warnings, file);
        assert!(w.contains(expected), "{file}: {w}");
        assert!(w.contains(&d.join(file).display().to_string()), "{w}");
    }
}

#[test]
fn oversized_and_non_regular_files_are_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let big = format!(
        "---\nname: big\ndescription: x\n---\n{}",
        "a".repeat(MAX_AGENT_FILE_BYTES as usize)
    );
    write(d, "big.md", &big);
    std::fs::create_dir(d.join("dir.md")).unwrap();
    write(d, ".hidden.md", "not even frontmatter");
    let (agents, warnings) = discover_agents(&[d.to_path_buf()]);
    assert_eq!(names(&agents), ["general", "explore"]);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(warning_for(&warnings, "big.md").contains("larger than 256 KB"));
    assert!(warning_for(&warnings, "dir.md").contains("not a regular file"));
}

#[test]
fn later_dirs_replace_earlier_definitions_in_place() {
    let user = tempfile::tempdir().unwrap();
    let project = tempfile::tempdir().unwrap();
    write(
        user.path(),
        "r.md",
        "---\nname: reviewer\ndescription: user's\n---\n",
    );
    write(
        user.path(),
        "z.md",
        "---\nname: zeta\ndescription: user's\n---\n",
    );
    let mine = write(
        project.path(),
        "a.md",
        "---\nname: reviewer\ndescription: project's\n---\n",
    );
    write(
        project.path(),
        "explore.md",
        "---\nname: explore\ndescription: project explore\ntools: Read\n---\nLook.",
    );
    let (agents, warnings) = discover_agents(&[
        user.path().to_path_buf(),
        project.path().join("missing"),
        project.path().to_path_buf(),
    ]);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(names(&agents), ["general", "explore", "reviewer", "zeta"]);
    assert_eq!(agents[1].description, "project explore");
    assert_eq!(agents[1].tools, Some(vec!["Read".to_owned()]));
    assert!(matches!(agents[1].source, AgentSource::File(_)));
    assert_eq!(agents[2].description, "project's");
    assert_eq!(agents[2].source, AgentSource::File(mine));
}

#[test]
fn a_name_twice_in_one_dir_warns_and_the_later_file_wins() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "a.md", "---\nname: dup\ndescription: first\n---\n");
    write(d, "b.md", "---\nname: dup\ndescription: second\n---\n");
    let (agents, warnings) = discover_agents(&[d.to_path_buf()]);
    assert_eq!(names(&agents), ["general", "explore", "dup"]);
    assert_eq!(agents[2].description, "second");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("b.md") && warnings[0].contains("a.md"));
}

#[test]
fn tool_lists_split_outside_parentheses() {
    assert_eq!(split_tool_list(""), Vec::<String>::new());
    assert_eq!(split_tool_list("  "), Vec::<String>::new());
    assert_eq!(split_tool_list("Read,Grep"), ["Read", "Grep"]);
    assert_eq!(
        split_tool_list("Task(explore), Bash(a, b)"),
        ["Task(explore)", "Bash(a, b)"]
    );
    assert!(is_tool_entry("mcp__srv__*"));
    assert!(is_tool_entry("Task(explore)"));
    assert!(!is_tool_entry("Task("));
    assert!(!is_tool_entry("(x)"));
    assert!(!is_tool_entry("Read Grep"));
}

#[test]
fn empty_frontmatter_is_reported_not_fatal() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "empty.md", "---\n---\nbody");
    let (agents, warnings) = discover_agents(&[dir.path().to_path_buf()]);
    assert_eq!(agents.len(), 2);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("empty.md"), "{warnings:?}");
}

#[test]
fn agents_from_json_reads_claude_codes_shape() {
    let agents = crate::agents_from_json(
        r#"{"reviewer": {"description": "Reviews code", "prompt": "You review.",
            "tools": ["Read", "Grep"], "model": "sonnet"},
            "quick": {"description": "Answers fast", "prompt": "Be quick.", "maxTurns": 3}}"#,
    )
    .unwrap();
    assert_eq!(agents.len(), 2);
    let r = agents.iter().find(|a| a.name == "reviewer").unwrap();
    assert_eq!(r.description, "Reviews code");
    assert_eq!(r.prompt, "You review.");
    assert_eq!(
        r.tools.as_deref(),
        Some(&["Read".to_owned(), "Grep".to_owned()][..])
    );
    assert_eq!(r.model.as_deref(), Some("sonnet"));
    assert_eq!(r.source, AgentSource::Flag);
    let q = agents.iter().find(|a| a.name == "quick").unwrap();
    assert_eq!(q.max_turns, Some(3));
    assert_eq!(q.tools, None);
    assert_eq!(AgentSource::Flag.to_string(), "--agents");
}

#[test]
fn agents_from_json_rejects_bad_input_naming_the_agent() {
    let err = |s: &str| crate::agents_from_json(s).unwrap_err();
    assert!(err("{nope").contains("invalid JSON"));
    assert!(err("[]").contains("expected a JSON object"));
    assert!(err(r#"{"a": {"prompt": "p"}}"#).contains("agent `a`"));
    assert!(err(r#"{"a": {"prompt": "p"}}"#).contains("description"));
    assert!(err(r#"{"a": {"description": "d"}}"#).contains("prompt"));
    assert!(err(r#"{"bad name": {"description": "d", "prompt": "p"}}"#).contains("invalid `name`"));
    assert!(err(r#"{"a": 3}"#).contains("expected an object"));
}
