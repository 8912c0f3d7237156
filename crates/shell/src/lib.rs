//! wright-shell: bash commands parsed with tree-sitter-bash into a form the
//! permission engine and the destructive-command guard can trust
//! (DESIGN.md §5, issue 10).
//!
//! [`parse`] turns a script into simple [`Command`]s with static or
//! [`Word::dynamic`] words, their [`Redirect`]s, and nested
//! [`Substitution`]s; anything it does not represent exactly is an
//! [`Unknown`], and a script with unknowns is never "known safe".
//! [`readonly`] is the allowlist of commands *and their options* that only
//! read; [`guard`] is the destructive-command guard, refusing in every
//! permission mode what no rule may allow.

mod ast;
pub mod guard;
mod guard_view;
mod hidden;
mod parse;
pub mod readonly;
mod recent;
mod words;
pub mod wrappers;

pub use ast::{
    Command, Redirect, RedirectKind, SUBST, Script, Sep, Substitution, Unknown, Word, has_marker,
    marker, marker_index, unnumbered,
};
pub use parse::parse;
pub use recent::Recent;
pub use words::simple_escape;

#[cfg(test)]
#[path = "parse_tests.rs"]
mod parse_tests;
