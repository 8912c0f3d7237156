//! A shell lexer for permission matching: splits a script into simple
//! commands (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses, braces),
//! removes quoting, separates redirections from arguments, skips here-doc
//! bodies, and collects the bodies of `$(…)`, backticks, `<(…)`/`>(…)` so
//! they can be checked as commands of their own.
//!
//! Unlike the guard's lexer it also records what it cannot know statically:
//! a word is *dynamic* when the shell would expand it (`$VAR`, `$(…)`,
//! `$'…'`, brace expansion) and *globbed* when it has unquoted `*?[`. A
//! dynamic command name can be anything, so it never matches an allow rule.

/// Marks where a substitution stood inside a word.
pub(crate) const SUBST: char = '\u{1}';

/// One word with its quoting removed.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Word {
    pub text: String,
    /// The shell expands it (variables, substitutions, ANSI-C quoting, braces).
    pub dynamic: bool,
    /// It has unquoted glob characters.
    pub glob: bool,
    /// Some of it was quoted or escaped.
    pub quoted: bool,
}

/// What a redirection does with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `<>`: writes the file.
    Write,
    /// `<`: reads the file.
    Read,
    /// `<<`, `<<<`, `>&N`: not a file.
    NotAFile,
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

#[derive(Default)]
struct State {
    out: Lexed,
    cur: Simple,
    word: Word,
    in_word: bool,
    redirect_next: Option<RedirectKind>,
    /// Here-doc delimiters waiting for the next newline: (delimiter, quoted, strip tabs).
    heredocs: Vec<(String, bool, bool)>,
    heredoc_next: Option<bool>,
}

impl State {
    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let w = std::mem::take(&mut self.word);
        self.in_word = false;
        if let Some(strip) = self.heredoc_next.take() {
            self.heredocs.push((w.text.clone(), w.quoted, strip));
            self.cur.redirects.push(Redirect {
                kind: RedirectKind::NotAFile,
                target: w,
            });
            self.redirect_next = None;
        } else if let Some(kind) = self.redirect_next.take() {
            self.cur.redirects.push(Redirect { kind, target: w });
        } else {
            self.cur.words.push(w);
        }
    }

    fn end_command(&mut self) {
        self.end_word();
        let cmd = std::mem::take(&mut self.cur);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
            self.out.commands.push(cmd);
        }
        self.redirect_next = None;
    }

    fn push(&mut self, c: char) {
        self.word.text.push(c);
        self.in_word = true;
    }

    fn subst(&mut self, body: String) {
        self.out.nested.push(body);
        self.word.text.push(SUBST);
        self.word.dynamic = true;
        self.in_word = true;
    }
}

/// Lexes `script`.
pub(crate) fn lex(script: &str) -> Lexed {
    let chars: Vec<char> = script.chars().collect();
    let mut st = State::default();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            ' ' | '\t' | '\r' => st.end_word(),
            '\n' => {
                st.end_command();
                i = skip_heredocs(&chars, i + 1, &mut st);
                continue;
            }
            '&' if next == Some('>') => {
                st.end_word();
                i += 1;
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
                st.redirect_next = Some(RedirectKind::Write);
            }
            ';' | '|' | '&' | ')' | '(' => st.end_command(),
            '>' | '<' if next == Some('(') => {
                let (body, end) = balanced(&chars, i + 2);
                st.subst(body);
                i = end;
                continue;
            }
            '>' | '<' => {
                if st.in_word && st.word.text.chars().all(|d| d.is_ascii_digit()) {
                    st.word = Word::default();
                    st.in_word = false;
                } else {
                    st.end_word();
                }
                i = redirect_op(&chars, i, &mut st);
            }
            '\\' => {
                if let Some(n) = next
                    && n != '\n'
                {
                    st.push(n);
                    st.word.quoted = true;
                }
                i += 1;
            }
            '\'' => {
                st.in_word = true;
                st.word.quoted = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    st.word.text.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                st.in_word = true;
                st.word.quoted = true;
                i = double_quoted(&chars, i + 1, &mut st);
            }
            '$' => i = dollar(&chars, i, &mut st),
            '`' => {
                let (body, end) = backticks(&chars, i + 1);
                st.subst(body);
                i = end;
                continue;
            }
            '#' if !st.in_word => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
                continue;
            }
            '{' | '}' if !st.in_word && next.is_none_or(|n| n.is_whitespace() || n == ';') => {
                st.end_command();
            }
            '{' => {
                // Brace expansion (`{rm,-rf,x}`) can build any command.
                let close = chars[i..].iter().position(|&c| c == '}');
                if close.is_some_and(|e| chars[i..i + e].iter().any(|&c| c == ',' || c == '.')) {
                    st.word.dynamic = true;
                }
                st.push(c);
            }
            '*' | '?' | '[' => {
                st.word.glob = true;
                st.push(c);
            }
            _ => st.push(c),
        }
        i += 1;
    }
    st.end_command();
    st.out
}

