use super::*;

#[test]
fn every_key_has_a_default_reading() {
    let s = Settings::default();
    let unset = [
        "provider",
        "model",
        "base_url",
        "max_tokens",
        "system_prompt",
        "system_prompt_file",
        "append_system_prompt",
        "reasoning_effort",
        "thinking_budget",
        "fallback_model",
        "context.keep_recent_tokens",
    ];
    for key in KEYS {
        assert_eq!(s.get(key).is_none(), unset.contains(&key), "{key}");
    }
    assert!(s.get("nope").is_none());
}

#[test]
fn the_default_column_is_what_settings_start_with() {
    let s = Settings::default();
    for key in TABLE {
        if let Some(text) = key.default {
            assert!(
                key.default_value().is_some(),
                "{}: {text} is no TOML value",
                key.name
            );
        }
        assert_eq!(key.default_value(), (key.get)(&s), "{}", key.name);
    }
}

#[test]
fn tables_and_messages_come_from_the_rows() {
    assert_eq!(TOP_KEYS.first(), Some(&"provider"));
    // The tables of their own modules close the list.
    assert_eq!(
        TOP_KEYS[TOP_KEYS.len() - 2..],
        ["projects", "shell_environment"]
    );
    assert_eq!(
        members("sandbox"),
        Some(["mode", "network", "writable_roots", "allow_sockets"].as_slice())
    );
    assert_eq!(
        members("verify"),
        Some(["enabled", "timeout_secs", "checks"].as_slice())
    );
    assert_eq!(members("nope"), None);
    assert_eq!(
        at(&["tools", "bash_timeout_secs"]).map(|k| k.kind.expected()),
        Some("expected an integer from 1 to 600".to_owned())
    );
    const { index_of("max_turns") };
}

#[test]
fn the_reference_in_docs_is_the_table() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/config-keys.md");
    let written = std::fs::read_to_string(file).unwrap_or_default();
    assert!(
        written == reference(),
        "docs/config-keys.md differs from the key table; run \
         `cargo test -p wright-config -- --ignored write_reference`"
    );
}

#[test]
#[ignore = "writes docs/config-keys.md from the key table"]
fn write_reference() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/config-keys.md");
    std::fs::write(file, reference()).unwrap();
}

/// A value of `kind` its `set` accepts: the row's default when it has one,
/// else the smallest of its range, its first word, or a made-up one.
fn sample(key: &Key) -> Parsed {
    use crate::parsed::Parsed as P;
    match key.kind {
        Kind::Text | Kind::Url => P::Text("http://x".into()),
        Kind::File => P::Path("/f".into()),
        Kind::Int(range) => P::Int(range.min),
        Kind::Bool => P::Bool(true),
        Kind::Word(words) => {
            let words = words();
            let first = words
                .trim_start_matches("expected one of: ")
                .split(", ")
                .next();
            P::Text(first.unwrap_or_default().to_owned())
        }
        Kind::Strings | Kind::FileNames => P::Strings(vec!["a".into()]),
        Kind::Paths => P::Paths(vec!["/a".into()]),
        Kind::Tables(_) => P::Bool(true),
    }
}

#[test]
fn every_plain_row_sets_its_own_key() {
    for key in TABLE {
        let assign = (key.set)(sample(&key));
        if matches!(key.kind, Kind::Tables(_)) {
            assert_eq!(assign, None, "{}: its module reads it", key.name);
            continue;
        }
        let Some(assign) = assign else {
            panic!("{} sets nothing", key.name);
        };
        assert_eq!(assign.key(), key.name);
        let mut s = Settings::default();
        assign.apply(&mut s);
        assert!(s.get(key.name).is_some(), "{}", key.name);
    }
}

#[test]
fn a_row_refuses_a_value_of_another_kind_or_an_unknown_word() {
    let provider = find("provider").map(|k| k.set);
    assert_eq!(
        provider.and_then(|set| set(Parsed::Text("gpt".into()))),
        None
    );
    let turns = find("max_turns").map(|k| k.set);
    assert_eq!(turns.and_then(|set| set(Parsed::Bool(true))), None);
    assert_eq!(
        turns.and_then(|set| set(Parsed::Int(7))),
        Some(Assign::MaxTurns(7))
    );
    let secs = find("mcp.tool_timeout_secs").map(|k| k.set);
    assert_eq!(
        secs.and_then(|set| set(Parsed::Int(3))),
        Some(Assign::McpToolTimeoutMs(3000))
    );
}
