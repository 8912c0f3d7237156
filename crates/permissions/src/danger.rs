//! The blocklist for `auto` mode: the well-known ways to lose work, publish,
//! upload or run inline code, which ask even when everything else runs.
//!
//! Options are matched the way the programs parse them: short clusters
//! (`-rf`, `-df`) and GNU long-option abbreviations (`rm --rec`, `git reset
//! --har`), so a prefix of a dangerous long option counts as that option.
//! A program that is not on the read-only allowlist may run one of its
//! arguments as a command (an unknown wrapper such as `cargo run --`), so
//! every later word naming a program is checked as a command too.

use wright_shell::readonly;

/// Why `prog` with `args` is dangerous, if it is.
pub(crate) fn program_danger(prog: &str, args: &[&str]) -> Option<String> {
    let short_has = |c: char| {
        args.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    // `--rec` is `--recursive` to getopt_long when it is unambiguous.
    let long_has = |full: &str, min: usize| {
        args.iter().any(|a| {
            a.strip_prefix("--").is_some_and(|l| {
                let name = l.split('=').next().unwrap_or(l);
                name.len() >= min && full.starts_with(name)
            })
        })
    };
    let recursive = short_has('r') || short_has('R') || long_has("recursive", 1);
    match prog {
        "sudo" | "doas" | "su" | "pkexec" | "runuser" => {
            Some("it runs with elevated privileges".into())
        }
        "rm" if recursive || long_has("no-preserve-root", 3) => {
            Some("it deletes recursively".into())
        }
        "git" => git_danger(args),
        "find" if args.iter().any(|a| matches!(*a, "-delete" | "-fdelete")) => {
            Some("`find -delete` deletes files".into())
        }
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish" | "python" | "python3" | "perl"
        | "ruby" | "node" | "php" | "lua"
            if args.iter().all(|a| a.starts_with('-')) =>
        {
            Some(format!(
                "it runs a script read from standard input with {prog}"
            ))
        }
        "perl" | "ruby" | "lua" if short_has('e') || short_has('E') => {
            Some(format!("it runs inline {prog} code"))
        }
        "python" | "python2" | "python3" | "pypy" | "pypy3" if short_has('c') => {
            Some(format!("it runs inline {prog} code"))
        }
        "node" | "bun" | "deno" | "nodejs"
            if short_has('e')
                || short_has('p')
                || long_has("eval", 2)
                || long_has("print", 2)
                || args.first() == Some(&"eval") =>
        {
            Some(format!("it runs inline {prog} code"))
        }
        "php" if short_has('r') => Some("it runs inline php code".into()),
        "osascript" => Some("it runs AppleScript".into()),
        "chmod" | "chown" | "chgrp" if recursive => Some(format!("it runs a recursive {prog}")),
        "dd" | "mkfs" | "shred" | "truncate" | "shutdown" | "reboot" | "halt" | "poweroff"
        | "killall" | "pkill" | "crontab" | "systemctl" | "launchctl" | "wipefs" | "fdisk"
        | "parted" | "mkswap" => Some(format!("`{prog}` can destroy data or affect the system")),
        _ if prog.starts_with("mkfs.") => Some(format!("`{prog}` formats a file system")),
        "kill"
            if args.iter().any(|a| matches!(*a, "-1" | "0" | "-0")) && args.len() > 1
                || args == ["-1"] =>
        {
            Some("it signals every process".into())
        }
        "cp" if args
            .iter()
            .any(|a| *a == "/dev/null" || a.starts_with("/dev/zero")) =>
        {
            Some("it overwrites a file with nothing".into())
        }
        "mv" if args
            .iter()
            .filter(|a| !a.starts_with('-'))
            .any(|a| a.starts_with('/') || a.starts_with('~') || a.starts_with("..")) =>
        {
            Some("it moves files outside the workspace".into())
        }
        "npm" | "pnpm" | "yarn" | "cargo" | "twine" | "gem" | "poetry" | "uv" | "hatch"
        | "flit" | "docker" | "podman" | "gh" | "dotnet" | "mvn" | "gradle" | "helm" => {
            publish_danger(prog, args)
        }
        "curl" => curl_danger(args),
        "wget"
            if long_has("post-data", 3)
                || long_has("post-file", 3)
                || long_has("method", 2)
                || long_has("body-data", 2)
                || long_has("body-file", 2) =>
        {
            Some("it uploads data".into())
        }
        _ => None,
    }
}

/// The danger of a command, also looking through unknown wrappers: when
/// `prog` is not on the read-only allowlist, any later word naming a
/// program is checked as the start of a command it may run.
pub(crate) fn command_danger(prog: &str, args: &[&str]) -> Option<String> {
    if let Some(why) = program_danger(prog, args) {
        return Some(why);
    }
    if readonly::is_listed(prog) {
        return None;
    }
    args.iter().enumerate().find_map(|(i, a)| {
        let name = a.rsplit('/').next().unwrap_or(a);
        if name.is_empty() || a.starts_with('-') {
            return None;
        }
        program_danger(name, &args[i + 1..])
            .map(|why| format!("`{prog}` may run `{name}` and {why}"))
    })
}

fn publish_danger(prog: &str, args: &[&str]) -> Option<String> {
    let ops: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let first = ops.first().copied().unwrap_or_default();
    let second = ops.get(1).copied().unwrap_or_default();
    let publishes = match prog {
        "npm" | "pnpm" => matches!(first, "publish" | "pub" | "unpublish" | "dist-tag"),
        "yarn" => {
            matches!(first, "publish" | "npm") && (first == "publish" || second.starts_with("pub"))
        }
        "cargo" => matches!(first, "publish" | "yank" | "owner"),
        "twine" => matches!(first, "upload" | "register"),
        "gem" => matches!(first, "push" | "yank"),
        "poetry" | "uv" | "hatch" | "flit" => first == "publish",
        "docker" | "podman" => {
            first == "push" || (matches!(first, "image" | "manifest") && second == "push")
        }
        "gh" => {
            matches!(first, "release" | "repo" | "gist")
                && matches!(second, "create" | "upload" | "delete" | "edit")
                || first == "api"
        }
        "dotnet" => first == "nuget" && second == "push",
        "mvn" => ops.contains(&"deploy"),
        "gradle" => ops.iter().any(|o| o.starts_with("publish")),
        "helm" => first == "push",
        _ => false,
    };
    publishes.then(|| format!("`{prog} {first}` publishes or changes something remote"))
}

fn curl_danger(args: &[&str]) -> Option<String> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        i += 1;
        if let Some(long) = a.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            if name.starts_with("data")
                || name == "json"
                || name == "form"
                || name.starts_with("form-")
                || name == "upload-file"
                || name == "post301"
                || name == "post302"
                || name == "post303"
            {
                return Some("it uploads data".into());
            }
            if name == "request" {
                let method = long
                    .split_once('=')
                    .map(|(_, v)| v)
                    .or(args.get(i).copied());
                if !method.is_some_and(|m| matches!(m, "GET" | "HEAD")) {
                    return Some("it sends a request that may change data".into());
                }
            }
            continue;
        }
        if a.len() > 1 && a.starts_with('-') {
            if let Some(at) = a.find('X') {
                let rest = &a[at + 1..];
                let method = if rest.is_empty() {
                    args.get(i).copied()
                } else {
                    Some(rest)
                };
                if !method.is_some_and(|m| matches!(m, "GET" | "HEAD")) {
                    return Some("it sends a request that may change data".into());
                }
            }
            if a.contains(['d', 'F', 'T']) {
                return Some("it uploads data".into());
            }
        }
    }
    None
}

