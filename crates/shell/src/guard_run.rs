//! What one simple command really runs, for the guard: wrappers are peeled
//! with the permission engine's own option tables
//! ([`crate::wrappers`]), so the two can never disagree on where the
//! wrapped command starts. Where that is not known — an opaque wrapper, a
//! wrapper option computed at run time, or a program that may run its
//! arguments (`cargo run -- …`, `npx …`) — the guard fails closed: every
//! suffix of the words that starts with a command it cares about is checked
//! as a command, and every argument with spaces as a script.

use super::*;
use crate::Word;
use crate::wrappers::{Effects, ShellRun, Step, is_wrapper, peel, shell_run};

/// Programs whose arguments are text they print or search, never a command
/// they run: their suffixes are not scanned (`echo rm -rf /` is harmless).
const DATA: &[&str] = &[
    "echo", "printf", "grep", "egrep", "fgrep", "rg", "ag", "man", "which", "type", "whatis",
    "apropos", "help", "cd", "pushd", "popd", "export", "declare", "typeset", "local", "readonly",
    "unset", "alias", "test", "[",
];

/// `git` subcommands/options that run a command given in their arguments.
const GIT_RUNS: &[&str] = &["run", "exec", "--exec", "-x", "foreach"];

/// Words that make a suffix worth checking as a command of its own.
fn notable(word: &str) -> bool {
    let name = base_name(word);
    is_wrapper(name)
        || formats(name)
        || matches!(
            name,
            "rm" | "mv"
                | "rsync"
                | "setfacl"
                | "ln"
                | "chmod"
                | "chown"
                | "chgrp"
                | "find"
                | "dd"
                | "wipefs"
                | "mkswap"
                | "fdisk"
                | "sfdisk"
                | "parted"
                | "shred"
                | "blkdiscard"
                | "git"
                | "bash"
                | "sh"
                | "zsh"
                | "dash"
                | "ksh"
                | "mksh"
                | "fish"
                | "eval"
        )
}

/// The words with leading assignments and compound-command keywords gone.
fn skip_prefix(words: &[String]) -> &[String] {
    let n = words
        .iter()
        .take_while(|w| is_assignment(w) || KEYWORDS.contains(&w.as_str()))
        .count();
    &words[n..]
}

/// The guard's strings as parser words: anything with `$` or a substitution
/// is computed when it runs, unquoted glob characters may become other words.
pub(super) fn typed(words: &[String]) -> Vec<Word> {
    words
        .iter()
        .map(|w| {
            let dynamic = w.contains('$') || has_marker(w);
            Word {
                text: w.clone(),
                dynamic,
                glob: w.contains(['*', '?', '[']),
                quoted: false,
                split: dynamic,
            }
        })
        .collect()
}

/// The command behind any wrappers the shared peeler understands exactly,
/// and whether one of them (`xargs`) adds its input as arguments.
pub(super) fn unwrap(words: &[String]) -> (&[String], bool) {
    let mut w = skip_prefix(words);
    let mut fed = false;
    // Each step drops at least the wrapper's name, so this ends.
    while let Some(first) = w.first() {
        let name = base_name(first);
        if !is_wrapper(name) {
            break;
        }
        let mut fx = Effects::default();
        match peel(name, &typed(w), &mut fx) {
            Step::Command(i) if i > 0 => {
                fed |= fx.fed;
                w = skip_prefix(&w[i.min(w.len())..]);
            }
            _ => break,
        }
    }
    (w, fed)
}

/// Texts inside `word` a wrapper may run as a script: the word itself when
/// it has spaces, and what follows an option letter or `=` in it
/// (`-S'rm -rf /'`, `--command=…`). Option letters end at the first
/// whitespace: past it the text is the script itself, whose whole is
/// already a candidate (taking every later tail too made a long word cost
/// time quadratic in its length).
fn scripts_in(word: &str) -> Vec<&str> {
    let mut out = Vec::new();
    if word.contains(char::is_whitespace) {
        out.push(word);
    }
    if let Some((_, v)) = word.split_once('=')
        && v.contains(char::is_whitespace)
    {
        out.push(v);
    }
    if word.starts_with('-') && !word.starts_with("--") {
        for (i, c) in word.char_indices().skip(2) {
            let tail = &word[i..];
            if tail.contains(char::is_whitespace) {
                out.push(tail);
            }
            if c.is_whitespace() {
                break;
            }
        }
    }
    out
}

