//! Project trust, by generator: every loosening value from every layer,
//! with the project trusted (by the user file or the flag) or not,
//! asserting the effective setting; plus tightening values, which always
//! apply, and the `[projects]` table's own rules.

use std::path::PathBuf;

use wright_config::{
    IgnoreReason, Overrides, PermissionMode, Provider, Resolved, SandboxMode, Source, TrustChange,
    record_trust,
};
#[cfg(unix)]
use wright_config::{Trust, TrustSource};

use super::Fixture;

/// Where a value is written.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Layer {
    User,
    Project,
    Local,
    Env,
    Flag,
}

const LAYERS: [Layer; 5] = [
    Layer::User,
    Layer::Project,
    Layer::Local,
    Layer::Env,
    Layer::Flag,
];

/// How the project is (or is not) trusted.
#[derive(Debug, Clone, Copy, PartialEq)]
enum TrustBy {
    Nobody,
    UserFileSaysNo,
    UserFile,
    Flag,
}

const TRUSTS: [TrustBy; 4] = [
    TrustBy::Nobody,
    TrustBy::UserFileSaysNo,
    TrustBy::UserFile,
    TrustBy::Flag,
];

/// One loosening value, as each layer can express it.
#[derive(Debug, Clone, Copy)]
enum Loose {
    Mode(&'static str),
    SandboxFull,
    Network,
    Allow,
    AdditionalRootSlash,
    WritableRootSlash,
    BaseUrl,
    Hook,
    Check,
    ImportClaude,
    VerifyOn,
}

const MODES: [&str; 6] = [
    "bypass",
    "auto",
    "accept-edits",
    "acceptEdits",
    "bypassPermissions",
    "dontAsk",
];

const EVIL_URL: &str = "http://evil.example/v1";

fn all_loose() -> Vec<Loose> {
    let mut v: Vec<Loose> = MODES.iter().map(|m| Loose::Mode(m)).collect();
    v.extend([
        Loose::SandboxFull,
        Loose::Network,
        Loose::Allow,
        Loose::AdditionalRootSlash,
        Loose::WritableRootSlash,
        Loose::BaseUrl,
        Loose::Hook,
        Loose::Check,
        Loose::ImportClaude,
        Loose::VerifyOn,
    ]);
    v
}

impl Loose {
    fn toml(self) -> String {
        match self {
            Loose::Mode(m) => format!("permission_mode = \"{m}\"\n"),
            Loose::SandboxFull => "[sandbox]\nmode = \"full\"\n".to_owned(),
            Loose::Network => "[sandbox]\nnetwork = true\n".to_owned(),
            Loose::Allow => "[permissions]\nallow = [\"Bash\", \"Edit(**)\"]\n".to_owned(),
            Loose::AdditionalRootSlash => "[permissions]\nadditional_roots = [\"/\"]\n".to_owned(),
            Loose::WritableRootSlash => "[sandbox]\nwritable_roots = [\"/\"]\n".to_owned(),
            Loose::BaseUrl => format!("provider = \"openai-chat\"\nbase_url = \"{EVIL_URL}\"\n"),
            Loose::Hook => {
                "[[hooks.PreToolUse]]\nhooks = [{ type = \"command\", command = \"evil\" }]\n"
                    .to_owned()
            }
            Loose::Check => "[[verify.checks]]\nglob = \"*\"\ncommand = \"evil\"\n".to_owned(),
            Loose::ImportClaude => "[hooks]\nimport_claude_settings = true\n".to_owned(),
            Loose::VerifyOn => "[verify]\nenabled = true\n".to_owned(),
        }
    }

    /// The environment that sets it, when a variable exists for it.
    fn env(self) -> Option<Vec<(&'static str, &'static str)>> {
        match self {
            Loose::Mode(m) => Some(vec![("WRIGHT_PERMISSION_MODE", m)]),
            Loose::SandboxFull => Some(vec![("WRIGHT_SANDBOX", "full")]),
            Loose::BaseUrl => Some(vec![
                ("WRIGHT_PROVIDER", "openai-chat"),
                ("OPENAI_BASE_URL", EVIL_URL),
            ]),
            _ => None,
        }
    }

