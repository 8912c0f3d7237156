//! Planning against real directory trees in temp dirs; which programs are
//! on PATH is injected.

use std::path::{Path, PathBuf};
use std::time::Duration;

use pretty_assertions::assert_eq;
use tempfile::TempDir;

use super::super::{CheckSpec, Format, VerifySettings};
use super::{CheckRun, Verifier};

/// A temp tree from `(path, contents)` pairs.
fn tree(files: &[(&str, &str)]) -> TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, contents) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, contents).unwrap();
    }
    dir
}

fn all_tools(_: &str) -> bool {
    true
}

fn verifier(
    checks: Vec<CheckSpec>,
    on_path: impl Fn(&str) -> bool + Send + Sync + 'static,
) -> Verifier {
    let settings = VerifySettings {
        checks,
        ..VerifySettings::default()
    };
    let (verifier, warnings) = Verifier::new(settings, on_path);
    assert_eq!(warnings, Vec::<String>::new());
    verifier
}

fn user(glob: &str, command: &str, format: Format) -> CheckSpec {
    CheckSpec {
        glob: glob.to_string(),
        command: command.to_string(),
        format,
        timeout: None,
        source: "test config".to_string(),
    }
}

/// (label, command, cwd relative to root, files relative to root)
fn brief(runs: &[CheckRun], root: &Path) -> Vec<(String, String, PathBuf, Vec<PathBuf>)> {
    runs.iter()
        .map(|r| {
            let rel = |p: &Path| p.strip_prefix(root).unwrap().to_path_buf();
            (
                r.label.clone(),
                r.command.clone(),
                rel(&r.cwd),
                r.files.iter().map(|f| rel(f)).collect(),
            )
        })
        .collect()
}

const CARGO: &str = "cargo check --workspace --message-format=json --quiet";

fn workspace() -> TempDir {
    tree(&[
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
        ("crates/a/src/lib.rs", ""),
        ("crates/a/src/m.rs", ""),
        ("crates/a/tests/t.rs", ""),
        ("crates/b/Cargo.toml", "[package]\nname = \"b\"\n"),
        ("crates/b/src/main.rs", ""),
        ("README.md", ""),
        // Under the virtual manifest but in no package.
        ("loose.rs", ""),
        ("scripts/gen.rs", ""),
    ])
}

#[test]
fn nested_crate_runs_at_the_workspace_root_once() {
    let ws = workspace();
    let root = ws.path();
    let edited = [
        root.join("crates/a/src/lib.rs"),
        root.join("crates/b/src/main.rs"),
        root.join("crates/a/src/m.rs"),
        root.join("README.md"),
        root.join("loose.rs"),
    ];
    let runs = verifier(vec![], all_tools).plan(&edited, root);
    assert_eq!(
        brief(&runs, root),
        vec![(
            "cargo check".to_string(),
            CARGO.to_string(),
            PathBuf::new(),
            vec![
                "crates/a/src/lib.rs".into(),
                "crates/b/src/main.rs".into(),
                "crates/a/src/m.rs".into()
            ],
        )]
    );
    let run = &runs[0];
    assert_eq!(run.format, Format::CargoJson);
    assert_eq!(run.timeout, Duration::from_secs(120));
    assert_eq!(run.root, root);
}

#[test]
fn test_files_add_all_targets() {
    let ws = workspace();
    let root = ws.path();
    let runs = verifier(vec![], all_tools).plan(
        &[
            root.join("crates/a/src/lib.rs"),
            root.join("crates/a/tests/t.rs"),
        ],
        root,
    );
    assert_eq!(runs.len(), 1);
    assert_eq!(
        runs[0].command,
        "cargo check --workspace --all-targets --message-format=json --quiet"
    );
}

#[test]
fn standalone_crate_runs_in_its_own_dir() {
    let dir = tree(&[
        ("tool/Cargo.toml", "[package]\nname = \"tool\"\n"),
        ("tool/src/main.rs", ""),
        ("tool/src/deep/x.rs", ""),
    ]);
    let root = dir.path();
    let runs = verifier(vec![], all_tools).plan(&[root.join("tool/src/deep/x.rs")], root);
    assert_eq!(
        brief(&runs, root),
        vec![(
            "cargo check".to_string(),
            "cargo check --message-format=json --quiet".to_string(),
            PathBuf::from("tool"),
            vec!["tool/src/deep/x.rs".into()],
        )]
    );
}

#[test]
fn top_most_workspace_wins_and_nothing_above_root_is_read() {
    let dir = tree(&[
        // Above the root: must be ignored.
        ("Cargo.toml", "[workspace]\n"),
        (
            "proj/Cargo.toml",
            "  [workspace]  \nmembers = [\"inner\"]\n",
        ),
        (
            "proj/inner/Cargo.toml",
            "[package]\nname = \"inner\"\n[workspace]\n",
        ),
        (
            "proj/inner/pkg/Cargo.toml",
            "[package]\nname = \"pkg\"\n# [workspace] in a comment\n",
        ),
        ("proj/inner/pkg/src/lib.rs", ""),
    ]);
    let root = dir.path().join("proj");
    let runs = verifier(vec![], all_tools).plan(&[root.join("inner/pkg/src/lib.rs")], &root);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].cwd, root);
    assert_eq!(runs[0].command, CARGO);
}

