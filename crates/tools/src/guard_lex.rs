//! A small shell lexer for the guard: splits a script into simple commands
//! (at `;`, `&&`, `||`, `|`, `&`, newlines, parentheses and braces), removes
//! quoting, separates redirection targets from arguments, and collects the
//! bodies of `$(…)`, backticks and `<(…)` so they can be checked too.
//!
//! It is not a full shell parser; it errs toward seeing more commands, which
//! can only make the guard stricter.

/// One simple command: its words (quotes removed) and redirection targets.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Simple {
    pub words: Vec<String>,
    pub redirects: Vec<String>,
}

/// A lexed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions.
    pub nested: Vec<String>,
}

/// Marks where a substitution stood inside a word.
const SUBST: char = '\u{1}';

#[derive(Default)]
struct State {
    out: Lexed,
    cur: Simple,
    word: String,
    in_word: bool,
    redirect_next: bool,
}

impl State {
    fn end_word(&mut self) {
        if !self.in_word {
            return;
        }
        let w = std::mem::take(&mut self.word);
        if self.redirect_next {
            self.cur.redirects.push(w);
            self.redirect_next = false;
        } else {
            self.cur.words.push(w);
        }
        self.in_word = false;
    }

    fn end_command(&mut self) {
        self.end_word();
        let cmd = std::mem::take(&mut self.cur);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
            self.out.commands.push(cmd);
        }
        self.redirect_next = false;
    }

    fn push(&mut self, c: char) {
        self.word.push(c);
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
            '&' if next == Some('>') => {
                st.end_word();
                st.redirect_next = true;
                i += 1;
                if chars.get(i + 1) == Some(&'>') {
                    i += 1;
                }
            }
            '\n' | ';' | '|' | '&' | ')' => st.end_command(),
            '(' => st.end_command(),
            '>' | '<' => {
                if next == Some('(') {
                    let (body, end) = balanced(&chars, i + 2);
                    st.out.nested.push(body);
                    st.push(SUBST);
                    i = end;
                    continue;
                }
                if st.in_word && st.word.chars().all(|d| d.is_ascii_digit()) {
                    st.word.clear();
                    st.in_word = false;
                } else {
                    st.end_word();
                }
                while matches!(chars.get(i + 1), Some('>' | '<' | '&' | '|')) {
                    i += 1;
                }
                st.redirect_next = true;
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
                st.out.nested.push(body);
                st.push(SUBST);
                i = end;
                continue;
            }
            '`' => {
                let (body, end) = backticks(&chars, i + 1);
                st.out.nested.push(body);
                st.push(SUBST);
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
            _ => st.push(c),
        }
        i += 1;
    }
    st.end_command();
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
                st.out.nested.push(body);
                st.word.push(SUBST);
                i = end;
            }
            '`' => {
                let (body, end) = backticks(chars, i + 1);
                st.out.nested.push(body);
                st.word.push(SUBST);
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
}