fn git_danger(args: &[&str]) -> Option<String> {
    // Global options first; some take a value (`-C dir`, `-c key=value`).
    let mut i = 0;
    while let Some(a) = args.get(i) {
        match *a {
            "-c" | "--config-env" | "--exec-path" => {
                return Some(format!("`git {a}` can make git run any program"));
            }
            "-C" | "--git-dir" | "--work-tree" | "--namespace" | "--super-prefix" => i += 2,
            s if s.starts_with("--config-env=") || s.starts_with("--exec-path=") => {
                return Some(format!("`git {s}` can make git run any program"));
            }
            s if s.starts_with('-') => i += 1,
            _ => break,
        }
    }
    let sub = *args.get(i)?;
    let rest: Vec<&str> = args.get(i + 1..).unwrap_or_default().to_vec();
    let short = |c: char| {
        rest.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    // git's parse-options accepts unique abbreviations of long options.
    let long = |full: &str, min: usize| {
        rest.iter().any(|a| {
            a.strip_prefix("--").is_some_and(|l| {
                let name = l.split('=').next().unwrap_or(l);
                name.len() >= min && full.starts_with(name)
            })
        })
    };
    let operands = rest.iter().filter(|a| !a.starts_with('-')).count();
    let why = |s: &str| Some(format!("`git {sub}` {s}"));
    match sub {
        "reset" if long("hard", 1) || long("merge", 2) || long("keep", 1) => {
            why("discards changes")
        }
        "clean" => why("deletes untracked files"),
        "push" => why("publishes commits"),
        "restore" if !(long("staged", 2) || short('S')) || long("worktree", 1) || short('W') => {
            why("discards changes in the working tree")
        }
        "checkout"
            if short('f')
                || short('B')
                || short('p')
                || short('m')
                || long("force", 1)
                || long("ours", 2)
                || long("theirs", 2)
                || long("merge", 2)
                || long("patch", 2)
                || long("overlay", 2)
                || long("pathspec-from-file", 2)
                || rest
                    .iter()
                    .any(|a| *a == "--" || *a == "." || a.contains(['*', '?']))
                || operands >= 2 =>
        {
            why("can discard changes")
        }
        "switch" if short('f') || short('C') || long("force", 1) || long("discard-changes", 1) => {
            why("can discard changes")
        }
        "stash" if rest.first().is_some_and(|a| matches!(*a, "drop" | "clear")) => {
            Some("it drops stashed changes".into())
        }
        "branch"
            if short('D')
                || short('M')
                || short('C')
                || ((short('d') || long("delete", 3)) && (short('f') || long("force", 1)))
                || short('f')
                || long("force", 1) =>
        {
            why("force-deletes or overwrites a branch")
        }
        "rm" if !long("cached", 1) => why("deletes files"),
        "update-ref" | "filter-branch" | "filter-repo" | "replace" | "prune" => {
            why("rewrites or deletes history")
        }
        "reflog"
            if rest
                .first()
                .is_some_and(|a| matches!(*a, "expire" | "delete")) =>
        {
            why("deletes history")
        }
        "gc" if rest.iter().any(|a| a.starts_with("--prune")) || long("aggressive", 1) => {
            why("prunes unreachable objects")
        }
        "worktree" if rest.first() == Some(&"remove") || rest.first() == Some(&"prune") => {
            why("deletes a working tree")
        }
        _ => None,
    }
}
