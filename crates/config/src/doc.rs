//! A config file's tables of tables, typed ([`FileDoc`]), and the
//! validation of a whole file into [`Assign`]s, in key order: the plain
//! keys through the key table (`rows.rs`), `[hooks]` and `[verify]`'s
//! checks in `doc_hooks.rs`, `[mcp_servers]` in `doc_mcp.rs`, and
//! `[models]` and `[projects]` here (the shared checks are [`Builder`]'s).
//! Type errors are caught earlier, by `rows.rs` and serde, and located by
//! `file.rs`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;
use toml::de::DeTable;

use crate::assign::{Assign, Range, check_price};
use crate::builder::{Builder, S, resolve_path};
use crate::doc_hooks::{HooksDoc, VerifyDoc, hooks, verify};
use crate::doc_mcp::{ServerDoc, check_name, servers};
use crate::error::{ConfigError, Origin};
use crate::keys;
use crate::projects::ProjectEntry;
use crate::rows;
use crate::settings::ModelOverride;
use crate::shell_env::{ShellEnvDoc, ShellEnvironment, shell_environment};
use crate::source::Source;
use crate::toml_text::{key_segment, model_key};

/// The tables of tables of a config file, typed for serde. The plain keys
/// are not spelled here: `rows.rs` reads them through the key table, and
/// serde passes over them (the unknown-key pass has already rejected any
/// key neither knows).
#[derive(Debug, Deserialize)]
pub(crate) struct FileDoc {
    hooks: Option<HooksDoc>,
    verify: Option<VerifyDoc>,
    mcp_servers: Option<BTreeMap<Spanned<String>, Spanned<ServerDoc>>>,
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

/// Validates the document from `path` (`root` is its parsed tree, `doc`
/// its tables of tables) and turns it into assignments in key order: each
/// row of the key table in turn, the plain ones read through the table and
/// the tables of tables by their modules; then its `[projects]` entries.
pub(crate) fn build(
    mut doc: FileDoc,
    root: &DeTable<'_>,
    path: &Path,
    base_dir: &Path,
    at: &dyn Fn(usize) -> Origin,
) -> Result<Layer, ConfigError> {
    let prompt = |name| keys::find(name).and_then(|key| rows::span_of(root, key));
    if let (Some(p), Some(f)) = (prompt("system_prompt"), prompt("system_prompt_file")) {
        let (first, second, span) = if p.start < f.start {
            ("system_prompt", "system_prompt_file", f)
        } else {
            ("system_prompt_file", "system_prompt", p)
        };
        return Err(ConfigError::Conflict {
            origin: at(span.start),
            first: format!("`{first}`"),
            second: format!("`{second}`"),
        });
    }
    let mut b = Builder::new(at, base_dir, Source::File(path.to_path_buf()));
    for key in &keys::TABLE {
        match key.name {
            "hooks" => doc.hooks.take().map_or(Ok(()), |h| hooks(&mut b, h))?,
            "verify.checks" => doc.verify.take().map_or(Ok(()), |v| verify(&mut b, v))?,
            "mcp_servers" => doc
                .mcp_servers
                .take()
                .map_or(Ok(()), |s| servers(&mut b, s))?,
            "models" => {
                for (name, m) in doc.models.take().unwrap_or_default() {
                    model(&mut b, name, m)?;
                }
            }
            _ => rows::read(&mut b, key, root)?,
        }
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
