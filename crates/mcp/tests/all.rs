//! The crate's one integration-test binary: `McpManager` against the
//! `wright-mcp-test-server` binary (stdio) from wright-test-support.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
