//! [`Overrides`]: the command-line layer, highest of all. The CLI fills it
//! from its flags; values are validated here like any other layer's: each
//! flag of one plain key (and each key of `--settings`) is checked and set
//! through its row of the key table.

use std::path::PathBuf;

use crate::assign::Assign;
use crate::error::{ConfigError, Origin, shorten};
use crate::flag_settings::{FlagSettings, SettingSources};
use crate::keys::{TABLE, index_of};
use crate::kinds::{PermissionMode, Provider, ReasoningEffort, SandboxMode};
use crate::parsed::Parsed;
use crate::rows;
use crate::source::Source;

/// Command-line overrides (the highest layer). All optional.
///
/// A relative `system_prompt_file` is kept as given, i.e. relative to the
/// process's working directory, which is what a user typing a flag means.
/// `allow` and `deny` are appended after every file's rules. Build it with
/// `..Overrides::default()` so new fields do not break callers.
#[derive(Debug, Clone, Default)]
pub struct Overrides {
    /// `--provider`.
    pub provider: Option<Provider>,
    /// `--model`.
    pub model: Option<String>,
    /// `--base-url`; beats `ANTHROPIC_BASE_URL` / `OPENAI_BASE_URL`.
    pub base_url: Option<String>,
    /// `--max-tokens`.
    pub max_tokens: Option<u32>,
    /// `--max-turns`.
    pub max_turns: Option<u32>,
    /// `--permission-mode`.
    pub permission_mode: Option<PermissionMode>,
    /// `--system-prompt`; excludes `--system-prompt-file`.
    pub system_prompt: Option<String>,
    /// `--system-prompt-file`; excludes `--system-prompt`.
    pub system_prompt_file: Option<PathBuf>,
    /// `--append-system-prompt`.
    pub append_system_prompt: Option<String>,
    /// `--allow RULE`, repeatable; appended to `permissions.allow`.
    pub allow: Vec<String>,
    /// `--add-dir DIR`, repeatable (absolute paths); appended to
    /// `permissions.additional_roots`.
    pub add_dirs: Vec<PathBuf>,
    /// `--deny RULE`, repeatable; appended to `permissions.deny`.
    pub deny: Vec<String>,
    /// `--sandbox`.
    pub sandbox: Option<SandboxMode>,
    /// `--reasoning-effort`.
    pub reasoning_effort: Option<ReasoningEffort>,
    /// `--thinking TOKENS` (>= 1024).
    pub thinking_budget: Option<u32>,
    /// `--fallback-model`.
    pub fallback_model: Option<String>,
    /// `--trust-project`: the project's own config may loosen safety for
    /// this run (see [`crate::Trust`]); nothing is remembered.
    pub trust_project: bool,
    /// `--no-verify`: the same-turn verifier is off for this run
    /// (`verify.enabled = false`), whatever config says.
    pub no_verify: bool,
    /// `--settings`: applied just below the other flags (an explicit flag
    /// wins over the same setting here; rule lists add up).
    pub settings: Option<FlagSettings>,
    /// `--setting-sources`: which config files load (`None`: all).
    pub setting_sources: Option<SettingSources>,
}

impl Overrides {
    /// The flags as validated assignments, each tagged with its flag.
    /// Checks the flag values the way `load` would, without loading files.
    pub fn validate_flags(&self) -> Result<(), ConfigError> {
        self.layer().map(|_| ())
    }