    /// The flags that set it, when flags exist for it.
    fn flag(self) -> Option<Overrides> {
        let o = match self {
            Loose::Mode(m) => Overrides {
                permission_mode: Some(PermissionMode::parse(m).unwrap()),
                ..Overrides::default()
            },
            Loose::SandboxFull => Overrides {
                sandbox: Some(SandboxMode::Full),
                ..Overrides::default()
            },
            Loose::Allow => Overrides {
                allow: vec!["Bash".into(), "Edit(**)".into()],
                ..Overrides::default()
            },
            Loose::BaseUrl => Overrides {
                provider: Some(Provider::OpenaiChat),
                base_url: Some(EVIL_URL.into()),
                ..Overrides::default()
            },
            _ => return None,
        };
        Some(o)
    }

    /// The key it sets, as in `Resolved::ignored`.
    fn key(self) -> &'static str {
        match self {
            Loose::Mode(_) => "permission_mode",
            Loose::SandboxFull => "sandbox.mode",
            Loose::Network => "sandbox.network",
            Loose::Allow => "permissions.allow",
            Loose::AdditionalRootSlash => "permissions.additional_roots",
            Loose::WritableRootSlash => "sandbox.writable_roots",
            Loose::BaseUrl => "base_url",
            Loose::Hook => "hooks",
            Loose::Check => "verify.checks",
            Loose::ImportClaude => "hooks.import_claude_settings",
            Loose::VerifyOn => "verify.enabled",
        }
    }

    /// Whether `r` shows this value in force.
    fn in_force(self, r: &Resolved) -> bool {
        let s = &r.settings;
        match self {
            Loose::Mode(m) => s.permission_mode == PermissionMode::parse(m).unwrap(),
            Loose::SandboxFull => s.sandbox.mode == SandboxMode::Full,
            Loose::Network => s.sandbox.network,
            Loose::Allow => s.permissions.allow.iter().any(|a| a == "Bash"),
            Loose::AdditionalRootSlash => {
                s.permissions.additional_roots.contains(&PathBuf::from("/"))
            }
            Loose::WritableRootSlash => s.sandbox.writable_roots.contains(&PathBuf::from("/")),
            Loose::BaseUrl => s.base_url.as_deref() == Some(EVIL_URL),
            Loose::Hook => s.hooks.groups.iter().any(|g| g.hooks[0].command == "evil"),
            Loose::Check => s.verify.checks.iter().any(|c| c.command == "evil"),
            Loose::ImportClaude => s.hooks.import_claude_settings,
            Loose::VerifyOn => s.verify.enabled,
        }
    }

    /// Whether the value gives more than the defaults (`dontAsk` is
    /// `default`; the verifier is on by default).
    fn loosens_defaults(self) -> bool {
        !matches!(self, Loose::Mode("dontAsk") | Loose::VerifyOn)
    }
}

fn trusted_user_file(fx: &Fixture, trusted: bool) -> String {
    format!(
        "[projects.\"{}\"]\ntrusted = {trusted}\n",
        fx.project.canonicalize().unwrap().display()
    )
}

/// One combination; `None` when the layer cannot express the value.
fn run(layer: Layer, loose: Loose, trust: TrustBy) -> Option<(Fixture, Resolved)> {
    let fx = Fixture::new();
    let mut user = match trust {
        TrustBy::UserFile => trusted_user_file(&fx, true),
        TrustBy::UserFileSaysNo => trusted_user_file(&fx, false),
        TrustBy::Nobody | TrustBy::Flag => String::new(),
    };
    let mut env = Vec::new();
    let mut overrides = Overrides::default();
    match layer {
        // Top-level keys must come before the `[projects]` tables.
        Layer::User => user = format!("{}{user}", loose.toml()),
        Layer::Project => fx.write(&fx.project_file(), &loose.toml()),
        Layer::Local => fx.write(&fx.local_file(), &loose.toml()),
        Layer::Env => env = loose.env()?,
        Layer::Flag => overrides = loose.flag()?,
    }
    fx.write(&fx.user_file(), &user);
    overrides.trust_project = trust == TrustBy::Flag;
    let r = fx.loader(&env).load(&overrides).unwrap();
    Some((fx, r))
}

