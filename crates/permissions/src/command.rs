//! Normalizing a shell command into the parts that actually run.
//!
//! Every simple command of a script becomes a [`Part`]: chains, pipes,
//! substitutions, `bash -c '…'`, `eval "…"` and `find -exec … ;` are all
//! flattened, and wrappers that only run their arguments (`env VAR=x`,
//! `VAR=x cmd`, `sudo`, `timeout N`, `nice`, `nohup`, `xargs`, `command`,
//! `exec`, `time`, …) are peeled. A rule must allow every part; a deny rule
//! matching any part denies the whole command. Every construct the parser
//! did not fully understand becomes an opaque part, which no rule allows,
//! plan mode refuses and auto mode asks about.

use crate::shell::{Lexed, Redirect, RedirectKind, Simple, Word, lex};
use crate::wrappers::{Effects, ShellRun, Step, peel, shell_run};

const MAX_DEPTH: usize = 8;

/// Variables whose assignment in front of a command cannot change what runs.
const SAFE_ENV: &[&str] = &[
    "CI",
    "NO_COLOR",
    "FORCE_COLOR",
    "CLICOLOR",
    "TERM",
    "LANG",
    "LANGUAGE",
    "TZ",
    "NODE_ENV",
    "RUST_LOG",
    "RUST_BACKTRACE",
    "CARGO_TERM_COLOR",
    "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE",
    "DEBUG",
    "VERBOSE",
    "COLUMNS",
    "LINES",
];

/// One command that will run.
#[derive(Debug, Default, Clone)]
pub(crate) struct Part {
    /// The command after wrappers were peeled.
    pub argv: Vec<Word>,
    /// The command as written, wrappers and assignments included.
    pub raw: Vec<Word>,
    /// Why the part cannot be matched against rules, if it cannot.
    pub opaque: Option<&'static str>,
    /// `sudo`/`doas` was peeled.
    pub privileged: bool,
    /// A variable outside [`SAFE_ENV`] was assigned (`PATH=…`, `GIT_…=…`),
    /// or a wrapper does more than run the command (`time -o F`, `nohup`):
    /// rules then match only the command as written, and it is not read-only.
    pub unsafe_env: bool,
    /// Redirections of this command.
    pub redirects: Vec<Redirect>,
    /// Its arguments are added when it runs (`xargs`, `find -exec … {}`),
    /// so any option may reach it.
    pub fed: bool,
}

impl Part {
    /// The program name, if known.
    pub fn program(&self) -> Option<&str> {
        self.argv.first().map(|w| w.text.as_str())
    }

    /// The arguments after the program name.
    pub fn args(&self) -> impl Iterator<Item = &str> {
        self.argv.iter().skip(1).map(|w| w.text.as_str())
    }

