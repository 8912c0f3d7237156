//! The guard's view of a parsed script ([`crate::parse`], the same
//! tree-sitter-bash parse the permission engine uses), and the backslash
//! escapes of `echo -e`/`printf` whose output the guard follows into shells.
//!
//! Words are plain strings: quoting removed, `$NAME`/`${…}` kept as written
//! (the guard substitutes the values the line makes knowable), and each
//! substitution as its marker character, whose script is in
//! [`Lexed::nested`]. Here-document and here-string bodies are kept apart:
//! they are what a shell reading standard input would run.

use crate::{RedirectKind, Script};
pub(crate) use crate::{Sep, has_marker, marker_index};

/// The guard's view of one simple command.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Simple {
    pub words: Vec<String>,
    /// Targets of redirections that open a file.
    pub redirects: Vec<String>,
    /// Here-document and here-string bodies.
    pub herestrings: Vec<String>,
    /// The operator after the command.
    pub sep: Sep,
    /// How many groups and compound-command bodies enclose it.
    pub depth: usize,
}

/// The guard's view of a parsed script.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Lexed {
    pub commands: Vec<Simple>,
    /// Scripts inside command or process substitutions. The `n`th stands in
    /// its word as [`crate::marker`]`(n)`.
    pub nested: Vec<String>,
}

/// Parses `script` for the guard.
pub(crate) fn lex(script: &str) -> Lexed {
    from_script(crate::parse(script))
}

fn from_script(script: Script) -> Lexed {
    let commands = script
        .commands
        .into_iter()
        .map(|c| {
            let mut s = Simple {
                words: c.words.into_iter().map(|w| w.text).collect(),
                sep: c.sep,
                depth: c.depth,
                ..Simple::default()
            };
            for r in c.redirects {
                match r.kind {
                    RedirectKind::Write | RedirectKind::Read => s.redirects.push(r.target.text),
                    RedirectKind::HereDoc | RedirectKind::HereString => {
                        s.herestrings.push(r.target.text);
                    }
                    RedirectKind::Dup => {}
                }
            }
            s
        })
        .collect();
    Lexed {
        commands,
        nested: script.substitutions.into_iter().map(|s| s.source).collect(),
    }
}

/// Which backslash escapes [`unescape`] understands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Escapes {
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
        if let Some(s) = crate::simple_escape(e) {
            out.push(s);
            continue;
        }
        match e {
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
