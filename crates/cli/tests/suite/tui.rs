//! The full terminal UI, driven in a pseudo-terminal: keys in, the screen
//! read back through a VT100 parser, the mock's requests checked. The test
//! answers the terminal queries a real terminal would (cursor position,
//! device attributes). Every wait polls the screen with a generous timeout.

use std::io::{Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use wright_test_support::{MockResponse, MockServer, anthropic};

use super::Env;

const WAIT: Duration = Duration::from_secs(90);

type Master = Arc<Mutex<Option<Box<dyn portable_pty::MasterPty + Send>>>>;

struct Tui {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Arc<Mutex<Option<Box<dyn Write + Send>>>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    master: Master,
    hang_up: Arc<AtomicBool>,
    reader: Option<std::thread::JoinHandle<()>>,
    /// Every byte wright wrote, for what a screen does not show (a bell).
    raw: Arc<Mutex<Vec<u8>>>,
}

impl Tui {
    fn start(env: &Env, url: &str, extra: &[&str]) -> Self {
        Self::start_with(env, url, extra, false, &[])
    }

    /// As [`Tui::start`], for a test that closes the terminal: the EOF
    /// character is undefined, so dropping the pty's writer types nothing
    /// (portable-pty's writer sends `\n` and EOF when dropped).
    fn start_hangable(env: &Env, url: &str, extra: &[&str]) -> Self {
        Self::start_with(env, url, extra, true, &[])
    }

    /// As [`Tui::start_hangable`], for the line mode.
    fn start_line_mode_hangable(env: &Env, url: &str) -> Self {
        Self::start_with(env, url, &[], true, &[("WRIGHT_LINE_MODE", "1")])
    }

    fn start_with(
        env: &Env,
        url: &str,
        extra: &[&str],
        via_stty: bool,
        vars: &[(&str, &str)],
    ) -> Self {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 30,
                cols: 100,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = if via_stty {
            let mut cmd = CommandBuilder::new("sh");
            cmd.args([
                "-c",
                "stty eof undef && exec \"$0\" \"$@\"",
                env!("CARGO_BIN_EXE_wright"),
            ]);
            cmd
        } else {
            CommandBuilder::new(env!("CARGO_BIN_EXE_wright"))
        };
        cmd.args(["--provider", "anthropic", "--model", "m", "--base-url", url]);
        cmd.args(extra);
        cmd.cwd(env.project.path());
        cmd.env_clear();
        let vars: Vec<(&str, &str)> = [("WRIGHT_MAX_RETRIES", "0")]
            .into_iter()
            .chain(vars.iter().copied())
            .collect();
        for (k, v) in super::pty_env(env, &vars) {
            cmd.env(k, v);
        }
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(30, 100, 1000)));
        let writer: Arc<Mutex<Option<Box<dyn Write + Send>>>> =
            Arc::new(Mutex::new(Some(pty.master.take_writer().unwrap())));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let master: Master = Arc::new(Mutex::new(Some(pty.master)));
        let hang_up = Arc::new(AtomicBool::new(false));
        let raw = Arc::new(Mutex::new(Vec::new()));
        let (p, w, stop, r) = (parser.clone(), writer.clone(), hang_up.clone(), raw.clone());
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || stop.load(Ordering::SeqCst) {
                    break;
                }
                let chunk = &buf[..n];
                r.lock().unwrap().extend_from_slice(chunk);
                let mut parser = p.lock().unwrap();
                parser.process(chunk);
                // Answer what a terminal answers.
                let mut answers = Vec::new();
                if contains(chunk, b"\x1b[6n") {
                    let (row, col) = parser.screen().cursor_position();
                    answers.push(format!("\x1b[{};{}R", row + 1, col + 1));
                }
                if contains(chunk, b"\x1b[c") {
                    answers.push("\x1b[?62c".to_owned());
                }
                drop(parser);
                for a in answers {
                    let mut w = w.lock().unwrap();
                    if let Some(w) = w.as_mut() {
                        let _ = w.write_all(a.as_bytes());
                        let _ = w.flush();
                    }
                }
            }
        });
        Self {
            parser,
            writer,
            child,
            master,
            hang_up,
            reader: Some(reader),
            raw,
        }
    }

    /// Closes the terminal: every descriptor of the pty's master side.
    /// The reader thread holds one; a resize makes the TUI draw, and a
    /// typed space is echoed by the line discipline of a terminal in
    /// cooked mode (the line mode), either of which wakes the reader to
    /// see it is to stop.
    fn close_terminal(&mut self) {
        self.hang_up.store(true, Ordering::SeqCst);
        let reader = self.reader.take().unwrap();
        while !reader.is_finished() {
            if let Some(m) = self.master.lock().unwrap().as_ref() {
                let _ = m.resize(PtySize {
                    rows: 30,
                    cols: 99,
                    pixel_width: 0,
                    pixel_height: 0,
                });
                std::thread::sleep(Duration::from_millis(50));
                let _ = m.resize(PtySize {
                    rows: 30,
                    cols: 100,
                    pixel_width: 0,
                    pixel_height: 0,
                });
            }
            if let Some(w) = self.writer.lock().unwrap().as_mut() {
                let _ = w.write_all(b" ");
                let _ = w.flush();
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        reader.join().unwrap();
        drop(self.writer.lock().unwrap().take());
        drop(self.master.lock().unwrap().take());
    }

    /// Waits at most `limit` for wright to exit; its exit code.
    fn exit_within(&mut self, limit: Duration) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(
                start.elapsed() < limit,
                "wright still runs {limit:?} after its terminal closed"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    /// The scrollback and the screen, top to bottom.
    fn transcript(&self) -> String {
        let mut parser = self.parser.lock().unwrap();
        parser.screen_mut().set_scrollback(1000);
        let back = parser.screen().contents();
        parser.screen_mut().set_scrollback(0);
        back + &parser.screen().contents()
    }

    fn send(&self, bytes: &str) {
        let mut w = self.writer.lock().unwrap();
        let w = w.as_mut().unwrap();
        w.write_all(bytes.as_bytes()).unwrap();
        w.flush().unwrap();
    }

    fn wait_for(&self, what: &str, ok: impl Fn(&str) -> bool) {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if ok(&screen) {
                return;
            }
            assert!(
                start.elapsed() < WAIT,
                "timed out waiting for {what}; screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_exit(&mut self) -> u32 {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code();
            }
            assert!(
                start.elapsed() < WAIT,
                "wright did not exit; screen:\n{}",
                self.screen()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Tui {
    fn drop(&mut self) {
        let _ = self.child.kill();
    }
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

fn wait_requests(server: &MockServer, n: usize) {
    let start = Instant::now();
    while server.requests().len() < n {
        assert!(
            start.elapsed() < WAIT,
            "the mock got {} requests, not {n}",
            server.requests().len()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn starts_with_the_status_line_and_leaves_on_sigterm() {
    let env = Env::new();
    let server = MockServer::start(vec![]).unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("m · default · ctx 0%"));
    let pid = tui.child.process_id().unwrap();
    let _ = std::process::Command::new("kill")
        .arg(pid.to_string())
        .status();
    let code = tui.wait_exit();
    assert_eq!(code, 143, "SIGTERM exits 128 + 15");
}

#[test]
fn exit_leaves_the_transcript_in_the_scrollback() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text(
        "# Heading\n\nthe **first** answer\n",
    ))])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("hello there\r");
    tui.wait_for("the answer", |s| s.contains("the first answer"));
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
    let all = tui.transcript();
    assert!(
        all.contains("› hello there") && all.contains("Heading"),
        "{all}"
    );
    assert!(!all.contains("# Heading"), "markdown is rendered: {all}");
}

/// A message typed while a command runs reaches the model in the request
/// that carries the command's result, and shows where it was delivered.
#[test]
fn a_message_typed_during_a_command_goes_with_its_result() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "sleep 2; echo slept-well"}),
        )])),
        MockResponse::sse(anthropic::text("the second answer")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &["--permission-mode", "bypass"]);
    tui.wait_for("the status line", |s| s.contains("bypass"));
    tui.send("run the long thing\r");
    tui.wait_for("the running command", |s| s.contains("Bash(sleep 2"));
    tui.send("also check b.txt\r");
    tui.wait_for("the message waiting for the step", |s| {
        s.contains("with the next step: also check b.txt")
    });
    tui.wait_for("the second answer", |s| s.contains("the second answer"));
    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one turn");
    let messages = requests[1].json()["messages"].clone();
    let last = messages.as_array().unwrap().last().unwrap().to_string();
    assert!(
        last.contains("slept-well") && last.contains("also check b.txt"),
        "{last}"
    );
    tui.wait_for("the message in the transcript", |s| {
        s.contains("› also check b.txt") && !s.contains("with the next step")
    });
    tui.send("\x04");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn esc_interrupts_a_running_command_and_a_message_sent_into_it_comes_back() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "sleep 60"}),
        )])),
        MockResponse::sse(anthropic::text("the second answer")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &["--permission-mode", "bypass"]);
    tui.wait_for("the status line", |s| s.contains("bypass"));
    tui.send("run the long thing\r");
    tui.wait_for("the running command", |s| {
        s.contains("Bash(sleep 60)") && s.contains("Esc to interrupt")
    });
    tui.send("and then this\r");
    tui.wait_for("the message waiting", |s| {
        s.contains("with the next step: and then this")
    });
    // Not sent while the command runs.
    assert_eq!(server.requests().len(), 1);
    tui.send("\x1b");
    tui.wait_for("the interrupt", |s| s.contains("interrupted"));
    // Not delivered: back in the composer, sent again with Enter.
    tui.wait_for("the message back in the composer", |s| {
        s.lines()
            .any(|l| l.contains("and then this") && !l.contains("with the next step"))
    });
    assert_eq!(server.requests().len(), 1);
    tui.send("\r");
    tui.wait_for("the second answer", |s| s.contains("the second answer"));
    // The interrupted turn asks nothing more; the message is the next request.
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    let last = requests[1].json()["messages"].to_string();
    assert!(last.contains("and then this"), "{last}");
    tui.send("\x04");
    assert_eq!(tui.wait_exit(), 0);
}

