//! The destructive-command guard: commands refused in every permission mode,
//! before any rule or prompt is consulted.
//!
//! Refused: recursive `rm` of `/`, `~`, `$HOME` or a top-level system
//! directory (and any `rm --no-preserve-root`); fork bombs; `mkfs*`; `dd`,
//! `wipefs`, `shred` and friends on disk devices; redirection onto a disk
//! device; recursive `chmod`/`chown`/`chgrp` of those same roots; and
//! `git push --force`/`-f`/`+refspec` (`--force-with-lease` is allowed).
//! Each is found after `;`, `&&`, `||`, `|`, `&`, in `( … )` and `{ …; }`,
//! behind wrappers (`sudo`, `env`, `xargs`, `timeout`, …), inside
//! `bash -c '…'`, `eval` and `$(…)`/backticks.
//!
//! Quoted text passed as data is not a command: `echo "rm -rf /"` and
//! `grep -r 'rm -rf /' .` are allowed, `bash -c "rm -rf /"` is not.

use crate::guard_lex::{Simple, lex};

const MAX_DEPTH: usize = 8;

/// `Err(reason)` when `command` is destructive enough to refuse outright.
pub fn check_command(command: &str) -> Result<(), String> {
    check(command, 0)
}

fn check(script: &str, depth: usize) -> Result<(), String> {
    if depth > MAX_DEPTH {
        return Err("command nesting is too deep to check".into());
    }
    check_fork_bomb(script)?;
    let lexed = lex(script);
    for nested in &lexed.nested {
        check(nested, depth + 1)?;
    }
    for cmd in &lexed.commands {
        check_simple(cmd, depth)?;
    }
    Ok(())
}

fn check_simple(cmd: &Simple, depth: usize) -> Result<(), String> {
    if let Some(dev) = cmd.redirects.iter().find(|r| is_disk_device(r)) {
        return Err(format!("redirecting output onto disk device {dev}"));
    }
    let argv = strip_wrappers(&cmd.words);
    let Some(first) = argv.first() else {
        return Ok(());
    };
    let name = first.rsplit('/').next().unwrap_or(first);
    let args = &argv[1..];
    match name {
        "rm" => check_rm(args),
        "chmod" | "chown" | "chgrp" => check_recursive_owner(name, args),
        "dd" => match args
            .iter()
            .filter_map(|a| a.strip_prefix("of="))
            .find(|d| is_disk_device(d))
        {
            Some(dev) => Err(format!("dd onto disk device {dev}")),
            None => Ok(()),
        },
        n if n.starts_with("mkfs") => Err(format!("{n} formats a file system")),
        "wipefs" | "mkswap" | "fdisk" | "sfdisk" | "parted" | "shred" | "blkdiscard" => {
            match args.iter().find(|a| is_disk_device(a)) {
                Some(dev) => Err(format!("{name} on disk device {dev}")),
                None => Ok(()),
            }
        }
        "git" => check_git(args),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "fish" => match shell_script(args) {
            Some(script) => check(script, depth + 1),
            None => Ok(()),
        },
        "eval" => check(&args.join(" "), depth + 1),
        _ => Ok(()),
    }
}

/// The words after wrappers that run their arguments as a command.
fn strip_wrappers(words: &[String]) -> &[String] {
    let mut w = words;
    loop {
        let Some(first) = w.first() else {
            return w;
        };
        let name = first.rsplit('/').next().unwrap_or(first);
        let takes_arg: &[&str] = match name {
            _ if is_assignment(first) => {
                w = &w[1..];
                continue;
            }
            "sudo" | "doas" => &["-u", "-g", "-h", "-p", "-C", "-D", "-r", "-t", "-U"],
            "env" => &["-u", "-C", "-S", "--unset", "--chdir"],
            "nice" => &["-n", "--adjustment"],
            "ionice" => &["-c", "-n", "-p"],
            "xargs" => &["-n", "-I", "-L", "-P", "-d", "-E", "-s", "-a", "-i"],
            "timeout" => &["-s", "-k", "--signal", "--kill-after"],
            "stdbuf" => &["-i", "-o", "-e"],
            "command" | "builtin" | "exec" | "nohup" | "time" | "then" | "do" | "else" | "if"
            | "elif" | "while" | "until" | "!" | "setsid" | "unbuffer" => &[],
            _ => return w,
        };
        w = &w[1..];
        while let Some(opt) = w.first() {
            if is_assignment(opt) && name == "env" {
                w = &w[1..];
            } else if opt == "--" {
                w = &w[1..];
                break;
            } else if opt.starts_with('-') && opt.len() > 1 {
                let skip = if takes_arg.contains(&opt.as_str()) {
                    2
                } else {
                    1
                };
                w = &w[skip.min(w.len())..];
            } else {
                break;
            }
        }
        if name == "timeout" && !w.is_empty() {
            w = &w[1..]; // the duration
        }
    }
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// The script of `bash -c SCRIPT` (also `-lc`, `-ec`, …).
fn shell_script(args: &[String]) -> Option<&str> {
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a.starts_with('-') && !a.starts_with("--") && a.contains('c') {
            return it.find(|s| !s.starts_with('-')).map(String::as_str);
        }
        if !a.starts_with('-') && !a.starts_with('+') {
            return None;
        }
    }
    None
}

