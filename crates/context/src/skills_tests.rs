use super::*;

fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn discovers_valid_skills_sorted_with_allowed_tools() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "b/SKILL.md",
        "---\nname: beta\ndescription: Does B.\nallowed-tools: Read, Grep\n---\nBody B",
    );
    write(
        d,
        "a/SKILL.md",
        "---\nname: alpha\ndescription: >\n  Does A\n  well.\nallowed-tools: [read, bash]\n---\nBody A",
    );
    write(d, "c/README.md", "not a skill");
    let (skills, warnings) = discover_skills(&[d.to_path_buf(), d.join("missing")], d);
    assert!(warnings.is_empty(), "{warnings:?}");
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["alpha", "beta"]);
    assert_eq!(
        skills[0].allowed_tools,
        Some(vec!["read".to_owned(), "bash".to_owned()])
    );
    assert_eq!(
        skills[1].allowed_tools,
        Some(vec!["Read".to_owned(), "Grep".to_owned()])
    );
    assert_eq!(skills[0].dir, d.join("a"));
    assert_eq!(skills[0].path, d.join("a/SKILL.md"));
    let index = render_index(&skills).unwrap();
    assert!(index.contains(&format!(
        "- alpha: Does A well. ({})",
        d.join("a/SKILL.md").display()
    )));
    assert!(!index.contains("Body A"));
}

#[test]
fn bad_frontmatter_is_skipped_with_the_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "nofront/SKILL.md", "just text");
    write(d, "noname/SKILL.md", "---\ndescription: x\n---\n");
    write(
        d,
        "badyaml/SKILL.md",
        "---\nname: [unclosed\ndescription: x\n---\n",
    );
    write(d, "ok/SKILL.md", "---\nname: ok\ndescription: fine\n---\n");
    let (skills, warnings) = discover_skills(&[d.to_path_buf()], d);
    assert_eq!(skills.len(), 1);
    assert_eq!(warnings.len(), 3);
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert!(
        text.iter()
            .any(|w| w.contains("nofront/SKILL.md") && w.contains("no YAML frontmatter"))
    );
    assert!(
        text.iter()
            .any(|w| w.contains("noname/SKILL.md") && w.contains("`name`"))
    );
    assert!(
        text.iter()
            .any(|w| w.contains("badyaml/SKILL.md") && w.contains("invalid frontmatter"))
    );
}

#[test]
fn duplicate_names_first_wins() {
    let project = tempfile::tempdir().unwrap();
    let user = tempfile::tempdir().unwrap();
    write(
        project.path(),
        "x/SKILL.md",
        "---\nname: dup\ndescription: project\n---\n",
    );
    write(
        user.path(),
        "y/SKILL.md",
        "---\nname: dup\ndescription: user\n---\n",
    );
    let (skills, warnings) = discover_skills(
        &[project.path().to_path_buf(), user.path().to_path_buf()],
        project.path(),
    );
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].description, "project");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("`dup`"));
    assert_eq!(render_index(&[]), None);
}

#[test]
fn a_project_skill_linked_outside_or_to_a_secret_is_not_loaded() {
    let base = tempfile::tempdir().unwrap();
    let root = base.path().join("project");
    let outside = base.path().join("outside");
    write(
        &outside,
        "SKILL.md",
        "---\nname: leaked\ndescription: OUTSIDE-FRONTMATTER\n---\n",
    );
    write(
        &root,
        ".env",
        "---\nname: env\ndescription: SECRET-FRONTMATTER\n---\n",
    );
    write(
        &root,
        ".wright/skills/ok/SKILL.md",
        "---\nname: ok\ndescription: inside\n---\n",
    );
    let skills_dir = root.join(".wright/skills");
    for (name, target) in [
        ("file", outside.join("SKILL.md")),
        ("secret", root.join(".env")),
    ] {
        std::fs::create_dir_all(skills_dir.join(name)).unwrap();
        std::os::unix::fs::symlink(&target, skills_dir.join(name).join(SKILL_FILE)).unwrap();
    }
    // A whole skill directory linked outside.
    std::os::unix::fs::symlink(&outside, skills_dir.join("dir")).unwrap();
    // The user's own dir may link anywhere.
    let user = base.path().join("user");
    std::fs::create_dir_all(user.join("mine")).unwrap();
    std::os::unix::fs::symlink(outside.join("SKILL.md"), user.join("mine").join(SKILL_FILE))
        .unwrap();

    let (skills, warnings) = discover_skills(std::slice::from_ref(&skills_dir), &root);
    let names: Vec<&str> = skills.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, ["ok"]);
    let text: Vec<String> = warnings.iter().map(ToString::to_string).collect();
    assert_eq!(text.len(), 3, "{text:?}");
    assert!(
        text.iter()
            .filter(|w| w.contains("outside the project"))
            .count()
            == 2,
        "{text:?}"
    );
    assert!(text.iter().any(|w| w.contains("secret file")), "{text:?}");
    let index = render_index(&skills).unwrap();
    assert!(!index.contains("FRONTMATTER"), "{index}");

    let (skills, _) = discover_skills(&[skills_dir, user], &root);
    assert!(
        skills.iter().any(|s| s.name == "leaked"),
        "the user's own link"
    );
}
