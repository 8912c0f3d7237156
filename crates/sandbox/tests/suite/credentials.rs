//! Credential files of the user's tools, generated per file and per way of
//! reading it, each judged by its effect: the marker never reaches the
//! command's output, in workspace-write and read-only mode alike, while the
//! unconfined control reads it.

use std::path::{Path, PathBuf};
use std::process::Stdio;

use wright_sandbox::{SandboxPolicy, applied_by_helper, command};

use super::{HELPER, dirs, supported};

const MARK: &str = "cr3d-m4rker";

fn run_home(policy: &SandboxPolicy, script: &str, cwd: &Path, env: &[(&str, &Path)]) -> String {
    let mut cmd = command(policy, script, Path::new(HELPER)).unwrap();
    cmd.current_dir(cwd).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// Home credential files (also under custom XDG dirs), wright's own data
/// dir, SSH keys by any name, and `.env` files in the directories the
/// workspace search skips are unreadable to commands; what they need to
/// work (`known_hosts`, public keys, a worktree in the data dir) stays.
#[test]
fn credential_files_are_unreadable_to_commands() {
    if !supported("credentials") {
        return;
    }
    let ns = applied_by_helper(
        Path::new(HELPER),
        &SandboxPolicy::workspace_write(Vec::new()),
    );
    if !ns.is_ok_and(|a| a.namespaces.is_some_and(|n| n.read_only_root)) {
        eprintln!("SKIPPED credentials: no namespaces here");
        return;
    }
    let Some(d) = dirs() else { return };
    let home = d.sibling.join("home");
    let config = d.sibling.join("xdg-config");
    let data = d.sibling.join("xdg-data");
    let secret_files: Vec<PathBuf> = [
        ".npmrc",
        ".codex/auth.json",
        ".claude/.credentials.json",
        ".vault-token",
        ".terraform.d/credentials.tfrc.json",
        ".gem/credentials",
        ".ssh/work_key",
        ".ssh/deploy",
        ".ssh/keys/ci",
    ]
    .iter()
    .map(|r| home.join(r))
    .chain([
        config.join("gh/hosts.yml"),
        data.join("wright/mcp-auth/server.json"),
        data.join("wright/sessions/other-project/s1.jsonl"),
        data.join("wright/spill/other-session/out.txt"),
        d.ws.join("build/.env"),
        d.ws.join("dist/web/.env.production"),
        d.ws.join("target/.env"),
        d.ws.join("vendor/pkg/.env"),
    ])
    .collect();
    for f in &secret_files {
        std::fs::create_dir_all(f.parent().unwrap()).unwrap();
        std::fs::write(f, format!("token={MARK}\n")).unwrap();
    }
    // What must stay readable.
    std::fs::write(home.join(".ssh/known_hosts"), "host ok-known\n").unwrap();
    std::fs::write(home.join(".ssh/work_key.pub"), "ssh-ed25519 ok-pub\n").unwrap();
    let worktree = data.join("wright/worktrees/proj/child");
    std::fs::create_dir_all(&worktree).unwrap();
    std::fs::write(worktree.join("main.rs"), "ok-worktree\n").unwrap();
    let env = [
        ("HOME", home.as_path()),
        ("XDG_CONFIG_HOME", config.as_path()),
        ("XDG_DATA_HOME", data.as_path()),
    ];
    let readers = [
        "cat {f}",
        "cat \"$(dirname {f})\"/*",
        "python3 -c \"print(open('{f}').read())\"",
        "cp {f} /tmp/stolen-$$ && cat /tmp/stolen-$$; rm -f /tmp/stolen-$$",
        "grep -r token $(dirname {f}) 2>/dev/null",
        "tar cf - -C $(dirname {f}) . 2>/dev/null | strings",
        "cd $(dirname {f}) && cat $(basename {f})",
    ];
    let policies = [
        SandboxPolicy::workspace_write(vec![d.ws.clone()]),
        SandboxPolicy::read_only(),
    ];
    let mut tried = 0;
    for f in &secret_files {
        for r in readers {
            let script = r.replace("{f}", &f.display().to_string());
            for p in &policies {
                let out = run_home(p, &script, &d.ws, &env);
                tried += 1;
                assert!(
                    !out.contains(MARK),
                    "read {} with: {script}\n{out}",
                    f.display()
                );
            }
        }
    }
    assert!(tried >= 200, "{tried}");
    // Computed names: every key in ~/.ssh, whatever it is called.
    let out = run_home(
        &policies[0],
        "for f in $HOME/.ssh/* $HOME/.ssh/.*; do cat \"$f\"; done 2>/dev/null; ls -R $HOME/.ssh",
        &d.ws,
        &env,
    );
    assert!(!out.contains(MARK), "{out}");
    assert!(out.contains("ok-known") && out.contains("ok-pub"), "{out}");
    // A subagent's worktree in the data dir is its workspace.
    let mut child = SandboxPolicy::workspace_write(vec![worktree.clone()]);
    child.workspace_roots = vec![worktree.clone()];
    let out = run_home(
        &child,
        "cat main.rs && echo x > new.rs && echo wrote",
        &worktree,
        &env,
    );
    assert!(
        out.contains("ok-worktree") && out.contains("wrote"),
        "{out}"
    );
    // Control: unconfined, every one of them is read.
    for f in &secret_files {
        let out = run_home(
            &SandboxPolicy::full(),
            &format!("cat {}", f.display()),
            &d.ws,
            &env,
        );
        assert!(out.contains(MARK), "control {}: {out}", f.display());
    }
}
