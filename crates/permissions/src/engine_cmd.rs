//! What a shell command touches: the files its redirections write and read,
//! the path words of its parts (relative to every directory a `cd` may have
//! moved to), its globs, the paths git prints blobs of (`git show
//! REV:PATH`, and for history printed without a path the secret or denied
//! paths the repository tracks), and the paths the engine cannot place (after a `cd` to a
//! computed directory, or through `/proc/self` and `/dev/fd/N/…`, which name
//! what the running shell has open, not what wright sees).

use std::path::{Path, PathBuf};

use super::Cmd;
use super::history::Sensitive;
use crate::command::{Part, parts};
use crate::paths;
use crate::shell::{RedirectKind, Word};

/// Where the parts of a command may run: the session's cwd and every
/// directory a `cd` named (a `cd` in a subshell or behind `||` may not have
/// happened, so the old ones stay), or somewhere computed.
struct Cwds {
    known: Vec<PathBuf>,
    computed: bool,
}

impl Cwds {
    /// Follows a `cd`/`pushd`/`popd` part.
    fn follow(&mut self, p: &Part, home: Option<&Path>) {
        let Some(prog) = p.program().map(|n| n.rsplit('/').next().unwrap_or(n)) else {
            return;
        };
        if !matches!(prog, "cd" | "pushd" | "popd" | "chdir") {
            return;
        }
        let target = p.argv[1..]
            .iter()
            .find(|w| !matches!(w.text.as_str(), "-L" | "-P" | "-e" | "-@" | "--"));
        let dir = match (prog, target) {
            ("popd", _) => None,
            (_, None) => home.map(Path::to_path_buf),
            (_, Some(w)) if w.text == "-" || w.glob => None,
            (_, Some(w)) if w.dynamic => paths::expand_home(&w.text, home),
            (_, Some(w)) => Some(PathBuf::from(&w.text)),
        };
        match dir {
            Some(d) => {
                let new: Vec<PathBuf> = self
                    .known
                    .iter()
                    .map(|c| paths::normalize(&c.join(&d)))
                    .collect();
                for n in new {
                    if !self.known.contains(&n) {
                        self.known.push(n);
                    }
                }
            }
            None => self.computed = true,
        }
    }
}

