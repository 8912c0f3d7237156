//! The guard's judgement of a target against the place a command runs in
//! ([`Place`]): the workspace, the directory the command starts in and the
//! user's home.
//!
//! The lexical checks ([`super::resolve`]) know `/`, `~`, the top-level
//! system directories and `..` above the start, but not the workspace's
//! own name: `rm -rf /home/me/proj` (the workspace itself), `rm -rf
//! /home/me` (a home the fixed list does not name), `mv ~/proj x` or a
//! link to `/` an earlier command left in the workspace (`rm -rf x/`)
//! would pass them. Knowing the place, every target is made absolute,
//! followed through the links that exist now, and refused when it is the
//! root, a top-level system directory, or a workspace root, the start
//! directory or the home, or an ancestor of one of them.

use std::path::{Component, Path, PathBuf};

use super::*;

/// Where a command line runs, for [`check_command_at`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Place {
    /// The directory the command starts in.
    pub cwd: PathBuf,
    /// The workspace roots.
    pub roots: Vec<PathBuf>,
    /// The user's home directory, when known.
    pub home: Option<PathBuf>,
}

impl Place {
    /// Directories no destructive command may name, with what to call
    /// them, each in its written and its real (link-free) spelling.
    fn protected(&self) -> Vec<(Vec<String>, &'static str)> {
        let mut out = Vec::new();
        let mut add = |p: &Path, what: &'static str| {
            for form in [p.to_path_buf(), real_path(p, true)] {
                let comps = components(&form);
                if !out.iter().any(|(c, _)| *c == comps) {
                    out.push((comps, what));
                }
            }
        };
        for r in &self.roots {
            add(r, "the workspace");
        }
        add(&self.cwd, "the directory the command starts in");
        if let Some(h) = &self.home {
            add(h, "the home directory");
        }
        out
    }
}

/// The normal components of an absolute path.
fn components(p: &Path) -> Vec<String> {
    p.components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s.to_string_lossy().into_owned()),
            _ => None,
        })
        .collect()
}

/// `p` with the links that exist now resolved: the longest existing
/// prefix canonicalized, the rest appended. `follow_last` is false for a
/// command that acts on a link itself (`rm x` removes the link `x`).
fn real_path(p: &Path, follow_last: bool) -> PathBuf {
    let (head, last) = match (follow_last, p.parent(), p.file_name()) {
        (false, Some(parent), Some(name)) => (parent, Some(name)),
        _ => (p, None),
    };
    let mut existing = head;
    let mut rest = Vec::new();
    let real = loop {
        if let Ok(r) = std::fs::canonicalize(existing) {
            break r;
        }
        match (existing.parent(), existing.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_owned());
                existing = parent;
            }
            _ => break existing.to_path_buf(),
        }
    };
    let mut out = real;
    for name in rest.iter().rev() {
        out.push(name);
    }
    if let Some(name) = last {
        out.push(name);
    }
    out
}

/// Whether `target` names `dir` or an ancestor of it: as many components
/// or fewer, each matching (a glob component may match).
fn names_or_contains(target: &[String], dir: &[String]) -> bool {
    target.len() <= dir.len()
        && target
            .iter()
            .zip(dir)
            .all(|(t, d)| t == d || glob_match(t.as_bytes(), d.as_bytes()))
}

impl Guard {
    /// `Err(reason)` when `n` (the normalized `path`) is, once made
    /// absolute in the place and followed through existing links, the
    /// root, a system directory, or a workspace root, the start directory
    /// or the home, or an ancestor of one.
    pub(super) fn judge_place(
        &self,
        op: Op<'_>,
        shown: &str,
        path: &str,
        n: &Norm,
    ) -> Result<(), String> {
        let Some(place) = &self.place else {
            return Ok(());
        };
        let base = match n.base {
            Base::Root => PathBuf::from("/"),
            Base::Home => match &place.home {
                Some(h) => h.clone(),
                None => return Ok(()),
            },
            Base::Start => place.cwd.clone(),
            Base::Unknown => return Ok(()),
        };
        let mut abs = base;
        for _ in 0..n.ups {
            abs.pop();
        }
        // Globs are matched against the protected names, not resolved.
        let plain = n
            .comps
            .iter()
            .take_while(|c| !c.contains(['*', '?', '[']))
            .count();
        for c in &n.comps[..plain] {
            abs.push(c);
        }
        let follow = op.follows || path.ends_with('/') || plain < n.comps.len();
        let real = if abs.as_os_str().is_empty() {
            abs
        } else {
            real_path(&abs, follow)
        };
        let mut target = components(&real);
        target.extend(n.comps[plain..].iter().cloned());
        let written = render(n);
        let how = |real: &[String]| {
            let real = format!("/{}", real.join("/"));
            if real == written {
                String::new()
            } else {
                format!(" ({real})")
            }
        };
        if target.is_empty() {
            return Err(format!("{} {shown}{}: it is /", op.what, how(&target)));
        }
        if let [one, rest @ ..] = target.as_slice()
            && rest.iter().all(|c| matches!(c.as_str(), "*" | ".*" | "**"))
            && is_system_dir(one)
        {
            return Err(format!(
                "{} {shown}{}: it is a system directory",
                op.what,
                how(&target)
            ));
        }
        for (dir, what) in place.protected() {
            // All of a home's contents are as bad as the home (`~/*`);
            // the workspace's contents are the workspace's to delete.
            let mut t = target.as_slice();
            if what == "the home directory" {
                while let [rest @ .., last] = t
                    && matches!(last.as_str(), "*" | ".*" | "**")
                {
                    t = rest;
                }
            }
            if names_or_contains(t, &dir) {
                let which = if t.len() == dir.len() {
                    what.to_owned()
                } else {
                    format!("an ancestor of {what}")
                };
                return Err(format!(
                    "{} {shown}{}: it is {which} (/{}); name a path inside the workspace literally",
                    op.what,
                    how(&target),
                    dir.join("/")
                ));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
#[path = "guard_place_tests.rs"]
mod tests;
