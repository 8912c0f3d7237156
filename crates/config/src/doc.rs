//! The typed shape of a config file ([`FileDoc`]) and its validation into
//! [`Assign`]s: ranges, enum words, non-empty strings, relative paths
//! resolved against the file's base directory, `~/` expanded (the shared
//! checks are [`Builder`]'s). Type errors are caught earlier, by serde,
//! and located by `file.rs`. `[hooks]` and `[verify]` are in `doc_hooks.rs`,
//! `[mcp]` and `[mcp_servers]` in `doc_mcp.rs`, `[agents]` in
//! `doc_agents.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::assign::{Assign, Range, check_price};
use crate::builder::{Builder, S, resolve_path};
use crate::doc_agents::{AgentsDoc, agents};
use crate::doc_hooks::{HooksDoc, VerifyDoc, hooks, verify};
use crate::doc_mcp::{McpDoc, ServerDoc, check_name, mcp, servers};
use crate::error::{ConfigError, Origin};
use crate::keys::range_of;
use crate::kinds::SharedWords as _;
use crate::kinds::{PermissionMode, Provider, ReasoningEffort, SandboxMode};
use crate::projects::ProjectEntry;
use crate::settings::ModelOverride;
use crate::shell_env::{ShellEnvDoc, ShellEnvironment, shell_environment};
use crate::source::Source;
use crate::toml_text::{key_segment, model_key};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct FileDoc {
    provider: S<String>,
    model: S<String>,
    base_url: S<String>,
    max_tokens: S<i64>,
    max_turns: S<i64>,
    permission_mode: S<String>,
    system_prompt: S<String>,
    system_prompt_file: S<String>,
    append_system_prompt: S<String>,
    reasoning_effort: S<String>,
    thinking_budget: S<i64>,
    fallback_model: S<String>,
    tools: Option<ToolsDoc>,
    context: Option<ContextDoc>,
    permissions: Option<PermissionsDoc>,
    sandbox: Option<SandboxDoc>,
    hooks: Option<HooksDoc>,
    verify: Option<VerifyDoc>,
    mcp: Option<McpDoc>,
    mcp_servers: Option<BTreeMap<Spanned<String>, Spanned<ServerDoc>>>,
    agents: Option<AgentsDoc>,
    models: Option<BTreeMap<Spanned<String>, ModelDoc>>,
    projects: Option<BTreeMap<Spanned<String>, ProjectDoc>>,
    shell_environment: Option<ShellEnvDoc>,
}

/// `[projects."/abs/path"]`: per-project state kept in the user's file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProjectDoc {
    trusted: S<bool>,
    approved_mcp_servers: Option<BTreeMap<Spanned<String>, Spanned<String>>>,
}

