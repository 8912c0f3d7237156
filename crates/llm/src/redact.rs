//! Scrubbing credentials out of text before it reaches an error message or a
//! log: the secrets we know, plus anything that looks like a key.
//!
//! Hand-written rather than regex-based: the patterns are few, ASCII-only,
//! and this keeps the crate free of a regex engine.

/// What replaces every secret.
pub use crate::secret_match::REDACTED;

/// Shortest run after `key`/`token` that is treated as a credential.
const MIN_KEYLIKE_LEN: usize = 16;
/// Shortest body after `sk-` that is treated as a credential.
const MIN_SK_LEN: usize = 8;
/// Shortest value of an `api-key`/`api_key`/`apikey` field that is treated
/// as a credential even without digits: such a field holds nothing else.
const MIN_API_KEY_LEN: usize = 8;

/// Replaces each given secret, and anything key-like (`sk-…`, `sk-ant-…`,
/// `Bearer xxx`, long base64/hex runs after "key" or "token"), with
/// `[REDACTED]`. A given secret is also found disguised: percent-encoded,
/// `\uXXXX`-escaped, split by zero-width characters, in another case, or
/// any 12-character piece of it without its `sk-…-` prefix.
pub fn redact(text: &str, secrets: &[&str]) -> String {
    let mut out = text.to_owned();
    for secret in secrets {
        let secret = secret.trim();
        // Very short "secrets" would shred ordinary words.
        if secret.len() >= 4 {
            out = out.replace(secret, REDACTED);
        }
    }
    let out = crate::secret_match::redact_disguised(&out, secrets);
    redact_keylike(&out)
}

/// [`redact`], then cut to at most `max_chars` characters (with `…`).
/// Redacting first means a cut never leaves half a key behind.
pub fn redact_capped(text: &str, secrets: &[&str], max_chars: usize) -> String {
    let clean = redact(text, secrets);
    match clean.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &clean[..cut]),
        None => clean,
    }
}

fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'+' | b'/' | b'=' | b'~')
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

fn token_len(bytes: &[u8]) -> usize {
    bytes.iter().take_while(|&&b| is_token_byte(b)).count()
}

