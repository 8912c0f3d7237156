//! `kill -9` at arbitrary points: the test binary re-runs itself as a
//! writer child, the parent kills it after it reports some entries, then
//! loads and resumes the session.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use wright_protocol::Message;
use wright_store::SessionStore;

use super::*;

const CHILD_DIR: &str = "WRIGHT_STORE_CRASH_DIR";
const CHILD_ID: &str = "WRIGHT_STORE_CRASH_ID";

/// Not a test on its own: the body of the child process.
#[test]
fn crash_child_writer() {
    let (Ok(dir), Ok(id)) = (std::env::var(CHILD_DIR), std::env::var(CHILD_ID)) else {
        return;
    };
    let store = SessionStore::new(dir);
    let mut w = store.open_for_append(&id).unwrap();
    let mut out = std::io::stdout();
    let mut written = 0usize;
    for n in 0.. {
        let big = "o".repeat(if n % 3 == 0 { 100_000 } else { 100 });
        let msgs = [
            Message::user_text(format!("prompt {n}")),
            assistant(vec![call(&format!("k{n}"), "{}")]),
            result(&format!("k{n}"), &big),
            assistant(vec![text("done")]),
        ];
        for m in &msgs {
            w.append_message(m).unwrap();
            written += 1;
            writeln!(out, "entry {written}").unwrap();
            out.flush().unwrap();
        }
    }
}

#[test]
fn kill_minus_nine_loses_at_most_the_line_in_flight() {
    let (dir, store) = store();
    let mut w = store.create(&meta(dir.path())).unwrap();
    w.append_message(&Message::user_text("seed")).unwrap();
    let id = w.id().to_string();
    drop(w);
    let exe = std::env::current_exe().unwrap();
    let mut acknowledged = 1usize;
    for target in [1usize, 2, 3, 5, 7, 11, 13, 17] {
        let mut child = Command::new(&exe)
            .args([
                "--exact",
                "suite::crash::crash_child_writer",
                "--nocapture",
                "--test-threads=1",
            ])
            .env(CHILD_DIR, dir.path())
            .env(CHILD_ID, &id)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut seen = 0;
        for line in BufReader::new(stdout).lines() {
            let line = line.unwrap();
            // The harness may print "test … … " on the same line first.
            if let Some((_, n)) = line.rsplit_once("entry ") {
                seen = n.parse().unwrap();
                if seen >= target {
                    break;
                }
            }
        }
        assert_eq!(seen, target, "child stopped early");
        child.kill().unwrap();
        child.wait().unwrap();
        acknowledged += seen;

        let loaded = store.load(&id).unwrap();
        assert!(
            loaded.entries.len() >= acknowledged,
            "acknowledged entries lost"
        );
        for w in &loaded.warnings {
            assert!(
                w.contains("incomplete last line"),
                "unexpected warning: {w}"
            );
        }
        assert_valid(&loaded.history());
        // The next child must get the lock back and mend the tail.
        acknowledged = loaded.entries.len();
    }
    let loaded = store.load(&id).unwrap();
    assert_valid(&loaded.history());
}
