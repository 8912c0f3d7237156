//! The decision engine: one verdict per tool call.
//!
//! Order (DESIGN.md §5): hard guards → deny rules → plan mode → ask rules →
//! allow rules and session grants → mode. The strictest answer wins. A
//! guard's deny is final; the secret-file guard alone can be lifted, and
//! only by an allow rule (or session grant) that names the file.

use std::path::{Path, PathBuf};

use wright_protocol::{ToolKind, Touches};

use crate::classify;
use crate::command::Part;
use crate::paths::{self, Resolved};
use crate::rule::{Rule, RuleError, Spec, canonical_tool};
use crate::shell::RedirectKind;

pub use wright_config::PermissionMode as Mode;

/// Whether someone can answer an approval prompt in this run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CanAsk {
    /// An interactive front end will answer `ApprovalRequested`.
    #[default]
    Yes,
    /// Headless: every "ask" becomes a deny the model is told about.
    No,
}

/// Allow, ask and deny rules, from config and flags.
#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    /// Calls these match run without asking (after guards and deny/ask rules).
    pub allow: Vec<Rule>,
    /// Calls these match always ask.
    pub ask: Vec<Rule>,
    /// Calls these match never run.
    pub deny: Vec<Rule>,
}

impl RuleSet {
    /// Parses the three lists; the first bad rule is the error.
    pub fn parse<S: AsRef<str>>(allow: &[S], ask: &[S], deny: &[S]) -> Result<Self, RuleError> {
        let p = |v: &[S]| {
            v.iter()
                .map(|s| s.as_ref().parse())
                .collect::<Result<Vec<Rule>, _>>()
        };
        Ok(RuleSet {
            allow: p(allow)?,
            ask: p(ask)?,
            deny: p(deny)?,
        })
    }
}

/// Everything the engine needs, as plain data.
#[derive(Debug, Clone, Default)]
pub struct PolicyInput {
    /// The permission mode.
    pub mode: Mode,
    /// Rules from config and flags.
    pub rules: RuleSet,
    /// Where edits may land: the project root first, then extra roots.
    pub workspace_roots: Vec<PathBuf>,
    /// Whether approvals can be asked for.
    pub can_ask: CanAsk,
    /// The home directory, for `~/` rules and `~/.ssh`-style secrets.
    pub home: Option<PathBuf>,
    /// Where shell redirections may also write without an edit permission
    /// (pass `std::env::temp_dir()`); the edit tools stay inside the roots.
    pub temp_roots: Vec<PathBuf>,
    /// Whether shell commands are confined as the configuration says.
    pub commands: CommandConfinement,
}

/// Whether the OS sandbox the configuration asks for confines shell
/// commands. Where it cannot (a platform without one), commands run
/// unconfined, so none may run on the strength of the mode, a rule or a
/// grant: each one asks, and is refused where nothing can ask.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CommandConfinement {
    /// Confined as configured, or the configuration asks for no sandbox.
    #[default]
    AsConfigured,
    /// Configured sandboxed but run unconfined; the text says why (shown
    /// with every approval request).
    Unenforced(String),
}

/// One tool call to decide on. The engine decides on what the call touches
/// (its tool said so): a rule name maps to an effect (`Read(…)` to paths
/// read, `Edit(…)` to paths written, `Bash(…)` to the command,
/// `WebFetch(…)` to the URL), so a tool the engine has never heard of gets
/// every path rule and check by what it touches. The name still matters to
/// rules that name the tool (`Grep(…)`, `mcp__github__*`).
#[derive(Debug, Clone, Copy)]
pub struct CallInfo<'a> {
    /// The tool's name (`Bash`, `Edit`, `mcp__github__create_issue`, …).
    pub tool: &'a str,
    /// What the call reads, writes, runs and fetches, and its kind.
    pub touches: &'a Touches,
    /// The session's working directory.
    pub cwd: &'a Path,
}

/// Who refused a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeniedBy {
    /// A hard guard (destructive command, write outside the workspace, secret file).
    Guard,
    /// A deny rule.
    Rule,
    /// The permission mode (an approval was needed).
    Mode,
    /// Plan mode: the call would change something.
    Plan,
    /// An approval was needed and this run cannot ask.
    NoApproval,
    /// A `PreToolUse` hook refused the call.
    Hook,
}

