//! Tool-call ids that every target API accepts. A conversation can move
//! between providers (fallback model, `--provider` on resume), and each API
//! restricts ids differently: Anthropic wants `^[a-zA-Z0-9_-]+$`, OpenAI
//! Chat rejects ids over 40 characters. Each wire builder passes the ids of
//! both a call and its result through [`normalize_tool_call_id`], which is a
//! pure function of the id, so the pair stays matched.

/// The longest id OpenAI's Chat Completions API accepts.
const MAX_LEN: usize = 40;

/// `id` unchanged when it is 1..=40 characters of `[a-zA-Z0-9_-]`;
/// otherwise a sanitized prefix plus a hash of the original, so distinct
/// ids stay distinct.
pub fn normalize_tool_call_id(id: &str) -> String {
    let valid = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
    if !id.is_empty() && id.len() <= MAX_LEN && id.chars().all(valid) {
        return id.to_owned();
    }
    // 64-bit FNV-1a: stable across runs and platforms, unlike std's hasher.
    let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    });
    let prefix: String = id
        .chars()
        .map(|c| if valid(c) { c } else { '_' })
        .take(MAX_LEN - 17)
        .collect();
    let prefix = if prefix.is_empty() { "call" } else { &prefix };
    format!("{prefix}_{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_ids_are_unchanged() {
        for id in ["toolu_01A09q90qw90lq917835lq9", "call_abc-123", "fc_1", "x"] {
            assert_eq!(normalize_tool_call_id(id), id);
        }
    }

    #[test]
    fn invalid_ids_become_valid_distinct_and_stable() {
        let ids = [
            "call:1",
            "call.1",
            "functions.read:0",
            "",
            "ünïcode",
            &"a".repeat(41),
            &"a".repeat(64),
        ];
        let mut seen = std::collections::HashSet::new();
        for id in ids {
            let n = normalize_tool_call_id(id);
            assert!(!n.is_empty() && n.len() <= 40, "{n}");
            assert!(
                n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
                "{n}"
            );
            assert_eq!(n, normalize_tool_call_id(id));
            assert_eq!(normalize_tool_call_id(&n), n, "idempotent");
            assert!(seen.insert(n));
        }
        assert!(normalize_tool_call_id("functions.read:0").starts_with("functions_read_0_"));
    }
}
