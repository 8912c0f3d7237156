//! The small `wright-sandbox` helper beside `wright`: `wright` uses it when
//! it is there, it runs commands only for a `wright` of its own build (and
//! hands the others to that `wright`), and `wright` alone, with no helper
//! beside it, still runs its commands through its own re-executed helper.

use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use wright_sandbox::{
    BUILD, BUILD_ENV, HANDED_ENV, HELPER_ARG, MAIN_ENV, PARENT_ENV, SandboxPolicy,
};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::{Env, stderr, stdout};

const HELPER: &str = env!("CARGO_BIN_EXE_wright-sandbox");

/// The small helper asked to run `sh -c <script>` unconfined (the `full`
/// policy works on every kernel), as `wright` would start it, but with
/// `build` and `main` as the stamp and binary of the `wright` starting it.
fn helper(script: &str, build: Option<&str>, main: Option<&Path>) -> std::process::Output {
    let policy = SandboxPolicy::full().to_json().unwrap();
    let mut cmd = Command::new(HELPER);
    cmd.args([HELPER_ARG, &policy, "--", "sh", "-c", script])
        .env_remove(BUILD_ENV)
        .env_remove(MAIN_ENV)
        .env_remove(HANDED_ENV)
        .env(PARENT_ENV, std::process::id().to_string());
    if let Some(build) = build {
        cmd.env(BUILD_ENV, build);
    }
    if let Some(main) = main {
        cmd.env(MAIN_ENV, main);
    }
    cmd.output().unwrap()
}

const REPORT: &str =
    "echo ran; echo \"build=${WRIGHT_SANDBOX_BUILD-unset} main=${WRIGHT_SANDBOX_MAIN-unset}\"";

#[test]
fn the_helper_runs_a_command_for_its_own_build_and_hides_its_variables() {
    let out = helper(
        REPORT,
        Some(BUILD),
        Some(Path::new(env!("CARGO_BIN_EXE_wright"))),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ran\nbuild=unset main=unset\n");
}

/// A stand-in `wright` that prints what it was handed.
fn fake_wright(dir: &Path) -> std::path::PathBuf {
    let fake = dir.join("wright");
    std::fs::write(
        &fake,
        "#!/bin/sh\necho \"handed $1 $3 $4 $5 ${WRIGHT_SANDBOX_HANDED-unset}\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&fake, std::fs::Permissions::from_mode(0o755)).unwrap();
    fake
}

#[test]
fn a_helper_of_another_build_hands_the_command_to_its_wright_once() {
    let dir = tempfile::tempdir().unwrap();
    let fake = fake_wright(dir.path());
    for build in [Some("0000000000000000"), Some(""), None] {
        // The very arguments the helper got, marked as handed on.
        let out = helper("echo ran", build, Some(&fake));
        assert_eq!(out.status.code(), Some(0), "{build:?}: {}", stderr(&out));
        assert_eq!(stdout(&out), format!("handed {HELPER_ARG} -- sh -c 1\n"));
    }
    // Handed on already (`main` named a helper): not again.
    let out = Command::new(HELPER)
        .args([HELPER_ARG, &SandboxPolicy::full().to_json().unwrap()])
        .args(["--", "sh", "-c", "echo ran"])
        .env(BUILD_ENV, "0000000000000000")
        .env(MAIN_ENV, &fake)
        .env(HANDED_ENV, "1")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("another wright build"),
        "{}",
        stderr(&out)
    );
}

/// The `wright` a command is handed to (or re-executed) confines it only if
/// it is of the build that wrote the policy; a file replaced since (an
/// upgrade during the session) refuses.
#[test]
fn wright_replaced_since_the_session_began_refuses_its_commands() {
    let main = Path::new(env!("CARGO_BIN_EXE_wright"));
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let script = format!("touch {}", marker.display());
    // Through the helper of another build, and directly.
    let out = helper(&script, Some("0000000000000000"), Some(main));
    assert_eq!(out.status.code(), Some(126), "{}", stderr(&out));
    assert!(stderr(&out).contains("restart wright"), "{}", stderr(&out));
    let out = Command::new(main)
        .args([HELPER_ARG, &SandboxPolicy::full().to_json().unwrap(), "--"])
        .args(["sh", "-c", &script])
        .env(BUILD_ENV, "0000000000000000")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(126), "{}", stderr(&out));
    assert!(!marker.exists(), "the command ran");
    // Of the same build, it runs them.
    let out = Command::new(main)
        .args([HELPER_ARG, &SandboxPolicy::full().to_json().unwrap(), "--"])
        .args(["sh", "-c", REPORT])
        .env(BUILD_ENV, BUILD)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(stdout(&out), "ran\nbuild=unset main=unset\n");
}

