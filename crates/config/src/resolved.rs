//! [`Resolved`]: merged settings plus the source of every key, and the two
//! views `wright config show` prints: [`Resolved::render`] (TOML-like text)
//! and [`Resolved::entries`] (for `--json`).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use crate::settings::{Assign, KEYS, Settings};
use crate::source::Source;

/// Merged settings and where each value came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    /// The merged values.
    pub settings: Settings,
    /// The config files that existed and were read, lowest layer first.
    pub files: Vec<PathBuf>,
    sources: BTreeMap<&'static str, Source>,
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
}

impl Default for Resolved {
    fn default() -> Self {
        Resolved {
            settings: Settings::default(),
            files: Vec::new(),
            sources: KEYS.iter().map(|k| (*k, Source::Default)).collect(),
        }
    }
}

impl Resolved {
    /// Applies one assignment on top of what is there.
    pub(crate) fn set(&mut self, assign: Assign, source: Source) {
        let key = assign.key();
        if let Some(displaced) = assign.apply(&mut self.settings) {
            self.sources.insert(displaced, source.clone());
        }
        self.sources.insert(key, source);
    }

    /// Where `key` (one of [`KEYS`], as in TOML) came from; `None` for an unknown key.
    pub fn source(&self, key: &str) -> Option<&Source> {
        self.sources.get(key)
    }

    /// Every key in display order with its value and source.
    pub fn entries(&self) -> Vec<Entry> {
        KEYS.iter()
            .map(|key| Entry {
                key,
                value: self.settings.get(key),
                source: self.sources.get(key).cloned().unwrap_or(Source::Default),
            })
            .collect()
    }

    /// Human-readable merged config: one `key = value  # source` line per
    /// key, values in TOML syntax (so the lines are valid TOML), unset keys
    /// commented out as `# key  (not set)`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for entry in self.entries() {
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
        other => other.to_string(),
    }
}

fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04X}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
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
tools.bash_timeout_secs = 120  # default
context.instruction_files = [\"AGENTS.md\"]  # default
"
        );
        assert_eq!(r.source("max_turns"), Some(&Source::Default));
        assert_eq!(r.source("nope"), None);
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
