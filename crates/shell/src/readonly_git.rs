//! `git` in the read-only allowlist: global options, then a subcommand and
//! its options, both from lists. Left out on purpose: `-c`/`--config-env`/
//! `--exec-path`/`--git-dir`/`--work-tree` (config can make any subcommand
//! run programs), `-p`/`--paginate` (a pager), `--output` (writes a file),
//! `--ext-diff`/`--textconv`/`--show-signature` (run configured programs),
//! `git grep -O` (opens a pager) and every writing subcommand.

use super::{Class, Opts, operands, parse_args};

/// Diff output options shared by `diff`, `show`, `log` and friends.
const DIFF_LONG: &[&str] = &[
    "patch",
    "no-patch",
    // Optional values are attached only in git (`-U<n>`, `--unified[=<n>]`).
    "unified?",
    "raw",
    "patch-with-raw",
    "patch-with-stat",
    "stat?",
    "stat-width=",
    "stat-name-width=",
    "stat-count=",
    "stat-graph-width=",
    "compact-summary",
    "numstat",
    "shortstat",
    "dirstat?",
    "cumulative",
    "dirstat-by-file?",
    "summary",
    "name-only",
    "name-status",
    "submodule?",
    "color?",
    "no-color",
    "color-moved?",
    "no-color-moved",
    "color-moved-ws=",
    "word-diff?",
    "word-diff-regex=",
    "color-words?",
    "no-renames",
    "rename-empty",
    "no-rename-empty",
    "check",
    "ws-error-highlight=",
    "full-index",
    "binary",
    "abbrev?",
    "break-rewrites?",
    "find-renames?",
    "find-copies?",
    "find-copies-harder",
    "irreversible-delete",
    "pickaxe-all",
    "pickaxe-regex",
    "find-object=",
    "diff-filter=",
    "skip-to=",
    "rotate-to=",
    "relative?",
    "no-relative",
    "text",
    "ignore-cr-at-eol",
    "ignore-space-at-eol",
    "ignore-space-change",
    "ignore-all-space",
    "ignore-blank-lines",
    "ignore-matching-lines=",
    "inter-hunk-context=",
    "function-context",
    "exit-code",
    "quiet",
    "no-ext-diff",
    "no-textconv",
    "ignore-submodules?",
    "src-prefix=",
    "dst-prefix=",
    "no-prefix",
    "default-prefix",
    "line-prefix=",
    "ita-invisible-in-index",
    "ita-visible-in-index",
    "minimal",
    "patience",
    "histogram",
    "diff-algorithm=",
    "anchored=",
    "indent-heuristic",
    "no-indent-heuristic",
    "cached",
    "staged",
    "merge-base",
    "no-index",
    "output-indicator-new=",
    "output-indicator-old=",
    "output-indicator-context=",
    "null",
];

/// Revision-walking options of `log`, `show`, `shortlog`, `rev-list`, `reflog`.
const LOG_LONG: &[&str] = &[
    "oneline",
    "graph",
    "decorate?",
    "no-decorate",
    "decorate-refs=",
    "decorate-refs-exclude=",
    "all",
    "branches?",
    "tags?",
    "remotes?",
    "glob=",
    "exclude=",
    "max-count=",
    "skip=",
    "since=",
    "after=",
    "until=",
    "before=",
    "author=",
    "committer=",
    "grep=",
    "all-match",
    "invert-grep",
    "regexp-ignore-case",
    "basic-regexp",
    "extended-regexp",
    "fixed-strings",
    "perl-regexp",
    "merges",
    "no-merges",
    "min-parents?",
    "max-parents?",
    "first-parent",
    "reverse",
    "format?",
    "pretty?",
    "abbrev-commit",
    "no-abbrev-commit",
    "date=",
    "relative-date",
    "follow",
    "source",
    "walk-reflogs",
    "left-right",
    "left-only",
    "right-only",
    "cherry-pick",
    "cherry-mark",
    "cherry",
    "boundary",
    "ancestry-path",
    "topo-order",
    "date-order",
    "author-date-order",
    "no-walk?",
    "do-walk",
    "full-history",
    "simplify-by-decoration",
    "simplify-merges",
    "dense",
    "sparse",
    "show-pulls",
    "parents",
    "children",
    "log-size",
    "encoding=",
    "expand-tabs?",
    "no-expand-tabs",
    "notes?",
    "no-notes",
    "show-notes?",
    "mailmap",
    "no-mailmap",
    "use-mailmap",
    "no-use-mailmap",
    "count",
    "objects",
    "objects-edge",
    "no-object-names",
    "timestamp",
    "bisect",
    "stdin",
    "remove-empty",
    "full-diff",
    "combined-all-paths",
    "diff-merges=",
    "no-diff-merges",
    "cc",
    "dd",
    "remerge-diff",
    "show-linear-break?",
    "single-worktree",
    "reflog",
    "ignore-missing",
    "in-commit-order",
    "no-max-parents",
    "no-min-parents",
    "not",
    "date-order",
    "raw",
];

