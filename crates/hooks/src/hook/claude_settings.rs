//! Reading the `hooks` object of Claude Code's settings files
//! (`.claude/settings.json`, `.claude/settings.local.json`,
//! `~/.claude/settings.json`) into [`HookDef`]s, so projects that already
//! have Claude Code hooks get them in wright unchanged. Malformed JSON is an
//! error; odd entries inside a well-formed file are warnings, because one
//! hook wright cannot run must not cost the user the others.

use serde_json::{Map, Value};

use super::{HookDef, HookEvent};

/// A settings file that cannot be read as Claude Code settings.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HookConfigError {
    /// The text is not JSON.
    #[error("{origin}: not valid JSON: {message}")]
    Json {
        /// The file, as described by the caller.
        origin: String,
        /// What the JSON parser said.
        message: String,
    },
    /// The JSON has the wrong shape at the top (not an object, or `hooks`
    /// not an object).
    #[error("{origin}: {message}")]
    Shape {
        /// The file, as described by the caller.
        origin: String,
        /// What is wrong.
        message: String,
    },
}

/// Reads the hooks of a Claude Code settings file. `source` describes the
/// file for messages and becomes every hook's [`HookDef::source`]. Returns
/// the hooks (in file order within each event) and warnings for entries that were skipped
/// (unknown events, hook types other than `command`, missing commands).
/// A file without `hooks` has none.
pub fn hooks_from_claude_settings(
    text: &str,
    source: &str,
) -> Result<(Vec<HookDef>, Vec<String>), HookConfigError> {
    let root: Value = serde_json::from_str(text).map_err(|e| HookConfigError::Json {
        origin: source.to_owned(),
        message: e.to_string(),
    })?;
    let shape = |message: &str| HookConfigError::Shape {
        origin: source.to_owned(),
        message: message.to_owned(),
    };
    let root = root
        .as_object()
        .ok_or_else(|| shape("settings must be a JSON object"))?;
    let hooks = match root.get("hooks") {
        None | Some(Value::Null) => return Ok((Vec::new(), Vec::new())),
        Some(Value::Object(h)) => h,
        Some(_) => return Err(shape("\"hooks\" must be an object of event names")),
    };
    let mut reader = Reader {
        source,
        defs: Vec::new(),
        warnings: Vec::new(),
    };
    for (name, groups) in hooks {
        match name.parse::<HookEvent>() {
            Ok(event) => reader.event(event, groups),
            Err(e) => reader.warn(format!("{e}; its hooks are skipped")),
        }
    }
    Ok((reader.defs, reader.warnings))
}

struct Reader<'a> {
    source: &'a str,
    defs: Vec<HookDef>,
    warnings: Vec<String>,
}

impl Reader<'_> {
    fn warn(&mut self, message: String) {
        self.warnings.push(format!("{}: {message}", self.source));
    }

    fn event(&mut self, event: HookEvent, groups: &Value) {
        let Some(groups) = groups.as_array() else {
            self.warn(format!("hooks.{event} must be an array; skipped"));
            return;
        };
        for (i, group) in groups.iter().enumerate() {
            let at = format!("hooks.{event}[{i}]");
            let Some(group) = group.as_object() else {
                self.warn(format!("{at} must be an object; skipped"));
                continue;
            };
            let matcher = match group.get("matcher") {
                None | Some(Value::Null) => None,
                Some(Value::String(m)) => Some(m.clone()),
                Some(_) => {
                    self.warn(format!("{at}.matcher must be a string; group skipped"));
                    continue;
                }
            };
            let Some(hooks) = group.get("hooks").and_then(Value::as_array) else {
                self.warn(format!("{at}.hooks must be an array; group skipped"));
                continue;
            };
            for (j, hook) in hooks.iter().enumerate() {
                let at = format!("{at}.hooks[{j}]");
                match hook.as_object() {
                    Some(hook) => self.hook(event, &matcher, hook, &at),
                    None => self.warn(format!("{at} must be an object; skipped")),
                }
            }
        }
    }

    fn hook(
        &mut self,
        event: HookEvent,
        matcher: &Option<String>,
        hook: &Map<String, Value>,
        at: &str,
    ) {
        match hook.get("type").and_then(Value::as_str) {
            Some("command") => {}
            Some(other) => {
                self.warn(format!(
                    "{at}: hook type \"{other}\" is not supported (only \"command\"); skipped"
                ));
                return;
            }
            None => {
                self.warn(format!("{at}: \"type\" is missing; skipped"));
                return;
            }
        }
        let Some(command) = hook
            .get("command")
            .and_then(Value::as_str)
            .filter(|c| !c.trim().is_empty())
        else {
            self.warn(format!("{at}: \"command\" is missing or empty; skipped"));
            return;
        };
        let timeout = match hook.get("timeout") {
            None | Some(Value::Null) => None,
            // Claude Code's timeouts are whole seconds; a fraction rounds up
            // so a short limit never becomes no time at all.
            Some(Value::Number(n)) => match n.as_f64() {
                Some(secs) if secs > 0.0 => Some(secs.ceil() as u64),
                _ => {
                    self.warn(format!(
                        "{at}: timeout {n} is not positive; the default is used"
                    ));
                    None
                }
            },
            Some(other) => {
                self.warn(format!(
                    "{at}: timeout {other} is not a number; the default is used"
                ));
                None
            }
        };
        self.defs.push(HookDef::new(
            event,
            matcher.clone(),
            command,
            timeout,
            self.source,
        ));
    }
}

#[cfg(test)]
#[path = "claude_settings_tests.rs"]
mod tests;
