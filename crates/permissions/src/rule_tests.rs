use super::*;

#[test]
fn parses_and_displays_canonically() {
    let rows: &[(&str, &str)] = &[
        ("Bash", "Bash"),
        ("bash", "Bash"),
        ("BASH", "Bash"),
        ("Bash(*)", "Bash"),
        ("Bash(npm run test:*)", "Bash(npm run test:*)"),
        ("  Bash( git diff )  ", "Bash(git diff)"),
        ("Edit(src/**)", "Edit(src/**)"),
        ("write(docs/**)", "Write(docs/**)"),
        ("Read(.env*)", "Read(.env*)"),
        ("LS", "LS"),
        ("grep(//etc/**)", "Grep(//etc/**)"),
        (
            "WebFetch(domain:example.com)",
            "WebFetch(domain:example.com)",
        ),
        (
            "web_fetch(domain:Example.COM)",
            "WebFetch(domain:Example.COM)",
        ),
        ("mcp__github__*", "mcp__github__*"),
        ("mcp__github", "mcp__github"),
        ("mcp__github__create_issue", "mcp__github__create_issue"),
        ("MultiEdit", "Edit"),
    ];
    for (text, shown) in rows {
        let r: Rule = text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(r.to_string(), *shown, "{text}");
    }
}

#[test]
fn rejects_bad_rules_with_a_reason() {
    let rows: &[(&str, &str)] = &[
        ("", "empty"),
        ("Bash(", "unbalanced"),
        ("Bash(ls", "unbalanced"),
        ("Bash)", "unbalanced"),
        ("Bash()", "empty specifier"),
        ("Ba sh", "not a tool name"),
        ("Task(foo)", "takes no specifier"),
        ("mcp__x__y(z)", "takes no specifier"),
        ("Bash(a && b)", "one command"),
        ("Bash(a; b:*)", "one command"),
        ("Bash(echo $(id))", "`$(…)`"),
        ("Bash(ls > out)", "redirections"),
        ("Bash(echo $HOME)", "`$` expansions"),
        ("WebFetch(example.com)", "domain:HOST"),
        ("Edit(src/[)", "invalid path pattern"),
    ];
    for (text, want) in rows {
        let err = text.parse::<Rule>().expect_err(text).to_string();
        assert!(err.contains(want), "{text}: {err}");
    }
}

#[test]
fn tool_coverage() {
    let rows: &[(&str, &str, bool)] = &[
        ("Bash", "bash", true),
        ("bash", "BASH", true),
        ("Edit", "edit", true),
        ("Edit", "write", true),
        ("Write", "edit", false),
        ("Write", "write", true),
        ("Read", "read", true),
        ("Read", "grep", true),
        ("Read", "edit", false),
        ("Grep", "read", false),
        ("mcp__github__*", "mcp__github__create_issue", true),
        ("mcp__github__*", "mcp__gitlab__x", false),
        ("mcp__github", "mcp__github__list", true),
        ("mcp__github", "mcp__githubx__list", false),
        ("mcp__github__list", "mcp__github__list", true),
        ("mcp__github__list", "mcp__github__list2", false),
        ("WebFetch", "web_fetch", true),
    ];
    for (rule, tool, want) in rows {
        let r: Rule = rule.parse().unwrap();
        assert_eq!(r.covers_tool(tool), *want, "{rule} vs {tool}");
    }
}

#[test]
fn command_patterns() {
    let words = |s: &str| -> Vec<Word> {
        let l = lex(s);
        l.commands
            .into_iter()
            .next()
            .map(|c| c.words)
            .unwrap_or_default()
    };
    let rows: &[(&str, &str, bool)] = &[
        ("npm run test:*", "npm run test", true),
        ("npm run test:*", "npm run test --watch", true),
        ("npm run test:*", "npm run testing", false),
        ("npm run test:*", "npm run", false),
        ("npm run test:*", "npm  run   test", true),
        ("npm run test:*", "'npm' \"run\" test", true),
        ("git diff", "git diff", true),
        ("git diff", "git diff HEAD", false),
        ("git diff", "git  diff", true),
        ("git diff", "GIT diff", false),
        ("git diff", "git diff $X", false),
        ("git diff:*", "git diff $X", true),
        ("git diff:*", "$G diff", false),
        ("npm *", "npm install", true),
        ("npm *", "npm", true),
        ("npm *", "npmx install", false),
        ("git * main", "git push origin main", true),
        ("git * main", "git push origin main2", false),
        ("* --version", "cargo --version", true),
        ("ls *", "lsof", false),
    ];
    for (pat, cmd, want) in rows {
        let Some(Spec::Command(p)) = format!("Bash({pat})")
            .parse::<Rule>()
            .unwrap()
            .spec()
            .cloned()
        else {
            panic!("{pat}");
        };
        assert_eq!(p.matches(&words(cmd)), *want, "{pat} vs {cmd}");
    }
}

