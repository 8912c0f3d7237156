//! Integration suites and their shared helpers.

mod binary;
mod builders;
mod client;
mod server;
mod sse;
