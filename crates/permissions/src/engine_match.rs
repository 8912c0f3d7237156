//! Matching rules against calls, the secret guard's bookkeeping, and the
//! narrow rule suggested for "always allow".

use super::{Access, CallInfo, Engine, MatchFor, SecretHit, Target};
use crate::command::Part;
use crate::paths;
use crate::rule::{CommandPat, Rule, Spec, canonical_tool};
use crate::shell::{RedirectKind, Word};

/// Commands too general to allow by prefix: suggest the exact command.
const EXACT_ONLY: &[&str] = &[
    "rm", "sudo", "doas", "su", "bash", "sh", "zsh", "dash", "fish", "python", "python3", "node",
    "perl", "ruby", "curl", "wget", "eval", "chmod", "chown", "dd", "mv", "cp", "kill", "pkill",
    "killall", "ssh", "scp", "rsync", "docker", "xargs", "env", "find", "awk", "sed",
];

/// Second words after which a third word is still a subcommand (`npm run test`).
const RUNNERS: &[&str] = &["run", "run-script", "exec", "x", "dlx", "workspace"];

impl Engine {
    pub(super) fn secrets(&self, target: &Target) -> Vec<SecretHit> {
        let mut hits = Vec::new();
        let mut push = |r: &paths::Resolved, access: Access| {
            if let Some(why) = paths::secret(r, access == Access::Write) {
                hits.push(SecretHit {
                    path: if paths::secret_path(&r.real, access == Access::Write).is_some() {
                        r.real.clone()
                    } else {
                        r.lexical.clone()
                    },
                    why,
                    access,
                });
            }
        };
        match target {
            Target::Command(c) => {
                for (_, r) in &c.writes {
                    push(r, Access::Write);
                }
                for (_, r) in &c.reads {
                    push(r, Access::Read);
                }
                for (_, p) in &c.secret_globs {
                    hits.push(SecretHit {
                        path: p.clone(),
                        why: "a pattern that can expand to secret files",
                        access: Access::Read,
                    });
                }
            }
            Target::Path(r, access) => push(r, *access),
            Target::Url(_) | Target::Other => {}
        }
        hits
    }

    /// Whether an allow rule or session grant names the secret file.
    pub(super) fn secret_lifted(&self, hit: &SecretHit, target: &Target) -> bool {
        let tool = if hit.access == Access::Write {
            "edit"
        } else {
            "read"
        };
        let names_it = |r: &Rule| {
            r.covers_tool(tool)
                && (hit.access == Access::Write || r.is_read_rule())
                && matches!(r.spec(), Some(Spec::Path(p)) if p.matches(&hit.path, &self.roots, self.home.as_deref()))
        };
        if self.allow_rules().any(names_it) {
            return true;
        }
        // `Bash(cat .env)` names the file too, when every part is allowed exactly.
        if let Target::Command(c) = target {
            return c.parts.iter().all(|p| {
                self.allow_rules().any(|r| {
                    r.covers_tool("bash")
                        && matches!(r.spec(), Some(Spec::Command(cp @ CommandPat::Exact(_))) if cp.matches(&p.raw) || cp.matches(&p.argv))
                })
            });
        }
        false
    }

    /// A Read/Edit/Write deny rule naming a file the command reads or writes.
    pub(super) fn command_paths_denied(&self, c: &super::Cmd) -> Option<&Rule> {
        let home = self.home.as_deref();
        let hits = |pat: &crate::rule::PathPat, list: &[(usize, paths::Resolved)]| {
            list.iter().any(|(_, r)| {
                pat.matches(&r.real, &self.roots, home)
                    || pat.matches(&r.lexical, &self.roots, home)
            })
        };
        self.rules.deny.iter().find(|rule| match rule.spec() {
            Some(Spec::Path(pat)) => {
                (rule.is_read_rule() && hits(pat, &c.reads))
                    || (rule.covers_tool("write") && hits(pat, &c.writes))
            }
            _ => false,
        })
    }

    pub(super) fn allow_rules(&self) -> impl Iterator<Item = &Rule> {
        self.rules.allow.iter().chain(self.session.iter())
    }

