//! The fault matrix: each protocol × each server or network fault, driving
//! the real binary against the mock. Every cell either recovers (the tool
//! ran once per call the model made, the answer is on stdout once, and in
//! the json result once) or ends with a clear error and exit code 1, in
//! bounded time; either way the session file stays valid JSONL and
//! `--continue` works against a healthy server afterwards. A stream that
//! breaks, abruptly or with a clean EOF, anywhere before its terminal event
//! recovers, whatever it had shown.
//!
//! Backoff and the stream idle timeout are shortened through
//! `WRIGHT_RETRY_MAX_DELAY_MS` and `WRIGHT_STREAM_*_TIMEOUT_MS`, and the
//! cells of one protocol run concurrently, so the matrix stays quick.

use std::time::Duration;

use serde_json::{Value, json};
use wright_test_support::{MockResponse, MockServer, anthropic, openai_chat, openai_responses};

use super::scenarios::tool_results;
use super::{Env, assert_clean, stderr, stdout};

/// How a cell must end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// The run retries and finishes with exit 0.
    Recover,
    /// Exit 1 with a clear message.
    Fail,
    /// Either, for faults a server may mean as an answer (malformed or
    /// oversized events, a captive portal's page).
    Either,
}

/// One cell: a name, the script (`None` for a refused connection) and the
/// expected ending.
struct Cell {
    name: String,
    script: Option<Vec<MockResponse>>,
    expect: Expect,
    /// Runs with `--output-format json` and checks the result's text.
    json: bool,
}

const ANSWER: &str = "final answer from the mock";

fn tool_call_body(provider: &str) -> String {
    let calls = [(
        "call_fm_1",
        "Bash",
        json!({"command": "echo ran >> ran.txt"}),
    )];
    match provider {
        "anthropic" => anthropic::tool_calls(&calls),
        "openai-chat" => openai_chat::tool_calls(&calls),
        _ => openai_responses::tool_calls(&calls),
    }
}

fn answer_body(provider: &str) -> String {
    match provider {
        "anthropic" => anthropic::text(ANSWER),
        "openai-chat" => openai_chat::text(ANSWER),
        _ => openai_responses::text(ANSWER),
    }
}

/// Byte offsets just after each SSE event of `body`, the last excluded.
fn event_ends(body: &str) -> Vec<usize> {
    let mut ends: Vec<usize> = body.match_indices("\n\n").map(|(i, _)| i + 2).collect();
    ends.pop();
    ends
}

/// The kind of the SSE event that ends at `end` (its `event:` or JSON type).
fn event_kind(body: &str, end: usize) -> String {
    let start = body[..end - 2].rfind("\n\n").map_or(0, |i| i + 2);
    let event = &body[start..end];
    if let Some(name) = event.lines().find_map(|l| l.strip_prefix("event: ")) {
        return name.to_owned();
    }
    let data = event.lines().find_map(|l| l.strip_prefix("data: "));
    data.and_then(|d| serde_json::from_str::<Value>(d).ok())
        .map(|v| {
            let delta = &v["choices"][0]["delta"];
            let kind = if v["choices"][0]["finish_reason"].is_string() {
                "finish"
            } else if delta["tool_calls"].is_array() {
                "tool_calls"
            } else if delta["content"].is_string() {
                "content"
            } else if v["usage"].is_object() {
                "usage"
            } else {
                "role"
            };
            kind.to_owned()
        })
        .unwrap_or_else(|| "other".to_owned())
}

