//! `wright mcp add` and `wright mcp remove`, in Claude Code's syntax.
//! Scopes: `local` (`.wright/config.local.toml`, the default), `project`
//! (the project's `.mcp.json`, Claude Code's format, other entries kept;
//! removing also looks in `.wright/config.toml`) and `user` (the user's
//! config). TOML files keep their comments. Files inside the project are
//! read and written without following symlinks (a repository can plant
//! them); a server the user adds to the project is also recorded as
//! approved, since the user wrote it.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use wright_config::{ConfigLoader, McpTransport, remove_mcp_server, set_mcp_server};
use wright_mcp::ConfigSource;
use wright_mcp::config::{self as mcp_config};
use wright_sandbox::{Beneath, OpenError};

use crate::args::{McpScopeArg, McpTransportArg};
use crate::exit;
use crate::exit::SetupError;
use crate::mcp_servers::{MCP_JSON, entry_json, fingerprint};

/// What `wright mcp add` was given.
pub struct AddRequest<'a> {
    /// The server's name.
    pub name: &'a str,
    /// The command and arguments, or the URL.
    pub target: &'a [String],
    /// `--url URL`.
    pub url: Option<&'a str>,
    /// Where to write it.
    pub scope: McpScopeArg,
    /// `--transport`, when given.
    pub transport: Option<McpTransportArg>,
    /// `-e KEY=VALUE`.
    pub env: &'a [String],
    /// `-H 'Key: Value'`.
    pub headers: &'a [String],
}

/// `wright mcp add`.
pub fn add(loader: &ConfigLoader, req: &AddRequest<'_>) -> Result<u8, SetupError> {
    let usage = |m: String| SetupError(m);
    mcp_config::validate_server_name(req.name)
        .map_err(|e| usage(format!("invalid server name {:?}: {e}", req.name)))?;
    let transport = transport(req)?;
    // Checked as a run would check it, so a refused variable is reported
    // now; unset `${VAR}`s are fine here (they are expanded at start).
    let entry = entry_json(&transport);
    let text = serde_json::json!({"mcpServers": {req.name: entry.clone()}}).to_string();
    let any = |_: &str| Some(String::new());
    mcp_config::parse(&text, ConfigSource::CommandLine, &any)
        .map_err(|e| usage(e.to_string().replace("command line: ", "")))?;
    let root = &loader.project_root;
    let file = match req.scope {
        McpScopeArg::User => {
            let file = user_file(loader)?;
            let text = read_user(&file)?;
            if remove_mcp_server(&text, req.name).is_ok_and(|(_, had)| had) {
                return Err(exists(req.name, &file));
            }
            let text = set_mcp_server(&text, req.name, &transport)
                .map_err(|e| usage(format!("{}: {e}", file.display())))?;
            write_user(&file, &text)?;
            file
        }
        McpScopeArg::Local => {
            let file = loader.local_file();
            let text = read_project(root, &file)?.unwrap_or_default();
            if remove_mcp_server(&text, req.name).is_ok_and(|(_, had)| had) {
                return Err(exists(req.name, &file));
            }
            let text = set_mcp_server(&text, req.name, &transport)
                .map_err(|e| usage(format!("{}: {e}", file.display())))?;
            write_project(root, &file, text.as_bytes())?;
            file
        }
        McpScopeArg::Project => {
            let file = root.join(MCP_JSON);
            let mut doc = read_json(root, &file)?;
            let servers = servers_object(&mut doc, &file)?;
            if servers.contains_key(req.name) {
                return Err(exists(req.name, &file));
            }
            servers.insert(req.name.to_owned(), entry);
            write_json(root, &file, &doc)?;
            file
        }
    };
    println!(
        "Added {} MCP server {} to {} ({} scope)",
        transport.transport(),
        req.name,
        file.display(),
        scope_word(req.scope)
    );
    if req.scope != McpScopeArg::User {
        remember(loader, req.name, &transport);
    }
    Ok(exit::SUCCESS)
}

