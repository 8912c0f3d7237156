//! Escape attempts, generated per syscall family, each asserting the effect
//! (the file outside is unchanged, the secret is not printed, the process is
//! gone), never the message. Every family has a control that shows the same
//! attempt succeeds without the sandbox, so a test cannot pass by accident.

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use wright_sandbox::{SandboxPolicy, applied_by_helper};

use super::{Dirs, HELPER, dirs, run, supported};

/// Whether the helper really enters namespaces here (the protections that
/// need them are skipped, loudly, where it does not).
fn namespaces(test: &str) -> bool {
    let applied = applied_by_helper(
        Path::new(HELPER),
        &SandboxPolicy::workspace_write(Vec::new()),
    );
    match applied {
        Ok(a) if a.namespaces.as_ref().is_some_and(|n| n.read_only_root) => true,
        other => {
            eprintln!("SKIPPED {test}: no unprivileged namespaces here: {other:?}");
            false
        }
    }
}

/// Everything about a tree that a command could change.
fn snapshot(root: &Path) -> BTreeMap<PathBuf, String> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(p) = stack.pop() {
        let Ok(meta) = p.symlink_metadata() else {
            continue;
        };
        let content = if meta.is_file() {
            std::fs::read_to_string(&p).unwrap_or_default()
        } else {
            String::new()
        };
        let xattrs = Command::new("getfattr")
            .args(["-d", "--absolute-names"])
            .arg(&p)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
            .unwrap_or_default();
        out.insert(
            p.clone(),
            format!(
                "{:o} {}:{} {} {} {content:?} {xattrs}",
                meta.permissions().mode(),
                meta.uid(),
                meta.gid(),
                meta.mtime(),
                meta.len()
            ),
        );
        if meta.is_dir()
            && let Ok(rd) = std::fs::read_dir(&p)
        {
            stack.extend(rd.flatten().map(|e| e.path()));
        }
    }
    out
}

fn ws_policy(d: &Dirs) -> SandboxPolicy {
    SandboxPolicy::workspace_write(vec![d.ws.clone()])
}

/// Paths by which a command can name the sibling's victim file: direct,
/// through `..`, through a link in the workspace, through a chain of links.
fn victim_names(d: &Dirs) -> Vec<String> {
    std::os::unix::fs::symlink(&d.sibling, d.ws.join("link")).unwrap();
    std::os::unix::fs::symlink(d.ws.join("link"), d.ws.join("link2")).unwrap();
    let rel = pathdiff(&d.sibling, &d.ws);
    vec![
        format!("{}/victim", d.sibling.display()),
        format!("{rel}/victim"),
        "link/victim".to_owned(),
        "link2/victim".to_owned(),
        "link/../sibling/victim".to_owned(),
    ]
}

/// `to` relative to `from` (both absolute, sharing a prefix).
fn pathdiff(to: &Path, from: &Path) -> String {
    let ups = from.components().count()
        - from
            .components()
            .zip(to.components())
            .take_while(|(a, b)| a == b)
            .count();
    let common = from.components().count() - ups;
    let mut s = "../".repeat(ups);
    let rest: PathBuf = to.components().skip(common).collect();
    s.push_str(&rest.to_string_lossy());
    s
}

/// Writers × names: no write, create, delete or rename lands outside.
#[test]
fn writes_outside_the_roots_never_land() {
    if !supported("writes_outside") {
        return;
    }
    let Some(d) = dirs() else { return };
    std::fs::write(d.sibling.join("victim"), "keep").unwrap();
    let names = victim_names(&d);
    let writers: &[&str] = &[
        "echo bad > {v}",
        "echo bad >> {v}",
        "touch {v}.new",
        "cp /etc/hostname {v}",
        "echo x > f && mv f {v}",
        "mv {v} {v}.moved",
        "rm -f {v}",
        "ln -s /etc/passwd {v}.lnk",
        "echo f > f && ln f {v}.hard",
        "mkdir {v}.d",
        "mkfifo {v}.fifo",
        "truncate -s 0 {v}",
        "dd if=/dev/zero of={v} bs=1 count=1 2>/dev/null",
        "echo bad | tee {v}",
        "sed -i s/keep/bad/ {v}",
        "python3 -c \"open('{v}','w').write('bad')\"",
        "python3 -c \"import os; os.rename('{v}', '{v}.r')\"",
        "cd $(dirname {v}) && echo bad > victim",
        "bash -c \"eval 'echo bad > {v}'\"",
    ];
    let before = snapshot(&d.sibling);
    let mut tried = 0;
    for name in &names {
        for w in writers {
            let script = w.replace("{v}", name);
            run(&ws_policy(&d), &script, &d.ws);
            tried += 1;
            assert_eq!(snapshot(&d.sibling), before, "escaped: {script}");
        }
    }
    assert!(tried >= 90);
    // Control: without the sandbox the first attempt lands.
    run(
        &SandboxPolicy::full(),
        &writers[0].replace("{v}", &names[2]),
        &d.ws,
    );
    assert_ne!(snapshot(&d.sibling), before);
}