fn starts_with_ci(bytes: &[u8], prefix: &[u8]) -> bool {
    bytes.len() >= prefix.len() && bytes[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// If `bytes` starts with a key-like credential pattern, returns how many
/// bytes to copy unchanged and how many to replace after them.
fn match_at(bytes: &[u8], at_word_start: bool) -> Option<(usize, usize)> {
    if at_word_start && bytes.starts_with(b"sk-") {
        let len = token_len(bytes);
        if len >= 3 + MIN_SK_LEN {
            return Some((0, len));
        }
    }
    if at_word_start && starts_with_ci(bytes, b"bearer") {
        let spaces = bytes[6..].iter().take_while(|&&b| b == b' ').count();
        let len = token_len(&bytes[6 + spaces..]);
        // Very short words after "bearer" are prose, not tokens.
        if spaces > 0 && len >= 3 {
            return Some((6 + spaces, len));
        }
    }
    if let Some(found) = header_value(bytes, at_word_start) {
        return Some(found);
    }
    for word in [&b"key"[..], b"token"] {
        if !starts_with_ci(bytes, word) {
            continue;
        }
        let after = &bytes[word.len()..];
        // "keyboard", "tokens" and the like are not followed by a value.
        if after.first().is_some_and(|&b| b.is_ascii_alphanumeric()) {
            continue;
        }
        let sep = after
            .iter()
            .take_while(|&&b| matches!(b, b'"' | b'\'' | b':' | b'=' | b' ' | b'\t'))
            .count();
        if sep == 0 || sep > 6 {
            continue;
        }
        let value = &after[sep..];
        let len = token_len(value);
        // Real credentials carry digits; long prose identifiers usually do not.
        if len >= MIN_KEYLIKE_LEN && value[..len].iter().any(u8::is_ascii_digit) {
            return Some((word.len() + sep, len));
        }
    }
    None
}

/// How many separator bytes (quotes, `:`, `=`, blanks) follow; `None`
/// unless there are 1 to 6 of them and one is `:` or `=`, as between a
/// header or field name and its value (prose like "authorization failed"
/// has none).
fn assignment(after: &[u8]) -> Option<usize> {
    let sep = after
        .iter()
        .take_while(|&&b| matches!(b, b'"' | b'\'' | b':' | b'=' | b' ' | b'\t'))
        .count();
    let assigns = after[..sep].iter().any(|&b| b == b':' || b == b'=');
    (1..=6).contains(&sep).then_some(sep).filter(|_| assigns)
}

/// The value of an `Authorization` header or an API-key field
/// (`x-api-key`, `api_key`, `apikey`), whatever it looks like: such
/// fields only ever hold credentials. An auth scheme word (`Bearer`,
/// `Basic`) is kept; the credential after it is replaced.
fn header_value(bytes: &[u8], at_word_start: bool) -> Option<(usize, usize)> {
    if !at_word_start {
        return None;
    }
    let name = if starts_with_ci(bytes, b"authorization") {
        b"authorization".len()
    } else {
        let api = [&b"x-api-key"[..], b"api-key", b"api_key", b"apikey"]
            .into_iter()
            .find(|w| starts_with_ci(bytes, w))?;
        api.len()
    };
    let after = &bytes[name..];
    if after.first().is_some_and(|&b| is_word_byte(b)) {
        return None;
    }
    let sep = assignment(after)?;
    let value = &after[sep..];
    let len = token_len(value);
    if len == 0 {
        return None;
    }
    let scheme = value[..len].iter().all(u8::is_ascii_alphabetic);
    let spaces = value[len..].iter().take_while(|&&b| b == b' ').count();
    if scheme && spaces > 0 {
        let credential = token_len(&value[len + spaces..]);
        // "Bearer [REDACTED]" and the like: nothing left to hide.
        return (credential > 0).then_some((name + sep + len + spaces, credential));
    }
    let is_api_key = name != b"authorization".len();
    if is_api_key && len < MIN_API_KEY_LEN {
        return None;
    }
    Some((name + sep, len))
}

fn redact_keylike(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    let mut i = 0;
    while i < bytes.len() {
        let at_word_start = i == 0 || !is_word_byte(bytes[i - 1]);
        match match_at(&bytes[i..], at_word_start) {
            Some((keep, replace)) => {
                // All patterns are ASCII, so these offsets are char boundaries.
                out.push_str(&text[copied..i + keep]);
                out.push_str(REDACTED);
                i += keep + replace;
                copied = i;
            }
            None => i += 1,
        }
    }
    out.push_str(&text[copied..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn given_secrets_are_replaced() {
        let out = redact("the key abc123XYZ was wrong; abc123XYZ", &["abc123XYZ"]);
        assert_eq!(out, "the key [REDACTED] was wrong; [REDACTED]");
    }

    #[test]
    fn tiny_or_empty_secrets_are_ignored() {
        assert_eq!(redact("a b c", &["", "a"]), "a b c");
    }

    #[test]
    fn sk_keys() {
        assert_eq!(
            redact("Invalid API key: sk-ant-api03-AbC_dEf-123456789.", &[]),
            "Invalid API key: [REDACTED]"
        );
        assert_eq!(
            redact("use sk-proj-abcdefgh12 now", &[]),
            "use [REDACTED] now"
        );
        // Too short to be a key, or inside another word.
        assert_eq!(
            redact("risk-free task-abcdefghijk", &[]),
            "risk-free task-abcdefghijk"
        );
    }

    #[test]
    fn bearer_tokens() {
        assert_eq!(
            redact("Authorization: Bearer eyJhbGciOi.JIUzI1.NiJ9", &[]),
            "Authorization: Bearer [REDACTED]"
        );
        assert_eq!(redact("bearer  abc", &[]), "bearer  [REDACTED]");
        assert_eq!(redact("the bearer of news", &[]), "the bearer of news");
    }

    #[test]
    fn values_after_key_or_token() {
        assert_eq!(
            redact(r#"{"x-api-key": "0123456789abcdef0123"}"#, &[]),
            r#"{"x-api-key": "[REDACTED]"}"#
        );
        assert_eq!(
            redact("access_token=ZXhhbXBsZTEyMzQ1Njc4OTA=&x=1", &[]),
            "access_token=[REDACTED]&x=1"
        );
        assert_eq!(redact("api_key: short1", &[]), "api_key: short1");
        assert_eq!(
            redact(r#""input_tokens": 1234567890123456789"#, &[]),
            r#""input_tokens": 1234567890123456789"#
        );
        assert_eq!(
            redact("keyboard: 0123456789abcdef0123", &[]),
            "keyboard: 0123456789abcdef0123"
        );
        assert_eq!(
            redact("token: invalid_request_error_here", &[]),
            "token: invalid_request_error_here"
        );
    }

    #[test]
    fn authorization_and_api_key_values() {
        assert_eq!(
            redact("Authorization: Basic dXNlcjpwYXNz", &[]),
            "Authorization: Basic [REDACTED]"
        );
        assert_eq!(
            redact(r#"{"authorization":"plainvalue"}"#, &[]),
            r#"{"authorization":"[REDACTED]"}"#
        );
        assert_eq!(
            redact("invalid x-api-key: abcdefghij", &[]),
            "invalid x-api-key: [REDACTED]"
        );
        assert_eq!(redact("api_key=plainword&x", &[]), "api_key=[REDACTED]&x");
        assert_eq!(
            redact("Authorization: Bearer [REDACTED]", &[]),
            "Authorization: Bearer [REDACTED]"
        );
        // Prose mentioning the words is left alone.
        assert_eq!(
            redact("authorization failed; check your api-key", &[]),
            "authorization failed; check your api-key"
        );
        assert_eq!(redact("apikey: short", &[]), "apikey: short");
    }

    #[test]
    fn capped_redaction_never_leaves_half_a_key() {
        let key = "sk-ant-api03-FAKEfakeFAKE0123456789";
        let text = format!("{}{key}", "x ".repeat(10));
        let out = redact_capped(&text, &[], 25);
        assert!(!out.contains("FAKE"), "{out}");
        assert_eq!(redact_capped("héllo", &[], 2), "hé…");
    }

    #[test]
    fn non_ascii_text_survives() {
        assert_eq!(
            redact("clé: ünïcödé sk-abcdefgh1234 €", &[]),
            "clé: ünïcödé [REDACTED] €"
        );
    }
}
