//! Shared helpers for the end-to-end suite.

mod acp;
mod agents;
mod claude_flags;
mod config;
mod context;
#[cfg(unix)]
mod env_security;
mod errors;
mod fault_matrix;
mod first_run;
mod first_steps;
#[cfg(target_os = "linux")]
mod git_plants;
#[cfg(unix)]
mod guard_security;
mod headless;
mod hooks;
mod hooks_run;
mod huge_entries;
mod install;
mod interactive;
mod interrupt;
mod mcp_config;
#[cfg(unix)]
mod mcp_env_security;
mod mcp_npm;
// The token file's mode is checked: Unix only.
mod command_rules;
#[cfg(unix)]
mod mcp_oauth;
mod mcp_tools;
#[cfg(target_os = "linux")]
mod os_boundary;
#[cfg(unix)]
mod paths_security;
mod plan_mode;
mod prompt;
#[cfg(unix)]
mod prompt_links;
mod providers;
mod records;
mod retry_on_terminal;
#[cfg(unix)]
mod rewind_security;
mod safety;
#[cfg(unix)]
mod sandbox_helper;
mod scenarios;
mod sdk_flags;
mod sdk_python;
mod sdk_stream;
mod sessions;
mod steering;
mod stream_endings;
mod subagent_limits;
mod subagent_records;
mod subagents;
mod subagents_parallel;
mod trust;
mod tui;

use std::path::Path;

use assert_cmd::Command;
use tempfile::TempDir;

/// A temp project and a temp HOME for one run.
pub struct Env {
    pub project: TempDir,
    pub home: TempDir,
}

impl Env {
    pub fn new() -> Self {
        Self {
            project: tempfile::tempdir().unwrap(),
            home: tempfile::tempdir().unwrap(),
        }
    }

    pub fn path(&self, rel: &str) -> std::path::PathBuf {
        self.project.path().join(rel)
    }

    pub fn write(&self, rel: &str, text: &str) {
        let p = self.path(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// Writes the user's config file (`$XDG_CONFIG_HOME/wright/config.toml`):
    /// the place for settings an untrusted project may not make.
    pub fn write_user_config(&self, text: &str) {
        let dir = self.home.path().join(".config/wright");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), text).unwrap();
    }

    /// `wright` with a clean environment: no keys, no user config, no colour.
    pub fn wright(&self) -> Command {
        Command::from_std(self.std_wright())
    }

    /// `wright` pointed at an Anthropic mock (model `m`, the fake key);
    /// the caller adds the subcommand or task.
    pub fn anthropic(&self, url: &str) -> Command {
        let mut cmd = self.wright();
        cmd.args(["--provider", "anthropic", "--model", "m", "--base-url", url])
            .env("ANTHROPIC_API_KEY", FAKE_KEY);
        cmd
    }

    /// `wright -p PROMPT` against a mock speaking `provider`.
    pub fn wright_p(&self, provider: &str, url: &str, prompt: &str) -> Command {
        Command::from_std(self.std_wright_p(provider, url, prompt))
    }

    /// [`Env::wright`] as a plain `std::process::Command`, for tests that spawn.
    pub fn std_wright(&self) -> std::process::Command {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_wright"));
        cmd.env_clear()
            .current_dir(self.project.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join(".config"))
            .env("XDG_DATA_HOME", self.home.path().join(".local/share"))
            .env("NO_COLOR", "1")
            // No local server may be picked up by accident.
            .env("WRIGHT_LOCAL_SERVER_PORTS", "")
            // Failures fail at once unless a test is about retries.
            .env("WRIGHT_MAX_RETRIES", "0");
        cmd
    }

    /// `wright` on stream-json input and output against an Anthropic mock
    /// at `url` (model `test-model`, `--verbose`), with `extra` flags and
    /// every stream piped: an SDK program's side of a session.
    pub fn stream_json_child(&self, url: &str, extra: &[&str]) -> std::process::Child {
        self.std_wright()
            .args(["--provider", "anthropic", "--model", "test-model"])
            .args(["--base-url", url])
            .args([
                "--input-format",
                "stream-json",
                "--output-format",
                "stream-json",
            ])
            .arg("--verbose")
            .args(extra)
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap()
    }

    /// [`Env::wright_p`] as a plain `std::process::Command`.
    pub fn std_wright_p(&self, provider: &str, url: &str, prompt: &str) -> std::process::Command {
        let mut cmd = self.std_wright();
        cmd.args([
            "-p",
            prompt,
            "--provider",
            provider,
            "--model",
            "test-model",
            "--base-url",
        ]);
        match provider {
            "anthropic" => cmd.arg(url),
            _ => cmd.arg(format!("{url}/v1")),
        };
        cmd.env(key_var(provider), FAKE_KEY);
        cmd
    }
}

/// The environment variable that holds `provider`'s key.
pub fn key_var(provider: &str) -> &'static str {
    if provider == "anthropic" {
        "ANTHROPIC_API_KEY"
    } else {
        "OPENAI_API_KEY"
    }
}

impl Env {
    /// Runs wright's interactive mode on a pseudo-terminal (util-linux
    /// `script`) against an Anthropic mock at `url`, typing `input`.
    /// Returns success and what the terminal showed, or `None` (after
    /// saying so) where `script` is not installed.
    pub fn terminal(&self, url: &str, extra_args: &str, input: &str) -> Option<(bool, String)> {
        self.terminal_with(url, extra_args, input, &[])
    }