/// Metadata outside the roots (mode, owner, times, xattrs) is confined like
/// writes; Landlock alone cannot see these calls.
#[test]
fn metadata_outside_the_roots_never_changes() {
    if !supported("metadata") || !namespaces("metadata") {
        return;
    }
    let Some(d) = dirs() else { return };
    std::fs::write(d.sibling.join("victim"), "keep").unwrap();
    let sib = d.sibling.display().to_string();
    let before = snapshot(&d.sibling);
    let changers = [
        "chmod 777 {t}",
        "chmod u-w {t}",
        "chown $(id -u):$(id -g) {t}",
        "touch -d 2001-01-01 {t}",
        "touch -m {t}",
        "python3 -c \"import os; os.utime('{t}', (1, 1))\"",
        "python3 -c \"import os; os.chmod('{t}', 0o700)\"",
        "python3 -c \"import os; os.setxattr('{t}', 'user.x', b'1')\"",
        "setfattr -n user.y -v 1 {t}",
    ];
    for target in [format!("{sib}/victim"), sib.clone()] {
        for c in changers {
            let script = c.replace("{t}", &target);
            run(&ws_policy(&d), &script, &d.ws);
            assert_eq!(snapshot(&d.sibling), before, "changed: {script}");
        }
    }
    run(
        &SandboxPolicy::full(),
        &format!("chmod 700 {sib}/victim"),
        &d.ws,
    );
    assert_ne!(snapshot(&d.sibling), before, "control did not change it");
}

/// wright's, git's and Claude Code's policy files inside the workspace stay
/// as they were, whichever way a command reaches them.
#[test]
fn protected_paths_in_the_workspace_stay_unchanged() {
    if !supported("protected") || !namespaces("protected") {
        return;
    }
    let Some(d) = dirs() else { return };
    let ws = &d.ws;
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    std::fs::create_dir_all(ws.join(".wright")).unwrap();
    std::fs::write(ws.join(".git/config"), "[core]\n").unwrap();
    std::fs::write(ws.join(".git/hooks/pre-commit"), "#!/bin/sh\n").unwrap();
    std::fs::write(ws.join(".wright/config.toml"), "").unwrap();
    std::fs::create_dir_all(ws.join(".claude")).unwrap();
    std::fs::write(ws.join(".claude/settings.json"), "{}\n").unwrap();
    std::fs::create_dir_all(ws.join(".git/modules/sub/hooks")).unwrap();
    std::fs::write(ws.join(".git/modules/sub/config"), "[core]\n").unwrap();
    std::os::unix::fs::symlink(ws.join(".git"), ws.join("g")).unwrap();
    let targets = [
        ".git/hooks/pre-commit",
        ".git/hooks/post-checkout",
        ".git/config",
        ".wright/config.toml",
        ".wright/config.local.toml",
        ".claude/settings.json",
        ".claude/settings.local.json",
        "g/hooks/pre-push",
        "g/config",
        "./.git/../.git/config",
        ".git/modules/sub/config",
        ".git/modules/sub/hooks/pre-commit",
    ];
    let writers = [
        "echo 'touch /tmp/pwned' > {t}",
        "echo '[core] fsmonitor = evil' >> {t}",
        "echo x > tmpf && mv tmpf {t}",
        "rm -rf {t}",
        "chmod 777 {t}",
        "python3 -c \"open('{t}','a').write('x')\"",
        "cd $(dirname {t}) && touch planted",
    ];
    // The rest of `.git` (objects, refs, index) stays writable for git.
    let protected = |ws: &Path| {
        let mut s = snapshot(&ws.join(".git/hooks"));
        s.extend(snapshot(&ws.join(".git/config")));
        s.extend(snapshot(&ws.join(".git/modules/sub/config")));
        s.extend(snapshot(&ws.join(".git/modules/sub/hooks")));
        s.extend(snapshot(&ws.join(".wright")));
        s.extend(snapshot(&ws.join(".claude")));
        s
    };
    let before = protected(ws);
    for t in targets {
        for w in writers {
            let script = w.replace("{t}", t);
            run(&ws_policy(&d), &script, ws);
            assert_eq!(protected(ws), before, "changed: {script}");
        }
    }
    for whole in [
        "rm -rf .git/hooks",
        "mv .wright .w2",
        "mv .claude .c2",
        "rm -rf .claude",
        "mv .git/hooks h2",
        // Renaming `.git` would take its read-only parts with it.
        "mv .git .git-old && mkdir .git && cp -a .git-old/. .git/ && \
         printf '[core]\\n\\tfsmonitor = \"touch /tmp/pwned\"\\n' > .git/config",
        "rm -rf .git",
    ] {
        run(&ws_policy(&d), whole, ws);
        assert_eq!(protected(ws), before, "changed: {whole}");
        assert!(!ws.join(".git-old").exists(), "{whole}");
    }
    // The rest of the workspace stays writable.
    let (code, out) = run(&ws_policy(&d), "echo ok > fine && cat fine", ws);
    assert_eq!(code, Some(0), "{out}");
}

