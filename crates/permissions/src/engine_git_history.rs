//! Git commands that print blob contents without naming a path (issue 36,
//! part 7): `git log -p`, `git show <rev>`, `git diff <rev>`, `git
//! cat-file -p <hash>`, `git grep`, `git archive`, `git fast-export`, ….
//! What they print depends on the history, not on their words, so when the
//! repository tracks a secret-named path or one a `Read(...)` deny rule
//! names (in any commit a ref or a reflog reaches, or in the index), such
//! a command is a read of each of those paths: the secret guard and the
//! deny rules then ask, or refuse a run that cannot ask, as they do for
//! `git show HEAD:.env`. A literal pathspec after `--` that leaves the path
//! out keeps it out; any other pathspec is taken to reach everything.
//!
//! Listing what a repository tracks runs git outside the sandbox, so the
//! listing git runs nothing a repository's config may name (no fsmonitor,
//! hooks, pager, signature program, external diff or text conversion) and
//! its answer is kept while the repository's refs, reflog and index stay
//! as they were.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;

use super::Engine;
use crate::command::Part;
use crate::paths;
use crate::rule::Spec;

/// What one blob-printing git part may print.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct History {
    /// `-C` directories, in order, relative to the part's cwd.
    pub(super) dirs: Vec<String>,
    /// Literal pathspecs after `--`; `None` when it may print any path.
    pub(super) specs: Option<Vec<String>>,
}

/// Options after which `log`-like commands print file contents.
fn patch_option(a: &str) -> bool {
    let long = [
        "--patch",
        "--unified",
        "--word-diff",
        "--color-words",
        "--cc",
        "--binary",
        "--full-diff",
        "--patch-with-stat",
        "--patch-with-raw",
        "--textconv",
        "--ext-diff",
        "--diff-merges",
        "--remerge-diff",
        "--function-context",
        "--inter-hunk-context",
    ];
    if let Some(l) = a.strip_prefix("--") {
        let name = l.split('=').next().unwrap_or(l);
        return long.iter().any(|o| o[2..] == *name);
    }
    // Short clusters: `-p`, `-u`, `-U3`, `-c`, `-m`, `-L1,2:f`, `-W`;
    // `-S`/`-G` take a search string, which prints nothing.
    a.strip_prefix('-')
        .filter(|s| !s.starts_with(['S', 'G', 'n']))
        .is_some_and(|s| {
            s.chars()
                .any(|c| matches!(c, 'p' | 'u' | 'U' | 'c' | 'm' | 'L' | 'W'))
        })
}

/// Options after which `git diff` prints no file contents.
fn summary_option(a: &str) -> bool {
    matches!(
        a.split('=').next().unwrap_or(a),
        "--stat"
            | "--numstat"
            | "--shortstat"
            | "--name-only"
            | "--name-status"
            | "--quiet"
            | "--dirstat"
            | "--summary"
            | "--raw"
            | "--compact-summary"
            | "--no-patch"
            | "-s"
    )
}

/// Whether `p` is a git command that may print blob contents whose paths
/// its words do not name, and what it is limited to.
pub(super) fn prints_history(p: &Part) -> Option<History> {
    let prog = p.program()?;
    if prog.rsplit('/').next() != Some("git") {
        return None;
    }
    let words = &p.argv[1..];
    let mut dirs = Vec::new();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        match w.text.as_str() {
            "-C" => {
                dirs.extend(words.get(i + 1).map(|d| d.text.clone()));
                i += 2;
            }
            "-c" => i += 2,
            s if s.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let sub = words.get(i)?.text.as_str();
    let rest = &words[i + 1..];
    // A word the shell computes may be any option or object.
    let dynamic = rest.iter().any(|w| w.dynamic);
    let dashes = rest.iter().position(|w| w.text == "--");
    let (before, specs) = match dashes {
        Some(d) => (&rest[..d], Some(&rest[d + 1..])),
        None => (rest, None),
    };
    let opts: Vec<&str> = before
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| t.starts_with('-'))
        .collect();
    let operands: Vec<&str> = before
        .iter()
        .map(|w| w.text.as_str())
        .filter(|t| !t.starts_with('-'))
        .collect();
    // `REV:PATH` names its path, which the caller reads already.
    let by_id = |o: &&str| !o.contains(':') || o.starts_with(":/");
    let patch = opts.iter().any(|o| patch_option(o));
    let prints = dynamic
        || match sub {
            // With no object it shows HEAD, a commit, whose patch a
            // summary option leaves out; an object by id may be a blob,
            // printed whatever the options.
            "show" => {
                operands.iter().any(by_id)
                    || (operands.is_empty() && (patch || !opts.iter().any(|o| summary_option(o))))
            }
            "log" | "whatchanged" | "reflog" | "diff-tree" | "diff-index" | "diff-files" => patch,
            "stash" => operands.first() == Some(&"show") && patch,
            "diff" => patch || !opts.iter().any(|o| summary_option(o)),
            "cat-file" => {
                let batch = opts.iter().any(|o| o.starts_with("--batch"));
                let only_meta = opts.iter().all(|o| matches!(*o, "-t" | "-s" | "-e"));
                batch
                    || (!only_meta && operands.iter().any(by_id))
                    || (opts.is_empty() && operands.len() == 2 && by_id(&operands[1]))
            }
            "grep" | "archive" | "fast-export" | "format-patch" | "range-diff" | "bundle"
            | "bugreport" => true,
            _ => false,
        };
    if !prints {
        return None;
    }
    // Literal pathspecs keep out what they do not name; a pattern or
    // pathspec magic may name anything.
    let literal = |t: &str| !t.starts_with(':') && !t.contains(['*', '?', '[', '\\']);
    let specs = match specs {
        Some(s)
            if !dynamic && !s.is_empty() && s.iter().all(|w| literal(&w.text) && !w.dynamic) =>
        {
            Some(s.iter().map(|w| w.text.clone()).collect())
        }
        _ => None,
    };
    Some(History { dirs, specs })
}

