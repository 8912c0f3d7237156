//! Gathers instruction files in their documented order and applies the
//! character budget.
//!
//! Order: configured user-level files, then each configured name (default
//! `AGENTS.md`) in every directory from the project root down to the cwd,
//! then `.wright/rules/*.md` sorted by name. Each file is followed by the
//! files it imports with `@path` (depth-first), so what a file pulls in sits
//! next to it. A file is loaded once even when reached twice.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::imports::find_imports;
use crate::warning::Warning;

/// Default total size of all instruction files, in characters.
pub const DEFAULT_INSTRUCTION_BUDGET: usize = 40_000;

/// How deep `@path` imports may nest below a top-level file.
pub const IMPORT_DEPTH_LIMIT: usize = 5;

/// Which instruction files to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionOptions {
    /// File names looked for from the project root down to the cwd
    /// (config `context.instruction_files`, default `["AGENTS.md"]`).
    pub file_names: Vec<String>,
    /// User-level files read first, only when config lists them (for
    /// example `$XDG_CONFIG_HOME/wright/AGENTS.md`). Empty by default.
    pub user_files: Vec<PathBuf>,
    /// Total characters of instruction text; the file that crosses it is
    /// cut at a line boundary with a visible note and later files are left
    /// out.
    pub budget_chars: usize,
}

impl Default for InstructionOptions {
    fn default() -> Self {
        Self {
            file_names: vec!["AGENTS.md".to_owned()],
            user_files: Vec::new(),
            budget_chars: DEFAULT_INSTRUCTION_BUDGET,
        }
    }
}

/// Why an instruction file was loaded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// A user-level file named in config.
    User,
    /// A project file found between the root and the cwd.
    Project,
    /// A file of `.wright/rules/`.
    Rule,
    /// Imported with `@path` by another file.
    Import {
        /// The importing file.
        by: PathBuf,
    },
}

/// One loaded instruction file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstructionFile {
    /// Canonical path.
    pub path: PathBuf,
    /// Why it was loaded.
    pub origin: Origin,
    /// Its text, trimmed, possibly cut by the budget (with the note).
    pub text: String,
}

/// Reads the instruction files for `cwd` inside `project_root`.
pub fn gather(
    project_root: &Path,
    cwd: &Path,
    options: &InstructionOptions,
) -> (Vec<InstructionFile>, Vec<Warning>) {
    let root = canonical_or_same(project_root);
    let cwd = canonical_or_same(cwd);
    let mut loader = Loader::default();
    for path in &options.user_files {
        match path.canonicalize() {
            Ok(canon) => {
                let boundary = canon.parent().map(Path::to_path_buf).unwrap_or_default();
                loader.load(&canon, Origin::User, &boundary, 0);
            }
            Err(e) => loader.warnings.push(Warning::at(
                path,
                format!("configured instruction file not read: {e}"),
            )),
        }
    }
    for path in project_paths(&root, &cwd, &options.file_names) {
        if let Some(real) = loader.inside(&path, &root) {
            loader.load(&real, Origin::Project, &root, 0);
        }
    }
    for path in rule_paths(&root) {
        if let Some(real) = loader.inside(&path, &root) {
            loader.load(&real, Origin::Rule, &root, 0);
        }
    }
    let Loader {
        files,
        mut warnings,
        ..
    } = loader;
    let files = apply_budget(files, options.budget_chars, &mut warnings);
    (files, warnings)
}

fn canonical_or_same(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// Configured names in each directory from `root` down to `cwd`.
fn project_paths(root: &Path, cwd: &Path, names: &[String]) -> Vec<PathBuf> {
    let mut dirs: Vec<&Path> = cwd
        .ancestors()
        .take_while(|d| d.starts_with(root))
        .collect();
    if dirs.is_empty() {
        dirs.push(cwd);
    }
    dirs.reverse();
    dirs.iter()
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .filter(|p| p.is_file())
        .collect()
}

fn rule_paths(root: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(root.join(".wright").join("rules")) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "md"))
        .collect();
    paths.sort();
    paths
}