impl Guard {
    /// Checks the command `words` runs: the program itself, what the wrappers
    /// in front of it run, and, failing closed where that is not known,
    /// every suffix and spaced argument. `scan` is false when an enclosing
    /// call already scans these words' suffixes.
    pub(super) fn check_run(
        &mut self,
        words: &[String],
        io: Io<'_>,
        ctx: &mut Ctx,
        depth: usize,
        scan: bool,
    ) -> Result<(), String> {
        let words = skip_prefix(words);
        let Some(first) = words.first() else {
            return Ok(());
        };
        let name = base_name(first);
        if !is_wrapper(name) {
            let data = DATA.contains(&name)
                || (name == "git" && !words.iter().any(|w| GIT_RUNS.contains(&w.as_str())));
            if scan && !data {
                self.check_suffixes(words, ctx, depth)?;
            }
            return self.check_argv(words, io, ctx, depth);
        }
        let mut fx = Effects::default();
        match peel(name, &typed(words), &mut fx) {
            Step::Command(i) => {
                let rest = &words[i.clamp(1, words.len())..];
                if fx.fed {
                    // Unknown input adds arguments the guard cannot know.
                    let unknown = [UNKNOWN_INPUT.to_owned()];
                    let input = io.stdin.unwrap_or(&unknown);
                    for text in input {
                        let mut full = rest.to_vec();
                        full.extend(text.split_whitespace().map(str::to_owned));
                        self.check_run(&full, Io::default(), ctx, depth, scan)?;
                    }
                }
                self.check_run(rest, io, ctx, depth, scan)
            }
            Step::Itself => Ok(()),
            Step::Shell(script) => self.check(&script.text, &mut ctx.clone(), depth + 1),
            Step::Opaque(_) => {
                self.check_opaque(&words[1..], ctx, depth)?;
                if scan {
                    self.check_suffixes(words, ctx, depth)?;
                }
                Ok(())
            }
        }
    }

    /// Every suffix after the first word that starts with a notable command.
    fn check_suffixes(
        &mut self,
        words: &[String],
        ctx: &mut Ctx,
        depth: usize,
    ) -> Result<(), String> {
        for k in 1..words.len() {
            if notable(&words[k]) {
                self.check_run(&words[k..], Io::default(), ctx, depth, false)?;
            }
        }
        Ok(())
    }

    /// Arguments of a program that may run them in ways not modelled: each
    /// text that could be a script is checked as one.
    fn check_opaque(&mut self, args: &[String], ctx: &Ctx, depth: usize) -> Result<(), String> {
        for a in args {
            for script in scripts_in(a) {
                self.check(script, &mut ctx.clone(), depth + 1)?;
            }
        }
        Ok(())
    }

    /// `bash`/`sh`/… and their arguments `args`: the `-c` script, or the
    /// script read from standard input.
    pub(super) fn check_shell(
        &mut self,
        args: &[String],
        io: Io<'_>,
        ctx: &Ctx,
        depth: usize,
    ) -> Result<(), String> {
        let typed_args = typed(args);
        match shell_run(&typed_args) {
            ShellRun::Inline(script) => {
                self.check(&script.text, &mut ctx.clone(), depth + 1)?;
            }
            ShellRun::Unknown => self.check_opaque(args, ctx, depth)?,
            ShellRun::File | ShellRun::Stdin => {}
        }
        // The guard's own reading too: the stricter of the two wins.
        if let Some(script) = shell_script(args) {
            self.check(script, &mut ctx.clone(), depth + 1)?;
        }
        if reads_stdin(args) {
            let stdin = io.stdin.unwrap_or_default();
            for script in stdin.iter().chain(io.herestrings) {
                self.check(script, &mut ctx.clone(), depth + 1)?;
            }
        }
        Ok(())
    }
}
