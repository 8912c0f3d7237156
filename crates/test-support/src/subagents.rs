//! A routed scenario for subagents (Anthropic wire): the parent starts two
//! `explore` children in one response; each child searches once and
//! answers; the parent then answers. Requests are told apart by what they
//! carry, not by arrival order, since the children run side by side. Each
//! child's first request waits until the other's has arrived too, which
//! proves the two are in flight at the same time; a child left waiting
//! alone gets [`NOT_TOGETHER`] as its answer instead of hanging.

use std::sync::{Condvar, Mutex};
use std::time::Duration;

use serde_json::json;

use crate::{MockResponse, RecordedRequest, anthropic};

/// The parent's final answer.
pub const PARENT_ANSWER: &str = "Both searches are done.";
/// The first child's prompt and answer.
pub const ALPHA: (&str, &str) = ("find alpha", "alpha is in a.txt:1");
/// The second child's prompt and answer.
pub const BETA: (&str, &str) = ("find beta", "beta is in b.txt:1");
/// What a child's first request gets when the other child never came.
pub const NOT_TOGETHER: &str = "the other subagent never asked: they did not run together";
/// How long a child's first request waits for the other's.
const TOGETHER_WITHIN: Duration = Duration::from_secs(60);

/// Counts first child requests, so each can wait for the other.
#[derive(Default)]
struct Meeting {
    arrived: Mutex<usize>,
    all_here: Condvar,
}

impl Meeting {
    /// Arrives and waits for a second arrival; false on timeout.
    fn meet(&self) -> bool {
        let Ok(mut arrived) = self.arrived.lock() else {
            return false;
        };
        *arrived += 1;
        self.all_here.notify_all();
        match self
            .all_here
            .wait_timeout_while(arrived, TOGETHER_WITHIN, |n| *n < 2)
        {
            Ok((_, timeout)) => !timeout.timed_out(),
            Err(_) => false,
        }
    }
}

/// Whether a request comes from a subagent (wright tells each one so).
pub fn is_child(request: &RecordedRequest) -> bool {
    request.body_text().contains("You are the subagent")
}

/// The router for `MockServer::start_routed`.
pub fn two_explorers() -> impl Fn(&RecordedRequest) -> MockResponse + Send + Sync + 'static {
    let meeting = Meeting::default();
    move |request| {
        let body = request.body_text();
        let answered = body.contains("\"tool_result\"");
        if !is_child(request) {
            return MockResponse::sse(if answered {
                anthropic::text(PARENT_ANSWER)
            } else {
                anthropic::tool_calls(&[
                    (
                        "toolu_task_alpha",
                        "Task",
                        json!({"description": "find alpha", "prompt": ALPHA.0, "subagent_type": "explore"}),
                    ),
                    (
                        "toolu_task_beta",
                        "Task",
                        json!({"description": "find beta", "prompt": BETA.0, "subagent_type": "explore"}),
                    ),
                ])
            });
        }
        let (which, answer, pattern) = if body.contains(ALPHA.0) {
            ("alpha", ALPHA.1, "alpha")
        } else {
            ("beta", BETA.1, "beta")
        };
        if answered {
            return MockResponse::sse(anthropic::text(answer));
        }
        if !meeting.meet() {
            return MockResponse::sse(anthropic::text(NOT_TOGETHER));
        }
        MockResponse::sse(anthropic::tool_calls(&[(
            &format!("toolu_grep_{which}"),
            "Grep",
            json!({"pattern": pattern}),
        )]))
    }
}