#[test]
fn a_multi_line_paste_is_one_user_turn() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("got it"))]).unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("\x1b[200~panicked at src/main.rs:3\nline two\nline three\x1b[201~");
    tui.send("\r");
    tui.wait_for("the answer", |s| s.contains("got it"));
    wait_requests(&server, 1);
    let requests = server.requests();
    assert_eq!(requests.len(), 1);
    let messages = requests[0].json()["messages"].clone();
    let text = messages.to_string();
    assert!(
        text.contains("panicked at src/main.rs:3\\nline two\\nline three"),
        "{text}"
    );
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// Arrow keys edit the prompt (never reach the model as escape codes), Up
/// recalls the previous prompt, and a custom command from
/// `.wright/commands` expands into the turn it starts.
#[test]
fn arrow_editing_history_and_custom_commands_reach_the_model() {
    let env = Env::new();
    env.write(
        ".wright/commands/review.md",
        "---\ndescription: Review a file\n---\nPlease review $ARGUMENTS closely.\n",
    );
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::text("first done")),
        MockResponse::sse(anthropic::text("second done")),
        MockResponse::sse(anthropic::text("third done")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    // "fix bug" → Left ×3, type "the ", Home, type "please " → "please fix the bug".
    tui.send("fix bug");
    tui.send("\x1b[D\x1b[D\x1b[D");
    tui.send("the ");
    tui.send("\x1b[H");
    tui.send("please \r");
    tui.wait_for("the first answer", |s| s.contains("first done"));
    wait_requests(&server, 1);
    let first = server.requests()[0].json()["messages"].to_string();
    assert!(first.contains("please fix the bug"), "{first}");
    assert!(!first.contains("[D"), "{first}");
    // Up brings the prompt back; End and more text change it.
    tui.send("\x1b[A");
    tui.wait_for("the recalled prompt", |s| {
        s.contains("› please fix the bug")
    });
    tui.send("\x1b[F now\r");
    tui.wait_for("the second answer", |s| s.contains("second done"));
    wait_requests(&server, 2);
    let second = server.requests()[1].json()["messages"].to_string();
    assert!(second.contains("please fix the bug now"), "{second}");
    tui.send("/review src/lib.rs\r");
    tui.wait_for("the third answer", |s| s.contains("third done"));
    wait_requests(&server, 3);
    let third = server.requests()[2].json()["messages"].to_string();
    assert!(
        third.contains("Please review src/lib.rs closely."),
        "{third}"
    );
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// Keys typed within a moment of an approval menu opening go to the prompt,
/// not the menu; waiting past that is not a timed assertion.
fn past_the_menu_grace() {
    std::thread::sleep(Duration::from_millis(800));
}

/// `!cmd` runs through the Bash tool's permission check (it asks in
/// `default` mode), shows what it printed, makes no model request, and the
/// next prompt's request carries the command and its output.
#[test]
fn bang_runs_a_command_without_approval_and_the_next_request_sees_it() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("noted"))]).unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    // The user's own command runs without the mode's question (issue 33).
    tui.send("!echo hi-from-bang\r");
    tui.wait_for("the command's output", |s| {
        s.contains("Bash(echo hi-from-bang)") && s.lines().any(|l| l.trim() == "hi-from-bang")
    });
    assert!(server.requests().is_empty(), "a !cmd alone asks no model");
    tui.send("what did it print?\r");
    tui.wait_for("the answer", |s| s.contains("noted"));
    wait_requests(&server, 1);
    let sent = server.requests()[0].json()["messages"].to_string();
    assert!(
        sent.contains("<bash-input>echo hi-from-bang</bash-input>")
            && sent.contains("<bash-stdout>hi-from-bang"),
        "{sent}"
    );
    assert!(sent.contains("what did it print?"), "{sent}");
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// "Don't ask again" on a command chain saves a rule for every part, shown
/// in the menu, so the same chain runs the second time without asking.
#[test]
fn always_on_a_chain_lets_the_same_chain_run_without_asking() {
    let env = Env::new();
    let chain = serde_json::json!({"command": "expr one && expr two | head -1"});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[("b1", "Bash", chain.clone())])),
        MockResponse::sse(anthropic::tool_calls(&[("b2", "Bash", chain)])),
        MockResponse::sse(anthropic::text("both ran")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("run it twice\r");
    tui.wait_for("the approval menu", |s| {
        s.contains("Bash(expr one:*), Bash(expr two:*), Bash(head:*)")
    });
    past_the_menu_grace();
    tui.send("2\r");
    // A second question would never be answered: the answer proves none came.
    tui.wait_for("the answer", |s| s.contains("both ran"));
    wait_requests(&server, 3);
    let last = server.requests()[2].json()["messages"].to_string();
    assert!(!last.contains("Permission denied"), "{last}");
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// Plan mode: the plan shows with its numbered choice, "1" approves it
/// for accept-edits and the edit after it runs without another question.
#[test]
fn a_plan_approved_with_1_lets_the_next_edit_run_unasked() {
    let env = Env::new();
    let plan = "## Plan\n1. Write **notes.txt**\n2. Done";
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "p1",
            "ExitPlanMode",
            serde_json::json!({"plan": plan}),
        )])),
        MockResponse::sse(anthropic::tool_calls(&[(
            "w1",
            "Write",
            serde_json::json!({"file_path": "notes.txt", "content": "planned\n"}),
        )])),
        MockResponse::sse(anthropic::text("carried out")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &["--permission-mode", "plan"]);
    tui.wait_for("the status line", |s| s.contains("plan"));
    tui.send("plan the notes\r");
    tui.wait_for("the plan and its choices", |s| {
        s.contains("Write notes.txt")
            && s.contains("The plan above is ready")
            && s.contains("1. Yes, and accept edits")
    });
    past_the_menu_grace();
    tui.send("1\r");
    // Another question would never be answered: the answer proves none came.
    tui.wait_for("the answer", |s| s.contains("carried out"));
    assert_eq!(
        std::fs::read_to_string(env.path("notes.txt")).unwrap(),
        "planned\n"
    );
    tui.wait_for("the mode in the status line", |s| {
        s.contains("accept-edits")
    });
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// An approval that waits rings the terminal: a bell by default, an OSC 9
/// notification when configured.
#[test]
fn an_approval_rings_the_bell_or_sends_osc9() {
    for (config, expected) in [
        ("", &b"\x07"[..]),
        (
            "[tui]\nnotify = \"osc9\"\n",
            &b"\x1b]9;wright needs your approval\x07"[..],
        ),
    ] {
        let env = Env::new();
        env.write_user_config(config);
        let server = MockServer::start(vec![MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "touch asked.txt"}),
        )]))])
        .unwrap();
        let mut tui = Tui::start(&env, &server.url(), &[]);
        tui.wait_for("the status line", |s| s.contains("default"));
        let before = tui.raw.lock().unwrap().len();
        tui.send("make the file\r");
        tui.wait_for("the approval menu", |s| s.contains("needs approval"));
        let start = Instant::now();
        while !contains(&tui.raw.lock().unwrap()[before..], expected) {
            assert!(
                start.elapsed() < WAIT,
                "no ring {expected:?} for {config:?}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        tui.send("\x1b");
        tui.wait_for("the refusal", |s| s.contains("interrupted"));
        tui.send("/exit\r");
        assert_eq!(tui.wait_exit(), 0);
    }
}