/// What the user's `PreToolUse` hooks said about a call. It takes its place
/// in the order of evaluation after the hard guards: a hook's deny beats every
/// rule, its ask beats allow rules, and its allow only spares the approval
/// the mode would ask for (deny and ask rules, plan mode, guards and secret
/// files still apply).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum HookVerdict {
    /// No hook decided.
    #[default]
    None,
    /// A hook allowed the call.
    Allow,
    /// A hook wants the user asked; the reason is shown.
    Ask(String),
    /// A hook refused the call; the reason goes to the model.
    Deny(String),
}

/// The decision for one call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Run it.
    Allow,
    /// Ask the user; `suggestion` is what "always allow" should store.
    Ask {
        /// Why approval is needed, phrased for the user and the model.
        reason: String,
        /// The narrow rule that would allow this call.
        suggestion: Rule,
    },
    /// Do not run it; `reason` goes to the model (the core adds the prefix).
    Deny {
        /// Why, with what the user can do about it.
        reason: String,
        /// Who refused.
        by: DeniedBy,
    },
}

/// A shell command and what it touches.
struct Cmd {
    text: String,
    parts: Vec<Part>,
    /// Files written by redirections: (part index, path).
    writes: Vec<(usize, Resolved)>,
    /// Files named as arguments or read by `<`: (part index, path).
    reads: Vec<(usize, Resolved)>,
    /// Globs that could expand to a secret: (part index, word).
    secret_globs: Vec<(usize, PathBuf)>,
    /// Every glob word, made absolute against each possible cwd (checked
    /// against the Read deny rules): (part index, pattern).
    globs: Vec<(usize, PathBuf)>,
    /// Path words the engine cannot place: relative words after a `cd` to
    /// a computed directory, and paths through `/proc/self` or `/dev/fd/N/…`
    /// (they name what the running shell has open): (part index, word).
    unplaced: Vec<(usize, String)>,
    /// Redirections into such process-relative paths: refused.
    proc_writes: Vec<(usize, String)>,
}

/// What a call touches.
enum Target {
    Command(Cmd),
    Path(Resolved, Access),
    Url(String),
    Other,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

/// A secret file a call reads or writes.
struct SecretHit {
    path: PathBuf,
    why: &'static str,
    access: Access,
}

/// The permission engine. Cheap to query; build it once per session.
#[derive(Debug, Clone)]
pub struct Engine {
    mode: Mode,
    rules: RuleSet,
    session: Vec<Rule>,
    roots: Vec<PathBuf>,
    scratch: Vec<PathBuf>,
    home: Option<PathBuf>,
    can_ask: CanAsk,
    deny_has_commands: bool,
    /// Programs the command deny rules name (see `engine_inline`).
    denied_programs: Vec<String>,
    commands: CommandConfinement,
    /// What the repositories commands run in track (see `engine_git_history`).
    tracked: history::SharedTracked,
}

impl Engine {
    /// Builds an engine; roots are resolved through symlinks once here.
    pub fn new(input: PolicyInput) -> Self {
        let canon = |p: &PathBuf| std::fs::canonicalize(p).unwrap_or_else(|_| paths::normalize(p));
        let scratch = input.temp_roots.iter().map(canon).collect();
        let deny_has_commands = input
            .rules
            .deny
            .iter()
            .any(|r| r.covers_tool("bash") && matches!(r.spec(), Some(Spec::Command(_))));
        let denied_programs = Engine::denied_programs(&input.rules.deny);
        Engine {
            denied_programs,
            mode: input.mode,
            roots: input.workspace_roots.iter().map(canon).collect(),
            home: input.home.as_ref().map(canon),
            rules: input.rules,
            session: Vec::new(),
            scratch,
            can_ask: input.can_ask,
            deny_has_commands,
            commands: input.commands,
            tracked: history::SharedTracked::default(),
        }
    }

    /// The current mode.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// Whether a person can be asked (an interactive front end answers).
    pub fn can_ask(&self) -> CanAsk {
        self.can_ask
    }

    /// Switches mode (the interactive `/mode` command).
    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// Allows calls matching `rule` for the rest of the session.
    pub fn grant_session(&mut self, rule: Rule) {
        if !self.session.contains(&rule) {
            self.session.push(rule);
        }
    }