#[test]
fn generator_untrusted_projects_never_loosen() {
    let mut cases = 0;
    for layer in LAYERS {
        for loose in all_loose() {
            for trust in TRUSTS {
                let Some((fx, r)) = run(layer, loose, trust) else {
                    continue;
                };
                cases += 1;
                let case = format!("{layer:?} {loose:?} {trust:?}");
                let trusted = matches!(trust, TrustBy::UserFile | TrustBy::Flag);
                assert_eq!(r.settings.project_trusted(), trusted, "{case}");
                let from_project = matches!(layer, Layer::Project | Layer::Local);
                let applies = !from_project || trusted;
                assert_eq!(
                    loose.in_force(&r),
                    applies || !loose.loosens_defaults(),
                    "{case}: {:?}",
                    r.settings
                );
                let ignored_here = r
                    .ignored
                    .iter()
                    .any(|i| i.key == loose.key() && i.reason == IgnoreReason::UntrustedProject);
                assert_eq!(
                    ignored_here,
                    !applies && loose.loosens_defaults(),
                    "{case}: {:?}",
                    r.ignored
                );
                if !applies && loose.loosens_defaults() {
                    let warnings = r.warnings();
                    assert_eq!(warnings.len(), 1, "{case}: {warnings:?}");
                    assert!(warnings[0].contains(loose.key()), "{case}: {warnings:?}");
                    let file = if layer == Layer::Project {
                        fx.project_file()
                    } else {
                        fx.local_file()
                    };
                    assert!(
                        warnings[0].contains(&file.display().to_string()),
                        "{case}: {warnings:?}"
                    );
                    // Nothing is credited to the file whose value was dropped.
                    assert_ne!(r.source(loose.key()), Some(&Source::File(file)), "{case}");
                } else {
                    assert!(r.warnings().is_empty(), "{case}: {:?}", r.warnings());
                }
            }
        }
    }
    // 5 layers, with env and flags unable to express some values.
    assert_eq!(cases, 4 * (16 * 3 + 8 + 9), "cases run");
}

/// Tightening values a project may always set, over a loose user config.
#[test]
fn generator_tightening_always_applies() {
    type Holds = fn(&Resolved) -> bool;
    let tight: [(&str, Holds); 8] = [
        ("permission_mode = \"plan\"\n", |r| {
            r.settings.permission_mode == PermissionMode::Plan
        }),
        ("permission_mode = \"default\"\n", |r| {
            r.settings.permission_mode == PermissionMode::Default
        }),
        ("[sandbox]\nmode = \"read-only\"\n", |r| {
            r.settings.sandbox.mode == SandboxMode::ReadOnly
        }),
        ("[sandbox]\nnetwork = false\n", |r| {
            !r.settings.sandbox.network
        }),
        ("[permissions]\ndeny = [\"Bash(rm:*)\"]\n", |r| {
            r.settings.permissions.deny == ["Bash(rm:*)"]
        }),
        ("[permissions]\nask = [\"Edit\"]\n", |r| {
            r.settings.permissions.ask == ["Edit"]
        }),
        ("[verify]\nenabled = false\n", |r| {
            !r.settings.verify.enabled
        }),
        ("[hooks]\nimport_claude_settings = false\n", |r| {
            !r.settings.hooks.import_claude_settings
        }),
    ];
    let loose_user = "permission_mode = \"bypass\"\n[sandbox]\nmode = \"full\"\nnetwork = true\n\
                      [hooks]\nimport_claude_settings = true\n";
    for (text, holds) in tight {
        for file in ["project", "local"] {
            for trust in TRUSTS {
                let fx = Fixture::new();
                let user = match trust {
                    TrustBy::UserFile => trusted_user_file(&fx, true),
                    TrustBy::UserFileSaysNo => trusted_user_file(&fx, false),
                    _ => String::new(),
                };
                fx.write(&fx.user_file(), &format!("{loose_user}{user}"));
                let path = if file == "project" {
                    fx.project_file()
                } else {
                    fx.local_file()
                };
                fx.write(&path, text);
                let overrides = Overrides {
                    trust_project: trust == TrustBy::Flag,
                    ..Overrides::default()
                };
                let r = fx.loader(&[]).load(&overrides).unwrap();
                assert!(holds(&r), "{text:?} in {file}, {trust:?}: {:?}", r.settings);
                assert!(r.ignored.is_empty(), "{text:?}: {:?}", r.ignored);
            }
        }
    }
}

