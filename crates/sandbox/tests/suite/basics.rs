//! The sandbox's basic promises: writes confined to the roots, read-only
//! mode, everyday tools working, network off, refusal when it cannot apply.

use std::net::TcpListener;
use std::process::Command;

use wright_sandbox::{
    HELPER_ARG, HELPER_ERROR_PREFIX, SandboxMode, SandboxPolicy, Support, denial_hint, probe,
};

use super::{HELPER, dirs, run, supported};

#[test]
fn workspace_write_allows_the_workspace_and_blocks_a_sibling() {
    if !supported("workspace_write") {
        return;
    }
    let Some(d) = dirs() else { return };
    let p = SandboxPolicy::workspace_write(vec![d.ws.clone()]);

    let (code, out) = run(
        &p,
        "touch ok && mkdir -p sub/dir && echo x > sub/dir/f",
        &d.ws,
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(d.ws.join("sub/dir/f").exists());

    let script = format!("touch '{}/x'", d.sibling.display());
    let (code, out) = run(&p, &script, &d.ws);
    assert_ne!(code, Some(0), "{out}");
    assert!(
        out.contains("Permission denied") || out.contains("Read-only file system"),
        "{out}"
    );
    assert!(!d.sibling.join("x").exists());
    let hint = denial_hint(&p, code, &out).expect("a sandbox hint");
    assert!(hint.starts_with("Blocked by sandbox"), "{hint}");

    // The temp dir stays writable.
    let (code, out) = run(&p, "f=$(mktemp) && echo hi > \"$f\" && rm \"$f\"", &d.ws);
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn escapes_through_symlinks_moves_and_links_are_blocked() {
    if !supported("escapes") {
        return;
    }
    let Some(d) = dirs() else { return };
    std::fs::write(d.sibling.join("victim"), "keep").unwrap();
    std::os::unix::fs::symlink(&d.sibling, d.ws.join("link")).unwrap();
    let p = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let sib = d.sibling.display();
    for script in [
        "touch link/x".to_owned(),
        "echo bad > link/victim".to_owned(),
        format!("echo f > f && mv f '{sib}/moved'"),
        format!("echo f > f && ln f '{sib}/hard'"),
        format!("rm -f '{sib}/victim'"),
        format!("truncate -s 0 '{sib}/victim'"),
        format!("cd '{sib}' && mkdir newdir"),
        format!("bash -c \"eval 'touch {sib}/evaled'\""),
    ] {
        let (code, out) = run(&p, &script, &d.ws);
        assert_ne!(code, Some(0), "{script} succeeded: {out}");
    }
    assert_eq!(
        std::fs::read_to_string(d.sibling.join("victim")).unwrap(),
        "keep"
    );
    let left: Vec<_> = std::fs::read_dir(&d.sibling).unwrap().collect();
    assert_eq!(left.len(), 1, "{left:?}");

    // Control: the same escape works without the sandbox, so the test bites.
    let (code, out) = run(&SandboxPolicy::full(), "touch link/x", &d.ws);
    assert_eq!(code, Some(0), "{out}");
    assert!(d.sibling.join("x").exists());
}

#[test]
fn read_only_blocks_writes_in_the_workspace_too() {
    if !supported("read_only") {
        return;
    }
    let Some(d) = dirs() else { return };
    let mut p = SandboxPolicy::read_only();
    p.writable_roots = vec![d.ws.clone()];
    let (code, out) = run(&p, "touch ok", &d.ws);
    assert_ne!(code, Some(0), "{out}");
    assert!(!d.ws.join("ok").exists());
    assert!(denial_hint(&p, code, &out).unwrap().contains("read-only"));
    let (code, out) = run(
        &p,
        "cat /etc/hostname >/dev/null; ls -la . >/dev/null 2>&1; echo fine",
        &d.ws,
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("fine"));
}

#[test]
fn everyday_tools_still_work_in_workspace_write() {
    if !supported("everyday_tools") {
        return;
    }
    let Some(d) = dirs() else { return };
    let p = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let script = "set -e; ls / >/dev/null; git --version; git init -q . && git status --short; \
                  getent hosts localhost; echo to-null >/dev/null; echo via-dev-stdout > /dev/stdout; \
                  echo err 2>/dev/stderr; printf 'a\\nb\\n' | sort | head -1; \
                  python3 -c 'import socket; a, b = socket.socketpair(); print(\"unix ok\")' \
                  2>/dev/null || echo 'unix ok'";
    let (code, out) = run(&p, script, &d.ws);
    assert_eq!(code, Some(0), "{out}");
    for want in ["git version", "localhost", "via-dev-stdout", "unix ok"] {
        assert!(out.contains(want), "missing {want}: {out}");
    }
}

fn connect_script(port: u16) -> String {
    format!("exec 3<>/dev/tcp/127.0.0.1/{port} && echo connected")
}

#[test]
fn network_off_blocks_a_loopback_connect_that_full_allows() {
    if !supported("network") {
        return;
    }
    let Some(d) = dirs() else { return };
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let script = connect_script(port);

    let off = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let (code, out) = run(&off, &script, &d.ws);
    assert_ne!(code, Some(0), "{out}");
    assert!(!out.contains("connected"), "{out}");
    assert!(denial_hint(&off, code, &out).unwrap().contains("network"));

    let (code, out) = run(&SandboxPolicy::read_only(), &script, &d.ws);
    assert_ne!(code, Some(0), "{out}");

    let (code, out) = run(&SandboxPolicy::full(), &script, &d.ws);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("connected"));

    let mut on = off.clone();
    on.network = true;
    let (code, out) = run(&on, &script, &d.ws);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("connected"));
    drop(listener);
}

#[test]
fn full_mode_runs_through_the_helper_unconfined() {
    let Some(d) = dirs() else { return };
    let (code, out) = run(
        &SandboxPolicy::full(),
        &format!("touch '{}/x' && echo ok", d.sibling.display()),
        &d.ws,
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(d.sibling.join("x").exists());
    assert_eq!(SandboxPolicy::full().mode, SandboxMode::Full);
}

#[test]
fn helper_refuses_when_the_policy_cannot_be_applied() {
    // A malformed policy: refused before anything runs.
    let out = Command::new(HELPER)
        .args([
            HELPER_ARG,
            "{\"mode\":\"sideways\"}",
            "--",
            "bash",
            "-c",
            "echo ran",
        ])
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(126), "{text}");
    assert!(text.contains(HELPER_ERROR_PREFIX), "{text}");
    assert!(!text.contains("ran"), "{text}");

    if !supported("helper_refuses (kernel failure)") {
        return;
    }
    // A real kernel refusal: Landlock allows at most 16 stacked rulesets, so
    // the 17th nested helper cannot confine itself and must not run bash.
    let json = SandboxPolicy::read_only().to_json().unwrap();
    let mut cmd = Command::new(HELPER);
    cmd.args([HELPER_ARG, &json, "--"]);
    for _ in 0..17 {
        cmd.args([HELPER, HELPER_ARG, &json, "--"]);
    }
    cmd.args(["bash", "-c", "echo ran"]);
    let out = cmd.output().unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(126), "{text}");
    assert!(text.contains("cannot apply Landlock"), "{text}");
    assert!(!text.contains("ran"), "{text}");
}

#[test]
fn probe_reports_support() {
    match probe() {
        Support::Available => eprintln!("sandbox available"),
        Support::Unavailable(why) => {
            assert!(!why.is_empty());
            eprintln!("SKIPPED probe_reports_support: {why}");
        }
    }
}
