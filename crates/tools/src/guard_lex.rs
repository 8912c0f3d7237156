//! A small shell lexer for the guard: splits a script into simple commands
//! (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses and braces), removes
//! quoting (including `$'…'`), separates redirection targets and here-strings
//! from arguments, and collects the bodies of `$(…)`, backticks and `<(…)` so
//! they can be checked too. Each command records the operator that ended it
//! and how deep in `( … )`/`{ … }` groups it stands. Here-doc bodies are
//! lexed on their own, as commands one level deeper: they may feed a shell.
//!
//! It is not a full shell parser; it errs toward seeing more commands, which
//! can only make the guard stricter.

/// What ended a simple command.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Sep {
    /// `;`, a newline or the end of the script.
    #[default]
    End,
    /// `&&`.
    And,
    /// `||`.
    Or,
    /// `|` or `|&`.
    Pipe,
    /// `&`.
    Background,
    /// `(`, `)`, `{` or `}`.
    Group,
}

/// One simple command: its words (quotes removed) and redirection targets.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Simple {
    pub words: Vec<String>,
    pub redirects: Vec<String>,
    /// The words after `<<<`.
    pub herestrings: Vec<String>,
    /// The operator after the command.
    pub sep: Sep,
    /// How many `( … )` subshells and `{ … }` groups enclose it.
    pub depth: usize,
}

/// A lexed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions. The `n`th stands in
    /// its word as [`marker`]`(n)`.
    pub nested: Vec<String>,
}

/// Marks a substitution too far down the list to number.
const SUBST: char = '\u{1}';
/// Substitution `n` is marked by the private-use character `MARK_BASE + n`.
const MARK_BASE: u32 = 0xF_0000;
const MARK_COUNT: u32 = 0xFFFE;

/// The character that stands for substitution `n` inside a word.
pub(crate) fn marker(n: usize) -> char {
    u32::try_from(n)
        .ok()
        .filter(|&n| n < MARK_COUNT)
        .and_then(|n| char::from_u32(MARK_BASE + n))
        .unwrap_or(SUBST)
}

/// Which substitution `c` stands for, if it is a numbered marker.
pub(crate) fn marker_index(c: char) -> Option<usize> {
    let n = u32::from(c).checked_sub(MARK_BASE)?;
    (n < MARK_COUNT).then_some(n as usize)
}

/// Whether `word` holds a substitution the lexer took out.
pub(crate) fn has_marker(word: &str) -> bool {
    word.chars()
        .any(|c| c == SUBST || marker_index(c).is_some())
}

#[derive(Default)]
struct State {
    out: Lexed,
    cur: Simple,
    word: String,
    in_word: bool,
    redirect_next: bool,
    herestring_next: bool,
    /// After `<<`/`<<-`: the next word is a here-doc delimiter (strip tabs?).
    heredoc_next: Option<bool>,
    /// Here-doc delimiters waiting for the next newline, with strip-tabs.
    heredocs: Vec<(String, bool)>,
    depth: usize,
}

