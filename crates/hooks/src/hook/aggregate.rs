//! Folding the outcomes of all hooks of one event into one [`HookRun`]:
//! blocks, permission decisions (strictest wins), rewritten tool input,
//! added context, stop requests, messages for the user and warnings about
//! broken hooks. The rules follow Claude Code's hooks reference.

use std::fmt;

use serde_json::Value;

use super::outcome::short_duration;
use super::output::{JsonDecision, PermissionBehavior, PermissionDecision, Stdout, parse_stdout};
use super::{HookEvent, HookJson, HookOutcome, HookResult};

/// Most characters of a failed hook's stderr quoted in its warning.
const STDERR_TAIL: usize = 400;

/// Everything the hooks of one event said, combined.
#[derive(Debug, Clone, PartialEq)]
pub struct HookRun {
    /// The event the hooks ran for.
    pub event: HookEvent,
    /// Each hook's run, in config order.
    pub outcomes: Vec<HookOutcome>,
    /// Set when a hook blocked (exit 2 or `decision: "block"`), with the
    /// reasons joined. What it blocks depends on the event: PreToolUse, the
    /// call; UserPromptSubmit, the prompt (text for the user); Stop and
    /// SubagentStop, the stopping (text telling the agent why to go on);
    /// PostToolUse(Failure), nothing (the text is feedback for the model);
    /// PreCompact, the compaction.
    pub block: Option<String>,
    /// PreToolUse and PermissionRequest: the strictest decision any hook
    /// gave, with the reasons of the hooks that gave it.
    pub permission: Option<(PermissionDecision, String)>,
    /// The tool input to use instead of the model's, from the last hook (in
    /// config order) that rewrote it while allowing or not deciding.
    pub updated_input: Option<Value>,
    /// Text for the model's context, in config order.
    pub additional_context: Vec<String>,
    /// Set when a hook said `continue: false`: the agent stops, and this is
    /// what the user is told.
    pub stop: Option<String>,
    /// Messages for the user.
    pub system_messages: Vec<String>,
    /// A hook asked that its output stay out of the transcript.
    pub suppress_output: bool,
    /// Hooks that failed, timed out, could not start or replied garbage.
    pub warnings: Vec<String>,
}

impl HookRun {
    /// The result of running no hooks at all.
    pub fn empty(event: HookEvent) -> Self {
        HookRun {
            event,
            outcomes: Vec::new(),
            block: None,
            permission: None,
            updated_input: None,
            additional_context: Vec::new(),
            stop: None,
            system_messages: Vec::new(),
            suppress_output: false,
            warnings: Vec::new(),
        }
    }

    /// For PreToolUse and PermissionRequest: why the tool call must not run,
    /// when a hook blocked it or denied it.
    pub fn denied(&self) -> Option<String> {
        let deny = match &self.permission {
            Some((PermissionDecision::Deny, reason)) => Some(reason.as_str()),
            _ => None,
        };
        match (self.block.as_deref(), deny) {
            (None, None) => None,
            (Some(r), None) | (None, Some(r)) => Some(r.to_owned()),
            (Some(a), Some(b)) => Some(join([a, b].into_iter())),
        }
    }

    /// One line per hook for the UI: event, command, duration and outcome.
    pub fn describe(&self) -> Vec<String> {
        self.outcomes.iter().map(ToString::to_string).collect()
    }
}

impl fmt::Display for HookRun {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe().join("\n"))
    }
}

/// Combines `outcomes` (in config order) of hooks that ran for `event`.
pub(crate) fn aggregate(event: HookEvent, outcomes: Vec<HookOutcome>) -> HookRun {
    let mut acc = Acc::default();
    for o in &outcomes {
        acc.outcome(event, o);
    }
    let mut run = HookRun::empty(event);
    run.block = nonempty_join(&acc.blocks);
    run.permission = acc.perms.iter().map(|(d, _)| *d).max().map(|strictest| {
        let reasons = acc
            .perms
            .iter()
            .filter(|(d, r)| *d == strictest && !r.is_empty())
            .map(|(_, r)| r.as_str());
        (strictest, join(reasons))
    });
    run.updated_input = acc.updated_input;
    run.additional_context = acc.context;
    run.stop = nonempty_join(&acc.stops);
    run.system_messages = acc.messages;
    run.suppress_output = acc.suppress;
    run.warnings = acc.warnings;
    run.outcomes = outcomes;
    run
}

#[derive(Default)]
struct Acc {
    blocks: Vec<String>,
    perms: Vec<(PermissionDecision, String)>,
    updated_input: Option<Value>,
    context: Vec<String>,
    stops: Vec<String>,
    messages: Vec<String>,
    suppress: bool,
    warnings: Vec<String>,
}

