//! The configured hooks with their matchers compiled once, and the choice of
//! which hooks run for an event and target (Claude Code's matcher rules:
//! absent, empty or `*` matches all; anything else is a regex that must match
//! the whole target; identical commands run once).

use std::collections::HashSet;

use regex::Regex;

use super::{HookDef, HookEvent};

/// A compiled matcher.
#[derive(Debug, Clone)]
enum Matcher {
    /// Absent, empty or `*`.
    All,
    /// `^(?:pattern)$`, so `Bash` does not match `BashOutput`.
    Regex(Regex),
}

impl Matcher {
    fn compile(pattern: Option<&str>) -> Result<Matcher, regex::Error> {
        match pattern.map(str::trim) {
            None | Some("") | Some("*") => Ok(Matcher::All),
            Some(p) => Regex::new(&format!("^(?:{p})$")).map(Matcher::Regex),
        }
    }

    fn is_all(&self) -> bool {
        matches!(self, Matcher::All)
    }

    fn matches(&self, target: Option<&str>) -> bool {
        match self {
            Matcher::All => true,
            // No target (an event fired without one) only meets match-all
            // hooks, the same as matching against an empty name.
            Matcher::Regex(re) => re.is_match(target.unwrap_or("")),
        }
    }
}

/// The hooks of all config sources, in config order, ready to match.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    entries: Vec<(HookDef, Matcher)>,
}

impl Hooks {
    /// Compiles every matcher. A matcher that is not a valid regex makes a
    /// warning naming the hook's source, and that hook is left out: one bad
    /// line must not switch off the others or stop wright from starting.
    pub fn new(defs: Vec<HookDef>) -> (Hooks, Vec<String>) {
        let mut warnings = Vec::new();
        let mut entries = Vec::with_capacity(defs.len());
        for def in defs {
            let matcher = match Matcher::compile(def.matcher.as_deref()) {
                Ok(m) => m,
                Err(e) => {
                    warnings.push(format!(
                        "{}: {} hook \"{}\" skipped: matcher {:?} is not a valid regex: {}",
                        def.source,
                        def.event,
                        def.command,
                        def.matcher.as_deref().unwrap_or_default(),
                        first_line(&e.to_string()),
                    ));
                    continue;
                }
            };
            if !def.event.uses_matcher() && !matcher.is_all() {
                warnings.push(format!(
                    "{}: {} hooks have no matcher; matcher {:?} of \"{}\" is ignored",
                    def.source,
                    def.event,
                    def.matcher.as_deref().unwrap_or_default(),
                    def.command,
                ));
            }
            entries.push((def, matcher));
        }
        (Hooks { entries }, warnings)
    }

    /// Every usable hook, in config order (for listing them to the user).
    pub fn defs(&self) -> impl Iterator<Item = &HookDef> {
        self.entries.iter().map(|(d, _)| d)
    }

    /// True when no hook is configured.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// True when at least one hook is configured for `event`, so the caller
    /// can skip building the input.
    pub fn has(&self, event: HookEvent) -> bool {
        self.entries.iter().any(|(d, _)| d.event == event)
    }

    /// The hooks that run for `event` with matcher target `target`, in config
    /// order. For events without matchers the target is ignored. A command
    /// configured twice for one event (say in user and project settings)
    /// runs once, at its first place.
    pub fn matching(&self, event: HookEvent, target: Option<&str>) -> Vec<&HookDef> {
        let mut seen = HashSet::new();
        self.entries
            .iter()
            .filter(|(d, m)| d.event == event && (!event.uses_matcher() || m.matches(target)))
            .map(|(d, _)| d)
            .filter(|d| seen.insert(d.command.as_str()))
            .collect()
    }
}

fn first_line(s: &str) -> String {
    // regex errors are multi-line drawings of the pattern; the summary line
    // at the end is what a one-line warning needs.
    s.lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or(s)
        .trim()
        .to_owned()
}

#[cfg(test)]
#[path = "matcher_tests.rs"]
mod tests;
