//! Hooks, the verifier and background commands through the real binary:
//! the issue's "done when" cases, with hooks configured the way a user of
//! Claude Code writes them, commands in wright's OS sandbox, and a real
//! `cargo check` in a temp Cargo project.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, ndjson, stderr};

/// One round's tool results: call id, content, is_error.
type Round = Vec<(String, String, bool)>;

/// Runs `-p go` against a mock that asks for each list of calls in turn and
/// then answers "done"; returns the run and each round's tool results.
fn rounds(
    env: &Env,
    rounds: &[&[(&str, &str, serde_json::Value)]],
    args: &[&str],
) -> (std::process::Output, Vec<Round>) {
    rounds_with(env, rounds, args, &[])
}

/// [`rounds`] with extra environment variables. Each round's results are
/// that round's calls only.
fn rounds_with(
    env: &Env,
    rounds: &[&[(&str, &str, serde_json::Value)]],
    args: &[&str],
    vars: &[(&str, std::ffi::OsString)],
) -> (std::process::Output, Vec<Round>) {
    let mut script: Vec<MockResponse> = rounds
        .iter()
        .map(|list| MockResponse::sse(anthropic::tool_calls(list)))
        .collect();
    script.push(MockResponse::sse(anthropic::text("done")));
    let server = MockServer::start(script).unwrap();
    let mut cmd = env.wright_p("anthropic", &server.url(), "go");
    cmd.args(args);
    for (k, v) in vars {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let mut seen = 0;
    let results = server.requests()[1..]
        .iter()
        .map(|r| {
            // Each request carries the whole history: keep this round's part.
            let all = tool_results("anthropic", r);
            let new = all[seen.min(all.len())..].to_vec();
            seen = all.len();
            new
        })
        .collect();
    (out, results)
}

/// A user config with these hook tables, and the scripts they call.
fn user_hooks(env: &Env, toml: &str) {
    env.write_user_config(toml);
}

#[test]
fn a_bash_hook_exiting_2_blocks_rm_and_a_json_deny_beats_an_allow_rule() {
    let env = Env::new();
    env.write("keep.txt", "x\n");
    let script = env.home.path().join("guard-rm.sh");
    std::fs::write(
        &script,
        r#"#!/bin/bash
input=$(cat)
cmd=$(printf '%s' "$input" | python3 -c 'import json,sys; print(json.load(sys.stdin)["tool_input"]["command"])')
case "$cmd" in
  rm\ *) echo "rm is not allowed here; move files to ./trash instead" >&2; exit 2 ;;
  touch\ *) echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"no new files today"}}' ;;
