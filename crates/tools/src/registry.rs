//! The registry of built-in tools, in the stable order their specs are sent.

use std::sync::Arc;

use wright_protocol::ToolSpec;

use crate::{
    BashOutputTool, BashTool, EditTool, GlobTool, GrepTool, KillShellTool, LsTool, ReadTool,
    TodoWriteTool, Tool, WriteTool,
};

/// A set of tools looked up by name.
pub struct ToolRegistry {
    tools: Vec<Arc<dyn Tool>>,
    /// Built once: deriving and flattening schemas is not free, and every
    /// model request sends them.
    specs: Vec<ToolSpec>,
}

impl ToolRegistry {
    /// All ten built-in tools.
    pub fn builtin() -> Self {
        let tools: Vec<Arc<dyn Tool>> = vec![
            Arc::new(ReadTool),
            Arc::new(WriteTool),
            Arc::new(EditTool),
            Arc::new(BashTool),
            Arc::new(BashOutputTool),
            Arc::new(KillShellTool),
            Arc::new(GlobTool),
            Arc::new(GrepTool),
            Arc::new(LsTool),
            Arc::new(TodoWriteTool),
        ];
        let specs = tools.iter().map(|t| t.spec()).collect();
        Self { tools, specs }
    }

    /// Adds a tool (one defined outside this crate, such as `remember`).
    #[must_use]
    pub fn with(mut self, tool: Box<dyn Tool>) -> Self {
        self.specs.push(tool.spec());
        self.tools.push(Arc::from(tool));
        self
    }

    /// The tool called `name`.
    pub fn get(&self, name: &str) -> Option<Arc<dyn Tool>> {
        self.tools.iter().find(|t| t.name() == name).cloned()
    }

    /// Specs of all tools, in registry order.
    pub fn specs(&self) -> &[ToolSpec] {
        &self.specs
    }

    /// The tools whose names `keep` accepts, in the same order (a
    /// subagent's restricted set).
    #[must_use]
    pub fn only(&self, keep: impl Fn(&str) -> bool) -> Self {
        let (tools, specs) = self
            .tools
            .iter()
            .zip(&self.specs)
            .filter(|(t, _)| keep(t.name()))
            .map(|(t, s)| (Arc::clone(t), s.clone()))
            .unzip();
        Self { tools, specs }
    }

    /// Names of all tools, in registry order.
    pub fn names(&self) -> Vec<&str> {
        self.tools.iter().map(|t| t.name()).collect()
    }
}

impl std::fmt::Debug for ToolRegistry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRegistry")
            .field("tools", &self.names())
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wright_protocol::ToolKind;

    #[test]
    fn builtin_has_ten_in_order() {
        let r = ToolRegistry::builtin();
        assert_eq!(
            r.names(),
            [
                "Read",
                "Write",
                "Edit",
                "Bash",
                "BashOutput",
                "KillShell",
                "Glob",
                "Grep",
                "LS",
                "TodoWrite"
            ]
        );
        assert!(r.get("nope").is_none());
        let kinds: Vec<ToolKind> = r.names().iter().map(|n| r.get(n).unwrap().kind()).collect();
        use ToolKind::*;
        assert_eq!(
            kinds,
            [
                ReadOnly, Edit, Edit, Exec, ReadOnly, Exec, ReadOnly, ReadOnly, ReadOnly, ReadOnly
            ]
        );
    }

    #[test]
    fn specs_are_small_objects() {
        let registry = ToolRegistry::builtin();
        let specs = registry.specs();
        let json = serde_json::to_string(specs).unwrap();
        // About 1 KiB of it is TodoWrite's guidance on when to use it.
        assert!(json.len() < 7 * 1024, "{} bytes: {json}", json.len());
        for noise in ["$ref", "$defs", "anyOf", "null", "$schema", "Arguments of"] {
            assert!(!json.contains(noise), "{noise} in {json}");
        }
        for s in specs {
            assert_eq!(s.input_schema["type"], "object", "{}", s.name);
            assert!(!s.description.is_empty());
        }
        let grep = specs.iter().find(|s| s.name == "Grep").unwrap();
        let modes = grep.input_schema.to_string();
        assert!(
            modes.contains("files_with_matches") && modes.contains("count"),
            "{modes}"
        );
    }
}
