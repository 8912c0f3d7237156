//! Unix sockets and IPC objects of the host, generated per place and per
//! way of reaching them, each judged by its effect: the listener outside
//! never sees a connection, the message queue keeps its message, the
//! shared memory its bytes. Every family has a control that shows the same
//! attempt lands without the sandbox (or with the network on).

use std::os::unix::net::{UnixDatagram, UnixListener};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use wright_sandbox::{SandboxPolicy, applied_by_helper, command};

use super::{HELPER, dirs, supported};

fn namespaces() -> bool {
    let applied = applied_by_helper(
        Path::new(HELPER),
        &SandboxPolicy::workspace_write(Vec::new()),
    );
    applied.is_ok_and(|a| a.namespaces.is_some_and(|n| n.read_only_root))
}

/// Runs `script` under `policy` with `env` set; `fallback` makes the helper
/// skip namespaces, as on kernels that refuse them.
fn run_env(
    policy: &SandboxPolicy,
    script: &str,
    cwd: &Path,
    env: &[(&str, String)],
    fallback: bool,
) -> String {
    let mut cmd = command(policy, script, Path::new(HELPER)).unwrap();
    cmd.current_dir(cwd).stdin(Stdio::null());
    for (k, v) in env {
        cmd.env(k, v);
    }
    if fallback {
        cmd.env("WRIGHT_SANDBOXED", "1");
    }
    let out = cmd.output().unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// A listener that counts what reached it without blocking.
struct Door {
    path: PathBuf,
    stream: UnixListener,
}

impl Door {
    fn new(path: PathBuf) -> Option<Self> {
        std::fs::create_dir_all(path.parent()?).ok()?;
        let _ = std::fs::remove_file(&path);
        let stream = UnixListener::bind(&path).ok()?;
        stream.set_nonblocking(true).ok()?;
        Some(Self { path, stream })
    }

    /// Whether anything connected since the last call.
    fn knocked(&self) -> bool {
        let mut any = false;
        while self.stream.accept().is_ok() {
            any = true;
        }
        any
    }
}

impl Drop for Door {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
    }
}

/// The ways a command reaches a socket at `{p}` (absolute) or through the
/// variable `$V` naming it.
const CONNECTORS: &[&str] = &[
    "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' {p}",
    "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' \"$V\"",
    "ln -sf {p} lnk && python3 -c 'import socket; s=socket.socket(socket.AF_UNIX); s.connect(\"lnk\")'",
    "cd $(dirname {p}) && python3 -c 'import socket,os,sys; s=socket.socket(socket.AF_UNIX); s.connect(os.path.basename(sys.argv[1]))' {p}",
    "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(\"/proc/self/root\"+sys.argv[1])' {p}",
    "curl -s -m 2 --unix-socket {p} http://x/ >/dev/null",
    "nc -U -w 1 {p} </dev/null",
];