esac
exit 0
"#,
    )
    .unwrap();
    user_hooks(
        &env,
        &format!(
            "[[hooks.PreToolUse]]\nmatcher = \"Bash\"\nhooks = [{{ type = \"command\", command = \"bash {}\" }}]\n",
            script.display()
        ),
    );
    let (out, results) = rounds(
        &env,
        &[&[
            ("c1", "Bash", json!({"command": "rm keep.txt"})),
            ("c2", "Bash", json!({"command": "touch new.txt"})),
            ("c3", "Bash", json!({"command": "echo allowed"})),
        ]],
        &["--allow", "Bash(*)"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let r = &results[0];
    assert_eq!(
        r[0].1,
        "Blocked by hook: rm is not allowed here; move files to ./trash instead"
    );
    assert_eq!(r[1].1, "Blocked by hook: no new files today");
    assert!(r[2].1.contains("allowed") && !r[2].2, "{r:?}");
    assert!(env.path("keep.txt").exists());
    assert!(!env.path("new.txt").exists());
    // Every hook run is shown.
    let err = stderr(&out);
    assert!(err.contains("hook PreToolUse"), "{err}");
}

/// Hooks as Claude Code's documentation writes them, in a trusted
/// project's `.claude/settings.json`: a Python validator on `Bash`, a
/// logger on `Edit|Write` (Python standing in for the docs' `jq`, which a
/// machine may lack), and an `mcp__.*` matcher that must
/// not fire for built-in tools.
#[test]
fn hook_configurations_copied_from_claude_code_work_unchanged() {
    let env = Env::new();
    env.write(
        ".claude/hooks/validate.py",
        r#"import json, re, sys
data = json.load(sys.stdin)
if data.get("tool_name") != "Bash":
    sys.exit(0)
command = data.get("tool_input", {}).get("command", "")
if re.search(r"\bgrep\b(?!.*\|)", command):
    print("Use 'rg' (ripgrep) instead of 'grep' for better performance", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
"#,
    );
    env.write(
        ".claude/settings.json",
        r#"{
  "hooks": {
    "PreToolUse": [
      {"matcher": "Bash", "hooks": [{"type": "command", "command": "python3 \"$CLAUDE_PROJECT_DIR\"/.claude/hooks/validate.py"}]},
      {"matcher": "mcp__.*", "hooks": [{"type": "command", "command": "echo mcp >> \"$CLAUDE_PROJECT_DIR\"/mcp.log"}]}
    ],
    "PostToolUse": [
      {"matcher": "Edit|Write", "hooks": [{"type": "command", "command": "python3 -c 'import json,sys; print(json.load(sys.stdin)[\"tool_input\"][\"file_path\"])' >> \"$CLAUDE_PROJECT_DIR\"/edits.log"}]}
    ]
  }
}"#,
    );
    user_hooks(&env, "[hooks]\nimport_claude_settings = true\n");
    let (out, results) = rounds(
        &env,
        &[&[
            ("c1", "Bash", json!({"command": "grep -r foo ."})),
            (
                "c2",
                "Write",
                json!({"file_path": "a.txt", "content": "a\n"}),
            ),
            ("c3", "Bash", json!({"command": "echo ran"})),
        ]],
        &["--trust-project", "--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let r = &results[0];
    assert_eq!(
        r[0].1,
        "Blocked by hook: Use 'rg' (ripgrep) instead of 'grep' for better performance"
    );
    assert!(r[1].1.contains("a.txt") && !r[1].2, "{r:?}");
    assert!(r[2].1.contains("ran"), "{r:?}");
    let edits = std::fs::read_to_string(env.path("edits.log")).unwrap();
    assert_eq!(edits.trim(), "a.txt");
    assert!(!env.path("mcp.log").exists());

    // Without trust the same files run nothing.
    let (out, results) = rounds(
        &env,
        &[&[("c1", "Bash", json!({"command": "grep -r foo ."}))]],
        &["--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        !results[0][0].1.starts_with("Blocked by hook"),
        "{results:?}"
    );
    assert!(stderr(&out).contains("not trusted"), "{}", stderr(&out));
}

#[test]
fn an_edit_that_breaks_a_cargo_build_gets_the_compiler_error_in_its_result() {
    let env = Env::new();
    env.write(
        "Cargo.toml",
        "[package]\nname = \"broken\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    );
    env.write("src/lib.rs", "pub fn answer() -> u32 {\n    42\n}\n");
    // The user's toolchain, as a user's own HOME would find it.
    let home = std::path::PathBuf::from(std::env::var_os("HOME").unwrap_or_default());
    let toolchain: Vec<(&str, std::ffi::OsString)> = vec![
        (
            "RUSTUP_HOME",
            std::env::var_os("RUSTUP_HOME").unwrap_or_else(|| home.join(".rustup").into()),
        ),
        (
            "CARGO_HOME",
            std::env::var_os("CARGO_HOME").unwrap_or_else(|| home.join(".cargo").into()),
        ),
    ];
    let (out, results) = rounds_with(
        &env,
        &[
            &[(
                "c1",
                "Edit",
                json!({"file_path": "src/lib.rs", "old_string": "    42\n", "new_string": "    \"forty-two\"\n"}),
            )],
            &[(
                "c2",
                "Edit",
                json!({"file_path": "src/lib.rs", "old_string": "    \"forty-two\"\n", "new_string": "    42\n"}),
            )],
        ],
        &[
            "--permission-mode",
            "accept-edits",
            "--allow",
            "Bash(cargo check:*)",
            "--output-format",
            "json",
        ],
        &toolchain,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let broken = &results[0][0].1;
    assert!(broken.contains("[verifier: cargo check"), "{broken}");
    assert!(broken.contains("error[E0308]"), "{broken}");
    assert!(broken.contains("src/lib.rs:2"), "{broken}");
    let fixed = &results[1][0].1;
    assert!(fixed.contains("no errors in the edited files"), "{fixed}");
    let result: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["verifier"], json!({"runs": 2, "errors": 0}));

    // The checker runs the project's build, so it is a command like any
    // other: without a rule allowing it, this headless run may not run it.
    let (out, results) = rounds_with(
        &env,
        &[&[(
            "c1",
            "Edit",
            json!({"file_path": "src/lib.rs", "old_string": "    42\n", "new_string": "    43\n"}),
        )]],
        &["--permission-mode", "accept-edits"],
        &toolchain,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let refused = &results[0][0].1;
    assert!(
        refused.contains("[verifier: cargo check was not run")
            && refused.contains("--allow 'Bash(cargo check:*)'"),
        "{refused}"
    );
    assert!(
        stderr(&out).contains("could not give a verdict"),
        "{}",
        stderr(&out)
    );

    // --no-verify runs nothing.
    let (out, results) = rounds_with(
        &env,
        &[&[(
            "c1",
            "Edit",
            json!({"file_path": "src/lib.rs", "old_string": "    42\n", "new_string": "    \"forty-two\"\n"}),
        )]],
        &["--permission-mode", "accept-edits", "--no-verify"],
        &toolchain,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!results[0][0].1.contains("[verifier"), "{results:?}");
}

#[test]
fn a_background_command_is_read_stopped_and_gone_when_the_session_ends() {
    let env = Env::new();
    // Each job holds a lock on its file for as long as it lives.
    let job = |name: &str| {
        json!({
            "command": format!("exec 9>{name}.lock && flock 9 && echo locked {name} && sleep 300"),
            "run_in_background": true,
        })
    };
    let (out, results) = rounds(
        &env,
        &[
            &[("c1", "Bash", job("one")), ("c2", "Bash", job("two"))],
            &[
                ("c3", "Bash", json!({"command": "sleep 1"})),
                ("c4", "BashOutput", json!({"bash_id": "bash_1"})),
                (
                    "c5",
                    "BashOutput",
                    json!({"bash_id": "bash_2", "filter": "locked"}),
                ),
            ],
            &[("c6", "KillShell", json!({"shell_id": "bash_1"}))],
        ],
        &[
            "--permission-mode",
            "bypass",
            "--output-format",
            "stream-json",
            "--verbose",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        results[0][0].1.contains("Started background job bash_1"),
        "{results:?}"
    );
    assert!(
        results[0][1].1.contains("Started background job bash_2"),
        "{results:?}"
    );
    assert_eq!(
        results[1][1].1, "locked one\nstatus: running",
        "{results:?}"
    );
    assert_eq!(
        results[1][2].1, "locked two\nstatus: running",
        "{results:?}"
    );
    assert_eq!(
        results[2][0].1, "Killed background job bash_1",
        "{results:?}"
    );
    assert!(!ndjson(&out).is_empty());
    // Once wright has exited, neither job holds its lock: the killed one
    // and the one left running are both gone.
    // The group got its signal before wright exited; a loaded machine may
    // take a moment to deliver it to the group's last member.
    for name in ["one", "two"] {
        let file = std::fs::File::open(env.path(&format!("{name}.lock"))).unwrap();
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
        while file.try_lock().is_err() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        assert!(file.try_lock().is_ok(), "job {name} still runs");
    }
}

/// Whatever config a repository's git reads (here set directly, as a
/// planted `commondir` would make git read it), git run by a hook starts
/// no fsmonitor program.
#[test]
fn a_hooks_git_runs_no_fsmonitor_from_the_repository_config() {
    let env = Env::new();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(env.project.path())
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    };
    git(&["init", "-q"]);
    let pwned = env.path("PWNED");
    git(&[
        "config",
        "core.fsmonitor",
        &format!("touch {}", pwned.display()),
    ]);
    env.write("a.txt", "x\n");
    user_hooks(
        &env,
        "[[hooks.PostToolUse]]\nhooks = [{ type = \"command\", command = \"git status >/dev/null 2>&1; true\" }]\n",
    );
    let (out, _) = rounds(
        &env,
        &[&[("c1", "Bash", json!({"command": "echo hi"}))]],
        &["--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("hook PostToolUse"),
        "{}",
        stderr(&out)
    );
    assert!(
        !pwned.exists(),
        "the repository's fsmonitor ran from a hook"
    );
}

/// A nested repository (here made before the session, as a command racing
/// the sweep would leave it) added as a gitlink, whose own config runs a
/// clean filter: git run by a hook does not enter it.
#[test]
fn a_hooks_git_does_not_descend_into_a_nested_repository() {
    let env = Env::new();
    let pwned = env.path("PWNED");
    let script = format!(
        "git init -q && git init -q sub && cd sub && \
         git config filter.evil.clean 'touch {p}; cat' && \
         echo '* filter=evil' > .gitattributes && echo a > f && \
         git add -A && git -c user.name=t -c user.email=t@t commit -q -m s && rm -f {p} && \
         echo b > f && cd .. && git add sub && \
         git -c user.name=t -c user.email=t@t commit -q -m outer",
        p = pwned.display()
    );
    let ok = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(env.project.path())
        .status()
        .unwrap()
        .success();
    assert!(ok);
    assert!(!pwned.exists());
    user_hooks(
        &env,
        "[[hooks.PostToolUse]]\nhooks = [{ type = \"command\", command = \"git status >/dev/null 2>&1; true\" }]\n",
    );
    let (out, _) = rounds(
        &env,
        &[&[("c1", "Bash", json!({"command": "echo hi"}))]],
        &["--permission-mode", "bypass"],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("hook PostToolUse"),
        "{}",
        stderr(&out)
    );
    assert!(
        !pwned.exists(),
        "the nested repository's filter ran from a hook"
    );
}
