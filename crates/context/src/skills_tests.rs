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
    let (skills, warnings) = discover_skills(&[d.to_path_buf(), d.join("missing")]);
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
    let (skills, warnings) = discover_skills(&[d.to_path_buf()]);
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
    let (skills, warnings) =
        discover_skills(&[project.path().to_path_buf(), user.path().to_path_buf()]);
    assert_eq!(skills.len(), 1);
    assert_eq!(skills[0].description, "project");
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].message.contains("`dup`"));
    assert_eq!(render_index(&[]), None);
}