    /// Decides on one call.
    pub fn check(&self, call: &CallInfo<'_>) -> Verdict {
        self.check_with_hook(call, &HookVerdict::None)
    }

    /// Like [`Engine::check`], with the `PreToolUse` hooks' answer in its
    /// place in the order (see [`HookVerdict`]).
    pub fn check_with_hook(&self, call: &CallInfo<'_>, hook: &HookVerdict) -> Verdict {
        let tool = canonical_tool(call.tool);
        // A call that touches several paths is decided once per path; the
        // strictest answer wins (the first deny, else the first ask).
        let mut verdict = Verdict::Allow;
        for single in one_effect_each(call.touches) {
            let call = CallInfo {
                touches: &single,
                ..*call
            };
            let target = self.target(&call);
            let v = match (self.decide(&call, &tool, &target, hook), self.can_ask) {
                (Verdict::Ask { reason, suggestion }, CanAsk::No) => Verdict::Deny {
                    by: DeniedBy::NoApproval,
                    reason: format!(
                        "{reason}, and this run cannot ask for approval. The user can allow it \
                         with `--allow {}`{}.",
                        shell_quoted(&suggestion.to_string()),
                        mode_hint(call.touches.kind, &target)
                    ),
                },
                (v, _) => v,
            };
            match (&verdict, v) {
                (_, v @ Verdict::Deny { .. }) => return v,
                (Verdict::Allow, v) => verdict = v,
                _ => {}
            }
        }
        verdict
    }

