//! What "always allow" stores for a call that asks: one rule per part of a
//! command chain that no rule allows yet (each the rule the part would get
//! alone), none for a part no rule may allow, and whether the same call
//! would still ask once they are stored (checked, not guessed, by asking a
//! copy of the engine that has them).

use super::{CallInfo, Engine, Target, Verdict};
use crate::classify;
use crate::rule::{Rule, Spec};

/// The rules "always allow" would store for one call, and whether that is
/// enough for the same call not to ask again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AlwaysRules {
    /// The rules to store, in the order of the parts they allow.
    pub rules: Vec<Rule>,
    /// Why the same call would still ask with `rules` stored (a dangerous
    /// or unparsed part, an ask rule, a write that needs an edit rule);
    /// `None` when it would run without asking.
    pub still_asks: Option<String>,
}

impl Engine {
    /// What "always allow" should store for `call`, which asked with
    /// `asked` as its suggestion. For a command: the narrow rule of every
    /// part not yet allowed, except parts that ask whatever the rules say
    /// (dangerous, privileged, not fully parsed), which get no rule and
    /// make `still_asks` say so. Other calls get `asked`.
    pub fn always_rules(&self, call: &CallInfo<'_>, asked: &Rule) -> AlwaysRules {
        let target = self.target(call);
        let mut rules: Vec<Rule> = Vec::new();
        let mut still_asks = None;
        match &target {
            Target::Command(c) => {
                let existing: Vec<&Rule> = self
                    .allow_rules()
                    .filter(|r| r.covers_tool("bash"))
                    .collect();
                let allows = |rule: &Rule, p: &crate::command::Part| matches!(rule.spec(), Some(Spec::Command(pat)) if super::matching::allow_part_matches(pat, p));
                for p in &c.parts {
                    if p.argv.is_empty() && p.opaque.is_none() {
                        continue;
                    }
                    if existing.iter().any(|r| allows(r, p)) {
                        continue;
                    }
                    if let Some(why) = classify::danger(p) {
                        still_asks.get_or_insert_with(|| {
                            format!("`{}` asks every time: {why}", p.display())
                        });
                        continue;
                    }
                    let rule = super::matching::suggest_command(p);
                    if !allows(&rule, p) {
                        // Only the command as written (wrappers and
                        // variables included) could match: no narrow rule.
                        still_asks.get_or_insert_with(|| {
                            format!("`{}` asks every time: no rule can match it", p.display())
                        });
                        continue;
                    }
                    if !rules.contains(&rule) {
                        rules.push(rule);
                    }
                }
                // A secret file the command names needs the guard's own rule.
                if !asked.covers_tool("bash") && !rules.contains(asked) {
                    rules.push(asked.clone());
                }
            }
            _ => rules.push(asked.clone()),
        }
        if still_asks.is_none() {
            let mut after = self.clone();
            for rule in &rules {
                after.grant_session(rule.clone());
            }
            if let Verdict::Ask { reason, .. } = after.check(call) {
                still_asks = Some(reason);
            }
        }
        AlwaysRules { rules, still_asks }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use serde_json::json;
    use wright_protocol::ToolKind;

    use super::*;
    use crate::{CanAsk, Mode, PolicyInput, RuleSet};

    fn engine(dir: &Path, mode: Mode, allow: &[&str]) -> Engine {
        Engine::new(PolicyInput {
            mode,
            rules: RuleSet::parse(allow, &[] as &[&str], &[] as &[&str]).unwrap(),
            workspace_roots: vec![dir.to_path_buf()],
            can_ask: CanAsk::Yes,
            home: None,
            temp_roots: Vec::new(),
            commands: crate::CommandConfinement::default(),
        })
    }

    /// The verdict and, when it asks, what "always" would store.
    fn ask(e: &Engine, dir: &Path, command: &str) -> (Verdict, Option<AlwaysRules>) {
        let args = json!({ "command": command });
        let call = CallInfo {
            tool: "Bash",
            touches: &crate::test_fx::touches("Bash", ToolKind::Exec, &args),
            cwd: dir,
        };
        let verdict = e.check(&call);
        let always = match &verdict {
            Verdict::Ask { suggestion, .. } => Some(e.always_rules(&call, suggestion)),
            _ => None,
        };
        (verdict, always)
    }

    fn texts(a: &AlwaysRules) -> Vec<&str> {
        a.rules.iter().map(Rule::as_str).collect()
    }

    #[test]
    fn a_chain_gets_one_rule_per_part_and_then_runs_without_asking() {
        let dir = tempfile::tempdir().unwrap();
        let mut e = engine(dir.path(), Mode::Default, &[]);
        let chain = "cargo build && cargo test | head -5";
        let (_, always) = ask(&e, dir.path(), chain);
        let always = always.unwrap();
        assert_eq!(
            texts(&always),
            ["Bash(cargo build:*)", "Bash(cargo test:*)", "Bash(head:*)"]
        );
        assert_eq!(always.still_asks, None);
        for rule in always.rules {
            e.grant_session(rule);
        }
        assert_eq!(ask(&e, dir.path(), chain).0, Verdict::Allow);
    }

    #[test]
    fn parts_already_allowed_get_no_second_rule() {
        let dir = tempfile::tempdir().unwrap();
        let e = engine(dir.path(), Mode::Default, &["Bash(cargo build:*)"]);
        let (_, always) = ask(&e, dir.path(), "cargo build && make check");
        assert_eq!(texts(&always.unwrap()), ["Bash(make check:*)"]);
    }

    #[test]
    fn a_dangerous_or_unparsed_part_gets_no_rule_and_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let e = engine(dir.path(), Mode::Default, &[]);
        let (_, always) = ask(&e, dir.path(), "make && rm -rf build");
        let always = always.unwrap();
        assert_eq!(texts(&always), ["Bash(make:*)"]);
        let why = always.still_asks.unwrap();
        assert!(why.contains("rm -rf build"), "{why}");
        let (_, always) = ask(&e, dir.path(), "sudo make install");
        let always = always.unwrap();
        assert!(always.rules.is_empty());
        assert!(always.still_asks.is_some());
        let (_, always) = ask(&e, dir.path(), "ls && $CMD");
        let always = always.unwrap();
        assert!(
            texts(&always).iter().all(|r| !r.contains("CMD")),
            "{always:?}"
        );
        assert!(always.still_asks.is_some());
    }

    #[test]
    fn a_write_the_rules_cannot_cover_still_asks() {
        let dir = tempfile::tempdir().unwrap();
        let e = engine(dir.path(), Mode::Default, &[]);
        // A redirect into the workspace is an edit: a Bash rule alone does not allow it.
        let (_, always) = ask(&e, dir.path(), "cargo build > out.txt");
        let always = always.unwrap();
        assert_eq!(texts(&always), ["Bash(cargo build:*)"]);
        assert!(always.still_asks.is_some());
    }

    #[test]
    fn other_tools_store_the_suggestion() {
        let dir = tempfile::tempdir().unwrap();
        let e = engine(dir.path(), Mode::Default, &[]);
        let args =
            json!({ "file_path": dir.path().join("a.rs"), "old_string": "a", "new_string": "b" });
        let call = CallInfo {
            tool: "Edit",
            touches: &crate::test_fx::touches("Edit", ToolKind::Edit, &args),
            cwd: dir.path(),
        };
        let Verdict::Ask { suggestion, .. } = e.check(&call) else {
            panic!("an edit asks in default mode");
        };
        let always = e.always_rules(&call, &suggestion);
        assert_eq!(always.rules, [suggestion]);
        assert_eq!(always.still_asks, None);
    }
}
