//! [`Resolved`]: merged settings plus the source of every key, and the two
//! views `wright config show` prints: [`Resolved::render`] (TOML-like text)
//! and [`Resolved::entries`] (for `--json`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use crate::assign::Assign;
use crate::keys::KEYS;
use crate::mcp_settings::{McpServerSetting, render_servers};
use crate::settings::Settings;
use crate::source::Source;
use crate::toml_text::{key_segment, model_key, quote};
use crate::trust::{IgnoreReason, Ignored, warnings};

/// Merged settings and where each value came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The merged values.
    pub settings: Settings,
    /// The config files that existed and were read, lowest layer first.
    pub files: Vec<PathBuf>,
    /// Values from project files that were not applied, in file order.
    pub ignored: Vec<Ignored>,
    /// The project's config files (`.wright/config.toml` and
    /// `config.local.toml`), whether or not they exist.
    pub project_files: Vec<PathBuf>,
    /// The `[mcp_servers]` of an untrusted project's files, held back
    /// (and listed in [`Resolved::ignored`]) because they would run the
    /// project's commands. In file order, later files last. A caller may
    /// still start one the user approved by name
    /// ([`Resolved::release_mcp_server`]).
    pub held_mcp_servers: Vec<McpServerSetting>,
    /// The project servers the user approved for this project, by name,
    /// with the fingerprint of the definition approved: the user file's
    /// `[projects."<root>".approved_mcp_servers]`. Never read from a
    /// project's own files.
    pub mcp_approvals: BTreeMap<String, String>,
    /// The user file's `[shell_environment]`: which variables commands,
    /// hooks and servers are also denied or let through. Never read from a
    /// project's own files.
    pub shell_environment: crate::ShellEnvironment,
    /// The config files `--setting-sources` let load (all by default);
    /// the import of Claude Code's project settings follows it too.
    pub setting_sources: crate::SettingSources,
    /// `--settings`, when given: its hooks, env and unknown keys are for
    /// the caller (its permissions and model are already merged above).
    pub flag_settings: Option<crate::FlagSettings>,
    /// The provider chosen from a base URL because none was named (see
    /// `infer.rs`), for the one line that says so; `None` when nothing
    /// was inferred.
    pub inferred: Option<crate::Inference>,
    sources: BTreeMap<&'static str, Source>,
    /// Values a run uses for keys left unset (the provider picked from a
    /// key, the default model, the catalog's output limit), shown by
    /// `config show` in their place; see [`Resolved::set_effective`].
    effective: BTreeMap<&'static str, (toml::Value, Source)>,
}

/// One key of the merged config, as listed by [`Resolved::entries`].
///
/// Serializes as `{"key": "max_turns", "value": 50, "source": {"kind": "default"}}`;
/// `value` is `null` when unset (see [`Source`]'s JSON shape).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Entry {
    /// The TOML key, dotted for tables (`tools.bash_timeout_secs`).
    pub key: &'static str,
    /// The value as TOML, `None` when unset.
    pub value: Option<toml::Value>,
    /// Who set it; for an unset key, `Default` or the layer that cleared it.
    pub source: Source,
    /// Values for this key that project files set but that were not
    /// applied (omitted from JSON when there are none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignored: Vec<Ignored>,
}

impl Default for Resolved {
    fn default() -> Self {
        Resolved {
            settings: Settings::default(),
            files: Vec::new(),
            ignored: Vec::new(),
            project_files: Vec::new(),
            held_mcp_servers: Vec::new(),
            mcp_approvals: BTreeMap::new(),
            shell_environment: crate::ShellEnvironment::default(),
            setting_sources: crate::SettingSources::default(),
            flag_settings: None,
            inferred: None,
            sources: KEYS.iter().map(|k| (*k, Source::Default)).collect(),
            effective: BTreeMap::new(),
        }
    }
}

impl Resolved {
    /// Applies one assignment on top of what is there. For the appended
    /// lists and `models`, the source is the highest layer that added
    /// something.
    pub(crate) fn set(&mut self, assign: Assign, source: Source) {
        let key = assign.key();
        if !assign.contributes() {
            return;
        }
        if let Some(displaced) = assign.apply(&mut self.settings) {
            self.sources.insert(displaced, source.clone());
        }
        self.sources.insert(key, source);
    }

