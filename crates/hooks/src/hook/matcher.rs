//! The configured hooks with their matchers compiled once, and the choice of
//! which hooks run for an event and target. Identical commands of one event
//! run once.
//!
//! Matchers follow Claude Code's rules, decided by the characters of the
//! (trimmed) matcher:
//!
//! * absent, empty or `*`: matches every target;
//! * only ASCII letters, digits, `_` and `|` (`Bash`, `Edit|Write`,
//!   `Notebook`): an exact, case-sensitive match against one of the
//!   `|`-separated names, so `Bash` does not match `BashOutput`, `Edit` and
//!   `Edit|Write` do not match `MultiEdit`, and `Notebook` does not match
//!   `NotebookEdit` (empty names, as in `Edit|`, match nothing);
//! * anything else: a regular expression searched for anywhere in the target,
//!   unanchored like JavaScript's `RegExp.test`, so `^Bash` matches `Bash`
//!   and `BashOutput`, `Output$` matches `BashOutput`, `mcp__.*__delete`
//!   matches `mcp__fs__delete_file`, and `Edit|Write.*` matches `MultiEdit`
//!   and `TodoWrite`. Write `^(?:...)$` to match the whole target.
//!
//! Regular expressions are compiled with the Rust `regex` crate, not a
//! JavaScript engine. Its syntax is close for what matchers use, but it has
//! no lookaround (`(?=`, `(?!`, `(?<=`, `(?<!`) and no backreferences
//! (`\1`): a matcher using them is not a valid regex here, and the hook is
//! skipped with a warning naming its source (as for any invalid regex).

use std::collections::HashSet;

use regex::Regex;

use super::{HookDef, HookEvent};

/// A compiled matcher.
#[derive(Debug, Clone)]
enum Matcher {
    /// Absent, empty or `*`.
    All,
    /// Only letters, digits, `_` and `|`: the target must equal one of these
    /// names (the non-empty `|`-separated parts).
    Names(Vec<String>),
    /// Anything else: an unanchored regex, so it may match anywhere in the
    /// target.
    Regex(Regex),
}

impl Matcher {
    fn compile(pattern: Option<&str>) -> Result<Matcher, regex::Error> {
        match pattern.map(str::trim) {
            None | Some("") | Some("*") => Ok(Matcher::All),
            Some(p) if is_name_list(p) => Ok(Matcher::Names(
                p.split('|')
                    .filter(|n| !n.is_empty())
                    .map(str::to_owned)
                    .collect(),
            )),
            Some(p) => Regex::new(p).map(Matcher::Regex),
        }
    }

    fn is_all(&self) -> bool {
        matches!(self, Matcher::All)
    }

    fn matches(&self, target: Option<&str>) -> bool {
        // No target (an event fired without one) is matched as an empty
        // name: it meets match-all hooks and regexes that match "".
        let target = target.unwrap_or("");
        match self {
            Matcher::All => true,
            Matcher::Names(names) => names.iter().any(|n| n == target),
            Matcher::Regex(re) => re.is_match(target),
        }
    }
}

/// True when `p` is made only of ASCII letters, digits, `_` and `|`: Claude
/// Code's exact-match (list) form rather than a regex.
fn is_name_list(p: &str) -> bool {
    p.bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'|')
}

/// The hooks of all config sources, in config order, ready to match.
#[derive(Debug, Clone, Default)]
pub struct Hooks {
    entries: Vec<(HookDef, Matcher)>,
}

impl Hooks {
    /// Compiles every matcher by Claude Code's rules (see the module doc):
    /// absent, empty or `*` matches all; only letters, digits, `_` and `|` is
    /// an exact match against one of the `|`-separated names; anything else
    /// is an unanchored regex. A matcher that is not a valid regex for the
    /// Rust `regex` crate (including JavaScript-only syntax such as
    /// lookaround or backreferences) makes a warning naming the hook's
    /// source, and that hook is left out: one bad line must not switch off
    /// the others or stop wright from starting.
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

    /// The hooks that run for `event` with matcher target `target` (a tool
    /// name, a session source, ...), in config order: exact names must equal
    /// the target, regexes must match somewhere in it, and no target counts
    /// as the empty name. For events without matchers the target is ignored. A command
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
