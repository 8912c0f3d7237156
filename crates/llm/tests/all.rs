//! The integration-test binary of wright-llm: the adapters over real
//! loopback HTTP against a minimal scripted server.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
