//! The tools over `bash`'s background jobs, with Claude Code's names and
//! arguments: `BashOutput` hands the model what a job printed since it last
//! asked, and `KillShell` stops a job's whole process group.

use futures::future::BoxFuture;
use grep_matcher::Matcher;
use grep_regex::RegexMatcher;
use schemars::JsonSchema;
use serde::Deserialize;
use wright_protocol::{ToolDisplay, ToolKind, ToolSpec, Touches};

use crate::jobs::JobStatus;
use crate::truncate::Keep;
use crate::{Tool, ToolContext, ToolError, ToolOutput, args, output};

/// Arguments of `BashOutput`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct BashOutputArgs {
    /// The id of the background job (`bash_1`, …), as `bash` reported it.
    bash_id: String,
    /// Only lines matching this regular expression are returned; the
    /// others are skipped for good.
    #[serde(default)]
    filter: Option<String>,
}

/// Reads what a background job printed since the last read.
#[derive(Debug, Default, Clone, Copy)]
pub struct BashOutputTool;

impl Tool for BashOutputTool {
    fn name(&self) -> &str {
        "BashOutput"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<BashOutputArgs>(
            self.name(),
            "Get the output of a background job started by bash with run_in_background: only \
             what it printed since the last BashOutput call for it, then its status \
             (running, exited with code N, killed). Long output keeps head and tail.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::ReadOnly
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        // Only what this session's own job printed.
        Touches::of(ToolKind::ReadOnly)
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(bash_output(args, ctx))
    }
}

/// Parses `BashOutput`'s arguments and compiles its filter.
pub(crate) fn checked_output_args(
    args: serde_json::Value,
) -> Result<(BashOutputArgs, Option<RegexMatcher>), ToolError> {
    let a: BashOutputArgs = args::parse(args)?;
    let filter = a
        .filter
        .as_deref()
        .map(RegexMatcher::new)
        .transpose()
        .map_err(|e| ToolError::InvalidArgs(format!("filter is not a valid regex: {e}")))?;
    Ok((a, filter))
}

async fn bash_output(args: serde_json::Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    // Checked before the read: a bad filter must not use up the output.
    let (a, filter) = checked_output_args(args)?;
    let job = ctx.jobs.get(&a.bash_id)?;
    let new = job.take_output().await?;
    let keep = |text: String| match &filter {
        None => text,
        Some(m) => text
            .split_inclusive('\n')
            .filter(|line| {
                m.is_match(line.trim_end_matches(['\n', '\r']).as_bytes())
                    .unwrap_or(false)
            })
            .collect(),
    };
    let mut text = keep(new.head);
    if new.skipped > 0 {
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("[… {} bytes not read …]\n", new.skipped));
        text.push_str(&keep(new.tail));
    }
    let path = job.output_path().display().to_string();
    let mut content = if text.is_empty() {
        "(no new output)\n".to_owned()
    } else {
        let finished = output::finish(&text, &ctx.limits, Keep::HeadTail, None);
        let cut = new.skipped > 0 || finished.content != text;
        let mut content = finished.content;
        if !content.ends_with('\n') {
            content.push('\n');
        }
        if cut {
            // The job's own file already holds everything: no spill copy.
            content.push_str(&format!(
                "[All output of {} is in {path}; read or grep it for the cut part]\n",
                job.id()
            ));
        }
        content
    };
    content.push_str(&format!("status: {}", new.status));
    Ok(ToolOutput {
        images: Vec::new(),
        content,
        display: ToolDisplay {
            summary: format!("{} {}", job.id(), new.status),
            exit_code: match new.status {
                JobStatus::Exited(code) => Some(code),
                _ => None,
            },
            full_output_path: Some(path),
            ..ToolDisplay::default()
        },
    })
}

/// Arguments of `KillShell`.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct KillShellArgs {
    /// The id of the background job to stop (`bash_1`, …).
    shell_id: String,
}

/// Stops a background job and everything it started.
#[derive(Debug, Default, Clone, Copy)]
pub struct KillShellTool;

impl Tool for KillShellTool {
    fn name(&self) -> &str {
        "KillShell"
    }

    fn spec(&self) -> ToolSpec {
        args::spec::<KillShellArgs>(
            self.name(),
            "Stop a background job started by bash with run_in_background, with every \
             process it started.",
        )
    }

    fn kind(&self) -> ToolKind {
        ToolKind::Exec
    }

    fn touches(&self, _args: &serde_json::Value) -> Touches {
        // Stopping one of the session's own background commands changes
        // nothing the user has not already allowed.
        Touches {
            own_job: true,
            ..Touches::of(ToolKind::Exec)
        }
    }

    fn run<'a>(
        &'a self,
        args: serde_json::Value,
        ctx: &'a ToolContext,
    ) -> BoxFuture<'a, Result<ToolOutput, ToolError>> {
        Box::pin(kill_shell(args, ctx))
    }
}

async fn kill_shell(args: serde_json::Value, ctx: &ToolContext) -> Result<ToolOutput, ToolError> {
    let a: KillShellArgs = args::parse(args)?;
    let job = ctx.jobs.get(&a.shell_id)?;
    let id = job.id();
    let (content, summary) = match job.status() {
        JobStatus::Exited(code) => (
            format!("Background job {id} had already exited with code {code}"),
            format!("{id} already exited"),
        ),
        JobStatus::Killed => (
            format!("Background job {id} had already been killed"),
            format!("{id} already killed"),
        ),
        JobStatus::Running => match job.stop().await {
            JobStatus::Killed => (
                format!("Killed background job {id}"),
                format!("killed {id}"),
            ),
            JobStatus::Exited(code) => (
                format!("Background job {id} had already exited with code {code}"),
                format!("{id} already exited"),
            ),
            JobStatus::Running => {
                return Err(ToolError::Failed(format!(
                    "Background job {id} was sent SIGKILL but has not ended yet"
                )));
            }
        },
    };
    Ok(ToolOutput {
        images: Vec::new(),
        content,
        display: ToolDisplay {
            summary,
            ..ToolDisplay::default()
        },
    })
}