struct Parsed<'a> {
    short: String,
    long: Vec<&'a str>,
    operands: Vec<&'a str>,
}

fn parse_opts(args: &[String]) -> Parsed<'_> {
    let mut p = Parsed {
        short: String::new(),
        long: Vec::new(),
        operands: Vec::new(),
    };
    let mut rest = false;
    for a in args {
        if rest {
            p.operands.push(a);
        } else if a == "--" {
            rest = true;
        } else if let Some(l) = a.strip_prefix("--") {
            p.long.push(l);
        } else if let Some(s) = a.strip_prefix('-').filter(|s| !s.is_empty()) {
            p.short.push_str(s);
        } else {
            p.operands.push(a);
        }
    }
    p
}

fn check_rm(args: &[String]) -> Result<(), String> {
    let p = parse_opts(args);
    if p.long.contains(&"no-preserve-root") {
        return Err("rm --no-preserve-root".into());
    }
    let recursive = p.short.contains(['r', 'R']) || p.long.contains(&"recursive");
    match p.operands.iter().find(|t| is_critical_path(t)) {
        Some(t) if recursive => Err(format!("recursive rm of {t}")),
        _ => Ok(()),
    }
}

fn check_recursive_owner(name: &str, args: &[String]) -> Result<(), String> {
    let p = parse_opts(args);
    let recursive = p.short.contains('R') || p.long.contains(&"recursive");
    match p.operands.iter().find(|t| is_critical_path(t)) {
        Some(t) if recursive => Err(format!("recursive {name} of {t}")),
        _ => Ok(()),
    }
}

fn check_git(args: &[String]) -> Result<(), String> {
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if matches!(
            a.as_str(),
            "-C" | "-c" | "--git-dir" | "--work-tree" | "--namespace"
        ) {
            i += 2;
        } else if a.starts_with('-') {
            i += 1;
        } else {
            break;
        }
    }
    if args.get(i).map(String::as_str) != Some("push") {
        return Ok(());
    }
    for a in &args[i + 1..] {
        if a == "--" {
            break;
        }
        if a == "--force" {
            return Err("git push --force (use --force-with-lease)".into());
        }
        if !a.starts_with("--") && a.starts_with('-') && a.contains('f') {
            return Err(format!("git push {a} (use --force-with-lease)"));
        }
        if a.starts_with('+') {
            return Err(format!("git push of forced refspec {a}"));
        }
    }
    Ok(())
}

const SYSTEM_DIRS: &[&str] = &[
    "/bin",
    "/boot",
    "/dev",
    "/etc",
    "/home",
    "/lib",
    "/lib32",
    "/lib64",
    "/opt",
    "/proc",
    "/root",
    "/sbin",
    "/srv",
    "/sys",
    "/usr",
    "/var",
    "/Users",
    "/System",
    "/Library",
    "/Applications",
    "/private",
];

/// `/`, the home directory, a top-level system directory, or all their contents.
fn is_critical_path(target: &str) -> bool {
    let mut t = target.to_owned();
    for home in ["${HOME}", "$HOME"] {
        if let Some(rest) = t.strip_prefix(home) {
            t = format!("~{rest}");
        }
    }
    while t.contains("//") {
        t = t.replace("//", "/");
    }
    loop {
        let before = t.len();
        for suffix in ["/*", "/.", "/"] {
            if t.len() > 1
                && let Some(s) = t.strip_suffix(suffix)
            {
                t = s.to_owned();
            }
        }
        if t.len() == before {
            break;
        }
    }
    t.is_empty() || t == "/" || t == "~" || SYSTEM_DIRS.contains(&t.as_str())
}

const DISK_PREFIXES: &[&str] = &[
    "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/",
];

fn is_disk_device(path: &str) -> bool {
    path.strip_prefix("/dev/")
        .is_some_and(|d| DISK_PREFIXES.iter().any(|p| d.starts_with(p)))
}

/// `name(){ … name|name& … }` in any spacing, with any function name.
fn check_fork_bomb(script: &str) -> Result<(), String> {
    let s: String = script.chars().filter(|c| !c.is_whitespace()).collect();
    let mut from = 0;
    while let Some(pos) = s[from..].find("(){") {
        let at = from + pos;
        let name_start = s[..at]
            .rfind([';', '&', '|', '(', ')', '{', '}'])
            .map_or(0, |i| i + 1);
        let name = s[name_start..at].trim_start_matches("function");
        let body = &s[at + 3..];
        if !name.is_empty()
            && (body.contains(&format!("{name}|{name}"))
                || body.contains(&format!("{name}&{name}")))
        {
            return Err("fork bomb".into());
        }
        from = at + 3;
    }
    Ok(())
}

#[cfg(test)]
#[path = "guard_tests.rs"]
mod tests;
