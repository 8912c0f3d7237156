//! Finding a known secret in text that has been disguised: percent-encoded
//! (`sk%2Dant…`), escaped (`x\u0073k-…`), split by zero-width or other
//! format characters, upper-cased, or with its well-known prefix cut off.
//!
//! The text is normalised into a copy that remembers, for each character,
//! the byte range of the original it came from; any run of the copy equal
//! to a [`WINDOW`]-character piece of the secret's own part (the key with
//! `sk-ant-api03-` and the like removed) is replaced in the original.
//! A 12-character piece of a random key occurs in ordinary text by chance
//! essentially never, and a leak of fewer characters reveals too little of
//! the key to matter.

use std::collections::HashSet;
use std::ops::Range;

/// What replaces every secret (re-exported as `redact::REDACTED`).
pub const REDACTED: &str = "[REDACTED]";

/// Length, in characters, of the pieces of a secret looked for.
pub(crate) const WINDOW: usize = 12;

/// Prefixes that say what kind of key it is, not which key: cut before
/// matching so that text mentioning `sk-ant-api03-` is left alone.
const KEY_PREFIXES: [&str; 5] = [
    "sk-ant-api03-",
    "sk-ant-admin01-",
    "sk-ant-",
    "sk-proj-",
    "sk-",
];

/// One character of the normalised copy and where it came from.
struct Norm {
    ch: char,
    from: Range<usize>,
}

/// Replaces every disguised occurrence of a [`WINDOW`]-character piece of
/// each secret in `text` with [`REDACTED`]. Secrets whose own part is
/// shorter than [`WINDOW`] are left to the exact match in `redact`.
pub(crate) fn redact_disguised(text: &str, secrets: &[&str]) -> String {
    let mut windows: HashSet<Vec<char>> = HashSet::new();
    for secret in secrets {
        let part = secret_part(secret.trim());
        let chars: Vec<char> = part.chars().flat_map(char::to_lowercase).collect();
        if chars.len() >= WINDOW {
            windows.extend(chars.windows(WINDOW).map(<[char]>::to_vec));
        }
    }
    if windows.is_empty() {
        return text.to_owned();
    }
    let norm = normalise(text);
    let mut hit = vec![false; norm.len()];
    let chars: Vec<char> = norm.iter().map(|n| n.ch).collect();
    for (i, w) in chars.windows(WINDOW).enumerate() {
        if windows.contains(w) {
            hit[i..i + WINDOW].iter_mut().for_each(|h| *h = true);
        }
    }
    let mut ranges: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < norm.len() {
        if !hit[i] {
            i += 1;
            continue;
        }
        let start = norm[i].from.start;
        while i < norm.len() && hit[i] {
            i += 1;
        }
        ranges.push(start..norm[i - 1].from.end);
    }
    if ranges.is_empty() {
        return text.to_owned();
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for r in ranges {
        out.push_str(&text[at..r.start]);
        out.push_str(REDACTED);
        at = r.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The key without a prefix that only names its kind.
fn secret_part(secret: &str) -> &str {
    KEY_PREFIXES
        .iter()
        .find_map(|p| {
            secret
                .get(..p.len())
                .filter(|head| head.eq_ignore_ascii_case(p))
                .map(|_| &secret[p.len()..])
        })
        .unwrap_or(secret)
}

/// Zero-width and other invisible format characters that can be slipped
/// inside a key without changing how it looks.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{034F}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{206F}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FEFF}'
    )
}

/// The lower-cased, decoded, visible characters of `text`, each with the
/// original bytes it stands for.
fn normalise(text: &str) -> Vec<Norm> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(text.len());
    let mut i = 0;
    while i < text.len() {
        let (decoded, len) = decode_at(text, bytes, i);
        if !is_invisible(decoded) {
            for ch in decoded.to_lowercase() {
                out.push(Norm {
                    ch,
                    from: i..i + len,
                });
            }
        }
        i += len;
    }
    out
}

/// The character at byte `i` after undoing `%XX` and `\uXXXX` escapes,
/// and how many bytes of the original it took.
fn decode_at(text: &str, bytes: &[u8], i: usize) -> (char, usize) {
    if bytes[i] == b'%'
        && let Some(v) = hex(bytes.get(i + 1..i + 3))
        && let Some(c) = char::from_u32(v).filter(char::is_ascii)
    {
        return (c, 3);
    }
    if bytes[i] == b'\\'
        && matches!(bytes.get(i + 1), Some(b'u' | b'U'))
        && let Some(v) = hex(bytes.get(i + 2..i + 6))
        && let Some(c) = char::from_u32(v)
    {
        return (c, 6);
    }
    // `i` is always at a char boundary: escapes consume whole ASCII runs.
    let c = text[i..].chars().next().unwrap_or('\u{FFFD}');
    (c, c.len_utf8().max(1))
}

fn hex(digits: Option<&[u8]>) -> Option<u32> {
    let digits = digits?;
    if !digits.iter().all(u8::is_ascii_hexdigit) {
        return None;
    }
    u32::from_str_radix(std::str::from_utf8(digits).ok()?, 16).ok()
}

#[cfg(test)]
#[path = "secret_match_tests.rs"]
mod tests;