/// Largest instruction file read, in bytes; far above the prompt budget.
const MAX_INSTRUCTION_BYTES: u64 = 1024 * 1024;

/// Reads a regular file of at most [`MAX_INSTRUCTION_BYTES`]: a FIFO named
/// `AGENTS.md` in a repository must not hang wright, nor `/dev/zero`
/// behind a symlink fill memory.
pub(crate) fn read_capped(path: &Path) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, "not a regular file"));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)?
        .take(MAX_INSTRUCTION_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_INSTRUCTION_BYTES {
        return Err(Error::new(ErrorKind::InvalidData, "larger than 1 MB"));
    }
    String::from_utf8(bytes).map_err(|e| Error::new(ErrorKind::InvalidData, e))
}

/// Why a file a project names is kept out of the prompt.
#[derive(Debug)]
pub(crate) enum NotInside {
    /// It resolves outside the project, or is a secret; the text says which.
    Refused(String),
    /// It cannot be resolved.
    Unreadable(std::io::Error),
}

impl std::fmt::Display for NotInside {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Refused(why) => f.write_str(why),
            Self::Unreadable(e) => write!(f, "cannot read: {e}"),
        }
    }
}

/// The real path of `path` when it resolves (symlinks followed) inside
/// `root` (canonical) and is not a secret file. The check every file a
/// project puts into the prompt passes: instruction files and rules,
/// skills and memory notes.
pub(crate) fn resolve_inside(path: &Path, root: &Path) -> Result<PathBuf, NotInside> {
    match path.canonicalize() {
        // A secret inside the project (`AGENTS.md -> .env`, or `.env`
        // named as an instruction file) stays out of the prompt too.
        Ok(real) if is_secret(path) || is_secret(&real) => Err(NotInside::Refused(format!(
            "{} is a secret file",
            real.display()
        ))),
        Ok(real) if real.starts_with(root) => Ok(real),
        Ok(real) => Err(NotInside::Refused(format!(
            "it resolves to {}, outside the project {}",
            real.display(),
            root.display()
        ))),
        Err(e) => Err(NotInside::Unreadable(e)),
    }
}

#[derive(Default)]
struct Loader {
    files: Vec<InstructionFile>,
    warnings: Vec<Warning>,
    seen: HashSet<PathBuf>,
    stack: Vec<PathBuf>,
}

/// Whether a file's name marks it as a secret (the sandbox's list).
fn is_secret(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|n| wright_sandbox::secrets::secret_name(&n.to_string_lossy()).is_some())
}

impl Loader {
    /// The real path of a project file or rule when it resolves (symlinks
    /// followed) inside `root`; else `None` with a warning. A repository's
    /// `AGENTS.md` linking to `~/.ssh/id_rsa` must not put that file into
    /// the prompt sent to the provider; the same boundary as `@` imports.
    fn inside(&mut self, path: &Path, root: &Path) -> Option<PathBuf> {
        match resolve_inside(path, root) {
            Ok(real) => Some(real),
            Err(NotInside::Refused(why)) => {
                self.warnings.push(Warning::at(
                    path,
                    format!("instruction file not loaded: {why}"),
                ));
                None
            }
            Err(NotInside::Unreadable(e)) => {
                self.warnings
                    .push(Warning::at(path, format!("instruction file not read: {e}")));
                None
            }
        }
    }

    /// Loads `path` (canonical) and, after it, what it imports.
    fn load(&mut self, path: &Path, origin: Origin, boundary: &Path, depth: usize) {
        if !self.seen.insert(path.to_path_buf()) {
            return;
        }
        let text = match read_capped(path) {
            Ok(text) => text,
            Err(e) => {
                self.warnings
                    .push(Warning::at(path, format!("instruction file not read: {e}")));
                return;
            }
        };
        // Comments are notes for the file's editors, and an `@import`
        // inside one is not followed.
        let text = crate::comments::strip_html_comments(&text);
        let imports = find_imports(&text);
        let text = text.trim().to_owned();
        if !text.is_empty() {
            self.files.push(InstructionFile {
                path: path.to_path_buf(),
                origin,
                text,
            });
        }
        self.stack.push(path.to_path_buf());
        for token in imports {
            if let Some(target) = self.resolve(path, &token, boundary, depth) {
                let by = path.to_path_buf();
                self.load(&target, Origin::Import { by }, boundary, depth + 1);
            }
        }
        self.stack.pop();
    }

