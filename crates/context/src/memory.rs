//! Memory: markdown notes with frontmatter (`name`, `description`, `type`)
//! in a project dir (`.wright/memory/`) and an opt-in user dir. The prompt
//! lists each note's name, type, description and path; bodies are read on
//! demand, like skills.

use std::io::Write;
use std::path::{Path, PathBuf};
use wright_sandbox::private_fs::{self, Tighten};

use serde::{Deserialize, Serialize};

use crate::frontmatter;
use crate::instructions::{read_capped, resolve_inside};
use crate::skills::one_line;
use crate::warning::Warning;

/// What a note is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryType {
    /// About the user: role, preferences, knowledge.
    User,
    /// Guidance the user gave on how to work.
    Feedback,
    /// Facts about the project not visible in the code.
    Project,
    /// Where to find things outside the project.
    Reference,
}

impl MemoryType {
    /// The frontmatter spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::User => "user",
            Self::Feedback => "feedback",
            Self::Project => "project",
            Self::Reference => "reference",
        }
    }
}

/// Which store a note lives in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MemoryScope {
    /// `<project>/.wright/memory/`.
    Project,
    /// The user's data dir, when opted in.
    User,
}

/// A directory of notes and its scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryDir {
    /// Which store.
    pub scope: MemoryScope,
    /// The directory.
    pub path: PathBuf,
}

/// One stored note.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct MemoryNote {
    /// Name from the frontmatter.
    pub name: String,
    /// One-line description from the frontmatter.
    pub description: String,
    /// Type from the frontmatter.
    #[serde(rename = "type")]
    pub kind: MemoryType,
    /// Store it came from.
    pub scope: MemoryScope,
    /// The file.
    pub path: PathBuf,
    /// The text after the frontmatter.
    pub body: String,
}

/// A note to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewNote {
    /// Name (also gives the file name, slugged).
    pub name: String,
    /// One-line description.
    pub description: String,
    /// Type.
    pub kind: MemoryType,
    /// Markdown body.
    pub body: String,
    /// Store to write to.
    pub scope: MemoryScope,
}

/// Memory store failures.
#[derive(Debug, thiserror::Error)]
pub enum MemoryError {
    /// No note has this name.
    #[error("no memory note named `{0}`")]
    NotFound(String),
    /// A note with this name or file already exists.
    #[error("a memory note named `{name}` already exists at {}", path.display())]
    Exists {
        /// The name asked for.
        name: String,
        /// The existing file.
        path: PathBuf,
    },
    /// The name has no letters or digits to make a file name from.
    #[error("a memory note name needs letters or digits: `{0}`")]
    BadName(String),
    /// The user store is not enabled.
    #[error("the user memory store is not enabled in config")]
    NoUserStore,
    /// A file could not be read or written.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The cause.
        source: std::io::Error,
    },
    /// A note exists but its frontmatter is invalid.
    #[error("{}: {message}", path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
}

#[derive(Serialize, Deserialize)]
struct Frontmatter {
    name: String,
    description: String,
    #[serde(rename = "type")]
    kind: MemoryType,
}

/// The notes of a project store and an optional user store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryStore {
    project: PathBuf,
    user: Option<PathBuf>,
}

impl MemoryStore {
    /// A store over `project_dir` (usually `<root>/.wright/memory`) and, when
    /// opted in, `user_dir`.
    pub fn new(project_dir: PathBuf, user_dir: Option<PathBuf>) -> Self {
        Self {
            project: project_dir,
            user: user_dir,
        }
    }

    /// The directories this store reads, project first.
    pub fn dirs(&self) -> Vec<MemoryDir> {
        let mut dirs = vec![MemoryDir {
            scope: MemoryScope::Project,
            path: self.project.clone(),
        }];
        if let Some(user) = &self.user {
            dirs.push(MemoryDir {
                scope: MemoryScope::User,
                path: user.clone(),
            });
        }
        dirs
    }

    /// The directory a project note must resolve inside: the project root
    /// when the store is the usual `<root>/.wright/memory`, else the
    /// store's own directory.
    fn project_boundary(&self) -> PathBuf {
        let usual = self
            .project
            .parent()
            .filter(|p| self.project.ends_with(".wright/memory") && p.ends_with(".wright"))
            .and_then(Path::parent)
            .unwrap_or(&self.project);
        usual.canonicalize().unwrap_or_else(|_| usual.to_path_buf())
    }

    /// All notes, project first, each store sorted by file name; invalid
    /// files are skipped with a warning. A project note must resolve
    /// inside the project and not be a secret, as instruction files must
    /// (a repository's note linked to a file elsewhere would put that
    /// file's frontmatter into the prompt); the user's store is theirs.
    pub fn list(&self) -> (Vec<MemoryNote>, Vec<Warning>) {
        let mut notes = Vec::new();
        let mut warnings = Vec::new();
        let boundary = self.project_boundary();
        for dir in self.dirs() {
            for path in note_files(&dir.path) {
                let loaded = match dir.scope {
                    MemoryScope::Project => resolve_inside(&path, &boundary)
                        .map_err(|e| MemoryError::Invalid {
                            path: path.clone(),
                            message: e.to_string(),
                        })
                        .and_then(|real| load(&real, &path, dir.scope)),
                    MemoryScope::User => load(&path, &path, dir.scope),
                };
                match loaded {
                    Ok(note) => notes.push(note),
                    Err(e) => warnings.push(Warning::general(format!("memory note skipped: {e}"))),
                }
            }
        }
        (notes, warnings)
    }

