//! What the model is told about a tool, and what a front end is shown of a run.

use serde::{Deserialize, Serialize};

/// A tool as advertised to the model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    /// Name the model calls it by.
    pub name: String,
    /// What it does and when to use it.
    pub description: String,
    /// JSON Schema of the arguments object.
    pub input_schema: serde_json::Value,
}

/// The effect class of a tool, used by the permission layer and the
/// scheduler (read-only calls may run concurrently).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolKind {
    /// Reads only.
    ReadOnly,
    /// Changes files.
    Edit,
    /// Runs commands.
    Exec,
    /// Talks to the network.
    Network,
}

/// What a front end shows about a finished tool run, beside what the model got.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ToolDisplay {
    /// One short line: "12 lines", "exit 0", "3 matches".
    pub summary: String,
    /// A unified diff for file changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// Exit code of a command.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// Where the untruncated output was written, if it was spilled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_output_path: Option<String>,
    /// Wall time of the run in milliseconds.
    #[serde(default)]
    pub duration_ms: u64,
}