impl State {
    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let w = std::mem::take(&mut self.word);
        if let Some(strip) = self.heredoc_next.take() {
            self.heredocs.push((w.clone(), strip));
        }
        if self.herestring_next {
            self.cur.herestrings.push(w);
        } else if self.redirect_next {
            self.cur.redirects.push(w);
        } else {
            self.cur.words.push(w);
        }
        self.redirect_next = false;
        self.herestring_next = false;
        self.in_word = false;
    }

    fn end_command(&mut self, sep: Sep) {
        self.end_word();
        let mut cmd = std::mem::take(&mut self.cur);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() || !cmd.herestrings.is_empty() {
            cmd.sep = sep;
            cmd.depth = self.depth;
            self.out.commands.push(cmd);
        } else if matches!(sep, Sep::And | Sep::Or | Sep::Pipe | Sep::Background)
            && let Some(last) = self.out.commands.last_mut()
        {
            // `( a ) | b`, `{ a; } && b`: the operator after a group.
            last.sep = sep;
        }
        self.redirect_next = false;
        self.herestring_next = false;
        self.heredoc_next = None;
    }

    fn push(&mut self, c: char) {
        self.word.push(c);
        self.in_word = true;
    }

    fn subst(&mut self, body: String) {
        let m = marker(self.out.nested.len());
        self.out.nested.push(body);
        self.push(m);
    }

    /// After a newline: reads the pending here-doc bodies starting at `i`
    /// and returns the index after them. A body is lexed as commands of its
    /// own (it may feed a shell), one level deeper, since it may be data.
    fn heredoc_bodies(&mut self, chars: &[char], mut i: usize) -> usize {
        for (delim, strip) in std::mem::take(&mut self.heredocs) {
            let mut body = String::new();
            while i < chars.len() {
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(chars.len(), |p| i + p);
                let line: String = chars[i..end].iter().collect();
                i = (end + 1).min(chars.len());
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
            let inner = lex(&body);
            let offset = self.out.nested.len();
            for mut cmd in inner.commands {
                for w in cmd
                    .words
                    .iter_mut()
                    .chain(&mut cmd.redirects)
                    .chain(&mut cmd.herestrings)
                {
                    if has_marker(w) {
                        *w = w
                            .chars()
                            .map(|c| marker_index(c).map_or(c, |n| marker(n + offset)))
                            .collect();
                    }
                }
                cmd.depth += self.depth + 1;
                self.out.commands.push(cmd);
            }
            self.out.nested.extend(inner.nested);
        }
        i
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
            '&' if next == Some('>') => {
                st.end_word();
                st.redirect_next = true;
                i += 1;
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
            }
            '&' if next == Some('&') => {
                st.end_command(Sep::And);
                i += 1;
            }
            '|' if next == Some('|') => {
                st.end_command(Sep::Or);
                i += 1;
            }
            '|' => {
                st.end_command(Sep::Pipe);
                if next == Some('&') {
                    i += 1;
                }
            }
            '&' => st.end_command(Sep::Background),
            '\n' => {
                st.end_command(Sep::End);
                if !st.heredocs.is_empty() {
                    i = st.heredoc_bodies(&chars, i + 1);
                    continue;
                }
            }
            ';' => st.end_command(Sep::End),
            '(' => {
                st.end_command(Sep::Group);
                st.depth += 1;
            }
            ')' => {
                st.end_command(Sep::Group);
                st.depth = st.depth.saturating_sub(1);
            }
            '>' | '<' => {
                if next == Some('(') {
                    let (body, end) = balanced(&chars, i + 2);
                    st.subst(body);
                    i = end;
                    continue;
                }
                if st.in_word && st.word.chars().all(|d| d.is_ascii_digit()) {
                    st.word.clear();
                    st.in_word = false;
                } else {
                    st.end_word();
                }
                let herestring = c == '<' && next == Some('<') && chars.get(i + 2) == Some(&'<');
                let heredoc = c == '<' && next == Some('<') && !herestring;
                while matches!(chars.get(i + 1), Some('>' | '<' | '&' | '|')) {
                    i += 1;
                }
                st.redirect_next = true;
                st.herestring_next = herestring;
                if heredoc {
                    let strip = chars.get(i + 1) == Some(&'-');
                    if strip {
                        i += 1;
                    }
                    st.heredoc_next = Some(strip);
                }
            }
            '\\' => {
                if let Some(n) = next
                    && n != '\n'
                {
                    st.push(n);
                }
                i += 1;
            }
            '\'' => {
                st.in_word = true;
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    st.word.push(chars[i]);
                    i += 1;
                }
            }
            '"' => {
                st.in_word = true;
                i = double_quoted(&chars, i + 1, &mut st);
            }
            '$' if next == Some('(') => {
                let (body, end) = balanced(&chars, i + 2);
                st.subst(body);
                i = end;
                continue;
            }
            '$' if next == Some('\'') => {
                // ANSI-C quoting: `$'\x72m'` is `rm`.
                let mut raw = String::new();
                i += 2;
                while i < chars.len() && chars[i] != '\'' {
                    if chars[i] == '\\'
                        && let Some(&n) = chars.get(i + 1)
                    {
                        raw.push('\\');
                        raw.push(n);
                        i += 2;
                        continue;
                    }
                    raw.push(chars[i]);
                    i += 1;
                }
                let (text, _) = unescape(&raw, Escapes::Ansi);
                st.word.push_str(&text);
                st.in_word = true;
            }
            '$' if next == Some('"') => st.in_word = true,
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
            '{' if !st.in_word && next.is_none_or(char::is_whitespace) => {
                st.end_command(Sep::Group);
                st.depth += 1;
            }
            '}' if !st.in_word && next.is_none_or(|n| n.is_whitespace() || ";)|&".contains(n)) => {
                st.end_command(Sep::Group);
                st.depth = st.depth.saturating_sub(1);
            }
            _ => st.push(c),
        }
        i += 1;
    }
    st.end_command(Sep::End);
    st.out
}

