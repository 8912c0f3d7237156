//! Which checker runs for which edited files: user checks matched by glob,
//! then the built-in presets (cargo, ruff, go vet), grouped so that one model
//! response costs at most one run per (command, directory).

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use globset::{GlobBuilder, GlobMatcher};

use super::paths::{identity, normalize, relative_to};
use super::{CheckSpec, Format, VerifySettings};

/// One checker invocation for the core to run inside the sandbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckRun {
    /// A short name for notes: `cargo check`, `ruff check`, or the user's command.
    pub label: String,
    /// A `bash -c` script.
    pub command: String,
    /// Where the script runs; relative paths in its output resolve here.
    pub cwd: PathBuf,
    /// The workspace root, against which paths are shown.
    pub root: PathBuf,
    /// How the output is read.
    pub format: Format,
    /// How long the core lets it run.
    pub timeout: Duration,
    /// The edited files this run covers, as the caller spelled them.
    pub files: Vec<PathBuf>,
}

/// Decides which checks run for a set of edited files.
#[derive(Debug)]
pub struct Verifier {
    enabled: bool,
    timeout: Duration,
    checks: Vec<UserCheck>,
    presets: Presets,
}

/// Which preset programs are on PATH, looked up on the first plan rather
/// than at start-up: most runs edit nothing, and they should not pay for
/// searching PATH.
struct Presets {
    on_path: Box<dyn Fn(&str) -> bool + Send + Sync>,
    found: std::sync::OnceLock<[bool; 3]>,
}

impl Presets {
    /// `[cargo, ruff, go]` on PATH.
    fn found(&self) -> [bool; 3] {
        *self
            .found
            .get_or_init(|| PRESET_PROGRAMS.map(|p| (self.on_path)(p)))
    }
}

impl std::fmt::Debug for Presets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Presets")
            .field("found", &self.found.get())
            .finish()
    }
}

#[derive(Debug)]
struct UserCheck {
    matcher: GlobMatcher,
    /// A glob without `/` matches the file name, at any depth.
    by_name: bool,
    command: String,
    format: Format,
    timeout: Option<Duration>,
}

/// What a file maps to before grouping; the command of the presets depends
/// on the whole group (the file list, `--all-targets`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Kind {
    Cargo { workspace: bool },
    Ruff,
    GoVet,
    User { command: String, format: Format },
}

#[derive(Debug)]
struct Group {
    kind: Kind,
    cwd: PathBuf,
    /// Groups compare directories by identity, so two spellings of one
    /// directory still make one run.
    cwd_id: PathBuf,
    timeout: Duration,
    files: Vec<PathBuf>,
    /// Files relative to `cwd`, for the preset commands that take them.
    rel_files: Vec<PathBuf>,
}

const PRESET_PROGRAMS: [&str; 3] = ["cargo", "ruff", "go"];

impl Verifier {
    /// Compiles the user globs; a bad glob or an empty command is skipped
    /// with a warning naming where it was configured. `on_path(name)` says
    /// whether a program is on PATH; it is asked once per preset, on the
    /// first [`Verifier::plan`].
    pub fn new(
        settings: VerifySettings,
        on_path: impl Fn(&str) -> bool + Send + Sync + 'static,
    ) -> (Verifier, Vec<String>) {
        let mut warnings = Vec::new();
        let mut checks = Vec::new();
        for spec in settings.checks {
            match compile(&spec) {
                Ok(check) => checks.push(check),
                Err(why) => warnings.push(format!(
                    "verifier check `{}` from {} is skipped: {why}",
                    spec.glob, spec.source
                )),
            }
        }
        let verifier = Verifier {
            enabled: settings.enabled,
            timeout: settings.timeout,
            checks,
            presets: Presets {
                on_path: Box::new(on_path),
                found: std::sync::OnceLock::new(),
            },
        };
        (verifier, warnings)
    }

