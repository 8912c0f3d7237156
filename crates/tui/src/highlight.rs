//! Syntax highlighting of fenced code with syntect (pure-Rust regexes). The
//! syntax set and theme load once, on the first code block, so start-up
//! does not pay for them.

use std::sync::OnceLock;

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, Theme, ThemeSet};
use syntect::parsing::SyntaxSet;

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

/// The lines of `code` highlighted as `lang` (a fence's info string: `rust`,
/// `py`, `sh`…); plain when the language is unknown.
pub fn highlight(lang: &str, code: &str) -> Vec<Line<'static>> {
    let plain = || -> Vec<Line<'static>> {
        code.lines()
            .map(|l| Line::from(Span::styled(l.to_owned(), code_style())))
            .collect()
    };
    let token = lang.split([' ', ',', '{']).next().unwrap_or_default();
    if token.is_empty() {
        return plain();
    }
    let assets = assets();
    let Some(theme) = assets.theme.as_ref() else {
        return plain();
    };
    let Some(syntax) = assets
        .syntaxes
        .find_syntax_by_token(token)
        .or_else(|| assets.syntaxes.find_syntax_by_extension(token))
    else {
        return plain();
    };
    let mut lines = HighlightLines::new(syntax, theme);
    let mut out = Vec::new();
    for line in syntect::util::LinesWithEndings::from(code) {
        let Ok(regions) = lines.highlight_line(line, &assets.syntaxes) else {
            return plain();
        };
        let spans: Vec<Span<'static>> = regions
            .into_iter()
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
        out.push(Line::from(spans));
    }
    out
}

/// Code without a known language.
fn code_style() -> Style {
    Style::default().fg(Color::Cyan)
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
}
