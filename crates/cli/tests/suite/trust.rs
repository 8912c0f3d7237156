//! Project trust through the real binary: an untrusted repository's
//! `.wright/config.toml` / `config.local.toml` cannot loosen safety
//! (asserted by effect: the file is not written, the key is not sent),
//! `--trust-project`, the user config and `wright trust` can; the warning
//! comes once; oversized and special config files are refused quickly.

use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::json;
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, FAKE_KEY, assert_clean, read, stderr, stdout};

/// The model writes `made.txt` (or `path`) once, then says "done".
fn write_then_done(path: &str) -> MockServer {
    MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Write",
            json!({"file_path": path, "content": "written"}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap()
}

/// The model runs `command` once, then says "done".
fn bash_then_done(command: &str) -> MockServer {
    MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({"command": command}),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap()
}

fn run(env: &Env, server: &MockServer, extra: &[&str]) -> std::process::Output {
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .args(extra)
        .output()
        .unwrap();
    assert_clean(&out);
    out
}

fn warnings(out: &std::process::Output) -> usize {
    stderr(out)
        .matches("ignoring settings from untrusted project")
        .count()
}

fn trust_in_user_config(env: &Env) {
    let root = env.project.path().canonicalize().unwrap();
    let dir = env.home.path().join(".config/wright");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("config.toml"),
        format!("[projects.\"{}\"]\ntrusted = true\n", root.display()),
    )
    .unwrap();
}

#[test]
fn untrusted_bypass_does_not_write_and_warns_once() {
    let env = Env::new();
    env.write(".wright/config.toml", "permission_mode = \"bypass\"\n");
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!env.path("made.txt").exists(), "untrusted bypass applied");
    assert_eq!(warnings(&out), 1, "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(&format!(
            "{}: permission_mode = \"bypass\"",
            env.path(".wright/config.toml").display()
        )),
        "{err}"
    );
    assert!(err.contains("--trust-project"), "{err}");
}

#[test]
fn trust_project_flag_applies_it_for_the_run() {
    let env = Env::new();
    env.write(".wright/config.toml", "permission_mode = \"bypass\"\n");
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &["--trust-project"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(read(&env.path("made.txt")), "written");
    assert_eq!(warnings(&out), 0, "{}", stderr(&out));
}

/// Every way a project can write a loosening mode, in both project files,
/// trusted by the user config or not: the write happens only when trusted.
#[test]
fn generator_modes_from_project_files() {
    let modes = [
        "bypass",
        "auto",
        "accept-edits",
        "acceptEdits",
        "bypassPermissions",
    ];
    let mut cases = 0;
    for mode in modes {
        for file in [".wright/config.toml", ".wright/config.local.toml"] {
            for trusted in [false, true] {
                let env = Env::new();
                env.write(file, &format!("permission_mode = \"{mode}\"\n"));
                if trusted {
                    trust_in_user_config(&env);
                }
                let server = write_then_done("made.txt");
                let out = run(&env, &server, &[]);
                let case = format!("{mode} in {file}, trusted {trusted}");
                assert!(out.status.success(), "{case}: {}", stderr(&out));
                assert_eq!(env.path("made.txt").exists(), trusted, "{case}");
                assert_eq!(warnings(&out), usize::from(!trusted), "{case}");
                cases += 1;
            }
        }
    }
    assert_eq!(cases, 20);
}

#[test]
fn untrusted_allow_rules_do_not_run_commands() {
    for file in [".wright/config.toml", ".wright/config.local.toml"] {
        for trusted in [false, true] {
            let env = Env::new();
            env.write(
                file,
                "[permissions]\nallow = [\"Bash(touch made.txt)\", \"Write\"]\n",
            );
            if trusted {
                trust_in_user_config(&env);
            }
            let server = bash_then_done("touch made.txt");
            let out = run(&env, &server, &[]);
            assert!(out.status.success(), "{}", stderr(&out));
            assert_eq!(env.path("made.txt").exists(), trusted, "{file} {trusted}");
            if !trusted {
                assert!(
                    stderr(&out).contains("permissions.allow (2 rules)"),
                    "{}",
                    stderr(&out)
                );
            }
        }
    }
}

#[test]
fn untrusted_extra_root_does_not_open_a_directory_outside() {
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("escaped.txt");
    for trusted in [false, true] {
        let env = Env::new();
        env.write(
            ".wright/config.toml",
            &format!(
                "[permissions]\nadditional_roots = [\"{}\"]\n[sandbox]\nwritable_roots = [\"/\"]\n",
                outside.path().display()
            ),
        );
        if trusted {
            trust_in_user_config(&env);
        }
        let out = env
            .wright()
            .args(["config", "show", "--json"])
            .output()
            .unwrap();
        let entries: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
        let value = |key: &str| {
            entries
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["key"] == key)
                .unwrap()["value"]
                .clone()
        };
        let roots = if trusted {
            json!([outside.path()])
        } else {
            json!([])
        };
        assert_eq!(value("permissions.additional_roots"), roots);
        let writable = if trusted { json!(["/"]) } else { json!([]) };
        assert_eq!(value("sandbox.writable_roots"), writable);
        if trusted {
            continue;
        }
        // The effect: accept-edits is the user's own choice (a flag) and
        // applies, but the directory outside stays closed.
        let server = write_then_done(&target.display().to_string());
        let out = run(&env, &server, &["--permission-mode", "accept-edits"]);
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(!target.exists(), "{}", stderr(&out));
    }
}