/// Host sockets in the places daemons and sessions put them — a runtime
/// dir, the temp dir at several depths, HOME's Docker Desktop socket, the
/// ssh-agent named by `SSH_AUTH_SOCK` anywhere — are unreachable with the
/// network off, with namespaces or without; a workspace socket stays.
#[test]
fn host_unix_sockets_are_unreachable_without_network() {
    if !supported("host sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let pid = std::process::id();
    let home = d.sibling.join("home");
    let runtime = d.sibling.join("runtime");
    std::fs::create_dir_all(&runtime).unwrap();
    let mut places = vec![
        runtime.join("bus"),
        runtime.join("podman/podman.sock"),
        home.join(".docker/run/docker.sock"),
        home.join(".rd/docker.sock"),
        d.sibling.join("agent/agent.1"),
        PathBuf::from(format!("/tmp/wright-ipc-{pid}.sock")),
        PathBuf::from(format!("/tmp/tmux-w{pid}/default")),
        PathBuf::from(format!("/tmp/wright-ipc-{pid}/a/b.sock")),
        PathBuf::from(format!("/run/wright-ipc-{pid}/docker.sock")),
        PathBuf::from(format!("/run/user/wright-{pid}/systemd/private")),
    ];
    // Places this user cannot create (`/run` without root) are left out.
    let doors: Vec<Door> = places.drain(..).filter_map(Door::new).collect();
    assert!(doors.len() >= 7, "too few places: {}", doors.len());
    let env_for = |door: &Door| {
        vec![
            ("HOME", home.display().to_string()),
            ("XDG_RUNTIME_DIR", runtime.display().to_string()),
            (
                "SSH_AUTH_SOCK",
                d.sibling.join("agent/agent.1").display().to_string(),
            ),
            ("V", door.path.display().to_string()),
        ]
    };
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let mut tried = 0;
    for fallback in [false, true] {
        if !fallback && !namespaces() {
            eprintln!("SKIPPED host sockets with namespaces: none here");
            continue;
        }
        for door in &doors {
            for c in CONNECTORS {
                let script = c.replace("{p}", &door.path.display().to_string());
                let out = run_env(&policy, &script, &d.ws, &env_for(door), fallback);
                tried += 1;
                assert!(
                    !door.knocked(),
                    "reached {} (fallback={fallback}): {script}\n{out}",
                    door.path.display()
                );
            }
        }
    }
    assert!(tried >= 49, "{tried}");
    // Controls: the same connection lands unconfined and with the network on.
    let mut on = policy.clone();
    on.network = true;
    for p in [SandboxPolicy::full(), on] {
        for door in &doors {
            let script = CONNECTORS[0].replace("{p}", &door.path.display().to_string());
            let out = run_env(&p, &script, &d.ws, &env_for(door), false);
            assert!(door.knocked(), "control {}: {out}", door.path.display());
        }
    }
    // A socket of the workspace is the project's own. Before Landlock ABI
    // 9 nothing can confine `connect` to it, so Unix sockets are refused
    // altogether until the user lists one (`allow_sockets`); then it is
    // reachable.
    if namespaces() {
        let own = Door::new(d.ws.join("dev.sock")).unwrap();
        let mut listed = policy.clone();
        listed.allow_sockets = vec![own.path.clone()];
        let script = CONNECTORS[0].replace("{p}", &own.path.display().to_string());
        let out = run_env(&listed, &script, &d.ws, &[], false);
        assert!(own.knocked(), "a listed workspace socket: {out}");
    }
}

/// A datagram socket outside (a syslog or journald socket) receives
/// nothing, whether the command sends from a socket or a socketpair.
#[test]
fn host_datagram_sockets_receive_nothing_without_network() {
    if !supported("datagram sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let path = PathBuf::from(format!("/tmp/wright-dgram-{}.sock", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let rx = UnixDatagram::bind(&path).unwrap();
    rx.set_nonblocking(true).unwrap();
    let senders = [
        "python3 -c 'import socket,sys; s=socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.sendto(b\"x\", sys.argv[1])' {p}",
        "python3 -c 'import socket,sys; a,b=socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); a.sendto(b\"x\", sys.argv[1])' {p}",
        "logger -u {p} x",
    ];
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let mut buf = [0u8; 16];
    for fallback in [false, true] {
        for s in senders {
            let script = s.replace("{p}", &path.display().to_string());
            let out = run_env(&policy, &script, &d.ws, &[], fallback);
            assert!(
                rx.recv(&mut buf).is_err(),
                "fallback={fallback}: {script}\n{out}"
            );
        }
    }
    let script = senders[0].replace("{p}", &path.display().to_string());
    run_env(&SandboxPolicy::full(), &script, &d.ws, &[], false);
    assert!(rx.recv(&mut buf).is_ok(), "control");
    let _ = std::fs::remove_file(&path);
}

/// The variables that point at the session's sockets are gone with the
/// network off, and kept with it on.
#[test]
fn socket_variables_are_dropped_without_network() {
    if !supported("socket vars") {
        return;
    }
    let Some(d) = dirs() else { return };
    let env: Vec<(&str, String)> = wright_sandbox::SOCKET_VARS
        .iter()
        .map(|v| (*v, format!("/tmp/m4rk-{v}")))
        .collect();
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let out = run_env(&policy, "env", &d.ws, &env, false);
    assert!(!out.contains("m4rk-"), "{out}");
    let mut on = policy.clone();
    on.network = true;
    let out = run_env(&on, "env", &d.ws, &env, false);
    assert!(out.contains("m4rk-SSH_AUTH_SOCK"), "control: {out}");
}

/// Runs python `body` unconfined (ctypes bound to libc as `c`) and
/// returns its stdout.
fn host_py(body: &str) -> String {
    let script = format!("import ctypes; c=ctypes.CDLL(None, use_errno=True)\n{body}");
    let out = Command::new("python3")
        .arg("-c")
        .arg(script)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).trim().to_owned()
}

/// The queue's message count (`msg_qnum` of x86-64's and aarch64's
/// `msqid_ds`) and the segment's first bytes, as the host sees them; `None`
/// once either is gone.
fn host_state(mq: &str, shm: &str) -> Option<String> {
    let out = host_py(&format!(
        "b=ctypes.create_string_buffer(128)\n\
         c.shmat.restype=ctypes.c_void_p\n\
         q=c.msgctl({mq}, 2, b)\n\
         a=c.shmat({shm}, None, 0o10000)\n\
         ok=q==0 and a not in (None, 2**64-1)\n\
         print('ok', int.from_bytes(b.raw[80:88], 'little'), ctypes.string_at(a, 4)) if ok else print('gone')"
    ));
    out.starts_with("ok").then_some(out)
}

/// SysV message queues and shared memory of a process outside: the command
/// can neither list, read, change nor remove them, with an IPC namespace
/// or (without namespaces) through seccomp.
#[test]
fn host_sysv_ipc_is_out_of_reach() {
    if !supported("sysv ipc") {
        return;
    }
    let Some(d) = dirs() else { return };
    // A queue holding a marker message and a segment holding `keep`.
    let ids = host_py(
        "mq=c.msgget(0, 0o1000|0o600); shm=c.shmget(0, 4096, 0o1000|0o600)\n\
         c.shmat.restype=ctypes.c_void_p; a=c.shmat(shm, None, 0); ctypes.memmove(a, b'keep', 4)\n\
         m=bytes([1])+bytes(7)+b'm4rker'+bytes(2)\n\
         c.msgsnd(mq, m, 8, 0)\n\
         print(mq, shm)",
    );
    let (mq, shm) = match ids.split_once(' ') {
        Some((a, b)) if a.parse::<i32>().is_ok_and(|n| n >= 0) => (a.to_owned(), b.to_owned()),
        _ => {
            eprintln!("SKIPPED sysv ipc: cannot create SysV objects here: {ids}");
            return;
        }
    };
    let before = host_state(&mq, &shm).expect("objects just made");
    assert_eq!(before, "ok 1 b'keep'");
    let py = |body: &str| {
        format!(
            "python3 -c 'import ctypes; c=ctypes.CDLL(None, use_errno=True); b=ctypes.create_string_buffer(64); {body}'"
        )
    };
    let attempts = [
        "ipcs -q -m".to_owned(),
        format!("ipcrm -q {mq}; ipcrm -m {shm}"),
        py(&format!(
            "n=c.msgrcv({mq}, b, 8, 0, 0o4000); print(\"GOT\", b.raw[8:16])"
        )),
        py(&format!("print(c.msgctl({mq}, 0, None))")),
        py(&format!(
            "c.shmat.restype=ctypes.c_void_p; a=c.shmat({shm}, None, 0); a and a < 2**63 and ctypes.memmove(a, b\"bad!\", 4); print(\"AT\", a)"
        )),
        py(&format!("print(c.shmctl({shm}, 0, None))")),
    ];
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    for fallback in [false, true] {
        if !fallback && !namespaces() {
            continue;
        }
        for a in &attempts {
            let out = run_env(&policy, a, &d.ws, &[], fallback);
            assert!(!out.contains("m4rker"), "read the queue: {a}\n{out}");
            // Without namespaces `/proc/sysvipc` still lists them (ids
            // and sizes, no contents): only an IPC namespace hides that.
            assert!(
                fallback || !out.contains("m4rker") && !out.contains(" 8            1"),
                "listed: {a}\n{out}"
            );
            assert_eq!(
                host_state(&mq, &shm).as_ref(),
                Some(&before),
                "changed: {a}"
            );
        }
    }
    // Control: unconfined, the same removal lands.
    run_env(&SandboxPolicy::full(), &attempts[1], &d.ws, &[], false);
    assert_eq!(host_state(&mq, &shm), None, "control");
}

/// POSIX shared memory of a process outside (`/dev/shm`) is neither read
/// nor changed; the command still has a `/dev/shm` of its own.
#[test]
fn host_posix_shared_memory_is_out_of_reach() {
    if !supported("posix shm") || !namespaces() {
        return;
    }
    let Some(d) = dirs() else { return };
    let seg = PathBuf::from(format!("/dev/shm/wright-test-{}", std::process::id()));
    if std::fs::write(&seg, "m4rker").is_err() {
        eprintln!("SKIPPED posix shm: no /dev/shm here");
        return;
    }
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let p = seg.display().to_string();
    for a in [
        format!("cat {p}"),
        format!("echo bad > {p}"),
        format!("rm -f {p}"),
        "cat /dev/shm/* 2>/dev/null".to_owned(),
        format!(
            "python3 -c 'import mmap,os; f=os.open(\"{p}\", os.O_RDWR); m=mmap.mmap(f, 6); print(m[:]); m[:3]=b\"bad\"'"
        ),
    ] {
        let out = run_env(&policy, &a, &d.ws, &[], false);
        assert!(!out.contains("m4rker"), "read: {a}\n{out}");
        assert_eq!(std::fs::read_to_string(&seg).unwrap(), "m4rker", "{a}");
    }
    let out = run_env(
        &policy,
        "echo own > /dev/shm/own && cat /dev/shm/own",
        &d.ws,
        &[],
        false,
    );
    assert!(out.contains("own"), "own shm: {out}");
    let out = run_env(
        &SandboxPolicy::full(),
        &format!("cat {p}"),
        &d.ws,
        &[],
        false,
    );
    assert!(out.contains("m4rker"), "control: {out}");
    let _ = std::fs::remove_file(&seg);
}

/// A socket the user reopened (`[sandbox] allow_sockets`) stays reachable
/// with the network off; one beside it does not.
#[test]
fn an_allowed_socket_stays_reachable() {
    if !supported("allowed sockets") || !namespaces() {
        eprintln!("SKIPPED allowed sockets: no namespaces here");
        return;
    }
    let Some(d) = dirs() else { return };
    let runtime = d.sibling.join("runtime-allowed");
    let allowed = Door::new(runtime.join("podman/podman.sock")).unwrap();
    let other = Door::new(runtime.join("docker.sock")).unwrap();
    let env = [("XDG_RUNTIME_DIR", runtime.display().to_string())];
    let mut policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    policy.allow_sockets = vec![allowed.path.clone()];
    for door in [&allowed, &other] {
        let script = CONNECTORS[0].replace("{p}", &door.path.display().to_string());
        let out = run_env(&policy, &script, &d.ws, &env, false);
        assert_eq!(
            door.knocked(),
            std::ptr::eq(door, &allowed),
            "{}: {out}",
            door.path.display()
        );
    }
}

/// Connects, once `go` appears in its cwd, to every socket path in its
/// arguments three ways (the path, through `/proc/self/root`, through a
/// link it makes in its cwd), after writing `ready`.
const LATE_CONNECTOR: &str = r#"python3 -c '
import os, socket, sys, time
open("ready", "w").close()
t = time.time()
while not os.path.exists("go") and time.time() - t < 30:
    time.sleep(0.02)
for i, p in enumerate(sys.argv[1:]):
    link = "lnk%d" % i
    try:
        os.symlink(p, link)
    except OSError:
        link = p
    for q in (p, "/proc/self/root" + p, link):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(2)
            s.connect(q)
            print("CONNECTED", q)
        except Exception as e:
            print("refused", q, e)
'"#;

/// Sockets a process outside creates *after* the sandboxed command
/// started — in the temp dir (directly and in a new directory), in
/// `$XDG_RUNTIME_DIR`, in HOME, beside the workspace — are as unreachable
/// as those that were there before, with namespaces and without. The
/// command waits for a file signal, so each listener exists only once the
/// sandbox is in place; a listener must see no connection. Controls: the
/// same sequence connects unconfined and with the network on.
#[test]
fn sockets_made_outside_after_the_command_started_are_unreachable() {
    if !supported("late sockets") {
        return;
    }
    let Some(d) = dirs() else { return };
    let pid = std::process::id();
    let home = d.sibling.join("home-late");
    let runtime = d.sibling.join("runtime-late");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&runtime).unwrap();
    let places = [
        PathBuf::from(format!("/tmp/wright-late-{pid}.sock")),
        PathBuf::from(format!("/tmp/wright-late-{pid}/new/dir.sock")),
        runtime.join("bus"),
        runtime.join("late/daemon.sock"),
        home.join(".docker/run/docker.sock"),
        home.join("agent.sock"),
        d.sibling.join("late.sock"),
    ];
    let env = [
        ("HOME", home.display().to_string()),
        ("XDG_RUNTIME_DIR", runtime.display().to_string()),
    ];
    let policy = SandboxPolicy::workspace_write(vec![d.ws.clone()]);
    let mut on = policy.clone();
    on.network = true;
    // (policy, fallback, whether a connection must land)
    let mut runs = vec![(policy.clone(), true, false)];
    if namespaces() {
        runs.push((policy.clone(), false, false));
    } else {
        eprintln!("SKIPPED late sockets with namespaces: none here");
    }
    runs.push((SandboxPolicy::full(), false, true));
    runs.push((on, false, true));
    for (p, fallback, lands) in runs {
        let _ = std::fs::remove_file(d.ws.join("ready"));
        let _ = std::fs::remove_file(d.ws.join("go"));
        for i in 0..places.len() {
            let _ = std::fs::remove_file(d.ws.join(format!("lnk{i}")));
        }
        let args: Vec<String> = places.iter().map(|p| p.display().to_string()).collect();
        let script = format!("{LATE_CONNECTOR} {}", args.join(" "));
        let mut cmd = command(&p, &script, Path::new(HELPER)).unwrap();
        cmd.current_dir(&d.ws)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        for (k, v) in &env {
            cmd.env(k, v);
        }
        if fallback {
            cmd.env("WRIGHT_SANDBOXED", "1");
        }
        let child = cmd.spawn().unwrap();
        let started = std::time::Instant::now();
        while !d.ws.join("ready").exists() {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(20),
                "the command never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        // Only now, with the sandbox in place, do the listeners appear.
        let doors: Vec<Door> = places.iter().cloned().filter_map(Door::new).collect();
        assert_eq!(doors.len(), places.len(), "could not listen everywhere");
        std::fs::write(d.ws.join("go"), "").unwrap();
        let out = child.wait_with_output().unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        for door in &doors {
            let knocked = door.knocked();
            if lands {
                assert!(knocked, "control {}: {text}", door.path.display());
            } else {
                assert!(
                    !knocked,
                    "reached {} made after the start (fallback={fallback}):\n{text}",
                    door.path.display()
                );
            }
        }
        if !lands {
            assert!(!text.contains("CONNECTED"), "fallback={fallback}: {text}");
        }
        drop(doors);
        let _ = std::fs::remove_dir_all(format!("/tmp/wright-late-{pid}"));
    }
}