    /// Which checks to run for the files edited in one model response
    /// (absolute paths), inside workspace `root`. Runs come out in the order
    /// of their first file; a file without a checker is left out.
    pub fn plan(&self, edited: &[PathBuf], root: &Path) -> Vec<CheckRun> {
        if !self.enabled {
            return Vec::new();
        }
        let mut seen = HashSet::new();
        let mut groups: Vec<Group> = Vec::new();
        for file in edited {
            if !seen.insert(identity(file)) {
                continue;
            }
            let Some((kind, cwd, timeout)) = self.target(file, root) else {
                continue;
            };
            let rel = relative_to(file, &cwd).unwrap_or_else(|| file.clone());
            let cwd_id = identity(&cwd);
            match groups
                .iter_mut()
                .find(|g| g.kind == kind && g.cwd_id == cwd_id)
            {
                Some(group) => {
                    group.files.push(file.clone());
                    group.rel_files.push(rel);
                }
                None => groups.push(Group {
                    kind,
                    cwd,
                    cwd_id,
                    timeout,
                    files: vec![file.clone()],
                    rel_files: vec![rel],
                }),
            }
        }
        groups.into_iter().map(|g| g.into_run(root)).collect()
    }

    /// The check for one file, its working directory and timeout.
    fn target(&self, file: &Path, root: &Path) -> Option<(Kind, PathBuf, Duration)> {
        let inside = spelled_inside(file, root);
        let rel = inside.as_ref().and_then(|(f, r)| f.strip_prefix(r).ok());
        let name = file.file_name().map(Path::new);
        // A file outside the root still gets name-only user checks, run from the root.
        let cwd = inside.as_ref().map_or(root, |(_, r)| r.as_path());
        if let Some(check) = self.checks.iter().find(|c| c.matches(name, rel)) {
            let kind = Kind::User {
                command: check.command.clone(),
                format: check.format,
            };
            return Some((
                kind,
                cwd.to_path_buf(),
                check.timeout.unwrap_or(self.timeout),
            ));
        }
        // Presets look for manifests between the file and the root, so a
        // file outside the root has none.
        let (file, root) = inside?;
        let extension = file.extension()?.to_str()?;
        if !matches!(extension, "rs" | "py" | "go") {
            return None;
        }
        let [have_cargo, have_ruff, have_go] = self.presets.found();
        let kind_and_cwd = match extension {
            "rs" if have_cargo => {
                cargo_dir(&file, &root).map(|(dir, workspace)| (Kind::Cargo { workspace }, dir))
            }
            "py" if have_ruff => Some((Kind::Ruff, root.clone())),
            "go" if have_go => marker_dir(&file, &root, "go.mod").map(|dir| (Kind::GoVet, dir)),
            _ => None,
        };
        kind_and_cwd.map(|(kind, dir)| (kind, dir, self.timeout))
    }
}

/// `file` and `root` spelled so that one is a prefix of the other: as given
/// when that works, else both resolved; `None` when the file is outside.
fn spelled_inside(file: &Path, root: &Path) -> Option<(PathBuf, PathBuf)> {
    let (file_n, root_n) = (normalize(file), normalize(root));
    if file_n.starts_with(&root_n) {
        return Some((file_n, root_n));
    }
    let (file_id, root_id) = (identity(file), identity(root));
    file_id.starts_with(&root_id).then_some((file_id, root_id))
}

/// The directory `cargo check` runs in for `file`: the top-most Cargo
/// workspace between the file's package and `root`, else the package itself.
/// The flag says whether it is a workspace (so `--workspace` applies). A file
/// under no package (only a virtual manifest above it) is not compiled by
/// cargo, so it gets nothing.
fn cargo_dir(file: &Path, root: &Path) -> Option<(PathBuf, bool)> {
    let mut package = None;
    let mut workspace = None;
    for dir in file.ancestors().skip(1).take_while(|d| d.starts_with(root)) {
        let Ok(manifest) = std::fs::read_to_string(dir.join("Cargo.toml")) else {
            continue;
        };
        if package.is_none() && has_table(&manifest, "[package]") {
            package = Some(dir.to_path_buf());
        }
        // A text check is enough: a `[workspace]` table above the package
        // almost always includes it, and cargo says so when it does not.
        if package.is_some() && has_table(&manifest, "[workspace]") {
            workspace = Some(dir.to_path_buf());
        }
    }
    let package = package?;
    Some(workspace.map_or((package, false), |w| (w, true)))
}

fn has_table(manifest: &str, header: &str) -> bool {
    manifest.lines().any(|l| l.trim() == header)
}