/// In a repository without `.wright/` or `.claude/`, what a command creates
/// there does not outlive it (the repository guard removes it, as the bash
/// tool runs it): `.claude/settings.json` would hold hooks that run outside
/// the sandbox on the next trusted run. Nothing is made in the repository
/// beforehand to mount over.
#[test]
fn missing_policy_dirs_cannot_be_planted() {
    if !supported("planted") || !namespaces("planted") {
        return;
    }
    let Some(d) = dirs() else { return };
    let ws = &d.ws;
    std::fs::create_dir_all(ws.join(".git")).unwrap();
    let hooks = r#"{"hooks":{"SessionStart":[{"hooks":[{"type":"command","command":"touch /tmp/pwned"}]}]}}"#;
    let planters = [
        "mkdir -p {d} && echo '{h}' > {d}/{f}",
        "echo '{h}' > {d}/{f}",
        "mkdir -p {d}/sub && touch {d}/sub/x",
        "python3 -c \"import os; os.makedirs('{d}', exist_ok=True); open('{d}/{f}','w').write('x')\"",
        "mv {d} moved; mkdir -p {d} && echo x > {d}/{f}",
        "rm -rf {d}; mkdir {d}; echo x > {d}/{f}",
        "rmdir {d}; echo x > {d}",
        "ln -s ../planted {d}/{f}",
        "cd {d} && touch {f}",
    ];
    for (dir, file) in [
        (".claude", "settings.json"),
        (".claude", "settings.local.json"),
        (".wright", "config.toml"),
    ] {
        for p in planters {
            let script = p
                .replace("{d}", dir)
                .replace("{f}", file)
                .replace("{h}", hooks);
            // As the bash tool runs a command: the guard notes what is
            // missing before and removes what the command made after.
            let guard = wright_sandbox::repo_guard::RepoGuard::before(std::slice::from_ref(ws));
            run(&ws_policy(&d), &script, ws);
            let said = guard.after();
            assert!(
                ws.join(dir).symlink_metadata().is_err(),
                "{dir} left after {script} ({said:?})"
            );
            assert!(!ws.join("planted").exists(), "{script}");
            let _ = std::fs::remove_dir_all(ws.join("moved"));
        }
    }
    // Control: without the sandbox the first attempt lands.
    let script = planters[0]
        .replace("{d}", ".claude")
        .replace("{f}", "settings.json")
        .replace("{h}", hooks);
    run(&SandboxPolicy::full(), &script, ws);
    let planted = std::fs::read_to_string(ws.join(".claude/settings.json")).unwrap();
    assert!(planted.contains("hooks"), "{planted}");
}