    fn decide(
        &self,
        call: &CallInfo<'_>,
        tool: &str,
        target: &Target,
        hook: &HookVerdict,
    ) -> Verdict {
        let ask = |reason: String| Verdict::Ask {
            reason,
            suggestion: self.suggest_for(call, tool, target),
        };
        // 1. Hard guards.
        if let Some(reason) = self.hard_guard(target, call.cwd) {
            return Verdict::Deny {
                reason,
                by: DeniedBy::Guard,
            };
        }
        // 1b. The user's PreToolUse hooks.
        if let HookVerdict::Deny(reason) = hook {
            return Verdict::Deny {
                reason: reason.clone(),
                by: DeniedBy::Hook,
            };
        }
        let mut pending: Option<Verdict> = None;
        let secrets = self.secrets(target);
        if let Some(hit) = secrets.iter().find(|h| !self.secret_lifted(h, target)) {
            let verb = if hit.access == Access::Write {
                "writes"
            } else {
                "reads"
            };
            let rule_tool = if hit.access == Access::Write {
                "Edit"
            } else {
                "Read"
            };
            let suggestion = Rule::exact_path(rule_tool, &hit.path, &self.roots);
            let reason = format!(
                "it {verb} {}, which is {}; secret files need an allow rule naming them",
                hit.path.display(),
                hit.why
            );
            if self.can_ask == CanAsk::No {
                return Verdict::Deny {
                    reason: format!(
                        "{reason}. The user can allow it with `--allow {}`.",
                        shell_quoted(&suggestion.to_string())
                    ),
                    by: DeniedBy::Guard,
                };
            }
            pending = Some(Verdict::Ask { reason, suggestion });
        }
        // 2. Deny rules.
        for rule in self.rules.deny.iter().filter(|r| covers(r, tool, target)) {
            if self.rule_matches(rule, target, MatchFor::Deny) {
                return Verdict::Deny {
                    reason: format!("`{}` is denied by the rule `{rule}`", what(call, target)),
                    by: DeniedBy::Rule,
                };
            }
        }
        if let Target::Command(c) = target
            && let Some(rule) = self.command_paths_denied(c)
        {
            return Verdict::Deny {
                reason: format!(
                    "`{}` touches a file denied by the rule `{rule}`",
                    c.text.trim()
                ),
                by: DeniedBy::Rule,
            };
        }
        if let Target::Command(c) = target
            && pending.is_none()
            && let Some(reason) = self.deny_paths_unsure(c)
        {
            pending = Some(ask(reason));
        }
        if let Target::Command(c) = target
            && self.deny_has_commands
            && let Some(p) = c.parts.iter().find(|p| p.opaque.is_some())
            && pending.is_none()
        {
            pending = Some(ask(format!(
                "`{}` cannot be checked against the deny rules: {}",
                p.display(),
                p.opaque.unwrap_or_default()
            )));
        }
        if let Target::Command(c) = target
            && let Some(inline) = self.inline_code(c)
        {
            match inline {
                inline::Inline::Deny(reason) => {
                    return Verdict::Deny {
                        reason,
                        by: DeniedBy::Rule,
                    };
                }
                inline::Inline::Ask(reason) if pending.is_none() => pending = Some(ask(reason)),
                inline::Inline::Ask(_) => {}
            }
        }
        // 3. Plan mode changes nothing.
        if self.mode == Mode::Plan && !self.read_only(call.touches.kind, target) {
            return Verdict::Deny {
                reason: format!(
                    "`{}` was not run: plan mode is read-only. Describe the change in the plan \
                     instead of making it; the user can leave plan mode to carry it out",
                    what(call, target)
                ),
                by: DeniedBy::Plan,
            };
        }
        // 3b. Unconfined commands the configuration wants confined: every one
        // asks, whatever the mode, rules and grants say.
        if let (Target::Command(c), CommandConfinement::Unenforced(why)) = (target, &self.commands)
            && pending.is_none()
        {
            let reason = format!(
                "`{}` would run without the OS sandbox ({why})",
                c.text.trim()
            );
            return match self.can_ask {
                CanAsk::Yes => ask(format!("{reason}, so every command needs approval")),
                CanAsk::No => Verdict::Deny {
                    reason: format!(
                        "{reason}, and this run cannot ask for approval. The user can run \
                         commands unconfined with `--sandbox full` (or `[sandbox] mode = \"full\"`)"
                    ),
                    by: DeniedBy::NoApproval,
                },
            };
        }
        // 4. Ask rules.
        for rule in self.rules.ask.iter().filter(|r| covers(r, tool, target)) {
            if self.rule_matches(rule, target, MatchFor::Deny) {
                return ask(format!(
                    "the rule `{rule}` requires approval for `{}`",
                    what(call, target)
                ));
            }
        }
        if let HookVerdict::Ask(reason) = hook {
            return pending.unwrap_or_else(|| ask(format!("a PreToolUse hook asks: {reason}")));
        }
        // 5. Allow rules and session grants (and a hook's allow); 6. the mode.
        // Stopping one of the session's own background commands changes
        // nothing the user has not already allowed.
        let own_job = call.touches.own_job;
        let verdict =
            if self.allowed_by_rules(tool, target) || *hook == HookVerdict::Allow || own_job {
                Verdict::Allow
            } else {
                self.by_mode(call, target).map_or(Verdict::Allow, ask)
            };
        match (verdict, pending) {
            (Verdict::Allow, Some(p)) => p,
            (v, _) => v,
        }
    }

    /// `Some(reason)` when the mode wants approval.
    fn by_mode(&self, call: &CallInfo<'_>, target: &Target) -> Option<String> {
        let what = what(call, target);
        let needs = |noun: &str| {
            Some(format!(
                "{noun} `{what}` needs approval in `{}` mode",
                self.mode
            ))
        };
        match (self.mode, call.touches.kind) {
            (Mode::Bypass, _) => None,
            (Mode::Auto, _) => match target {
                Target::Command(c) => c.parts.iter().find_map(|p| {
                    classify::danger(p)
                        .or_else(|| {
                            self.unknown_write(p)
                                .then(|| "it writes to a file named at run time".into())
                        })
                        .map(|why| format!("`{}` needs approval because {why}", p.display()))
                }),
                _ => None,
            },
            (_, ToolKind::ReadOnly | ToolKind::Interaction) => None,
            // A command the classifier knows to be read-only runs without a
            // question in every mode, as in plan mode: the sandbox confines
            // it and the classifier fails closed (secrets, deny and ask rules,
            // guards and unconfined commands were decided above).
            (Mode::Plan | Mode::Default | Mode::AcceptEdits, ToolKind::Exec)
                if self.read_only(call.touches.kind, target) =>
            {
                None
            }
            (Mode::AcceptEdits, ToolKind::Edit) => None,
            (_, ToolKind::Edit) => needs("the edit"),
            (_, ToolKind::Exec | ToolKind::Other) => needs("running"),
            (_, ToolKind::Network) => needs("network access"),
        }
    }

