//! What `wright init` can tell about a project without a model: its build,
//! test and lint commands from the manifests it finds (Cargo, npm and its
//! siblings, Python, Go), and the starter `AGENTS.md` written from them.
//!
//! Placeholders in the starter are HTML comments, which the context loader
//! strips, so an unedited starter puts no "<command>" noise in the prompt.

use std::path::Path;

/// Commands found for one toolchain.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Detected {
    /// What the commands were read from (`Cargo.toml`, `package.json`, …).
    pub source: &'static str,
    /// Build command, if there is one.
    pub build: Option<String>,
    /// Test command, if there is one.
    pub test: Option<String>,
    /// Lint or format check, if there is one.
    pub lint: Option<String>,
}

/// The toolchains found at `root`, in a fixed order.
pub fn detect(root: &Path) -> Vec<Detected> {
    [cargo(root), node(root), python(root), go(root)]
        .into_iter()
        .flatten()
        .collect()
}

fn cargo(root: &Path) -> Option<Detected> {
    let manifest = std::fs::read_to_string(root.join("Cargo.toml")).ok()?;
    let all = if manifest.contains("[workspace]") {
        " --workspace"
    } else {
        ""
    };
    Some(Detected {
        source: "Cargo.toml",
        build: Some(format!("cargo build{all}")),
        test: Some(format!("cargo test{all}")),
        lint: Some(format!(
            "cargo fmt --all -- --check && cargo clippy{all} --all-targets -- -D warnings"
        )),
    })
}

fn node(root: &Path) -> Option<Detected> {
    let text = std::fs::read_to_string(root.join("package.json")).ok()?;
    let json: serde_json::Value = serde_json::from_str(&text).ok()?;
    let scripts = json.get("scripts").and_then(|s| s.as_object());
    let has = |name: &str| scripts.is_some_and(|s| s.get(name).is_some_and(|v| v.is_string()));
    let pm = if root.join("pnpm-lock.yaml").exists() {
        "pnpm"
    } else if root.join("yarn.lock").exists() {
        "yarn"
    } else if root.join("bun.lockb").exists() || root.join("bun.lock").exists() {
        "bun"
    } else {
        "npm"
    };
    let run = |name: &str| has(name).then(|| format!("{pm} run {name}"));
    Some(Detected {
        source: "package.json",
        build: run("build"),
        test: has("test").then(|| format!("{pm} test")),
        lint: run("lint"),
    })
}

fn python(root: &Path) -> Option<Detected> {
    let pyproject = std::fs::read_to_string(root.join("pyproject.toml")).ok();
    let markers = [
        "setup.py",
        "setup.cfg",
        "pytest.ini",
        "tox.ini",
        "requirements.txt",
    ];
    if pyproject.is_none() && !markers.iter().any(|m| root.join(m).exists()) {
        return None;
    }
    let text = pyproject.as_deref().unwrap_or("");
    let pytest = text.contains("pytest")
        || root.join("pytest.ini").exists()
        || root.join("conftest.py").exists()
        || root.join("tests").is_dir();
    let runner = if root.join("uv.lock").exists() {
        "uv run "
    } else if text.contains("[tool.poetry]") {
        "poetry run "
    } else {
        ""
    };
    Some(Detected {
        source: if pyproject.is_some() {
            "pyproject.toml"
        } else {
            "Python files"
        },
        build: None,
        test: pytest.then(|| format!("{runner}python -m pytest")),
        lint: text
            .contains("ruff")
            .then(|| format!("{runner}ruff check .")),
    })
}

fn go(root: &Path) -> Option<Detected> {
    root.join("go.mod").is_file().then(|| Detected {
        source: "go.mod",
        build: Some("go build ./...".to_owned()),
        test: Some("go test ./...".to_owned()),
        lint: Some("go vet ./...".to_owned()),
    })
}

/// The starter `AGENTS.md` for what was detected.
pub fn starter_agents(found: &[Detected]) -> String {
    let mut out = String::from("# Instructions for coding agents\n\n");
    out.push_str(
        "<!-- Comments like this one are for you: wright removes them before the model reads \
         this file. Keep what is true, add what a new teammate would need to know. -->\n\n",
    );
    out.push_str("## Build and test\n");
    if found.is_empty() {
        out.push_str("- Build: <!-- the command that builds the project -->\n");
        out.push_str("- Test: <!-- the command that runs the tests -->\n");
    }
    for d in found {
        let lines = [("Build", &d.build), ("Test", &d.test), ("Check", &d.lint)];
        let label = |name: &str| {
            if found.len() > 1 {
                format!("{name} ({})", d.source)
            } else {
                name.to_owned()
            }
        };
        for (name, cmd) in lines {
            if let Some(cmd) = cmd {
                out.push_str(&format!("- {}: `{cmd}`\n", label(name)));
            }
        }
    }
    out.push_str(
        "\n## Conventions\n<!-- How code here is written and organized: layout, naming, error \
         handling, what every change needs (tests, docs), what not to touch. -->\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        for (name, text) in files {
            let path = dir.path().join(name);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        dir
    }

    #[test]
    fn cargo_workspace_npm_python_and_go_are_detected() {
        let dir = project(&[
            ("Cargo.toml", "[workspace]\nmembers = []\n"),
            (
                "package.json",
                r#"{"scripts": {"build": "tsc", "test": "vitest", "lint": "eslint ."}}"#,
            ),
            ("pnpm-lock.yaml", ""),
            ("pyproject.toml", "[tool.pytest.ini_options]\n[tool.ruff]\n"),
            ("go.mod", "module x\n"),
        ]);
        let found = detect(dir.path());
        let sources: Vec<_> = found.iter().map(|d| d.source).collect();
        assert_eq!(
            sources,
            ["Cargo.toml", "package.json", "pyproject.toml", "go.mod"]
        );
        assert_eq!(found[0].test.as_deref(), Some("cargo test --workspace"));
        assert_eq!(found[1].build.as_deref(), Some("pnpm run build"));
        assert_eq!(found[1].test.as_deref(), Some("pnpm test"));
        assert_eq!(found[2].test.as_deref(), Some("python -m pytest"));
        assert_eq!(found[2].lint.as_deref(), Some("ruff check ."));
        assert_eq!(found[3].test.as_deref(), Some("go test ./..."));
        let text = starter_agents(&found);
        assert!(text.contains("- Test (go.mod): `go test ./...`"), "{text}");
    }

    #[test]
    fn package_json_without_scripts_and_nothing_at_all() {
        let dir = project(&[("package.json", "{}")]);
        let found = detect(dir.path());
        assert_eq!(
            found,
            [Detected {
                source: "package.json",
                ..Detected::default()
            }]
        );
        let empty = tempfile::tempdir().unwrap();
        let text = starter_agents(&detect(empty.path()));
        assert!(text.contains("- Test: <!--"), "{text}");
    }

    #[test]
    fn a_single_crate_tests_without_workspace_flag() {
        let dir = project(&[("Cargo.toml", "[package]\nname = \"x\"\n")]);
        let text = starter_agents(&detect(dir.path()));
        assert!(text.contains("- Test: `cargo test`\n"), "{text}");
    }
}
