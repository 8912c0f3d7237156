//! [`Source`]: where a resolved setting came from, so `wright config show`
//! can say why a value is what it is.

use std::fmt;
use std::path::PathBuf;

use serde::ser::SerializeMap;

/// Where a value came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// Built-in default (or never set).
    Default,
    /// A config file.
    File(PathBuf),
    /// An environment variable, by name (`WRIGHT_MODEL`).
    Env(String),
    /// A command-line flag, with its dashes (`--model`).
    Flag(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Default => f.write_str("default"),
            Source::File(path) => write!(f, "{}", path.display()),
            Source::Env(name) => write!(f, "env {name}"),
            Source::Flag(name) => write!(f, "flag {name}"),
        }
    }
}

/// JSON shape: `{"kind":"default"}`, `{"kind":"file","path":"…"}`,
/// `{"kind":"env","name":"WRIGHT_MODEL"}`, `{"kind":"flag","name":"--model"}`.
impl serde::Serialize for Source {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        match self {
            Source::Default => map.serialize_entry("kind", "default")?,
            Source::File(path) => {
                map.serialize_entry("kind", "file")?;
                map.serialize_entry("path", &path.to_string_lossy())?;
            }
            Source::Env(name) => {
                map.serialize_entry("kind", "env")?;
                map.serialize_entry("name", name)?;
            }
            Source::Flag(name) => {
                map.serialize_entry("kind", "flag")?;
                map.serialize_entry("name", name)?;
            }
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_origin() {
        assert_eq!(Source::Default.to_string(), "default");
        assert_eq!(
            Source::File("/p/.wright/config.toml".into()).to_string(),
            "/p/.wright/config.toml"
        );
        assert_eq!(
            Source::Env("WRIGHT_MODEL".into()).to_string(),
            "env WRIGHT_MODEL"
        );
        assert_eq!(Source::Flag("--model".into()).to_string(), "flag --model");
    }

    #[test]
    fn serializes_as_tagged_object() {
        let v = toml::Value::try_from(Source::Env("WRIGHT_MODEL".into())).unwrap();
        assert_eq!(v.get("kind").and_then(|k| k.as_str()), Some("env"));
        assert_eq!(v.get("name").and_then(|k| k.as_str()), Some("WRIGHT_MODEL"));
        let v = toml::Value::try_from(Source::File("/x/c.toml".into())).unwrap();
        assert_eq!(v.get("path").and_then(|k| k.as_str()), Some("/x/c.toml"));
    }
}