/// A command that prints lines and fails keeps its first lines on screen.
#[test]
fn a_failed_commands_first_lines_stay_on_screen() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "printf 'first-line\\nsecond-line\\n'; exit 3"}),
        )])),
        MockResponse::sse(anthropic::text("it failed")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &["--permission-mode", "bypass"]);
    tui.wait_for("the status line", |s| s.contains("bypass"));
    tui.send("run it\r");
    tui.wait_for("the answer", |s| s.contains("it failed"));
    let screen = tui.screen();
    assert!(
        screen.contains("exit 3")
            && screen.contains("first-line")
            && screen.contains("second-line"),
        "{screen}"
    );
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// `-r` without an ID opens the picker of this project's sessions; Enter
/// continues the one picked.
#[test]
fn resume_without_an_id_picks_a_session() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("noted"))]).unwrap();
    let out = env
        .wright_p("anthropic", &server.url(), "remember the pineapple")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", super::stderr(&out));
    let mut tui = Tui::start(&env, &server.url(), &["-r"]);
    tui.wait_for("the picker", |s| {
        s.contains("Resume a session") && s.contains("remember the pineapple")
    });
    tui.send("\r");
    tui.wait_for("the resumed session", |s| {
        s.contains("pineapple") && !s.contains("Resume a session") && s.contains("default")
    });
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
    // Headless, an ID is needed.
    let out = env
        .wright_p("anthropic", &server.url(), "again")
        .arg("-r")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", super::stderr(&out));
    assert!(super::stderr(&out).contains("--resume without an ID"));
}

