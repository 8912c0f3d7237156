//! The verifier's step in a tool round: once the last `Edit`/`Write` of a
//! model response has run, the checkers for the files that response changed
//! run (once per checker, not per edit) under the same sandbox as `Bash`,
//! and their diagnostics for those files go back inside that call's result,
//! so the model sees a broken build in the same turn. A checker that cannot
//! run is one short note, never an error.

use std::path::PathBuf;
use std::sync::Mutex;

use tokio_util::sync::CancellationToken;
use wright_hooks::verify::{self, CheckRun, ReportLimits};
use wright_permissions::HookVerdict;
use wright_protocol::{Item, ItemKind};
use wright_tools::Tool;
use wright_tools::{ScriptEnd, ToolContext};

use crate::approval::Request;
use crate::context::TurnContext;

/// The tools whose successful runs are verified.
const VERIFIED_TOOLS: [&str; 2] = ["Edit", "Write"];

/// What one model response's tool round knows about verification.
#[derive(Default)]
pub(crate) struct Pending {
    /// Index (in the response's calls) of the last verified tool's call.
    last: Option<usize>,
    /// Files changed so far by this response's verified calls.
    edited: Mutex<Vec<PathBuf>>,
}

impl Pending {
    /// Notes which call is the response's last edit, given the call names
    /// in order.
    pub(crate) fn new<'a>(names: impl Iterator<Item = &'a str>) -> Self {
        Self {
            last: names
                .enumerate()
                .filter(|(_, n)| VERIFIED_TOOLS.contains(n))
                .map(|(i, _)| i)
                .last(),
            edited: Mutex::default(),
        }
    }

    /// Whether a successful run of `tool` changed a file worth checking.
    pub(crate) fn is_verified(tool: &str) -> bool {
        VERIFIED_TOOLS.contains(&tool)
    }

    /// Records a file a verified call changed.
    pub(crate) fn edited(&self, path: PathBuf) {
        if let Ok(mut edited) = self.edited.lock()
            && !edited.contains(&path)
        {
            edited.push(path);
        }
    }

    /// The files to verify once call `index` has run, when it is the last
    /// edit of the response and something was changed.
    fn due(&self, index: usize) -> Option<Vec<PathBuf>> {
        if self.last != Some(index) {
            return None;
        }
        let edited = self.edited.lock().map(|e| e.clone()).unwrap_or_default();
        (!edited.is_empty()).then_some(edited)
    }
}

/// Runs the checkers when call `index` is the response's last edit, and
/// returns the reports to append to its result.
pub(crate) async fn after_call(
    ctx: &TurnContext,
    pending: &Pending,
    index: usize,
    tool_ctx: &ToolContext,
    cancel: &CancellationToken,
) -> Option<String> {
    let verifier = ctx.options.extensions.verifier.as_ref()?;
    let edited = pending.due(index)?;
    if cancel.is_cancelled() {
        return None;
    }
    let root = ctx
        .options
        .policy
        .workspace_roots
        .first()
        .cloned()
        .unwrap_or_else(|| ctx.options.cwd.clone());
    let mut reports = Vec::new();
    for run in verifier.plan(&edited, &root) {
        if cancel.is_cancelled() {
            break;
        }
        reports.push(check(ctx, run, tool_ctx, cancel).await);
    }
    (!reports.is_empty()).then(|| reports.join("\n"))
}

/// One checker run, reported as text for the model and as an item. A
/// checker runs the project's build (build scripts, proc macros: code the
/// model may just have written), so it is a command like any other: it
/// runs only where the permission check would let `Bash` run it, asking
/// the user when it would ask.
async fn check(
    ctx: &TurnContext,
    mut run: CheckRun,
    tool_ctx: &ToolContext,
    cancel: &CancellationToken,
) -> String {
    let offline = tool_ctx
        .sandbox
        .as_ref()
        .is_some_and(|sb| !sb.policy.network);
    if offline && run.format == verify::Format::CargoJson {
        // Without the network cargo would spend its time failing to fetch.
        run.command.push_str(" --offline");
    }
    let (text, errors, warnings, ran) = match permitted(ctx, &run, cancel).await {
        // The whole reason: it says how to allow the checker.
        Err(why) => (
            format!("[verifier: {} was not run: {why}]", run.label),
            0,
            0,
            false,
        ),
        Ok(()) => {
            let result =
                wright_tools::run_script(tool_ctx, &run.command, &run.cwd, run.timeout).await;
            match result {
                Ok(done) => match done.end {
                    ScriptEnd::Exited(code) => {
                        let report = verify::report_output(
                            &run,
                            &done.output,
                            Some(code),
                            ReportLimits::default(),
                        );
                        // A failing exit with nothing parsed is a checker that did not get to a verdict.
                        let ran = code == 0 || report.errors > 0;
                        (report.text, report.errors, report.warnings, ran)
                    }
                    ScriptEnd::TimedOut => (verify::timeout_note(&run), 0, 0, false),
                    ScriptEnd::Cancelled => (
                        verify::failure_note(&run, "interrupted by the user"),
                        0,
                        0,
                        false,
                    ),
                },
                Err(e) => (verify::failure_note(&run, &e.to_string()), 0, 0, false),
            }
        }
    };
    let files = run
        .files
        .iter()
        .map(|f| f.strip_prefix(&run.root).unwrap_or(f).display().to_string())
        .collect();
    ctx.emitter.item_completed(Item {
        id: ctx.emitter.next_item_id(),
        kind: ItemKind::Diagnostics {
            checker: run.label.clone(),
            files,
            errors: u32::try_from(errors).unwrap_or(u32::MAX),
            warnings: u32::try_from(warnings).unwrap_or(u32::MAX),
            text: text.clone(),
            ran,
        },
    });
    text
}

/// Whether the checker's command may run now, as the permission check
/// decides for a `Bash` call with it; `Err` says why not.
async fn permitted(
    ctx: &TurnContext,
    run: &CheckRun,
    cancel: &CancellationToken,
) -> Result<(), String> {
    let args = serde_json::json!({ "command": run.command });
    let raw_args = args.to_string();
    let bash = wright_tools::BashTool;
    let touches = bash.touches(&args);
    let request = Request {
        call_id: "verifier",
        tool: "Bash",
        describes: &bash,
        touches: &touches,
        args: &args,
        raw_args: &raw_args,
        cwd: &run.cwd,
        on_behalf_of: Some("the verifier wants to check the files just edited"),
    };
    ctx.gate
        .decide(&request, &ctx.emitter, ctx, &HookVerdict::None, cancel)
        .await
        .map(|_| ())
        .map_err(|(_, why)| why)
}
