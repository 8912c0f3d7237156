use super::*;

struct Project {
    _dir: tempfile::TempDir,
    root: PathBuf,
}

impl Project {
    fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        std::fs::create_dir_all(&root).unwrap();
        let root = root.canonicalize().unwrap();
        Self { _dir: dir, root }
    }

    fn write(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn gather(
        &self,
        cwd: &str,
        options: &InstructionOptions,
    ) -> (Vec<InstructionFile>, Vec<Warning>) {
        let cwd = self.root.join(cwd);
        std::fs::create_dir_all(&cwd).unwrap();
        gather(&self.root, &cwd, options)
    }
}

fn rel(p: &Project, files: &[InstructionFile]) -> Vec<String> {
    files
        .iter()
        .map(|f| {
            f.path.strip_prefix(&p.root).map_or_else(
                |_| f.path.display().to_string(),
                |r| r.display().to_string(),
            )
        })
        .collect()
}

fn messages(warnings: &[Warning]) -> String {
    warnings
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn root_to_cwd_then_rules_sorted() {
    let p = Project::new();
    p.write("AGENTS.md", "root");
    p.write("a/AGENTS.md", "a");
    p.write("a/b/AGENTS.md", "b");
    p.write("a/b/CLAUDE.md", "claude");
    p.write("other/AGENTS.md", "elsewhere");
    p.write(".wright/rules/20-second.md", "second");
    p.write(".wright/rules/10-first.md", "first");
    p.write(".wright/rules/notes.txt", "not markdown");
    let (files, warnings) = p.gather("a/b", &InstructionOptions::default());
    assert!(warnings.is_empty(), "{}", messages(&warnings));
    assert_eq!(
        rel(&p, &files),
        [
            "AGENTS.md",
            "a/AGENTS.md",
            "a/b/AGENTS.md",
            ".wright/rules/10-first.md",
            ".wright/rules/20-second.md"
        ]
    );
    assert_eq!(files[0].origin, Origin::Project);
    assert_eq!(files[3].origin, Origin::Rule);
}

#[test]
fn extra_names_only_when_configured() {
    let p = Project::new();
    p.write("AGENTS.md", "agents");
    p.write("CLAUDE.md", "claude");
    let options = InstructionOptions {
        file_names: vec!["AGENTS.md".to_owned(), "CLAUDE.md".to_owned()],
        ..InstructionOptions::default()
    };
    let (files, _) = p.gather("", &options);
    assert_eq!(rel(&p, &files), ["AGENTS.md", "CLAUDE.md"]);
    let (files, _) = p.gather("", &InstructionOptions::default());
    assert_eq!(rel(&p, &files), ["AGENTS.md"]);
}

#[test]
fn user_files_only_when_configured_and_first() {
    let p = Project::new();
    p.write("AGENTS.md", "project");
    let user_dir = p.root.parent().unwrap().join("config/wright");
    std::fs::create_dir_all(&user_dir).unwrap();
    std::fs::write(user_dir.join("AGENTS.md"), "mine @extra.md").unwrap();
    std::fs::write(user_dir.join("extra.md"), "user extra").unwrap();
    let (files, _) = p.gather("", &InstructionOptions::default());
    assert_eq!(files.len(), 1);
    let options = InstructionOptions {
        user_files: vec![user_dir.join("AGENTS.md"), user_dir.join("missing.md")],
        ..InstructionOptions::default()
    };
    let (files, warnings) = p.gather("", &options);
    assert_eq!(files.len(), 3);
    assert_eq!(files[0].origin, Origin::User);
    assert_eq!(files[0].text, "mine @extra.md");
    // A user file may import next to itself (its own directory is its boundary).
    assert_eq!(files[1].text, "user extra");
    assert_eq!(files[2].text, "project");
    assert_eq!(warnings.len(), 1, "{}", messages(&warnings));
    assert!(warnings[0].to_string().contains("missing.md"));
}

#[test]
fn imports_follow_the_importer_relative_paths() {
    let p = Project::new();
    p.write(
        "AGENTS.md",
        "Top. See @docs/style.md and `@docs/ignored.md`.\n```\n@docs/fenced.md\n```",
    );
    p.write("docs/style.md", "style, also @../shared/common.md");
    p.write("shared/common.md", "common");
    p.write("docs/ignored.md", "no");
    p.write("docs/fenced.md", "no");
    let (files, warnings) = p.gather("", &InstructionOptions::default());
    assert!(warnings.is_empty(), "{}", messages(&warnings));
    assert_eq!(
        rel(&p, &files),
        ["AGENTS.md", "docs/style.md", "shared/common.md"]
    );
    assert_eq!(
        files[1].origin,
        Origin::Import {
            by: p.root.join("AGENTS.md")
        }
    );
    assert_eq!(
        files[2].origin,
        Origin::Import {
            by: p.root.join("docs/style.md")
        }
    );
}

#[test]
fn import_cycles_escapes_and_missing_files_warn() {
    let p = Project::new();
    p.write("AGENTS.md", "@a.md @../outside.md @nope.md @~/home.md");
    p.write("a.md", "a imports @b.md");
    p.write("b.md", "b imports @a.md");
    std::fs::write(p.root.parent().unwrap().join("outside.md"), "secret").unwrap();
    let (files, warnings) = p.gather("", &InstructionOptions::default());
    assert_eq!(rel(&p, &files), ["AGENTS.md", "a.md", "b.md"]);
    let all = messages(&warnings);
    assert_eq!(warnings.len(), 4, "{all}");
    assert!(all.contains("import cycle"), "{all}");
    assert!(all.contains("a.md → ") && all.contains("b.md → "), "{all}");
    assert!(
        all.contains("@../outside.md not loaded") && all.contains("is outside"),
        "{all}"
    );
    assert!(all.contains("@nope.md not found"), "{all}");
    assert!(all.contains("@~/home.md not loaded"), "{all}");
    assert!(!files.iter().any(|f| f.text.contains("secret")));
}

#[test]
fn import_depth_is_limited() {
    let p = Project::new();
    p.write("AGENTS.md", "@d1.md");
    for i in 1..=7 {
        p.write(&format!("d{i}.md"), &format!("level {i} @d{}.md", i + 1));
    }
    let (files, warnings) = p.gather("", &InstructionOptions::default());
    // AGENTS.md is depth 0; d1..d5 are depths 1..5.
    assert_eq!(files.len(), 6);
    assert_eq!(warnings.len(), 1);
    assert!(
        warnings[0]
            .to_string()
            .contains("d5.md: import @d6.md not loaded: imports nest at most 5 deep")
    );
}

#[test]
fn a_file_reached_twice_is_loaded_once() {
    let p = Project::new();
    p.write("AGENTS.md", "@.wright/rules/r.md");
    p.write(".wright/rules/r.md", "rule");
    let (files, warnings) = p.gather("", &InstructionOptions::default());
    assert!(warnings.is_empty());
    assert_eq!(rel(&p, &files), ["AGENTS.md", ".wright/rules/r.md"]);
}

#[test]
fn budget_cuts_at_a_line_with_a_note_and_drops_later_files() {
    let p = Project::new();
    p.write("AGENTS.md", "0123456789\nabcdefghij\nklmnopqrst\n");
    p.write(".wright/rules/a.md", "later");
    p.write(".wright/rules/b.md", "later too");
    let options = InstructionOptions {
        budget_chars: 25,
        ..InstructionOptions::default()
    };
    let (files, warnings) = p.gather("", &options);
    assert_eq!(files.len(), 1);
    assert_eq!(
        files[0].text,
        "0123456789\nabcdefghij\n[wright: the 25-character budget for instruction files was reached here; \
         the remaining 10 characters of this file and 2 later file(s) were not loaded.]"
    );
    assert_eq!(warnings.len(), 3, "{}", messages(&warnings));
}

#[test]
fn budget_exactly_met_keeps_everything() {
    let p = Project::new();
    p.write("AGENTS.md", "12345");
    p.write(".wright/rules/a.md", "67890");
    let options = InstructionOptions {
        budget_chars: 10,
        ..InstructionOptions::default()
    };
    let (files, warnings) = p.gather("", &options);
    assert_eq!(files.len(), 2);
    assert!(warnings.is_empty());
}

#[test]
fn cut_at_line_never_splits_a_line() {
    assert_eq!(cut_at_line("ab\ncd\n", 4), "ab\n");
    assert_eq!(cut_at_line("abcdef", 3), "");
    assert_eq!(cut_at_line("é\nü\n", 4), "é\nü\n");
}

#[cfg(unix)]
#[test]
fn special_and_huge_instruction_files_are_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.md");
    std::fs::write(&big, "x".repeat(1024 * 1024 + 1)).unwrap();
    assert!(super::read_capped(&big).is_err());
    std::fs::write(&big, "small").unwrap();
    assert_eq!(super::read_capped(&big).unwrap(), "small");
    assert!(super::read_capped(dir.path()).is_err());
    let link = dir.path().join("AGENTS.md");
    std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
    assert!(super::read_capped(&link).is_err());
}