    pub(crate) fn layer(&self) -> Result<Vec<(Assign, Source)>, ConfigError> {
        let mut out = Vec::new();
        let flag = |name: &str| Source::Flag(name.to_owned());
        if self.system_prompt.is_some() && self.system_prompt_file.is_some() {
            return Err(ConfigError::Conflict {
                origin: Origin::Flag("--system-prompt-file".to_owned()),
                first: "--system-prompt".to_owned(),
                second: "--system-prompt-file".to_owned(),
            });
        }
        if let Some(settings) = &self.settings {
            out.extend(settings_layer(settings)?);
        }
        let word = |w: &str| Parsed::Text(w.to_owned());
        if let Some(p) = self.provider {
            out.push(through_row(
                "--provider",
                const { index_of("provider") },
                word(p.as_str()),
            )?);
        }
        if let Some(v) = &self.model {
            out.push(through_row(
                "--model",
                const { index_of("model") },
                Parsed::Text(v.clone()),
            )?);
        }
        if let Some(v) = &self.base_url {
            out.push(through_row(
                "--base-url",
                const { index_of("base_url") },
                Parsed::Text(v.clone()),
            )?);
        }
        if let Some(n) = self.max_tokens {
            out.push(through_row(
                "--max-tokens",
                const { index_of("max_tokens") },
                Parsed::Int(n.into()),
            )?);
        }
        if let Some(n) = self.max_turns {
            out.push(through_row(
                "--max-turns",
                const { index_of("max_turns") },
                Parsed::Int(n.into()),
            )?);
        }
        if let Some(m) = self.permission_mode {
            out.push(through_row(
                "--permission-mode",
                const { index_of("permission_mode") },
                word(m.as_str()),
            )?);
        }
        // The prompts are taken as written, not through their rows: the
        // rows' text check would refuse a prompt of only spaces, which these
        // flags have always passed on.
        if let Some(v) = &self.system_prompt {
            out.push((Assign::SystemPrompt(v.clone()), flag("--system-prompt")));
        }
        if let Some(v) = &self.system_prompt_file {
            if v.as_os_str().is_empty() {
                return Err(invalid(
                    "--system-prompt-file",
                    "system_prompt_file",
                    "",
                    "expected a non-empty path".to_owned(),
                ));
            }
            out.push(through_row(
                "--system-prompt-file",
                const { index_of("system_prompt_file") },
                Parsed::Path(v.clone()),
            )?);
        }
        if let Some(v) = &self.append_system_prompt {
            out.push((
                Assign::AppendSystemPrompt(v.clone()),
                flag("--append-system-prompt"),
            ));
        }
        if let Some(e) = self.reasoning_effort {
            out.push(through_row(
                "--reasoning-effort",
                const { index_of("reasoning_effort") },
                word(e.as_str()),
            )?);
        }
        if let Some(n) = self.thinking_budget {
            out.push(through_row(
                "--thinking",
                const { index_of("thinking_budget") },
                Parsed::Int(n.into()),
            )?);
        }
        if let Some(v) = &self.fallback_model {
            out.push(through_row(
                "--fallback-model",
                const { index_of("fallback_model") },
                Parsed::Text(v.clone()),
            )?);
        }
        if let Some(m) = self.sandbox {
            out.push(through_row(
                "--sandbox",
                const { index_of("sandbox.mode") },
                word(m.as_str()),
            )?);
        }
        if !self.allow.is_empty() {
            out.push(through_row(
                "--allow",
                const { index_of("permissions.allow") },
                Parsed::Strings(self.allow.clone()),
            )?);
        }
        if !self.deny.is_empty() {
            out.push(through_row(
                "--deny",
                const { index_of("permissions.deny") },
                Parsed::Strings(self.deny.clone()),
            )?);
        }
        if !self.add_dirs.is_empty() {
            out.push(through_row(
                "--add-dir",
                const { index_of("permissions.additional_roots") },
                Parsed::Paths(self.add_dirs.clone()),
            )?);
        }
        if self.no_verify {
            out.push(through_row(
                "--no-verify",
                const { index_of("verify.enabled") },
                Parsed::Bool(false),
            )?);
        }
        Ok(out)
    }
}

/// The assignments of `--settings`, validated like flags, tagged
/// `flag --settings`.
fn settings_layer(settings: &FlagSettings) -> Result<Vec<(Assign, Source)>, ConfigError> {
    const FLAG: &str = "--settings";
    let mut out = Vec::new();
    let text = |v: &String| Parsed::Text(v.clone());
    if let Some(v) = &settings.model {
        out.push(through_row(FLAG, const { index_of("model") }, text(v))?);
    }
    if let Some(m) = settings.default_mode {
        out.push(through_row(
            FLAG,
            const { index_of("permission_mode") },
            Parsed::Text(m.as_str().to_owned()),
        )?);
    }
    for (row, rules) in [
        (const { index_of("permissions.allow") }, &settings.allow),
        (const { index_of("permissions.ask") }, &settings.ask),
        (const { index_of("permissions.deny") }, &settings.deny),
    ] {
        if !rules.is_empty() {
            out.push(through_row(FLAG, row, Parsed::Strings(rules.clone()))?);
        }
    }
    if !settings.additional_dirs.is_empty() {
        out.push(through_row(
            FLAG,
            const { index_of("permissions.additional_roots") },
            Parsed::Paths(settings.additional_dirs.clone()),
        )?);
    }
    Ok(out)
}

fn invalid(flag: &str, key: &str, value: &str, message: String) -> ConfigError {
    ConfigError::Invalid {
        origin: Origin::Flag(flag.to_owned()),
        key: key.to_owned(),
        value: shorten(value),
        message,
    }
}