#[test]
fn a_helper_of_another_build_with_no_wright_named_refuses() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("ran");
    let script = format!("touch {}", marker.display());
    for main in [None, Some(Path::new(HELPER))] {
        let out = helper(&script, Some("0000000000000000"), main);
        assert_eq!(out.status.code(), Some(126), "{main:?}");
        assert!(
            stderr(&out).contains("another wright build"),
            "{}",
            stderr(&out)
        );
        assert!(!marker.exists(), "the command ran");
    }
    // A missing `wright` to hand to: refused, not run.
    let out = helper(&script, None, Some(&dir.path().join("no-such-wright")));
    assert_eq!(out.status.code(), Some(126));
    assert!(
        stderr(&out).contains("cannot hand the command"),
        "{}",
        stderr(&out)
    );
    assert!(!marker.exists(), "the command ran");
}

#[test]
fn the_helper_started_by_hand_prints_its_usage() {
    let out = Command::new(HELPER).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("usage: wright-sandbox"),
        "{}",
        stderr(&out)
    );
}

/// `cmd` (one of [`Env`]'s, which start from an empty environment) with
/// `program` in place of the test build's `wright`.
fn as_program(cmd: &Command, program: &Path) -> Command {
    let mut out = Command::new(program);
    out.args(cmd.get_args())
        .env_clear()
        .envs(cmd.get_envs().filter_map(|(k, v)| v.map(|v| (k, v))));
    if let Some(dir) = cmd.get_current_dir() {
        out.current_dir(dir);
    }
    out
}

/// `doctor`'s sandbox line, which names the helper it ran.
fn doctor_sandbox(env: &Env, wright: &Path) -> String {
    let server = MockServer::start(vec![MockResponse::json(200, json!({"data": []}))]).unwrap();
    let mut cmd = env.std_wright();
    cmd.args(["--provider", "anthropic", "--model", "m", "--base-url"])
        .arg(server.url())
        .env("ANTHROPIC_API_KEY", super::FAKE_KEY)
        .args(["doctor", "--json"]);
    let out = as_program(&cmd, wright).output().unwrap();
    let report: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["name"] == "sandbox")
        .map(|c| c["detail"].as_str().unwrap_or_default().to_owned())
        .unwrap_or_default()
}

fn sandboxed() -> bool {
    matches!(wright_sandbox::probe(), wright_sandbox::Support::Available)
}

/// A command the model asks for, run by `wright` at `wright`; returns what
/// went back to the model.
fn run_a_command(env: &Env, wright: &Path) -> (std::process::Output, String) {
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "c1",
            "Bash",
            json!({ "command": "echo made > made.txt && cat made.txt" }),
        )])),
        MockResponse::sse(anthropic::text("done")),
    ])
    .unwrap();
    let mut cmd = env.std_wright_p("anthropic", &server.url(), "go");
    cmd.args(["--permission-mode", "bypass"]);
    let out = as_program(&cmd, wright).output().unwrap();
    let sent = server
        .requests()
        .get(1)
        .map(|r| r.body_text())
        .unwrap_or_default();
    (out, sent)
}

/// `wright` at `wright` runs a command the model asks for, and `doctor`
/// says it confines commands with the helper at `helper`.
fn assert_runs_commands_through(wright: &Path, helper: &Path) {
    let env = Env::new();
    let (out, sent) = run_a_command(&env, wright);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(sent.contains("made"), "{sent}");
    assert_eq!(
        std::fs::read_to_string(env.path("made.txt")).unwrap(),
        "made\n"
    );
    if !sandboxed() {
        eprintln!("SKIPPED the helper's name in doctor: OS sandbox unavailable here");
        return;
    }
    let line = doctor_sandbox(&env, wright);
    assert!(line.contains("Landlock"), "{line}");
    assert!(
        line.contains(&format!("(helper {})", helper.display())),
        "{line}"
    );
}

#[test]
fn wright_runs_commands_through_the_helper_beside_it() {
    assert_runs_commands_through(Path::new(env!("CARGO_BIN_EXE_wright")), Path::new(HELPER));
}

#[test]
fn wright_alone_runs_commands_through_itself() {
    // `wright` with no helper beside it: a link (or copy) in a directory
    // of its own.
    let dir = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    let alone = dir.path().join("wright");
    if std::fs::hard_link(env!("CARGO_BIN_EXE_wright"), &alone).is_err() {
        std::fs::copy(env!("CARGO_BIN_EXE_wright"), &alone).unwrap();
    }
    assert_runs_commands_through(&alone, &alone);
}
