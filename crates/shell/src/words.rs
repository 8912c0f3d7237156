//! Words: quote removal and what the shell would compute.
//!
//! A word is static when every piece of it is literal text (plain, escaped,
//! `'…'`, `"…"` without expansions, `$'…'` with the escapes decoded here).
//! Expansions make it [`Word::dynamic`]; the ones whose evaluation can run
//! code or change variables through arithmetic (`$((…))`, `$[…]`, array
//! subscripts, `${x:offset}`, `${!x}`, `${x@P}`) are recorded as unknown too.
//! Substitutions are parsed as scripts of their own and marked in the text.

use tree_sitter::Node;

use crate::ast::{Script, Substitution, Word, marker};
use crate::parse::{Walker, children};

/// Operators allowed inside `${…}`: defaults, alternatives, lengths,
/// pattern removal and replacement, case changes. Not `:` (substring
/// offsets are arithmetic), `!` (indirection), `@` (transformations such as
/// `@P`, which expands prompt escapes including `$(…)`).
const EXPANSION_OPS: &[&str] = &[
    "${", "}", ":-", "-", ":=", "=", ":+", "+", ":?", "?", "#", "##", "%", "%%", "/", "//", "/#",
    "/%", "^", "^^", ",", ",,",
];

impl Walker<'_> {
    /// Evaluates one word-like node.
    pub(crate) fn word(&mut self, node: Node<'_>) -> Word {
        let mut w = Word::default();
        self.piece(node, &mut w);
        w
    }

    fn piece(&mut self, node: Node<'_>, w: &mut Word) {
        match node.kind() {
            "word" | "number" if children(node).iter().all(|(_, c)| !c.is_named()) => {
                let text = self.text(node);
                self.unquoted_literal(text, w, node);
            }
            "number" | "concatenation" => {
                let whole = self.text(node);
                if let Some(at) = whole.find('{')
                    && whole[at..]
                        .split('}')
                        .next()
                        .is_some_and(|b| b.contains(',') || b.contains(".."))
                {
                    // `{a,b}` spread over several pieces: brace expansion.
                    w.dynamic = true;
                }
                for (_, child) in children(node) {
                    if child.is_named() {
                        self.piece(child, w);
                    } else {
                        let text = self.text(child);
                        self.unquoted_literal(text, w, child);
                    }
                }
            }
            "raw_string" => {
                let t = self.text(node);
                w.text.push_str(
                    t.strip_prefix('\'')
                        .unwrap_or(t)
                        .strip_suffix('\'')
                        .unwrap_or(t),
                );
                w.quoted = true;
            }
            "ansi_c_string" => {
                w.quoted = true;
                let t = self.text(node);
                let inner = t
                    .strip_prefix("$'")
                    .and_then(|s| s.strip_suffix('\''))
                    .unwrap_or(t);
                match decode_ansi_c(inner) {
                    Some(s) => w.text.push_str(&s),
                    None => {
                        w.text.push_str(t);
                        w.dynamic = true;
                    }
                }
            }
            "string" | "translated_string" => {
                // Expansions inside double quotes are not split.
                let split = w.split;
                w.quoted = true;
                if self.text(node).starts_with('$') {
                    // `$"…"` is translated through the locale's catalog.
                    w.dynamic = true;
                }
                let mut at = node.start_byte();
                for (_, child) in children(node) {
                    match child.kind() {
                        "\"" | "$\"" => at = child.end_byte(),
                        "string_content" => {
                            let t = self.text(child);
                            self.double_quoted(t, w, child);
                            at = child.end_byte();
                        }
                        _ if child.is_named() => {
                            // Text between children (e.g. a lone `$`).
                            let gap = self.src.get(at..child.start_byte()).unwrap_or_default();
                            self.double_quoted(gap, w, child);
                            self.piece(child, w);
                            at = child.end_byte();
                        }
                        _ => {
                            let t = self.text(child);
                            self.double_quoted(t, w, child);
                            at = child.end_byte();
                        }
                    }
                }
                w.split = split;
            }
            "simple_expansion" => {
                w.dynamic = true;
                w.split = true;
                w.text.push_str(self.text(node));
            }
            "expansion" => {
                w.dynamic = true;
                w.split = true;
                self.expansion(node);
                w.text.push_str(&crate::ast::unnumbered(self.text(node)));
            }
            "command_substitution" | "process_substitution" => {
                w.dynamic = true;
                w.split = true;
                let n = self.substitution(node);
                w.text.push(marker(n));
            }
            "arithmetic_expansion" => {
                w.split = true;
                self.unknown("uses arithmetic expansion", node);
                self.scan(node);
                w.dynamic = true;
                w.text.push_str(self.text(node));
            }
            "brace_expression" => {
                w.dynamic = true;
                w.text.push_str(self.text(node));
            }
            _ => {
                self.unknown("has a word the checker does not know", node);
                self.scan(node);
                w.dynamic = true;
                w.split = true;
                w.text.push_str(self.text(node));
            }
        }
    }

    /// Checks a `${…}` expansion and records the substitutions inside it.
    fn expansion(&mut self, node: Node<'_>) {
        let mut stack = vec![node];
        while let Some(n) = stack.pop() {
            for (_, child) in children(n) {
                match child.kind() {
                    "subscript" => {
                        self.unknown("indexes an array (arithmetic subscript)", child);
                    }
                    "command_substitution" | "process_substitution" => {
                        self.substitution(child);
                    }
                    "arithmetic_expansion" => {
                        self.unknown("uses arithmetic expansion", child);
                    }
                    k if !child.is_named() && n == node && !EXPANSION_OPS.contains(&k) => {
                        self.unknown("uses a parameter expansion that evaluates code", node);
                        return;
                    }
                    _ => stack.push(child),
                }
            }
        }
    }

    /// Parses a substitution's body into its own script; returns its index.
    fn substitution(&mut self, node: Node<'_>) -> usize {
        let named: Vec<Node<'_>> = children(node)
            .into_iter()
            .filter(|(f, c)| c.is_named() && *f != Some("redirect"))
            .map(|(_, c)| c)
            .collect();
        let source = match (named.first(), named.last()) {
            (Some(a), Some(b)) => self
                .src
                .get(a.start_byte()..b.end_byte())
                .unwrap_or_default()
                .to_owned(),
            _ => String::new(),
        };
        let mut inner = Walker {
            src: self.src,
            out: Script::default(),
            nest: self.nest + 1,
        };
        for (field, child) in children(node) {
            if field == Some("redirect") {
                // `$(< file)`: reads the file.
                let (r, _) = inner.redirect(child);
                inner.out.commands.push(crate::ast::Command {
                    redirects: r,
                    ..crate::ast::Command::default()
                });
            } else if child.is_named() {
                inner.statement(child, 0);
            }
        }
        let n = self.out.substitutions.len();
        self.out.substitutions.push(Substitution {
            source,
            script: inner.out,
        });
        n
    }

    /// Unquoted literal text: backslashes escape the next character; `*?[`
    /// glob; a leading `~`, brace expansion and stray `$` are computed.
    fn unquoted_literal(&mut self, text: &str, w: &mut Word, node: Node<'_>) {
        let mut chars = text.chars().peekable();
        let at_start = w.text.is_empty() && !w.quoted && !w.dynamic;
        let mut first = true;
        while let Some(c) = chars.next() {
            match c {
                '\\' => {
                    w.quoted = true;
                    match chars.next() {
                        Some('\n') | None => {}
                        Some(n) => w.text.push(n),
                    }
                }
                '*' | '?' | '[' => {
                    w.glob = true;
                    w.text.push(c);
                }
                '~' if first && at_start => {
                    w.dynamic = true;
                    w.text.push(c);
                }
                '$' => {
                    if chars.peek() == Some(&'[') {
                        self.unknown("uses arithmetic expansion `$[…]`", node);
                    }
                    w.dynamic = true;
                    w.split = true;
                    w.text.push(c);
                }
                '{' => {
                    // Brace expansion needs a `,` or `..` before the `}`.
                    let rest: String = chars.clone().take_while(|&c| c != '}').collect();
                    if rest.contains(',') || rest.contains("..") {
                        w.dynamic = true;
                    }
                    w.text.push(c);
                }
                '(' | ')' | '`' => {
                    // Extglob or syntax tree-sitter kept as text: the shell
                    // may make something else of it.
                    w.dynamic = true;
                    w.split = true;
                    w.text.push(c);
                }
                _ => w.text.push(c),
            }
            first = false;
        }
    }

    /// Text inside double quotes: `\` escapes only `$`, `` ` ``, `"`, `\`
    /// and newline; a `$` or backtick left here is something the shell expands.
    fn double_quoted(&mut self, text: &str, w: &mut Word, node: Node<'_>) {
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\\' => match chars.peek() {
                    Some('$' | '`' | '"' | '\\') => {
                        w.text.extend(chars.next());
                    }
                    Some('\n') => {
                        chars.next();
                    }
                    _ => w.text.push('\\'),
                },
                '$' | '`' => {
                    if chars.peek() == Some(&'[') || chars.peek() == Some(&'(') || c == '`' {
                        self.unknown("has an expansion the checker does not know", node);
                    }
                    w.dynamic = true;
                    w.text.push(c);
                }
                _ => w.text.push(c),
            }
        }
    }
}

