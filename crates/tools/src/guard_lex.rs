//! The shell lexer of the guard and the permission engine (one lexer, so
//! the two can never split a command differently; see [`crate::shell_lex`]).
//!
//! It splits a script into simple commands (at `;`, `&&`, `||`, `|`, `&`,
//! newlines, parentheses and braces), removes quoting (including `$'…'`),
//! separates redirections and here-strings from arguments, and collects the
//! bodies of `$(…)`, backticks and `<(…)` so they can be checked too. Each
//! command records the operator that ended it and how deep in `( … )`/
//! `{ … }` groups it stands. Here-doc bodies are lexed on their own, as
//! commands one level deeper marked [`Command::speculative`]: they may feed
//! a shell. The substitutions the shell itself runs in an unquoted here-doc
//! body are collected as well.
//!
//! Each word also records what cannot be known statically: it is
//! [`Word::dynamic`] when the shell would expand it (`$VAR`, `$(…)`, `$'…'`,
//! brace expansion) and [`Word::glob`] when it has unquoted `*?[`.
//!
//! It is not a full shell parser; it errs toward seeing more commands, which
//! can only make the guard and the rules stricter.

/// What ended a simple command.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub enum Sep {
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

/// One word with its quoting removed. A substitution stands in it as a
/// [`marker`] character.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Word {
    /// The text after quote removal (`$'…'` decoded, `$VAR` kept as written).
    pub text: String,
    /// The shell expands it when it runs (variables, substitutions, ANSI-C
    /// quoting, brace expansion), so its text is not what runs.
    pub dynamic: bool,
    /// It has unquoted glob characters (`*`, `?`, `[`).
    pub glob: bool,
    /// Some of it was quoted or escaped.
    pub quoted: bool,
}

/// What a redirection does with its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RedirectKind {
    /// `>`, `>>`, `>|`, `&>`, `&>>`, `<>`, `>& file`: writes the file.
    Write,
    /// `<`: reads the file.
    Read,
    /// `>&N`, `<&N`, `>&-`: duplicates or closes a descriptor.
    Dup,
    /// `<<` or `<<-`: the target is the here-doc delimiter.
    HereDoc,
    /// `<<<`: the target is the text fed to standard input.
    HereString,
}

/// A redirection and its target word.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// What the redirection does.
    pub kind: RedirectKind,
    /// The file, descriptor, delimiter or here-string.
    pub target: Word,
}

/// One simple command.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Command {
    /// The words, assignments and wrappers included.
    pub words: Vec<Word>,
    /// The redirections, here-docs and here-strings, in order.
    pub redirects: Vec<Redirect>,
    /// The operator after the command.
    pub sep: Sep,
    /// How many `( … )` subshells and `{ … }` groups enclose it (a here-doc
    /// body counts as one more).
    pub depth: usize,
    /// It is a line of a here-doc body: it runs only if the body feeds a shell.
    pub speculative: bool,
}

/// A substitution the lexer took out of a word or a here-doc body.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// The script inside `$(…)`, backticks, `<(…)` or `>(…)`.
    pub script: String,
    /// Found only by lexing a here-doc body as a script: it runs only if the
    /// body feeds a shell.
    pub speculative: bool,
}

/// A lexed script.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Script {
    /// The simple commands, in order.
    pub commands: Vec<Command>,
    /// The substitutions; the `n`th stands in its word as [`marker`]`(n)`.
    pub nested: Vec<Substitution>,
}

/// The guard's view of one simple command: words, redirection targets and
/// here-strings as plain strings.
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

/// The guard's view of a lexed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions. The `n`th stands in
    /// its word as [`marker`]`(n)`.
    pub nested: Vec<String>,
}

/// Marks a substitution too far down the list to number.
pub const SUBST: char = '\u{1}';
/// Substitution `n` is marked by the private-use character `MARK_BASE + n`.
const MARK_BASE: u32 = 0xF_0000;
const MARK_COUNT: u32 = 0xFFFE;

/// The character that stands for substitution `n` inside a word.
pub fn marker(n: usize) -> char {
    u32::try_from(n)
        .ok()
        .filter(|&n| n < MARK_COUNT)
        .and_then(|n| char::from_u32(MARK_BASE + n))
        .unwrap_or(SUBST)
}

/// Which substitution `c` stands for, if it is a numbered marker.
pub fn marker_index(c: char) -> Option<usize> {
    let n = u32::from(c).checked_sub(MARK_BASE)?;
    (n < MARK_COUNT).then_some(n as usize)
}

/// Whether `word` holds a substitution the lexer took out.
pub fn has_marker(word: &str) -> bool {
    word.chars()
        .any(|c| c == SUBST || marker_index(c).is_some())
}

/// `word` with every substitution marker replaced by [`SUBST`].
pub fn unnumbered(word: &str) -> String {
    word.chars()
        .map(|c| if marker_index(c).is_some() { SUBST } else { c })
        .collect()
}

