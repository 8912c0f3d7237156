#![allow(clippy::unwrap_used, clippy::expect_used)]
//! Integration tests of wright-store.

mod suite;