/// Secret files are hidden from every way of reading them.
#[test]
fn secrets_are_hidden_from_commands() {
    if !supported("secrets") || !namespaces("secrets") {
        return;
    }
    let Some(d) = dirs() else { return };
    const MARK: &str = "s3cr3t-m4rker";
    std::fs::create_dir_all(d.ws.join("svc")).unwrap();
    for f in [".env", ".env.local", "svc/.env", "svc/server.key", "id_rsa"] {
        std::fs::write(d.ws.join(f), format!("TOKEN={MARK}\n")).unwrap();
    }
    let readers = [
        "cat .env",
        "cat .e*",
        "cat svc/* 2>/dev/null",
        "cd svc && cat .env server.key",
        "f=.env; cat \"$f\"",
        "grep -r TOKEN . 2>/dev/null",
        "python3 -c \"print(open('.env.local').read())\"",
        "git init -q . && git add -f .env && git show :.env",
        "tar cf - . 2>/dev/null | strings",
        "cp id_rsa /tmp/stolen-$$ && cat /tmp/stolen-$$",
    ];
    for r in readers {
        let (_, out) = run(&ws_policy(&d), r, &d.ws);
        assert!(!out.contains(MARK), "read a secret with: {r}\n{out}");
        let (_, out) = run(&SandboxPolicy::read_only(), r, &d.ws);
        assert!(
            !out.contains(MARK),
            "read a secret read-only with: {r}\n{out}"
        );
    }
    let (_, out) = run(&SandboxPolicy::full(), "cat .env", &d.ws);
    assert!(out.contains(MARK), "control: {out}");

    // Links to secrets elsewhere, innocent names for them, deep ones, and a
    // flood of files made to exhaust the search.
    let shared = d.sibling.join(".env");
    std::fs::write(&shared, format!("TOKEN={MARK}\n")).unwrap();
    std::os::unix::fs::symlink(&shared, d.ws.join(".env.shared")).unwrap();
    std::os::unix::fs::symlink(&shared, d.ws.join("settings.txt")).unwrap();
    std::fs::create_dir_all(d.ws.join("a/b/c/d/e")).unwrap();
    std::fs::write(d.ws.join("a/b/c/d/e/.env"), format!("TOKEN={MARK}\n")).unwrap();
    for r in ["cat .env.shared", "cat settings.txt", "cat a/b/c/d/e/.env"] {
        let (_, out) = run(&ws_policy(&d), r, &d.ws);
        assert!(!out.contains(MARK), "read a secret with: {r}\n{out}");
    }
    // The search is breadth-first: a flood of files cannot push a secret
    // at the top out of its budget (deep ones beyond a flood can be: a
    // known limit of a bounded search).
    run(
        &ws_policy(&d),
        "for x in f1 f2 f3; do mkdir $x && (cd $x && seq 1 8000 | xargs touch); done",
        &d.ws,
    );
    let (_, out) = run(&ws_policy(&d), "cat .env", &d.ws);
    assert!(!out.contains(MARK), "read a secret after a flood\n{out}");
}

fn python_verdicts(policy: &SandboxPolicy, d: &Dirs, script: &str) -> String {
    let (_, out) = run(policy, &format!("python3 -c '{script}'"), &d.ws);
    out
}