/// Handles a `>`/`<` operator starting at `i`; returns the index of its last char.
fn redirect_op(chars: &[char], mut i: usize, st: &mut State) -> usize {
    let c = chars[i];
    let next = chars.get(i + 1).copied();
    let kind = match (c, next) {
        ('<', Some('<')) => {
            i += 1;
            if chars.get(i + 1) == Some(&'<') {
                i += 1;
                RedirectKind::NotAFile
            } else {
                let strip = chars.get(i + 1) == Some(&'-');
                if strip {
                    i += 1;
                }
                st.heredoc_next = Some(strip);
                RedirectKind::NotAFile
            }
        }
        ('<', Some('>')) => {
            i += 1;
            RedirectKind::Write
        }
        ('<', Some('&')) => {
            i += 1;
            RedirectKind::NotAFile
        }
        ('<', _) => RedirectKind::Read,
        ('>', Some('>' | '|')) => {
            i += 1;
            RedirectKind::Write
        }
        ('>', Some('&')) => {
            i += 1;
            // `>&2` duplicates a descriptor; `>& file` writes the file.
            let rest: String = chars[i + 1..]
                .iter()
                .skip_while(|c| **c == ' ')
                .take_while(|c| !c.is_whitespace() && !matches!(c, ';' | '&' | '|'))
                .collect();
            if rest == "-" || (!rest.is_empty() && rest.chars().all(|d| d.is_ascii_digit())) {
                RedirectKind::NotAFile
            } else {
                RedirectKind::Write
            }
        }
        _ => RedirectKind::Write,
    };
    st.redirect_next = Some(kind);
    i
}

/// Handles `$` at `i`; returns the index of the last char consumed.
fn dollar(chars: &[char], i: usize, st: &mut State) -> usize {
    match chars.get(i + 1) {
        Some('(') => {
            let (body, end) = balanced(chars, i + 2);
            st.subst(body);
            end - 1
        }
        Some('\'') => {
            // ANSI-C quoting can spell any command (`$'\x72m'`).
            st.word.dynamic = true;
            st.in_word = true;
            let mut j = i + 2;
            while j < chars.len() && chars[j] != '\'' {
                if chars[j] == '\\' {
                    j += 1;
                }
                if let Some(&c) = chars.get(j) {
                    st.word.text.push(c);
                }
                j += 1;
            }
            j
        }
        Some('"') => i, // `$"…"`: the quote is handled next as a plain string
        Some(c) if c.is_ascii_alphanumeric() || "_{@*#?$!-".contains(*c) => {
            st.word.dynamic = true;
            st.push('$');
            i
        }
        _ => {
            st.push('$');
            i
        }
    }
}

/// After a newline: consumes pending here-doc bodies; returns the next index.
fn skip_heredocs(chars: &[char], mut i: usize, st: &mut State) -> usize {
    for (delim, quoted, strip) in std::mem::take(&mut st.heredocs) {
        let mut body = String::new();
        loop {
            if i >= chars.len() {
                break;
            }
            let end = chars[i..]
                .iter()
                .position(|&c| c == '\n')
                .map_or(chars.len(), |p| i + p);
            let line: String = chars[i..end].iter().collect();
            i = (end + 1).min(chars.len().max(end));
            let cmp = if strip {
                line.trim_start_matches('\t')
            } else {
                &line
            };
            if cmp == delim {
                break;
            }
            body.push_str(&line);
            body.push('\n');
        }
        if !quoted {
            // An unquoted here-doc body still runs its substitutions.
            let mut scratch = State::default();
            let bc: Vec<char> = body.chars().collect();
            double_quoted(&bc, 0, &mut scratch);
            st.out.nested.append(&mut scratch.out.nested);
        }
    }
    i
}

/// Reads a double-quoted string starting after the quote; returns the index
/// of the closing quote.
fn double_quoted(chars: &[char], mut i: usize, st: &mut State) -> usize {
    while i < chars.len() {
        match chars[i] {
            '"' => return i,
            '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                if chars[i + 1] != '\n' {
                    st.word.text.push(chars[i + 1]);
                }
                i += 2;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                let (body, end) = balanced(chars, i + 2);
                st.subst(body);
                i = end;
            }
            '$' if chars
                .get(i + 1)
                .is_some_and(|c| c.is_ascii_alphanumeric() || "_{@*#?$!-".contains(*c)) =>
            {
                st.word.dynamic = true;
                st.word.text.push('$');
                i += 1;
            }
            '`' => {
                let (body, end) = backticks(chars, i + 1);
                st.subst(body);
                i = end;
            }
            c => {
                st.word.text.push(c);
                i += 1;
            }
        }
    }
    i
}

/// The text up to the `)` matching an already-consumed `(`, and the index
/// after it. Unterminated input yields the rest of the script.
fn balanced(chars: &[char], start: usize) -> (String, usize) {
    let mut depth = 1;
    let mut i = start;
    let mut quote: Option<char> = None;
    while i < chars.len() {
        let c = chars[i];
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some('"'), '\\') => i += 1,
            (Some(_), _) => {}
            (None, '\\') => i += 1,
            (None, '\'' | '"') => quote = Some(c),
            (None, '(') => depth += 1,
            (None, ')') => {
                depth -= 1;
                if depth == 0 {
                    return (chars[start..i].iter().collect(), i + 1);
                }
            }
            (None, _) => {}
        }
        i += 1;
    }
    let start = start.min(chars.len());
    (chars[start..].iter().collect(), chars.len())
}

fn backticks(chars: &[char], start: usize) -> (String, usize) {
    let mut i = start;
    let mut body = String::new();
    while i < chars.len() {
        match chars[i] {
            '`' => return (body, i + 1),
            '\\' if i + 1 < chars.len() => {
                body.push(chars[i + 1]);
                i += 2;
            }
            c => {
                body.push(c);
                i += 1;
            }
        }
    }
    (body, chars.len())
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