#[cfg(unix)]
#[test]
fn project_files_and_rules_resolving_outside_the_root_are_skipped() {
    use std::os::unix::fs::symlink;
    let p = Project::new();
    let secret = p.root.parent().unwrap().join("secret.txt");
    std::fs::write(&secret, "TOP SECRET").unwrap();
    symlink(&secret, p.root.join("AGENTS.md")).unwrap();
    std::fs::create_dir_all(p.root.join("sub")).unwrap();
    symlink(&secret, p.root.join("sub/AGENTS.md")).unwrap();
    std::fs::create_dir_all(p.root.join(".wright/rules")).unwrap();
    symlink(&secret, p.root.join(".wright/rules/r.md")).unwrap();
    // A link that stays inside is fine.
    p.write("docs/real.md", "inside");
    symlink(
        p.root.join("docs/real.md"),
        p.root.join(".wright/rules/ok.md"),
    )
    .unwrap();
    let options = InstructionOptions {
        file_names: vec![
            "AGENTS.md".into(),
            "../secret.txt".into(),
            secret.display().to_string(),
        ],
        ..InstructionOptions::default()
    };
    let (files, warnings) = p.gather("sub", &options);
    assert!(
        files.iter().all(|f| !f.text.contains("TOP SECRET")),
        "{files:?}"
    );
    assert_eq!(rel(&p, &files), ["docs/real.md"]);
    let text = messages(&warnings);
    assert!(text.contains("outside the project"), "{text}");
}

#[cfg(unix)]
#[test]
fn secrets_are_never_instructions() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join(".env"), "TOKEN=s3cret").unwrap();
    std::os::unix::fs::symlink(root.join(".env"), root.join("AGENTS.md")).unwrap();
    let mut loader = Loader::default();
    assert!(loader.inside(&root.join("AGENTS.md"), &root).is_none());
    assert!(loader.inside(&root.join(".env"), &root).is_none());
    assert_eq!(loader.warnings.len(), 2);
}