/// What `text`, run in `cwd`, touches. `sensitive` lists the secret or
/// Read-denied paths the repository around a directory tracks: a git
/// command that prints history without naming paths reads them.
pub(super) fn command_target(
    text: &str,
    cwd: &Path,
    home: Option<&Path>,
    sensitive: &dyn Fn(&Path) -> Sensitive,
) -> Cmd {
    let mut ps = parts(text);
    // After a `cd`, relative redirection targets are relative to a directory
    // only known when it runs: treat them as named at run time.
    let mut moved = false;
    for p in &mut ps {
        if moved {
            for r in &mut p.redirects {
                if !r.target.text.starts_with('/') {
                    r.target.dynamic = true;
                }
            }
        }
        let prog = p.program().map(|n| n.rsplit('/').next().unwrap_or(n));
        moved |= matches!(prog, Some("cd" | "pushd" | "popd" | "chdir"));
    }
    let mut c = Cmd {
        text: text.to_owned(),
        parts: Vec::new(),
        writes: Vec::new(),
        reads: Vec::new(),
        secret_globs: Vec::new(),
        globs: Vec::new(),
        unplaced: Vec::new(),
        proc_writes: Vec::new(),
    };
    let mut cwds = Cwds {
        known: vec![cwd.to_path_buf()],
        computed: false,
    };
    for (i, p) in ps.iter().enumerate() {
        for r in &p.redirects {
            let t = &r.target;
            let known = !t.dynamic || paths::expand_home(&t.text, home).is_some();
            if known
                && matches!(r.kind, RedirectKind::Write | RedirectKind::Read)
                && !is_sink(t)
                && through_process(&paths_abs(cwd, &t.text, home))
            {
                if r.kind == RedirectKind::Write {
                    c.proc_writes.push((i, t.text.clone()));
                } else {
                    c.unplaced.push((i, t.text.clone()));
                }
                continue;
            }
            match r.kind {
                RedirectKind::Write if known && !is_sink(t) => {
                    c.writes.push((i, paths::resolve(cwd, &t.text, home)));
                }
                RedirectKind::Read if known => {
                    c.reads.push((i, paths::resolve(cwd, &t.text, home)))
                }
                _ => {}
            }
        }
        if let Some(h) = super::history::prints_history(p) {
            for base in &cwds.known {
                let dir = h
                    .dirs
                    .iter()
                    .fold(base.clone(), |d, c| paths::normalize(&d.join(c)));
                match sensitive(&dir) {
                    Sensitive::Paths(list) => {
                        for abs in list {
                            let named = h
                                .specs
                                .as_ref()
                                .is_none_or(|s| super::history::spec_includes(&dir, s, &abs));
                            if named {
                                c.reads
                                    .push((i, paths::resolve(&dir, &abs.to_string_lossy(), home)));
                            }
                        }
                    }
                    // Too long a history to list: it may hold any secret
                    // (asked like a glob that can expand to one) and any
                    // denied path (asked like a path that cannot be placed).
                    Sensitive::Unknown(top) => {
                        c.secret_globs.push((i, top.join(".git")));
                        c.unplaced
                            .push((i, format!("the history of {}", top.display())));
                    }
                }
            }
        }
        let git_paths = git_blob_paths(p);
        let words = p.raw.iter().chain(p.argv.iter());
        let texts = words
            .flat_map(|w| {
                path_candidates(w, home)
                    .into_iter()
                    .map(move |t| (w.glob, t))
            })
            .map(|(g, t)| (g, t.to_owned()))
            .chain(p.raw.iter().chain(p.argv.iter()).filter_map(brace_glob))
            .chain(git_paths);
        for (glob, text) in texts {
            let relative = !text.starts_with('/') && paths::expand_home(&text, home).is_none();
            if relative && cwds.computed {
                c.unplaced.push((i, text.clone()));
            }
            if through_process(&paths_abs(cwd, &text, home)) {
                c.unplaced.push((i, text.clone()));
            }
            let bases = if relative {
                &cwds.known[..]
            } else {
                &cwds.known[..1]
            };
            for base in bases {
                if glob {
                    if paths::glob_may_name_secret(&text) {
                        c.secret_globs.push((i, base.join(&text)));
                    }
                    c.globs.push((i, paths_abs(base, &text, home)));
                } else {
                    c.reads.push((i, paths::resolve(base, &text, home)));
                }
            }
        }
        cwds.follow(p, home);
    }
    c.parts = ps;
    c
}

fn paths_abs(cwd: &Path, text: &str, home: Option<&Path>) -> PathBuf {
    wright_sandbox::fs_resolve::absolute(cwd, text, home)
}

/// Whether a path, read component by component as written (each `..`
/// applied to what came before it), passes through a directory that
/// names the running process's state (`/proc/self`, `/proc/<pid>`,
/// `/dev/fd`, `/dev/stdout`, …) with a component after it: what that
/// reaches depends on the shell that runs the command (its cwd, its open
/// files), not on anything wright can resolve.
fn through_process(abs: &Path) -> bool {
    let comps: Vec<_> = abs.components().collect();
    let mut acc = PathBuf::new();
    for (i, comp) in comps.iter().enumerate() {
        acc.push(comp);
        acc = paths::normalize(&acc);
        if i + 1 == comps.len() {
            break;
        }
        let names: Vec<&str> = acc
            .components()
            .skip(1)
            .filter_map(|c| c.as_os_str().to_str())
            .collect();
        let process = match names.as_slice() {
            ["proc", who, ..] => {
                matches!(*who, "self" | "thread-self") || who.chars().all(|c| c.is_ascii_digit())
            }
            ["dev", dev, ..] => matches!(*dev, "fd" | "stdin" | "stdout" | "stderr"),
            _ => false,
        };
        if process {
            return true;
        }
    }
    false
}