/// Decodes the body of `$'…'`; `None` for escapes not handled here (`\c`).
/// The character a one-letter backslash escape stands for in `$'…'`,
/// `echo -e` and `printf` alike (`\n`, `\t`, `\e`, …); `None` for the
/// numeric and shell-specific ones, which each decoder handles itself.
pub fn simple_escape(e: char) -> Option<char> {
    match e {
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
    }
}

fn decode_ansi_c(s: &str) -> Option<String> {
    let mut out = String::new();
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = *chars.get(i)?;
        i += 1;
        if let Some(ch) = simple_escape(e) {
            out.push(ch);
            continue;
        }
        let (radix, max) = match e {
            '0'..='7' => {
                i -= 1;
                (8, 3)
            }
            'x' => (16, 2),
            'u' => (16, 4),
            'U' => (16, 8),
            _ => return None,
        };
        let digits: String = chars[i..]
            .iter()
            .take(max)
            .take_while(|d| d.is_digit(radix))
            .collect();
        if digits.is_empty() {
            return None;
        }
        i += digits.chars().count();
        let v = u32::from_str_radix(&digits, radix).ok()?;
        if v == 0 {
            // Bash stops the string at a NUL.
            return Some(out);
        }
        if radix == 16 && max == 2 || radix == 8 {
            // A byte; only ASCII is decoded, other bytes are not UTF-8.
            out.push(char::from_u32(v).filter(char::is_ascii)?);
        } else {
            out.push(char::from_u32(v)?);
        }
    }
    Some(out)
}
