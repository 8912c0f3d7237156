//! Claude Code's `--settings FILE|JSON` and `--setting-sources LIST`.
//!
//! [`FlagSettings`] is the subset of Claude Code's `settings.json` wright
//! understands: `permissions` (`allow`, `deny`, `ask`, `defaultMode`,
//! `additionalDirectories`), `hooks` (Claude Code's hook layout, run by the
//! hooks crate), `env` (variables for the commands wright starts) and
//! `model`. It is the user's own input, so it is applied like command-line
//! flags (it may loosen safety, as `--permission-mode` may), just below the
//! explicit flags. Keys it does not understand are listed in
//! [`FlagSettings::unknown`] for one warning; they are never fatal, since
//! the SDK adds keys (`sandbox`, …) that wright has no use for.
//!
//! [`SettingSources`] says which config files load: Claude Code's `user`,
//! `project` and `local` map to wright's user `config.toml`, the project's
//! `.wright/config.toml` (and `.claude/settings.json` when its hooks are
//! imported) and `.wright/config.local.toml` (and
//! `.claude/settings.local.json`).

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::error::{ConfigError, Origin};
use crate::kinds::PermissionMode;

/// Largest `--settings` value or file, like a config file.
const MAX_SETTINGS_BYTES: usize = crate::read::MAX_CONFIG_BYTES as usize;

/// What `--settings` contributes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlagSettings {
    /// Where it came from: `--settings <path>` or `--settings (inline JSON)`.
    pub origin: String,
    /// `permissions.allow`.
    pub allow: Vec<String>,
    /// `permissions.deny`.
    pub deny: Vec<String>,
    /// `permissions.ask`.
    pub ask: Vec<String>,
    /// `permissions.defaultMode`, mapped (`dontAsk` is `default`, with
    /// [`FlagSettings::dont_ask`] set).
    pub default_mode: Option<PermissionMode>,
    /// `permissions.defaultMode` was `dontAsk`: nothing may be asked.
    pub dont_ask: bool,
    /// `permissions.additionalDirectories`, absolute (relative ones are
    /// taken from the working directory).
    pub additional_dirs: Vec<PathBuf>,
    /// `env`, in the file's order.
    pub env: Vec<(String, String)>,
    /// `model`.
    pub model: Option<String>,
    /// The whole settings JSON, when it has a `hooks` table: the hooks
    /// crate reads Claude Code's layout from it.
    pub hooks_json: Option<String>,
    /// Keys wright does not understand, dotted (`sandbox`, `permissions.x`).
    pub unknown: Vec<String>,
}

impl FlagSettings {
    /// Reads `value`: inline JSON when it starts with `{` and ends with `}`
    /// (as the SDK decides), else a file path relative to `cwd`.
    pub fn load(value: &str, cwd: &Path) -> Result<Self, ConfigError> {
        let trimmed = value.trim();
        if trimmed.starts_with('{') && trimmed.ends_with('}') {
            if trimmed.len() > MAX_SETTINGS_BYTES {
                return Err(invalid("", "larger than 1 MB".to_owned()));
            }
            return Self::parse(trimmed, "--settings (inline JSON)".to_owned());
        }
        if trimmed.is_empty() {
            return Err(invalid("", "expected a file or a JSON object".to_owned()));
        }
        let path = cwd.join(trimmed);
        let text = crate::read::read_text_file(&path).map_err(|e| match e {
            ConfigError::Io { message, .. } => invalid(
                trimmed,
                format!("cannot read {}: {message}", path.display()),
            ),
            other => other,
        })?;
        // Claude Code tolerates a byte-order mark; so does the SDK.
        let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
        Self::parse(text, format!("--settings {}", path.display()))
    }

    /// Parses settings JSON; `origin` names it in messages.
    pub fn parse(text: &str, origin: String) -> Result<Self, ConfigError> {
        let root: Value = serde_json::from_str(text)
            .map_err(|e| invalid(&origin_value(&origin), format!("invalid JSON: {e}")))?;
        let Value::Object(root) = root else {
            return Err(invalid(
                &origin_value(&origin),
                "expected a JSON object".to_owned(),
            ));
        };
        let mut out = FlagSettings {
            origin,
            ..FlagSettings::default()
        };
        for (key, value) in &root {
            match key.as_str() {
                "permissions" => out.permissions(value)?,
                "hooks" => {
                    if !value.is_object() {
                        return Err(invalid_key("hooks", value, "expected an object"));
                    }
                    out.hooks_json = Some(text.to_owned());
                }
                "env" => out.env = env(value)?,
                "model" => match value {
                    Value::String(s) if !s.trim().is_empty() => {
                        out.model = Some(s.trim().to_owned());
                    }
                    _ => return Err(invalid_key("model", value, "expected a model name")),
                },
                // Claude Code's schema reference: harmless to ignore.
                "$schema" => {}
                other => out.unknown.push(other.to_owned()),
            }
        }
        Ok(out)
    }