    /// Where `key` (one of [`KEYS`], as in TOML) came from; `None` for an unknown key.
    pub fn source(&self, key: &str) -> Option<&Source> {
        self.sources.get(key)
    }

    /// Records the value a run uses for `key` while it is unset, and where
    /// that value comes from ([`Source::Default`] for a built-in default,
    /// or the variable it was inferred from). Ignored for a key that is
    /// set (the set value is the one used) or unknown.
    pub fn set_effective(&mut self, key: &str, value: impl Into<toml::Value>, source: Source) {
        if let Some(key) = KEYS.iter().find(|k| **k == key)
            && self.settings.get(key).is_none()
        {
            self.effective.insert(*key, (value.into(), source));
        }
    }

    /// Every key in display order with its value and source: for an unset
    /// key, the value a run uses instead when one was recorded with
    /// [`Resolved::set_effective`].
    pub fn entries(&self) -> Vec<Entry> {
        KEYS.iter()
            .map(|key| {
                let (value, source) = match (self.settings.get(key), self.effective.get(key)) {
                    (None, Some((value, source))) => (Some(value.clone()), source.clone()),
                    (value, _) => (
                        value,
                        self.sources.get(key).cloned().unwrap_or(Source::Default),
                    ),
                };
                (key, value, source)
            })
            .map(|(key, value, source)| Entry {
                key,
                value,
                source,
                ignored: self
                    .ignored
                    .iter()
                    .filter(|i| i.key == *key)
                    .cloned()
                    .collect(),
            })
            .collect()
    }

    /// The warnings to print once before a run: one line naming every
    /// value an untrusted project tried to loosen, and one for `projects`
    /// tables found outside the user's config. Empty when nothing was ignored.
    pub fn warnings(&self) -> Vec<String> {
        warnings(&self.ignored)
    }

    /// Whether trusting the project would change anything: some loosening
    /// value of its files was ignored.
    pub fn has_untrusted_ignored(&self) -> bool {
        self.ignored
            .iter()
            .any(|i| i.reason == IgnoreReason::UntrustedProject)
    }

    /// Stops reporting the held-back server `name` as ignored: the caller
    /// starts it on the user's own approval (`--allow 'mcp__NAME'` or a
    /// remembered one), so the trust warning must not say otherwise.
    pub fn release_mcp_server(&mut self, name: &str) {
        let held: Vec<PathBuf> = self
            .held_mcp_servers
            .iter()
            .filter(|s| s.name == name)
            .filter_map(|s| match &s.source {
                Source::File(path) => Some(path.clone()),
                _ => None,
            })
            .collect();
        // `describe_server` lines start with `mcp_servers.NAME (`.
        let value = format!("{} (", crate::trust::describe_server_name(name));
        self.ignored.retain(|i| {
            !(i.reason == IgnoreReason::UntrustedProject
                && i.key == "mcp_servers"
                && held.contains(&i.file)
                && i.value.starts_with(&value))
        });
    }

    /// The project file that set `key`'s value in force, when the project
    /// is not trusted; e.g. a `base_url` from an untrusted project applies,
    /// but the user's key is not sent to it.
    pub fn untrusted_project_source(&self, key: &str) -> Option<&Path> {
        if self.settings.trust.is_trusted() {
            return None;
        }
        match self.sources.get(key)? {
            Source::File(path) if self.project_files.contains(path) => Some(path),
            _ => None,
        }
    }

    /// `source` naming its layer, for messages about a hook or check:
    /// `user config (/u/config.toml)`, `project config (…)`,
    /// `local project config (…)`; env, flag and default as displayed.
    pub fn describe_source(&self, source: &Source) -> String {
        match source {
            Source::File(path) => {
                let layer = match self.project_files.iter().position(|p| p == path) {
                    Some(0) => "project config",
                    Some(_) => "local project config",
                    None => "user config",
                };
                format!("{layer} ({})", path.display())
            }
            other => other.to_string(),
        }
    }

