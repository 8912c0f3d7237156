//! Tool-call ids each target API accepts. A server's own ids go back to it
//! exactly as it sent them whenever they are valid for its protocol (vLLM's
//! `chatcmpl-tool-<32 hex>`, Anthropic's `toolu_…`, Responses' `call_…`);
//! only ids a protocol would reject are rewritten. A conversation can move
//! between providers (fallback model, `--provider` on resume), and each API
//! restricts ids differently: Anthropic wants `^[a-zA-Z0-9_-]+$`, OpenAI's
//! own Chat service rejects ids over 40 characters, while vLLM and other
//! Chat servers take their longer ids back. Each wire builder passes the
//! ids of both a call and its result through [`IdRules::apply`], a pure
//! function of the id, so the pair stays matched. (Empty and duplicated
//! ids are made unique by the turn loop before they are recorded.)

use std::borrow::Cow;

/// What one API accepts as a tool-call id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IdRules {
    /// The longest id accepted.
    pub max_len: usize,
    /// Whether only `[a-zA-Z0-9_-]` is accepted; otherwise any printable
    /// ASCII without spaces (Chat servers such as Kimi's `functions.read:0`).
    pub strict_charset: bool,
}

impl IdRules {
    /// Anthropic Messages: `^[a-zA-Z0-9_-]+$`.
    pub const ANTHROPIC: IdRules = IdRules {
        max_len: 128,
        strict_charset: true,
    };
    /// OpenAI's own Chat Completions service: at most 40 characters.
    pub const OPENAI_CHAT: IdRules = IdRules {
        max_len: 40,
        strict_charset: true,
    };
    /// Other Chat Completions servers (vLLM, llama.cpp, Ollama, gateways):
    /// they answer with their own ids, which must come back unchanged.
    pub const CHAT: IdRules = IdRules {
        max_len: 128,
        strict_charset: false,
    };
    /// OpenAI Responses `call_id`s (`call_` + 24 alphanumerics from OpenAI).
    pub const RESPONSES: IdRules = IdRules {
        max_len: 64,
        strict_charset: true,
    };

    /// Whether `b` may appear in an id (every accepted character is ASCII,
    /// so no byte of a multi-byte character is).
    fn accepts_byte(self, b: u8) -> bool {
        b.is_ascii_alphanumeric()
            || b == b'_'
            || b == b'-'
            || (!self.strict_charset && b.is_ascii_graphic())
    }

    /// `id` unchanged (borrowed: every request re-sends every id of the
    /// history, so the common case must not allocate) when these rules
    /// accept it; otherwise a sanitized prefix plus a hash of the original,
    /// so distinct ids stay distinct.
    pub fn apply(self, id: &str) -> Cow<'_, str> {
        if !id.is_empty() && id.len() <= self.max_len && id.bytes().all(|b| self.accepts_byte(b)) {
            return Cow::Borrowed(id);
        }
        // 64-bit FNV-1a: stable across runs and platforms, unlike std's hasher.
        let hash = id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
        let strict = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '-';
        let prefix: String = id
            .chars()
            .map(|c| if strict(c) { c } else { '_' })
            .take(self.max_len.min(40) - 17)
            .collect();
        let prefix = if prefix.is_empty() { "call" } else { &prefix };
        Cow::Owned(format!("{prefix}_{hash:016x}"))
    }
}

/// `id` made valid for every API (the strictest rules: 1..=40 characters of
/// `[a-zA-Z0-9_-]`), unchanged when it already is.
pub fn normalize_tool_call_id(id: &str) -> String {
    IdRules::OPENAI_CHAT.apply(id).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALL: [IdRules; 4] = [
        IdRules::ANTHROPIC,
        IdRules::OPENAI_CHAT,
        IdRules::CHAT,
        IdRules::RESPONSES,
    ];

    #[test]
    fn valid_ids_are_unchanged() {
        for id in ["toolu_01A09q90qw90lq917835lq9", "call_abc-123", "fc_1", "x"] {
            for rules in ALL {
                assert_eq!(rules.apply(id), id);
            }
            assert_eq!(normalize_tool_call_id(id), id);
        }
    }

    #[test]
    fn server_ids_valid_for_their_protocol_are_echoed() {
        // vLLM: `chatcmpl-tool-` + 32 hex, 46 characters.
        let vllm = "chatcmpl-tool-0123456789abcdef0123456789abcdef";
        assert_eq!(IdRules::CHAT.apply(vllm), vllm);
        assert_eq!(IdRules::ANTHROPIC.apply(vllm), vllm);
        assert_ne!(IdRules::OPENAI_CHAT.apply(vllm), vllm);
        // Kimi-style ids through vLLM.
        assert_eq!(IdRules::CHAT.apply("functions.read:0"), "functions.read:0");
        assert_eq!(IdRules::ANTHROPIC.apply("functions.read:0").len(), 33);
        let responses = "call_7aBcDeFgHiJkLmNoPqRsTuVw";
        assert_eq!(IdRules::RESPONSES.apply(responses), responses);
    }

    #[test]
    fn invalid_ids_become_valid_distinct_and_stable() {
        let ids = [
            "call:1",
            "call.1",
            "functions.read:0",
            "",
            "ünïcode",
            "with space",
            &"a".repeat(41),
            &"a".repeat(200),
        ];
        for rules in ALL {
            let mut seen = std::collections::HashSet::new();
            for id in ids {
                let n = rules.apply(id);
                assert!(!n.is_empty() && n.len() <= rules.max_len, "{n}");
                assert!(n.bytes().all(|b| rules.accepts_byte(b)), "{n}");
                assert_eq!(n, rules.apply(id));
                assert_eq!(rules.apply(&n), n, "idempotent");
                assert!(seen.insert(n), "distinct");
            }
        }
        assert!(normalize_tool_call_id("functions.read:0").starts_with("functions_read_0_"));
    }
}