    fn read_only(&self, kind: ToolKind, target: &Target) -> bool {
        match target {
            Target::Command(c) => c.parts.iter().all(|p| {
                classify::is_read_only(p)
                    && p.redirects
                        .iter()
                        .all(|r| r.kind != RedirectKind::Write || is_sink(&r.target))
            }),
            _ => matches!(
                kind,
                ToolKind::ReadOnly | ToolKind::Network | ToolKind::Interaction
            ),
        }
    }

    fn unknown_write(&self, p: &Part) -> bool {
        p.redirects
            .iter()
            .any(|r| r.kind == RedirectKind::Write && r.target.dynamic)
    }

    /// What the engine looks at of a call with at most one effect (see
    /// [`one_effect_each`]): the command, else the path written, else the
    /// path read, else the URL.
    fn target(&self, call: &CallInfo<'_>) -> Target {
        let t = call.touches;
        let home = self.home.as_deref();
        if let Some(command) = &t.command {
            let sensitive = |dir: &Path| self.tracked_sensitive(dir);
            return Target::Command(command_target(command, call.cwd, home, &sensitive));
        }
        if let Some(p) = t.writes.first() {
            return Target::Path(paths::resolve(call.cwd, p, home), Access::Write);
        }
        if let Some(p) = t.reads.first() {
            return Target::Path(paths::resolve(call.cwd, p, home), Access::Read);
        }
        match &t.url {
            Some(url) => Target::Url(host_of(url)),
            None => Target::Other,
        }
    }

    fn hard_guard(&self, target: &Target, cwd: &Path) -> Option<String> {
        match target {
            Target::Command(c) => {
                // The place lets the guard refuse the workspace, its
                // ancestors and the home however they are spelled.
                let place = wright_shell::guard::Place {
                    cwd: cwd.to_path_buf(),
                    roots: self.roots.clone(),
                    home: self.home.clone(),
                };
                if let Err(why) = wright_shell::guard::check_command_at(&c.text, &place) {
                    return Some(format!("this command is refused in every mode ({why})"));
                }
                if let Some((_, t)) = c.proc_writes.first() {
                    return Some(format!(
                        "it redirects output to {t}, a path through the running process                          (`/proc/self`, `/dev/fd/N/…`) whose target wright cannot see; writes                          there are refused. Name the file by its own path"
                    ));
                }
                let outside = c.writes.iter().find(|(_, r)| {
                    !paths::inside(&r.real, &self.roots) && !paths::inside(&r.real, &self.scratch)
                })?;
                Some(format!(
                    "it redirects output to {}, outside the workspace ({}) and the temp \
                     directory; writes there are refused. The user can add the directory to \
                     `[permissions] additional_roots`",
                    outside.1.real.display(),
                    self.roots_text()
                ))
            }
            Target::Path(r, Access::Write) if !paths::inside(&r.real, &self.roots) => {
                Some(format!(
                    "{} is outside the workspace ({}); writes there are refused. The user can add \
                 the directory to `[permissions] additional_roots`",
                    r.real.display(),
                    self.roots_text()
                ))
            }
            _ => None,
        }
    }