    /// Human-readable merged config: one `key = value  # source` line per
    /// key, values in TOML syntax (so the whole text is valid TOML), unset
    /// keys commented out as `# key  (not set)`. Each model override gets
    /// its own `models.<name> = { … }` line; with none, `models = {}`.
    /// Hook groups get one `hooks.<Event> = [ … ]` line per event (with
    /// none, a `# hooks = {}` comment) and `verify.checks` lists its
    /// checks; both are commented with every file that contributed.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for entry in self.entries() {
            if entry.key == "hooks" {
                self.settings.hooks.render(&mut out, &entry.source);
                continue;
            }
            if entry.key == "verify.checks" {
                self.settings.verify.render_checks(&mut out, &entry.source);
                continue;
            }
            if entry.key == "mcp_servers" {
                render_servers(&mut out, &self.settings.mcp_servers, &entry.source);
                continue;
            }
            if entry.key == "models" && !self.settings.models.is_empty() {
                for m in &self.settings.models {
                    let fields = toml::Value::Table(m.to_table());
                    // Writing to a String cannot fail.
                    let _ = writeln!(
                        out,
                        "{} = {}  # {}",
                        model_key(&m.name),
                        toml_value(&fields),
                        entry.source
                    );
                }
                continue;
            }
            // Writing to a String cannot fail.
            let _ = match (&entry.value, &entry.source) {
                (Some(value), source) => {
                    writeln!(out, "{} = {}  # {source}", entry.key, toml_value(value))
                }
                (None, Source::Default) => writeln!(out, "# {}  (not set)", entry.key),
                (None, source) => {
                    writeln!(out, "# {}  (not set; overridden by {source})", entry.key)
                }
            };
        }
        for item in &self.ignored {
            // Writing to a String cannot fail.
            let _ = writeln!(
                out,
                "# ignored: {}  # {} ({})",
                item.value,
                item.file.display(),
                item.reason.describe()
            );
        }
        out
    }
}