    /// The canonical file an import names, or `None` with a warning (or
    /// silently when it was already loaded elsewhere).
    fn resolve(
        &mut self,
        from: &Path,
        token: &str,
        boundary: &Path,
        depth: usize,
    ) -> Option<PathBuf> {
        let mut warn = |message: String| {
            self.warnings.push(Warning::at(from, message));
        };
        if token.starts_with('~') {
            warn(format!(
                "import @{token} not loaded: paths outside the repository are not imported"
            ));
            return None;
        }
        let dir = from.parent().unwrap_or(boundary);
        let candidate = dir.join(token);
        let Ok(target) = candidate.canonicalize() else {
            warn(format!(
                "import @{token} not found ({})",
                candidate.display()
            ));
            return None;
        };
        if !target.starts_with(boundary) {
            warn(format!(
                "import @{token} not loaded: {} is outside {}",
                target.display(),
                boundary.display()
            ));
            return None;
        }
        if !target.is_file() {
            warn(format!("import @{token} is not a file"));
            return None;
        }
        if let Some(start) = self.stack.iter().position(|p| *p == target) {
            let chain: Vec<String> = self.stack[start..]
                .iter()
                .chain(std::iter::once(&target))
                .map(|p| p.display().to_string())
                .collect();
            self.warnings.push(Warning::at(
                from,
                format!("import cycle, not followed: {}", chain.join(" → ")),
            ));
            return None;
        }
        if self.seen.contains(&target) {
            return None;
        }
        if depth + 1 > IMPORT_DEPTH_LIMIT {
            self.warnings.push(Warning::at(
                from,
                format!(
                    "import @{token} not loaded: imports nest at most {IMPORT_DEPTH_LIMIT} deep"
                ),
            ));
            return None;
        }
        Some(target)
    }
}

/// Keeps files in order until `budget` characters; the file that crosses it
/// is cut at a line boundary and ends with a note the model can see.
fn apply_budget(
    files: Vec<InstructionFile>,
    budget: usize,
    warnings: &mut Vec<Warning>,
) -> Vec<InstructionFile> {
    let total = files.len();
    let mut used = 0;
    let mut out = Vec::with_capacity(total);
    let mut iter = files.into_iter().enumerate();
    while let Some((i, mut file)) = iter.next() {
        let chars = file.text.chars().count();
        if used + chars <= budget {
            used += chars;
            out.push(file);
            continue;
        }
        let kept = cut_at_line(&file.text, budget - used);
        let omitted_chars = chars - kept.chars().count();
        let later: Vec<PathBuf> = iter.by_ref().map(|(_, f)| f.path).collect();
        let mut note = format!(
            "[wright: the {budget}-character budget for instruction files was reached here; \
             the remaining {omitted_chars} characters of this file"
        );
        if !later.is_empty() {
            note.push_str(&format!(" and {} later file(s)", total - i - 1));
        }
        note.push_str(" were not loaded.]");
        warnings.push(Warning::at(
            &file.path,
            format!(
                "instruction budget of {budget} characters reached: {omitted_chars} characters cut"
            ),
        ));
        for path in later {
            warnings.push(Warning::at(
                path,
                format!("instruction budget of {budget} characters reached: file not loaded"),
            ));
        }
        file.text = if kept.is_empty() {
            note
        } else {
            format!("{}\n{note}", kept.trim_end())
        };
        out.push(file);
        break;
    }
    out
}

/// The longest prefix of whole lines of `text` within `max_chars`.
fn cut_at_line(text: &str, max_chars: usize) -> &str {
    let mut chars = 0;
    let mut end = 0;
    for line in text.split_inclusive('\n') {
        let n = line.chars().count();
        if chars + n > max_chars {
            break;
        }
        chars += n;
        end += line.len();
    }
    &text[..end]
}

#[cfg(test)]
#[path = "instructions_tests.rs"]
mod tests;
