#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests of wright-config: real files in temporary directories,
//! an injected environment, and the public API only.

mod suite;
