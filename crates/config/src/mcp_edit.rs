//! Adding and removing one `[mcp_servers.NAME]` table in a config file's
//! text (for `wright mcp add` and `wright mcp remove`), keeping the rest of
//! the file (comments, order, other keys) as it was. Only the text is
//! edited here: the caller reads and writes the file, because a project's
//! files must be written without following symlinks and the user's with
//! [`crate::replace_file`].

use std::collections::BTreeMap;

use toml_edit::{Array, DocumentMut, InlineTable, Item, Table, value};

use crate::mcp_settings::McpTransport;

/// Why a file's text could not be edited.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum McpEditError {
    /// The text is not valid TOML.
    #[error("invalid TOML: {0}")]
    Parse(String),
    /// `mcp_servers` (or the server) is something other than a table.
    #[error("`{0}` is not a table")]
    NotTable(String),
    /// An SDK server lives in the program driving wright; no config file
    /// can define one.
    #[error("an SDK server (\"type\": \"sdk\") can only be defined by the program driving wright")]
    SdkServer,
}

/// `text` with `[mcp_servers.<name>]` set to `transport`, replacing any
/// server of that name.
pub fn set_mcp_server(
    text: &str,
    name: &str,
    transport: &McpTransport,
) -> Result<String, McpEditError> {
    if matches!(transport, McpTransport::Sdk) {
        return Err(McpEditError::SdkServer);
    }
    let mut doc = parse(text)?;
    let servers = doc
        .entry("mcp_servers")
        .or_insert_with(|| {
            let mut t = Table::new();
            // `[mcp_servers.NAME]` headers rather than an empty `[mcp_servers]`.
            t.set_implicit(true);
            Item::Table(t)
        })
        .as_table_like_mut()
        .ok_or_else(|| McpEditError::NotTable("mcp_servers".to_owned()))?;
    let mut table = Table::new();
    match transport {
        McpTransport::Stdio { command, args, env } => {
            table.insert("command", value(command.as_str()));
            let mut list = Array::new();
            for arg in args {
                list.push(arg.as_str());
            }
            table.insert("args", value(list));
            if !env.is_empty() {
                table.insert("env", value(inline(env)));
            }
        }
        McpTransport::Http { url, headers } | McpTransport::Sse { url, headers } => {
            table.insert("type", value(transport.transport()));
            table.insert("url", value(url.as_str()));
            if !headers.is_empty() {
                table.insert("headers", value(inline(headers)));
            }
        }
        // Refused above.
        McpTransport::Sdk => return Err(McpEditError::SdkServer),
    }
    servers.insert(name, Item::Table(table));
    Ok(doc.to_string())
}

/// `text` without `[mcp_servers.<name>]`, and whether it was there.
pub fn remove_mcp_server(text: &str, name: &str) -> Result<(String, bool), McpEditError> {
    let mut doc = parse(text)?;
    let Some(servers) = doc.get_mut("mcp_servers") else {
        return Ok((text.to_owned(), false));
    };
    let servers = servers
        .as_table_like_mut()
        .ok_or_else(|| McpEditError::NotTable("mcp_servers".to_owned()))?;
    let removed = servers.remove(name).is_some();
    if servers.is_empty() {
        doc.remove("mcp_servers");
    }
    Ok((doc.to_string(), removed))
}

fn parse(text: &str) -> Result<DocumentMut, McpEditError> {
    text.parse()
        .map_err(|e: toml_edit::TomlError| McpEditError::Parse(e.message().to_owned()))
}

fn inline(map: &BTreeMap<String, String>) -> InlineTable {
    let mut t = InlineTable::new();
    for (k, v) in map {
        t.insert(k, v.as_str().into());
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::file::parse_layer;

    #[test]
    fn add_then_remove_keeps_comments_and_parses_back() {
        let text = "# mine\nmodel = \"m\"\n";
        let stdio = McpTransport::Stdio {
            command: "npx".into(),
            args: vec!["-y".into(), "server".into()],
            env: BTreeMap::from([("TOKEN".into(), "${GH_TOKEN}".into())]),
        };
        let text = set_mcp_server(text, "gh", &stdio).unwrap();
        let http = McpTransport::Http {
            url: "http://127.0.0.1:9/mcp".into(),
            headers: BTreeMap::new(),
        };
        let text = set_mcp_server(&text, "web", &http).unwrap();
        assert!(text.starts_with("# mine\nmodel = \"m\"\n"), "{text}");
        assert!(!text.contains("[mcp_servers]\n"), "{text}");
        let layer = parse_layer(
            std::path::Path::new("/u/config.toml"),
            &text,
            std::path::Path::new("/u"),
        )
        .unwrap();
        let servers = layer
            .assigns
            .into_iter()
            .find_map(|a| match a {
                crate::assign::Assign::McpServers(s) => Some(s),
                _ => None,
            })
            .unwrap();
        assert_eq!(servers.len(), 2);
        assert_eq!(servers[0].transport, stdio);
        assert_eq!(servers[1].transport, http);

        let (text, removed) = remove_mcp_server(&text, "gh").unwrap();
        assert!(removed);
        let (text, removed) = remove_mcp_server(&text, "gh").unwrap();
        assert!(!removed);
        let (text, _) = remove_mcp_server(&text, "web").unwrap();
        assert_eq!(text, "# mine\nmodel = \"m\"\n");
        assert!(matches!(
            set_mcp_server("mcp_servers = 3\n", "x", &http),
            Err(McpEditError::NotTable(_))
        ));
    }
}