/// One-line TOML for a value: strings always as basic strings with escapes,
/// so a multi-line prompt stays on one line.
fn toml_value(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => quote(s),
        toml::Value::Array(items) => {
            let items: Vec<String> = items.iter().map(toml_value).collect();
            format!("[{}]", items.join(", "))
        }
        toml::Value::Table(table) if table.is_empty() => "{}".to_owned(),
        toml::Value::Table(table) => {
            let items: Vec<String> = table
                .iter()
                .map(|(k, v)| format!("{} = {}", key_segment(k), toml_value(v)))
                .collect();
            format!("{{ {} }}", items.join(", "))
        }
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kinds::Provider;

    #[test]
    fn defaults_render_with_default_sources() {
        let r = Resolved::default();
        assert_eq!(
            r.render(),
            "# provider  (not set)
# model  (not set)
# base_url  (not set)
# max_tokens  (not set)
max_turns = 50  # default
permission_mode = \"default\"  # default
# system_prompt  (not set)
# system_prompt_file  (not set)
# append_system_prompt  (not set)
# reasoning_effort  (not set)
# thinking_budget  (not set)
# fallback_model  (not set)
tools.bash_timeout_secs = 120  # default
stream.idle_timeout_secs = 60  # default
stream.first_byte_timeout_secs = 60  # default
tui.notify = \"bell\"  # default
context.instruction_files = [\"AGENTS.md\"]  # default
context.instruction_budget = 40000  # default
context.user_instruction_files = []  # default
context.skill_dirs = []  # default
context.user_memory = false  # default
context.auto_compact = true  # default
# context.keep_recent_tokens  (not set)
context.compact_margin_percent = 10  # default
permissions.allow = []  # default
permissions.ask = []  # default
permissions.deny = []  # default
permissions.additional_roots = []  # default
sandbox.mode = \"workspace-write\"  # default
sandbox.network = false  # default
sandbox.writable_roots = []  # default
sandbox.allow_sockets = []  # default
hooks.import_claude_settings = false  # default
# hooks = {}  # default
verify.enabled = true  # default
verify.timeout_secs = 120  # default
verify.checks = []  # default
mcp.trust_project_servers = false  # default
mcp.tool_search = \"auto\"  # default
mcp.startup_timeout_secs = 30  # default
mcp.tool_timeout_secs = 600  # default
mcp.trust_read_only_hints = false  # default
mcp_servers = {}  # default
agents.max_turns = 30  # default
agents.max_concurrent = 4  # default
agents.isolation = \"none\"  # default
agents.import_claude_agents = false  # default
agents.user_agents = false  # default
models = {}  # default
"
        );
        assert_eq!(r.source("max_turns"), Some(&Source::Default));
        assert_eq!(r.source("nope"), None);
    }

    #[test]
    fn effective_values_fill_unset_keys_only() {
        let mut r = Resolved::default();
        r.set(Assign::MaxTurns(7), Source::Flag("--max-turns".into()));
        r.set_effective(
            "provider",
            toml::Value::String("anthropic".into()),
            Source::Env("ANTHROPIC_API_KEY".into()),
        );
        r.set_effective("model", toml::Value::String("m".into()), Source::Default);
        r.set_effective("max_turns", toml::Value::Integer(1), Source::Default);
        r.set_effective("nope", toml::Value::Integer(1), Source::Default);
        let text = r.render();
        assert!(
            text.starts_with(
                "provider = \"anthropic\"  # env ANTHROPIC_API_KEY\nmodel = \"m\"  # default\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("max_turns = 7  # flag --max-turns\n"),
            "{text}"
        );
        let json = serde_json::to_value(r.entries()).unwrap();
        let model = json
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["key"] == "model")
            .unwrap();
        assert_eq!(model["value"], "m");
        assert_eq!(model["source"]["kind"], "default");
    }

    #[test]
    fn set_records_sources_and_displacement() {
        let mut r = Resolved::default();
        r.set(
            Assign::Provider(Provider::Anthropic),
            Source::Env("WRIGHT_PROVIDER".into()),
        );
        r.set(
            Assign::SystemPromptFile("/p/s.md".into()),
            Source::File("/p/c.toml".into()),
        );
        r.set(
            Assign::SystemPrompt("a \"b\"\nc\\".into()),
            Source::Flag("--system-prompt".into()),
        );
        let text = r.render();
        assert!(
            text.starts_with("provider = \"anthropic\"  # env WRIGHT_PROVIDER\n"),
            "{text}"
        );
        assert!(
            text.contains("system_prompt = \"a \\\"b\\\"\\nc\\\\\"  # flag --system-prompt\n"),
            "{text}"
        );
        assert!(
            text.contains("# system_prompt_file  (not set; overridden by flag --system-prompt)\n"),
            "{text}"
        );
        assert_eq!(
            r.source("system_prompt_file"),
            Some(&Source::Flag("--system-prompt".into()))
        );
    }

    #[test]
    fn rendered_values_are_valid_toml() {
        let mut r = Resolved::default();
        r.set(Assign::SystemPrompt("x\u{1}y\t\"".into()), Source::Default);
        let parsed: toml::Table = toml::from_str(&r.render()).unwrap();
        assert_eq!(parsed["system_prompt"].as_str(), Some("x\u{1}y\t\""));
        assert_eq!(parsed["tools"]["bash_timeout_secs"].as_integer(), Some(120));
    }

    #[test]
    fn models_and_lists_render_as_toml_that_parses_back() {
        use crate::settings::ModelOverride;
        let mut r = Resolved::default();
        let src = Source::File("/p/c.toml".into());
        r.set(
            Assign::Allow(vec!["Bash(npm run test:*)".into()]),
            src.clone(),
        );
        r.set(Assign::WritableRoots(vec!["/tmp/w".into()]), src.clone());
        r.set(Assign::Allow(vec![]), Source::Flag("--allow".into()));
        for (name, window) in [("gpt-4.1", 1024), ("my-local-model", 32768)] {
            r.set(
                Assign::ModelOverride(ModelOverride {
                    name: name.into(),
                    context_window: Some(window),
                    input_price: Some(0.0),
                    cache_write_price: Some(3.75),
                    ..ModelOverride::default()
                }),
                src.clone(),
            );
        }
        let text = r.render();
        assert!(text.contains("models.my-local-model = { "), "{text}");
        assert!(text.contains("models.\"gpt-4.1\" = { "), "{text}");
        assert!(!text.contains("models = {}"), "{text}");
        let parsed: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(
            parsed["permissions"]["allow"].as_array().unwrap()[0].as_str(),
            Some("Bash(npm run test:*)")
        );
        assert_eq!(
            parsed["sandbox"]["writable_roots"][0].as_str(),
            Some("/tmp/w")
        );
        let m = &parsed["models"]["my-local-model"];
        assert_eq!(m["context_window"].as_integer(), Some(32768));
        assert_eq!(m["input_price"].as_float(), Some(0.0));
        assert_eq!(m["cache_write_price"].as_float(), Some(3.75));
        assert_eq!(
            parsed["models"]["gpt-4.1"]["context_window"].as_integer(),
            Some(1024)
        );
        // An empty list adds nothing, so it takes no credit.
        assert_eq!(r.source("permissions.allow"), Some(&src));
        assert_eq!(r.source("models"), Some(&src));
    }

    #[test]
    fn hooks_and_checks_render_per_event_with_every_file() {
        use crate::hook_settings::{HookCommandSetting, HookGroupSetting, VerifyCheckSetting};
        use crate::kinds::{CheckFormat, HookEvent};
        let user = Source::File("/u/config.toml".into());
        let project = Source::File("/p/.wright/config.toml".into());
        let group =
            |event, matcher: Option<&str>, command: &str, source: &Source| HookGroupSetting {
                event,
                matcher: matcher.map(Into::into),
                hooks: vec![HookCommandSetting {
                    command: command.into(),
                    timeout_secs: Some(5),
                }],
                source: source.clone(),
            };
        let mut r = Resolved {
            project_files: vec!["/p/.wright/config.toml".into(), "/p/.wright/l.toml".into()],
            ..Resolved::default()
        };
        r.set(
            Assign::HookGroups(vec![group(HookEvent::Stop, None, "a \"b\"", &user)]),
            user.clone(),
        );
        r.set(
            Assign::HookGroups(vec![
                group(HookEvent::PreToolUse, Some("Edit|Write"), "c", &project),
                group(HookEvent::Stop, None, "d", &project),
            ]),
            project.clone(),
        );
        r.set(
            Assign::VerifyChecks(vec![VerifyCheckSetting {
                glob: "*.ts".into(),
                command: "tsc".into(),
                format: CheckFormat::Tsc,
                timeout_secs: Some(300),
                source: user.clone(),
            }]),
            user.clone(),
        );
        let text = r.render();
        assert!(
            text.contains(
                "hooks.PreToolUse = [{ matcher = \"Edit|Write\", hooks = [{ type = \"command\", \
                 command = \"c\", timeout = 5 }] }]  # /p/.wright/config.toml\n\
                 hooks.Stop = [{ hooks = [{ type = \"command\", command = \"a \\\"b\\\"\", \
                 timeout = 5 }] }, { hooks = [{ type = \"command\", command = \"d\", timeout = 5 }] }]  \
                 # /u/config.toml, /p/.wright/config.toml\n"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "verify.checks = [{ glob = \"*.ts\", command = \"tsc\", format = \"tsc\", \
                 timeout_secs = 300 }]  # /u/config.toml\n"
            ),
            "{text}"
        );
        let parsed: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(parsed["hooks"]["Stop"].as_array().unwrap().len(), 2);
        assert_eq!(r.source("hooks"), Some(&project));
        let hooks = r.settings.get("hooks").unwrap();
        assert_eq!(
            hooks["PreToolUse"][0]["hooks"][0]["command"].as_str(),
            Some("c")
        );
        assert_eq!(r.describe_source(&user), "user config (/u/config.toml)");
        assert_eq!(
            r.describe_source(&project),
            "project config (/p/.wright/config.toml)"
        );
        assert_eq!(
            r.describe_source(&Source::File("/p/.wright/l.toml".into())),
            "local project config (/p/.wright/l.toml)"
        );
        assert_eq!(
            r.describe_source(&Source::Flag("--no-verify".into())),
            "flag --no-verify"
        );
    }

    #[test]
    fn entries_serialize_with_null_for_unset() {
        let r = Resolved::default();
        let entries = r.entries();
        assert_eq!(entries.len(), KEYS.len());
        assert_eq!(entries[0].key, "provider");
        assert_eq!(entries[0].value, None);
        assert_eq!(entries[4].value, Some(toml::Value::Integer(50)));
        let json = serde_json::to_value(&entries[4]).unwrap();
        assert_eq!(
            json,
            serde_json::json!({"key": "max_turns", "value": 50, "source": {"kind": "default"}})
        );
        let json = serde_json::to_value(&entries[0]).unwrap();
        assert_eq!(json["value"], serde_json::Value::Null);
    }
}