#[test]
fn rust_without_cargo_or_manifest_is_not_checked() {
    let ws = workspace();
    let root = ws.path();
    let no_cargo = verifier(vec![], |p| p != "cargo");
    assert_eq!(
        no_cargo.plan(&[root.join("crates/a/src/lib.rs")], root),
        vec![]
    );
    let with_cargo = verifier(vec![], all_tools);
    assert_eq!(
        with_cargo.plan(&[root.join("loose.rs"), root.join("scripts/gen.rs")], root),
        vec![]
    );
    assert_eq!(with_cargo.plan(&[root.join("README.md")], root), vec![]);
}

#[test]
fn disabled_plans_nothing() {
    let ws = workspace();
    let settings = VerifySettings {
        enabled: false,
        ..VerifySettings::default()
    };
    let (verifier, _) = Verifier::new(settings, all_tools);
    assert_eq!(
        verifier.plan(&[ws.path().join("crates/a/src/lib.rs")], ws.path()),
        vec![]
    );
}

#[test]
fn user_glob_beats_the_preset_and_first_match_wins() {
    let ws = workspace();
    let root = ws.path();
    let v = verifier(
        vec![
            user("*.rs", "my-rust-check", Format::Lines),
            user("**/*.rs", "never-reached", Format::Gcc),
        ],
        all_tools,
    );
    let runs = v.plan(&[root.join("crates/a/src/lib.rs")], root);
    assert_eq!(
        brief(&runs, root),
        vec![(
            "my-rust-check".to_string(),
            "my-rust-check".to_string(),
            PathBuf::new(),
            vec!["crates/a/src/lib.rs".into()]
        )]
    );
    assert_eq!(runs[0].format, Format::Lines);
}

#[test]
fn files_are_substituted_quoted_and_relative() {
    let dir = tree(&[("web/my app/x.ts", ""), ("web/y.ts", ""), ("-z.ts", "")]);
    let root = dir.path();
    let v = verifier(
        vec![user(
            "*.ts",
            "npx tsc --noEmit --pretty false {files}",
            Format::Tsc,
        )],
        all_tools,
    );
    let runs = v.plan(
        &[
            root.join("web/my app/x.ts"),
            root.join("web/y.ts"),
            root.join("-z.ts"),
        ],
        root,
    );
    assert_eq!(runs.len(), 1);
    assert_eq!(
        runs[0].command,
        "npx tsc --noEmit --pretty false 'web/my app/x.ts' web/y.ts ./-z.ts"
    );
    assert_eq!(runs[0].label, "npx tsc --noEmit --pretty false");
    assert_eq!(runs[0].cwd, root);
}

#[test]
fn slash_globs_are_relative_to_root() {
    let dir = tree(&[("src/a/b.ts", ""), ("other/src/c.ts", ""), ("src/d.ts", "")]);
    let root = dir.path();
    let v = verifier(
        vec![
            user("/src/*.ts", "top {files}", Format::Lines),
            user("src/**/*.ts", "deep {files}", Format::Lines),
        ],
        all_tools,
    );
    let runs = v.plan(
        &[
            root.join("src/a/b.ts"),
            root.join("other/src/c.ts"),
            root.join("src/d.ts"),
        ],
        root,
    );
    let commands: Vec<&str> = runs.iter().map(|r| r.command.as_str()).collect();
    // `*` does not cross `/`, and `other/src/c.ts` is not under `src/`.
    assert_eq!(commands, vec!["deep src/a/b.ts", "top src/d.ts"]);
}

#[cfg(unix)]
#[test]
fn duplicates_and_symlinked_spellings_are_one_file() {
    let dir = tree(&[("real/a.py", ""), ("real/b.py", "")]);
    let real = dir.path().join("real");
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let v = verifier(vec![], all_tools);
    let runs = v.plan(
        &[
            real.join("a.py"),
            real.join("a.py"),
            link.join("a.py"),
            real.join("b.py"),
        ],
        &real,
    );
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].files, vec![real.join("a.py"), real.join("b.py")]);
    assert_eq!(
        runs[0].command,
        "ruff check --output-format concise a.py b.py"
    );
    assert_eq!(runs[0].label, "ruff check");
    assert_eq!(runs[0].format, Format::Gcc);

    // The root given through the link, a file through the real path.
    let runs = v.plan(&[real.join("a.py")], &link);
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].command, "ruff check --output-format concise a.py");
}

#[test]
fn python_needs_ruff() {
    let dir = tree(&[("a.py", "")]);
    let v = verifier(vec![], |p| p != "ruff");
    assert_eq!(v.plan(&[dir.path().join("a.py")], dir.path()), vec![]);
}