/// Lexes `script` for the guard.
pub(crate) fn lex(script: &str) -> Lexed {
    let lexed = lex_script(script);
    let commands = lexed
        .commands
        .into_iter()
        .map(|c| {
            let mut simple = Simple {
                words: c.words.into_iter().map(|w| w.text).collect(),
                sep: c.sep,
                depth: c.depth,
                ..Simple::default()
            };
            for r in c.redirects {
                if r.kind == RedirectKind::HereString {
                    simple.herestrings.push(r.target.text);
                } else {
                    simple.redirects.push(r.target.text);
                }
            }
            simple
        })
        .collect();
    Lexed {
        commands,
        nested: lexed.nested.into_iter().map(|n| n.script).collect(),
    }
}

/// A here-doc waiting for its body: delimiter, strip tabs, delimiter quoted.
struct PendingHeredoc {
    delim: String,
    strip: bool,
    quoted: bool,
}

#[derive(Default)]
struct State {
    out: Script,
    cur: Command,
    word: Word,
    in_word: bool,
    /// The next word is the target of a redirection of this kind.
    redirect_next: Option<RedirectKind>,
    /// After `>&`: a descriptor number or `-` makes it a [`RedirectKind::Dup`].
    dup_if_fd: bool,
    /// After `<<`/`<<-`: the next word is a here-doc delimiter (strip tabs?).
    heredoc_next: Option<bool>,
    /// Here-doc delimiters waiting for the next newline.
    heredocs: Vec<PendingHeredoc>,
    depth: usize,
}

impl State {
    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let w = std::mem::take(&mut self.word);
        if let Some(strip) = self.heredoc_next.take() {
            self.heredocs.push(PendingHeredoc {
                delim: w.text.clone(),
                strip,
                quoted: w.quoted,
            });
        }
        match self.redirect_next.take() {
            Some(mut kind) => {
                let fd = w.text == "-"
                    || (!w.text.is_empty() && w.text.chars().all(|d| d.is_ascii_digit()));
                if self.dup_if_fd && fd && !w.quoted && !w.dynamic {
                    kind = RedirectKind::Dup;
                }
                self.cur.redirects.push(Redirect { kind, target: w });
            }
            None => self.cur.words.push(w),
        }
        self.dup_if_fd = false;
        self.in_word = false;
    }

    fn end_command(&mut self, sep: Sep) {
        self.end_word();
        let mut cmd = std::mem::take(&mut self.cur);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
            cmd.sep = sep;
            cmd.depth = self.depth;
            self.out.commands.push(cmd);
        } else if matches!(sep, Sep::And | Sep::Or | Sep::Pipe | Sep::Background)
            && let Some(last) = self.out.commands.last_mut()
        {
            // `( a ) | b`, `{ a; } && b`: the operator after a group.
            last.sep = sep;
        }
        self.redirect_next = None;
        self.dup_if_fd = false;
        self.heredoc_next = None;
    }

    fn push(&mut self, c: char) {
        self.word.text.push(c);
        self.in_word = true;
    }

    fn subst(&mut self, body: String) {
        let m = marker(self.out.nested.len());
        self.out.nested.push(Substitution {
            script: body,
            speculative: false,
        });
        self.push(m);
        self.word.dynamic = true;
    }

    /// Handles the redirection operator starting at `i` (`>`, `<`, `>>`,
    /// `<<`, `<<<`, `<&`, `>&`, …); returns the index of its last char.
    fn redirect(&mut self, chars: &[char], start: usize) -> usize {
        let mut i = start;
        while matches!(chars.get(i + 1), Some('>' | '<' | '&' | '|')) {
            i += 1;
        }
        let op: String = chars[start..=i].iter().collect();
        let kind = if op.starts_with("<<<") {
            RedirectKind::HereString
        } else if op.starts_with("<<") {
            let strip = chars.get(i + 1) == Some(&'-');
            if strip {
                i += 1;
            }
            self.heredoc_next = Some(strip);
            RedirectKind::HereDoc
        } else if op.starts_with("<>") {
            RedirectKind::Write
        } else if op.starts_with("<&") {
            RedirectKind::Dup
        } else if op.starts_with('<') {
            RedirectKind::Read
        } else {
            RedirectKind::Write
        };
        self.redirect_next = Some(kind);
        self.dup_if_fd = op == ">&";
        i
    }

    /// After a newline: reads the pending here-doc bodies starting at `i`
    /// and returns the index after them. A body is lexed as commands of its
    /// own (it may feed a shell), one level deeper, since it may be data.
    /// The substitutions of an unquoted body run in any case.
    fn heredoc_bodies(&mut self, chars: &[char], mut i: usize) -> usize {
        for doc in std::mem::take(&mut self.heredocs) {
            let mut body = String::new();
            while i < chars.len() {
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(chars.len(), |p| i + p);
                let line: String = chars[i..end].iter().collect();
                i = (end + 1).min(chars.len());
                let cmp = if doc.strip {
                    line.trim_start_matches('\t')
                } else {
                    &line
                };
                if cmp == doc.delim {
                    break;
                }
                body.push_str(&line);
                body.push('\n');
            }
            let inner = lex_script(&body);
            let offset = self.out.nested.len();
            for mut cmd in inner.commands {
                let words = cmd
                    .words
                    .iter_mut()
                    .chain(cmd.redirects.iter_mut().map(|r| &mut r.target));
                for w in words {
                    if has_marker(&w.text) {
                        w.text = w
                            .text
                            .chars()
                            .map(|c| marker_index(c).map_or(c, |n| marker(n + offset)))
                            .collect();
                    }
                }
                cmd.depth += self.depth + 1;
                cmd.speculative = true;
                self.out.commands.push(cmd);
            }
            self.out
                .nested
                .extend(inner.nested.into_iter().map(|n| Substitution {
                    speculative: true,
                    ..n
                }));
            if !doc.quoted {
                self.out.nested.extend(expansions(&body));
            }
        }
        i
    }
}