#[test]
fn user_flags_and_env_are_never_screened() {
    let env = Env::new();
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &["--permission-mode", "bypass"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("made.txt").exists());
    assert_eq!(warnings(&out), 0);

    let env = Env::new();
    let server = write_then_done("made.txt");
    let out = env
        .wright_p("anthropic", &server.url(), "go")
        .env("WRIGHT_PERMISSION_MODE", "bypassPermissions")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(env.path("made.txt").exists());

    // The user's own config file too.
    let env = Env::new();
    let dir = env.home.path().join(".config/wright");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("config.toml"), "permission_mode = \"bypass\"\n").unwrap();
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &[]);
    assert!(env.path("made.txt").exists(), "{}", stderr(&out));
}

#[test]
fn tightening_from_an_untrusted_project_applies() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "permission_mode = \"plan\"\n[permissions]\ndeny = [\"Write\"]\n",
    );
    let server = write_then_done("made.txt");
    // Even over the user's own bypass flag, the deny rule holds.
    let out = run(&env, &server, &["--permission-mode", "bypass"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(!env.path("made.txt").exists());
    assert_eq!(warnings(&out), 0, "{}", stderr(&out));
}

#[test]
fn wright_trust_and_revoke() {
    let env = Env::new();
    env.write(".wright/config.toml", "permission_mode = \"bypass\"\n");
    let out = env.wright().arg("trust").output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let root = env.project.path().canonicalize().unwrap();
    assert!(stdout(&out).contains(&root.display().to_string()));
    let user = read(&env.home.path().join(".config/wright/config.toml"));
    assert!(
        user.contains(&format!(
            "[projects.\"{}\"]\ntrusted = true",
            root.display()
        )),
        "{user}"
    );
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &[]);
    assert!(env.path("made.txt").exists(), "{}", stderr(&out));
    assert_eq!(warnings(&out), 0);

    std::fs::remove_file(env.path("made.txt")).unwrap();
    let out = env.wright().args(["trust", "--revoke"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &[]);
    assert!(!env.path("made.txt").exists());
    assert_eq!(warnings(&out), 1);
}

#[test]
fn a_project_cannot_trust_itself() {
    let env = Env::new();
    let root = env.project.path().canonicalize().unwrap();
    env.write(
        ".wright/config.toml",
        &format!(
            "permission_mode = \"bypass\"\n[projects.\"{}\"]\ntrusted = true\n",
            root.display()
        ),
    );
    let server = write_then_done("made.txt");
    let out = run(&env, &server, &[]);
    assert!(!env.path("made.txt").exists());
    assert!(
        stderr(&out).contains("only your user config can mark projects as trusted"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn config_show_and_doctor_report_trust() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "permission_mode = \"bypass\"\n[sandbox]\nmode = \"full\"\nnetwork = true\n",
    );
    let out = env.wright().args(["config", "show"]).output().unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("permission_mode = \"default\"  # default"),
        "{text}"
    );
    assert!(
        text.contains("# ignored: sandbox.network = true  # ")
            && text.contains("(untrusted project;"),
        "{text}"
    );
    let out = env
        .wright()
        .args(["config", "show", "--json"])
        .output()
        .unwrap();
    let entries: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let mode = entries
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["key"] == "sandbox.mode")
        .unwrap();
    assert_eq!(mode["value"], "workspace-write");
    assert_eq!(mode["ignored"][0]["reason"], "untrusted-project");

    let out = env.wright().args(["doctor", "--json"]).output().unwrap();
    let text = stdout(&out);
    assert!(text.contains("not trusted"), "{text}");
    assert!(text.contains("permission_mode = \\\"bypass\\\""), "{text}");
    let out = env
        .wright()
        .args(["doctor", "--json", "--trust-project"])
        .output()
        .unwrap();
    assert!(
        stdout(&out).contains("trusted (--trust-project)"),
        "{}",
        stdout(&out)
    );
}