    /// Whether `rule` (already known to cover the tool) matches the call.
    pub(super) fn rule_matches(&self, rule: &Rule, target: &Target, purpose: MatchFor) -> bool {
        let Some(spec) = rule.spec() else {
            return true;
        };
        match (spec, target) {
            (Spec::Command(pat), Target::Command(c)) => match purpose {
                MatchFor::Deny => c.parts.iter().any(|p| deny_part_matches(pat, p)),
                MatchFor::Allow => c.parts.iter().all(|p| allow_part_matches(pat, p)),
            },
            (Spec::Path(pat), Target::Path(r, _)) => {
                let home = self.home.as_deref();
                match purpose {
                    // A deny names the file however it is reached.
                    MatchFor::Deny => {
                        pat.matches(&r.real, &self.roots, home)
                            || pat.matches(&r.lexical, &self.roots, home)
                    }
                    MatchFor::Allow => pat.matches(&r.real, &self.roots, home),
                }
            }
            (Spec::Domain(d), Target::Url(host)) => {
                host == d
                    || d.strip_prefix("*.")
                        .is_some_and(|base| host.ends_with(&format!(".{base}")))
            }
            _ => false,
        }
    }

    /// Every part allowed by some allow rule or grant (rules may differ per part).
    pub(super) fn allowed_by_rules(&self, tool: &str, target: &Target) -> bool {
        let rules: Vec<&Rule> = self
            .allow_rules()
            .filter(|r| super::covers(r, tool, target))
            .collect();
        match target {
            Target::Command(c) => {
                if rules.iter().any(|r| r.spec().is_none()) {
                    return true;
                }
                !c.parts.is_empty()
                    && c.parts.iter().enumerate().all(|(i, p)| {
                        let words_ok = (p.argv.is_empty() && !p.unsafe_env && p.opaque.is_none())
                            || rules.iter().any(|r| matches!(r.spec(), Some(Spec::Command(pat)) if allow_part_matches(pat, p)));
                        words_ok && self.part_writes_allowed(c, i, p)
                    })
            }
            _ => rules
                .iter()
                .any(|r| self.rule_matches(r, target, MatchFor::Allow)),
        }
    }

    /// A redirection into a workspace file is an edit: it needs an Edit rule,
    /// or a mode that allows edits.
    fn part_writes_allowed(&self, c: &super::Cmd, i: usize, p: &Part) -> bool {
        if p.redirects
            .iter()
            .any(|r| r.kind == RedirectKind::Write && r.target.dynamic)
        {
            return false;
        }
        let mode_allows = matches!(
            self.mode,
            super::Mode::AcceptEdits | super::Mode::Auto | super::Mode::Bypass
        );
        c.writes.iter().filter(|(j, _)| *j == i).all(|(_, r)| {
            mode_allows
                || (!paths::inside(&r.real, &self.roots) && paths::inside(&r.real, &self.scratch))
                || self.allow_rules().any(|rule| {
                    rule.covers_tool("edit")
                        && matches!(rule.spec(), Some(Spec::Path(pp)) if pp.matches(&r.real, &self.roots, self.home.as_deref()))
                })
        })
    }

    /// What "always allow" should store for this call: as narrow as useful.
    pub fn suggest_rule(&self, call: &CallInfo<'_>) -> Rule {
        let tool = canonical_tool(call.tool);
        let target = self.target(call);
        self.suggest_for(call, &tool, &target)
    }

    pub(super) fn suggest_for(&self, call: &CallInfo<'_>, tool: &str, target: &Target) -> Rule {
        match target {
            Target::Command(c) => {
                let rules: Vec<&Rule> = self
                    .allow_rules()
                    .filter(|r| r.covers_tool("bash"))
                    .collect();
                let part = c
                    .parts
                    .iter()
                    .filter(|p| !p.argv.is_empty())
                    .find(|p| {
                        !rules.iter().any(|r| matches!(r.spec(), Some(Spec::Command(pat)) if allow_part_matches(pat, p)))
                    })
                    .or_else(|| c.parts.iter().find(|p| !p.argv.is_empty()));
                match part {
                    Some(p) => suggest_command(p),
                    None => Rule::command(vec![c.text.trim().to_owned()], true),
                }
            }
            Target::Path(r, access) => {
                let rule_tool = match (access, tool) {
                    (Access::Write, _) => "Edit",
                    (Access::Read, "grep") => "Grep",
                    (Access::Read, "glob") => "Glob",
                    (Access::Read, "ls") => "LS",
                    (Access::Read, _) => "Read",
                };
                Rule::exact_path(rule_tool, &r.real, &self.roots)
            }
            Target::Url(host) if !host.is_empty() => Rule::tool_only(call.tool, Some(host.clone())),
            _ => Rule::tool_only(call.tool, None),
        }
    }
}