fn cells(provider: &str) -> Vec<Cell> {
    let tools = tool_call_body(provider);
    let answer = answer_body(provider);
    let ok = |body: &str| MockResponse::sse(body.to_owned());
    // A fault in place of the first request, then the healthy script.
    let first = |name: &str, fault: MockResponse, expect: Expect| Cell {
        name: name.to_owned(),
        script: Some(vec![fault, ok(&tools), ok(&answer)]),
        expect,
        json: false,
    };
    let html = |status: u16| {
        MockResponse::raw(
            status,
            "text/html",
            format!(
                "<html><head><title>{status}</title></head><body><h1>{status} Bad Gateway</h1></body></html>"
            ),
        )
    };
    let first_event = event_ends(&tools)[0];
    let mut cells = vec![
        first(
            "429 with Retry-After",
            MockResponse::api_error(429, "rate_limit_error", "slow down")
                .with_header("retry-after", "1"),
            Expect::Recover,
        ),
        first(
            "429 without Retry-After",
            MockResponse::api_error(429, "rate_limit_error", "slow down"),
            Expect::Recover,
        ),
        first(
            "500",
            MockResponse::api_error(500, "api_error", "internal"),
            Expect::Recover,
        ),
        first("502 HTML page", html(502), Expect::Recover),
        first("503 HTML page", html(503), Expect::Recover),
        first(
            "529",
            MockResponse::api_error(529, "overloaded_error", "Overloaded"),
            Expect::Recover,
        ),
        first(
            "connection reset before headers",
            MockResponse::hang_up(),
            Expect::Recover,
        ),
        first(
            "clean EOF before the terminal event",
            MockResponse::sse(tools[..first_event].to_owned()),
            Expect::Recover,
        ),
        first(
            "stall before the first byte",
            MockResponse::sse(tools.clone()).drop_after(0).stall(),
            Expect::Recover,
        ),
        first(
            "stall mid-stream",
            MockResponse::sse(tools.clone())
                .drop_after(first_event)
                .stall(),
            Expect::Recover,
        ),
        first(
            "malformed JSON event",
            MockResponse::sse("event: message_start\ndata: {not json\n\n"),
            Expect::Either,
        ),
        first(
            "oversized event",
            MockResponse::sse(format!("data: {}\n\n", "x".repeat(17 * 1024 * 1024))),
            Expect::Either,
        ),
        first(
            "wrong content type",
            MockResponse::raw(200, "text/html", "<html><body>captive portal</body></html>"),
            Expect::Either,
        ),
        Cell {
            name: "connection refused".to_owned(),
            script: None,
            expect: Expect::Fail,
            json: false,
        },
    ];
    // A drop after each event of the tool-call response: it is retried and
    // the tool still runs once.
    for end in event_ends(&tools) {
        cells.push(Cell {
            name: format!("drop after {} of the tool call", event_kind(&tools, end)),
            script: Some(vec![ok(&tools).drop_after(end), ok(&tools), ok(&answer)]),
            expect: Expect::Recover,
            json: false,
        });
    }
    // A drop after each event of the final answer, abrupt or a clean EOF,
    // in text and json output: retried though text was shown, and the
    // answer appears once.
    for end in event_ends(&answer) {
        let kind = event_kind(&answer, end);
        let faults = [
            ("drop", ok(&answer).drop_after(end)),
            ("clean EOF", ok(&answer[..end])),
        ];
        for (fault, response) in faults {
            for json in [false, true] {
                cells.push(Cell {
                    name: format!(
                        "{fault} after {kind} of the answer{}",
                        if json { " (json)" } else { "" }
                    ),
                    script: Some(vec![ok(&tools), response.clone(), ok(&answer)]),
                    expect: Expect::Recover,
                    json,
                });
            }
        }
    }
    // A connection closed mid-answer by a server that frames its body by
    // closing it.
    let answer_ends = event_ends(&answer);
    let text_end = answer_ends[answer_ends.len() / 2];
    cells.push(Cell {
        name: "close-delimited EOF mid-answer".to_owned(),
        script: Some(vec![
            ok(&tools),
            ok(&answer).close_delimited().drop_after(text_end),
            ok(&answer),
        ]),
        expect: Expect::Recover,
        json: true,
    });
    cells
}