/// One file's validated content: the settings it assigns and its
/// `[projects]` entries (honoured only from the user's file).
#[derive(Debug, Default)]
pub(crate) struct Layer {
    /// The settings, in key order.
    pub(crate) assigns: Vec<Assign>,
    /// The `[projects."…"]` tables, in file order.
    pub(crate) projects: Vec<ProjectEntry>,
    /// `[shell_environment]` (honoured only from the user's file).
    pub(crate) shell_environment: Option<ShellEnvironment>,
    /// Dotted keys accepted but not applied (`mcp_servers.NAME.cwd`, …),
    /// reported as [`crate::IgnoreReason::CodexSetting`].
    pub(crate) not_applied: Vec<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ToolsDoc {
    bash_timeout_secs: S<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextDoc {
    instruction_files: S<Vec<String>>,
    instruction_budget: S<i64>,
    user_instruction_files: S<Vec<String>>,
    skill_dirs: S<Vec<String>>,
    user_memory: S<bool>,
    auto_compact: S<bool>,
    keep_recent_tokens: S<i64>,
    compact_margin_percent: S<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PermissionsDoc {
    allow: S<Vec<String>>,
    ask: S<Vec<String>>,
    deny: S<Vec<String>>,
    additional_roots: S<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct SandboxDoc {
    mode: S<String>,
    network: S<bool>,
    writable_roots: S<Vec<String>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ModelDoc {
    context_window: S<i64>,
    max_output: S<i64>,
    input_price: S<f64>,
    output_price: S<f64>,
    cache_read_price: S<f64>,
    cache_write_price: S<f64>,
    developer_role: S<bool>,
    max_completion_tokens: S<bool>,
    stream_usage: S<bool>,
}

/// Validates the typed document from `path` and turns it into assignments
/// in key order, plus its `[projects]` entries.
pub(crate) fn build(
    doc: FileDoc,
    path: &Path,
    base_dir: &Path,
    at: &dyn Fn(usize) -> Origin,
) -> Result<Layer, ConfigError> {
    if let (Some(p), Some(f)) = (&doc.system_prompt, &doc.system_prompt_file) {
        let (first, second, span) = if p.span().start < f.span().start {
            ("system_prompt", "system_prompt_file", f.span())
        } else {
            ("system_prompt_file", "system_prompt", p.span())
        };
        return Err(ConfigError::Conflict {
            origin: at(span.start),
            first: format!("`{first}`"),
            second: format!("`{second}`"),
        });
    }
    let mut b = Builder::new(at, base_dir, Source::File(path.to_path_buf()));
    if let Some(v) = doc.provider {
        let p = b.word("provider", v, Provider::parse, Provider::expected)?;
        b.push(Assign::Provider(p));
    }
    if let Some(v) = doc.model {
        let v = b.text("model", v)?;
        b.push(Assign::Model(v));
    }
    if let Some(v) = doc.base_url {
        let v = b.text("base_url", v)?;
        b.push(Assign::BaseUrl(v));
    }
    if let Some(v) = doc.max_tokens {
        let n = b.num("max_tokens", v, const { range_of("max_tokens") })?;
        b.push(Assign::MaxTokens(n));
    }
    if let Some(v) = doc.max_turns {
        let n = b.num("max_turns", v, const { range_of("max_turns") })?;
        b.push(Assign::MaxTurns(n));
    }
    if let Some(v) = doc.permission_mode {
        let m = b.word(
            "permission_mode",
            v,
            PermissionMode::parse,
            PermissionMode::expected,
        )?;
        b.push(Assign::PermissionMode(m));
    }
    if let Some(v) = doc.system_prompt {
        let v = b.text("system_prompt", v)?;
        b.push(Assign::SystemPrompt(v));
    }
    if let Some(v) = doc.system_prompt_file {
        let file = PathBuf::from(b.text("system_prompt_file", v)?);
        b.push(Assign::SystemPromptFile(base_dir.join(file)));
    }
    if let Some(v) = doc.append_system_prompt {
        let v = b.text("append_system_prompt", v)?;
        b.push(Assign::AppendSystemPrompt(v));
    }
    if let Some(v) = doc.reasoning_effort {
        let e = b.word(
            "reasoning_effort",
            v,
            ReasoningEffort::parse,
            ReasoningEffort::expected,
        )?;
        b.push(Assign::ReasoningEffort(e));
    }
    if let Some(v) = doc.thinking_budget {
        let n = b.num("thinking_budget", v, const { range_of("thinking_budget") })?;
        b.push(Assign::ThinkingBudget(n));
    }
    if let Some(v) = doc.fallback_model {
        let v = b.text("fallback_model", v)?;
        b.push(Assign::FallbackModel(v));
    }
    if let Some(v) = doc.tools.and_then(|t| t.bash_timeout_secs) {
        let n = b.num(
            "tools.bash_timeout_secs",
            v,
            const { range_of("tools.bash_timeout_secs") },
        )?;
        b.push(Assign::BashTimeoutSecs(n));
    }
    if let Some(c) = doc.context {
        context(&mut b, c)?;
    }
    if let Some(p) = doc.permissions {
        permissions(&mut b, p)?;
    }
    if let Some(s) = doc.sandbox {
        sandbox(&mut b, s)?;
    }
    if let Some(h) = doc.hooks {
        hooks(&mut b, h)?;
    }
    if let Some(v) = doc.verify {
        verify(&mut b, v)?;
    }
    if let Some(m) = doc.mcp {
        mcp(&mut b, m)?;
    }
    if let Some(s) = doc.mcp_servers {
        servers(&mut b, s)?;
    }
    if let Some(a) = doc.agents {
        agents(&mut b, a)?;
    }
    for (name, m) in doc.models.unwrap_or_default() {
        model(&mut b, name, m)?;
    }
    let mut projects = Vec::new();
    for (path, p) in doc.projects.unwrap_or_default() {
        projects.push(project(&b, path, p)?);
    }
    let shell_environment = doc
        .shell_environment
        .map(|d| shell_environment(&b, d))
        .transpose()?;
    let not_applied = std::mem::take(&mut b.not_applied);
    Ok(Layer {
        assigns: b.into_assigns(),
        projects,
        shell_environment,
        not_applied,
    })
}

/// A `[projects."<path>"]` table: the path must be absolute (or `~/…`),
/// since it is compared with the canonical project root.
fn project(
    b: &Builder<'_>,
    path: Spanned<String>,
    p: ProjectDoc,
) -> Result<ProjectEntry, ConfigError> {
    let span = path.span();
    let raw = path.into_inner();
    let key = format!("projects.{}", key_segment(&raw));
    let resolved = if raw == "~" || raw.starts_with("~/") {
        resolve_path(&raw, b.base_dir).map_err(|m| b.invalid(&key, span.clone(), &raw, m))?
    } else {
        PathBuf::from(&raw)
    };
    if !resolved.is_absolute() {
        return Err(b.invalid(
            &key,
            span,
            &raw,
            "expected an absolute project path".to_owned(),
        ));
    }
    let mut mcp_approvals = BTreeMap::new();
    for (name, fingerprint) in p.approved_mcp_servers.unwrap_or_default() {
        let span = name.span();
        let name = name.into_inner();
        let key = format!("{key}.approved_mcp_servers.{}", key_segment(&name));
        check_name(&name).map_err(|m| b.invalid(&key, span, &name, m))?;
        mcp_approvals.insert(name, fingerprint.into_inner());
    }
    Ok(ProjectEntry {
        path: resolved,
        trusted: p.trusted.is_some_and(Spanned::into_inner),
        mcp_approvals,
    })
}

fn context(b: &mut Builder<'_>, c: ContextDoc) -> Result<(), ConfigError> {
    if let Some(v) = c.instruction_files {
        let span = v.span();
        let files = v.into_inner();
        if let Some(bad) = files.iter().find(|f| f.trim().is_empty()) {
            return Err(b.invalid(
                "context.instruction_files",
                span,
                &format!("{bad:?}"),
                "expected an array of non-empty file names".to_owned(),
            ));
        }
        b.push(Assign::InstructionFiles(files));
    }
    if let Some(v) = c.instruction_budget {
        let n = b.num(
            "context.instruction_budget",
            v,
            const { range_of("context.instruction_budget") },
        )?;
        b.push(Assign::InstructionBudget(n));
    }
    if let Some(v) = c.user_instruction_files {
        let v = b.paths("context.user_instruction_files", v)?;
        b.push(Assign::UserInstructionFiles(v));
    }
    if let Some(v) = c.skill_dirs {
        let v = b.paths("context.skill_dirs", v)?;
        b.push(Assign::SkillDirs(v));
    }
    if let Some(v) = c.user_memory {
        b.push(Assign::UserMemory(v.into_inner()));
    }
    if let Some(v) = c.auto_compact {
        b.push(Assign::AutoCompact(v.into_inner()));
    }
    if let Some(v) = c.keep_recent_tokens {
        let n = b.num(
            "context.keep_recent_tokens",
            v,
            const { range_of("context.keep_recent_tokens") },
        )?;
        b.push(Assign::KeepRecentTokens(n));
    }
    if let Some(v) = c.compact_margin_percent {
        let n = b.num(
            "context.compact_margin_percent",
            v,
            const { range_of("context.compact_margin_percent") },
        )?;
        b.push(Assign::CompactMarginPercent(n));
    }
    Ok(())
}

fn permissions(b: &mut Builder<'_>, p: PermissionsDoc) -> Result<(), ConfigError> {
    if let Some(v) = p.allow {
        let v = b.strings("permissions.allow", v)?;
        b.push(Assign::Allow(v));
    }
    if let Some(v) = p.ask {
        let v = b.strings("permissions.ask", v)?;
        b.push(Assign::Ask(v));
    }
    if let Some(v) = p.deny {
        let v = b.strings("permissions.deny", v)?;
        b.push(Assign::Deny(v));
    }
    if let Some(v) = p.additional_roots {
        let v = b.paths("permissions.additional_roots", v)?;
        b.push(Assign::AdditionalRoots(v));
    }
    Ok(())
}

fn sandbox(b: &mut Builder<'_>, s: SandboxDoc) -> Result<(), ConfigError> {
    if let Some(v) = s.mode {
        let m = b.word("sandbox.mode", v, SandboxMode::parse, SandboxMode::expected)?;
        b.push(Assign::SandboxMode(m));
    }
    if let Some(v) = s.network {
        b.push(Assign::SandboxNetwork(v.into_inner()));
    }
    if let Some(v) = s.writable_roots {
        let v = b.paths("sandbox.writable_roots", v)?;
        b.push(Assign::WritableRoots(v));
    }
    Ok(())
}

fn model(b: &mut Builder<'_>, name: Spanned<String>, m: ModelDoc) -> Result<(), ConfigError> {
    let span = name.span();
    let name = name.into_inner();
    if name.trim().is_empty() {
        return Err(b.invalid(
            "models",
            span,
            &format!("{name:?}"),
            "expected a non-empty model name".to_owned(),
        ));
    }
    let key = |field: &str| format!("{}.{field}", model_key(&name));
    let price = |field: &str, v: S<f64>| -> Result<Option<f64>, ConfigError> {
        let Some(v) = v else { return Ok(None) };
        let span = v.span();
        let x = v.into_inner();
        check_price(x)
            .map(Some)
            .map_err(|msg| b.invalid(&key(field), span, &format!("{x:?}"), msg))
    };
    let assign = ModelOverride {
        context_window: m
            .context_window
            .map(|v| b.num(&key("context_window"), v, Range::CONTEXT_WINDOW))
            .transpose()?,
        max_output: m
            .max_output
            .map(|v| b.num(&key("max_output"), v, Range::POSITIVE_U32))
            .transpose()?,
        input_price: price("input_price", m.input_price)?,
        output_price: price("output_price", m.output_price)?,
        cache_read_price: price("cache_read_price", m.cache_read_price)?,
        cache_write_price: price("cache_write_price", m.cache_write_price)?,
        developer_role: m.developer_role.map(toml::Spanned::into_inner),
        max_completion_tokens: m.max_completion_tokens.map(toml::Spanned::into_inner),
        stream_usage: m.stream_usage.map(toml::Spanned::into_inner),
        name,
    };
    b.push(Assign::ModelOverride(assign));
    Ok(())
}

#[cfg(test)]
#[path = "doc_tests.rs"]
mod tests;