pub(super) fn suggest_command(p: &Part) -> Rule {
    let words: Vec<String> = p.argv.iter().map(|w| w.text.clone()).collect();
    let exact = p.opaque.is_some()
        || p.privileged
        || p.unsafe_env
        || p.argv.iter().any(|w| w.dynamic)
        || EXACT_ONLY.contains(&words[0].rsplit('/').next().unwrap_or_default());
    if exact {
        return Rule::command(words, true);
    }
    let is_sub = |w: &Word| {
        !w.dynamic
            && !w.glob
            && !w.text.starts_with('-')
            && !w.text.is_empty()
            && w.text
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
    };
    let mut n = 1;
    if !words[0].contains('/') && p.argv.get(1).is_some_and(is_sub) {
        n = 2;
        if RUNNERS.contains(&words[1].as_str()) && p.argv.get(2).is_some_and(is_sub) {
            n = 3;
        }
    }
    Rule::command(words[..n].to_vec(), false)
}

/// Allow: the peeled command must match, unless a privilege or environment
/// wrapper, or `xargs` (which adds arguments), was peeled (then only the
/// command as written may match). A prefix or wildcard rule never allows a
/// command the read-only allowlist knows with options that write or run
/// programs (`Bash(git diff:*)` does not allow `git diff --output=x`),
/// unless the rule's own words already name such a use (`Bash(sed -i:*)`).
pub(super) fn allow_part_matches(pat: &CommandPat, p: &Part) -> bool {
    if p.opaque.is_some() {
        return false;
    }
    if p.argv.is_empty() {
        return !p.unsafe_env;
    }
    let by_argv = !p.privileged && !p.unsafe_env && !p.fed && pat.matches(&p.argv);
    let words = if by_argv {
        &p.argv
    } else if pat.matches(&p.raw) {
        &p.raw
    } else {
        return false;
    };
    if matches!(pat, CommandPat::Exact(_)) {
        return true;
    }
    // A prefix rule never allows a later option that runs a program, loads
    // configuration that can name one, or writes elsewhere (see
    // `risky_options`); a wildcard rule only when its own text names it.
    let own = pat.literal_words().len();
    let risky = crate::risky_options::risky_option(words, own).filter(|opt| match pat {
        CommandPat::Wildcard(text) => !text.contains(opt.split('=').next().unwrap_or(opt)),
        _ => true,
    });
    risky.is_none() && prefix_may_allow(pat, p)
}

fn prefix_may_allow(pat: &CommandPat, p: &Part) -> bool {
    use wright_shell::readonly::{Class, classify};
    match crate::classify::class(p) {
        Class::NotReadOnly(_) => {
            // The rule opts in only if its own words cannot make a
            // read-only command even with a plain operand (`sed -i`).
            let mut words = pat.literal_words();
            words.push("p");
            !classify(&words).is_read_only()
        }
        Class::ReadOnly | Class::Unlisted => true,
    }
}

/// Deny and ask: any form of the command matches, including `/bin/rm` for `rm`.
fn deny_part_matches(pat: &CommandPat, p: &Part) -> bool {
    if pat.matches(&p.argv) || pat.matches(&p.raw) {
        return true;
    }
    let based = |ws: &[Word]| -> Option<Vec<Word>> {
        let first = ws.first()?;
        let name = first.text.rsplit('/').next()?;
        (name != first.text).then(|| {
            let mut v = ws.to_vec();
            v[0].text = name.to_owned();
            v
        })
    };
    if based(&p.argv).is_some_and(|v| pat.matches(&v)) {
        return true;
    }
    // A program off the allowlist may run a command named in its arguments
    // (`flock L rm`, `cargo run -- rm`): when unsure, a deny errs on matching.
    let Some(prog) = p.argv.first().or(p.raw.first()) else {
        return false;
    };
    let name = prog.text.rsplit('/').next().unwrap_or(&prog.text);
    if wright_shell::readonly::is_listed(name) && !crate::wrappers::is_wrapper(name) {
        return false;
    }
    let words = if p.argv.is_empty() { &p.raw } else { &p.argv };
    (1..words.len()).any(|i| {
        let rest = &words[i..];
        !rest[0].text.starts_with('-')
            && (pat.matches(rest) || based(rest).is_some_and(|v| pat.matches(&v)))
    })
}