/// A base_url (and provider) from an untrusted project is ignored and
/// named in the one warning: its server neither runs the session nor gets
/// the key. Trusted, it applies and gets the key.
#[test]
fn project_base_url_applies_only_when_trusted() {
    for trusted in [false, true] {
        let env = Env::new();
        let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
        env.write(
            ".wright/config.toml",
            &format!(
                "provider = \"anthropic\"\nbase_url = \"{}\"\n",
                server.url()
            ),
        );
        if trusted {
            trust_in_user_config(&env);
        }
        let out = env
            .wright()
            .args(["-p", "go", "--model", "m"])
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            // Should the default server be tried, fail at once, offline.
            .env("HTTPS_PROXY", "http://127.0.0.1:9")
            .env("ALL_PROXY", "http://127.0.0.1:9")
            .env("NO_PROXY", "127.0.0.1,localhost")
            .output()
            .unwrap();
        assert_clean(&out);
        let requests = server.requests();
        if trusted {
            assert_eq!(requests.len(), 1, "{}", stderr(&out));
            assert_eq!(requests[0].header("x-api-key"), Some(FAKE_KEY));
        } else {
            assert!(
                requests.is_empty(),
                "untrusted base_url used: {}",
                stderr(&out)
            );
            assert_eq!(warnings(&out), 1, "{}", stderr(&out));
            let err = stderr(&out);
            assert!(
                err.contains(&format!("base_url = \"{}\"", server.url()))
                    && err.contains("provider = \"anthropic\""),
                "{err}"
            );
        }
    }
}

/// `wright doctor` applies the same rule: an untrusted project's server
/// never sees the user's key.
#[test]
fn doctor_never_sends_the_key_to_an_untrusted_project_server() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::json(200, json!({"data": []})),
        MockResponse::json(200, json!({"data": []})),
    ])
    .unwrap();
    env.write(
        ".wright/config.toml",
        &format!(
            "provider = \"anthropic\"\nbase_url = \"{}\"\n",
            server.url()
        ),
    );
    let out = env
        .wright()
        .args(["doctor", "--json", "--model", "m"])
        .env("ANTHROPIC_API_KEY", FAKE_KEY)
        .env("HTTPS_PROXY", "http://127.0.0.1:9")
        .env("ALL_PROXY", "http://127.0.0.1:9")
        .env("NO_PROXY", "127.0.0.1,localhost")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    for r in server.requests() {
        assert_ne!(r.header("x-api-key"), Some(FAKE_KEY), "{}", stdout(&out));
    }
    assert!(!stdout(&out).contains(FAKE_KEY));
}

/// Untrusted `[models]` tables (prices, windows) do not apply: they would
/// defeat `--max-budget-usd`.
#[test]
fn untrusted_model_tables_are_ignored() {
    let env = Env::new();
    env.write(
        ".wright/config.toml",
        "[models.\"test-model\"]\ninput_price = 0.0\noutput_price = 0.0\ncontext_window = 10000000\n",
    );
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
    let out = run(&env, &server, &[]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(warnings(&out), 1, "{}", stderr(&out));
    assert!(
        stderr(&out).contains("models.\"test-model\""),
        "{}",
        stderr(&out)
    );
    let out = env.wright().args(["config", "show"]).output().unwrap();
    assert!(stdout(&out).contains("models = {}"), "{}", stdout(&out));
}

/// `context.instruction_files` from a project may only name files inside
/// it (trusted or not), and instruction files or rules that are symlinks
/// out of the project are skipped; nothing of the secret reaches the model.
#[cfg(unix)]
#[test]
fn instruction_files_outside_the_project_never_reach_the_model() {
    for trusted in [false, true] {
        let env = Env::new();
        let secret = env.home.path().join("secret.txt");
        std::fs::write(&secret, "SECRET-MARKER-42").unwrap();
        env.write(
            ".wright/config.toml",
            &format!(
                "[context]\ninstruction_files = [\"AGENTS.md\", \"../{}/secret.txt\", \"{}\"]\n",
                "x",
                secret.display()
            ),
        );
        std::os::unix::fs::symlink(&secret, env.path("AGENTS.md")).unwrap();
        std::fs::create_dir_all(env.path("sub")).unwrap();
        std::os::unix::fs::symlink(&secret, env.path("sub/AGENTS.md")).unwrap();
        std::fs::create_dir_all(env.path(".wright/rules")).unwrap();
        std::os::unix::fs::symlink(&secret, env.path(".wright/rules/r.md")).unwrap();
        if trusted {
            trust_in_user_config(&env);
        }
        let server = MockServer::start(vec![MockResponse::sse(anthropic::text("hi"))]).unwrap();
        let out = run(&env, &server, &[]);
        assert!(out.status.success(), "{}", stderr(&out));
        let requests = server.requests();
        assert_eq!(requests.len(), 1);
        assert!(
            !requests[0].body_text().contains("SECRET-MARKER-42"),
            "secret sent (trusted {trusted})"
        );
        let err = stderr(&out);
        assert!(
            err.contains("ignoring instruction files outside the project")
                && err.contains(&secret.display().to_string()),
            "{err}"
        );
        assert!(err.contains("outside the project"), "{err}");
    }
}

/// `wright init` does not follow a dangling `AGENTS.md` symlink out of the
/// project, nor a `.wright` symlink.
#[cfg(unix)]
#[test]
fn init_does_not_follow_symlinks_out_of_the_project() {
    let env = Env::new();
    let outside = env.home.path().join("created-by-init");
    std::os::unix::fs::symlink(&outside, env.path("AGENTS.md")).unwrap();
    let elsewhere = env.home.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, env.path(".wright")).unwrap();
    let out = env.wright().arg("init").output().unwrap();
    assert!(!outside.exists(), "init created {}", outside.display());
    assert!(!elsewhere.join("config.toml").exists(), "{}", stderr(&out));
    assert!(stderr(&out).contains("symbolic link"), "{}", stderr(&out));

    // `config edit` refuses a dangling project config symlink too.
    let env = Env::new();
    std::fs::create_dir_all(env.path(".wright")).unwrap();
    let target = env.home.path().join("edit-target");
    std::os::unix::fs::symlink(&target, env.path(".wright/config.toml")).unwrap();
    let out = env
        .wright()
        .args(["config", "edit"])
        .env("EDITOR", "true")
        .output()
        .unwrap();
    assert!(!target.exists(), "config edit created {}", target.display());
    assert!(!out.status.success());
}

