//! The permission engine's view of a parsed script ([`wright_shell::parse`],
//! tree-sitter-bash): the same parse the destructive-command guard uses, so
//! the two can never split a command differently.
//!
//! Rules match what the shell surely runs: a here-document body is data
//! (unless it feeds a shell, which [`crate::command`] handles), but the
//! substitutions inside it do run and are kept. Every substitution marker
//! becomes [`SUBST`], redirections are reduced to what they do to a file,
//! and constructs the parser did not fully understand are kept as unknowns.

pub(crate) use wright_shell::{SUBST, Word};
use wright_shell::{Script, unnumbered};

/// What a redirection does with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `<>`, `>& file`: writes the file.
    Write,
    /// `<`: reads the file.
    Read,
    /// `<<`, `<<<`: the target is text fed to standard input.
    Stdin,
    /// `>&N`, `N>&-`: not a file.
    NotAFile,
}

impl From<wright_shell::RedirectKind> for RedirectKind {
    fn from(kind: wright_shell::RedirectKind) -> Self {
        match kind {
            wright_shell::RedirectKind::Write => Self::Write,
            wright_shell::RedirectKind::Read => Self::Read,
            wright_shell::RedirectKind::HereDoc | wright_shell::RedirectKind::HereString => {
                Self::Stdin
            }
            wright_shell::RedirectKind::Dup => Self::NotAFile,
        }
    }
}

/// A redirection and its target word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Redirect {
    pub kind: RedirectKind,
    pub target: Word,
    /// It empties the file first (`>`, `>|`), unlike `>>`.
    pub truncates: bool,
}

/// One simple command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Simple {
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
}

/// A parsed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions.
    pub nested: Vec<Lexed>,
    /// Constructs not fully understood: (why, text).
    pub unknown: Vec<(&'static str, String)>,
}

/// Parses `script`.
pub(crate) fn lex(script: &str) -> Lexed {
    from_script(wright_shell::parse(script))
}

fn from_script(script: Script) -> Lexed {
    let plain = |mut w: Word| {
        w.text = unnumbered(&w.text);
        w
    };
    Lexed {
        commands: script
            .commands
            .into_iter()
            .map(|c| Simple {
                words: c.words.into_iter().map(plain).collect(),
                redirects: c
                    .redirects
                    .into_iter()
                    .map(|r| Redirect {
                        kind: r.kind.into(),
                        target: plain(r.target),
                        truncates: r.truncates,
                    })
                    .collect(),
            })
            .collect(),
        nested: script
            .substitutions
            .into_iter()
            .map(|s| from_script(s.script))
            .collect(),
        unknown: script
            .unknown
            .into_iter()
            .map(|u| (u.reason, u.text))
            .collect(),
    }
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
        // `$'…'` is decoded now (it is static text), so `$'\x72m'` is `rm`.
        let l = lex("$X a \"$Y\" '$Z' $'\\x72m' {a,b}");
        let d: Vec<bool> = l.commands[0].words.iter().map(|w| w.dynamic).collect();
        assert_eq!(d, vec![true, false, true, false, false, true]);
        assert_eq!(l.commands[0].words[4].text, "rm");
    }

    #[test]
    fn heredoc_bodies_are_data_but_substitutions_run() {
        let l = lex("cat <<EOF\nrm -rf x\n$(touch y)\nEOF\necho done");
        assert_eq!(words("cat <<'EOF'\nrm x\nEOF\nls").len(), 2);
        assert_eq!(l.commands.len(), 2);
        assert_eq!(l.nested.len(), 1);
        assert_eq!(l.nested[0].commands[0].words[0].text, "touch");
    }

    #[test]
    fn unterminated_input_is_unknown() {
        for s in [
            "echo \"abc",
            "echo $(abc",
            "echo `abc",
            "echo 'abc",
            "cat <<E",
        ] {
            assert!(!lex(s).unknown.is_empty(), "{s}");
        }
    }
}