#[test]
fn go_vet_runs_at_the_nearest_module() {
    let dir = tree(&[
        ("go.mod", "module example.com/top\n"),
        ("svc/go.mod", "module example.com/svc\n"),
        ("svc/internal/x.go", ""),
        ("cmd/main.go", ""),
        ("loose/y.go", ""),
    ]);
    let root = dir.path();
    let runs = verifier(vec![], all_tools).plan(
        &[
            root.join("svc/internal/x.go"),
            root.join("cmd/main.go"),
            root.join("loose/y.go"),
        ],
        root,
    );
    assert_eq!(
        brief(&runs, root),
        vec![
            (
                "go vet".to_string(),
                "go vet ./...".to_string(),
                PathBuf::from("svc"),
                vec!["svc/internal/x.go".into()]
            ),
            (
                "go vet".to_string(),
                "go vet ./...".to_string(),
                PathBuf::new(),
                vec!["cmd/main.go".into(), "loose/y.go".into()]
            ),
        ]
    );
    assert_eq!(runs[0].format, Format::Gcc);
    let no_go = verifier(vec![], |p| p != "go");
    assert_eq!(no_go.plan(&[root.join("cmd/main.go")], root), vec![]);
}

#[test]
fn files_outside_root_get_only_name_globs() {
    let inside = tree(&[("Cargo.toml", "[package]\n"), ("src/lib.rs", "")]);
    let outside = tree(&[
        ("Cargo.toml", "[package]\n"),
        ("src/lib.rs", ""),
        ("x.ts", ""),
    ]);
    let root = inside.path();
    let v = verifier(
        vec![
            user("src/*.rs", "rel-only", Format::Lines),
            user("*.ts", "tsc {files}", Format::Tsc),
        ],
        all_tools,
    );
    let runs = v.plan(
        &[
            outside.path().join("src/lib.rs"),
            outside.path().join("x.ts"),
        ],
        root,
    );
    assert_eq!(runs.len(), 1);
    let abs = outside.path().join("x.ts");
    assert_eq!(runs[0].command, format!("tsc {}", abs.display()));
    assert_eq!(runs[0].cwd, root);
}

#[test]
fn timeouts_come_from_the_check_or_the_settings() {
    let dir = tree(&[("a.ts", ""), ("b.js", "")]);
    let mut quick = user("*.ts", "tsc", Format::Tsc);
    quick.timeout = Some(Duration::from_secs(5));
    let settings = VerifySettings {
        timeout: Duration::from_secs(60),
        checks: vec![quick, user("*.js", "eslint", Format::Lines)],
        ..VerifySettings::default()
    };
    let (v, _) = Verifier::new(settings, all_tools);
    let runs = v.plan(
        &[dir.path().join("a.ts"), dir.path().join("b.js")],
        dir.path(),
    );
    let timeouts: Vec<u64> = runs.iter().map(|r| r.timeout.as_secs()).collect();
    assert_eq!(timeouts, vec![5, 60]);
}

#[test]
fn same_command_from_two_globs_is_one_run() {
    let dir = tree(&[("a.ts", ""), ("b.tsx", "")]);
    let v = verifier(
        vec![
            user("*.ts", "npx tsc --noEmit", Format::Tsc),
            user("*.tsx", "npx tsc --noEmit", Format::Tsc),
        ],
        all_tools,
    );
    let runs = v.plan(
        &[dir.path().join("a.ts"), dir.path().join("b.tsx")],
        dir.path(),
    );
    assert_eq!(runs.len(), 1);
    assert_eq!(runs[0].files.len(), 2);
}

#[test]
fn bad_checks_are_skipped_with_warnings() {
    let settings = VerifySettings {
        checks: vec![
            user("src/[.ts", "tsc", Format::Tsc),
            user("*.ts", "   ", Format::Tsc),
            user("", "x", Format::Lines),
            user("*.ts", "ok", Format::Tsc),
        ],
        ..VerifySettings::default()
    };
    let (v, warnings) = Verifier::new(settings, all_tools);
    assert_eq!(warnings.len(), 3);
    assert!(
        warnings[0].starts_with("verifier check `src/[.ts` from test config is skipped: bad glob")
    );
    assert_eq!(
        warnings[1],
        "verifier check `*.ts` from test config is skipped: its command is empty"
    );
    assert_eq!(
        warnings[2],
        "verifier check `` from test config is skipped: its glob is empty"
    );
    let dir = tree(&[("a.ts", "")]);
    let runs = v.plan(&[dir.path().join("a.ts")], dir.path());
    assert_eq!(runs[0].command, "ok");
}

#[test]
fn long_user_commands_get_short_labels() {
    let dir = tree(&[("a.ts", "")]);
    let v = verifier(
        vec![user(
            "*.ts",
            "{files} node ./node_modules/.bin/very-long-checker --with --many --flags",
            Format::Lines,
        )],
        all_tools,
    );
    let runs = v.plan(&[dir.path().join("a.ts")], dir.path());
    assert_eq!(runs[0].label, "node ./node_modules/.bin/very-long-chec…");
    assert_eq!(runs[0].label.chars().count(), 40);
}