    /// The warning for keys that were not applied, if any.
    pub fn unknown_warning(&self) -> Option<String> {
        (!self.unknown.is_empty()).then(|| {
            format!(
                "warning: {}: wright does not use {}; ignored",
                self.origin,
                self.unknown
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }

    fn permissions(&mut self, value: &Value) -> Result<(), ConfigError> {
        let Value::Object(table) = value else {
            return Err(invalid_key("permissions", value, "expected an object"));
        };
        for (key, value) in table {
            let dotted = format!("permissions.{key}");
            match key.as_str() {
                "allow" => self.allow = strings(&dotted, value)?,
                "deny" => self.deny = strings(&dotted, value)?,
                "ask" => self.ask = strings(&dotted, value)?,
                "additionalDirectories" => {
                    self.additional_dirs = strings(&dotted, value)?
                        .into_iter()
                        .map(|d| {
                            let d = PathBuf::from(d);
                            std::path::absolute(&d).unwrap_or(d)
                        })
                        .collect();
                }
                "defaultMode" => {
                    let Value::String(mode) = value else {
                        return Err(invalid_key(&dotted, value, "expected a mode name"));
                    };
                    self.dont_ask = mode == "dontAsk";
                    self.default_mode = Some(
                        mode.parse()
                            .map_err(|e: String| invalid_key(&dotted, value, &e))?,
                    );
                }
                _ => self.unknown.push(dotted),
            }
        }
        Ok(())
    }
}

/// `env`: an object of strings (numbers and booleans are written as
/// text, as Claude Code does).
fn env(value: &Value) -> Result<Vec<(String, String)>, ConfigError> {
    let Value::Object(table) = value else {
        return Err(invalid_key("env", value, "expected an object"));
    };
    let mut out = Vec::new();
    for (name, value) in table {
        let key = format!("env.{name}");
        if name.is_empty() || name.contains('=') || name.contains('\0') {
            return Err(invalid_key(&key, value, "not a variable name"));
        }
        let text = match value {
            Value::String(s) => s.clone(),
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            _ => return Err(invalid_key(&key, value, "expected a string")),
        };
        if text.contains('\0') {
            return Err(invalid_key(&key, value, "contains a NUL byte"));
        }
        out.push((name.clone(), text));
    }
    Ok(out)
}

fn strings(key: &str, value: &Value) -> Result<Vec<String>, ConfigError> {
    let Value::Array(items) = value else {
        return Err(invalid_key(key, value, "expected a list of strings"));
    };
    items
        .iter()
        .map(|item| match item {
            Value::String(s) if !s.trim().is_empty() => Ok(s.trim().to_owned()),
            _ => Err(invalid_key(key, item, "expected a non-empty string")),
        })
        .collect()
}

fn invalid(value: &str, message: String) -> ConfigError {
    ConfigError::Invalid {
        origin: Origin::Flag("--settings".to_owned()),
        key: "settings".to_owned(),
        value: crate::error::shorten(value),
        message,
    }
}

fn invalid_key(key: &str, value: &Value, message: &str) -> ConfigError {
    ConfigError::Invalid {
        origin: Origin::Flag("--settings".to_owned()),
        key: key.to_owned(),
        value: crate::error::shorten(&value.to_string()),
        message: message.to_owned(),
    }
}

/// The path part of an origin, for messages about the whole value.
fn origin_value(origin: &str) -> String {
    origin.trim_start_matches("--settings").trim().to_owned()
}

/// Which config files load (`--setting-sources`). All by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SettingSources {
    /// The user's `config.toml`.
    pub user: bool,
    /// The project's `.wright/config.toml` and `.claude/settings.json`.
    pub project: bool,
    /// The project's `.wright/config.local.toml` and `.claude/settings.local.json`.
    pub local: bool,
}

impl Default for SettingSources {
    fn default() -> Self {
        Self {
            user: true,
            project: true,
            local: true,
        }
    }
}

impl SettingSources {
    /// Parses a comma list of `user`, `project` and `local`; an empty
    /// string loads none.
    pub fn parse(list: &str) -> Result<Self, ConfigError> {
        let mut out = SettingSources {
            user: false,
            project: false,
            local: false,
        };
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            match name {
                "user" => out.user = true,
                "project" => out.project = true,
                "local" => out.local = true,
                other => {
                    return Err(ConfigError::Invalid {
                        origin: Origin::Flag("--setting-sources".to_owned()),
                        key: "setting_sources".to_owned(),
                        value: crate::error::shorten(other),
                        message: "expected a comma list of user, project and local".to_owned(),
                    });
                }
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_understood_subset_is_read() {
        let s = FlagSettings::parse(
            r#"{"permissions": {"allow": ["Bash(ls:*)"], "deny": ["Read(.env)"], "ask": ["Write"],
                "defaultMode": "acceptEdits", "additionalDirectories": ["/tmp/x"]},
               "env": {"FOO": "bar", "N": 3}, "model": "claude-x",
               "hooks": {"PreToolUse": []}, "sandbox": {"enabled": true},
               "$schema": "https://json.schemastore.org/claude-code-settings.json"}"#,
            "--settings (inline JSON)".into(),
        )
        .unwrap();
        assert_eq!(s.allow, ["Bash(ls:*)"]);
        assert_eq!(s.deny, ["Read(.env)"]);
        assert_eq!(s.ask, ["Write"]);
        assert_eq!(s.default_mode, Some(PermissionMode::AcceptEdits));
        assert!(!s.dont_ask);
        assert_eq!(s.additional_dirs, [PathBuf::from("/tmp/x")]);
        assert_eq!(
            s.env,
            [("FOO".into(), "bar".into()), ("N".into(), "3".into())]
        );
        assert_eq!(s.model.as_deref(), Some("claude-x"));
        assert!(s.hooks_json.is_some());
        assert_eq!(s.unknown, ["sandbox"]);
        assert_eq!(
            s.unknown_warning().unwrap(),
            "warning: --settings (inline JSON): wright does not use `sandbox`; ignored"
        );
    }

    #[test]
    fn dont_ask_maps_to_default_and_is_remembered() {
        let s = FlagSettings::parse(
            r#"{"permissions": {"defaultMode": "dontAsk", "disableBypassPermissionsMode": "disable"}}"#,
            "x".into(),
        )
        .unwrap();
        assert_eq!(s.default_mode, Some(PermissionMode::Default));
        assert!(s.dont_ask);
        assert_eq!(s.unknown, ["permissions.disableBypassPermissionsMode"]);
    }

    #[test]
    fn bad_values_are_errors_that_name_the_key() {
        let err = |json: &str| {
            FlagSettings::parse(json, "x".into())
                .unwrap_err()
                .to_string()
        };
        assert!(
            err("{not json").contains("invalid JSON"),
            "{}",
            err("{not json")
        );
        assert!(err("[1]").contains("expected a JSON object"));
        assert!(err(r#"{"permissions": {"allow": "Read"}}"#).contains("`permissions.allow`"));
        assert!(err(r#"{"permissions": {"defaultMode": "yolo"}}"#).contains("defaultMode"));
        assert!(err(r#"{"env": {"A": [1]}}"#).contains("`env.A`"));
        assert!(err(r#"{"model": ""}"#).contains("`model`"));
    }

    #[test]
    fn a_file_or_inline_json_is_loaded() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("s.json"), "\u{feff}{\"model\": \"m1\"}").unwrap();
        let s = FlagSettings::load("s.json", dir.path()).unwrap();
        assert_eq!(s.model.as_deref(), Some("m1"));
        assert!(s.origin.ends_with("s.json"), "{}", s.origin);
        let s = FlagSettings::load(r#" {"model": "m2"} "#, dir.path()).unwrap();
        assert_eq!(s.model.as_deref(), Some("m2"));
        let e = FlagSettings::load("missing.json", dir.path()).unwrap_err();
        assert!(e.to_string().contains("cannot read"), "{e}");
        assert!(e.to_string().starts_with("flag --settings:"), "{e}");
    }

    #[test]
    fn setting_sources_parse() {
        assert_eq!(
            SettingSources::parse("user,project").unwrap(),
            SettingSources {
                user: true,
                project: true,
                local: false
            }
        );
        assert_eq!(
            SettingSources::parse("").unwrap(),
            SettingSources {
                user: false,
                project: false,
                local: false
            }
        );
        assert_eq!(
            SettingSources::parse(" local ").unwrap(),
            SettingSources {
                user: false,
                project: false,
                local: true
            }
        );
        assert!(
            SettingSources::parse("user,policy")
                .unwrap_err()
                .to_string()
                .contains("`policy`")
        );
    }

    #[test]
    fn setting_sources_choose_the_files_that_load() {
        let user = tempfile::tempdir().unwrap();
        let project = tempfile::tempdir().unwrap();
        std::fs::write(user.path().join("config.toml"), "max_turns = 7\n").unwrap();
        std::fs::create_dir(project.path().join(".wright")).unwrap();
        std::fs::write(
            project.path().join(".wright/config.toml"),
            "max_tokens = 111\n",
        )
        .unwrap();
        std::fs::write(
            project.path().join(".wright/config.local.toml"),
            "append_system_prompt = \"local\"\n",
        )
        .unwrap();
        let loader = crate::ConfigLoader {
            user_config_dir: Some(user.path().to_path_buf()),
            project_root: project.path().to_path_buf(),
            env: std::collections::HashMap::new(),
        };
        let load = |sources: Option<&str>| {
            let overrides = crate::Overrides {
                setting_sources: sources.map(|s| SettingSources::parse(s).unwrap()),
                ..crate::Overrides::default()
            };
            let r = loader.load(&overrides).unwrap();
            (
                r.settings.max_turns,
                r.settings.max_tokens,
                r.settings.append_system_prompt.clone(),
            )
        };
        assert_eq!(load(None), (7, Some(111), Some("local".into())));
        let (turns, tokens, append) = load(Some(""));
        assert_ne!(turns, 7);
        assert_eq!((tokens, append), (None, None));
        let (turns, tokens, append) = load(Some("user,local"));
        assert_eq!((turns, tokens, append), (7, None, Some("local".into())));
    }
}
