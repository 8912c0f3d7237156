//! `[hooks]` and `[verify]` across layers: groups and checks append with
//! their files, scalars are replaced, untrusted projects cannot add
//! commands or turn switches on, `--no-verify` wins, and `config show`
//! prints them as loadable TOML.

use wright_config::{
    CheckFormat, ConfigError, HookEvent, IgnoreReason, Overrides, Resolved, Source,
};

use super::{Fixture, trusted};

fn stop_hook(command: &str) -> String {
    format!("[[hooks.Stop]]\nhooks = [{{ type = \"command\", command = \"{command}\" }}]\n")
}

fn check(glob: &str, command: &str) -> String {
    format!("[[verify.checks]]\nglob = \"{glob}\"\ncommand = \"{command}\"\n")
}

/// The commands of every group, with the file each came from.
fn commands(r: &Resolved) -> Vec<(HookEvent, String, Source)> {
    r.settings
        .hooks
        .groups
        .iter()
        .flat_map(|g| {
            g.hooks
                .iter()
                .map(|h| (g.event, h.command.clone(), g.source.clone()))
        })
        .collect()
}

/// Every layer writes hooks, checks and the three scalars.
fn write_all_layers(fx: &Fixture) {
    fx.write(
        &fx.user_file(),
        &format!(
            "[hooks]\nimport_claude_settings = true\n[[hooks.PreToolUse]]\nmatcher = \"Bash\"\n\
             hooks = [{{ type = \"command\", command = \"user-pre\", timeout = 9 }}]\n\
             {}[verify]\ntimeout_secs = 30\n{}",
            stop_hook("user-stop"),
            check("*.rs", "cargo clippy")
        ),
    );
    fx.write(
        &fx.project_file(),
        &format!(
            "{}[verify]\nenabled = false\ntimeout_secs = 60\n{}",
            stop_hook("project-stop"),
            check("*.ts", "tsc")
        ),
    );
    fx.write(
        &fx.local_file(),
        &format!(
            "[hooks]\nimport_claude_settings = false\n{}{}[verify]\nenabled = true\n{}",
            stop_hook("local-stop"),
            // The same group again: kept once, credited to the user file.
            stop_hook("user-stop"),
            check("*.py", "ruff check")
        ),
    );
}

#[test]
fn groups_and_checks_append_across_layers_with_their_files() {
    let fx = Fixture::new();
    write_all_layers(&fx);
    let r = fx.loader(&[]).load(&trusted()).unwrap();
    let user = Source::File(fx.user_file());
    let project = Source::File(fx.project_file());
    let local = Source::File(fx.local_file());
    assert_eq!(
        commands(&r),
        vec![
            (HookEvent::PreToolUse, "user-pre".to_owned(), user.clone()),
            (HookEvent::Stop, "user-stop".to_owned(), user.clone()),
            (HookEvent::Stop, "project-stop".to_owned(), project.clone()),
            (HookEvent::Stop, "local-stop".to_owned(), local.clone()),
        ]
    );
    let pre = r
        .settings
        .hooks
        .groups_for(HookEvent::PreToolUse)
        .next()
        .unwrap();
    assert_eq!(pre.matcher.as_deref(), Some("Bash"));
    assert_eq!(pre.hooks[0].timeout_secs, Some(9));
    assert_eq!(r.settings.hooks.groups_for(HookEvent::Stop).count(), 3);
    let v = &r.settings.verify;
    let checks: Vec<(&str, &Source)> = v
        .checks
        .iter()
        .map(|c| (c.glob.as_str(), &c.source))
        .collect();
    assert_eq!(
        checks,
        vec![("*.rs", &user), ("*.ts", &project), ("*.py", &local)]
    );
    assert_eq!(v.checks[0].format, CheckFormat::Lines);
    // Scalars: the highest layer that set one wins.
    assert!(!r.settings.hooks.import_claude_settings);
    assert!(v.enabled);
    assert_eq!(v.timeout_secs, 60);
    assert_eq!(v.check_timeout_secs(&v.checks[0]), 60);
    assert_eq!(r.source("hooks.import_claude_settings"), Some(&local));
    assert_eq!(r.source("verify.enabled"), Some(&local));
    assert_eq!(r.source("verify.timeout_secs"), Some(&project));
    assert_eq!(r.source("hooks"), Some(&local));
    assert_eq!(r.source("verify.checks"), Some(&local));
    assert_eq!(
        r.describe_source(&pre.source),
        format!("user config ({})", fx.user_file().display())
    );
    assert_eq!(
        r.describe_source(&local),
        format!("local project config ({})", fx.local_file().display())
    );
    assert!(r.ignored.is_empty(), "{:?}", r.ignored);
}

