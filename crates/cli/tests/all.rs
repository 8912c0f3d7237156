//! End-to-end tests: the real `wright` binary against the loopback mock
//! server, in a temp project with a temp HOME.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