/// Reads a double-quoted string starting after the quote; returns the index
/// of the closing quote.
fn double_quoted(chars: &[char], mut i: usize, st: &mut State) -> usize {
    while i < chars.len() {
        match chars[i] {
            '"' => return i,
            '\\' if matches!(chars.get(i + 1), Some('$' | '`' | '"' | '\\' | '\n')) => {
                st.word.push(chars[i + 1]);
                i += 2;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                let (body, end) = balanced(chars, i + 2);
                st.subst(body);
                i = end;
            }
            '`' => {
                let (body, end) = backticks(chars, i + 1);
                st.subst(body);
                i = end;
            }
            c => {
                st.word.push(c);
                i += 1;
            }
        }
    }
    i
}

/// The text up to the `)` matching an already-consumed `(` at depth 1, and
/// the index after it. Unterminated input yields the rest of the script.
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
    (
        chars[start.min(chars.len())..].iter().collect(),
        chars.len(),
    )
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

/// Which backslash escapes [`unescape`] understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escapes {
    /// `$'…'`: `\NNN` octal, `\cX` control characters.
    Ansi,
    /// `echo -e` and printf's `%b`: `\0NNN` octal, `\c` ends the output.
    Echo,
    /// A printf format: `\NNN` octal.
    Printf,
}

/// `s` with its backslash escapes decoded, and whether a `\c` cut it short.
pub(crate) fn unescape(s: &str, style: Escapes) -> (String, bool) {
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let Some(&e) = chars.get(i + 1).filter(|_| c == '\\') else {
            out.push(c);
            i += 1;
            continue;
        };
        i += 2;
        let simple = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        match e {
            'c' if style == Escapes::Ansi => {
                if let Some(&x) = chars.get(i) {
                    out.push(char::from_u32(u32::from(x) & 0x1f).unwrap_or(x));
                    i += 1;
                }
            }
            'c' => return (out, true),
            'x' | 'u' | 'U' => {
                let max = match e {
                    'x' => 2,
                    'u' => 4,
                    _ => 8,
                };
                let (n, len) = digits(&chars[i..], 16, max);
                match char::from_u32(n).filter(|_| len > 0) {
                    Some(ch) => out.push(ch),
                    None => {
                        out.push('\\');
                        out.push(e);
                    }
                }
                i += len;
            }
            '0'..='7' => {
                let (start, max) = if style == Escapes::Echo && e == '0' {
                    (i, 3)
                } else {
                    (i - 1, 3)
                };
                let (n, len) = digits(&chars[start..], 8, max);
                out.push(char::from_u32(n & 0xff).unwrap_or('\0'));
                i = start + len;
            }
            _ => {
                out.push('\\');
                out.push(e);
            }
        }
    }
    (out, false)
}

