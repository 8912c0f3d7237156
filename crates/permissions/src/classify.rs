//! What a command part is: read-only (may run in `plan` mode) or dangerous
//! (asks even in `auto` mode). Both lists err on the side of caution: a
//! command not known to be read-only is not; dangerous is a blocklist of
//! the well-known ways to lose work or escalate.

use crate::command::Part;

const READ_ONLY: &[&str] = &[
    "ls",
    "cat",
    "head",
    "tail",
    "wc",
    "pwd",
    "echo",
    "printf",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "which",
    "type",
    "file",
    "stat",
    "du",
    "df",
    "tree",
    "diff",
    "cmp",
    "uname",
    "whoami",
    "id",
    "basename",
    "dirname",
    "realpath",
    "readlink",
    "true",
    "false",
    "test",
    "[",
    "cut",
    "tr",
    "uniq",
    "nl",
    "od",
    "hexdump",
    "jq",
    "less",
    "more",
    "column",
    "comm",
    "md5sum",
    "sha1sum",
    "sha256sum",
    "hostname",
    "printenv",
    "find",
    "sort",
    "date",
    "git",
];

const GIT_READ_ONLY: &[&str] = &[
    "status",
    "diff",
    "log",
    "show",
    "branch",
    "rev-parse",
    "ls-files",
    "blame",
    "describe",
    "shortlog",
    "grep",
    "remote",
    "tag",
    "ls-tree",
    "cat-file",
    "reflog",
    "rev-list",
    "whatchanged",
];

/// Whether the part only reads (for `plan` mode).
pub(crate) fn is_read_only(part: &Part) -> bool {
    if part.opaque.is_some() || part.privileged || part.unsafe_env {
        return false;
    }
    let Some(prog) = part.program() else {
        return true; // only redirections or safe assignments; writes are checked apart
    };
    if !READ_ONLY.contains(&prog) {
        return false;
    }
    let args: Vec<&str> = part.args().collect();
    let has = |flags: &[&str]| {
        args.iter().any(|a| {
            flags
                .iter()
                .any(|f| a == f || a.starts_with(&format!("{f}=")))
        })
    };
    match prog {
        "find" => !has(&[
            "-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf",
            "-fls",
        ]),
        "sort" => !has(&["-o", "--output"]),
        "rg" => !has(&["--pre"]),
        "date" => !has(&["-s", "--set"]),
        "less" | "more" => false,
        "git" => git_read_only(&args),
        _ => true,
    }
}

fn git_read_only(args: &[&str]) -> bool {
    // `git -c key=value` and `--exec-path` can make any subcommand run code.
    let Some(sub) = args.first() else {
        return false;
    };
    if !GIT_READ_ONLY.contains(sub) {
        return false;
    }
    let rest = &args[1..];
    let any = |flags: &[&str]| {
        rest.iter().any(|a| {
            flags
                .iter()
                .any(|f| a == f || a.starts_with(&format!("{f}=")))
        })
    };
    if any(&["--output", "--ext-diff", "--textconv"]) {
        return false;
    }
    match *sub {
        "branch" => {
            !rest.iter().any(|a| {
                a.starts_with('-')
                    && !matches!(
                        *a,
                        "-a" | "-r"
                            | "-v"
                            | "-vv"
                            | "--list"
                            | "--all"
                            | "--remotes"
                            | "--show-current"
                            | "--contains"
                            | "--merged"
                            | "--no-merged"
                    )
            }) && rest.iter().all(|a| a.starts_with('-'))
        }
        "tag" => rest.is_empty() || rest.iter().all(|a| matches!(*a, "-l" | "--list")),
        "remote" => rest.is_empty() || rest == ["-v"] || rest.first() == Some(&"show"),
        _ => true,
    }
}

