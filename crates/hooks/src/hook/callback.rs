//! Hooks that run in the program driving wright instead of as commands:
//! the Claude Agent SDK registers Python or TypeScript functions as hooks
//! and wright calls them over its control protocol. The front end supplies
//! the channel ([`HookCallbacks`]); the reply is the same JSON a command
//! hook prints, so it is folded by the same rules.

use std::fmt;
use std::sync::Arc;

use futures::future::BoxFuture;
use serde_json::Value;
use tokio_util::sync::CancellationToken;

use super::HookDef;
use super::outcome::HookResult;

/// Calls hook functions registered by the program driving wright.
pub trait HookCallbacks: Send + Sync {
    /// Runs callback `id` with the hook's input JSON and returns its JSON
    /// reply, or why it could not run.
    fn call(
        &self,
        id: &str,
        input: Value,
        tool_use_id: Option<String>,
    ) -> BoxFuture<'static, Result<Value, String>>;
}

/// A shared [`HookCallbacks`], comparable by identity so [`super::HookEnv`]
/// keeps its value semantics.
#[derive(Clone)]
pub struct CallbackChannel(pub Arc<dyn HookCallbacks>);

impl fmt::Debug for CallbackChannel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("CallbackChannel")
    }
}

impl PartialEq for CallbackChannel {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for CallbackChannel {}

/// Runs callback hook `def` (whose `callback` is set) under its timeout
/// and `cancel`.
pub(crate) async fn run_callback(
    def: &HookDef,
    id: &str,
    input: &[u8],
    channel: Option<&CallbackChannel>,
    cancel: &CancellationToken,
) -> HookResult {
    let Some(channel) = channel else {
        return HookResult::SpawnError(
            "a callback hook needs the program that registered it, which is not connected"
                .to_owned(),
        );
    };
    let input: Value = match serde_json::from_slice(input) {
        Ok(v) => v,
        Err(e) => return HookResult::SpawnError(format!("cannot encode the hook input: {e}")),
    };
    let tool_use_id = input["tool_use_id"].as_str().map(str::to_owned);
    let call = channel.0.call(id, input, tool_use_id);
    tokio::select! {
        reply = call => match reply {
            Ok(Value::Null) => HookResult::Success { stdout: String::new() },
            Ok(reply @ Value::Object(_)) => HookResult::Success { stdout: reply.to_string() },
            // Exit code 1 reads as "the hook failed" in every message.
            Ok(other) => HookResult::Failed {
                code: Some(1),
                stderr: format!("the program's hook callback replied with {other}, not a JSON object"),
            },
            Err(e) => HookResult::Failed {
                code: Some(1),
                stderr: format!("the program's hook callback failed: {e}"),
            },
        },
        () = tokio::time::sleep(def.effective_timeout()) => HookResult::TimedOut,
        () = cancel.cancelled() => HookResult::Cancelled,
    }
}
