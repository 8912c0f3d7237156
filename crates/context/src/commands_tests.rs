use super::*;

fn write(root: &Path, path: &str, body: &str) {
    let path = root.join(path);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, body).unwrap();
}

fn command(body: &str) -> CustomCommand {
    CustomCommand {
        name: "t".into(),
        description: String::new(),
        argument_hint: None,
        body: body.into(),
        scope: CommandScope::Project,
        path: PathBuf::from("t.md"),
    }
}

#[test]
fn loads_project_and_user_commands_with_namespaces() {
    let project = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    let p = project.path();
    write(
        p,
        ".wright/commands/review.md",
        "---\ndescription: Review a PR\nargument-hint: [pr-number] [priority]\nallowed-tools: Bash(git diff:*)\nmodel: haiku\n---\n\nReview PR #$1 at priority $2.\n",
    );
    write(
        p,
        ".wright/commands/frontend/component.md",
        "# Make a component\n\nCreate $ARGUMENTS.\n",
    );
    write(p, ".wright/commands/notes.txt", "not a command");
    write(p, ".wright/commands/.draft.md", "hidden");
    write(user.path(), "commands/review.md", "user version");
    write(
        user.path(),
        "commands/fix.md",
        "---\ndescription: Fix an issue\nargument-hint: add [tagId] | remove [tagId]\n---\nFix $ARGUMENTS",
    );
    let (commands, warnings) = load(p, Some(user.path()));
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<(&str, CommandScope)> = commands
        .iter()
        .map(|c| (c.name.as_str(), c.scope))
        .collect();
    assert_eq!(
        names,
        [
            ("fix", CommandScope::User),
            ("frontend:component", CommandScope::Project),
            ("review", CommandScope::Project),
        ]
    );
    let review = &commands[2];
    assert_eq!(review.description, "Review a PR");
    assert_eq!(
        review.argument_hint.as_deref(),
        Some("[pr-number] [priority]")
    );
    assert_eq!(review.body, "Review PR #$1 at priority $2.");
    assert_eq!(commands[1].description, "Make a component");
    assert_eq!(commands[1].argument_hint, None);
    assert_eq!(
        commands[0].argument_hint.as_deref(),
        Some("add [tagId] | remove [tagId]")
    );
    assert!(commands[0].path.ends_with("commands/fix.md"));
}

#[test]
fn invalid_files_are_reported_and_skipped() {
    let project = tempfile::tempdir().unwrap();
    let p = project.path();
    write(p, ".wright/commands/good.md", "---\n---\nFine.");
    write(
        p,
        ".wright/commands/bad-yaml.md",
        "---\ndescription: \"unclosed\n---\nbody",
    );
    write(
        p,
        ".wright/commands/odd.md",
        "---\ndescription: [it's, odd]\nargument-hint: [a] [b's]\n---\nbody",
    );
    write(
        p,
        ".wright/commands/open.md",
        "---\ndescription: x\nbody without a close",
    );
    write(
        p,
        ".wright/commands/empty.md",
        "---\ndescription: nothing\n---\n\n",
    );
    write(
        p,
        ".wright/commands/list-desc.md",
        "---\ndescription:\n  a: 1\n---\nbody",
    );
    write(p, ".wright/commands/has space.md", "body");
    write(p, ".wright/commands/a/b/c/d/deep.md", "body");
    std::fs::write(p.join(".wright/commands/binary.md"), [0xff, 0xfe, 0x00]).unwrap();
    let (commands, warnings) = load(p, None);
    let names: Vec<&str> = commands.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["good", "odd"]);
    assert_eq!(commands[1].description, "[it's, odd]");
    assert_eq!(commands[1].argument_hint.as_deref(), Some("[a] [b's]"));
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    let find = |file: &str, reason: &str| {
        assert!(
            text.iter().any(|w| w.contains(file) && w.contains(reason)),
            "no warning for {file} with {reason:?} in {text:#?}"
        );
    };
    find("bad-yaml.md", "command skipped: invalid frontmatter");
    find("open.md", "no closing `---`");
    find("empty.md", "is empty");
    find("list-desc.md", "`description` must be text");
    find(
        "has space.md",
        "`has space` cannot be part of a command name",
    );
    find("binary.md", "not UTF-8");
    find("c/d", "nested too deep");
    assert_eq!(warnings.len(), 7, "{text:#?}");
}

#[test]
fn missing_directories_are_fine_and_a_file_in_place_of_one_is_reported() {
    let project = tempfile::tempdir().unwrap();
    assert_eq!(
        load(project.path(), Some(&project.path().join("nope"))),
        (vec![], vec![])
    );
    write(project.path(), ".wright/commands", "a file");
    let (commands, warnings) = load(project.path(), None);
    assert!(commands.is_empty());
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .message
            .contains("cannot read commands directory")
    );
}

#[test]
fn derived_descriptions_are_shortened() {
    let project = tempfile::tempdir().unwrap();
    write(
        project.path(),
        ".wright/commands/long.md",
        &format!("\n\n{}\nmore", "w".repeat(200)),
    );
    let (commands, _) = load(project.path(), None);
    assert_eq!(commands[0].description.chars().count(), 80);
    assert!(commands[0].description.ends_with('…'));
}

#[test]
fn expands_arguments_and_positionals() {
    let c = command(
        "Fix issue $ARGUMENTS now. First: $1, second: $2, none: $9, cost: $5 and $ alone, $0.",
    );
    assert_eq!(
        expand(&c, "  123 \"high prio\" x y z  "),
        "Fix issue 123 \"high prio\" x y z now. First: 123, second: high prio, none: , cost: z and $ alone, $0."
    );
    assert_eq!(
        expand(&c, ""),
        "Fix issue  now. First: , second: , none: , cost:  and $ alone, $0."
    );
}

#[test]
fn arguments_are_appended_when_the_body_has_no_placeholder() {
    assert_eq!(
        expand(&command("Review the diff."), "focus on tests"),
        "Review the diff.\n\nARGUMENTS: focus on tests"
    );
    assert_eq!(
        expand(&command("Review the diff."), "  "),
        "Review the diff."
    );
    assert_eq!(
        expand(&command("Cost in $USD"), "x"),
        "Cost in $USD\n\nARGUMENTS: x"
    );
    assert_eq!(expand(&command("語 $ARGUMENTS語"), "引数"), "語 引数語");
}
