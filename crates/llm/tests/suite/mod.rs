//! Integration suites.

mod http;
mod resilience;
mod server;