#[test]
fn an_untrusted_project_cannot_add_commands_or_turn_them_on() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "[verify]\nenabled = false\n");
    fx.write(
        &fx.project_file(),
        &format!(
            "[hooks]\nimport_claude_settings = true\n{}[[hooks.PreToolUse]]\n\
             hooks = [{{ type = \"command\", command = \"curl evil\" }}]\n\
             [verify]\nenabled = true\ntimeout_secs = 5\n{}",
            stop_hook("evil"),
            check("*", "evil")
        ),
    );
    fx.write(&fx.local_file(), &stop_hook("local-evil"));
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    let s = &r.settings;
    assert!(s.hooks.groups.is_empty(), "{:?}", s.hooks.groups);
    assert!(s.verify.checks.is_empty());
    assert!(!s.hooks.import_claude_settings);
    assert!(!s.verify.enabled);
    // Neutral values still apply.
    assert_eq!(s.verify.timeout_secs, 5);
    let ignored: Vec<(&str, &str)> = r
        .ignored
        .iter()
        .map(|i| (i.key, i.value.as_str()))
        .collect();
    assert_eq!(
        ignored,
        vec![
            (
                "hooks.import_claude_settings",
                "hooks.import_claude_settings = true"
            ),
            ("hooks", r#"hooks.PreToolUse (1 group: "curl evil")"#),
            ("hooks", r#"hooks.Stop (1 group: "evil")"#),
            ("verify.enabled", "verify.enabled = true"),
            ("verify.checks", r#"verify.checks (1 check: "evil")"#),
            ("hooks", r#"hooks.Stop (1 group: "local-evil")"#),
        ]
    );
    assert!(
        r.ignored
            .iter()
            .all(|i| i.reason == IgnoreReason::UntrustedProject)
    );
    assert_eq!(r.ignored[5].file, fx.local_file());
    assert_eq!(
        r.warnings(),
        vec![format!(
            "warning: ignoring settings from untrusted project {}: \
             hooks.import_claude_settings = true, hooks.PreToolUse (1 group: \"curl evil\"), \
             hooks.Stop (1 group: \"evil\"), verify.enabled = true, verify.checks (1 check: \"evil\"); \
             {}: hooks.Stop (1 group: \"local-evil\"); \
             run `wright trust` or pass --trust-project to apply them",
            fx.project_file().display(),
            fx.local_file().display()
        )]
    );
    assert_eq!(r.source("hooks"), Some(&Source::Default));
    assert!(r.has_untrusted_ignored());
    // `config show --json` attaches them to their keys.
    let entries = r.entries();
    let hooks = entries.iter().find(|e| e.key == "hooks").unwrap();
    assert_eq!(hooks.ignored.len(), 3);
    let text = r.render();
    assert!(
        text.contains(&format!(
            "# ignored: hooks.PreToolUse (1 group: \"curl evil\")  # {} (untrusted project;",
            fx.project_file().display()
        )),
        "{text}"
    );

    // Trusted, all of it applies.
    let r = fx.loader(&[]).load(&trusted()).unwrap();
    let got: Vec<String> = commands(&r).into_iter().map(|(_, c, _)| c).collect();
    assert_eq!(got, ["curl evil", "evil", "local-evil"]);
    assert_eq!(r.settings.verify.checks.len(), 1);
    assert!(r.settings.hooks.import_claude_settings);
    assert!(r.settings.verify.enabled);
    assert!(r.ignored.is_empty());
}

#[test]
fn user_hooks_apply_and_an_untrusted_project_may_still_turn_things_off() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        &format!(
            "[hooks]\nimport_claude_settings = true\n{}{}",
            stop_hook("mine"),
            check("*.rs", "cargo check")
        ),
    );
    fx.write(
        &fx.project_file(),
        "[hooks]\nimport_claude_settings = false\n[verify]\nenabled = false\n",
    );
    // `enabled = true` over the project's `false` would loosen again.
    fx.write(&fx.local_file(), "[verify]\nenabled = true\n");
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    let s = &r.settings;
    assert!(!s.project_trusted());
    assert_eq!(s.hooks.groups.len(), 1);
    assert_eq!(s.verify.checks.len(), 1);
    assert!(!s.hooks.import_claude_settings);
    assert!(!s.verify.enabled);
    assert_eq!(
        r.source("verify.enabled"),
        Some(&Source::File(fx.project_file()))
    );
    let keys: Vec<&str> = r.ignored.iter().map(|i| i.key).collect();
    assert_eq!(keys, ["verify.enabled"]);
    assert_eq!(r.ignored[0].file, fx.local_file());
}

#[test]
fn no_verify_beats_every_file() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "[verify]\nenabled = true\n");
    fx.write(&fx.local_file(), "[verify]\nenabled = true\n");
    let flags = Overrides {
        no_verify: true,
        ..trusted()
    };
    let r = fx.loader(&[]).load(&flags).unwrap();
    assert!(!r.settings.verify.enabled);
    assert_eq!(
        r.source("verify.enabled"),
        Some(&Source::Flag("--no-verify".into()))
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert!(r.settings.verify.enabled);
}

