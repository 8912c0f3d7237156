//! Builds the system prompt as labelled parts in the documented order:
//! base prompt → environment → instructions → skills → memory → appended
//! text. Tool schemas are sent separately by the provider adapter and are
//! only reported (see [`crate::report`]).
//!
//! Assembly reads the instruction, skill and memory files every time it is
//! called, so the caller re-assembles before each turn and edits take effect
//! without a restart.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::base::BASE_PROMPT;
use crate::environment::Environment;
use crate::estimate_tokens_for_chars;
use crate::instructions::{self, InstructionFile, InstructionOptions, Origin};
use crate::memory::{self, MemoryStore};
use crate::skills::{self, discover_skills};
use crate::warning::Warning;

/// What kind of content a part holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    /// The built-in base prompt or its replacement.
    BasePrompt,
    /// Working directory, platform, date, git.
    Environment,
    /// One instruction file.
    Instructions,
    /// The skills index.
    Skills,
    /// The memory index.
    Memory,
    /// Text appended by `--append-system-prompt`.
    Appended,
}

/// One labelled part of the system prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Part {
    /// What it is.
    pub kind: PartKind,
    /// Where it came from: a path, `built-in`, `environment`, a flag name.
    pub source: String,
    /// The exact text sent.
    pub text: String,
    /// Characters of `text`.
    pub chars: usize,
    /// `chars / 4`, rounded up.
    pub tokens_estimate: usize,
}

impl Part {
    fn new(kind: PartKind, source: impl Into<String>, text: String) -> Self {
        let chars = text.chars().count();
        Self {
            kind,
            source: source.into(),
            text,
            chars,
            tokens_estimate: estimate_tokens_for_chars(chars),
        }
    }
}

/// A replacement for the built-in base prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaseOverride {
    /// Where it came from (`--system-prompt`, a file path).
    pub source: String,
    /// The text.
    pub text: String,
}

/// Everything assembly needs; plain data so the caller maps config and
/// flags onto it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextInputs {
    /// Session working directory.
    pub cwd: PathBuf,
    /// Project root (where `.wright/` or `.git` was found).
    pub project_root: PathBuf,
    /// Replaces the built-in base prompt.
    pub base_override: Option<BaseOverride>,
    /// Appended last (`--append-system-prompt`).
    pub append: Option<String>,
    /// Date, platform, shell, git.
    pub environment: Environment,
    /// Which instruction files to read.
    pub instructions: InstructionOptions,
    /// Skill directories in priority order (default
    /// `<root>/.wright/skills`; user dirs only when configured).
    pub skill_dirs: Vec<PathBuf>,
    /// The memory store, when memory is enabled.
    pub memory: Option<MemoryStore>,
}

impl ContextInputs {
    /// Inputs with the defaults: `AGENTS.md`, a 40,000-character budget,
    /// project skills and project memory, no user-level anything.
    pub fn new(cwd: PathBuf, project_root: PathBuf, environment: Environment) -> Self {
        let wright = project_root.join(".wright");
        Self {
            skill_dirs: vec![wright.join("skills")],
            memory: Some(MemoryStore::new(wright.join("memory"), None)),
            cwd,
            project_root,
            base_override: None,
            append: None,
            environment,
            instructions: InstructionOptions::default(),
        }
    }
}

/// The assembled system prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Context {
    /// Parts in the order they are sent.
    pub parts: Vec<Part>,
    /// Problems found on the way (for the user, not the model).
    pub warnings: Vec<Warning>,
}

impl Context {
    /// The text sent as the system prompt: the parts joined by blank lines.
    pub fn system_prompt(&self) -> String {
        self.parts
            .iter()
            .map(|p| p.text.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
    }

    /// Total characters of the system prompt.
    pub fn chars(&self) -> usize {
        let separators = self.parts.len().saturating_sub(1) * 2;
        self.parts.iter().map(|p| p.chars).sum::<usize>() + separators
    }
}

/// Reads the files and builds the parts.
pub fn assemble(inputs: &ContextInputs) -> Context {
    let mut parts = Vec::new();
    let mut warnings = Vec::new();
    parts.push(match &inputs.base_override {
        Some(o) => Part::new(PartKind::BasePrompt, o.source.clone(), o.text.clone()),
        None => Part::new(PartKind::BasePrompt, "built-in", BASE_PROMPT.to_owned()),
    });
    parts.push(Part::new(
        PartKind::Environment,
        "environment",
        inputs.environment.render(&inputs.cwd, &inputs.project_root),
    ));
    let (files, w) = instructions::gather(&inputs.project_root, &inputs.cwd, &inputs.instructions);
    warnings.extend(w);
    parts.extend(files.iter().map(instruction_part));

    let (skills, w) = discover_skills(&inputs.skill_dirs, &inputs.project_root);
    warnings.extend(w);
    if let Some(text) = skills::render_index(&skills) {
        parts.push(Part::new(
            PartKind::Skills,
            join_paths(&inputs.skill_dirs),
            text,
        ));
    }
    if let Some(store) = &inputs.memory {
        let (notes, w) = store.list();
        warnings.extend(w);
        if let Some(text) = memory::render_index(&notes) {
            let dirs: Vec<PathBuf> = store.dirs().into_iter().map(|d| d.path).collect();
            parts.push(Part::new(PartKind::Memory, join_paths(&dirs), text));
        }
    }
    if let Some(append) = &inputs.append {
        parts.push(Part::new(
            PartKind::Appended,
            "--append-system-prompt",
            append.clone(),
        ));
    }
    Context { parts, warnings }
}

fn instruction_part(file: &InstructionFile) -> Part {
    let path = file.path.display();
    let header = match &file.origin {
        Origin::User => format!("User instructions from {path}:"),
        Origin::Project | Origin::Rule => format!("Project instructions from {path}:"),
        Origin::Import { by } => {
            format!("Instructions from {path} (imported by {}):", by.display())
        }
    };
    Part::new(
        PartKind::Instructions,
        path.to_string(),
        format!("{header}\n\n{}", file.text),
    )
}

fn join_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p: &PathBuf| Path::display(p).to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[path = "assemble_tests.rs"]
mod tests;