/// The substitutions the shell runs in an unquoted here-doc body.
fn expansions(body: &str) -> Vec<Substitution> {
    let chars: Vec<char> = body.chars().collect();
    let mut scratch = State::default();
    let mut i = 0;
    while i < chars.len() {
        // Quotes mean nothing here; step over the one that stopped the scan.
        i = double_quoted(&chars, i, &mut scratch) + 1;
    }
    scratch.out.nested
}

/// Lexes `script` into commands with rich words and typed redirections.
pub fn lex_script(script: &str) -> Script {
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
                st.redirect_next = Some(RedirectKind::Write);
                st.dup_if_fd = false;
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
                if st.in_word && st.word.text.chars().all(|d| d.is_ascii_digit()) {
                    st.word = Word::default();
                    st.in_word = false;
                } else {
                    st.end_word();
                }
                i = st.redirect(&chars, i);
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
                st.word.text.push_str(&text);
                // It can spell any command; rules never take it at its word.
                st.word.dynamic = true;
                st.in_word = true;
            }
            '$' if next == Some('"') => st.in_word = true,
            '$' if next.is_some_and(expands) => {
                st.word.dynamic = true;
                st.push(c);
            }
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
    st.end_command(Sep::End);
    st.out
}

/// Whether `$` followed by `c` is a parameter expansion.
fn expands(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_{@*#?$!-".contains(c)
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
            '$' if chars.get(i + 1).copied().is_some_and(expands) => {
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
    fn words_record_expansion_globs_and_quoting() {
        let l = lex_script("$X a \"$Y\" '$Z' $'\\x72m' {a,b} *.rs \\* $(c)");
        let flags: Vec<(&str, bool, bool, bool)> = l.commands[0]
            .words
            .iter()
            .map(|w| (w.text.as_str(), w.dynamic, w.glob, w.quoted))
            .collect();
        let m = marker(0).to_string();
        assert_eq!(
            flags,
            vec![
                ("$X", true, false, false),
                ("a", false, false, false),
                ("$Y", true, false, true),
                ("$Z", false, false, true),
                ("rm", true, false, false),
                ("{a,b}", true, false, false),
                ("*.rs", false, true, false),
                ("*", false, false, true),
                (m.as_str(), true, false, false),
            ]
        );
        assert_eq!(unnumbered(&m), SUBST.to_string());
    }

    #[test]
    fn redirect_kinds() {
        let l = lex_script("c > a 2>&1 < b >>d &>e <>f >&g >&- <&3 <<<h <<i");
        let kinds: Vec<(RedirectKind, &str)> = l.commands[0]
            .redirects
            .iter()
            .map(|r| (r.kind, r.target.text.as_str()))
            .collect();
        use RedirectKind::*;
        assert_eq!(
            kinds,
            vec![
                (Write, "a"),
                (Dup, "1"),
                (Read, "b"),
                (Write, "d"),
                (Write, "e"),
                (Write, "f"),
                (Write, "g"),
                (Dup, "-"),
                (Dup, "3"),
                (HereString, "h"),
                (HereDoc, "i"),
            ]
        );
    }

    #[test]
    fn heredoc_lines_are_speculative_but_their_expansions_run() {
        let l = lex_script("cat <<E\nsay \"hi\" don't $(rm x)\nE\ncat <<'Q'\n$(rm y)\nQ\n");
        let spec: Vec<bool> = l.commands.iter().map(|c| c.speculative).collect();
        assert_eq!(spec, vec![false, true, false, true]);
        let nested: Vec<(&str, bool)> = l
            .nested
            .iter()
            .map(|n| (n.script.as_str(), n.speculative))
            .collect();
        // Lexed as a script, the body's quote hides `$(rm x)`; the shell
        // still runs it.
        assert_eq!(nested, vec![("rm x", false), ("rm y", true)]);
    }

    #[test]
    fn line_continuation_in_double_quotes() {
        assert_eq!(words("echo \"a\\\nb\""), vec![vec!["echo", "ab"]]);
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