/// What a repository tracks, from one listing.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Tracked {
    top: PathBuf,
    paths: Arc<Vec<String>>,
}

/// Listings by the directory asked about, with what they were made from.
#[derive(Debug, Default)]
pub(super) struct TrackedCache {
    entries: Mutex<Vec<Entry>>,
}

/// The directory asked about, the stamps the listing was made at, and the
/// listing (`None` outside a repository).
type Entry = (PathBuf, Vec<Stamp>, Option<Tracked>);

/// Most repositories whose listing is kept.
const KEPT: usize = 8;

type Stamp = Option<(u64, SystemTime)>;

/// A git that runs nothing the repository's config names.
fn quiet_git(dir: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg("-C").arg(dir);
    for kv in [
        "core.fsmonitor=false",
        "core.hooksPath=/dev/null",
        "core.pager=cat",
        "log.showSignature=false",
        "diff.external=",
        "core.attributesFile=/dev/null",
    ] {
        c.args(["-c", kv]);
    }
    c.args(["--no-pager", "--no-optional-locks"])
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0");
    c
}

fn git_out(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let out = quiet_git(dir).args(args).output().ok()?;
    out.status.success().then_some(out.stdout)
}

/// The repository's top and git directory, for `dir` inside it.
fn locate(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let out = git_out(dir, &["rev-parse", "--show-toplevel", "--absolute-git-dir"])?;
    let text = String::from_utf8(out).ok()?;
    let mut lines = text.lines();
    Some((PathBuf::from(lines.next()?), PathBuf::from(lines.next()?)))
}

/// Size and time of the files a commit, a fetch, a ref update or an
/// `add` changes.
fn stamps(git_dir: &Path) -> Vec<Stamp> {
    [
        "index",
        "HEAD",
        "packed-refs",
        "logs/HEAD",
        "FETCH_HEAD",
        "refs/heads",
        "refs/stash",
        "refs/tags",
    ]
    .iter()
    .map(|f| {
        let m = std::fs::metadata(git_dir.join(f)).ok()?;
        Some((m.len(), m.modified().ok()?))
    })
    .collect()
}

/// Every path the index or any commit a ref or reflog reaches holds.
fn list(dir: &Path) -> Option<Tracked> {
    let (top, _) = locate(dir)?;
    let mut paths = std::collections::BTreeSet::new();
    let mut add = |bytes: Vec<u8>| {
        for p in bytes.split(|b| *b == 0).filter(|p| !p.is_empty()) {
            paths.insert(String::from_utf8_lossy(p).into_owned());
        }
    };
    add(git_out(&top, &["ls-files", "-z", "--full-name"]).unwrap_or_default());
    // A repository without commits has no history to print.
    if git_out(&top, &["rev-parse", "--verify", "-q", "HEAD"]).is_some()
        || git_out(&top, &["for-each-ref", "--count=1"]).is_some_and(|o| !o.is_empty())
    {
        add(git_out(
            &top,
            &[
                "log",
                "--all",
                "--reflog",
                "--format=",
                "--name-only",
                "-z",
                "--no-renames",
                // Every path is added somewhere (the root commit's too);
                // `-m` shows what a merge added.
                "--diff-filter=A",
                "-m",
                "--no-textconv",
                "--no-ext-diff",
            ],
        )?);
    }
    Some(Tracked {
        top,
        paths: Arc::new(paths.into_iter().collect()),
    })
}

impl TrackedCache {
    fn get(&self, dir: &Path) -> Option<Tracked> {
        let (_, git_dir) = locate(dir)?;
        let now = stamps(&git_dir);
        if let Ok(entries) = self.entries.lock()
            && let Some((_, _, t)) = entries.iter().find(|(d, s, _)| d == dir && *s == now)
        {
            return t.clone();
        }
        let t = list(dir);
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|(d, _, _)| d != dir);
            if entries.len() >= KEPT {
                entries.remove(0);
            }
            entries.push((dir.to_path_buf(), now, t.clone()));
        }
        t
    }
}

/// The cache shared by an engine's clones.
#[derive(Debug, Default, Clone)]
pub(super) struct SharedTracked(Arc<TrackedCache>);

impl Engine {
    /// The tracked paths of the repository around `dir` that are secret
    /// by name or that a Read deny rule names, as absolute paths.
    pub(super) fn tracked_sensitive(&self, dir: &Path) -> Vec<PathBuf> {
        let Some(t) = self.tracked.0.get(dir) else {
            return Vec::new();
        };
        let home = self.home.as_deref();
        let denies: Vec<_> = self
            .rules
            .deny
            .iter()
            .filter(|r| r.is_read_rule())
            .filter_map(|r| match r.spec() {
                Some(Spec::Path(p)) => Some(p),
                _ => None,
            })
            .collect();
        t.paths
            .iter()
            .map(|p| t.top.join(p))
            .filter(|abs| {
                let r = paths::resolve(&t.top, &abs.to_string_lossy(), home);
                paths::secret(&r, false).is_some()
                    || denies.iter().any(|d| {
                        d.matches(&r.lexical, &self.roots, home)
                            || d.matches(&r.real, &self.roots, home)
                    })
            })
            .collect()
    }
}

/// Whether the tracked path `abs` is among what `specs` (relative to
/// `base`) name: the path itself or a directory above it.
pub(super) fn spec_includes(base: &Path, specs: &[String], abs: &Path) -> bool {
    specs.iter().any(|s| {
        let spec = paths::normalize(&base.join(s));
        abs.starts_with(&spec)
    })
}