#[test]
fn config_show_prints_hooks_and_checks_as_loadable_toml() {
    let fx = Fixture::new();
    write_all_layers(&fx);
    let r = fx.loader(&[]).load(&trusted()).unwrap();
    let text = r.render();
    assert!(
        text.contains(&format!(
            "hooks.PreToolUse = [{{ matcher = \"Bash\", hooks = [{{ type = \"command\", \
             command = \"user-pre\", timeout = 9 }}] }}]  # {}\n",
            fx.user_file().display()
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "  # {}, {}, {}\nverify.enabled = true  # {}\n",
            fx.user_file().display(),
            fx.project_file().display(),
            fx.local_file().display(),
            fx.local_file().display()
        )),
        "{text}"
    );
    assert!(
        text.contains(
            "verify.checks = [{ glob = \"*.rs\", command = \"cargo clippy\", format = \"lines\" }, "
        ),
        "{text}"
    );
    // Loaded back as one file, the same commands, checks and switches.
    let fx2 = Fixture::new();
    fx2.write(&fx2.project_file(), &text);
    let again = fx2.loader(&[]).load(&trusted()).unwrap();
    let strip = |r: &Resolved| -> Vec<(HookEvent, String)> {
        commands(r).into_iter().map(|(e, c, _)| (e, c)).collect()
    };
    assert_eq!(strip(&again), strip(&r));
    let a = &again.settings;
    assert_eq!(a.hooks.groups[0].matcher.as_deref(), Some("Bash"));
    assert_eq!(a.hooks.groups[0].hooks[0].timeout_secs, Some(9));
    assert_eq!(a.verify.checks.len(), 3);
    for (x, y) in a.verify.checks.iter().zip(&r.settings.verify.checks) {
        assert_eq!(
            (&x.glob, &x.command, x.format),
            (&y.glob, &y.command, y.format)
        );
    }
    assert_eq!(a.verify.timeout_secs, 60);
    assert_eq!(
        a.hooks.import_claude_settings,
        r.settings.hooks.import_claude_settings
    );

    let entries = r.entries();
    let hooks = entries.iter().find(|e| e.key == "hooks").unwrap();
    let json = serde_json::to_value(hooks).unwrap();
    assert_eq!(
        json["value"]["Stop"][1]["hooks"][0]["command"],
        "project-stop"
    );
    assert_eq!(json["value"]["PreToolUse"][0]["matcher"], "Bash");
    assert_eq!(
        json["source"]["path"],
        fx.local_file().display().to_string()
    );
    let checks = entries.iter().find(|e| e.key == "verify.checks").unwrap();
    let json = serde_json::to_value(checks).unwrap();
    assert_eq!(json["value"][1]["format"], "lines");
    assert_eq!(json["value"][2]["command"], "ruff check");
}

#[test]
fn bad_hooks_are_reported_by_file_line_and_key() {
    let fx = Fixture::new();
    fx.write(
        &fx.local_file(),
        "model = \"m\"\n\n[[hooks.Stopp]]\nhooks = []\n",
    );
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    match &err {
        ConfigError::UnknownKey {
            path,
            line,
            key,
            expected,
            ..
        } => {
            assert_eq!(path, &fx.local_file());
            assert_eq!(*line, 3);
            assert_eq!(key, "hooks.Stopp");
            assert!(expected.contains("PreToolUse, PostToolUse"), "{expected}");
        }
        other => panic!("unexpected {other:?}"),
    }
    fx.write(
        &fx.local_file(),
        "[[verify.checks]]\nglob = \"*.ts\"\ncommand = \"tsc\"\nformat = \"eslint\"\n",
    );
    let err = fx.loader(&[]).load(&Overrides::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        format!(
            "{}:4:10: invalid value `eslint` for `verify.checks[0].format`: \
             expected one of: cargo-json, gcc, tsc, lines",
            fx.local_file().display()
        )
    );
    // `config validate` reports it per layer, even for an untrusted project.
    let checks = fx.loader(&[]).validate();
    assert!(
        checks[2]
            .error
            .as_ref()
            .is_some_and(|e| e.to_string().contains("verify.checks[0].format")),
        "{checks:?}"
    );
}
