//! A non-fatal problem found while gathering context (a bad frontmatter, a
//! missing import). Reported to the user, never sent to the model.

use std::fmt;
use std::path::PathBuf;

use serde::Serialize;

/// A problem that did not stop context assembly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// The file the problem is in, when there is one.
    pub path: Option<PathBuf>,
    /// What went wrong, in words for the user.
    pub message: String,
}

impl Warning {
    /// A warning about one file.
    pub fn at(path: impl Into<PathBuf>, message: impl Into<String>) -> Self {
        Self {
            path: Some(path.into()),
            message: message.into(),
        }
    }

    /// A warning not tied to a file.
    pub fn general(message: impl Into<String>) -> Self {
        Self {
            path: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(path) => write!(f, "{}: {}", path.display(), self.message),
            None => f.write_str(&self.message),
        }
    }
}
