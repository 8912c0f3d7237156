//! How much a shell command may change: the one definition of the mode
//! that the config chooses (`sandbox.mode`, `--sandbox`) and the sandbox
//! enforces, kept here below both so neither converts the other's copy.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// How much a shell command may change (`read-only`, `workspace-write`,
/// `full`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SandboxMode {
    /// Read anything, write nothing (only `/dev/null` and terminals).
    ReadOnly,
    /// Write only in the workspace roots, the configured extra roots and
    /// the temp dir.
    #[default]
    WorkspaceWrite,
    /// No OS sandbox.
    Full,
}

impl SandboxMode {
    /// Every mode, from the most confined to none, as they are listed to
    /// users.
    pub const ALL: [SandboxMode; 3] = [
        SandboxMode::ReadOnly,
        SandboxMode::WorkspaceWrite,
        SandboxMode::Full,
    ];

    /// The word used by the CLI flag, config files and the environment.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::ReadOnly => "read-only",
            Self::WorkspaceWrite => "workspace-write",
            Self::Full => "full",
        }
    }
}

impl fmt::Display for SandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A word that names no [`SandboxMode`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownSandboxMode {
    /// The word as it was written.
    pub word: String,
}

impl fmt::Display for UnknownSandboxMode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown sandbox mode `{}` (expected read-only, workspace-write or full)",
            self.word
        )
    }
}

impl std::error::Error for UnknownSandboxMode {}

impl FromStr for SandboxMode {
    type Err = UnknownSandboxMode;

    /// The words of [`SandboxMode::as_str`], and Codex's
    /// `danger-full-access` for [`SandboxMode::Full`].
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "danger-full-access" => Ok(Self::Full),
            _ => Self::ALL
                .into_iter()
                .find(|m| m.as_str() == s)
                .ok_or_else(|| UnknownSandboxMode { word: s.to_owned() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip() {
        for m in SandboxMode::ALL {
            assert_eq!(m.as_str().parse::<SandboxMode>(), Ok(m));
            assert_eq!(serde_json::to_value(m).ok(), Some(m.as_str().into()));
        }
        assert_eq!("danger-full-access".parse(), Ok(SandboxMode::Full));
        assert!("loose".parse::<SandboxMode>().is_err());
    }
}
