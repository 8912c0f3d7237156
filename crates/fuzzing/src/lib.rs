//! The bodies of wright's fuzz targets, one function per target, each
//! taking arbitrary bytes. `fuzz/` (cargo-fuzz, outside the workspace)
//! wraps each in `fuzz_target!`; this crate's `corpus` test runs each over
//! its seed corpus in `fuzz/corpus/<target>/` on stable, so CI exercises
//! every target on every push without libFuzzer.
//!
//! A body panics only when wright would: the targets assert that parsing
//! never panics, plus the cheap invariants noted on each function.

mod config;
mod parsers;
mod policy;
mod session;

pub use config::{config_env, config_toml, remove_scratch, scratch_root};
pub use parsers::{anthropic_decode, chat_decode, frontmatter, responses_decode, sse, tool_args};
pub use policy::{command, permission_rule};
pub use session::session;

/// A fuzz target's body: any bytes in, no panic out.
pub type Body = fn(&[u8]);

/// Every target: its name (the `fuzz/fuzz_targets/<name>.rs` file and the
/// `fuzz/corpus/<name>/` directory) and its body.
pub const TARGETS: [(&str, Body); 11] = [
    ("sse", sse),
    ("anthropic_decode", anthropic_decode),
    ("responses_decode", responses_decode),
    ("chat_decode", chat_decode),
    ("tool_args", tool_args),
    ("config_toml", config_toml),
    ("config_env", config_env),
    ("session", session),
    ("permission_rule", permission_rule),
    ("command", command),
    ("frontmatter", frontmatter),
];

/// Splits `data` into a selector (its first byte) and the rest, so one
/// target can exercise several entry points.
pub(crate) fn select(data: &[u8]) -> (u8, &[u8]) {
    match data.split_first() {
        Some((first, rest)) => (*first, rest),
        None => (0, data),
    }
}