/// Records the user's approval of a server they just added to the
/// project, keyed by the definition as it will run.
fn remember(loader: &ConfigLoader, name: &str, transport: &McpTransport) {
    let Some(dir) = &loader.user_config_dir else {
        return;
    };
    let text = serde_json::json!({"mcpServers": {name: entry_json(transport)}}).to_string();
    // Fingerprinted as written, as the approval check does.
    match mcp_config::parse(&text, ConfigSource::CommandLine, &mcp_config::unexpanded) {
        Ok(servers) => {
            for s in servers {
                let f = fingerprint(&s.config);
                if let Err(e) =
                    wright_config::record_mcp_approval(dir, &loader.project_root, name, Some(&f))
                {
                    eprintln!("warning: could not record your approval of {name}: {e}");
                }
            }
        }
        Err(e) => eprintln!(
            "note: {name} is not approved yet ({}); wright will ask before starting it",
            e.to_string().replace("command line: ", "")
        ),
    }
}

/// The transport `wright mcp add` was asked for: `--transport` if given,
/// else http for `--url` or a lone `http(s)://` target, else stdio.
fn transport_kind(req: &AddRequest<'_>) -> Result<McpTransportArg, SetupError> {
    let lone_url = match req.target {
        [only] => only.starts_with("http://") || only.starts_with("https://"),
        _ => false,
    };
    match (req.transport, req.url) {
        (Some(McpTransportArg::Stdio), Some(_)) => Err(SetupError(
            "--url is for http or sse servers; a stdio server takes a command: wright mcp add NAME -- COMMAND ARGS…".to_owned(),
        )),
        (_, Some(_)) if !req.target.is_empty() => Err(SetupError(
            "give either --url URL or a command, not both".to_owned(),
        )),
        (Some(kind), _) => Ok(kind),
        (None, Some(_)) => Ok(McpTransportArg::Http),
        (None, None) if lone_url => Ok(McpTransportArg::Http),
        (None, None) => Ok(McpTransportArg::Stdio),
    }
}

fn transport(req: &AddRequest<'_>) -> Result<McpTransport, SetupError> {
    let usage = |m: &str| SetupError(m.to_owned());
    let kind = transport_kind(req)?;
    match kind {
        McpTransportArg::Stdio => {
            if !req.headers.is_empty() {
                return Err(usage("-H/--header is for --transport http or sse"));
            }
            let (command, args) = req
                .target
                .split_first()
                .ok_or_else(|| usage("expected a command: wright mcp add NAME -- COMMAND ARGS…"))?;
            let mut env = BTreeMap::new();
            for pair in req.env {
                let (k, v) = pair
                    .split_once('=')
                    .filter(|(k, _)| !k.is_empty())
                    .ok_or_else(|| SetupError(format!("-e {pair:?}: expected KEY=VALUE")))?;
                env.insert(k.to_owned(), v.to_owned());
            }
            Ok(McpTransport::Stdio {
                command: command.clone(),
                args: args.to_vec(),
                env,
            })
        }
        McpTransportArg::Http | McpTransportArg::Sse => {
            if !req.env.is_empty() {
                return Err(usage("-e/--env is for stdio servers"));
            }
            let (url, rest) = match (req.url, req.target.split_first()) {
                (Some(url), _) => (url, &[][..]),
                (None, Some((url, rest))) => (url.as_str(), rest),
                (None, None) => {
                    return Err(usage("expected one URL: wright mcp add NAME --url URL"));
                }
            };
            // Claude Code's examples put `--header` after the URL, where
            // the trailing arguments swallow it.
            let mut all: Vec<String> = req.headers.to_vec();
            let mut rest = rest.iter();
            while let Some(arg) = rest.next() {
                match arg.as_str() {
                    "-H" | "--header" => all.extend(rest.next().cloned()),
                    a if a.starts_with("--header=") => {
                        all.push(a["--header=".len()..].to_owned());
                    }
                    _ => {
                        return Err(usage("expected one URL: wright mcp add NAME --url URL"));
                    }
                }
            }
            let mut headers = BTreeMap::new();
            for h in &all {
                let (k, v) = h
                    .split_once(':')
                    .filter(|(k, _)| !k.trim().is_empty())
                    .ok_or_else(|| SetupError(format!("-H {h:?}: expected 'Key: Value'")))?;
                headers.insert(k.trim().to_owned(), v.trim().to_owned());
            }
            let url = url.to_owned();
            Ok(if kind == McpTransportArg::Http {
                McpTransport::Http { url, headers }
            } else {
                McpTransport::Sse { url, headers }
            })
        }
    }
}