#[test]
fn path_patterns() {
    let roots = vec![std::path::PathBuf::from("/ws")];
    let home = Some(Path::new("/home/u"));
    let rows: &[(&str, &str, bool)] = &[
        ("src/**", "/ws/src/a.rs", true),
        ("src/**", "/ws/src/deep/a.rs", true),
        ("src/**", "/ws/srcx/a.rs", false),
        ("src/**", "/other/src/a.rs", false),
        ("src/*", "/ws/src/deep/a.rs", false),
        ("/src/*.rs", "/ws/src/a.rs", true),
        ("./src/*.rs", "/ws/src/a.rs", true),
        ("src/", "/ws/src/a/b", true),
        (".env*", "/ws/.env", true),
        (".env*", "/ws/sub/.env.local", true),
        (".env*", "/elsewhere/.env", true),
        (".env*", "/ws/env", false),
        ("*.pem", "/ws/certs/a.pem", true),
        ("//etc/**", "/etc/passwd", true),
        ("//etc/**", "/ws/etc/x", false),
        ("~/.ssh/**", "/home/u/.ssh/id_rsa", true),
        ("~/.ssh/**", "/home/v/.ssh/id_rsa", false),
        ("docs/**", "/ws/docs/a.md", true),
        ("secrets", "/ws/secrets/a", true),
    ];
    for (pat, path, want) in rows {
        let Some(Spec::Path(p)) = format!("Read({pat})")
            .parse::<Rule>()
            .unwrap()
            .spec()
            .cloned()
        else {
            panic!("{pat}");
        };
        assert_eq!(
            p.matches(Path::new(path), &roots, home),
            *want,
            "{pat} vs {path}"
        );
    }
}

#[test]
fn suggestions_are_valid_rules() {
    let r = Rule::command(vec!["npm".into(), "run".into(), "test".into()], false);
    assert_eq!(r.to_string(), "Bash(npm run test:*)");
    let again: Rule = r.to_string().parse().unwrap();
    assert_eq!(again, r);
    let r = Rule::command(vec!["echo".into(), "a b".into()], true);
    assert_eq!(r.to_string(), "Bash(echo 'a b')");
    let r = Rule::exact_path(
        "Edit",
        Path::new("/ws/src/a[1].rs"),
        &[std::path::PathBuf::from("/ws")],
    );
    assert_eq!(r.to_string(), "Edit(/src/a[1].rs)");
    let Some(Spec::Path(p)) = r.spec() else {
        panic!()
    };
    assert!(p.matches(
        Path::new("/ws/src/a[1].rs"),
        &[std::path::PathBuf::from("/ws")],
        None
    ));
    assert!(!p.matches(
        Path::new("/ws/src/a1.rs"),
        &[std::path::PathBuf::from("/ws")],
        None
    ));
}

/// Rule-shaped text: a tool name (some of Claude Code's), optionally a
/// specifier of arbitrary text.
fn rule_text() -> impl proptest::strategy::Strategy<Value = String> {
    use proptest::prelude::*;
    let tool = prop::sample::select(vec![
        "Bash",
        "Read",
        "Edit",
        "Write",
        "Glob",
        "Grep",
        "LS",
        "WebFetch",
        "mcp__gh__x",
        "mcp__gh",
        "bash",
        "Foo",
    ]);
    (tool, proptest::option::of("\\PC{0,24}")).prop_map(|(tool, spec)| match spec {
        Some(spec) => format!("{tool}({spec})"),
        None => tool.to_owned(),
    })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

    /// display(parse(s)) parses back to the same rule, covering the same tools.
    #[test]
    fn display_parses_back(text in rule_text()) {
        if let Ok(rule) = text.parse::<Rule>() {
            let again: Rule = rule.to_string().parse().unwrap();
            proptest::prop_assert_eq!(&rule, &again);
            for tool in ["bash", "read", "edit", "write", "grep", "mcp__gh__x"] {
                proptest::prop_assert_eq!(rule.covers_tool(tool), again.covers_tool(tool));
            }
        }
    }

    /// Arbitrary text never makes rule parsing panic.
    #[test]
    fn parse_never_panics(text in "\\PC{0,64}") {
        let _ = text.parse::<Rule>();
    }
}
