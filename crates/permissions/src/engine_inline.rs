//! Inline interpreter code under a command deny rule.
//!
//! `--deny 'Bash(curl:*)'` denies every part that runs `curl`, however it
//! is wrapped; but `python3 -c "import os; os.system('curl …')"` runs curl
//! from code the parser cannot follow. So while a deny rule names a
//! program, a part that runs inline interpreter code (`python -c`,
//! `node -e`, `perl -e`, `ruby -e`, `php -r`, an awk program, an
//! interpreter reading its script from standard input or a here-document)
//! asks, and is denied when the code names a denied program outright.
//! `bash -c "$X"` and `eval "$X"` are opaque parts, which ask already.

use super::{Cmd, Engine};
use crate::command::Part;
use crate::shell::RedirectKind;

/// What to do with a part that runs inline code.
pub(super) enum Inline {
    /// The code names a denied program.
    Deny(String),
    /// The code may run anything.
    Ask(String),
}

/// Interpreters and the options that take their inline code.
const INTERPRETERS: &[(&str, &[&str])] = &[
    ("python", &["-c"]),
    ("node", &["-e", "--eval", "-p", "--print"]),
    ("nodejs", &["-e", "--eval", "-p", "--print"]),
    ("deno", &["eval"]),
    ("bun", &["-e", "--eval", "-p", "--print"]),
    ("perl", &["-e", "-E"]),
    ("ruby", &["-e"]),
    ("php", &["-r"]),
    ("lua", &["-e"]),
    ("Rscript", &["-e"]),
    ("osascript", &["-e"]),
    ("pwsh", &["-c", "-Command"]),
    ("tclsh", &[]),
];

impl Engine {
    /// The programs deny rules name (`*` for a rule that names any).
    pub(super) fn denied_programs(rules: &[crate::Rule]) -> Vec<String> {
        rules
            .iter()
            .filter(|r| r.covers_tool("bash"))
            .filter_map(|r| match r.spec() {
                Some(crate::rule::Spec::Command(pat)) => Some(
                    pat.literal_words()
                        .first()
                        .map_or("*", |w| w.rsplit('/').next().unwrap_or(w))
                        .to_owned(),
                ),
                _ => None,
            })
            .collect()
    }

    /// The first part of `c` that runs inline code while a deny rule names
    /// a program.
    pub(super) fn inline_code(&self, c: &Cmd) -> Option<Inline> {
        if self.denied_programs.is_empty() {
            return None;
        }
        c.parts.iter().find_map(|p| {
            let (lang, code) = inline_of(p)?;
            let shown = p.display();
            let named = code.as_deref().and_then(|code| {
                self.denied_programs
                    .iter()
                    .find(|prog| *prog != "*" && names_word(code, prog))
            });
            Some(match named {
                Some(prog) => Inline::Deny(format!(
                    "`{shown}` runs {lang} code that names `{prog}`, which a deny rule forbids"
                )),
                None => Inline::Ask(format!(
                    "`{shown}` runs {lang} code, which can run programs the deny rules forbid"
                )),
            })
        })
    }
}

/// The language and, when known, the text of the inline code `p` runs.
fn inline_of(p: &Part) -> Option<(&'static str, Option<String>)> {
    let prog = p.argv.first()?;
    let name = prog.text.rsplit('/').next().unwrap_or(&prog.text);
    let is = |base: &str| {
        name == base
            || name
                .strip_prefix(base)
                .is_some_and(|v| v.chars().all(|c| c.is_ascii_digit() || c == '.'))
    };
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk" | "busybox-awk") {
        // The program is the first operand unless `-f FILE` names it.
        let args: Vec<_> = p.argv[1..].iter().collect();
        if args
            .iter()
            .any(|a| a.text == "-f" || a.text.starts_with("--file"))
        {
            return None;
        }
        let code = args.iter().find(|a| !a.text.starts_with('-'));
        return Some(("awk", code.filter(|w| !w.dynamic).map(|w| w.text.clone())));
    }
    let (lang, opts) = INTERPRETERS.iter().find(|(base, _)| is(base))?;
    let args = &p.argv[1..];
    for (i, a) in args.iter().enumerate() {
        let t = a.text.as_str();
        if matches!(t, "--version" | "-V" | "--help" | "-h") {
            return None;
        }
        if opts.contains(&t) {
            let code = args
                .get(i + 1)
                .filter(|w| !w.dynamic)
                .map(|w| w.text.clone());
            return Some((lang, code));
        }
        // `-cCODE`, `-e'…'`: the code glued to a short option.
        if let Some(glued) = opts
            .iter()
            .filter(|o| o.len() == 2)
            .find_map(|o| t.strip_prefix(*o).filter(|rest| !rest.is_empty()))
        {
            return Some((lang, (!a.dynamic).then(|| glued.to_owned())));
        }
        if t == "-" {
            return Some((lang, stdin_code(p)));
        }
        if !t.starts_with('-') {
            // A script file: not inline code.
            return None;
        }
    }
    // No script named: the interpreter reads its code from standard input
    // (a here-document, a pipe, the terminal).
    Some((lang, stdin_code(p)))
}

/// The here-document or here-string fed to `p`, when it is literal text.
fn stdin_code(p: &Part) -> Option<String> {
    let bodies: Vec<_> = p
        .redirects
        .iter()
        .filter(|r| r.kind == RedirectKind::Stdin)
        .collect();
    match bodies.as_slice() {
        [one] if !one.target.dynamic => Some(one.target.text.clone()),
        _ => None,
    }
}

/// Whether `code` contains `word` with no name character on either side.
fn names_word(code: &str, word: &str) -> bool {
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    code.match_indices(word).any(|(at, _)| {
        let before = code[..at].chars().next_back();
        let after = code[at + word.len()..].chars().next();
        !before.is_some_and(is_name) && !after.is_some_and(is_name)
    })
}