/// `wright mcp remove NAME [--scope …]`.
pub fn remove(
    loader: &ConfigLoader,
    name: &str,
    scope: Option<McpScopeArg>,
) -> Result<u8, SetupError> {
    let root = &loader.project_root;
    let mut found: Vec<(McpScopeArg, PathBuf)> = Vec::new();
    if let Some(file) = loader.user_file()
        && has_toml_server(&read_user(&file)?, name)
    {
        found.push((McpScopeArg::User, file));
    }
    let json = root.join(MCP_JSON);
    let mut doc = read_json(root, &json)?;
    if servers_object(&mut doc, &json)?.contains_key(name) {
        found.push((McpScopeArg::Project, json.clone()));
    }
    for (s, file) in [
        (McpScopeArg::Project, loader.project_file()),
        (McpScopeArg::Local, loader.local_file()),
    ] {
        if has_toml_server(&read_project(root, &file)?.unwrap_or_default(), name) {
            found.push((s, file));
        }
    }
    let chosen: Vec<&(McpScopeArg, PathBuf)> = match scope {
        Some(s) => found.iter().filter(|(f, _)| *f == s).collect(),
        None => found.iter().collect(),
    };
    let mut scopes: Vec<McpScopeArg> = chosen.iter().map(|(s, _)| *s).collect();
    scopes.dedup();
    if chosen.is_empty() {
        let where_ = match (scope, found.is_empty()) {
            (Some(s), false) => format!(
                " in the {} scope (it is in: {})",
                scope_word(s),
                describe(&found)
            ),
            _ => String::new(),
        };
        return Err(SetupError(format!("no MCP server named {name:?}{where_}")));
    }
    if scopes.len() > 1 {
        return Err(SetupError(format!(
            "MCP server {name:?} is defined in more than one scope: {}; pass --scope local, \
             project or user",
            describe(&found)
        )));
    }
    for (s, file) in chosen {
        if *file == json {
            if let Some(servers) = doc.get_mut("mcpServers").and_then(|v| v.as_object_mut()) {
                servers.remove(name);
            }
            write_json(root, file, &doc)?;
        } else {
            let text = if *s == McpScopeArg::User {
                read_user(file)?
            } else {
                read_project(root, file)?.unwrap_or_default()
            };
            let (text, _) = remove_mcp_server(&text, name)
                .map_err(|e| SetupError(format!("{}: {e}", file.display())))?;
            if *s == McpScopeArg::User {
                write_user(file, &text)?;
            } else {
                write_project(root, file, text.as_bytes())?;
            }
        }
        println!(
            "Removed MCP server {name} from {} ({} scope)",
            file.display(),
            scope_word(*s)
        );
        if *s != McpScopeArg::User
            && let Some(dir) = &loader.user_config_dir
            && let Err(e) = wright_config::record_mcp_approval(dir, root, name, None)
        {
            eprintln!("warning: could not forget the approval of {name}: {e}");
        }
    }
    Ok(exit::SUCCESS)
}

fn scope_word(s: McpScopeArg) -> &'static str {
    match s {
        McpScopeArg::Local => "local",
        McpScopeArg::Project => "project",
        McpScopeArg::User => "user",
    }
}

fn describe(found: &[(McpScopeArg, PathBuf)]) -> String {
    found
        .iter()
        .map(|(s, f)| format!("{} ({})", scope_word(*s), f.display()))
        .collect::<Vec<_>>()
        .join(", ")
}

fn exists(name: &str, file: &Path) -> SetupError {
    SetupError(format!(
        "MCP server {name:?} already exists in {}; remove it first (wright mcp remove {name})",
        file.display()
    ))
}

fn has_toml_server(text: &str, name: &str) -> bool {
    remove_mcp_server(text, name).is_ok_and(|(_, had)| had)
}

