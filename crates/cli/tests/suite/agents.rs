//! `wright agents list` through the real binary: the built-in agents, a
//! project's `.wright/agents/*.md`, a broken file reported on stderr by
//! name without failing the command, and the directories config opts into
//! (the user's agents dir, Claude Code's `.claude/agents/`).

use serde_json::Value;

use super::{Env, assert_clean, stderr, stdout};

const REVIEWER: &str = "---\nname: reviewer\ndescription: Reviews code\ntools: Read, Grep\ncolor: blue\n---\n\
     You review code and report problems with file:line references.\n";

/// The project root as wright sees it (the real path of the temp dir).
fn root(env: &Env) -> std::path::PathBuf {
    env.project.path().canonicalize().unwrap()
}

fn agents_list(env: &Env, extra: &[&str]) -> std::process::Output {
    let out = env
        .wright()
        .args(["agents", "list"])
        .args(extra)
        .output()
        .unwrap();
    assert_clean(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    out
}

fn json(out: &std::process::Output) -> Vec<Value> {
    let v: Value = serde_json::from_str(stdout(out).trim()).unwrap();
    v.as_array().unwrap().clone()
}

fn find<'a>(list: &'a [Value], name: &str) -> &'a Value {
    list.iter()
        .find(|a| a["name"] == name)
        .unwrap_or_else(|| panic!("no agent {name} in {list:?}"))
}

#[test]
fn lists_builtins_and_project_agents_and_names_broken_files() {
    let env = Env::new();
    env.write(".wright/agents/reviewer.md", REVIEWER);
    env.write(
        ".wright/agents/broken.md",
        "---\nname: broken agent\ndescription: x\n---\n",
    );
    env.write(".wright/agents/README.txt", "not an agent");
    let out = agents_list(&env, &["--json"]);
    let list = json(&out);
    let names: Vec<&str> = list.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["general", "explore", "reviewer"]);

    let general = find(&list, "general");
    assert_eq!(general["source"], "builtin");
    assert_eq!(general["tools"], Value::Null);
    assert_eq!(general["model"], Value::Null);
    let explore = find(&list, "explore");
    assert_eq!(explore["source"], "builtin");
    assert_eq!(
        explore["tools"],
        serde_json::json!(["Read", "Grep", "Glob", "LS"])
    );
    let reviewer = find(&list, "reviewer");
    let file = root(&env).join(".wright/agents/reviewer.md");
    assert_eq!(reviewer["source"], file.display().to_string());
    assert_eq!(reviewer["tools"], serde_json::json!(["Read", "Grep"]));
    assert_eq!(reviewer["description"], "Reviews code");
    assert_eq!(reviewer["model"], Value::Null);
    assert_eq!(reviewer["permission_mode"], Value::Null);
    assert_eq!(reviewer["max_turns"], Value::Null);
    assert_eq!(reviewer["isolation"], Value::Null);

    let err = stderr(&out);
    let broken = root(&env).join(".wright/agents/broken.md");
    assert!(
        err.contains(&format!("warning: {}", broken.display())) && err.contains("invalid `name`"),
        "{err}"
    );
    assert!(!err.contains("reviewer.md"), "{err}");

    // The text form: one entry of two lines per agent.
    let out = agents_list(&env, &[]);
    let text = stdout(&out);
    assert!(
        text.contains("tools: Read, Grep · model: inherit · ")
            && text.contains(&file.display().to_string()),
        "{text}"
    );
    assert!(
        text.contains("tools: all · model: inherit · built in"),
        "{text}"
    );
    assert!(stderr(&out).contains("broken.md"));
}

#[test]
fn entries_no_child_can_have_are_named_and_the_agent_still_listed() {
    let env = Env::new();
    env.write(
        ".wright/agents/gitter.md",
        "---\nname: gitter\ndescription: git work\ntools: Read, Bash(git diff:*), Frobnicate\n---\nbody\n",
    );
    let out = agents_list(&env, &["--json"]);
    let list = json(&out);
    assert!(list.iter().any(|a| a["name"] == "gitter"));
    let err = stderr(&out);
    assert!(
        err.contains("agent `gitter`: ignoring tools `Bash(git diff:*)`, `Frobnicate`")
            && err.contains("it gets the other 1"),
        "{err}"
    );
}

#[test]
fn user_and_claude_dirs_are_read_only_when_config_opts_in() {
    let env = Env::new();
    env.write(".wright/agents/reviewer.md", REVIEWER);
    env.write(
        ".claude/agents/explore.md",
        "---\nname: explore\ndescription: Claude's explorer\ntools: Read\nmodel: haiku\n---\nLook.",
    );
    let user_agents = env.home.path().join(".config/wright/agents");
    std::fs::create_dir_all(&user_agents).unwrap();
    std::fs::write(
        user_agents.join("helper.md"),
        "---\nname: helper\ndescription: Mine\nmaxTurns: 3\n---\nHelp.",
    )
    .unwrap();

    let list = json(&agents_list(&env, &["--json"]));
    let names: Vec<&str> = list.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["general", "explore", "reviewer"]);
    assert_eq!(find(&list, "explore")["source"], "builtin");

    env.write_user_config("[agents]\nuser_agents = true\nimport_claude_agents = true\n");
    let list = json(&agents_list(&env, &["--json"]));
    let names: Vec<&str> = list.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["general", "explore", "helper", "reviewer"]);
    let explore = find(&list, "explore");
    assert_eq!(
        explore["source"],
        root(&env)
            .join(".claude/agents/explore.md")
            .display()
            .to_string()
    );
    assert_eq!(explore["model"], "haiku");
    assert_eq!(explore["tools"], serde_json::json!(["Read"]));
    let helper = find(&list, "helper");
    assert_eq!(helper["max_turns"], 3);
    assert_eq!(
        helper["source"],
        user_agents.join("helper.md").display().to_string()
    );
}