fn sub_opts(sub: &str) -> Option<(Opts, Option<&'static [&'static str]>)> {
    let mk = |short: &'static str,
              short_opt: &'static str,
              short_val: &'static str,
              long: &'static [&'static str]| Opts {
        short,
        short_opt,
        short_val,
        long,
        more_long: &[],
        max_operands: None,
    };
    // Short diff flags (digits: `-1`/`-2`/`-3` stages, `log -5`).
    const DIFF_SHORT: &str = "psuzRaDbwW0123456789";
    // `-U[<n>]`, `-M[<n>]`, `-C[<n>]`, `-B[<n>/<m>]`, `-X[<param>]` take an
    // optional value, attached only: the rest of the word is the value (with
    // them as flags, `-MS x` made `S` take `x`, which git never sees as one).
    const DIFF_OPT: &str = "UMCBX";
    // `-l <n>`, `-S`, `-G`, `-O`, `-I` always take a value.
    const DIFF_VAL: &str = "SGOlI";
    Some(match sub {
        "diff" => (mk(DIFF_SHORT, DIFF_OPT, DIFF_VAL, DIFF_LONG), None),
        "log" | "show" | "whatchanged" | "rev-list" => (
            // `-L <range>` and `-n <n>` take a value too.
            mk(
                "psuzRaDbwWmcrtgiEFP0123456789",
                DIFF_OPT,
                "nLSGOlI",
                DIFF_LONG,
            ),
            Some(LOG_LONG),
        ),
        "shortlog" => (
            mk(
                "nsec",
                // `-w[<w>[,<i1>[,<i2>]]]`: optional, attached values.
                "w",
                "",
                &[
                    "numbered",
                    "summary",
                    "email",
                    "committer",
                    "group=",
                    "format=",
                ],
            ),
            Some(LOG_LONG),
        ),
        "status" => (
            mk(
                "sbvz",
                // `-u[<mode>]` (`-uno`), `-M[<n>]`: optional, attached.
                "uM",
                "",
                &[
                    "short",
                    "branch",
                    "show-stash",
                    "porcelain?",
                    "long",
                    "verbose",
                    "untracked-files?",
                    "ignore-submodules?",
                    "ignored?",
                    "null",
                    "column?",
                    "no-column",
                    "ahead-behind",
                    "no-ahead-behind",
                    "renames",
                    "no-renames",
                    "find-renames?",
                ],
            ),
            None,
        ),
        "rev-parse" | "describe" | "merge-base" | "name-rev" | "show-ref" | "count-objects"
        | "var" | "check-ignore" | "check-attr" | "cherry" | "version" => (ANY, None),
        "ls-files" => (
            mk(
                "cdmoiskuftvz",
                "",
                "xX",
                &[
                    "cached",
                    "deleted",
                    "modified",
                    "others",
                    "ignored",
                    "stage",
                    "killed",
                    "directory",
                    "no-empty-directory",
                    "unmerged",
                    "resolve-undo",
                    "exclude=",
                    "exclude-from=",
                    "exclude-per-directory=",
                    "exclude-standard",
                    "error-unmatch",
                    "with-tree=",
                    "full-name",
                    "recurse-submodules",
                    "abbrev?",
                    "debug",
                    "eol",
                    "deduplicate",
                    "sparse",
                    "format=",
                    "others",
                ],
            ),
            None,
        ),
        "ls-tree" => (
            mk(
                "drtlz",
                "",
                "",
                &[
                    "long",
                    "name-only",
                    "name-status",
                    "object-only",
                    "full-name",
                    "full-tree",
                    "abbrev?",
                    "format=",
                ],
            ),
            None,
        ),
        "cat-file" => (
            mk("tsep", "", "", &["follow-symlinks", "allow-unknown-type"]),
            None,
        ),
        "blame" | "annotate" => (
            mk(
                "lbtfnsewpc",
                // `-M[<score>]`, `-C[<score>]`: optional, attached only.
                "MC",
                "LS",
                &[
                    "root",
                    "show-stats",
                    "porcelain",
                    "line-porcelain",
                    "incremental",
                    "encoding=",
                    "contents=",
                    "date=",
                    "progress",
                    "no-progress",
                    "reverse=",
                    "first-parent",
                    "abbrev?",
                    "show-name",
                    "show-number",
                    "show-email",
                    "ignore-rev=",
                    "ignore-revs-file=",
                    "color-lines",
                    "color-by-age",
                    "minimal",
                ],
            ),
            None,
        ),
        "grep" => (
            mk(
                "aiIwvhHEGFPnlLzocpWqr0123456789",
                "",
                "efABCm",
                &[
                    "cached",
                    "untracked",
                    "no-index",
                    "exclude-standard",
                    "recurse-submodules",
                    "text",
                    "ignore-case",
                    "word-regexp",
                    "invert-match",
                    "full-name",
                    "extended-regexp",
                    "basic-regexp",
                    "fixed-strings",
                    "perl-regexp",
                    "line-number",
                    "column",
                    "files-with-matches",
                    "name-only",
                    "files-without-match",
                    "null",
                    "only-matching",
                    "count",
                    "color?",
                    "no-color",
                    "break",
                    "heading",
                    "show-function",
                    "context=",
                    "after-context=",
                    "before-context=",
                    "function-context",
                    "max-count=",
                    "threads=",
                    "and",
                    "or",
                    "not",
                    "all-match",
                    "quiet",
                    "max-depth=",
                    "recursive",
                    "no-recursive",
                    "no-textconv",
                ],
            ),
            None,
        ),
        _ => return None,
    })
}

