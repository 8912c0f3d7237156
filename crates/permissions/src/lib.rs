//! wright-permissions: the permission engine (DESIGN.md §5, issue 4).
//!
//! Pure and fast: [`Engine::check`] turns one tool call into a [`Verdict`]
//! (allow, ask with a suggested rule, or deny with a reason for the model),
//! from the permission [`Mode`], Claude Code-style [`Rule`]s, session grants
//! and hard guards (destructive commands, writes outside the workspace,
//! secret files). Shell commands are normalized first (quoting, wrappers,
//! chains, substitutions, `bash -c`, `eval`) so a rule must allow every part.
//! The engine decides on what a call touches ([`wright_protocol::Touches`],
//! which the call's tool reports), never on the tool's raw arguments, and it
//! chooses the sandbox a command runs under for the mode
//! ([`Engine::command_sandbox`]); `wright-shell` describes commands and
//! `wright-sandbox` enforces.

mod classify;
mod command;
mod confinement;
mod danger;
mod engine;
mod paths;
mod persist;
mod risky_options;
mod rule;
mod shell;
use wright_shell::wrappers;

pub use confinement::command_sandbox;
pub use engine::{
    AlwaysRules, CallInfo, CanAsk, CommandConfinement, DeniedBy, Engine, HookVerdict, Mode,
    PolicyInput, RuleSet, Verdict,
};
pub use persist::append_allow_rule;
pub use rule::{Rule, RuleError};

#[cfg(test)]
mod test_fx;

#[cfg(test)]
#[path = "classify_gen_tests.rs"]
mod classify_gen_tests;

#[cfg(test)]
#[path = "review_tests.rs"]
mod review_tests;

#[cfg(test)]
#[path = "rules_gen_tests.rs"]
mod rules_gen_tests;