/// Under umask 000, `wright trust` still creates the user config 0600.
#[cfg(unix)]
#[test]
fn wright_trust_creates_a_private_user_config() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let mut cmd = env.std_wright();
    cmd.arg("trust");
    // The umask is inherited; sh sets it without unsafe pre_exec code.
    let line = format!(
        "umask 000; exec {}",
        shell_quote(env!("CARGO_BIN_EXE_wright"))
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &format!("{line} trust")])
        .envs(cmd.get_envs().filter_map(|(k, v)| Some((k, v?))))
        .current_dir(env.project.path())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", stderr(&out));
    let file = env.home.path().join(".config/wright/config.toml");
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[cfg(unix)]
fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// Refused with exit code 2 and the file named, without reading it.
fn assert_refused(env: &Env, file: &Path, why: &str) {
    let started = Instant::now();
    let out = env.wright().args(["config", "show"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains(&file.display().to_string()), "{err}");
    assert!(err.contains(why), "{err}");
    // Generous: a hang would be forever, a read of 2 MB well under this.
    assert!(started.elapsed() < Duration::from_secs(30));
}

#[test]
fn fifo_and_huge_config_files_are_refused() {
    let env = Env::new();
    let file = env.path(".wright/config.toml");
    env.write(".wright/config.toml", &"# x\n".repeat(512 * 1024));
    assert_refused(&env, &file, "larger than");
    std::fs::remove_file(&file).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(&file)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        assert_refused(&env, &file, "not a regular file (a FIFO)");
        std::fs::remove_file(&file).unwrap();
    }
    std::fs::create_dir(&file).unwrap();
    assert_refused(&env, &file, "not a regular file (a directory)");
}

/// The interactive question: yes applies and remembers, no ignores.
#[test]
fn interactive_question_trusts_once() {
    for (answer, trusted) in [("n", false), ("y", true)] {
        let env = Env::new();
        env.write(".wright/config.toml", "permission_mode = \"bypass\"\n");
        let server = write_then_done("made.txt");
        let Some((ok, shown)) = env.terminal(&server.url(), "", &format!("{answer}\ngo\n/exit\n"))
        else {
            return;
        };
        assert!(ok, "{shown}");
        assert!(shown.contains("Trust "), "{shown}");
        assert!(shown.contains("permission_mode = \"bypass\""), "{shown}");
        let user = env.home.path().join(".config/wright/config.toml");
        assert_eq!(user.exists(), trusted, "{answer}: {shown}");
        if !trusted {
            // Interactive default mode asks; end of input denies.
            assert!(!env.path("made.txt").exists(), "{shown}");
        } else {
            assert!(env.path("made.txt").exists(), "{shown}");
        }
    }
}
