//! The permission engine's view of the guard's shell lexer
//! ([`wright_tools::shell_lex`]), so the guard and the rules can never split
//! a command differently.
//!
//! Rules match what the shell surely runs: the lines of a here-doc body are
//! data here (the guard alone treats them as commands that may feed a
//! shell), but the substitutions of an unquoted body do run and are kept.
//! Every substitution marker becomes [`SUBST`], and redirections are reduced
//! to what they do to a file.

use wright_tools::shell_lex::{self, lex_script, unnumbered};

pub(crate) use wright_tools::shell_lex::{SUBST, Word};

/// What a redirection does with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `<>`, `>& file`: writes the file.
    Write,
    /// `<`: reads the file.
    Read,
    /// `<<`, `<<<`, `>&N`: not a file.
    NotAFile,
}

impl From<shell_lex::RedirectKind> for RedirectKind {
    fn from(kind: shell_lex::RedirectKind) -> Self {
        match kind {
            shell_lex::RedirectKind::Write => Self::Write,
            shell_lex::RedirectKind::Read => Self::Read,
            shell_lex::RedirectKind::Dup
            | shell_lex::RedirectKind::HereDoc
            | shell_lex::RedirectKind::HereString => Self::NotAFile,
        }
    }
}

/// A redirection and its target word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirect {
    pub kind: RedirectKind,
    pub target: Word,
}

/// One simple command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Simple {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// A lexed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions.
    pub nested: Vec<String>,
}

/// Lexes `script` with the guard's lexer.
pub(crate) fn lex(script: &str) -> Lexed {
    let plain = |mut w: Word| {
        w.text = unnumbered(&w.text);
        w
    };
    let lexed = lex_script(script);
    let commands = lexed
        .commands
        .into_iter()
        .filter(|c| !c.speculative)
        .map(|c| Simple {
            words: c.words.into_iter().map(plain).collect(),
            redirects: c
                .redirects
                .into_iter()
                .map(|r| Redirect {
                    kind: r.kind.into(),
                    target: plain(r.target),
                })
                .collect(),
        })
        .collect();
    let nested = lexed
        .nested
        .into_iter()
        .filter(|n| !n.speculative)
        .map(|n| n.script)
        .collect();
    Lexed { commands, nested }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> Vec<Vec<String>> {
        lex(script)
            .commands
            .into_iter()
            .map(|c| c.words.into_iter().map(|w| w.text).collect())
            .collect()
    }

    #[test]
    fn splits_and_unquotes() {
        assert_eq!(
            words("a  'b c'; d && e\\ f || g | h & i\nj"),
            vec![
                vec!["a", "b c"],
                vec!["d"],
                vec!["e f"],
                vec!["g"],
                vec!["h"],
                vec!["i"],
                vec!["j"]
            ]
        );
    }

    #[test]
    fn redirects_and_fd_dups() {
        let l = lex("cmd a > out 2>&1 < in >>log &>all");
        let c = &l.commands[0];
        let kinds: Vec<_> = c
            .redirects
            .iter()
            .map(|r| (r.kind, r.target.text.as_str()))
            .collect();
        assert_eq!(
            kinds,
            vec![
                (RedirectKind::Write, "out"),
                (RedirectKind::NotAFile, "1"),
                (RedirectKind::Read, "in"),
                (RedirectKind::Write, "log"),
                (RedirectKind::Write, "all")
            ]
        );
    }

    #[test]
    fn dynamic_words() {
        let l = lex("$X a \"$Y\" '$Z' $'\\x72m' {a,b}");
        let d: Vec<bool> = l.commands[0].words.iter().map(|w| w.dynamic).collect();
        assert_eq!(d, vec![true, false, true, false, true, true]);
    }

    #[test]
    fn heredoc_bodies_are_data_but_substitutions_run() {
        let l = lex("cat <<EOF\nrm -rf x\n$(touch y)\nEOF\necho done");
        assert_eq!(words("cat <<'EOF'\nrm x\nEOF\nls").len(), 2);
        assert_eq!(l.commands.len(), 2);
        assert_eq!(l.nested, vec!["touch y"]);
    }

    #[test]
    fn unterminated_input_is_fine() {
        for s in [
            "echo \"abc",
            "echo $(abc",
            "echo `abc",
            "echo 'abc",
            "\\",
            "$",
            "cat <<E",
        ] {
            lex(s);
        }
    }
}