/// The value of up to `max` leading digits in `radix`, and how many there were.
fn digits(chars: &[char], radix: u32, max: usize) -> (u32, usize) {
    let mut n = 0u32;
    let mut len = 0;
    for c in chars.iter().take(max) {
        let Some(d) = c.to_digit(radix) else { break };
        n = n * radix + d;
        len += 1;
    }
    (n, len)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(script: &str) -> Vec<Vec<String>> {
        lex(script).commands.into_iter().map(|c| c.words).collect()
    }

    #[test]
    fn splits_on_operators() {
        assert_eq!(
            words("a b; c && d || e | f & g\nh"),
            vec![
                vec!["a", "b"],
                vec!["c"],
                vec!["d"],
                vec!["e"],
                vec!["f"],
                vec!["g"],
                vec!["h"]
            ]
        );
    }

    #[test]
    fn removes_quotes_and_escapes() {
        assert_eq!(
            words(r#"rm -rf "/" '~' \/ "a\"b""#),
            vec![vec!["rm", "-rf", "/", "~", "/", "a\"b"]]
        );
    }

    #[test]
    fn redirects_are_separate() {
        let l = lex("cat x > /dev/sda 2>/dev/null &>out");
        assert_eq!(l.commands[0].words, vec!["cat", "x"]);
        assert_eq!(
            l.commands[0].redirects,
            vec!["/dev/sda", "/dev/null", "out"]
        );
    }

    #[test]
    fn collects_substitutions() {
        let l = lex(r#"echo $(rm -rf /) "`ls`" '$(not me)' <(cat a)"#);
        assert_eq!(l.nested, vec!["rm -rf /", "ls", "cat a"]);
    }

    #[test]
    fn nested_parens_in_substitution() {
        let l = lex("echo $(echo $(rm x) (y)) z");
        assert_eq!(l.nested, vec!["echo $(rm x) (y)"]);
    }

    #[test]
    fn comments_and_groups() {
        assert_eq!(words("{ a; } # rm -rf /"), vec![vec!["a"]]);
        assert_eq!(words("(a)"), vec![vec!["a"]]);
    }

    #[test]
    fn unterminated_input_is_fine() {
        lex("echo \"abc");
        lex("echo $(abc");
        lex("echo `abc");
        lex("echo 'abc");
        lex("\\");
    }

    #[test]
    fn records_separators_and_depth() {
        let l = lex("a && b || c | d |& e & f; (g) | h\n{ i; } && j");
        let seps: Vec<(&str, Sep, usize)> = l
            .commands
            .iter()
            .map(|c| (c.words[0].as_str(), c.sep, c.depth))
            .collect();
        assert_eq!(
            seps,
            vec![
                ("a", Sep::And, 0),
                ("b", Sep::Or, 0),
                ("c", Sep::Pipe, 0),
                ("d", Sep::Pipe, 0),
                ("e", Sep::Background, 0),
                ("f", Sep::End, 0),
                ("g", Sep::Pipe, 1),
                ("h", Sep::End, 0),
                ("i", Sep::And, 1),
                ("j", Sep::End, 0),
            ]
        );
    }

    #[test]
    fn substitutions_are_numbered_in_their_words() {
        let l = lex(r#"a $(x) "b`y`" > $(z)"#);
        assert_eq!(l.nested, vec!["x", "y", "z"]);
        let c = &l.commands[0];
        assert_eq!(c.words[1], marker(0).to_string());
        assert_eq!(c.words[2], format!("b{}", marker(1)));
        assert_eq!(c.redirects[0], marker(2).to_string());
        assert_eq!(marker_index(marker(2)), Some(2));
        assert!(has_marker(&c.words[2]) && !has_marker("plain"));
    }

    #[test]
    fn herestrings_and_ansi_c_quotes() {
        let l = lex("bash <<< 'rm -rf /' $'\\x72m' $'a\\'b' $\"c\"");
        let c = &l.commands[0];
        assert_eq!(c.herestrings, vec!["rm -rf /"]);
        assert_eq!(c.words, vec!["bash", "rm", "a'b", "c"]);
        assert!(c.redirects.is_empty());
    }

    #[test]
    fn heredoc_bodies_are_lexed_one_level_down() {
        let l = lex("cat <<-'EOF' > out\n\t$(a) don't\n\tEOF\nrm $(b) <<X\ny\nX\n");
        let cmds: Vec<(&[String], usize)> = l
            .commands
            .iter()
            .map(|c| (c.words.as_slice(), c.depth))
            .collect();
        assert_eq!(cmds.len(), 4);
        assert_eq!(cmds[0], (&["cat".to_owned()][..], 0));
        assert_eq!(l.commands[0].redirects, vec!["EOF", "out"]);
        // The body's quote does not swallow what follows it.
        assert_eq!(cmds[1].1, 1);
        assert_eq!(cmds[2].0[0], "rm");
        assert_eq!(cmds[3], (&["y".to_owned()][..], 1));
        assert_eq!(l.nested, vec!["a", "b"]);
        assert_eq!(cmds[1].0[0], marker(0).to_string());
        assert_eq!(cmds[2].0[1], marker(1).to_string());
    }

    #[test]
    fn unescapes() {
        assert_eq!(unescape(r"a\nb\tc\\", Escapes::Printf).0, "a\nb\tc\\");
        assert_eq!(unescape(r"\x2f\057\0057", Escapes::Echo).0, "///");
        assert_eq!(unescape(r"\057", Escapes::Printf).0, "/");
        assert_eq!(unescape(r"ab\cde", Escapes::Echo), ("ab".into(), true));
        assert_eq!(unescape(r"\q\", Escapes::Ansi).0, r"\q\");
    }
}