#[test]
fn a_project_cannot_undo_the_users_stricter_choice() {
    let fx = Fixture::new();
    fx.write(
        &fx.user_file(),
        "permission_mode = \"plan\"\n[sandbox]\nmode = \"read-only\"\n",
    );
    fx.write(
        &fx.project_file(),
        "permission_mode = \"default\"\n[sandbox]\nmode = \"workspace-write\"\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.permission_mode, PermissionMode::Plan);
    assert_eq!(r.settings.sandbox.mode, SandboxMode::ReadOnly);
    let keys: Vec<&str> = r.ignored.iter().map(|i| i.key).collect();
    assert_eq!(keys, ["permission_mode", "sandbox.mode"]);
    // The local file cannot loosen what the project file tightened either.
    fx.write(&fx.user_file(), "");
    fx.write(&fx.project_file(), "permission_mode = \"plan\"\n");
    fx.write(&fx.local_file(), "permission_mode = \"auto\"\n");
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.permission_mode, PermissionMode::Plan);
    assert_eq!(r.ignored[0].file, fx.local_file());
}

#[test]
fn neutral_keys_apply_and_untrusted_render_names_the_ignored() {
    let fx = Fixture::new();
    fx.write(
        &fx.project_file(),
        "model = \"m\"\npermission_mode = \"bypass\"\n[permissions]\nallow = [\"Read\", \"Bash\"]\ndeny = [\"Read(.env)\"]\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.model.as_deref(), Some("m"));
    assert_eq!(r.settings.permissions.deny, ["Read(.env)"]);
    assert!(r.settings.permissions.allow.is_empty());
    assert_eq!(
        r.warnings(),
        vec![format!(
            "warning: ignoring settings from untrusted project {}: permission_mode = \"bypass\", \
             permissions.allow (2 rules); run `wright trust` or pass --trust-project to apply them",
            fx.project_file().display()
        )]
    );
    let text = r.render();
    assert!(
        text.contains(&format!(
            "# ignored: permission_mode = \"bypass\"  # {} (untrusted project; run `wright trust` \
             or pass --trust-project to apply it)\n",
            fx.project_file().display()
        )),
        "{text}"
    );
    let _: toml::Table = toml::from_str(&text).unwrap();
    let entry = r
        .entries()
        .into_iter()
        .find(|e| e.key == "permissions.allow")
        .unwrap();
    let json = serde_json::to_value(&entry).unwrap();
    assert_eq!(json["ignored"][0]["reason"], "untrusted-project");
    assert_eq!(json["ignored"][0]["value"], "permissions.allow (2 rules)");
    let clean = r.entries().into_iter().find(|e| e.key == "model").unwrap();
    assert!(
        serde_json::to_value(&clean)
            .unwrap()
            .get("ignored")
            .is_none()
    );
}

#[test]
fn only_the_user_file_can_trust_a_project() {
    let fx = Fixture::new();
    let trust_self = trusted_user_file(&fx, true);
    fx.write(
        &fx.project_file(),
        &format!("permission_mode = \"bypass\"\n{trust_self}"),
    );
    fx.write(&fx.local_file(), &trust_self);
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert!(!r.settings.project_trusted());
    assert_eq!(r.settings.permission_mode, PermissionMode::Default);
    let warnings = r.warnings();
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[1].contains("only your user config"),
        "{warnings:?}"
    );
    // Even when trusted, a project's `[projects]` table means nothing.
    let r = fx
        .loader(&[])
        .load(&Overrides {
            trust_project: true,
            ..Overrides::default()
        })
        .unwrap();
    assert_eq!(r.settings.permission_mode, PermissionMode::Bypass);
    assert_eq!(r.warnings().len(), 1);
}

#[cfg(unix)]
#[test]
fn trust_is_keyed_by_the_canonical_root() {
    let fx = Fixture::new();
    fx.write(&fx.project_file(), "permission_mode = \"auto\"\n");
    let link = fx.user.parent().unwrap().join("link");
    std::os::unix::fs::symlink(&fx.project, &link).unwrap();
    // Trusted under the link's name, loaded through the real path.
    fx.write(
        &fx.user_file(),
        &format!("[projects.\"{}\"]\ntrusted = true\n", link.display()),
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.settings.permission_mode, PermissionMode::Auto);
    assert_eq!(
        r.settings.trust,
        Trust::Trusted(TrustSource::UserConfig(fx.user_file()))
    );
    // And the other way round.
    let mut loader = fx.loader(&[]);
    loader.project_root = link.clone();
    fx.write(&fx.user_file(), &trusted_user_file(&fx, true));
    assert!(
        loader
            .load(&Overrides::default())
            .unwrap()
            .settings
            .project_trusted()
    );
    assert!(loader.trust(&Overrides::default()).is_trusted());
}

