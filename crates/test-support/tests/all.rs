//! The crate's one integration-test binary: the mock server over real
//! loopback sockets, the SSE builders, and the `wright-mock` binary.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod suite;