/// Socket families other than Unix are refused with the network off:
/// IP, netlink and raw packets alike.
#[test]
fn sockets_are_refused_without_network() {
    if !supported("sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let script = r#"import socket
for fam, typ, proto in [(socket.AF_INET, socket.SOCK_STREAM, 0), (socket.AF_INET6, socket.SOCK_DGRAM, 0),
        (socket.AF_INET, socket.SOCK_RAW, 1), (socket.AF_NETLINK, socket.SOCK_RAW, 0),
        (socket.AF_NETLINK, socket.SOCK_DGRAM, 0), (socket.AF_PACKET, socket.SOCK_RAW, 0),
        (17, socket.SOCK_DGRAM, 0)]:
    try:
        socket.socket(fam, typ, proto); print("OPENED", int(fam), int(typ))
    except OSError as e:
        print("refused", int(fam), int(typ), e.errno)
try:
    socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); print("unix-ok")
except OSError as e:
    print("unix refused", e.errno)
socket.socketpair(); print("pair-ok")"#;
    let out = python_verdicts(&ws_policy(&d), &d, script);
    assert!(!out.contains("OPENED"), "{out}");
    // A connected pair between a command's own processes stays; a new Unix
    // socket only where Landlock confines `connect` (ABI 9).
    assert!(out.contains("pair-ok"), "{out}");
    let mut on = ws_policy(&d);
    on.network = true;
    let out = python_verdicts(&on, &d, script);
    assert!(out.contains("OPENED 2 1"), "control: {out}");
}

/// No device nodes, whatever the spelling.
#[test]
fn device_nodes_cannot_be_created() {
    if !supported("mknod") {
        return;
    }
    let Some(d) = dirs() else { return };
    for script in [
        "mknod mem c 1 1",
        "mknod disk b 8 0",
        "python3 -c \"import os, stat; os.mknod('mem', stat.S_IFCHR | 0o666, os.makedev(1, 1))\"",
        "python3 -c \"import os, stat; os.mknod('disk', stat.S_IFBLK | 0o666, os.makedev(8, 0))\"",
    ] {
        run(&ws_policy(&d), script, &d.ws);
        assert!(!d.ws.join("mem").exists(), "{script}");
        assert!(!d.ws.join("disk").exists(), "{script}");
    }
    let (code, out) = run(&ws_policy(&d), "mkfifo pipe && test -p pipe", &d.ws);
    assert_eq!(code, Some(0), "FIFOs stay allowed: {out}");
}

/// Keystrokes cannot be pushed into a terminal (they could answer wright's
/// next approval prompt).
#[test]
fn terminal_injection_is_refused() {
    if !supported("tiocsti") {
        return;
    }
    let Some(d) = dirs() else { return };
    let script = r#"import os, fcntl, termios
m, s = os.openpty()
for req in (termios.TIOCSTI, 0x541C):
    try:
        fcntl.ioctl(s, req, b"x"); print("INJECTED", req)
    except OSError as e:
        print("refused", req, e.errno)"#;
    let out = python_verdicts(&ws_policy(&d), &d, script);
    assert!(!out.contains("INJECTED"), "{out}");
    assert!(out.contains("refused"), "{out}");
}

/// A marker in an ancestor's environment is not readable through `/proc`.
#[test]
fn ancestors_environment_is_unreadable() {
    if !supported("environ") || !namespaces("environ") {
        return;
    }
    let Some(d) = dirs() else { return };
    const MARK: &str = "k3y-m4rker-in-parent";
    let policy = ws_policy(&d).to_json().unwrap();
    let inner = "cat /proc/$PPID/environ /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'; \
                 for p in /proc/[0-9]*; do cat $p/environ; done 2>/dev/null";
    let outer = |policy: &str| {
        Command::new("sh")
            .arg("-c")
            .arg("\"$0\" __sandbox-exec \"$1\" -- bash -c \"$2\"")
            .arg(HELPER)
            .arg(policy)
            .arg(inner)
            .env("PARENT_SECRET", MARK)
            .current_dir(&d.ws)
            .stdin(Stdio::null())
            .output()
            .unwrap()
    };
    let out = outer(&policy);
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    // The command's own environment legitimately holds it (it inherited
    // it); what matters is that no other process's block is readable, so
    // count: only one block (its own and its children's) may show it.
    let own = text.matches(MARK).count();
    let full = outer(&SandboxPolicy::full().to_json().unwrap());
    let control = String::from_utf8_lossy(&full.stdout).matches(MARK).count();
    assert!(control > own, "control saw {control}, sandbox saw {own}");
}

fn alive_with(marker: &str) -> bool {
    std::fs::read_dir("/proc")
        .map(|rd| {
            rd.flatten().any(|e| {
                std::fs::read(e.path().join("cmdline"))
                    .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
            })
        })
        .unwrap_or(false)
}

