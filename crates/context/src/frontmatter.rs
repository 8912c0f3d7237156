//! Splits a markdown file into its YAML frontmatter and body, and parses the
//! frontmatter with `yaml_serde`. Shared by skills and memory notes.

use serde::de::DeserializeOwned;

/// The frontmatter text and the body after it, or `None` when the file does
/// not open with a `---` line closed by another `---` line.
pub(crate) fn split(text: &str) -> Option<(&str, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))?;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end() == "---" {
            let yaml = &rest[..offset];
            let body = &rest[offset + line.len()..];
            return Some((yaml, body));
        }
        offset += line.len();
    }
    None
}

/// Parses frontmatter into `T`; the error is a message for the user.
pub(crate) fn parse<T: DeserializeOwned>(text: &str) -> Result<(T, String), String> {
    let (yaml, body) = split(text).ok_or_else(|| {
        "no YAML frontmatter (the file must start with a `---` line and close it with another)"
            .to_owned()
    })?;
    let value = yaml_serde::from_str::<T>(yaml).map_err(|e| format!("invalid frontmatter: {e}"))?;
    Ok((value, body.trim_start_matches(['\r', '\n']).to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_frontmatter_and_body() {
        assert_eq!(split("---\na: 1\n---\nbody\n"), Some(("a: 1\n", "body\n")));
        assert_eq!(
            split("---\r\na: 1\r\n---\r\nbody"),
            Some(("a: 1\r\n", "body"))
        );
        assert_eq!(split("\u{feff}---\n---\n"), Some(("", "")));
        assert_eq!(split("no frontmatter"), None);
        assert_eq!(split("---\nunterminated\n"), None);
    }
}