impl Acc {
    fn outcome(&mut self, event: HookEvent, o: &HookOutcome) {
        let who = format!("hook \"{}\" ({event})", o.command);
        match &o.result {
            HookResult::Success { stdout } => match parse_stdout(stdout) {
                Stdout::Empty => {}
                Stdout::Text(text) => {
                    if event.stdout_is_context() {
                        self.context.push(text);
                    }
                }
                Stdout::Json(json) => self.json(event, &who, &json),
                Stdout::BadJson(e) => self.warnings.push(format!(
                    "{who} printed JSON that is not a valid hook reply, ignored: {e}"
                )),
            },
            HookResult::Blocked { stderr } => {
                let text = match stderr.trim() {
                    "" => format!("{who} exited 2 (blocking) without a reason on stderr"),
                    t => t.to_owned(),
                };
                match event {
                    // For a permission prompt, blocking is answering "no".
                    HookEvent::PermissionRequest => {
                        self.perms.push((PermissionDecision::Deny, text));
                    }
                    e if e.can_block() => self.blocks.push(text),
                    // Nothing to block: Claude Code shows stderr to the user.
                    _ => self.messages.push(text),
                }
            }
            HookResult::Failed { code, stderr } => {
                let code = code.map_or_else(|| "abnormally".to_owned(), |c| c.to_string());
                self.warnings.push(format!(
                    "{who} exited {code}: {}",
                    tail(stderr.trim(), STDERR_TAIL).unwrap_or("no stderr output")
                ));
            }
            HookResult::TimedOut => self.warnings.push(format!(
                "{who} timed out and was killed after {}",
                short_duration(o.duration)
            )),
            // The caller cancelled; it knows, and there is nothing to report.
            HookResult::Cancelled => {}
            HookResult::SpawnError(e) => self.warnings.push(format!("{who} could not start: {e}")),
        }
    }

    fn json(&mut self, event: HookEvent, who: &str, j: &HookJson) {
        if j.continue_ == Some(false) {
            self.stops.push(
                j.stop_reason
                    .clone()
                    .filter(|r| !r.trim().is_empty())
                    .unwrap_or_else(|| format!("{who} asked to stop")),
            );
        }
        if let Some(m) = j.system_message.as_ref().filter(|m| !m.trim().is_empty()) {
            self.messages.push(m.clone());
        }
        self.suppress |= j.suppress_output == Some(true);
        let reason = j.reason.clone().unwrap_or_default();

        let specific = match &j.hook_specific_output {
            Some(s) => match s.hook_event_name.as_deref() {
                Some(name) if name != event.as_str() => {
                    self.warnings.push(format!(
                        "{who} replied with hookSpecificOutput for {name}, ignored"
                    ));
                    None
                }
                _ => Some(s),
            },
            None => None,
        };
        if let Some(ctx) = specific.and_then(|s| s.additional_context.as_ref())
            && !ctx.trim().is_empty()
        {
            self.context.push(ctx.clone());
        }

        match event {
            HookEvent::PreToolUse => {
                // The newer field wins over the legacy one when both appear.
                let decision = match specific.and_then(|s| s.permission_decision) {
                    Some(d) => Some((
                        d,
                        specific
                            .and_then(|s| s.permission_decision_reason.clone())
                            .unwrap_or(reason),
                    )),
                    None => j.decision.map(|d| match d {
                        JsonDecision::Approve => (PermissionDecision::Allow, reason),
                        JsonDecision::Block => (PermissionDecision::Deny, reason),
                    }),
                };
                let rewrites = matches!(decision, None | Some((PermissionDecision::Allow, _)));
                if let Some(input) = specific.and_then(|s| s.updated_input.clone())
                    && rewrites
                {
                    self.updated_input = Some(input);
                }
                if let Some(d) = decision {
                    self.perms.push(d);
                }
            }
            HookEvent::PermissionRequest => {
                if let Some(d) = specific.and_then(|s| s.decision.as_ref()) {
                    match d.behavior {
                        PermissionBehavior::Allow => {
                            if let Some(input) = &d.updated_input {
                                self.updated_input = Some(input.clone());
                            }
                            self.perms.push((PermissionDecision::Allow, String::new()));
                        }
                        PermissionBehavior::Deny => {
                            let msg = d.message.clone().unwrap_or_default();
                            if d.interrupt == Some(true) {
                                self.stops.push(if msg.trim().is_empty() {
                                    format!("{who} denied the tool call and stopped the agent")
                                } else {
                                    msg.clone()
                                });
                            }
                            self.perms.push((PermissionDecision::Deny, msg));
                        }
                    }
                } else if j.decision == Some(JsonDecision::Block) {
                    self.perms.push((PermissionDecision::Deny, reason));
                }
            }
            e if j.decision == Some(JsonDecision::Block) => {
                if e.can_block() {
                    self.blocks.push(if reason.trim().is_empty() {
                        format!("{who} blocked without a reason")
                    } else {
                        reason
                    });
                } else {
                    self.warnings
                        .push(format!("{who} said \"block\", which {e} hooks cannot do"));
                }
            }
            _ => {}
        }
    }
}

fn join<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    parts.collect::<Vec<_>>().join("\n")
}

fn nonempty_join(parts: &[String]) -> Option<String> {
    (!parts.is_empty()).then(|| join(parts.iter().map(String::as_str)))
}

/// The last `max` characters of `s` (the end of stderr is where the error
/// usually is), or `None` when `s` is empty.
fn tail(s: &str, max: usize) -> Option<&str> {
    if s.is_empty() {
        return None;
    }
    let skip = s.chars().count().saturating_sub(max);
    Some(match s.char_indices().nth(skip) {
        Some((i, _)) => &s[i..],
        None => s,
    })
}

#[cfg(test)]
#[path = "aggregate_tests.rs"]
mod tests;