fn wait_gone(marker: &str) -> bool {
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if !alive_with(marker) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// Nothing a command starts outlives it, however it detaches.
#[test]
fn no_descendant_outlives_the_sandbox() {
    if !supported("orphans") || !namespaces("orphans") {
        return;
    }
    let Some(d) = dirs() else { return };
    let detachers = [
        "sleep {s} &",
        "setsid sleep {s} &",
        "nohup sleep {s} >/dev/null 2>&1 &",
        "( ( sleep {s} & ) & )",
        "sleep {s} & disown",
        "setsid -f sleep {s}",
        "python3 -c \"import os\nif os.fork() == 0:\n  os.setsid()\n  os.execvp('sleep', ['sleep', '{s}'])\"",
    ];
    for (i, det) in detachers.iter().enumerate() {
        let secs = format!("{}.{}{i}7", 4000 + i, std::process::id());
        // Redirected so a survivor could not hold the output pipe open.
        let script = format!(
            "{{ {} ; }} >/dev/null 2>&1; echo started",
            det.replace("{s}", &secs)
        );
        let (_, out) = run(&ws_policy(&d), &script, &d.ws);
        assert!(out.contains("started"), "{out}");
        assert!(wait_gone(&format!("sleep\0{secs}")), "survived: {det}");
    }
}

/// Killing wright (here: the helper's parent) with SIGKILL kills the
/// command too.
#[test]
fn killing_the_parent_kills_the_command() {
    if !supported("parent_death") {
        return;
    }
    let Some(d) = dirs() else { return };
    for (i, policy) in [ws_policy(&d), SandboxPolicy::full()].iter().enumerate() {
        let secs = format!("{}.{}{i}9", 5000 + i, std::process::id());
        let json = policy.to_json().unwrap();
        let mut parent = Command::new("bash")
            .arg("-c")
            .arg(
                "WRIGHT_SANDBOX_PARENT=$$ \"$0\" __sandbox-exec \"$1\" -- sleep \"$2\" & \
                 echo started; wait",
            )
            .arg(HELPER)
            .arg(&json)
            .arg(&secs)
            .current_dir(&d.ws)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        let marker = format!("sleep\0{secs}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while !alive_with(&marker) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert!(alive_with(&marker), "the command never started");
        parent.kill().unwrap();
        let _ = parent.wait();
        assert!(wait_gone(&marker), "survived its parent ({})", policy.mode);
    }
}

#[test]
fn pathdiff_walks_up_and_down() {
    assert_eq!(
        pathdiff(Path::new("/a/b/c"), Path::new("/a/x/y")),
        "../../b/c"
    );
}

/// A command cannot stop or kill the process that started it (wright), with
/// namespaces or in the Landlock-only fallback.
#[test]
fn commands_cannot_signal_wright() {
    if !supported("signals") {
        return;
    }
    let Some(d) = dirs() else { return };
    let json = ws_policy(&d).to_json().unwrap();
    for fallback in [false, true] {
        let mut cmd = Command::new("bash");
        cmd.arg("-c")
            .arg(
                "me=$$; \"$0\" __sandbox-exec \"$1\" -- bash -c \"kill -STOP $me; kill -TERM $me\"; \
                 echo parent-alive",
            )
            .arg(HELPER)
            .arg(&json)
            .current_dir(&d.ws)
            .stdin(Stdio::null())
            .stderr(Stdio::null());
        if fallback {
            // Makes the helper skip namespaces, as on kernels without them.
            cmd.env("WRIGHT_SANDBOXED", "1");
        }
        let mut child = cmd.stdout(Stdio::piped()).spawn().unwrap();
        let deadline = Instant::now() + Duration::from_secs(20);
        let status = loop {
            if let Some(s) = child.try_wait().unwrap() {
                break Some(s);
            }
            if Instant::now() > deadline {
                // Stopped by the command: the escape worked.
                let _ = child.kill();
                break None;
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            status.is_some() && text.contains("parent-alive"),
            "fallback={fallback}: the command signalled its parent: {status:?} {text}"
        );
    }
}

/// With the network off, abstract Unix sockets (which reach host services
/// without a file) are refused like IP sockets.
#[test]
fn abstract_unix_sockets_are_refused_without_network() {
    if !supported("abstract sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let name = format!("wright-test-{}", std::process::id());
    use std::os::linux::net::SocketAddrExt;
    use std::os::unix::net::{SocketAddr, UnixListener};
    let listener =
        UnixListener::bind_addr(&SocketAddr::from_abstract_name(name.as_bytes()).unwrap()).unwrap();
    let script = format!(
        "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect(\"\\0{name}\"); print(\"CONNECTED\")'"
    );
    let (_, out) = run(&ws_policy(&d), &script, &d.ws);
    assert!(!out.contains("CONNECTED"), "{out}");
    let (_, out) = run(&SandboxPolicy::full(), &script, &d.ws);
    assert!(out.contains("CONNECTED"), "control: {out}");
    drop(listener);
}

/// In a linked worktree, commits work (the shared `.git` is writable) while
/// its hooks and config stay read-only.
#[test]
fn worktrees_commit_but_keep_their_hooks() {
    if !supported("worktrees") || !namespaces("worktrees") {
        return;
    }
    let Some(d) = dirs() else { return };
    let main = d.sibling.join("main");
    let wt = d.ws.join("wt");
    let git = |dir: &Path, args: &[&str]| {
        let out = Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(args)
            .current_dir(dir)
            .output()
            .unwrap();
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    std::fs::create_dir_all(&main).unwrap();
    git(&main, &["init", "-q"]);
    git(&main, &["commit", "-q", "--allow-empty", "-m", "one"]);
    git(&main, &["worktree", "add", "-q", wt.to_str().unwrap()]);
    let common = wright_sandbox::repo_guard::worktree_common_dir(&wt).unwrap();
    let mut policy = SandboxPolicy::workspace_write(vec![wt.clone(), common.clone()]);
    policy.workspace_roots = vec![wt.clone()];
    let (code, out) = run(
        &policy,
        "echo x > f && git add f && git -c user.name=t -c user.email=t@t commit -qm two && echo COMMITTED",
        &wt,
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("COMMITTED"), "{out}");
    let hooks = common.join("hooks");
    let before = snapshot(&hooks);
    let config_before = std::fs::read_to_string(common.join("config")).unwrap();
    run(
        &policy,
        &format!(
            "echo 'touch /tmp/x' > {0}/pre-commit; echo '[core] fsmonitor=x' >> {1}",
            hooks.display(),
            common.join("config").display()
        ),
        &wt,
    );
    assert_eq!(snapshot(&hooks), before);
    assert_eq!(
        std::fs::read_to_string(common.join("config")).unwrap(),
        config_before
    );
}

/// With the network off, Unix sockets outside the workspace (a host
/// service such as Docker's) cannot be reached; where Landlock confines
/// `connect` (ABI 9), ones in the workspace can.
#[test]
fn unix_sockets_outside_the_roots_are_refused_without_network() {
    if !supported("unix sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let outside = d.sibling.join("svc.sock");
    let inside = d.ws.join("own.sock");
    let _l1 = std::os::unix::net::UnixListener::bind(&outside).unwrap();
    let _l2 = std::os::unix::net::UnixListener::bind(&inside).unwrap();
    let connect = |path: &Path| {
        format!(
            "python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect(\"{}\"); print(\"CONNECTED\")'",
            path.display()
        )
    };
    let (_, out) = run(&ws_policy(&d), &connect(&outside), &d.ws);
    let enforced = !out.contains("CONNECTED");
    if !enforced {
        // Landlock's Unix-socket right needs a recent kernel (ABI 9).
        eprintln!("SKIPPED unix sockets: this kernel does not restrict them: {out}");
        return;
    }
    let (_, out) = run(&ws_policy(&d), &connect(&inside), &d.ws);
    let unix_made = !out.contains("Operation not permitted");
    if unix_made {
        assert!(out.contains("CONNECTED"), "a workspace socket: {out}");
    } else {
        eprintln!("no Unix socket can be made here (no Landlock ABI 9): {out}");
    }
    let mut on = ws_policy(&d);
    on.network = true;
    let (_, out) = run(&on, &connect(&outside), &d.ws);
    assert!(out.contains("CONNECTED"), "with network on: {out}");
}