/// The nearest directory between `file` and `root` holding `marker`.
fn marker_dir(file: &Path, root: &Path, marker: &str) -> Option<PathBuf> {
    file.ancestors()
        .skip(1)
        .take_while(|d| d.starts_with(root))
        .find(|d| d.join(marker).is_file())
        .map(Path::to_path_buf)
}

/// Whether a Rust file is only compiled for tests, benches or examples,
/// which plain `cargo check` skips (a clean result would be a false "no errors").
fn test_only(rel: &Path) -> bool {
    let in_test_dir = rel.components().any(|c| {
        matches!(
            c.as_os_str().to_str(),
            Some("tests" | "benches" | "examples")
        )
    });
    let name = rel.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    in_test_dir || name == "tests.rs" || name.ends_with("_tests.rs") || name.ends_with("_test.rs")
}

impl UserCheck {
    fn matches(&self, name: Option<&Path>, rel: Option<&Path>) -> bool {
        let subject = if self.by_name { name } else { rel };
        subject.is_some_and(|s| self.matcher.is_match(s))
    }
}

impl Group {
    fn into_run(self, root: &Path) -> CheckRun {
        let (label, command, format) = match &self.kind {
            Kind::Cargo { workspace } => {
                let mut command = String::from("cargo check");
                if *workspace {
                    // Without it a root package hides the other members
                    // (and `default-members` may leave the edited one out).
                    command.push_str(" --workspace");
                }
                if self.rel_files.iter().any(|f| test_only(f)) {
                    command.push_str(" --all-targets");
                }
                command.push_str(" --message-format=json --quiet");
                ("cargo check".to_string(), command, Format::CargoJson)
            }
            Kind::Ruff => {
                let command = format!(
                    "ruff check --output-format concise {}",
                    quoted(&self.rel_files)
                );
                ("ruff check".to_string(), command, Format::Gcc)
            }
            Kind::GoVet => (
                "go vet".to_string(),
                "go vet ./...".to_string(),
                Format::Gcc,
            ),
            Kind::User { command, format } => {
                let script = command.replace("{files}", &quoted(&self.rel_files));
                (user_label(command), script, *format)
            }
        };
        CheckRun {
            label,
            command,
            cwd: self.cwd,
            root: root.to_path_buf(),
            format,
            timeout: self.timeout,
            files: self.files,
        }
    }
}

/// Paths as shell words. A relative path that starts with `-` gets `./` so it
/// is not read as an option; a path that cannot be quoted (a NUL) is left out.
fn quoted(files: &[PathBuf]) -> String {
    let words: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let text = f.to_string_lossy();
            let text = if text.starts_with('-') {
                format!("./{text}")
            } else {
                text.into_owned()
            };
            shlex::try_quote(&text).ok().map(|q| q.into_owned())
        })
        .collect();
    words.join(" ")
}

const LABEL_MAX_CHARS: usize = 40;

/// A user check is named by its command, without `{files}`, cut short.
fn user_label(command: &str) -> String {
    let words: Vec<&str> = command
        .split_whitespace()
        .filter(|w| *w != "{files}")
        .collect();
    let label = words.join(" ");
    if label.chars().count() <= LABEL_MAX_CHARS {
        return label;
    }
    let cut: String = label.chars().take(LABEL_MAX_CHARS - 1).collect();
    format!("{}…", cut.trim_end())
}

fn compile(spec: &CheckSpec) -> Result<UserCheck, String> {
    if spec.command.trim().is_empty() {
        return Err("its command is empty".to_string());
    }
    let pattern = spec.glob.trim();
    let by_name = !pattern.contains('/');
    // `/src/*.ts` and `./src/*.ts` both mean relative to the root.
    let pattern = pattern
        .strip_prefix("./")
        .or_else(|| pattern.strip_prefix('/'))
        .unwrap_or(pattern);
    if pattern.is_empty() {
        return Err("its glob is empty".to_string());
    }
    let glob = GlobBuilder::new(pattern)
        .literal_separator(true)
        .build()
        .map_err(|e| format!("bad glob: {e}"))?;
    Ok(UserCheck {
        matcher: glob.compile_matcher(),
        by_name,
        command: spec.command.clone(),
        format: spec.format,
        timeout: spec.timeout,
    })
}

#[cfg(test)]
#[path = "plan_tests.rs"]
mod plan_tests;
