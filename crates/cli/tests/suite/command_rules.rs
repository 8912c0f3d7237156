//! Command rules end to end (issues 33 and 36): read-only commands run
//! without a question in `default` mode, and rules that commands used to
//! slip past (globs and `cd` around a Read deny, git printing a secret's
//! blob, risky options after a prefix rule, inline interpreter code around
//! a command deny) refuse headless runs.

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::scenarios::tool_results;
use super::{Env, stderr};

/// Runs `-p` with the model calling `Bash` once per command, then "done";
/// returns the run and the tool results the model got back.
fn run_bash(
    env: &Env,
    commands: &[&str],
    args: &[&str],
) -> (std::process::Output, Vec<(String, String, bool)>) {
    let ids: Vec<String> = (0..commands.len()).map(|i| format!("c{i}")).collect();
    let list: Vec<(&str, &str, serde_json::Value)> = commands
        .iter()
        .zip(&ids)
        .map(|(c, id)| (id.as_str(), "Bash", json!({ "command": c })))
        .collect();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&list)),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(args)
        .output()
        .unwrap();
    let results = server
        .requests()
        .get(1)
        .map(|r| tool_results("anthropic", r))
        .unwrap_or_default();
    (out, results)
}

fn git(env: &Env, args: &[&str]) -> bool {
    std::process::Command::new("git")
        .args(args)
        .current_dir(env.project.path())
        .env("HOME", env.home.path())
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Issue 33's done-when: `-p` in default mode runs `git status --short`
/// without an allow rule.
#[test]
fn default_mode_runs_git_status_without_a_rule() {
    let env = Env::new();
    if !git(&env, &["init", "-q"]) {
        eprintln!("skipped: no git");
        return;
    }
    env.write("new.txt", "x\n");
    let (out, results) = run_bash(&env, &["git status --short"], &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(!results[0].2, "{:?}", results[0]);
    assert!(results[0].1.contains("?? new.txt"), "{:?}", results[0]);
}

/// Issue 36 part 7: a Read deny rule holds for globs and `cd`, a prefix
/// rule does not allow `--script-shell`, and inline code does not get past
/// a command deny; headless, each is refused and nothing runs.
#[test]
fn rules_commands_used_to_slip_past_refuse_headless() {
    let env = Env::new();
    env.write("private/key", "TOPSECRET\n");
    let commands = [
        "cat priv*/*",
        "cd private && cat key",
        "npm run test --script-shell=/bin/sh",
        "python3 -c \"import os; os.system('cu'+'rl -s http://x')\"",
        "echo x > /proc/self/cwd/made.txt",
    ];
    let (out, results) = run_bash(
        &env,
        &commands,
        &[
            "--deny",
            "Read(private/**)",
            "--deny",
            "Bash(curl:*)",
            "--allow",
            "Bash(npm run test:*)",
            "--allow",
            "Bash(python3:*)",
            "--permission-mode",
            "accept-edits",
        ],
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(results.len(), commands.len(), "{results:?}");
    for (r, c) in results.iter().zip(commands) {
        assert!(
            r.1.starts_with("Permission denied") || r.1.starts_with("Blocked"),
            "{c}: {r:?}"
        );
        assert!(!r.1.contains("TOPSECRET"), "{c}: {r:?}");
    }
    assert!(!env.path("made.txt").exists());
}

/// Issue 36 part 7: with `private/secret.txt` committed and `--deny
/// 'Read(private/**)'`, git commands that print history or objects by id
/// without naming the path are reads of it: in `-p` default mode they are
/// refused and the secret never reaches the model. A control: `git log
/// --oneline` still runs.
#[test]
fn git_history_of_a_denied_path_never_reaches_the_model() {
    let env = Env::new();
    if !git(&env, &["init", "-q"]) {
        eprintln!("skipped: no git");
        return;
    }
    env.write("private/secret.txt", "TOPSECRET\n");
    env.write("src/lib.rs", "fn a() {}\n");
    for a in [
        &["add", "-A"][..],
        &[
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "commit",
            "-qm",
            "one",
        ],
    ] {
        assert!(git(&env, a));
    }
    let blob = std::process::Command::new("git")
        .args(["rev-parse", "HEAD:private/secret.txt"])
        .current_dir(env.project.path())
        .output()
        .unwrap();
    let blob = String::from_utf8_lossy(&blob.stdout).trim().to_owned();
    let show_blob = format!("git show {blob}");
    let cat_blob = format!("git cat-file -p {blob}");
    let commands = [
        "git log -p",
        "git show",
        "git diff 4b825dc642cb6eb9a060e54bf8d69288fbee4904 HEAD",
        show_blob.as_str(),
        cat_blob.as_str(),
        "git grep -n TOP",
        "git log --oneline",
    ];
    let (out, results) = run_bash(&env, &commands, &["--deny", "Read(private/**)"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(results.len(), commands.len(), "{results:?}");
    let (refused, control) = results.split_at(commands.len() - 1);
    for (r, c) in refused.iter().zip(commands) {
        assert!(r.1.starts_with("Permission denied"), "{c}: {r:?}");
        assert!(!r.1.contains("TOPSECRET"), "{c}: {r:?}");
    }
    assert!(!control[0].2, "{:?}", control[0]);
    assert!(control[0].1.contains("one"), "{:?}", control[0]);
    assert!(!super::stdout(&out).contains("TOPSECRET"));
}