/// Ctrl-G opens $EDITOR on the prompt and sends what it saved.
#[cfg(unix)]
#[test]
fn ctrl_g_edits_the_prompt_in_the_editor() {
    use std::os::unix::fs::PermissionsExt as _;
    let env = Env::new();
    let script = env.home.path().join("fake-editor");
    std::fs::write(
        &script,
        "#!/bin/sh\nprintf 'from the editor: %s\\n' \"$(cat \"$1\")\" > \"$1\"\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::text("edited it"))]).unwrap();
    let editor = script.display().to_string();
    let mut tui = Tui::start_with(&env, &server.url(), &[], false, &[("EDITOR", &editor)]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("draft");
    tui.wait_for("the draft", |s| s.contains("› draft"));
    tui.send("\x07");
    tui.wait_for("the editor's text", |s| {
        s.contains("from the editor: draft")
    });
    tui.send("\r");
    tui.wait_for("the answer", |s| s.contains("edited it"));
    let sent = server.requests()[0].json()["messages"].to_string();
    assert!(sent.contains("from the editor: draft"), "{sent}");
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// A question shows its options; "2" sends the second option's label back.
#[test]
fn a_question_answered_with_2_returns_the_second_label() {
    let env = Env::new();
    let question = serde_json::json!({"questions": [{"question": "Which database?",
        "header": "DB", "multiSelect": false, "options": [
            {"label": "SQLite", "description": "one file"},
            {"label": "Postgres", "description": "a server"}]}]});
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "q1",
            "AskUserQuestion",
            question,
        )])),
        MockResponse::sse(anthropic::text("noted the choice")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("ask me\r");
    tui.wait_for("the options", |s| {
        s.contains("Which database?") && s.contains("2. Postgres")
    });
    past_the_menu_grace();
    tui.send("2\r");
    tui.wait_for("the answer", |s| s.contains("noted the choice"));
    wait_requests(&server, 2);
    let sent = server.requests()[1].json()["messages"].to_string();
    assert!(
        sent.contains(r#"\"Which database?\" = \"Postgres\""#),
        "{sent}"
    );
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// Issue 33's safety hole: a sentence typed while an answer streams, with
/// "yes", "always" and a digit in it and Enter at its end, lands in the
/// prompt when an approval opens under it. The command does not run, no
/// rule is saved, the project is not trusted; the sentence is sent as the
/// next prompt once the turn is over.
#[test]
fn a_sentence_typed_as_an_approval_opens_answers_nothing() {
    let env = Env::new();
    let server = MockServer::start(vec![
        MockResponse::sse(anthropic::tool_calls(&[(
            "b1",
            "Bash",
            serde_json::json!({"command": "touch ran.txt"}),
        )])),
        // Whether the refused turn asks the model again or not, the
        // sentence gets an answer.
        MockResponse::sse(anthropic::text("the sentence arrived")),
        MockResponse::sse(anthropic::text("the sentence arrived")),
    ])
    .unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("make the file\r");
    // Typing on, at a typist's pace, until the menu is on screen, then the
    // end of the sentence straight away: nobody pauses for the menu.
    let sentence = "yes and always ";
    let start = Instant::now();
    'typing: loop {
        for c in sentence.chars() {
            tui.send(&c.to_string());
            std::thread::sleep(Duration::from_millis(60));
            if tui.screen().contains("needs approval") {
                break 'typing;
            }
        }
        assert!(
            start.elapsed() < WAIT,
            "no approval menu:\n{}",
            tui.screen()
        );
    }
    // Word by word, the last one a digit and Enter, spread past the moment
    // a menu that listened after a fixed delay would take them (each gap
    // well under the guard, so a loaded machine has room to spare).
    for word in ["yes ", "and ", "always ", "3\r"] {
        std::thread::sleep(Duration::from_millis(200));
        tui.send(word);
    }
    tui.wait_for("the sentence sent into the turn", |s| {
        s.contains("with the next step:") && s.contains("yes and always 3")
    });
    past_the_menu_grace();
    let screen = tui.screen();
    assert!(screen.contains("needs approval"), "still open:\n{screen}");
    // The project choice says, before it is picked, that it trusts nothing.
    assert!(
        screen.contains("saved, but later sessions ignore it"),
        "{screen}"
    );
    assert!(!env.path("ran.txt").exists(), "{screen}");
    assert!(!env.path(".wright/config.local.toml").exists(), "{screen}");
    let user = env.home.path().join(".config/wright/config.toml");
    assert!(!user.exists(), "{screen}");
    // Refused on purpose (which stops the turn): the sentence comes back
    // to the composer, and goes to the model as typed when sent.
    tui.send("\x1b");
    tui.wait_for("the sentence back in the composer", |s| {
        s.lines()
            .any(|l| l.contains("yes and always 3") && !l.contains("with the next step"))
    });
    tui.send("\r");
    tui.wait_for("the sentence's answer", |s| {
        s.contains("the sentence arrived")
    });
    let start = Instant::now();
    while !server.requests().iter().any(|r| {
        r.json()["messages"]
            .to_string()
            .contains("yes and always 3")
    }) {
        assert!(
            start.elapsed() < WAIT,
            "the sentence never reached the model"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!env.path("ran.txt").exists());
    assert!(!env.path(".wright/config.local.toml").exists());
    assert!(!user.exists());
    tui.send("/exit\r");
    assert_eq!(tui.wait_exit(), 0);
}

/// The session files under the test's home (`*.jsonl`).
fn session_texts(env: &Env) -> String {
    let root = env.home.path().join(".local/share/wright/sessions");
    let mut out = String::new();
    for project in std::fs::read_dir(root).into_iter().flatten().flatten() {
        for f in std::fs::read_dir(project.path())
            .into_iter()
            .flatten()
            .flatten()
        {
            if f.path().extension().is_some_and(|e| e == "jsonl") {
                out.push_str(&std::fs::read_to_string(f.path()).unwrap());
            }
        }
    }
    out
}

/// After the exit no lock is held: another process can take the session.
fn assert_lock_released(env: &Env) {
    let out = env
        .wright()
        .args(["sessions", "list", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let list: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in list.as_array().unwrap() {
        let id = s["id"].as_str().unwrap();
        let out = env.wright().args(["sessions", "rm", id]).output().unwrap();
        assert!(
            out.status.success(),
            "session {id} still locked: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

const HANGUP_LIMIT: Duration = Duration::from_secs(5);

#[test]
fn closing_the_terminal_at_the_composer_ends_wright() {
    let env = Env::new();
    let server =
        MockServer::start(vec![MockResponse::sse(anthropic::text("first answer"))]).unwrap();
    let mut tui = Tui::start_hangable(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("hello\r");
    tui.wait_for("the answer", |s| s.contains("first answer"));
    tui.close_terminal();
    assert_eq!(tui.exit_within(HANGUP_LIMIT), 129);
    assert!(session_texts(&env).contains("first answer"));
    assert_lock_released(&env);
}

#[test]
fn closing_the_terminal_at_an_approval_ends_wright_and_runs_nothing() {
    let env = Env::new();
    let server = MockServer::start(vec![MockResponse::sse(anthropic::tool_calls(&[(
        "b1",
        "Bash",
        serde_json::json!({"command": "touch ran.txt"}),
    )]))])
    .unwrap();
    let mut tui = Tui::start_hangable(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("make the file\r");
    tui.wait_for("the approval", |s| s.contains("needs approval"));
    tui.close_terminal();
    assert_eq!(tui.exit_within(HANGUP_LIMIT), 129);
    assert!(!env.path("ran.txt").exists(), "the refused command ran");
    assert!(session_texts(&env).contains("make the file"));
    assert_lock_released(&env);
}

#[test]
fn closing_the_terminal_while_an_answer_streams_ends_wright() {
    let env = Env::new();
    let body = anthropic::text("the streamed beginning of an answer");
    // The text, then silence with the connection held open.
    let end = body.find("event: content_block_stop").unwrap();
    let server = MockServer::start(vec![MockResponse::sse(body).drop_after(end).stall()]).unwrap();
    let mut tui = Tui::start_hangable(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("stream something\r");
    tui.wait_for("the streaming text", |s| s.contains("streamed beginning"));
    tui.close_terminal();
    assert_eq!(tui.exit_within(HANGUP_LIMIT), 129);
    assert!(session_texts(&env).contains("stream something"));
    assert_lock_released(&env);
}

#[test]
fn closing_the_terminal_of_the_line_mode_while_an_answer_streams_ends_wright() {
    let env = Env::new();
    let body = anthropic::text("the streamed beginning of an answer");
    let end = body.find("event: content_block_stop").unwrap();
    let server = MockServer::start(vec![MockResponse::sse(body).drop_after(end).stall()]).unwrap();
    let mut tui = Tui::start_line_mode_hangable(&env, &server.url());
    tui.wait_for("the prompt", |s| s.contains('›'));
    tui.send("stream something\r");
    tui.wait_for("the streaming text", |s| s.contains("streamed beginning"));
    tui.close_terminal();
    assert_eq!(tui.exit_within(HANGUP_LIMIT), 129);
    assert!(session_texts(&env).contains("stream something"));
    assert_lock_released(&env);
}

#[test]
fn sighup_ends_wright_like_a_closed_terminal() {
    let env = Env::new();
    let body = anthropic::text("the streamed beginning of an answer");
    let end = body.find("event: content_block_stop").unwrap();
    let server = MockServer::start(vec![MockResponse::sse(body).drop_after(end).stall()]).unwrap();
    let mut tui = Tui::start(&env, &server.url(), &[]);
    tui.wait_for("the status line", |s| s.contains("default"));
    tui.send("stream something\r");
    tui.wait_for("the streaming text", |s| s.contains("streamed beginning"));
    let pid = tui.child.process_id().unwrap();
    let _ = std::process::Command::new("kill")
        .args(["-HUP", &pid.to_string()])
        .status();
    assert_eq!(tui.exit_within(HANGUP_LIMIT), 129, "SIGHUP exits 128 + 1");
    assert!(session_texts(&env).contains("stream something"));
    assert_lock_released(&env);
}