/// Subcommands whose options cannot write or run anything.
const ANY: Opts = Opts {
    short: "",
    short_opt: "",
    short_val: "",
    long: &[],
    more_long: &[],
    max_operands: None,
};

/// Classifies `git ARGS`.
pub(super) fn classify(args: &[&str]) -> Class {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-C" => i += 2,
            "--no-pager"
            | "-P"
            | "--no-optional-locks"
            | "--literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs"
            | "--no-replace-objects" => i += 1,
            "--version" | "--help" if args.len() == 1 => return Class::ReadOnly,
            s if s.starts_with('-') => {
                return Class::NotReadOnly(format!(
                    "`git {s}` can make git run programs or write elsewhere"
                ));
            }
            _ => break,
        }
    }
    let Some(&sub) = args.get(i) else {
        return Class::Unlisted;
    };
    let rest = &args[i + 1..];
    match sub {
        "branch" => return branch(rest),
        "tag" => return tag(rest),
        "remote" => {
            return match rest {
                [] | ["-v" | "--verbose"] | ["show" | "get-url", _] => Class::ReadOnly,
                _ => Class::NotReadOnly("`git remote` changes remotes".into()),
            };
        }
        "stash" => {
            return match rest.first() {
                Some(&"list") => log_like("log", &rest[1..]),
                Some(&"show") => log_like("diff", &rest[1..]),
                _ => Class::NotReadOnly("`git stash` changes the stash".into()),
            };
        }
        "reflog" => {
            return match rest.first() {
                None => Class::ReadOnly,
                Some(&"show") => log_like("log", &rest[1..]),
                Some(a) if a.starts_with('-') => log_like("log", rest),
                _ => Class::NotReadOnly("`git reflog` subcommand may write".into()),
            };
        }
        "config" => return config(rest),
        "worktree" => {
            return match rest {
                ["list", more @ ..]
                    if more
                        .iter()
                        .all(|a| matches!(*a, "--porcelain" | "-v" | "-z")) =>
                {
                    Class::ReadOnly
                }
                _ => Class::NotReadOnly("`git worktree` changes worktrees".into()),
            };
        }
        _ => {}
    }
    log_like(sub, rest)
}

