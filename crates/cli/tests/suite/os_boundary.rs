//! The OS as the boundary, through the real binary: plan mode cannot change
//! a file by any command, no command can obtain the API key, and no command
//! outlives wright, however wright is stopped. Every case asserts the
//! effect (file absent, key bytes absent, process gone).

use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stdout};

/// Whether the kernel enforces the sandbox here; the tests say so when not.
fn sandboxed(test: &str) -> bool {
    match wright_sandbox::probe() {
        wright_sandbox::Support::Available => true,
        wright_sandbox::Support::Unavailable(why) => {
            eprintln!("SKIPPED {test}: OS sandbox unavailable: {why}");
            false
        }
    }
}

fn bash_then_done(command: &str) -> Vec<MockResponse> {
    vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({ "command": command }),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ]
}

/// The text wright sent back to the model as the command's result.
fn tool_result_sent(server: &MockServer) -> String {
    server
        .requests()
        .get(1)
        .map(|r| r.body_text())
        .unwrap_or_default()
}

/// Plan mode: even a command the classifier rightly calls read-only (`ls`)
/// changes nothing when the program behind the name writes: here an `ls`
/// earlier on PATH, as a hostile repository or tool install could provide.
#[test]
fn plan_mode_cannot_change_a_file_by_any_command() {
    if !sandboxed("plan_mode") {
        return;
    }
    let writers = [
        "touch created",
        "echo x > created",
        "mkdir created",
        "python3 -c \"open('created','w')\"",
        "rm -f existing",
        "mv existing created",
        "chmod 000 existing",
        "truncate -s 0 existing",
        "sed -i s/keep/gone/ existing",
        "git init -q . && touch created",
        "ln -s existing created",
    ];
    for w in writers {
        let env = Env::new();
        env.write("existing", "keep");
        let bin = env.home.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        let fake = bin.join("ls");
        std::fs::write(&fake, format!("#!/bin/sh\necho RAN-MARK\n{w}\n")).unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
        let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap());
        use std::os::unix::fs::MetadataExt;
        let before = std::fs::metadata(env.path("existing")).unwrap();
        let server = MockServer::start(bash_then_done("ls")).unwrap();
        let out = env
            .wright_p("anthropic", &server.url(), "go")
            .args(["--permission-mode", "plan"])
            .env("PATH", path)
            .output()
            .unwrap();
        let sent = tool_result_sent(&server);
        assert!(
            sent.contains("RAN-MARK"),
            "{w}: the command did not run: {sent}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let entries: Vec<_> = std::fs::read_dir(env.project.path())
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(entries, vec!["existing"], "{w} changed the project");
        let after = std::fs::metadata(env.path("existing")).unwrap();
        assert_eq!(
            std::fs::read_to_string(env.path("existing")).unwrap(),
            "keep"
        );
        assert_eq!(before.mode(), after.mode(), "{w}");
    }
}

/// However a command looks for it, the key's bytes never reach the model,
/// in the default sandbox and with the sandbox off.
#[test]
fn no_command_can_obtain_the_api_key() {
    const KEY: &str = "sk-ant-api03-KEYMARKER0123456789abcdef";
    let hunt = "env; cat /proc/$PPID/environ; cat /proc/self/environ; \
                for p in /proc/[0-9]*; do cat $p/environ; cat $p/cmdline; done; \
                cat /proc/$PPID/mem 2>&1 | head -c 100; \
                grep -a -o 'sk-ant-api03-[A-Za-z0-9]*' /proc/[0-9]*/environ; true";
    for sandbox in ["workspace-write", "full"] {
        let env = Env::new();
        let server = MockServer::start(bash_then_done(hunt)).unwrap();
        let out = env
            .wright_p("anthropic", &server.url(), "go")
            .args(["--permission-mode", "bypass", "--sandbox", sandbox])
            .env("ANTHROPIC_API_KEY", KEY)
            .output()
            .unwrap();
        let sent = tool_result_sent(&server);
        assert!(
            sent.contains("PATH="),
            "{sandbox}: the hunt did not run: {sent}"
        );
        assert!(
            !sent.contains("KEYMARKER"),
            "{sandbox}: the key reached the model"
        );
        assert!(!stdout(&out).contains("KEYMARKER"));
        // The key still worked for the requests themselves.
        assert_eq!(server.requests().len(), 2, "{sandbox}");
        assert!(
            server.requests()[0]
                .headers
                .iter()
                .any(|(k, v)| k.eq_ignore_ascii_case("x-api-key") && v == KEY)
        );
    }
}

fn alive_with(marker: &str) -> bool {
    std::fs::read_dir("/proc").is_ok_and(|rd| {
        rd.flatten().any(|e| {
            std::fs::read(e.path().join("cmdline"))
                .is_ok_and(|c| String::from_utf8_lossy(&c).contains(marker))
        })
    })
}

fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting: {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// SIGTERM and SIGHUP stop the turn like Ctrl-C (the command's group is
/// killed and the result recorded) and exit 128 + the signal; SIGKILL of
/// wright kills the command through the helper. Detached children die too.
#[test]
fn no_command_outlives_wright_however_it_is_stopped() {
    for (i, (signal, code)) in [("TERM", Some(143)), ("HUP", Some(129)), ("KILL", None)]
        .into_iter()
        .enumerate()
    {
        let env = Env::new();
        // Unique per run, so no leftover of another run can match.
        let run = std::process::id();
        let secs = format!("{}.{run}{i}1", 7000 + i);
        let detached = format!("{}.{run}{i}2", 7100 + i);
        let script =
            format!("{{ setsid sleep {detached} & }} >/dev/null 2>&1; touch started; sleep {secs}");
        let server = MockServer::start(bash_then_done(&script)).unwrap();
        let child = env
            .std_wright_p("anthropic", &server.url(), "wait")
            .args(["--permission-mode", "bypass"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        wait_until("the command to start", || env.path("started").exists());
        // `started` is touched just before `sleep` execs.
        wait_until("the sleep to run", || alive_with(&format!("sleep\0{secs}")));
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        if let Some(code) = code {
            assert_eq!(
                out.status.code(),
                Some(code),
                "{signal}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        wait_until(&format!("the command to die after {signal}"), || {
            !alive_with(&format!("sleep\0{secs}"))
        });
        if sandboxed("detached children") && wright_sandbox::namespaces_refused().is_none() {
            wait_until(&format!("the detached child to die after {signal}"), || {
                !alive_with(&format!("sleep\0{detached}"))
            });
        }
    }
}

/// wright's own `git status` probe (for the system prompt) runs before any
/// prompt: a repository's git config must not run programs through it.
#[test]
fn the_startup_git_probe_runs_nothing_from_the_repository() {
    if !sandboxed("git_probe") {
        return;
    }
    let env = Env::new();
    let git = |args: &[&str]| {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(env.project.path())
            .env("HOME", env.home.path())
            .output()
            .is_ok_and(|o| o.status.success());
        assert!(ok, "git {args:?}");
    };
    if !std::process::Command::new("git")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
    {
        eprintln!("SKIPPED git_probe: no git");
        return;
    }
    git(&["init", "-q"]);
    env.write("a.txt", "one\n");
    env.write(".gitattributes", "* filter=evil\n");
    git(&["add", "."]);
    git(&[
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@t",
        "commit",
        "-qm",
        "x",
    ]);
    let fsmon = env.home.path().join("fsmonitor-ran");
    let filter = env.home.path().join("filter-ran");
    git(&[
        "config",
        "core.fsmonitor",
        &format!("touch {}; false", fsmon.display()),
    ]);
    git(&[
        "config",
        "filter.evil.clean",
        &format!("touch {}; cat", filter.display()),
    ]);
    // A changed file makes status compare content, through the clean filter.
    env.write("a.txt", "two\n");
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("done"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "hi")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!fsmon.exists(), "core.fsmonitor ran outside the sandbox");
    assert!(!filter.exists(), "a clean filter ran outside the sandbox");
    // The probe still worked: the system prompt names the change.
    let sent = server.requests()[0].body_text();
    assert!(sent.contains("a.txt"), "{sent}");
}

/// A `.git/commondir` (or `gitdir`) a command plants would make the user's
/// next git read a planted config; it is removed however the command ends,
/// a timed-out command included.
#[test]
fn planted_git_redirects_are_removed_however_the_command_ends() {
    if !sandboxed("git redirects") {
        return;
    }
    for (i, tail) in ["", " && sleep 30"].iter().enumerate() {
        let env = Env::new();
        std::fs::create_dir_all(env.path(".git/objects")).unwrap();
        std::fs::create_dir_all(env.path(".git/refs")).unwrap();
        env.write(".git/HEAD", "ref: refs/heads/main\n");
        // Spelled so the guard's text check cannot see the target: the
        // point is what the OS layer does when a plant gets that far.
        let plant = format!(
            "mkdir -p cg && printf '[core]\\n\\tfsmonitor = x\\n' > cg/config && \
             python3 -c \"[open('.git/'+n, 'w').write('../cg') for n in ('common'+'dir', 'git'+'dir')]\" \
             && echo P\"\"LANTED{tail}"
        );
        let server = MockServer::start(vec![
            MockResponse::sse(anthropic::tool_calls(&[(
                "c1",
                "Bash",
                json!({ "command": plant, "timeout_secs": 1 }),
            )])),
            MockResponse::sse(anthropic::text("done")),
        ])
        .unwrap();
        let out = env
            .wright_p("anthropic", &server.url(), "go")
            .args(["--permission-mode", "bypass"])
            .output()
            .unwrap();
        let sent = tool_result_sent(&server);
        assert!(sent.contains("PLANTED"), "case {i}: did not run: {sent}");
        assert!(
            !env.path(".git/commondir").exists() && !env.path(".git/gitdir").exists(),
            "case {i}: a redirect stayed: {sent}\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        if i == 0 {
            assert!(sent.contains("removed"), "{sent}");
        }
    }
}

/// Secrets present when the session starts stay hidden even after a
/// command floods the workspace to exhaust the per-command search.
#[test]
fn a_flood_of_files_does_not_unhide_secrets() {
    if !sandboxed("flood") || wright_sandbox::namespaces_refused().is_some() {
        return;
    }
    const MARK: &str = "FLOODSECRET";
    let env = Env::new();
    env.write("config/server.pem", MARK);
    env.write("a/b/c/d/e/.env", MARK);
    let calls = vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({ "command": "mkdir fl && cd fl && seq 1 21000 | xargs touch && echo flooded" }),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "c2",
            "Bash",
            json!({ "command": "for f in config/*m a/b/c/d/e/.e*v; do cat $f; done; echo R\"\"EAD" }),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ];
    let server = MockServer::start(calls).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(["--permission-mode", "bypass"])
        .output()
        .unwrap();
    let sent = server
        .requests()
        .get(2)
        .map(|r| r.body_text())
        .unwrap_or_default();
    assert!(
        sent.contains("READ"),
        "{sent}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(!sent.contains(MARK), "a secret was read after the flood");
}