fn user_file(loader: &ConfigLoader) -> Result<PathBuf, SetupError> {
    let file = loader.user_file().ok_or_else(|| {
        SetupError("no user config directory (set XDG_CONFIG_HOME or HOME)".to_owned())
    })?;
    // A dotfiles setup often symlinks the config; write the target.
    Ok(file.canonicalize().unwrap_or(file))
}

fn read_user(file: &Path) -> Result<String, SetupError> {
    if !file.exists() {
        return Ok(String::new());
    }
    wright_config::read_text_file(file).map_err(|e| SetupError(e.to_string()))
}

fn write_user(file: &Path, text: &str) -> Result<(), SetupError> {
    let cannot = |e: std::io::Error| SetupError(format!("cannot write {}: {e}", file.display()));
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(cannot)?;
    }
    wright_config::replace_file(file, text.as_bytes()).map_err(cannot)
}

/// `.mcp.json` as JSON (an empty object when missing).
fn read_json(root: &Path, file: &Path) -> Result<serde_json::Value, SetupError> {
    match read_project(root, file)? {
        None => Ok(serde_json::json!({})),
        Some(text) => serde_json::from_str(&text)
            .map_err(|e| SetupError(format!("{}: not valid JSON: {e}", file.display()))),
    }
}

fn servers_object<'a>(
    doc: &'a mut serde_json::Value,
    file: &Path,
) -> Result<&'a mut serde_json::Map<String, serde_json::Value>, SetupError> {
    let not_object = || {
        SetupError(format!(
            "{}: \"mcpServers\" is not an object",
            file.display()
        ))
    };
    doc.as_object_mut()
        .ok_or_else(not_object)?
        .entry("mcpServers")
        .or_insert_with(|| serde_json::json!({}))
        .as_object_mut()
        .ok_or_else(not_object)
}

fn write_json(root: &Path, file: &Path, doc: &serde_json::Value) -> Result<(), SetupError> {
    let mut text = serde_json::to_string_pretty(doc)
        .map_err(|e| SetupError(format!("{}: {e}", file.display())))?;
    text.push('\n');
    write_project(root, file, text.as_bytes())
}

/// The project's root as a [`Beneath`] root and `file` below it.
fn beneath(root: &Path, file: &Path) -> Result<(Beneath, PathBuf), SetupError> {
    let cannot = |why: &str| SetupError(format!("cannot use {}: {why}", file.display()));
    let beneath = Beneath::new([root.to_path_buf()]);
    let real = beneath
        .roots()
        .first()
        .cloned()
        .ok_or_else(|| cannot("the project directory cannot be resolved"))?;
    let rel = file
        .strip_prefix(root)
        .map_err(|_| cannot("it is outside the project"))?;
    Ok((beneath, real.join(rel)))
}

fn refused(file: &Path, e: OpenError) -> SetupError {
    match e {
        OpenError::Symlink(_) | OpenError::Escape(_) => SetupError(format!(
            "{}: a symbolic link is in the way (refusing to follow it out of the project)",
            file.display()
        )),
        other => SetupError(format!("{}: {other}", file.display())),
    }
}

/// A project file's text, `None` when it does not exist; never through a
/// symlink, at most a config file's size.
fn read_project(root: &Path, file: &Path) -> Result<Option<String>, SetupError> {
    let (beneath, target) = beneath(root, file)?;
    let f = match beneath.open_read(&target) {
        Ok(f) => f,
        Err(e) if e.is_not_found() => return Ok(None),
        Err(e) => return Err(refused(file, e)),
    };
    let mut bytes = Vec::new();
    f.take(wright_config::MAX_CONFIG_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| SetupError(format!("cannot read {}: {e}", file.display())))?;
    if bytes.len() as u64 > wright_config::MAX_CONFIG_BYTES {
        return Err(SetupError(format!("{} is too large", file.display())));
    }
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| SetupError(format!("{} is not UTF-8", file.display())))
}

fn write_project(root: &Path, file: &Path, bytes: &[u8]) -> Result<(), SetupError> {
    let (beneath, target) = beneath(root, file)?;
    beneath.write(&target, bytes).map_err(|e| refused(file, e))
}