    fn roots_text(&self) -> String {
        self.roots
            .iter()
            .map(|r| r.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// The call split into calls of one effect each (one command, one path
/// written or read, one URL), in that order; a call with none is itself.
/// Each effect is judged at least as strictly as its own nature asks,
/// whatever kind the tool declared: a command as a command, a write as an
/// edit, a fetch as network access (a tool that says "read-only" but names
/// a path it writes still asks for the write, and plan mode refuses it).
fn one_effect_each(t: &Touches) -> Vec<Touches> {
    let one = |least: ToolKind, f: &dyn Fn(&mut Touches)| {
        let mut single = Touches {
            kind: stricter(t.kind, least),
            reads: Vec::new(),
            writes: Vec::new(),
            command: None,
            url: None,
            ..t.clone()
        };
        f(&mut single);
        single
    };
    let mut each: Vec<Touches> = Vec::new();
    if let Some(c) = &t.command {
        each.push(one(ToolKind::Exec, &|s| s.command = Some(c.clone())));
    }
    for p in &t.writes {
        each.push(one(ToolKind::Edit, &|s| s.writes = vec![p.clone()]));
    }
    for p in &t.reads {
        each.push(one(ToolKind::ReadOnly, &|s| s.reads = vec![p.clone()]));
    }
    if let Some(u) = &t.url {
        each.push(one(ToolKind::Network, &|s| s.url = Some(u.clone())));
    }
    if each.is_empty() {
        each.push(t.clone());
    }
    each
}

/// The stricter of two kinds, ordered by how much a call may change:
/// read-only, a question to the person, network, an edit, then a command or
/// a tool whose effects are unknown.
fn stricter(a: ToolKind, b: ToolKind) -> ToolKind {
    let rank = |k: ToolKind| match k {
        ToolKind::ReadOnly => 0,
        ToolKind::Interaction => 1,
        ToolKind::Network => 2,
        ToolKind::Edit => 3,
        ToolKind::Exec | ToolKind::Other => 4,
    };
    if rank(b) > rank(a) { b } else { a }
}

/// Whether `rule` applies to a call of `tool` touching `target`: a rule
/// that names the tool, or one whose name stands for the target's effect
/// (`Read` for a path read, `Edit` for a path written, `Bash` for a
/// command, `WebFetch` for a URL), whatever tool has that effect.
fn covers(rule: &Rule, tool: &str, target: &Target) -> bool {
    let effect = match target {
        Target::Command(_) => "bash",
        Target::Path(_, Access::Write) => "edit",
        Target::Path(_, Access::Read) => "read",
        Target::Url(_) => "webfetch",
        Target::Other => return rule.covers_tool(tool),
    };
    rule.covers_tool(tool) || rule.covers_tool(effect)
}

/// How a call reads in messages: the command, the path, or the tool name.
fn what(call: &CallInfo<'_>, target: &Target) -> String {
    match target {
        Target::Command(c) => c.text.trim().to_owned(),
        Target::Path(r, _) => format!("{} {}", call.tool, r.lexical.display()),
        Target::Url(host) => format!("{} {host}", call.tool),
        Target::Other => call.tool.to_owned(),
    }
}

fn mode_hint(kind: ToolKind, target: &Target) -> &'static str {
    match (kind, target) {
        (ToolKind::Edit, _) => " or `--permission-mode accept-edits`",
        (_, Target::Command(..)) => " or `--permission-mode auto`",
        _ => " or `--permission-mode bypass`",
    }
}

/// The host of a URL, lower case, without user info or port.
fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    let host = authority.rsplit('@').next().unwrap_or("");
    let host = if host.starts_with('[') {
        host.split(']')
            .next()
            .map(|h| format!("{h}]"))
            .unwrap_or_default()
    } else {
        host.split(':').next().unwrap_or("").to_owned()
    };
    host.to_ascii_lowercase()
}

/// Which list a rule is matched for: allow rules must match every part and
/// are not fooled by wrappers; deny and ask rules match any part in any form.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum MatchFor {
    Allow,
    Deny,
}

#[path = "engine_match.rs"]
mod matching;

#[path = "engine_cmd.rs"]
mod cmd;
use cmd::{command_target, is_sink};

#[path = "engine_deny_paths.rs"]
mod deny_paths;

#[path = "engine_git_history.rs"]
mod history;

#[path = "engine_inline.rs"]
mod inline;

#[path = "engine_always.rs"]
mod always;
pub use always::AlwaysRules;

/// `text` as one shell word: in single quotes, each `'` in it written as
/// `'\''`, so a suggested rule pastes into a shell as it is.
pub(crate) fn shell_quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

#[cfg(test)]
mod quoting_tests {
    #[test]
    fn a_rule_with_quotes_pastes_as_one_word() {
        assert_eq!(
            super::shell_quoted("Bash(npm test:*)"),
            "'Bash(npm test:*)'"
        );
        assert_eq!(
            super::shell_quoted("Bash(echo 'hi':*)"),
            r"'Bash(echo '\''hi'\'':*)'"
        );
    }
}

#[cfg(test)]
#[path = "engine_tests.rs"]
mod tests;