/// The assignment `flag`'s value makes for the key at `row` of the key
/// table, checked and set as the row says, tagged with the flag; an error
/// names the flag.
fn through_row(flag: &str, row: usize, value: Parsed) -> Result<(Assign, Source), ConfigError> {
    let key = &TABLE[row];
    let assign =
        rows::assign(key, value).map_err(|r| invalid(flag, key.name, &r.value, r.message))?;
    Ok((assign, Source::Flag(flag.to_owned())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_overrides_set_nothing() {
        assert!(Overrides::default().layer().unwrap().is_empty());
    }

    #[test]
    fn flags_are_tagged_with_their_names() {
        let o = Overrides {
            model: Some("m".into()),
            max_turns: Some(3),
            ..Overrides::default()
        };
        let got: Vec<String> = o
            .layer()
            .unwrap()
            .iter()
            .map(|(_, s)| s.to_string())
            .collect();
        assert_eq!(got, vec!["flag --model", "flag --max-turns"]);
    }

    #[test]
    fn zero_and_empty_values_are_rejected() {
        let o = Overrides {
            max_turns: Some(0),
            ..Overrides::default()
        };
        assert_eq!(
            o.layer().unwrap_err().to_string(),
            "flag --max-turns: invalid value `0` for `max_turns`: expected a positive integer"
        );
        let o = Overrides {
            base_url: Some("ftp://x".into()),
            ..Overrides::default()
        };
        assert!(
            o.layer()
                .unwrap_err()
                .to_string()
                .starts_with("flag --base-url:")
        );
        let o = Overrides {
            system_prompt_file: Some(PathBuf::new()),
            ..Overrides::default()
        };
        assert!(o.layer().is_err());
    }

    #[test]
    fn new_flags_are_validated_and_tagged() {
        let o = Overrides {
            allow: vec!["Bash(git diff)".into()],
            deny: vec!["Read(.env*)".into()],
            sandbox: Some(SandboxMode::ReadOnly),
            reasoning_effort: Some(ReasoningEffort::Low),
            thinking_budget: Some(1024),
            fallback_model: Some("small".into()),
            ..Overrides::default()
        };
        let got: Vec<(Assign, String)> = o
            .layer()
            .unwrap()
            .into_iter()
            .map(|(a, s)| (a, s.to_string()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Assign::ReasoningEffort(ReasoningEffort::Low),
                    "flag --reasoning-effort".into()
                ),
                (Assign::ThinkingBudget(1024), "flag --thinking".into()),
                (
                    Assign::FallbackModel("small".into()),
                    "flag --fallback-model".into()
                ),
                (
                    Assign::SandboxMode(SandboxMode::ReadOnly),
                    "flag --sandbox".into()
                ),
                (
                    Assign::Allow(vec!["Bash(git diff)".into()]),
                    "flag --allow".into()
                ),
                (
                    Assign::Deny(vec!["Read(.env*)".into()]),
                    "flag --deny".into()
                ),
            ]
        );
        let o = Overrides {
            thinking_budget: Some(1023),
            ..Overrides::default()
        };
        assert_eq!(
            o.layer().unwrap_err().to_string(),
            "flag --thinking: invalid value `1023` for `thinking_budget`: \
             expected an integer from 1024 to 4294967295"
        );
        let o = Overrides {
            allow: vec!["Read".into(), " ".into()],
            ..Overrides::default()
        };
        assert_eq!(
            o.layer().unwrap_err().to_string(),
            "flag --allow: invalid value ` ` for `permissions.allow`: expected a non-empty string"
        );
        let o = Overrides {
            fallback_model: Some(String::new()),
            ..Overrides::default()
        };
        assert!(o.layer().is_err());
    }

    #[test]
    fn no_verify_turns_the_verifier_off() {
        let o = Overrides {
            no_verify: true,
            ..Overrides::default()
        };
        assert_eq!(
            o.layer().unwrap(),
            vec![(Assign::VerifyEnabled(false), flag_source("--no-verify"))]
        );
    }

    #[test]
    fn settings_come_before_the_flags_so_flags_win() {
        let settings = FlagSettings {
            model: Some("from-settings".into()),
            default_mode: Some(PermissionMode::Plan),
            ask: vec!["Write".into()],
            ..FlagSettings::default()
        };
        let o = Overrides {
            model: Some("from-flag".into()),
            settings: Some(settings),
            ..Overrides::default()
        };
        let got: Vec<(Assign, String)> = o
            .layer()
            .unwrap()
            .into_iter()
            .map(|(a, s)| (a, s.to_string()))
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    Assign::Model("from-settings".into()),
                    "flag --settings".into()
                ),
                (
                    Assign::PermissionMode(PermissionMode::Plan),
                    "flag --settings".into()
                ),
                (Assign::Ask(vec!["Write".into()]), "flag --settings".into()),
                (Assign::Model("from-flag".into()), "flag --model".into()),
            ]
        );
    }

    fn flag_source(name: &str) -> Source {
        Source::Flag(name.to_owned())
    }

    #[test]
    fn prompt_flags_conflict() {
        let o = Overrides {
            system_prompt: Some("a".into()),
            system_prompt_file: Some("b".into()),
            ..Overrides::default()
        };
        assert_eq!(
            o.layer().unwrap_err().to_string(),
            "flag --system-prompt-file: --system-prompt and --system-prompt-file cannot both be set"
        );
    }
}
