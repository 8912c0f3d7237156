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
use std::time::{Duration, Instant, SystemTime};

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

/// Paths one listing found, relative to the repository's top; `None`
/// when git could not list them in time (then anything may be there).
type Listed = Option<Arc<Vec<String>>>;

/// One repository's listings, with the stamps each was made at: the
/// history's (refs, reflog) and the index's apart, since `git status` and
/// `git add` rewrite the index far more often than history changes.
#[derive(Debug, Clone)]
struct Entry {
    dir: PathBuf,
    top: PathBuf,
    history_at: Vec<Stamp>,
    history: Listed,
    index_at: Stamp,
    index: Listed,
}

/// Listings by the directory asked about.
#[derive(Debug, Default)]
pub(super) struct TrackedCache {
    entries: Mutex<Vec<Entry>>,
}

/// Most repositories whose listing is kept.
const KEPT: usize = 8;

/// Longest a listing may take; a history too long to list in this time
/// is taken to hold anything.
const LIST_TIMEOUT: Duration = Duration::from_secs(10);

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
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .env("GIT_TERMINAL_PROMPT", "0")
        .env("GIT_OPTIONAL_LOCKS", "0");
    c
}

/// git's stdout, if it succeeds within [`LIST_TIMEOUT`].
fn git_out(dir: &Path, args: &[&str]) -> Option<Vec<u8>> {
    let mut child = quiet_git(dir).args(args).spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        std::io::Read::read_to_end(&mut stdout, &mut buf).map(|_| buf)
    });
    let deadline = Instant::now() + LIST_TIMEOUT;
    // Most answers take a few milliseconds: poll often at first.
    let mut pause = Duration::from_micros(200);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                break None;
            }
        }
    };
    let out = reader.join().ok()?.ok()?;
    status.filter(|s| s.success()).map(|_| out)
}

/// The repository's top and git directory, for `dir` inside it.
fn locate(dir: &Path) -> Option<(PathBuf, PathBuf)> {
    let out = git_out(dir, &["rev-parse", "--show-toplevel", "--absolute-git-dir"])?;
    let text = String::from_utf8(out).ok()?;
    let mut lines = text.lines();
    Some((PathBuf::from(lines.next()?), PathBuf::from(lines.next()?)))
}

fn stamp(path: &Path) -> Stamp {
    let m = std::fs::metadata(path).ok()?;
    Some((m.len(), m.modified().ok()?))
}

/// Size and time of the files a commit, a fetch or a ref update changes
/// (a loose ref is replaced by a rename, which touches its directory).
fn history_stamps(git_dir: &Path) -> Vec<Stamp> {
    [
        "HEAD",
        "packed-refs",
        "logs/HEAD",
        "FETCH_HEAD",
        "refs/heads",
        "refs/stash",
        "refs/tags",
        "refs/remotes",
    ]
    .iter()
    .map(|f| stamp(&git_dir.join(f)))
    .collect()
}

fn split_z(bytes: &[u8]) -> Vec<String> {
    let mut paths: Vec<String> = bytes
        .split(|b| *b == 0)
        .filter(|p| !p.is_empty())
        .map(|p| String::from_utf8_lossy(p).into_owned())
        .collect();
    paths.sort();
    paths.dedup();
    paths
}

/// Every path any commit a ref or a reflog reaches holds.
fn list_history(top: &Path) -> Listed {
    // A repository without commits has no history to print (and `log`
    // fails there).
    let any_ref = git_out(top, &["for-each-ref", "--count=1"])?;
    if any_ref.is_empty() && git_out(top, &["rev-parse", "--verify", "-q", "HEAD"]).is_none() {
        return Some(Arc::new(Vec::new()));
    }
    let out = git_out(
        top,
        &[
            "log",
            "--all",
            "--reflog",
            "--format=",
            "--name-only",
            "-z",
            "--no-renames",
            // Every path is added somewhere (the root commit's too); `-m`
            // shows what a merge added.
            "--diff-filter=A",
            "-m",
            "--no-textconv",
            "--no-ext-diff",
        ],
    )?;
    Some(Arc::new(split_z(&out)))
}

fn list_index(top: &Path) -> Listed {
    git_out(top, &["ls-files", "-z", "--full-name"]).map(|o| Arc::new(split_z(&o)))
}

/// What the repository around a directory tracks: its top and every path,
/// or `None` for a path list git could not give.
type Tracked = (PathBuf, Option<Vec<String>>);

impl TrackedCache {
    /// `None` outside a repository.
    fn get(&self, dir: &Path) -> Option<Tracked> {
        let (top, git_dir) = locate(dir)?;
        let history_at = history_stamps(&git_dir);
        let index_at = stamp(&git_dir.join("index"));
        let old = self
            .entries
            .lock()
            .ok()
            .and_then(|e| e.iter().find(|x| x.dir == dir && x.top == top).cloned());
        let history = match &old {
            Some(o) if o.history_at == history_at => o.history.clone(),
            _ => list_history(&top),
        };
        let index = match &old {
            Some(o) if o.index_at == index_at => o.index.clone(),
            _ => list_index(&top),
        };
        if let Ok(mut entries) = self.entries.lock() {
            entries.retain(|x| x.dir != dir);
            if entries.len() >= KEPT {
                entries.remove(0);
            }
            entries.push(Entry {
                dir: dir.to_path_buf(),
                top: top.clone(),
                history_at,
                history: history.clone(),
                index_at,
                index: index.clone(),
            });
        }
        let paths = match (history, index) {
            (Some(h), Some(i)) => {
                let mut all: Vec<String> = h.iter().chain(i.iter()).cloned().collect();
                all.sort();
                all.dedup();
                Some(all)
            }
            _ => None,
        };
        Some((top, paths))
    }
}

/// The cache shared by an engine's clones.
#[derive(Debug, Default, Clone)]
pub(super) struct SharedTracked(Arc<TrackedCache>);

/// The sensitive paths a repository tracks.
pub(super) enum Sensitive {
    /// These (absolute), possibly none.
    Paths(Vec<PathBuf>),
    /// The repository at this top could not be listed: any may be there.
    Unknown(PathBuf),
}

impl Engine {
    /// The tracked paths of the repository around `dir` that are secret
    /// by name or that a Read deny rule names, as absolute paths.
    pub(super) fn tracked_sensitive(&self, dir: &Path) -> Sensitive {
        let Some((top, paths)) = self.tracked.0.get(dir) else {
            return Sensitive::Paths(Vec::new());
        };
        let Some(paths) = paths else {
            return Sensitive::Unknown(top);
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
        Sensitive::Paths(
            paths
                .iter()
                .map(|p| top.join(p))
                .filter(|abs| {
                    let r = paths::resolve(&top, &abs.to_string_lossy(), home);
                    paths::secret(&r, false).is_some()
                        || denies.iter().any(|d| {
                            d.matches(&r.lexical, &self.roots, home)
                                || d.matches(&r.real, &self.roots, home)
                        })
                })
                .collect(),
        )
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
