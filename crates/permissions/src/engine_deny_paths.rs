//! Read deny rules against what a command may read without naming it: a
//! glob that can expand to a denied path (`cat priv*/*` under
//! `Read(private/**)`), and path words the engine cannot place (relative
//! words after a `cd` to a computed directory, paths through `/proc/self`
//! or `/dev/fd/N/…`). Either asks; the literal directories of those rules
//! are also hidden from commands by the sandbox ([`RuleSet::hidden_paths`]),
//! which is what stops a recursive reader (`grep -r x .`) the engine cannot
//! see into.

use std::path::{Component, Path, PathBuf};

use super::{Cmd, Engine, RuleSet};
use crate::paths;
use crate::rule::{Anchor, PathPat, Rule, Spec};

impl Engine {
    /// Why a command may read a path a Read deny rule names without the
    /// engine seeing which, if it may.
    pub(super) fn deny_paths_unsure(&self, c: &Cmd) -> Option<String> {
        let rules: Vec<(&Rule, &PathPat)> = self
            .rules
            .deny
            .iter()
            .filter(|r| r.is_read_rule())
            .filter_map(|r| match r.spec() {
                Some(Spec::Path(p)) => Some((r, p)),
                _ => None,
            })
            .collect();
        let (rule, _) = rules.first()?;
        if let Some((_, word)) = c.unplaced.first() {
            return Some(format!(
                "`{word}` in `{}` names a path wright cannot place (after a `cd` to a computed \
                 directory, or through the running process), so it cannot be checked against \
                 the rule `{rule}`",
                c.text.trim()
            ));
        }
        let home = self.home.as_deref();
        for (_, glob) in &c.globs {
            let word = components(glob)?;
            for (rule, pat) in &rules {
                let hits = deny_components(pat, &self.roots, home)
                    .iter()
                    .any(|deny| may_meet(&word, deny));
                if hits {
                    return Some(format!(
                        "the pattern `{}` can expand to files the rule `{rule}` denies",
                        glob.display()
                    ));
                }
            }
        }
        None
    }
}

impl RuleSet {
    /// The files and directories Read deny rules name literally (`Read(
    /// private/**)` names `<root>/private`, `Read(//etc/x)` names `/etc/x`),
    /// for the sandbox to hide from commands as it hides secret files. A
    /// rule with a pattern before its end (`Read(src/*.key)`) names no
    /// one directory and is left to the permission check.
    pub fn hidden_paths(&self, roots: &[PathBuf], home: Option<&Path>) -> Vec<PathBuf> {
        let mut out = Vec::new();
        for rule in self.deny.iter().filter(|r| r.is_read_rule()) {
            let Some(Spec::Path(pat)) = rule.spec() else {
                continue;
            };
            let Some(text) = pat.glob_text() else {
                continue;
            };
            let literal = text.strip_suffix("/**").unwrap_or(text);
            if literal.is_empty() || literal.contains(['*', '?', '[', '{', '\\']) {
                continue;
            }
            let rel = literal.trim_start_matches('/');
            match pat.anchor {
                Anchor::Absolute => out.push(PathBuf::from(literal)),
                Anchor::Home => out.extend(home.map(|h| h.join(rel))),
                Anchor::Root => out.extend(roots.iter().map(|r| r.join(rel))),
                Anchor::Anywhere => {}
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// The components of an absolute glob path; `None` when a `..` follows a
/// pattern (where it lands depends on what the pattern matched).
fn components(path: &Path) -> Option<Vec<String>> {
    let mut out: Vec<String> = Vec::new();
    let mut seen_glob = false;
    for c in path.components() {
        match c {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir if seen_glob => return None,
            Component::ParentDir => {
                out.pop();
            }
            Component::Normal(n) => {
                let n = n.to_string_lossy().into_owned();
                seen_glob |= n.contains(['*', '?', '[', '{']);
                out.push(n);
            }
        }
    }
    Some(out)
}

/// The denied paths as component patterns (`**` for any run of them), one
/// list per place the rule's anchor puts it.
fn deny_components(pat: &PathPat, roots: &[PathBuf], home: Option<&Path>) -> Vec<Vec<String>> {
    let Some(text) = pat.glob_text() else {
        return Vec::new();
    };
    let split = |base: &Path, rel: &str| -> Vec<String> {
        let mut v: Vec<String> = base
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n.to_string_lossy().into_owned()),
                _ => None,
            })
            .collect();
        v.extend(rel.split('/').filter(|s| !s.is_empty()).map(str::to_owned));
        v
    };
    match pat.anchor {
        Anchor::Absolute => vec![split(Path::new("/"), text)],
        Anchor::Home => home.map(|h| split(h, text)).into_iter().collect(),
        Anchor::Root => roots.iter().map(|r| split(r, text)).collect(),
        Anchor::Anywhere => vec![vec!["**".into(), text.to_owned(), "**".into()]],
    }
}

/// Whether a path the glob `word` matches can be a denied path or lie
/// above one (a directory a command may read recursively): the two
/// component patterns walked together, `**` taking any run of components.
fn may_meet(word: &[String], deny: &[String]) -> bool {
    let mut seen = vec![false; (word.len() + 1) * (deny.len() + 1)];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        let key = i * (deny.len() + 1) + j;
        if std::mem::replace(&mut seen[key], true) {
            continue;
        }
        if i == word.len() {
            // The word ends at a denied path, or at a directory all of
            // whose contents are denied (`priv*` under `private/**`).
            if deny[j..].iter().all(|d| d == "**") {
                return true;
            }
            continue;
        }
        let (w, d) = (word[i].as_str(), deny.get(j).map(String::as_str));
        if w == "**" {
            stack.push((i + 1, j));
            if d.is_some() {
                stack.push((i, j + 1));
            }
        }
        match d {
            Some("**") => {
                stack.push((i, j + 1));
                stack.push((i + 1, j));
            }
            Some(d) if w != "**" && paths::globs_intersect(w, d) => stack.push((i + 1, j + 1)),
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &str) -> Vec<String> {
        s.split('/')
            .filter(|x| !x.is_empty())
            .map(str::to_owned)
            .collect()
    }

    #[test]
    fn literal_read_denies_are_hidden() {
        let rules = RuleSet::parse(
            &[] as &[&str],
            &[] as &[&str],
            &[
                "Read(private/**)",
                "Read(~/.vault-token)",
                "Read(//etc/x)",
                "Read(*.key)",
                "Read(src/*.pem)",
                "Bash(curl:*)",
            ],
        )
        .unwrap();
        let hidden = rules.hidden_paths(&[PathBuf::from("/w")], Some(Path::new("/h")));
        assert_eq!(
            hidden,
            vec![
                PathBuf::from("/etc/x"),
                PathBuf::from("/h/.vault-token"),
                PathBuf::from("/w/private")
            ]
        );
    }

    #[test]
    fn globs_meet_denied_paths() {
        let deny = v("w/private/**");
        for w in [
            "w/priv*/*",
            "w/*/key",
            "w/p*",
            "w/private/*",
            "*/private/x",
            "w/**",
        ] {
            assert!(may_meet(&v(w), &deny), "{w}");
        }
        for w in ["w/src/*.rs", "w/*.md", "other/*"] {
            assert!(!may_meet(&v(w), &deny), "{w}");
        }
        let anywhere = vec!["**".to_owned(), "*.key".to_owned(), "**".to_owned()];
        assert!(may_meet(&v("w/src/*"), &anywhere));
        assert!(!may_meet(&v("w/src/*.rs"), &anywhere));
    }
}