    /// The command as one line, for messages.
    pub fn display(&self) -> String {
        let words = if self.raw.is_empty() {
            &self.argv
        } else {
            &self.raw
        };
        words
            .iter()
            .map(|w| w.text.replace(crate::shell::SUBST, "$(…)"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Every part of `script`.
pub(crate) fn parts(script: &str) -> Vec<Part> {
    let mut out = Vec::new();
    collect(script, 0, &mut out);
    out
}

fn collect(script: &str, depth: usize, out: &mut Vec<Part>) {
    if depth > MAX_DEPTH {
        out.push(Part {
            opaque: Some("it nests commands too deeply to check"),
            ..Part::default()
        });
        return;
    }
    collect_lexed(lex(script), depth, out);
}

fn collect_lexed(lexed: Lexed, depth: usize, out: &mut Vec<Part>) {
    if depth > MAX_DEPTH {
        out.push(Part {
            opaque: Some("it nests commands too deeply to check"),
            ..Part::default()
        });
        return;
    }
    for (why, text) in lexed.unknown {
        out.push(Part {
            opaque: Some(why),
            raw: vec![Word {
                text,
                dynamic: true,
                ..Word::default()
            }],
            ..Part::default()
        });
    }
    for nested in lexed.nested {
        collect_lexed(nested, depth + 1, out);
    }
    for cmd in lexed.commands {
        simple(cmd, depth, false, out);
    }
}

fn is_assignment(word: &Word) -> Option<&str> {
    let (name, _) = word.text.split_once('=')?;
    let ok = !name.is_empty()
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit());
    ok.then_some(name)
}

fn base(word: &Word) -> &str {
    word.text.rsplit('/').next().unwrap_or(&word.text)
}

fn simple(cmd: Simple, depth: usize, fed: bool, out: &mut Vec<Part>) {
    let mut part = Part {
        fed,
        raw: cmd.words.clone(),
        redirects: cmd.redirects,
        ..Part::default()
    };
    let mut w: &[Word] = &cmd.words;
    let mut shell: Option<Vec<Word>> = None;
    while let Some(first) = w.first() {
        if let Some(name) = is_assignment(first) {
            part.unsafe_env |= !SAFE_ENV.contains(&name) && !name.starts_with("LC_");
            w = &w[1..];
            continue;
        }
        if first.dynamic || first.glob {
            break;
        }
        let name = base(first);
        match name {
            "for" | "case" | "select" | "function" | "in" => {
                // Loop headers run nothing themselves; their substitutions
                // were collected already.
                w = &[];
                break;
            }
            "fi" | "done" | "esac" if w.len() == 1 => {
                w = &[];
                break;
            }
            "then" | "do" | "else" | "if" | "elif" | "while" | "until" | "!" | "{" | "}" | "fi"
            | "done" | "esac" => {
                w = &w[1..];
                continue;
            }
            _ => {}
        }
        let mut fx = Effects::default();
        let step = peel(name, w, &mut fx);
        part.privileged |= fx.privileged;
        part.fed |= fx.fed;
        part.unsafe_env |= fx.side_effects;
        for var in &fx.env {
            part.unsafe_env |= !SAFE_ENV.contains(&var.as_str()) && !var.starts_with("LC_");
        }
        match step {
            Step::Command(i) => w = &w[i.min(w.len())..],
            Step::Itself => break,
            Step::Opaque(why) => {
                part.opaque = Some(why);
                break;
            }
            Step::Shell(script) => {
                // The wrapper hands the text to `sh -c`.
                shell = Some(vec![
                    Word {
                        text: "sh".into(),
                        ..Word::default()
                    },
                    Word {
                        text: "-c".into(),
                        ..Word::default()
                    },
                    script,
                ]);
                break;
            }
        }
    }
    part.argv = shell.unwrap_or_else(|| w.to_vec());
    if let Some(first) = part.argv.first()
        && (first.dynamic || first.glob)
    {
        part.opaque = Some("its command name is computed when it runs");
    }
    if part.opaque.is_none() && expand_nested(&mut part, depth, out) {
        return;
    }
    let nothing_runs = part.argv.is_empty() && part.redirects.is_empty() && !part.unsafe_env;
    if part.opaque.is_some() || part.privileged || !nothing_runs {
        out.push(part);
    }
}

/// Replaces shells with `-c`, `eval` and `find -exec` by what they run.
/// Returns true when the part itself was replaced.
fn expand_nested(part: &mut Part, depth: usize, out: &mut Vec<Part>) -> bool {
    let Some(first) = part.argv.first() else {
        return false;
    };
    let name = base(first).to_owned();
    let args = &part.argv[1..];
    match name.as_str() {
        "bash" | "sh" | "zsh" | "dash" | "ksh" | "mksh" | "fish" | "rbash" => {
            if part.fed {
                // `xargs sh -c {}`, `find -exec sh -c {} ;`: input becomes code.
                part.opaque = Some("it runs a shell on arguments from its input");
                return false;
            }
            match shell_run(args) {
                ShellRun::Unknown => {
                    part.opaque = Some("a shell has options the checker does not know");
                    return false;
                }
                ShellRun::File => return false,
                ShellRun::Stdin => {
                    // A here-document or here-string fed to the shell is its script.
                    let bodies: Vec<Word> = part
                        .redirects
                        .iter()
                        .filter(|r| r.kind == RedirectKind::Stdin)
                        .map(|r| r.target.clone())
                        .collect();
                    for body in bodies {
                        if body.dynamic {
                            part.opaque = Some("it feeds a computed script to a shell");
                        } else {
                            collect(&body.text, depth + 1, out);
                        }
                    }
                    return false;
                }
                ShellRun::Inline(script) => {
                    if script.dynamic {
                        part.opaque = Some("its `-c` script is computed when it runs");
                        return false;
                    }
                    let text = script.text.clone();
                    collect(&text, depth + 1, out);
                }
            }
        }
        "eval" => {
            if part.fed || args.iter().any(|a| a.dynamic) {
                part.opaque = Some("`eval` of text computed when it runs");
                return false;
            }
            let text = args
                .iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>()
                .join(" ");
            collect(&text, depth + 1, out);
        }
        "find" => {
            let mut i = 0;
            while i < args.len() {
                if matches!(
                    args[i].text.as_str(),
                    "-exec" | "-execdir" | "-ok" | "-okdir"
                ) {
                    let end = args[i + 1..]
                        .iter()
                        .position(|a| a.text == ";" || a.text == "+")
                        .map_or(args.len(), |p| i + 1 + p);
                    let inner = Simple {
                        words: args[i + 1..end].to_vec(),
                        redirects: Vec::new(),
                    };
                    simple(inner, depth + 1, true, out);
                    i = end;
                }
                i += 1;
            }
            return false;
        }
        _ => return false,
    }
    // The shell or eval itself is gone; keep its redirections checked.
    if !part.redirects.is_empty() || part.unsafe_env || part.privileged {
        out.push(Part {
            argv: Vec::new(),
            ..std::mem::take(part)
        });
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argvs(script: &str) -> Vec<String> {
        parts(script)
            .iter()
            .map(|p| match p.opaque {
                Some(_) => "<opaque>".to_owned(),
                None => p
                    .argv
                    .iter()
                    .map(|w| w.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" "),
            })
            .collect()
    }

    #[test]
    fn peels_wrappers() {
        assert_eq!(
            argvs("sudo -u bob env A=1 timeout -s KILL 5 nice -n 3 nohup git status"),
            vec!["git status"]
        );
        assert_eq!(argvs("X=1 xargs -n 1 rm -f"), vec!["rm -f"]);
        assert_eq!(argvs("command -v ls; time ls"), vec!["command -v ls", "ls"]);
        assert_eq!(argvs("sudo -i"), vec!["sudo -i"]);
    }

    #[test]
    fn flattens_nested_shells() {
        assert_eq!(argvs("bash -c 'a; b | c'"), vec!["a", "b", "c"]);
        assert_eq!(argvs("eval \"x && y\""), vec!["x", "y"]);
        assert_eq!(
            argvs("echo $(rm a) `rm b`"),
            vec!["rm a", "rm b", "echo \u{1} \u{1}"]
        );
        assert_eq!(
            argvs("find . -name x -exec rm {} \\;"),
            vec!["rm {}", "find . -name x -exec rm {} ;"]
        );
        assert_eq!(argvs("for f in a b; do rm $f; done"), vec!["rm $f"]);
        assert_eq!(argvs("bash <<'E'\nrm a\nE"), vec!["rm a", "bash"]);
    }

    #[test]
    fn dynamic_names_are_opaque() {
        assert_eq!(argvs("X=rm; $X -rf a"), vec!["", "<opaque>"]);
        assert_eq!(argvs("echo $((1))"), vec!["<opaque>", "echo $((1))"]);
        assert_eq!(argvs("bash -c \"$CMD\""), vec!["<opaque>"]);
        // tree-sitter-bash does not parse a brace expansion in command
        // position; whatever it makes of it is opaque.
        assert!(argvs("{rm,-rf,a}").iter().all(|a| a == "<opaque>"));
        assert!(parts("PATH=/tmp/x git status")[0].unsafe_env);
        assert!(!parts("RUST_LOG=debug cargo test")[0].unsafe_env);
    }
}
