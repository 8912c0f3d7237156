//! The shell lexer of the destructive-command [`guard`](crate::guard), for
//! other crates (the permission engine) to split commands exactly as the
//! guard does.
//!
//! [`lex_script`] turns a script into simple [`Command`]s: their [`Word`]s
//! with quoting removed and what the shell would expand flagged, their
//! [`Redirect`]s by [`RedirectKind`], the [`Sep`] operator after each and its
//! group depth. Bodies of `$(…)`, backticks, `<(…)` and `>(…)` are collected
//! as [`Substitution`]s; substitution `n` stands in its word as
//! [`marker`]`(n)`. Here-doc bodies are lexed too, as commands marked
//! [`Command::speculative`], since they only run when the body feeds a shell.

pub use crate::guard_lex::{
    Command, Redirect, RedirectKind, SUBST, Script, Sep, Substitution, Word, has_marker,
    lex_script, marker, marker_index, unnumbered,
};
