//! Syntax highlighting of fenced code with syntect (pure-Rust regexes), a
//! line at a time: a [`LineHighlighter`] keeps syntect's parse and
//! highlight state after the lines it has seen, so a code block that grows
//! as it streams is highlighted once per line, not once per frame. The
//! syntax set and theme load once; [`warm_up`] loads them on a background
//! thread at start, so neither start-up nor the first code block waits.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::highlighting::{
    FontStyle, HighlightIterator, HighlightState, Highlighter, Theme, ThemeSet,
};
use syntect::parsing::{ParseState, ScopeStack, SyntaxSet};

struct Assets {
    syntaxes: SyntaxSet,
    theme: Option<Theme>,
}

fn assets() -> &'static Assets {
    static ASSETS: OnceLock<Assets> = OnceLock::new();
    ASSETS.get_or_init(|| {
        let mut themes = ThemeSet::load_defaults();
        Assets {
            syntaxes: SyntaxSet::load_defaults_newlines(),
            theme: themes.themes.remove("base16-ocean.dark"),
        }
    })
}

/// Loads the syntaxes and the theme on a background thread (tens of
/// milliseconds of work that would otherwise land on the first code block's
/// frame). Whoever needs them first waits for that load, never a second one.
pub fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("wright-tui-syntaxes".to_owned())
        .spawn(|| {
            let _ = assets();
        });
}

/// The syntect state of one code block part-way through.
struct Engine {
    highlighter: Highlighter<'static>,
    parse: ParseState,
    highlight: HighlightState,
    syntaxes: &'static SyntaxSet,
}

/// Highlights one code block line by line, carrying the state between lines.
pub struct LineHighlighter {
    /// `None`: plain (unknown language, or a line syntect could not parse).
    engine: Option<Engine>,
}

impl std::fmt::Debug for LineHighlighter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineHighlighter")
            .field("highlighted", &self.engine.is_some())
            .finish()
    }
}

impl LineHighlighter {
    /// A highlighter for `lang` (a fence's info string: `rust`, `py`,
    /// `sh`…); plain when the language is unknown.
    pub fn new(lang: &str) -> Self {
        let token = lang.split([' ', ',', '{']).next().unwrap_or_default();
        if token.is_empty() {
            return Self { engine: None };
        }
        let assets = assets();
        let engine = assets.theme.as_ref().and_then(|theme| {
            let syntax = assets
                .syntaxes
                .find_syntax_by_token(token)
                .or_else(|| assets.syntaxes.find_syntax_by_extension(token))?;
            let highlighter = Highlighter::new(theme);
            let highlight = HighlightState::new(&highlighter, ScopeStack::new());
            Some(Engine {
                highlighter,
                parse: ParseState::new(syntax),
                highlight,
                syntaxes: &assets.syntaxes,
            })
        });
        Self { engine }
    }

    /// The next line (with its newline; the last may lack one), advancing
    /// the state. A line syntect fails on, and every line after it, is plain.
    pub fn line(&mut self, line: &str) -> Line<'static> {
        let Some(engine) = self.engine.as_mut() else {
            return plain(line);
        };
        match styled(
            &mut engine.parse,
            &mut engine.highlight,
            &engine.highlighter,
            engine.syntaxes,
            line,
        ) {
            Some(row) => row,
            None => {
                self.engine = None;
                plain(line)
            }
        }
    }

    /// `line` highlighted as the next line, without advancing: the
    /// unfinished last line of a streaming block.
    pub fn peek(&self, line: &str) -> Line<'static> {
        let Some(engine) = self.engine.as_ref() else {
            return plain(line);
        };
        let mut parse = engine.parse.clone();
        let mut highlight = engine.highlight.clone();
        styled(
            &mut parse,
            &mut highlight,
            &engine.highlighter,
            engine.syntaxes,
            line,
        )
        .unwrap_or_else(|| plain(line))
    }
}

/// One line through syntect; `None` when it cannot be parsed.
fn styled(
    parse: &mut ParseState,
    highlight: &mut HighlightState,
    highlighter: &Highlighter<'_>,
    syntaxes: &SyntaxSet,
    line: &str,
) -> Option<Line<'static>> {
    let ops = parse.parse_line(line, syntaxes).ok()?;
    let spans: Vec<Span<'static>> = HighlightIterator::new(highlight, &ops, line, highlighter)
        .map(|(style, text)| {
            let mut s = Style::default().fg(Color::Rgb(
                style.foreground.r,
                style.foreground.g,
                style.foreground.b,
            ));
            if style.font_style.contains(FontStyle::BOLD) {
                s = s.add_modifier(Modifier::BOLD);
            }
            if style.font_style.contains(FontStyle::ITALIC) {
                s = s.add_modifier(Modifier::ITALIC);
            }
            Span::styled(text.trim_end_matches(['\n', '\r']).to_owned(), s)
        })
        .filter(|s| !s.content.is_empty())
        .collect();
    Some(Line::from(spans))
}

/// A line of code without a known language.
fn plain(line: &str) -> Line<'static> {
    let text = line.strip_suffix('\n').unwrap_or(line);
    let text = text.strip_suffix('\r').unwrap_or(text);
    Line::from(Span::styled(
        text.to_owned(),
        Style::default().fg(Color::Cyan),
    ))
}

/// The lines of `code` highlighted as `lang`, all at once.
#[cfg(test)]
pub fn highlight(lang: &str, code: &str) -> Vec<Line<'static>> {
    let mut lines = LineHighlighter::new(lang);
    syntect::util::LinesWithEndings::from(code)
        .map(|l| lines.line(l))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_languages_are_coloured_unknown_ones_plain() {
        let lines = highlight("rust", "fn main() {}\n");
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].to_string(), "fn main() {}");
        assert!(lines[0].spans.len() > 1);
        let plain = highlight("no-such-lang", "x\ny");
        assert_eq!(plain.len(), 2);
    }

    const CODE: &str = "/* a comment\n   over lines */\nfn main() {\n    let s = \"str\\\"ing\n    more\";\n\n    println!(\"{s}\"); // 日本語 🎉\n}\n";

    /// Line by line with `peek` for the unfinished line, as a stream sees
    /// it: the same rows as all at once, wherever the text is cut.
    #[test]
    fn line_by_line_matches_all_at_once_at_any_split() {
        for lang in ["rust", "py", "", "no-such-lang"] {
            let whole = highlight(lang, CODE);
            for (cut, _) in CODE.char_indices() {
                let mut h = LineHighlighter::new(lang);
                let (done, rest) = CODE.split_at(cut);
                let complete = done.rfind('\n').map_or(0, |i| i + 1);
                let mut rows: Vec<Line<'static>> =
                    syntect::util::LinesWithEndings::from(&done[..complete])
                        .map(|l| h.line(l))
                        .collect();
                // The unfinished line peeked, then finished with the rest.
                let partial = &done[complete..];
                if !partial.is_empty() {
                    let peeked = h.peek(partial);
                    assert_eq!(peeked, highlight(lang, done).pop().unwrap_or_default());
                }
                let tail = format!("{partial}{rest}");
                rows.extend(syntect::util::LinesWithEndings::from(&tail).map(|l| h.line(l)));
                assert_eq!(rows, whole, "lang {lang:?}, cut at {cut}");
            }
        }
    }
}
