//! Skills: `<dir>/<skill>/SKILL.md` files with YAML frontmatter (`name`,
//! `description`, optional `allowed-tools`). Only the index (name,
//! description, path) goes into the prompt; the model reads the body when a
//! skill applies, so unused skills cost a line each.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::frontmatter;
use crate::instructions::{read_capped, resolve_inside};
use crate::warning::Warning;

/// The file name of a skill inside its directory.
pub const SKILL_FILE: &str = "SKILL.md";

/// One discovered skill.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skill {
    /// Unique name from the frontmatter.
    pub name: String,
    /// When to use it, from the frontmatter.
    pub description: String,
    /// `allowed-tools` from the frontmatter, when given.
    pub allowed_tools: Option<Vec<String>>,
    /// The `SKILL.md` file.
    pub path: PathBuf,
    /// The skill's directory (bundled files are relative to it).
    pub dir: PathBuf,
}

#[derive(Deserialize)]
struct Frontmatter {
    name: Option<String>,
    description: Option<String>,
    #[serde(default, rename = "allowed-tools", alias = "allowed_tools")]
    allowed_tools: Option<ToolList>,
}

/// Claude Code writes `allowed-tools: Read, Grep`; a YAML list works too.
#[derive(Deserialize)]
#[serde(untagged)]
enum ToolList {
    One(String),
    Many(Vec<String>),
}

impl ToolList {
    fn into_vec(self) -> Vec<String> {
        match self {
            Self::One(s) => s
                .split([',', ' '])
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(str::to_owned)
                .collect(),
            Self::Many(v) => v,
        }
    }
}

/// The skills of `<dir>/*/SKILL.md` for each dir in order, sorted by
/// directory name within a dir. A missing dir is not an error. Invalid
/// frontmatter skips the skill with a warning; a duplicate name keeps the
/// first and warns. A dir inside `project_root` is the project's: each
/// of its `SKILL.md` files must resolve inside the project and not be a
/// secret, as instruction files must (a repository's skill linked to a
/// file elsewhere would put that file's frontmatter into the prompt). The
/// user's own dirs may link anywhere.
pub fn discover_skills(dirs: &[PathBuf], project_root: &Path) -> (Vec<Skill>, Vec<Warning>) {
    let mut skills = Vec::new();
    let mut warnings = Vec::new();
    let mut names = HashSet::new();
    let boundary = project_root
        .canonicalize()
        .unwrap_or_else(|_| project_root.to_path_buf());
    for dir in dirs {
        let project = dir.starts_with(project_root);
        for path in skill_files(dir) {
            let loaded = if project {
                resolve_inside(&path, &boundary)
                    .map_err(|e| e.to_string())
                    .and_then(|real| load_skill(&real, &path))
            } else {
                load_skill(&path, &path)
            };
            match loaded {
                Ok(skill) if names.contains(&skill.name) => warnings.push(Warning::at(
                    &path,
                    format!(
                        "skill `{}` is defined earlier too; this one is ignored",
                        skill.name
                    ),
                )),
                Ok(skill) => {
                    names.insert(skill.name.clone());
                    skills.push(skill);
                }
                Err(message) => {
                    warnings.push(Warning::at(&path, format!("skill skipped: {message}")))
                }
            }
        }
    }
    (skills, warnings)
}

fn skill_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path().join(SKILL_FILE))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

/// Reads the skill at `real` (bounded, a regular file only) and names it
/// by `path`, where it was found.
fn load_skill(real: &Path, path: &Path) -> Result<Skill, String> {
    let text = read_capped(real).map_err(|e| format!("cannot read: {e}"))?;
    parse_skill(path, &text)
}

/// Parses the text of the `SKILL.md` at `path`; `Err` is why the skill is
/// skipped.
pub fn parse_skill(path: &Path, text: &str) -> Result<Skill, String> {
    let (front, _body) = frontmatter::parse::<Frontmatter>(text)?;
    let name = required(front.name, "name")?;
    let description = required(front.description, "description")?;
    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    Ok(Skill {
        name,
        description,
        allowed_tools: front.allowed_tools.map(ToolList::into_vec),
        path: path.to_path_buf(),
        dir,
    })
}

fn required(value: Option<String>, key: &str) -> Result<String, String> {
    value
        .map(|v| v.trim().to_owned())
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("frontmatter needs a non-empty `{key}`"))
}

/// The prompt section listing skills, or `None` when there are none.
pub(crate) fn render_index(skills: &[Skill]) -> Option<String> {
    if skills.is_empty() {
        return None;
    }
    let mut out = String::from(
        "Skills:\nA skill holds instructions for one kind of task. When a task matches a skill's \
         description, read its SKILL.md with the Read tool before you start and follow it; \
         paths in it are relative to the skill's directory. Do not read skills that do not apply.",
    );
    for skill in skills {
        out.push_str(&format!(
            "\n- {}: {} ({})",
            skill.name,
            one_line(&skill.description),
            skill.path.display()
        ));
    }
    Some(out)
}

/// Descriptions may be multi-line YAML; the index keeps one line each.
pub(crate) fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
#[path = "skills_tests.rs"]
mod tests;