/// The paths a git command prints the content of: `REV:PATH` objects
/// (`git show HEAD:.env`, `git cat-file -p :0:key`, and `git rev-parse`,
/// whose object id the next call prints), and git pathspecs, which git
/// matches as globs even when the shell quoted them (`-- '*.env'`). A
/// `REV:./PATH` is relative to the cwd, a plain `REV:PATH` to the top of
/// the repository (the cwd, or a root the caller also tries).
fn git_blob_paths(p: &Part) -> Vec<(bool, String)> {
    let Some(prog) = p.program() else {
        return Vec::new();
    };
    if prog.rsplit('/').next() != Some("git") {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut after_dashes = false;
    for w in p.argv.iter().skip(1) {
        let t = w.text.as_str();
        if w.dynamic {
            continue;
        }
        if t == "--" {
            after_dashes = true;
            continue;
        }
        if after_dashes {
            // Pathspec magic (`:(glob)`, `:!x`) and patterns: git globs.
            let spec = t
                .strip_prefix(":(")
                .and_then(|r| r.split_once(')'))
                .map_or(t, |(_, rest)| rest);
            let spec = spec.trim_start_matches([':', '!', '^', '/']);
            let glob = spec.contains(['*', '?', '[']);
            if glob || spec != t {
                out.push((glob, spec.to_owned()));
            }
            continue;
        }
        if t.starts_with('-') || t.starts_with(":/") {
            continue;
        }
        if let Some((_, path)) = t.split_once(':') {
            // `:0:path` names a stage of the index.
            let path = match path.split_once(':') {
                Some((stage, rest))
                    if stage.len() == 1 && stage.chars().all(|c| c.is_ascii_digit()) =>
                {
                    rest
                }
                _ => path,
            };
            let path = path.strip_prefix("./").unwrap_or(path);
            out.push((
                false,
                if path.is_empty() {
                    ".".to_owned()
                } else {
                    path.to_owned()
                },
            ));
        }
    }
    out
}

/// A brace expansion (`{private,x}/key`) names every path its
/// alternatives do: it counts as a glob (widened, `{…}` matches anything).
/// Only a word whose one expansion is braces: a `$` or a substitution is
/// computed, not listed.
fn brace_glob(w: &Word) -> Option<(bool, String)> {
    let t = w.text.as_str();
    let plain = !t.contains('$')
        && !t.contains(crate::shell::SUBST)
        && !t.chars().any(|c| wright_shell::marker_index(c).is_some());
    (w.dynamic && plain && t.contains('{')).then(|| (true, t.to_owned()))
}

/// The texts in a shell word that may be paths: the word, or the value of
/// `--opt=VALUE`/`KEY=VALUE`.
fn path_candidates<'a>(w: &'a Word, home: Option<&Path>) -> Vec<&'a str> {
    let t = w.text.as_str();
    if t.is_empty() || (w.dynamic && paths::expand_home(t, home).is_none()) {
        return Vec::new();
    }
    match t.split_once('=') {
        Some((_, v)) if !v.is_empty() => vec![v],
        _ if t.starts_with('-') => Vec::new(),
        _ => vec![t],
    }
}

/// `/dev/null` and friends, spelled exactly: writing there changes no file.
/// `/dev/fd/../x` or `/dev/null/../x` only look harmless.
pub(super) fn is_sink(w: &Word) -> bool {
    let fd = |n: &str| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit());
    !w.dynamic
        && (matches!(w.text.as_str(), "/dev/null" | "/dev/stdout" | "/dev/stderr")
            || w.text.strip_prefix("/dev/fd/").is_some_and(fd)
            || w.text.strip_prefix("/proc/self/fd/").is_some_and(fd))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn process_relative_paths() {
        for p in [
            "/dev/fd/3/../x",
            "/dev/fd/../x",
            "/dev/stdout/../x",
            "/proc/self/cwd/../x",
            "/proc/self/fd/3/x",
            "/proc/1234/root/etc/x",
            "/proc/thread-self/cwd/x",
            "/dev/./fd/3/x",
        ] {
            assert!(through_process(Path::new(p)), "{p}");
        }
        for p in [
            "/dev/null",
            "/tmp/x",
            "/w/proc/self/x",
            "/proc/cpuinfo",
            "/dev/fd",
        ] {
            assert!(!through_process(Path::new(p)), "{p}");
        }
    }
}