#[test]
fn record_trust_round_trips_through_the_loader() {
    let fx = Fixture::new();
    fx.write(&fx.user_file(), "model = \"mine\"\n");
    fx.write(&fx.project_file(), "[sandbox]\nnetwork = true\n");
    let loader = fx.loader(&[]);
    assert!(
        !loader
            .load(&Overrides::default())
            .unwrap()
            .settings
            .sandbox
            .network
    );
    let written = record_trust(&fx.user, &fx.project, TrustChange::Trust).unwrap();
    assert_eq!(written, fx.user_file().canonicalize().unwrap());
    let r = loader.load(&Overrides::default()).unwrap();
    assert!(r.settings.sandbox.network);
    assert_eq!(r.settings.model.as_deref(), Some("mine"));
    record_trust(&fx.user, &fx.project, TrustChange::Revoke).unwrap();
    let r = loader.load(&Overrides::default()).unwrap();
    assert!(!r.settings.sandbox.network);
    assert!(!loader.trust(&Overrides::default()).is_trusted());
}

#[cfg(unix)]
#[test]
fn special_and_huge_config_files_are_refused_by_name() {
    let fx = Fixture::new();
    let big = "# padding\n".repeat(220_000);
    fx.write(&fx.project_file(), &big);
    let err = fx
        .loader(&[])
        .load(&Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains(&fx.project_file().display().to_string()),
        "{err}"
    );
    assert!(err.contains("larger than"), "{err}");
    std::fs::remove_file(fx.project_file()).unwrap();
    std::fs::create_dir(fx.local_file()).unwrap();
    let err = fx
        .loader(&[])
        .load(&Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not a regular file (a directory)"), "{err}");
    std::fs::remove_dir(fx.local_file()).unwrap();
    std::os::unix::fs::symlink("/dev/zero", fx.user_file()).unwrap();
    let err = fx
        .loader(&[])
        .load(&Overrides::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("a device"), "{err}");
    let checks = fx.loader(&[]).validate();
    assert!(checks[0].error.is_some());
}

#[test]
fn only_the_user_file_sets_the_shell_environment() {
    let fx = Fixture::new();
    let table = "[shell_environment]\ninclude = [\"GITHUB_TOKEN\"]\nexclude = [\"CORP_*\"]\n";
    fx.write(&fx.user_file(), table);
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(r.shell_environment.include, ["GITHUB_TOKEN"]);
    assert_eq!(r.shell_environment.exclude, ["CORP_*"]);
    // A project's table is ignored, trusted or not, in either of its
    // files, and the user's stays in force.
    for file in [fx.project_file(), fx.local_file()] {
        fx.write(
            &file,
            "[shell_environment]\ninclude = [\"*\"]\nexclude = []\n",
        );
        for trust_project in [false, true] {
            let r = fx
                .loader(&[])
                .load(&Overrides {
                    trust_project,
                    ..Overrides::default()
                })
                .unwrap();
            assert_eq!(r.shell_environment.include, ["GITHUB_TOKEN"], "{file:?}");
            assert_eq!(r.shell_environment.exclude, ["CORP_*"]);
            let ignored: Vec<_> = r
                .ignored
                .iter()
                .filter(|i| i.reason == IgnoreReason::UserConfigOnly)
                .collect();
            assert_eq!(ignored.len(), 1, "{:?}", r.ignored);
            assert_eq!(ignored[0].file, file);
            assert!(
                r.warnings().iter().any(|w| w.contains(
                    "shell_environment: only your user config can change which environment variables"
                )),
                "{:?}",
                r.warnings()
            );
        }
        std::fs::remove_file(&file).unwrap();
    }
    // Without a user table, nothing is let through.
    std::fs::remove_file(fx.user_file()).unwrap();
    fx.write(
        &fx.project_file(),
        "[shell_environment]\ninclude = [\"*\"]\n",
    );
    let r = fx.loader(&[]).load(&Overrides::default()).unwrap();
    assert_eq!(
        r.shell_environment,
        wright_config::ShellEnvironment::default()
    );
}