    /// The note called `name` (exact name, then case-insensitive, then file
    /// stem).
    pub fn show(&self, name: &str) -> Result<MemoryNote, MemoryError> {
        let (notes, _) = self.list();
        let slug = slug(name);
        notes
            .iter()
            .find(|n| n.name == name)
            .or_else(|| notes.iter().find(|n| n.name.eq_ignore_ascii_case(name)))
            .or_else(|| {
                notes.iter().find(|n| {
                    slug.as_deref()
                        .is_some_and(|s| n.path.file_stem().is_some_and(|f| f == s))
                })
            })
            .cloned()
            .ok_or_else(|| MemoryError::NotFound(name.to_owned()))
    }

    /// Writes `note` as `<slug>.md` in its store; never overwrites.
    pub fn add(&self, note: &NewNote) -> Result<PathBuf, MemoryError> {
        let dir = match note.scope {
            MemoryScope::Project => &self.project,
            MemoryScope::User => self.user.as_ref().ok_or(MemoryError::NoUserStore)?,
        };
        let slug = slug(&note.name).ok_or_else(|| MemoryError::BadName(note.name.clone()))?;
        if let Ok(existing) = self.show(&note.name) {
            return Err(MemoryError::Exists {
                name: note.name.clone(),
                path: existing.path,
            });
        }
        // Notes are the user's own words about their work: private, 0600 in
        // a 0700 directory; the user store (wright's own) is tightened too.
        let private = |source| MemoryError::Io {
            path: dir.clone(),
            source,
        };
        let tighten = match note.scope {
            MemoryScope::User => Tighten::Yes,
            MemoryScope::Project => Tighten::No,
        };
        private_fs::private_dir(dir, tighten).map_err(private)?;
        let path = dir.join(format!("{slug}.md"));
        let front = Frontmatter {
            name: note.name.trim().to_owned(),
            description: one_line(&note.description),
            kind: note.kind,
        };
        // Serialized, not formatted, so a description with `: ` or quotes
        // stays valid YAML.
        let yaml = yaml_serde::to_string(&front).map_err(|e| MemoryError::Invalid {
            path: path.clone(),
            message: e.to_string(),
        })?;
        let text = format!("---\n{yaml}---\n\n{}\n", note.body.trim());
        let io = |source| MemoryError::Io {
            path: path.clone(),
            source,
        };
        let mut file = private_fs::private_file_options()
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|source| match source.kind() {
                std::io::ErrorKind::AlreadyExists => MemoryError::Exists {
                    name: note.name.clone(),
                    path: path.clone(),
                },
                _ => io(source),
            })?;
        file.write_all(text.as_bytes()).map_err(io)?;
        Ok(path)
    }

    /// Deletes the note called `name`; returns its path.
    pub fn remove(&self, name: &str) -> Result<PathBuf, MemoryError> {
        let note = self.show(name)?;
        std::fs::remove_file(&note.path).map_err(|source| MemoryError::Io {
            path: note.path.clone(),
            source,
        })?;
        Ok(note.path)
    }
}

fn note_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
        .collect();
    files.sort();
    files
}

/// Reads the note at `real` (bounded, a regular file only), known by
/// `path`, where it was found.
fn load(real: &Path, path: &Path, scope: MemoryScope) -> Result<MemoryNote, MemoryError> {
    let text = read_capped(real).map_err(|source| MemoryError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let (front, body) =
        frontmatter::parse::<Frontmatter>(&text).map_err(|message| MemoryError::Invalid {
            path: path.to_path_buf(),
            message,
        })?;
    Ok(MemoryNote {
        name: front.name,
        description: front.description,
        kind: front.kind,
        scope,
        path: path.to_path_buf(),
        body: body.trim_end().to_owned(),
    })
}

/// Lowercase ASCII letters and digits joined by single dashes, at most 64
/// characters; `None` when nothing is left.
pub fn slug(name: &str) -> Option<String> {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    let out: String = out.trim_end_matches('-').chars().take(64).collect();
    let out = out.trim_end_matches('-').to_owned();
    (!out.is_empty()).then_some(out)
}

/// The prompt section listing notes, or `None` when there are none.
pub(crate) fn render_index(notes: &[MemoryNote]) -> Option<String> {
    if notes.is_empty() {
        return None;
    }
    let mut out = String::from(
        "Memory:\nNotes saved in earlier sessions. Read a note with the Read tool when its \
         description is relevant. Save a new note only when the user asks you to remember something.",
    );
    for note in notes {
        out.push_str(&format!(
            "\n- {} [{}]: {} ({})",
            note.name,
            note.kind.as_str(),
            one_line(&note.description),
            note.path.display()
        ));
    }
    Some(out)
}

#[cfg(test)]
#[path = "memory_tests.rs"]
mod tests;