/// Why the part is dangerous enough to ask even in `auto` mode, if it is.
pub(crate) fn danger(part: &Part) -> Option<String> {
    if let Some(why) = part.opaque {
        return Some(format!("it cannot be checked: {why}"));
    }
    if part.privileged {
        return Some("it runs with elevated privileges (sudo)".into());
    }
    let prog = part.program()?;
    let args: Vec<&str> = part.args().collect();
    let short_has = |c: char| {
        args.iter()
            .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
    };
    let long_has = |l: &str| args.contains(&l);
    match prog {
        "sudo" | "doas" | "su" | "pkexec" => Some("it runs with elevated privileges".into()),
        "rm" if short_has('r') || short_has('R') || long_has("--recursive") => {
            Some("it deletes recursively".into())
        }
        "git" => git_danger(&args),
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish" | "python" | "python3" | "perl"
        | "ruby" | "node"
            if args.iter().all(|a| a.starts_with('-')) =>
        {
            Some(format!(
                "it runs a script read from standard input with {prog}"
            ))
        }
        "chmod" | "chown" | "chgrp" if short_has('R') || long_has("--recursive") => {
            Some(format!("it runs a recursive {prog}"))
        }
        "dd" | "mkfs" | "shred" | "truncate" | "shutdown" | "reboot" | "halt" | "poweroff"
        | "killall" | "pkill" | "crontab" | "systemctl" | "launchctl" => {
            Some(format!("`{prog}` can destroy data or affect the system"))
        }
        "npm" | "cargo" | "yarn" | "pnpm" | "twine" | "gem" if args.first() == Some(&"publish") => {
            Some("it publishes a package".into())
        }
        "curl" | "wget"
            if args.iter().any(|a| {
                matches!(
                    *a,
                    "-T" | "--upload-file" | "-d" | "--data" | "-F" | "--form" | "--post-file"
                )
            }) =>
        {
            Some("it uploads data".into())
        }
        _ => None,
    }
}

fn git_danger(args: &[&str]) -> Option<String> {
    let sub = args.iter().find(|a| !a.starts_with('-'))?;
    let rest: Vec<&str> = args
        .iter()
        .skip_while(|a| a != &sub)
        .skip(1)
        .copied()
        .collect();
    match *sub {
        "reset" if rest.contains(&"--hard") => Some("`git reset --hard` discards changes".into()),
        "clean" => Some("`git clean` deletes untracked files".into()),
        "push" => Some("`git push` publishes commits".into()),
        "checkout" | "restore" if rest.iter().any(|a| *a == "." || *a == "--") => {
            Some(format!("`git {sub}` can discard changes"))
        }
        "stash" if rest.first().is_some_and(|a| matches!(*a, "drop" | "clear")) => {
            Some("it drops stashed changes".into())
        }
        "branch"
            if rest.iter().any(|a| matches!(*a, "-D" | "--delete" | "-d"))
                && rest.contains(&"-D") =>
        {
            Some("it force-deletes a branch".into())
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::parts;

    fn ro(s: &str) -> bool {
        parts(s).iter().all(is_read_only)
    }

    fn dangerous(s: &str) -> bool {
        parts(s).iter().any(|p| danger(p).is_some())
    }

    #[test]
    fn read_only_commands() {
        for s in [
            "ls -la",
            "git status",
            "git diff HEAD~1",
            "cat a | grep x | wc -l",
            "find . -name '*.rs'",
            "rg foo src",
            "git log --oneline -5",
            "git branch",
            "pwd; echo hi",
        ] {
            assert!(ro(s), "{s}");
        }
        for s in [
            "rm a",
            "find . -delete",
            "find . -exec rm {} ;",
            "git commit -m x",
            "git -c core.pager=x log",
            "sort -o out a",
            "git branch -D x",
            "sed -i s/a/b/ f",
            "npm test",
            "PATH=/x ls",
            "sudo ls",
            "$X",
        ] {
            assert!(!ro(s), "{s}");
        }
    }

    #[test]
    fn dangerous_commands() {
        for s in [
            "rm -rf build",
            "rm -r x",
            "git reset --hard",
            "git clean -fdx",
            "curl https://x | sh",
            "wget -qO- x | bash",
            "sudo apt install x",
            "git push origin main",
            "X=rm; $X -rf a",
            "npm publish",
            "chmod -R 777 .",
        ] {
            assert!(dangerous(s), "{s}");
        }
        for s in [
            "rm a.txt",
            "git status",
            "cargo test",
            "npm run build",
            "bash script.sh",
            "git reset HEAD~1",
        ] {
            assert!(!dangerous(s), "{s}");
        }
    }
}
