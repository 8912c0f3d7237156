//! Print mode with its output on a terminal, when a stream breaks after
//! part of the answer was shown: the broken part stays, a line says it
//! broke off and is retried, and the retry's answer follows whole.

use std::io::Read;
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::Env;

/// Runs `wright -p` in a pseudo-terminal and returns everything it wrote,
/// escape sequences removed.
fn run_on_a_terminal(env: &Env, url: &str) -> String {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 40,
            cols: 200,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_wright"));
    cmd.args(["-p", "hi", "--provider", "anthropic", "--model", "m"]);
    cmd.args(["--base-url", url]);
    cmd.cwd(env.project.path());
    cmd.env_clear();
    let extra = [
        ("NO_COLOR", "1"),
        ("WRIGHT_MAX_RETRIES", "2"),
        ("WRIGHT_RETRY_MAX_DELAY_MS", "10"),
    ];
    for (k, v) in super::pty_env(env, &extra) {
        cmd.env(k, v);
    }
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let collected = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let sink = collected.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            sink.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "wright hung");
        std::thread::sleep(Duration::from_millis(20));
    };
    // Let the reader drain what the pty still holds.
    std::thread::sleep(Duration::from_millis(300));
    drop(pty.master);
    let bytes = collected.lock().unwrap().clone();
    let text = String::from_utf8_lossy(&bytes).replace("\r\n", "\n");
    assert!(status.success(), "{text}");
    strip_escapes(&text)
}

fn strip_escapes(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            if chars.peek() == Some(&'[') {
                chars.next();
                for c in chars.by_ref() {
                    if c.is_ascii_alphabetic() {
                        break;
                    }
                }
            }
            continue;
        }
        out.push(c);
    }
    out
}

#[test]
fn a_broken_answer_stays_marked_and_the_retry_follows_it() {
    let env = Env::new();
    let body = anthropic::text("Hello there");
    let delta = body.find("content_block_delta").unwrap();
    let cut = delta + body[delta..].find("\n\n").unwrap() + 2;
    let server = MockServer::start(vec![
        MockResponse::sse(body.clone()).drop_after(cut),
        MockResponse::sse(body),
    ])
    .unwrap();
    let shown = run_on_a_terminal(&env, &server.url());
    let broken = shown.find("Hello \n").unwrap_or(usize::MAX);
    let marked = shown
        .find("the response above broke off; retrying (1) after a dropped stream")
        .unwrap_or(usize::MAX);
    let retried = shown.rfind("Hello there").unwrap_or(usize::MAX);
    assert!(
        broken < marked && marked < retried && retried != usize::MAX,
        "{shown}"
    );
    assert_eq!(shown.matches("Hello there").count(), 1, "{shown}");
}