/// Runs one cell and returns what went wrong, if anything.
fn run_cell(provider: &str, cell: &Cell) -> Result<(), String> {
    let env = Env::new();
    let server = cell.script.clone().map(|s| MockServer::start(s).unwrap());
    let url = match &server {
        Some(s) => s.url(),
        None => {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port();
            format!("http://127.0.0.1:{port}")
        }
    };
    let mut cmd = env.wright_p(provider, &url, "run the step");
    if cell.json {
        cmd.args(["--output-format", "json"]);
    }
    let out = cmd
        .args(["--permission-mode", "bypass"])
        .env("WRIGHT_MAX_RETRIES", "3")
        .env("WRIGHT_RETRY_MAX_DELAY_MS", "20")
        .env("WRIGHT_STREAM_IDLE_TIMEOUT_MS", "2000")
        .env("WRIGHT_STREAM_FIRST_BYTE_TIMEOUT_MS", "2000")
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    assert_clean(&out);
    let (o, e) = (stdout(&out), stderr(&out));
    let ran = std::fs::read_to_string(env.path("ran.txt")).unwrap_or_default();
    let code = out.status.code();
    let ok = match (code, cell.expect) {
        (Some(0), Expect::Recover | Expect::Either) => {
            // Nothing shown twice: not even a prefix of the answer from
            // a broken attempt.
            let shown = if cell.json {
                let result: Value = serde_json::from_str(o.trim())
                    .map_err(|err| format!("json output does not parse ({err}): {o:?}"))?;
                result["result"].as_str().unwrap_or_default().to_owned()
            } else {
                o.trim().to_owned()
            };
            if shown != ANSWER {
                return Err(format!("answer not shown exactly once: {o:?}"));
            }
            // Each call the model saw answered ran exactly once (a
            // response completed despite a late drop asks again, legitimately).
            let last = server.as_ref().and_then(|s| s.requests().pop());
            let answered = last.map_or(0, |r| tool_results(provider, &r).len());
            if ran.lines().count() != answered || answered == 0 {
                return Err(format!(
                    "the tool ran {} times for {answered} answered calls",
                    ran.lines().count()
                ));
            }
            true
        }
        (Some(1), Expect::Fail | Expect::Either) => {
            if !e.contains("error:") {
                return Err(format!("no clear error on stderr: {e:?}"));
            }
            if ran.lines().count() > 1 || o.matches(ANSWER).count() > 1 {
                return Err(format!("something ran or was shown twice: {ran:?} {o:?}"));
            }
            false
        }
        _ => return Err(format!("exit {code:?}, stdout {o:?}, stderr {e:?}")),
    };
    eprintln!(
        "{provider} / {}: {} after {} requests",
        cell.name,
        if ok { "recovered" } else { "failed cleanly" },
        server.as_ref().map_or(0, MockServer::request_count)
    );
    for file in session_files(&env) {
        let text = std::fs::read_to_string(&file).unwrap();
        for line in text.lines() {
            serde_json::from_str::<Value>(line)
                .map_err(|err| format!("session line does not parse ({err}): {line}"))?;
        }
    }
    let healthy = MockServer::start(vec![MockResponse::sse(match provider {
        "anthropic" => anthropic::text("continued fine"),
        "openai-chat" => openai_chat::text("continued fine"),
        _ => openai_responses::text("continued fine"),
    })])
    .unwrap();
    let again = env
        .wright_p(provider, &healthy.url(), "carry on")
        .arg("--continue")
        .timeout(Duration::from_secs(120))
        .output()
        .unwrap();
    if !again.status.success() || !stdout(&again).contains("continued fine") {
        return Err(format!(
            "--continue after the fault (first run {}) failed: {}",
            if ok { "recovered" } else { "failed" },
            stderr(&again)
        ));
    }
    Ok(())
}

fn session_files(env: &Env) -> Vec<std::path::PathBuf> {
    let root = env.home.path().join(".local/share/wright/sessions");
    let dirs = std::fs::read_dir(root).into_iter().flatten().flatten();
    dirs.flat_map(|d| std::fs::read_dir(d.path()).into_iter().flatten().flatten())
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect()
}

/// Runs every cell of `provider`, a few at a time, and reports all failures
/// at once.
fn matrix(provider: &str) {
    let cells = cells(provider);
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    let Some(cell) = cells.get(i) else { break };
                    if let Err(why) = run_cell(provider, cell) {
                        failures
                            .lock()
                            .unwrap()
                            .push(format!("{provider} / {}: {why}", cell.name));
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    assert!(
        failures.is_empty(),
        "{} cells failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn fault_matrix_anthropic() {
    matrix("anthropic");
}

#[test]
fn fault_matrix_openai_chat() {
    matrix("openai-chat");
}

#[test]
fn fault_matrix_openai_responses() {
    matrix("openai-responses");
}

/// A server that stalls on every attempt is retried once, then the run ends
/// with a clear error: with the default 60 s timeouts that is about two
/// minutes after the stall, here shortened to 300 ms.
#[test]
fn a_server_that_keeps_stalling_ends_the_run_after_one_retry() {
    for provider in ["anthropic", "openai-chat", "openai-responses"] {
        let env = Env::new();
        let tools = tool_call_body(provider);
        let stall = || {
            MockResponse::sse(tools.clone())
                .drop_after(event_ends(&tools)[0])
                .stall()
        };
        let server = MockServer::start(vec![stall(), stall(), stall()]).unwrap();
        let out = env
            .wright_p(provider, &server.url(), "run the step")
            .env("WRIGHT_MAX_RETRIES", "4")
            .env("WRIGHT_RETRY_MAX_DELAY_MS", "20")
            .env("WRIGHT_STREAM_IDLE_TIMEOUT_MS", "300")
            .timeout(Duration::from_secs(60))
            .output()
            .unwrap();
        assert_clean(&out);
        assert_eq!(out.status.code(), Some(1), "{provider}: {}", stderr(&out));
        let e = stderr(&out);
        assert!(
            e.contains("error:") && e.contains("sent nothing for 300 ms in the middle"),
            "{provider}: {e}"
        );
        assert!(e.contains("stream.idle_timeout_secs"), "{provider}: {e}");
        assert_eq!(server.request_count(), 2, "{provider}");
    }
}