    /// [`Env::terminal`] with extra environment variables for wright.
    pub fn terminal_with(
        &self,
        url: &str,
        extra_args: &str,
        input: &str,
        vars: &[(String, String)],
    ) -> Option<(bool, String)> {
        use std::io::Write;
        let mut proc = self.script(url, extra_args, vars)?.spawn().unwrap();
        proc.stdin
            .take()
            .unwrap()
            .write_all(input.as_bytes())
            .unwrap();
        let out = proc.wait_with_output().unwrap();
        Some((
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        ))
    }

    /// As [`Env::terminal`], but typing each step's input only once the
    /// terminal has shown its text (after the previous step's), and a
    /// moment more: an approval question takes no line typed within half a
    /// second of showing. Input ends after the last step.
    pub fn terminal_steps(
        &self,
        url: &str,
        extra_args: &str,
        steps: &[(&str, &str)],
    ) -> Option<(bool, String)> {
        use std::io::{Read, Write};
        use std::sync::{Arc, Mutex};
        use std::time::{Duration, Instant};
        let mut proc = self.script(url, extra_args, &[])?.spawn().unwrap();
        let mut stdin = proc.stdin.take().unwrap();
        let mut stdout = proc.stdout.take().unwrap();
        let shown = Arc::new(Mutex::new(String::new()));
        let reader = {
            let shown = Arc::clone(&shown);
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = stdout.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    let text = String::from_utf8_lossy(&buf[..n]).into_owned();
                    shown.lock().unwrap().push_str(&text);
                }
            })
        };
        let mut from = 0;
        for (wait, input) in steps {
            let start = Instant::now();
            loop {
                let text = shown.lock().unwrap().clone();
                if let Some(i) = text[from..].find(wait) {
                    from += i + wait.len();
                    break;
                }
                assert!(
                    start.elapsed() < Duration::from_secs(90),
                    "timed out waiting for {wait:?}; the terminal showed:\n{text}"
                );
                std::thread::sleep(Duration::from_millis(50));
            }
            std::thread::sleep(Duration::from_millis(800));
            stdin.write_all(input.as_bytes()).unwrap();
            stdin.flush().unwrap();
        }
        drop(stdin);
        let status = proc.wait().unwrap();
        reader.join().unwrap();
        let text = shown.lock().unwrap().clone();
        Some((status.success(), text))
    }

    /// `script` running wright's line mode against `url`, its ends piped;
    /// `None` (after saying so) where `script` is not installed.
    fn script(
        &self,
        url: &str,
        extra_args: &str,
        vars: &[(String, String)],
    ) -> Option<std::process::Command> {
        if std::process::Command::new("script")
            .arg("--version")
            .output()
            .is_err()
        {
            eprintln!("SKIPPED: util-linux `script` is not installed; interactive mode not tested");
            return None;
        }
        let line = format!(
            "{} --provider anthropic --model test-model --base-url {url} {extra_args}",
            env!("CARGO_BIN_EXE_wright"),
        );
        let mut script = std::process::Command::new("script");
        script
            .args(["-qec", &line, "/dev/null"])
            .env_clear()
            .current_dir(self.project.path())
            .env("PATH", std::env::var_os("PATH").unwrap_or_default())
            .env("HOME", self.home.path())
            .env("XDG_CONFIG_HOME", self.home.path().join(".config"))
            .env("XDG_DATA_HOME", self.home.path().join(".local/share"))
            .env("NO_COLOR", "1")
            .env("WRIGHT_LOCAL_SERVER_PORTS", "")
            .env("WRIGHT_MAX_RETRIES", "0")
            // These tests are about the line mode; the full UI has its own.
            .env("WRIGHT_LINE_MODE", "1")
            .env("ANTHROPIC_API_KEY", FAKE_KEY)
            .envs(vars.iter().map(|(k, v)| (k, v)))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped());
        Some(script)
    }
}

/// A distinctive fake key: it must never appear in any output.
pub const FAKE_KEY: &str = "sk-test-FAKEKEY-0123456789abcdef";

/// The whole environment of a wright started in a pseudo-terminal (the
/// caller clears the rest): the test's home and data dirs, an xterm, no
/// local-server probing, the fake key; `extra` adds or overrides.
pub fn pty_env(env: &Env, extra: &[(&str, &str)]) -> Vec<(String, String)> {
    let home = env.home.path();
    let mut vars: Vec<(String, String)> = [
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("HOME", home.display().to_string()),
        (
            "XDG_CONFIG_HOME",
            home.join(".config").display().to_string(),
        ),
        (
            "XDG_DATA_HOME",
            home.join(".local/share").display().to_string(),
        ),
        ("TERM", "xterm-256color".to_owned()),
        ("WRIGHT_LOCAL_SERVER_PORTS", String::new()),
        ("ANTHROPIC_API_KEY", FAKE_KEY.to_owned()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v))
    .collect();
    vars.extend(
        extra
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned())),
    );
    vars
}

pub fn stdout(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Every stdout line parsed as JSON (the stream-json format).
pub fn ndjson(out: &std::process::Output) -> Vec<serde_json::Value> {
    stdout(out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

pub fn stderr(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Asserts nothing panicked and the key never leaked.
pub fn assert_clean(out: &std::process::Output) {
    let (o, e) = (stdout(out), stderr(out));
    assert!(!e.contains("panicked"), "panic: {e}");
    assert!(!o.contains(FAKE_KEY) && !e.contains(FAKE_KEY), "key leaked");
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap()
}