fn log_like(sub: &str, rest: &[&str]) -> Class {
    let Some((opts, extra)) = sub_opts(sub) else {
        return Class::Unlisted;
    };
    if opts.short.is_empty() && opts.long.is_empty() {
        // `rev-parse` and friends only print.
        return Class::ReadOnly;
    }
    let merged = Opts {
        more_long: extra.unwrap_or_default(),
        ..opts
    };
    match operands(&merged, rest) {
        Ok(_) => Class::ReadOnly,
        Err(e) => Class::NotReadOnly(format!("git {sub}: {e}")),
    }
}

fn branch(rest: &[&str]) -> Class {
    let opts = Opts {
        short: "arvl",
        short_opt: "",
        short_val: "",
        long: &[
            "list",
            "all",
            "remotes",
            "verbose",
            "show-current",
            "contains?",
            "no-contains?",
            "merged?",
            "no-merged?",
            "points-at=",
            "sort=",
            "format=",
            "column?",
            "no-column",
            "color?",
            "no-color",
            "abbrev?",
            "no-abbrev",
            "ignore-case",
            "omit-empty",
        ],
        more_long: &[],
        max_operands: None,
    };
    match parse_args(&opts, rest) {
        Ok((ops, seen))
            if ops.is_empty()
                || seen.iter().any(|o| {
                    matches!(
                        o.as_str(),
                        "-l" | "--list"
                            | "--contains"
                            | "--no-contains"
                            | "--merged"
                            | "--no-merged"
                            | "--points-at"
                    )
                }) =>
        {
            Class::ReadOnly
        }
        Ok(_) => Class::NotReadOnly("`git branch NAME` creates a branch".into()),
        Err(e) => Class::NotReadOnly(format!("git branch: {e}")),
    }
}

fn tag(rest: &[&str]) -> Class {
    let opts = Opts {
        short: "l0123456789n",
        short_opt: "",
        short_val: "",
        long: &[
            "list",
            "sort=",
            "contains?",
            "no-contains?",
            "merged?",
            "no-merged?",
            "points-at=",
            "format=",
            "column?",
            "no-column",
            "color?",
            "ignore-case",
            "omit-empty",
        ],
        more_long: &[],
        max_operands: None,
    };
    match parse_args(&opts, rest) {
        Ok((ops, seen))
            if ops.is_empty()
                || seen
                    .iter()
                    .any(|o| matches!(o.as_str(), "-l" | "--list" | "-n")) =>
        {
            Class::ReadOnly
        }
        Ok(_) => Class::NotReadOnly("`git tag NAME` creates a tag".into()),
        Err(e) => Class::NotReadOnly(format!("git tag: {e}")),
    }
}

fn config(rest: &[&str]) -> Class {
    let opts = Opts {
        short: "lz",
        short_opt: "",
        short_val: "",
        long: &[
            "get",
            "get-all",
            "get-regexp",
            "get-urlmatch",
            "list",
            "global",
            "system",
            "local",
            "worktree",
            "file=",
            "blob=",
            "show-origin",
            "show-scope",
            "name-only",
            "null",
            "includes",
            "no-includes",
            "type=",
            "default=",
            "bool",
            "int",
            "path",
            "expiry-date",
            "all",
            "regexp",
            "value=",
            "fixed-value",
        ],
        more_long: &[],
        max_operands: None,
    };
    // Reading is decided from the options git parses, so a value swallowed
    // by `--file` (`--file --get x.y z`) does not count as `--get`.
    match parse_args(&opts, rest) {
        Ok((ops, seen))
            if seen.iter().any(|o| {
                matches!(
                    o.as_str(),
                    "--get" | "--get-all" | "--get-regexp" | "--list" | "-l" | "--get-urlmatch"
                )
            }) || matches!(ops.first(), Some(&"get" | &"list"))
                && rest.first() == ops.first() =>
        {
            Class::ReadOnly
        }
        Ok(_) => Class::NotReadOnly("`git config` may change configuration".into()),
        Err(e) => Class::NotReadOnly(format!("git config: {e}")),
    }
}
