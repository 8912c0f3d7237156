//! Checking a tool call's arguments without running the tool: the same
//! parsing and the same process-free checks each tool applies before it
//! touches a file or starts a command (empty command, the destructive
//! command guard, regexes, globs, file types, 1-based offsets). For
//! fuzzing and for front ends that want to validate a recorded call.

use crate::walk::NameGlob;
use crate::{ToolError, args, bash, edit, grep, job_tools, read, todo};

/// The built-in tools [`check_args`] knows, by the name the model calls.
pub const CHECKED_TOOLS: [&str; 10] = [
    "Bash",
    "Read",
    "Write",
    "Edit",
    "Glob",
    "Grep",
    "LS",
    "TodoWrite",
    "BashOutput",
    "KillShell",
];

/// Parses and checks `args` as the arguments of the built-in tool `tool`.
/// `Ok` means the tool would start work with them; `Err` is what the model
/// would be told.
pub fn check_args(tool: &str, args: serde_json::Value) -> Result<(), ToolError> {
    match tool {
        "Bash" => bash::checked_args(args).map(drop),
        "Read" => read::checked_args(args).map(drop),
        "Write" => args::parse::<crate::write::WriteArgs>(args).map(drop),
        "Edit" => edit::checked_args(args).map(drop),
        "Glob" => {
            let a: crate::glob::GlobArgs = args::parse(args)?;
            NameGlob::new(&a.pattern).map(drop)
        }
        "Grep" => {
            let a: grep::GrepArgs = args::parse(args)?;
            grep::compile(&a).map(drop)
        }
        "LS" => args::parse::<crate::ls::LsArgs>(args).map(drop),
        "TodoWrite" => todo::parse_todos(args).map(drop),
        "BashOutput" => job_tools::checked_output_args(args).map(drop),
        "KillShell" => args::parse::<job_tools::KillShellArgs>(args).map(drop),
        other => Err(ToolError::InvalidArgs(format!(
            "no built-in tool named `{other}`"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accepts_good_calls_and_refuses_bad_ones() {
        assert!(check_args("Bash", json!({"command": "ls"})).is_ok());
        assert!(check_args("Bash", json!({"command": "  "})).is_err());
        assert!(matches!(
            check_args("Bash", json!({"command": "rm -rf /"})),
            Err(ToolError::Blocked(_))
        ));
        assert!(check_args("Read", json!({"file_path": "a", "offset": 0})).is_err());
        assert!(
            check_args(
                "Edit",
                json!({"file_path": "a", "old_string": "x", "new_string": "x"})
            )
            .is_err()
        );
        assert!(check_args("Grep", json!({"pattern": "("})).is_err());
        assert!(check_args("Grep", json!({"pattern": "a", "type": "nope"})).is_err());
        assert!(check_args("Glob", json!({"pattern": "**/*.rs"})).is_ok());
        assert!(check_args("Glob", json!({"pattern": "[a"})).is_err());
        assert!(check_args("LS", json!(null)).is_ok());
        assert!(check_args("BashOutput", json!({"bash_id": "bash_1", "filter": "("})).is_err());
        assert!(check_args("Nope", json!({})).is_err());
    }

    #[test]
    fn every_checked_tool_is_a_builtin() {
        let registry = crate::ToolRegistry::builtin();
        for name in CHECKED_TOOLS {
            assert!(registry.get(name).is_some(), "{name}");
        }
    }
}
