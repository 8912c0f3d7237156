use super::*;
use crate::environment::GitSnapshot;
use crate::memory::{MemoryScope, MemoryType, NewNote};

fn env() -> Environment {
    Environment {
        date: "2026-11-22".to_owned(),
        platform: "linux (x86_64)".to_owned(),
        shell: Some("bash".to_owned()),
        git: Some(GitSnapshot {
            branch: "main".to_owned(),
            status: None,
        }),
    }
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

#[test]
fn parts_in_documented_order_with_sources() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "AGENTS.md", "Run cargo test.");
    write(&root, "sub/AGENTS.md", "Sub rules.");
    write(&root, ".wright/rules/style.md", "Use tabs.");
    write(
        &root,
        ".wright/skills/release/SKILL.md",
        "---\nname: release\ndescription: Cut a release.\n---\nSecret body",
    );
    let cwd = root.join("sub");
    let mut inputs = ContextInputs::new(cwd.clone(), root.clone(), env());
    inputs.append = Some("Be brief.".to_owned());
    inputs
        .memory
        .as_ref()
        .unwrap()
        .add(&NewNote {
            name: "tabs".to_owned(),
            description: "User wants tabs".to_owned(),
            kind: MemoryType::Feedback,
            body: "Memory body".to_owned(),
            scope: MemoryScope::Project,
        })
        .unwrap();

    let ctx = assemble(&inputs);
    assert!(ctx.warnings.is_empty(), "{:?}", ctx.warnings);
    let shape: Vec<(PartKind, String)> = ctx
        .parts
        .iter()
        .map(|p| {
            (
                p.kind,
                p.source.replace(&root.display().to_string(), "<root>"),
            )
        })
        .collect();
    assert_eq!(
        shape,
        [
            (PartKind::BasePrompt, "built-in".to_owned()),
            (PartKind::Environment, "environment".to_owned()),
            (PartKind::Instructions, "<root>/AGENTS.md".to_owned()),
            (PartKind::Instructions, "<root>/sub/AGENTS.md".to_owned()),
            (
                PartKind::Instructions,
                "<root>/.wright/rules/style.md".to_owned()
            ),
            (PartKind::Skills, "<root>/.wright/skills".to_owned()),
            (PartKind::Memory, "<root>/.wright/memory".to_owned()),
            (PartKind::Appended, "--append-system-prompt".to_owned()),
        ]
    );
    assert_eq!(
        ctx.parts[2].text,
        format!(
            "Project instructions from {}/AGENTS.md:\n\nRun cargo test.",
            root.display()
        )
    );
    let prompt = ctx.system_prompt();
    assert!(prompt.starts_with("You are wright"));
    assert!(prompt.contains("- Git branch: main"));
    assert!(prompt.contains("- release: Cut a release. ("));
    assert!(prompt.contains("- tabs [feedback]: User wants tabs ("));
    assert!(!prompt.contains("Secret body") && !prompt.contains("Memory body"));
    assert!(prompt.ends_with("\n\nBe brief."));
    assert_eq!(ctx.chars(), prompt.chars().count());
    for part in &ctx.parts {
        assert_eq!(part.chars, part.text.chars().count());
        assert_eq!(part.tokens_estimate, part.chars.div_ceil(4));
    }
}

#[test]
fn override_empty_project_and_edits_seen_on_reassembly() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let mut inputs = ContextInputs::new(
        root.clone(),
        root.clone(),
        Environment::detect("2026-11-22", None),
    );
    inputs.base_override = Some(BaseOverride {
        source: "--system-prompt".to_owned(),
        text: "custom".to_owned(),
    });
    let ctx = assemble(&inputs);
    let kinds: Vec<PartKind> = ctx.parts.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [PartKind::BasePrompt, PartKind::Environment]);
    assert_eq!(ctx.parts[0].text, "custom");
    assert_eq!(ctx.parts[0].source, "--system-prompt");

    write(&root, "AGENTS.md", "new rule");
    assert!(assemble(&inputs).system_prompt().contains("new rule"));
}

#[test]
fn warnings_are_collected_not_sent() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "AGENTS.md", "@missing.md");
    write(&root, ".wright/skills/bad/SKILL.md", "no frontmatter");
    let ctx = assemble(&ContextInputs::new(root.clone(), root, env()));
    assert_eq!(ctx.warnings.len(), 2, "{:?}", ctx.warnings);
    assert!(!ctx.system_prompt().contains("not found"));
}

#[test]
fn base_prompt_is_small() {
    assert!(BASE_PROMPT.len() < 3000);
}
