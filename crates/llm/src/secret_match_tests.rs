use super::*;
use crate::redact::redact;

const KEY: &str = "sk-ant-api03-REDTEAMKEYMARKER";

fn leaks(text: &str) -> bool {
    let out = redact(text, &[KEY]);
    out.contains("REDTEAM") || out.to_lowercase().contains("keymarker")
}

#[test]
fn disguised_keys_are_redacted() {
    for text in [
        "x\\u0073k-ant-api03-REDTEAMKEYMARKER",
        "here: api03-REDTEAMKEYMARKER.",
        "sk%2Dant%2Dapi03%2DREDTEAMKEYMARKER",
        "sk-ant-api03-%52%45%44TEAMKEYMARKER",
        "s\u{200b}k-ant-api03-REDTEAMKEYMARKER",
        "sk-ant-api03-REDTEAM\u{200b}KEYMARKER",
        "key=REDTEAMKEYMARKER",
        "SK-ANT-API03-REDTEAMKEYMARKER",
        "tail only: TEAMKEYMARKER is 13",
        "\\u0052EDTEAMKEYMARKER",
    ] {
        assert!(!leaks(text), "{text:?} -> {:?}", redact(text, &[KEY]));
    }
}

#[test]
fn the_rest_of_the_text_is_kept() {
    let text = "before s\u{200b}k-ant-api03-REDTEAMKEYMARKER after é";
    let out = redact(text, &[KEY]);
    assert!(out.starts_with("before "), "{out}");
    assert!(out.ends_with(" after é"), "{out}");
    assert!(out.contains(REDACTED), "{out}");
    // Prefixes alone and ordinary text are untouched.
    let prose = "Anthropic keys start with sk-ant-api03- and 100%25 of them are secret";
    assert_eq!(redact_disguised(prose, &[KEY]), prose);
    // Short secrets are left to the exact match.
    assert_eq!(redact_disguised("abc", &["sk-short"]), "abc");
}

#[test]
fn secret_part_drops_only_the_kind() {
    assert_eq!(secret_part(KEY), "REDTEAMKEYMARKER");
    assert_eq!(secret_part("SK-PROJ-abcdef"), "abcdef");
    assert_eq!(secret_part("plain-token"), "plain-token");
}
